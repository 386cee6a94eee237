//! The session rules (M-35, M-38, M-39): inactivity, demonstration play,
//! the session's time and credit limits.

use super::Session;
use crate::notice::{Notice, Warning};

impl Session {
    /// The player pressed something: the inactivity clock restarts.
    pub fn touch(&mut self) {
        let now = std::time::Instant::now();
        self.last_activity = now;
        self.touched = Some(now);
    }

    /// Whether this is a demonstration cabinet (M-39).
    pub fn demo(&self) -> bool {
        self.config.demo
    }

    pub(super) fn refuse_in_demo(&mut self) -> bool {
        if self.demo() {
            self.fail(Notice::Demonstration);
        }
        self.demo()
    }

    /// Once a second: the M-38 warnings, and the end of an idle session
    /// (M-35: the operator may end it when no play is made in the set time;
    /// the credit is cashed out on a ticket).
    pub fn tend_session(&mut self) {
        let credit = self.machine.credit();
        if self.in_round() || credit == 0 {
            self.last_activity = std::time::Instant::now();
        }
        let timeout = u64::from(self.config.inactivity_timeout_s);
        let idle = self.last_activity.elapsed().as_secs();
        let lead = (timeout / 2).min(30);
        let mut warning = None;
        if timeout > 0 && credit > 0 && idle >= timeout {
            tracing::warn!("M-35 session ended: no play for {idle} s; credit {credit} cents cashed out");
            self.last_activity = std::time::Instant::now();
            if self.demo() {
                self.message = Some(Notice::DemonstrationEnded);
            } else {
                self.cash_out();
                let then = self.message.take().map(Box::new);
                self.message = Some(Notice::SessionEnded { then });
            }
        } else if timeout > 0 && credit > 0 && idle + lead >= timeout {
            warning = Some(Warning::SessionEnding { seconds: timeout - idle });
        } else if credit > 0 && credit < self.stake_cents() && !self.in_round() {
            warning = Some(Warning::CreditShort);
        } else if let Some(p) = self.linked.iter().find(|p| p.setup.games.iter().any(|g| g == self.game().id()) && !p.view().available()) {
            warning = Some(Warning::LinkDown { pool: p.setup.pool.clone() });
        }
        if let Some(w) = warning.as_ref().filter(|w| self.warning.as_ref() != Some(*w)) {
            tracing::info!("M-38 warning: {}", w.text(self.lang));
        }
        self.warning = warning;
    }
}
