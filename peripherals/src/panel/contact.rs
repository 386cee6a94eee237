//! A contact of the cabinet's wiring and the sources that report them.

use serde::{Deserialize, Serialize};

/// A contact as a Linux input device reports it: a key code (`EV_KEY`, a
/// button or a key switch wired as one) or a switch code (`EV_SW`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Contact {
    Key(u16),
    Switch(u16),
}

/// A contact read closed (pressed, switched on) or open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub contact: Contact,
    pub closed: bool,
}

/// Why an input source cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("input device {path}: {why}")]
    Device { path: String, why: String },
}

/// An input board: its first read is every contact's state now, each
/// later read waits for the next changes.
pub trait InputSource: Send {
    /// The contacts' state now (first call), then the changes as they
    /// come; blocks until there is something to say.
    fn read(&mut self) -> Result<Vec<Change>, InputError>;
    /// What the source is, for messages (its device path).
    fn name(&self) -> &str;
}

/// Linux's event types (`linux/input-event-codes.h`).
pub(crate) const EV_KEY: u16 = 0x01;
pub(crate) const EV_SW: u16 = 0x05;

/// The change one input event says, if it says one: a key pressed (1) or
/// released (0) — its auto-repeat (2) is no change — or a switch on or
/// off; every other event (sync, relative, absolute…) is none.
pub fn change_of(event_type: u16, code: u16, value: i32) -> Option<Change> {
    let contact = match event_type {
        EV_KEY => Contact::Key(code),
        EV_SW => Contact::Switch(code),
        _ => return None,
    };
    match value {
        0 => Some(Change { contact, closed: false }),
        1 => Some(Change { contact, closed: true }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_switches_change_and_nothing_else_does() {
        assert_eq!(change_of(EV_KEY, 30, 1), Some(Change { contact: Contact::Key(30), closed: true }));
        assert_eq!(change_of(EV_KEY, 30, 0), Some(Change { contact: Contact::Key(30), closed: false }));
        assert_eq!(change_of(EV_KEY, 30, 2), None, "auto-repeat is no change");
        assert_eq!(change_of(EV_SW, 5, 1), Some(Change { contact: Contact::Switch(5), closed: true }));
        assert_eq!(change_of(EV_SW, 5, 0), Some(Change { contact: Contact::Switch(5), closed: false }));
        assert_eq!(change_of(0x00, 0, 0), None, "a sync report");
        assert_eq!(change_of(0x02, 0, 1), None, "a relative axis");
        assert_eq!(change_of(0x04, 4, 1), None, "a scan code");
    }
}
