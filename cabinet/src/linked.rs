//! The linked progressive pools' clock (M-19, M-22): ten times a second
//! the host takes what its link workers answered (issue 35: it never waits
//! on the network, so a slow or absent controller costs the frame
//! nothing), delivers the outbox, finishes a round waiting for an award
//! and signals new awards. The pools themselves live in the host. The
//! clock is real time: frames stop while nothing moves (`pacing`), and the
//! host's watchers wake them for news.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::common_conditions::on_real_timer;

/// Tends the linked pools ten times a second: outbox, waiting rounds, M-22 signals.
pub struct LinkedProgressivePlugin;

impl Plugin for LinkedProgressivePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, tend_linked_pools.run_if(on_real_timer(Duration::from_millis(100))));
    }
}

fn tend_linked_pools(session: Res<crate::SessionRes>) {
    if let Ok(mut s) = session.0.lock() {
        s.tend_linked();
    }
}
