//! Cascades on the reels (issue 50): after the spin's own window has
//! shown its wins, each cascade the round committed is shown in turn —
//! the window after the fall, its way wins framed one after another with
//! their amounts, the cascade's number and multiplier in the title band.
//! Everything here reads the committed `Cascade`s; nothing is decided.

use game_core::reels::ReelRound;
use game_host::session::Session;

/// Seconds a cascade with no win stays on screen (a cascade that wins
/// stays long enough for each of its wins to be seen).
pub const CASCADE_S: f32 = 0.8;

/// The reveal's steps after the spins: one per cascade of the base spin.
pub fn steps(round: &ReelRound) -> usize {
    round.base.cascades.len()
}

/// The title band while cascade `k` (from 1) of `n` is on the reels.
pub fn heading(s: &Session, k: usize, multiplier: u64) -> String {
    format!("{} {k} · ×{multiplier}", s.t("CASCATA"))
}
