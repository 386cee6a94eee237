//! The cabinet's wiring (issue 70): every frame the host makes the doors
//! what their sensors read and lights the deck's lamps and the tower light
//! (`game_host::panel`); the attendant key's turn opens the audit menu and
//! its return clears what the attendant can clear, as the lab build's K
//! key does. The input devices are read on the host's own threads; when a
//! contact moves they wake the screen, and the next frame acts.

use bevy::prelude::*;
use game_host::command::Command;

use crate::modes::Mode;

/// Tends the host's panel every frame.
pub struct PanelPlugin;

impl Plugin for PanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, tend_wiring);
    }
}

fn tend_wiring(session: Res<crate::SessionRes>, mode: Res<State<Mode>>, mut next: ResMut<NextState<Mode>>) {
    let Ok(mut s) = session.0.lock() else { return };
    s.tend_panel();
    // A turn and a return within one frame each count, in order.
    let mut now = *mode.get();
    for turned in s.take_attendant_key_moves() {
        match (turned, now) {
            (true, _) => now = Mode::Audit,
            (false, Mode::Audit) => {
                s.command(Command::AttendantClear);
                now = Mode::Idle;
            }
            (false, _) => {}
        }
    }
    if now != *mode.get() {
        next.set(now);
    }
}
