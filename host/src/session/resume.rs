//! A round a power loss interrupted (M-36): resumed at its step on boot,
//! and finished with its committed outcome. Never voided (issue 47, hole
//! 6): the configuration must host its game (`open_machine`).

use meters::CoreError;

use super::Session;
use crate::notice::Notice;
use crate::round::{Progress, Resumed};

impl Session {
    /// Resume the round a power loss interrupted, at its step (M-36).
    pub(super) fn resume_interrupted_round(&mut self) {
        let Some(open) = self.machine.open_round().cloned() else { return };
        let recall = match self.machine.recall(1) {
            Ok(mut r) => r.pop().filter(|r| r.round == open.round),
            Err(e) => {
                self.fail(Notice::Core(CoreError::CriticalMemory(e.to_string())));
                return;
            }
        };
        if let Some(recall) = recall {
            for i in 0..self.games.len() {
                self.selected = i;
                let mut resumed = None;
                self.on_table(|t, cx| match t.resume(cx, &recall) {
                    Resumed::NotMine => Ok(Progress::Open),
                    Resumed::Resumed(done) => {
                        resumed = Some(());
                        done
                    }
                });
                if resumed.is_some() {
                    if self.message.is_none() {
                        self.message = Some(Notice::Resumed);
                    }
                    tracing::warn!("M-36 round {} resumed on {}", open.round, self.game().id());
                    return;
                }
            }
            self.selected = 0;
        }
        // Issue 47, hole 6: never voided. Its outcome is in critical
        // memory; the configuration hosts its game (`open_machine` refuses
        // one that does not), so a game that cannot take it back is a fault
        // for the attendant and the lab, and the round stays open (no play).
        tracing::error!("M-36 round {} of {} cannot be resumed by its game; it is never voided", open.round, open.game);
        self.message = Some(Notice::CannotResume { round: open.round, game: open.game });
    }
}
