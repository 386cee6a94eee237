//! Input boards as Linux evdev devices (`/dev/input/event*`): a door's
//! switch wired to a GPIO line through the kernel's `gpio-keys` driver, or
//! a USB I/O board, each reporting keys and switches.
//!
//! The device is read with the state of every contact it has at open (the
//! kernel's key and switch state), so a door opened while the cabinet was
//! off is seen at power-up; then its events, which the kernel's sync
//! reports group. Events dropped by a full kernel buffer are made good by
//! the `evdev` crate, which reads the state again and says what changed.

use super::contact::{Change, Contact, EV_KEY, EV_SW, InputError, InputSource, change_of};

/// One evdev input device.
pub struct EvdevInputs {
    device: ::evdev::Device,
    path: String,
    started: bool,
}

impl EvdevInputs {
    /// Opens the device: an absent path, or one that is no input device,
    /// is an error naming it.
    pub fn open(path: &str) -> Result<EvdevInputs, InputError> {
        let device = ::evdev::Device::open(path).map_err(|e| InputError::Device { path: path.to_owned(), why: e.to_string() })?;
        Ok(EvdevInputs { device, path: path.to_owned(), started: false })
    }

    fn error(&self, e: &std::io::Error) -> InputError {
        InputError::Device { path: self.path.clone(), why: e.to_string() }
    }

    /// Every key and switch the device has, closed or open now.
    fn state_now(&self) -> Result<Vec<Change>, InputError> {
        let mut now = Vec::new();
        if let Some(keys) = self.device.supported_keys() {
            let pressed = self.device.get_key_state().map_err(|e| self.error(&e))?;
            now.extend(keys.iter().map(|k| Change { contact: Contact::Key(k.code()), closed: pressed.contains(k) }));
        }
        if let Some(switches) = self.device.supported_switches() {
            let on = self.device.get_switch_state().map_err(|e| self.error(&e))?;
            now.extend(switches.iter().map(|s| Change { contact: Contact::Switch(s.0), closed: on.contains(s) }));
        }
        Ok(now)
    }
}

impl InputSource for EvdevInputs {
    fn read(&mut self) -> Result<Vec<Change>, InputError> {
        if !self.started {
            self.started = true;
            return self.state_now();
        }
        let path = self.path.clone();
        let events = self.device.fetch_events().map_err(|e| InputError::Device { path, why: e.to_string() })?;
        Ok(events.filter(|e| matches!(e.event_type().0, EV_KEY | EV_SW)).filter_map(|e| change_of(e.event_type().0, e.code(), e.value())).collect())
    }

    fn name(&self) -> &str {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_is_no_input_device_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let absent = dir.path().join("event7");
        let Err(e) = EvdevInputs::open(absent.to_str().unwrap()) else { panic!("an absent device opened") };
        assert!(e.to_string().contains("event7"), "{e}");
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"not a device").unwrap();
        let Err(e) = EvdevInputs::open(plain.to_str().unwrap()) else { panic!("a plain file opened as an input device") };
        assert!(e.to_string().contains("plain"), "{e}");
    }
}
