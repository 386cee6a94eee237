//! Screens over the game (issue 45): help, the game menu, the player's
//! history. While one is open the player is reading, not playing: the host
//! refuses every command that plays, bets or moves money out, its
//! [`Controls`](super::Controls) say so (the deck draws those buttons
//! dimmed), and autoplay waits. The cabinet routes every touch to the
//! open overlay alone; the refusal here is the rule behind it, whatever
//! the screen does.
//!
//! Beside it, the attract loop (issue 45): when no credit stands and
//! nobody has touched the cabinet for the configured time, the host says
//! the attract screen is due; a touch or money in ends it.

use serde::{Deserialize, Serialize};

use super::Session;
use crate::notice::Notice;

/// A screen open over the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Overlay {
    /// Rules and paytable (M-8, M-31).
    Help,
    /// The multigame menu (M-9): a game or a denomination can be chosen.
    GameMenu,
    /// The player's history of the session (M-34).
    History,
}

/// What a command does while an overlay is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Under {
    /// Plays, bets, decides or moves money out: refused under any overlay.
    Play,
    /// Chooses a game or a denomination: only the game menu may.
    Choice,
}

impl Session {
    /// The screen open over the game, if any.
    pub fn overlay(&self) -> Option<Overlay> {
        self.overlay
    }

    /// The cabinet opened or closed a screen over the game.
    pub fn set_overlay(&mut self, overlay: Option<Overlay>) {
        if self.overlay != overlay {
            tracing::info!("overlay: {overlay:?}");
        }
        self.overlay = overlay;
    }

    /// Whether an overlay stops a command of this sort now; it is then
    /// refused with a notice that names the overlay to close.
    pub(crate) fn refused_under_overlay(&mut self, what: Under) -> bool {
        let Some(o) = self.overlay else { return false };
        if what == Under::Choice && o == Overlay::GameMenu {
            return false;
        }
        self.fail(Notice::OverlayOpen(o));
        true
    }

    /// Whether the attract screen is due: no credit, no round, nothing
    /// blocking play, no overlay, and nobody has touched the cabinet since
    /// it started or for the configured time (0: only at start).
    pub fn attract_due(&self) -> bool {
        if !self.attract_may_come() {
            return false;
        }
        let after = u64::from(self.config.attract_after_s);
        self.touched.is_none_or(|at| after > 0 && at.elapsed().as_secs() >= after)
    }

    /// Whether the attract loop may come at all: no credit, no round,
    /// nothing blocking play and no overlay (its clock is `touched`).
    pub(super) fn attract_may_come(&self) -> bool {
        self.machine.credit() == 0 && !self.in_round() && self.machine.play_block().is_none() && self.overlay.is_none()
    }
}
