//! The cabinet's wiring on the real host (issue 70): the doors' switches
//! and optics and the attendant key read from Linux input devices, the
//! button deck's lamps and the tower light driven through the LED class
//! (`peripherals::panel`).
//!
//! The doors' sensors are the truth about the doors: each frame the host
//! makes the core's record of each wired door what its sensors say (E-37:
//! any sensor open, or one not read, is an open door), so a door opened
//! while the cabinet was off is journaled open at power-up, and a door the
//! lab's key or the operator panel toggles comes back to what its sensors
//! read. A door whose switch and optic disagree past the time it takes to
//! move sets its own tilt ([`meters::Tilt::DoorSensors`]), which the
//! attendant clears once the two agree. An input device that fails reads
//! as every door open until it is opened again.
//!
//! The lamps: a button's lamp is lit exactly when its button does
//! something now ([`crate::session::controls::Controls`], which the screen
//! draws from too); the tower light as [`tower`] says.

pub mod tower;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use meters::{Door, Tilt};
use peripherals::panel::{Change, Contact, DoorWiring, Doors, EvdevInputs, InputSource, LampState, Lamps, LedClass};
use serde::{Deserialize, Serialize};

use crate::notice::Notice;
use crate::session::Session;

/// How the cabinet is wired (configuration key `panel`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PanelSetup {
    /// The input devices (`/dev/input/event*`, or their `by-path` names)
    /// the doors' sensors and the attendant key are wired to.
    pub inputs: Vec<PathBuf>,
    /// Each door's switch, and its optic where one is fitted; a contact
    /// closes when the door is shut. Doors not listed are not fitted with
    /// sensors.
    pub doors: Vec<DoorWiring<Door>>,
    /// The attendant's key switch: closed while turned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendant_key: Option<Contact>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lamps: Option<LampSetup>,
}

/// The lamps, by the names the board's driver gives its LEDs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LampSetup {
    /// The kernel's LED class.
    #[serde(default = "default_led_dir")]
    pub dir: PathBuf,
    /// Each deck button's lamp.
    #[serde(default)]
    pub buttons: BTreeMap<DeckLamp, String>,
    /// The tower light's top tier (in service, doors, faults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tower_top: Option<String>,
    /// Its bottom tier (the attendant called: hand-pays, faults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tower_bottom: Option<String>,
}

fn default_led_dir() -> PathBuf {
    PathBuf::from("/sys/class/leds")
}

/// The deck's buttons that carry a lamp, as [`crate::session::controls::Controls`] names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DeckLamp {
    Play,
    BetDown,
    BetUp,
    Lines,
    MaxBet,
    CashOut,
    GameMenu,
    Denomination,
    Help,
    Language,
}

impl PanelSetup {
    /// What is wrong with the wiring, if anything.
    pub fn problem(&self) -> Option<String> {
        // The lab build's keys may stand in for every input device.
        if self.inputs.is_empty() && !cfg!(feature = "lab") && (!self.doors.is_empty() || self.attendant_key.is_some()) {
            return Some("panel: doors or an attendant key are wired but no input device is named".into());
        }
        if let Err(e) = Doors::new(self.doors.clone()) {
            return Some(format!("panel: {e}"));
        }
        if let Some(key) = self.attendant_key
            && self.doors.iter().any(|w| w.switch == key || w.optic == Some(key))
        {
            return Some(format!("panel: the attendant key's contact {key:?} is a door's too"));
        }
        None
    }
}

/// What an input device's thread says.
enum Heard {
    Changes(Vec<Change>),
    /// The device failed: every contact reads open until it is back.
    Lost(String),
}

/// The panel's link: the input devices' threads, the doors as their
/// sensors read, the lamps.
pub struct PanelLink {
    setup: PanelSetup,
    doors: Doors<Door>,
    heard: Receiver<Heard>,
    /// Kept so that a link with no input device still has a live channel.
    _tell: Sender<Heard>,
    lamps: Option<LedClass>,
    /// The attendant key's position, as last read.
    key_turned: bool,
    /// The key's turns and returns not yet taken by the cabinet.
    key_moves: Vec<bool>,
    /// The last lamp failure said, so it is said once.
    lamp_fault: Option<String>,
}

/// How long an input device that failed waits before it is opened again.
const REOPEN: Duration = Duration::from_secs(1);

