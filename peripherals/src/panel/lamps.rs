//! Lamps through the kernel's LED class (`/sys/class/leds/NAME/`): a
//! button's lamp or a tier of the tower light, each an LED the board's
//! driver names. Steady is the LED's `brightness` at its `max_brightness`;
//! flashing is the kernel's `timer` trigger with its `delay_on` and
//! `delay_off`, so a lamp flashes on time whatever the cabinet is busy
//! with, and is written only when what it shows changes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a lamp shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LampState {
    Off,
    On,
    /// On and off in turn, each for half of `period_ms`.
    Flash {
        period_ms: u32,
    },
}

/// A lamp that cannot be driven.
#[derive(Debug, thiserror::Error)]
pub enum LampError {
    #[error("lamp {name}: no LED of that name in {dir} (the board's driver names its LEDs there)")]
    Absent { name: String, dir: String },
    #[error("lamp {name}: {file}: {why}")]
    Io { name: String, file: String, why: String },
}

/// Lamps by name.
pub trait Lamps: Send {
    /// Shows `state` on the lamp `name`.
    fn show(&mut self, name: &str, state: LampState) -> Result<(), LampError>;
}

/// The LED class of a Linux kernel: a directory holding one directory per
/// LED (`/sys/class/leds` on a cabinet).
pub struct LedClass {
    dir: PathBuf,
    /// Each lamp's brightness when on, read once.
    max: BTreeMap<String, String>,
    /// What each lamp was last told to show.
    shown: BTreeMap<String, LampState>,
}

impl LedClass {
    /// The LED class at `dir`, with each of `names` there: an absent one is
    /// an error naming it, before anything is lit.
    pub fn open(dir: &Path, names: &[&str]) -> Result<LedClass, LampError> {
        let mut max = BTreeMap::new();
        for name in names {
            let led = dir.join(name);
            if !led.join("brightness").exists() {
                return Err(LampError::Absent { name: (*name).to_owned(), dir: dir.display().to_string() });
            }
            let file = led.join("max_brightness");
            let m = std::fs::read_to_string(&file).map_err(|e| io(name, &file, &e))?;
            max.insert((*name).to_owned(), m.trim().to_owned());
        }
        Ok(LedClass { dir: dir.to_owned(), max, shown: BTreeMap::new() })
    }

    fn write(&self, name: &str, file: &str, what: &str) -> Result<(), LampError> {
        let path = self.dir.join(name).join(file);
        std::fs::write(&path, what).map_err(|e| io(name, &path, &e))
    }
}

fn io(name: &str, file: &Path, e: &std::io::Error) -> LampError {
    LampError::Io { name: name.to_owned(), file: file.display().to_string(), why: e.to_string() }
}

impl Lamps for LedClass {
    fn show(&mut self, name: &str, state: LampState) -> Result<(), LampError> {
        if self.shown.get(name) == Some(&state) {
            return Ok(());
        }
        let Some(max) = self.max.get(name).cloned() else {
            return Err(LampError::Absent { name: name.to_owned(), dir: self.dir.display().to_string() });
        };
        match state {
            LampState::Off => {
                self.write(name, "trigger", "none")?;
                self.write(name, "brightness", "0")?;
            }
            LampState::On => {
                self.write(name, "trigger", "none")?;
                self.write(name, "brightness", &max)?;
            }
            LampState::Flash { period_ms } => {
                let half = (period_ms / 2).max(1).to_string();
                self.write(name, "brightness", &max)?;
                self.write(name, "trigger", "timer")?;
                self.write(name, "delay_on", &half)?;
                self.write(name, "delay_off", &half)?;
            }
        }
        self.shown.insert(name.to_owned(), state);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory laid out as the kernel lays out its LED class (the
    /// files a board's LED has), for lamps named `names`.
    fn led_class(names: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for n in names {
            let led = dir.path().join(n);
            std::fs::create_dir(&led).unwrap();
            for (f, v) in [("brightness", "0\n"), ("max_brightness", "255\n"), ("trigger", "[none] timer heartbeat\n")] {
                std::fs::write(led.join(f), v).unwrap();
            }
        }
        dir
    }

    fn read(dir: &Path, name: &str, file: &str) -> String {
        std::fs::read_to_string(dir.join(name).join(file)).unwrap()
    }

    #[test]
    fn a_lamp_is_lit_steady_or_flashing_by_the_kernel_timer() {
        let dir = led_class(&["deck:play", "tower:top"]);
        let mut lamps = LedClass::open(dir.path(), &["deck:play", "tower:top"]).unwrap();
        lamps.show("deck:play", LampState::On).unwrap();
        assert_eq!((read(dir.path(), "deck:play", "brightness"), read(dir.path(), "deck:play", "trigger")), ("255".into(), "none".into()));
        lamps.show("tower:top", LampState::Flash { period_ms: 500 }).unwrap();
        let top = |f| read(dir.path(), "tower:top", f);
        assert_eq!((top("trigger"), top("delay_on"), top("delay_off"), top("brightness")), ("timer".into(), "250".into(), "250".into(), "255".into()));
        lamps.show("tower:top", LampState::Off).unwrap();
        assert_eq!((top("trigger"), top("brightness")), ("none".into(), "0".into()));
        // What is shown already is not written again.
        std::fs::write(dir.path().join("tower:top").join("brightness"), "7").unwrap();
        lamps.show("tower:top", LampState::Off).unwrap();
        assert_eq!(top("brightness"), "7");
    }

    #[test]
    fn an_absent_lamp_is_named_before_anything_is_lit() {
        let dir = led_class(&["deck:play"]);
        let Err(e) = LedClass::open(dir.path(), &["deck:play", "tower:top"]) else { panic!("an absent lamp opened") };
        assert!(e.to_string().contains("tower:top"), "{e}");
        assert_eq!(read(dir.path(), "deck:play", "brightness"), "0\n");
        let mut lamps = LedClass::open(dir.path(), &["deck:play"]).unwrap();
        let Err(e) = lamps.show("deck:cash-out", LampState::On) else { panic!("a lamp not opened was lit") };
        assert!(e.to_string().contains("deck:cash-out"), "{e}");
    }
}
