//! A round a power loss interrupted (M-36): resumed at its step on boot,
//! or voided and refunded when no hosted game can resume it (a linked
//! controller's part of it undone first, issue 13).

use meters::CoreError;

use super::Session;
use crate::notice::Notice;
use crate::round::{Progress, Resumed};

impl Session {
    /// Resume the round a power loss interrupted, at its step (M-36), or
    /// void it when no hosted game can resume it.
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
        self.void_interrupted(open.round);
    }

    /// M-36: a round that cannot be resumed is voided and its stakes
    /// refunded. Issue 13: first what a linked controller awarded for the
    /// round goes back to its level, and the round's contribution is taken
    /// back (`return_round`); while a linked pool of the round's
    /// game does not answer the void waits (the round stays open, so no
    /// play) and is tried again every second ([`Session::tend_linked`]).
    pub(super) fn void_interrupted(&mut self, round: u64) {
        let epoch = self.machine.epoch_id().to_owned();
        let game = self.machine.open_round().map(|o| o.game.clone()).unwrap_or_default();
        // Issue 46: a round drawn from a linked controller's nonce has an
        // outcome, which the controller holds too: it is never voided. It
        // stays open (no play) until its game is hosted again and resumes it.
        if let Some(c) = self.machine.open_round().and_then(|o| o.committed.clone()) {
            tracing::error!("M-36 round {round} of {game} cannot be resumed, and it was drawn from pool {}'s nonce: it is never voided", c.pool);
            self.message = Some(Notice::Linked {
                pool: c.pool,
                error: format!("round {round} was drawn from the controller's nonce and is never voided: host game {game} again to finish it"),
            });
            return;
        }
        let mut waiting = None;
        for p in self.linked.iter_mut().filter(|p| p.setup.games.contains(&game)) {
            let pool = p.setup.pool.clone();
            let answer = match p.link.ask(&crate::link_worker::Call::Return { epoch: epoch.clone(), round }) {
                Some(crate::link_worker::Answer::Returned(answer)) => answer,
                // Sent to the pool's link worker: asked again at the next tending.
                _ => {
                    waiting = Some(Notice::Linked { pool, error: format!("the void of round {round} waits for the controller") });
                    break;
                }
            };
            match answer {
                Ok(0) => {}
                Ok(returned) => tracing::warn!("round {round}: {returned} cents the controller awarded returned to pool {pool} before the void"),
                // The controller will not undo the round (it logged why):
                // the void still refunds the stake on this cabinet.
                Err(linked_controller::LinkError::Refused(reason)) => tracing::error!("round {round}: pool {pool} refused to undo the round: {reason}"),
                Err(e) => {
                    waiting = Some(Notice::Linked { pool, error: format!("the void of round {round} waits for the controller: {e}") });
                    break;
                }
            }
        }
        if let Some(notice) = waiting {
            self.void_waiting = Some(round);
            self.message = Some(notice);
            return;
        }
        self.void_waiting = None;
        let reason = "the interrupted game cannot be resumed on this cabinet";
        tracing::warn!("M-36 round {round} voided: {reason}");
        match self.machine.void_round(round, reason) {
            Ok(refund) => self.message = Some(Notice::Voided { refund }),
            Err(e) => self.fail(Notice::Core(e)),
        }
    }
}