impl PanelLink {
    /// Opens every input device and reads its state now (so the first
    /// frame knows the doors as they are), then reads each on its own
    /// thread; opens the lamps. An absent device or lamp is an error that
    /// names it.
    pub fn start(setup: &PanelSetup, wake: &crate::wake::Wake) -> Result<PanelLink, String> {
        if let Some(p) = setup.problem() {
            return Err(p);
        }
        let mut doors = Doors::new(setup.doors.clone()).map_err(|e| format!("panel: {e}"))?;
        let (tell, heard) = channel();
        let now = Instant::now();
        let mut key_turned = false;
        for path in &setup.inputs {
            let name = path.display().to_string();
            let mut source = EvdevInputs::open(&name).map_err(|e| format!("panel: {e}"))?;
            for c in source.read().map_err(|e| format!("panel: {e}"))? {
                doors.apply(c, now);
                if Some(c.contact) == setup.attendant_key {
                    key_turned = c.closed;
                }
            }
            let tell = tell.clone();
            let wake = wake.clone();
            // Blocks on the device; ends with the process.
            std::thread::Builder::new()
                .name(format!("panel {name}"))
                .spawn(move || read_forever(source, &name, &tell, &wake))
                .map_err(|e| format!("panel: cannot start the thread of {}: {e}", path.display()))?;
        }
        let lamps = match &setup.lamps {
            Some(l) => {
                let names: Vec<&str> = l.buttons.values().map(String::as_str).chain(l.tower_top.as_deref()).chain(l.tower_bottom.as_deref()).collect();
                Some(LedClass::open(&l.dir, &names).map_err(|e| format!("panel: {e}"))?)
            }
            None => None,
        };
        Ok(PanelLink { setup: setup.clone(), doors, heard, _tell: tell, lamps, key_turned, key_moves: Vec::new(), lamp_fault: None })
    }

    /// A change read from a source the host feeds itself (the lab build's
    /// keys): the same path as a device's.
    fn apply(&mut self, c: Change, now: Instant) {
        self.doors.apply(c, now);
        if Some(c.contact) == self.setup.attendant_key && c.closed != self.key_turned {
            self.key_turned = c.closed;
            self.key_moves.push(c.closed);
        }
    }

    /// The sensors of `door`, or of every wired door.
    fn sensors(&self, door: Option<Door>) -> Vec<Contact> {
        self.setup.doors.iter().filter(|w| door.is_none_or(|d| w.door == d)).flat_map(|w| std::iter::once(w.switch).chain(w.optic)).collect()
    }

    /// Every wired contact reads open (a device lost).
    fn all_open(&mut self, now: Instant) {
        for contact in self.sensors(None) {
            self.doors.apply(Change { contact, closed: false }, now);
        }
    }

    fn show(&mut self, name: Option<&str>, state: LampState) {
        let (Some(lamps), Some(name)) = (self.lamps.as_mut(), name) else { return };
        match lamps.show(name, state) {
            Ok(()) => {}
            Err(e) => {
                let e = e.to_string();
                if self.lamp_fault.as_ref() != Some(&e) {
                    tracing::warn!("{e}");
                    self.lamp_fault = Some(e);
                }
            }
        }
    }
}

/// An input device's thread: its changes as they come; when it fails,
/// says so and opens it again each [`REOPEN`], starting with its state.
fn read_forever(mut source: EvdevInputs, name: &str, tell: &Sender<Heard>, wake: &crate::wake::Wake) {
    loop {
        let heard = match source.read() {
            Ok(changes) => Heard::Changes(changes),
            Err(e) => Heard::Lost(e.to_string()),
        };
        let lost = matches!(heard, Heard::Lost(_));
        if tell.send(heard).is_err() {
            return;
        }
        wake.wake();
        if lost {
            loop {
                std::thread::sleep(REOPEN);
                if let Ok(s) = EvdevInputs::open(name) {
                    source = s;
                    break;
                }
            }
        }
    }
}

/// Whether `door`'s sensors, read once now from the input devices `setup`
/// names, all read open (issue 68: the command line's RAM clear asks the
/// door switch instead of taking the operator's word); `Ok(None)` when the
/// panel wires no sensor of that door. A device that cannot be read is an
/// error naming it: an unread sensor never authorises anything.
pub fn door_reads_open(setup: &PanelSetup, door: Door) -> Result<Option<bool>, String> {
    let mut doors = Doors::new(setup.doors.clone()).map_err(|e| format!("panel: {e}"))?;
    if doors.reads_open(door).is_none() {
        return Ok(None);
    }
    let now = Instant::now();
    for path in &setup.inputs {
        let name = path.display().to_string();
        let mut source = EvdevInputs::open(&name).map_err(|e| format!("the {door:?} door's sensors cannot be read: {e}"))?;
        for change in source.read().map_err(|e| format!("the {door:?} door's sensors cannot be read: {e}"))? {
            doors.apply(change, now);
        }
    }
    Ok(doors.reads_open(door))
}

impl Session {
    /// Starts the panel the configuration wires, if any (at boot).
    pub(crate) fn start_panel(&mut self) -> Result<(), String> {
        let Some(setup) = self.config.panel.clone() else { return Ok(()) };
        self.panel = Some(PanelLink::start(&setup, &self.wake)?);
        self.tend_panel();
        Ok(())
    }

