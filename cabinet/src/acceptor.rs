//! The note acceptor (issue 70): every frame the host acts on what the
//! acceptor said (a note in escrow decided, a vend valid credited, a fault
//! tilted) and keeps it enabled only while the core would take a note.
//! The acceptor is polled on the host's own thread, never from a frame;
//! when it says something it wakes the screen, and the next frame acts.

use bevy::prelude::*;

/// Tends the host's note acceptor every frame.
pub struct AcceptorPlugin;

impl Plugin for AcceptorPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, tend_note_acceptor);
    }
}

fn tend_note_acceptor(session: Res<crate::SessionRes>) {
    if let Ok(mut s) = session.0.lock() {
        s.tend_acceptor();
    }
}
