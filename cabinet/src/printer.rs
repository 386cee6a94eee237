//! The ticket printer (issue 70): every frame the host acts on what the
//! printer said (a ticket printed journaled, a fault tilted) and gives it
//! the next unprinted ticket once it is ready. The printer is polled on
//! the host's own thread, never from a frame; when it says something it
//! wakes the screen, and the next frame acts.

use bevy::prelude::*;

/// Tends the host's ticket printer every frame.
pub struct PrinterPlugin;

impl Plugin for PrinterPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, tend_ticket_printer);
    }
}

fn tend_ticket_printer(session: Res<crate::SessionRes>) {
    if let Ok(mut s) = session.0.lock() {
        s.tend_printer();
    }
}