    /// A contact read by the cabinet itself (the lab build's keys stand in
    /// for the doors' switches and the attendant key this way): the same
    /// path as an input device's.
    pub fn panel_input(&mut self, change: Change) {
        if let Some(link) = self.panel.as_mut() {
            link.apply(change, Instant::now());
        }
        self.tend_panel();
    }

    /// Each frame: the doors made what their sensors say, a disagreement
    /// tilted, the lamps lit for what the buttons and the cabinet can do.
    pub fn tend_panel(&mut self) {
        let Some(mut link) = self.panel.take() else { return };
        let now = Instant::now();
        while let Ok(heard) = link.heard.try_recv() {
            match heard {
                Heard::Changes(changes) => changes.into_iter().for_each(|c| link.apply(c, now)),
                Heard::Lost(why) => {
                    tracing::warn!("panel: {why}: its doors read open until it is back");
                    link.all_open(now);
                }
            }
        }
        self.doors_as_sensors_read(&link, now);
        self.light_lamps(&mut link);
        self.panel = Some(link);
    }

    fn doors_as_sensors_read(&mut self, link: &PanelLink, now: Instant) {
        for door in link.doors.doors() {
            let open = link.doors.is_open(door) == Some(true);
            let journaled = self.machine.state().doors_open.contains(&door);
            if open != journaled {
                let r = if open { self.machine.open_door(door) } else { self.machine.close_door(door) };
                if let Err(e) = r {
                    self.fail(Notice::Core(e));
                }
            }
        }
        for door in link.doors.disagreeing(now) {
            let tilt = Tilt::DoorSensors(door);
            if !self.machine.state().tilts.contains(&tilt) {
                let detail = format!("{door:?} door: its switch and its optic disagree");
                if let Err(e) = self.machine.set_tilt(tilt, &detail) {
                    self.fail(Notice::Core(e));
                }
            }
        }
    }

    fn light_lamps(&mut self, link: &mut PanelLink) {
        // Borrowed out of the link for the frame, not copied.
        let Some(setup) = link.setup.lamps.take() else { return };
        let c = self.controls();
        for (button, name) in &setup.buttons {
            let lit = match button {
                DeckLamp::Play => c.play,
                DeckLamp::BetDown => c.bet_down,
                DeckLamp::BetUp => c.bet_up,
                DeckLamp::Lines => c.lines,
                DeckLamp::MaxBet => c.max_bet,
                DeckLamp::CashOut => c.cash_out,
                DeckLamp::GameMenu => c.game_menu,
                DeckLamp::Denomination => c.denomination,
                DeckLamp::Help => c.help,
                DeckLamp::Language => c.language,
            };
            link.show(Some(name), if lit { LampState::On } else { LampState::Off });
        }
        let t = tower::tower(&self.machine);
        link.show(setup.tower_top.as_deref(), t.top);
        link.show(setup.tower_bottom.as_deref(), t.bottom);
        link.setup.lamps = Some(setup);
    }

    /// The attendant clears the doors' sensors' tilts whose switch and
    /// optic agree now.
    pub(crate) fn attendant_clears_door_sensors(&mut self) {
        let Some(link) = self.panel.as_ref() else { return };
        let now = Instant::now();
        let disagreeing: Vec<Door> = link.doors.disagreeing(now).collect();
        let standing: Vec<Tilt> = self.machine.state().tilts.iter().copied().filter(|t| matches!(t, Tilt::DoorSensors(_))).collect();
        for t in standing {
            if let Tilt::DoorSensors(d) = t
                && !disagreeing.contains(&d)
                && let Err(e) = self.machine.clear_tilt(t, "attendant")
            {
                self.fail(Notice::Core(e));
            }
        }
    }

    /// Whether the panel reads `door`'s sensors.
    pub(crate) fn panel_wires(&self, door: Door) -> bool {
        self.panel.as_ref().is_some_and(|l| l.doors.is_open(door).is_some())
    }

    /// The lab build's door key: every sensor of `door` moves to the other
    /// side, as the door itself would move them.
    pub(crate) fn move_door_sensors(&mut self, door: Door) {
        let Some(link) = self.panel.as_ref() else { return };
        let closed = link.doors.is_open(door) == Some(true);
        for contact in link.sensors(Some(door)) {
            self.panel_input(Change { contact, closed });
        }
    }

    /// The attendant key's turns (true) and returns (false) since the
    /// cabinet last asked, in order.
    pub fn take_attendant_key_moves(&mut self) -> Vec<bool> {
        self.panel.as_mut().map(|l| std::mem::take(&mut l.key_moves)).unwrap_or_default()
    }
}
