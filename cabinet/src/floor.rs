//! The floor's slot management system (SAS, issue 48): every frame the
//! host publishes the meters and events to its SAS port and acts on what
//! the floor asked (play disabled or enabled through the core). The port
//! answers polls on a thread of its own, never from a frame; when the
//! floor asks something it wakes the screen, and the next frame acts.

use bevy::prelude::*;

/// Tends the host's SAS link every frame.
pub struct FloorPlugin;

impl Plugin for FloorPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, tend_floor_link);
    }
}

fn tend_floor_link(session: Res<crate::SessionRes>) {
    if let Ok(mut s) = session.0.lock() {
        s.tend_floor();
    }
}
