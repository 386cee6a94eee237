//! Frame pacing (issue 29): up to 60 frames a second while something moves
//! (a round on screen, a win rolling up, a celebration), 10 while the
//! screen stands still, so an idle cabinet spends little of its processor
//! on drawing the same picture. The frame loop sleeps what is left of the
//! frame's time (egui asks for redraws of its own, so the window's update
//! mode alone would not hold an idle cabinet to 10).

use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::modes::Mode;

/// The shortest frame while something moves: 60 frames a second.
pub const MOVING: Duration = Duration::from_nanos(16_666_667);
/// The frame while nothing moves: 10 frames a second.
pub const STILL: Duration = Duration::from_millis(100);

pub struct FramePacingPlugin;

/// Set by any screen that animates this frame.
#[derive(Resource, Default)]
pub struct Moving(pub bool);

impl Plugin for FramePacingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Moving>().add_systems(First, |mut m: ResMut<Moving>| m.0 = false).add_systems(Last, pace_frames);
    }
}

/// The frame's length now: short while a round is on screen or anything
/// moves, long otherwise.
pub fn frame_length(mode: Mode, moving: bool) -> Duration {
    if moving || mode == Mode::Playing { MOVING } else { STILL }
}

/// Sleep what is left of the frame's length since the last frame ended.
fn pace_frames(mode: Res<State<Mode>>, moving: Res<Moving>, mut last: Local<Option<Instant>>) {
    let frame = frame_length(*mode.get(), moving.0);
    if let Some(then) = *last
        && let Some(left) = frame.checked_sub(then.elapsed())
    {
        std::thread::sleep(left);
    }
    *last = Some(Instant::now());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_or_anything_moving_gets_sixty_frames_a_still_screen_ten() {
        assert_eq!(frame_length(Mode::Playing, false), MOVING);
        assert_eq!(frame_length(Mode::Idle, true), MOVING);
        for m in [Mode::Attract, Mode::Idle, Mode::Recall, Mode::Audit, Mode::Tilt] {
            assert_eq!(frame_length(m, false), STILL, "{m:?}");
        }
        assert!((1.0 / MOVING.as_secs_f64() - 60.0).abs() < 1e-3 && (1.0 / STILL.as_secs_f64() - 10.0).abs() < 1e-9);
    }
}
