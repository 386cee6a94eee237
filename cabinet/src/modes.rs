//! The cabinet's modes (Bevy `States`) and the system that follows the
//! core: a door, a tilt or a hand-pay takes the cabinet to `Tilt` at once,
//! and back when it is cleared; the attract loop when the host says it is
//! due (issue 45).

use bevy::prelude::*;

use crate::SessionRes;

#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Attract screen: no credit, nobody playing (at start, and after the
    /// configured time with no credit and no touch).
    #[default]
    Attract,
    /// Game selection and bet: between rounds.
    Idle,
    /// A round is on screen: reels spinning, wins, double-up.
    Playing,
    /// The player's history of this session (M-34).
    Recall,
    /// Operator and audit menu, behind the attendant key.
    Audit,
    /// Play stopped: door open, tilt, hand-pay, critical memory.
    Tilt,
}

pub struct ModesPlugin;

impl Plugin for ModesPlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<Mode>().add_systems(Update, follow_core_mode);
    }
}

/// Keep the mode in step with the core: tilt when play is blocked, playing
/// while a round is open, attract when idle without credit.
fn follow_core_mode(session: Res<SessionRes>, mode: Res<State<Mode>>, mut next: ResMut<NextState<Mode>>) {
    let Ok(s) = session.0.lock() else { return };
    let current = *mode.get();
    if current == Mode::Audit {
        return;
    }
    let blocked = s.block_text().is_some();
    // Issue 45: the attract loop whenever the host says it is due (at
    // start, and after the configured time with no credit and no touch),
    // left by any touch or money in.
    let want = if blocked {
        Mode::Tilt
    } else if s.in_round() {
        Mode::Playing
    } else if current == Mode::Recall {
        Mode::Recall
    } else if s.attract_due() {
        Mode::Attract
    } else {
        Mode::Idle
    };
    if want != current {
        next.set(want);
    }
}
