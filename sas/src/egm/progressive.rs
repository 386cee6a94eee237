//! The EGM's SAS progressive group (sas.md §8): the controller's
//! broadcasts taken (LP 80/86), 53 when they stop for 5 s.

use super::{Egm, Event};
use crate::exceptions::Exception;

impl Egm {
    /// The cabinet is in SAS progressive group `group`: its broadcasts
    /// are taken, and 53 told when they stop for 5 s.
    pub fn join_progressive_group(&mut self, group: u8) {
        self.progressive = Some(crate::progressive::Watch::new(group, self.now_us));
    }

    /// A level of the group was won here: its amount is forgotten, so
    /// that the controller's next broadcast of it (reset) is news.
    pub fn progressive_won(&mut self, level: u8) {
        if let Some(w) = self.progressive.as_mut() {
            w.forget(level);
        }
    }

    /// A progressive broadcast (LP 80 or 86, addressed or global): the
    /// levels taken when it is this cabinet's group. Whether it parsed.
    pub(super) fn progressive_broadcast(&mut self, command: u8, data: &[u8]) -> bool {
        let parsed = if command == 0x80 { crate::progressive::parse_80(data) } else { crate::progressive::parse_86(data) };
        let Some((group, levels)) = parsed else { return false };
        let now = self.now_us;
        let changes = self.progressive.as_mut().map(|w| w.broadcast(group, &levels, now)).unwrap_or_default();
        self.progressive_changes(changes);
        true
    }

    pub(super) fn progressive_changes(&mut self, changes: Vec<crate::progressive::Change>) {
        use crate::progressive::Change;
        for change in changes {
            match change {
                Change::Levels(levels) => self.events.push(Event::ProgressiveLevels(levels)),
                Change::Heard(heard) => {
                    if !heard {
                        self.exceptions.raise(Exception { code: 0x53, data: Vec::new(), source: None });
                    }
                    self.events.push(Event::ProgressiveHeard(heard));
                }
            }
        }
    }
}
