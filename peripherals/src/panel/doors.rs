//! Each door's switch and optic, read together (certification.md E-37).
//!
//! A door's contacts are wired so that a closed door closes them: a cut
//! wire, a sensor unplugged or a contact never reported then reads open,
//! which is what E-37 asks ("a disconnected sensor counts as open"). A
//! door is open when any of its sensors reads open. Where an optic is
//! fitted beside the switch, the two must agree: they may differ while the
//! door moves, so a difference is an alarm only once it has lasted
//! [`SETTLE`] (a switch held down by hand with the door open, an optic
//! blinded, a sensor failed).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::contact::{Change, Contact};

/// How long a door's switch and optic may disagree while the door moves.
pub const SETTLE: Duration = Duration::from_millis(1_000);

/// Which contacts a door closes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorWiring<D> {
    pub door: D,
    /// The door's switch.
    pub switch: Contact,
    /// Its optic, where one is fitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optic: Option<Contact>,
}

/// Wiring that cannot be right.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum WiringError {
    #[error("contact {0:?} is wired twice: each sensor reports one door")]
    ContactTwice(Contact),
    #[error("door {0} is wired twice")]
    DoorTwice(String),
}

/// The doors as their sensors read them.
pub struct Doors<D> {
    wiring: Vec<DoorWiring<D>>,
    /// Each contact's last reading: closed or not; absent, never read.
    read: BTreeMap<Contact, bool>,
    /// When each door's sensors began to disagree.
    disagree_since: BTreeMap<usize, Instant>,
}

impl<D: Copy + Ord + std::fmt::Debug> Doors<D> {
    pub fn new(wiring: Vec<DoorWiring<D>>) -> Result<Doors<D>, WiringError> {
        let mut contacts = BTreeSet::new();
        let mut doors = BTreeSet::new();
        for w in &wiring {
            if !doors.insert(w.door) {
                return Err(WiringError::DoorTwice(format!("{:?}", w.door)));
            }
            for c in std::iter::once(w.switch).chain(w.optic) {
                if !contacts.insert(c) {
                    return Err(WiringError::ContactTwice(c));
                }
            }
        }
        Ok(Doors { wiring, read: BTreeMap::new(), disagree_since: BTreeMap::new() })
    }

    /// Whether `contact` is one of the doors'.
    pub fn wires(&self, contact: Contact) -> bool {
        self.wiring.iter().any(|w| w.switch == contact || w.optic == Some(contact))
    }

    /// The doors wired.
    pub fn doors(&self) -> impl Iterator<Item = D> + '_ {
        self.wiring.iter().map(|w| w.door)
    }

    /// A contact read at `now`; one no door has is ignored.
    pub fn apply(&mut self, change: Change, now: Instant) {
        if !self.wires(change.contact) {
            return;
        }
        self.read.insert(change.contact, change.closed);
        for (i, w) in self.wiring.iter().enumerate() {
            let Some(optic) = w.optic else { continue };
            let differ = self.closed(w.switch) != self.closed(optic);
            if !differ {
                self.disagree_since.remove(&i);
            } else {
                self.disagree_since.entry(i).or_insert(now);
            }
        }
    }

    fn closed(&self, c: Contact) -> bool {
        self.read.get(&c).copied().unwrap_or(false)
    }

    /// Whether `door` is open: any of its sensors reads open or was never
    /// read. A door not wired here is not this panel's to say.
    pub fn is_open(&self, door: D) -> Option<bool> {
        let w = self.wiring.iter().find(|w| w.door == door)?;
        Some(!self.closed(w.switch) || w.optic.is_some_and(|o| !self.closed(o)))
    }

    /// Whether every sensor of `door` was read and reads open: what
    /// authorises an act done "with the door open" (issue 68: a RAM clear
    /// from the command line). A sensor never read counts open for the
    /// alarm's sake ([`Doors::is_open`]), never as a door opened on purpose.
    pub fn reads_open(&self, door: D) -> Option<bool> {
        let w = self.wiring.iter().find(|w| w.door == door)?;
        Some(std::iter::once(w.switch).chain(w.optic).all(|c| self.read.get(&c) == Some(&false)))
    }

    /// The doors whose switch and optic have disagreed for [`SETTLE`] or
    /// more at `now`.
    /// Read every frame: nothing is allocated.
    pub fn disagreeing(&self, now: Instant) -> impl Iterator<Item = D> + '_ {
        self.disagree_since
            .iter()
            .filter(move |(_, since)| now.saturating_duration_since(**since) >= SETTLE)
            .filter_map(|(i, _)| self.wiring.get(*i).map(|w| w.door))
    }

    /// Whether `door`'s switch and optic have disagreed for [`SETTLE`] or
    /// more at `now`.
    pub fn disagrees(&self, door: D, now: Instant) -> bool {
        self.disagreeing(now).any(|d| d == door)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Door {
        Main,
        Logic,
    }

    const MAIN_SWITCH: Contact = Contact::Switch(0);
    const MAIN_OPTIC: Contact = Contact::Switch(1);
    const LOGIC_SWITCH: Contact = Contact::Key(0x100);

    fn doors() -> Doors<Door> {
        Doors::new(vec![
            DoorWiring { door: Door::Main, switch: MAIN_SWITCH, optic: Some(MAIN_OPTIC) },
            DoorWiring { door: Door::Logic, switch: LOGIC_SWITCH, optic: None },
        ])
        .unwrap()
    }

    fn set(d: &mut Doors<Door>, contact: Contact, closed: bool, at: Instant) {
        d.apply(Change { contact, closed }, at);
    }

    #[test]
    fn a_door_never_read_or_read_open_by_any_sensor_is_open() {
        let t = Instant::now();
        let mut d = doors();
        assert_eq!(d.is_open(Door::Main), Some(true), "never read: a disconnected sensor counts as open (E-37)");
        assert_eq!(d.is_open(Door::Logic), Some(true));
        set(&mut d, MAIN_SWITCH, true, t);
        assert_eq!(d.is_open(Door::Main), Some(true), "the optic is still unread");
        set(&mut d, MAIN_OPTIC, true, t);
        set(&mut d, LOGIC_SWITCH, true, t);
        assert_eq!((d.is_open(Door::Main), d.is_open(Door::Logic)), (Some(false), Some(false)));
        set(&mut d, MAIN_OPTIC, false, t);
        assert_eq!(d.is_open(Door::Main), Some(true), "the optic alone says open");
        set(&mut d, MAIN_OPTIC, true, t);
        set(&mut d, MAIN_SWITCH, false, t);
        assert_eq!(d.is_open(Door::Main), Some(true), "the switch alone says open");
        set(&mut d, Contact::Key(30), false, t);
        assert_eq!(d.is_open(Door::Logic), Some(false), "a contact no door has changes nothing");
    }

    /// Issue 68: "open" as an authorisation is every sensor read open,
    /// never a sensor unread.
    #[test]
    fn a_door_reads_open_only_when_every_sensor_was_read_open() {
        let t = Instant::now();
        let mut d = doors();
        assert_eq!((d.reads_open(Door::Main), d.reads_open(Door::Logic)), (Some(false), Some(false)), "nothing read");
        set(&mut d, MAIN_SWITCH, false, t);
        assert_eq!(d.reads_open(Door::Main), Some(false), "the optic unread");
        set(&mut d, MAIN_OPTIC, false, t);
        assert_eq!(d.reads_open(Door::Main), Some(true));
        set(&mut d, MAIN_OPTIC, true, t);
        assert_eq!(d.reads_open(Door::Main), Some(false), "the optic reads shut");
        set(&mut d, LOGIC_SWITCH, false, t);
        assert_eq!(d.reads_open(Door::Logic), Some(true));
        let unwired = Doors::new(vec![DoorWiring { door: Door::Main, switch: MAIN_SWITCH, optic: None }]).unwrap();
        assert_eq!(unwired.reads_open(Door::Logic), None, "not this panel's to say");
    }

    #[test]
    fn switch_and_optic_disagreeing_past_the_settle_time_is_an_alarm() {
        let t = Instant::now();
        let mut d = doors();
        set(&mut d, MAIN_SWITCH, true, t);
        set(&mut d, MAIN_OPTIC, true, t);
        assert_eq!(d.disagreeing(t + SETTLE * 5).count(), 0);
        // The door opens: the optic sees it first, the switch a moment later.
        set(&mut d, MAIN_OPTIC, false, t);
        set(&mut d, MAIN_SWITCH, false, t + SETTLE / 2);
        assert_eq!(d.disagreeing(t + SETTLE * 5).count(), 0, "a door moving is no alarm");
        // The switch is held shut by hand with the door open.
        set(&mut d, MAIN_SWITCH, true, t + SETTLE);
        assert!(!d.disagrees(Door::Main, t + SETTLE + SETTLE / 2), "not yet");
        assert_eq!(d.disagreeing(t + SETTLE * 2).collect::<BTreeSet<_>>(), BTreeSet::from([Door::Main]));
        assert_eq!(d.is_open(Door::Main), Some(true), "the optic's open stands");
        set(&mut d, MAIN_OPTIC, true, t + SETTLE * 3);
        assert_eq!(d.disagreeing(t + SETTLE * 9).count(), 0, "agreeing again");
        // An optic that never reports, beside a closed switch.
        let mut fresh = doors();
        set(&mut fresh, MAIN_SWITCH, true, t);
        assert_eq!(fresh.disagreeing(t + SETTLE).collect::<BTreeSet<_>>(), BTreeSet::from([Door::Main]));
    }

    #[test]
    fn a_contact_or_a_door_wired_twice_is_refused() {
        let twice = Doors::new(vec![
            DoorWiring { door: Door::Main, switch: MAIN_SWITCH, optic: None },
            DoorWiring { door: Door::Logic, switch: MAIN_SWITCH, optic: None },
        ]);
        assert_eq!(twice.err(), Some(WiringError::ContactTwice(MAIN_SWITCH)));
        let same = Doors::new(vec![DoorWiring { door: Door::Main, switch: MAIN_SWITCH, optic: Some(MAIN_SWITCH) }]);
        assert_eq!(same.err(), Some(WiringError::ContactTwice(MAIN_SWITCH)));
        let door = Doors::new(vec![
            DoorWiring { door: Door::Main, switch: MAIN_SWITCH, optic: None },
            DoorWiring { door: Door::Main, switch: MAIN_OPTIC, optic: None },
        ]);
        assert_eq!(door.err(), Some(WiringError::DoorTwice("Main".into())));
    }
}
