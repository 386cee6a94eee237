//! Frame scheduling (issues 29 and 45). A cabinet runs all day, and while
//! nothing moves it draws nothing: Bevy's reactive update mode, in which
//! the frame loop sleeps until
//! - the player or an operator touches or presses anything (a window
//!   event), and for a moment after it (egui answers over a frame or two;
//!   a new screen settles);
//! - the host's own threads have news (a linked pool's value, an award on
//!   another machine, the link back: [`Session::on_news`]);
//! - the host has something due with nobody touching the cabinet
//!   ([`Session::next_due`]: the attract loop, an M-38 countdown, a linked
//!   outbox), the tilt alarm repeats, or a linked award's banner ends;
//! - at the latest [`LONGEST_SLEEP`], a safety net.
//!
//! While something moves — a round on screen, a win rolling up, a
//! celebration, the attract loop — frames follow each other: up to 60 a
//! second while a round or anything else moves, 10 in the attract loop and
//! in the moments after a touch.
//!
//! [`Session::on_news`]: game_host::session::Session::on_news
//! [`Session::next_due`]: game_host::session::Session::next_due

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::{MouseButtonInput, MouseWheel};
use bevy::input::touch::TouchInput;
use bevy::prelude::*;
use bevy::render::view::screenshot::Screenshot;
use bevy::window::RequestRedraw;
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent};
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};

use crate::SessionRes;
use crate::capture::Capture;
use crate::modes::Mode;

/// The shortest frame while something moves: 60 frames a second.
pub const MOVING: Duration = Duration::from_nanos(16_666_667);
/// The frame of the attract loop and of the moments after a touch: 10 a second.
pub const STILL: Duration = Duration::from_millis(100);
/// How long frames follow a touch, a key, a new mode or news: long enough
/// for what a touch sets off on a still screen (ten hands' cards turning
/// over after the draw take 0.84 s).
pub const SETTLE: Duration = Duration::from_millis(1_000);
/// The longest the loop sleeps with nothing due (a safety net: whatever
/// changed unannounced is drawn at most this late).
pub const LONGEST_SLEEP: Duration = Duration::from_secs(5);
/// How often the tilt alarm sounds (`sounds`).
pub const ALARM_EVERY: Duration = Duration::from_secs(4);
/// How long a linked award's banner stays up (M-22, `top_bar`).
pub const BANNER_FOR: Duration = Duration::from_secs(15);

pub struct FramePacingPlugin;

/// Set by any screen that animates this frame.
#[derive(Resource, Default)]
pub struct Moving(pub bool);

/// Set by a screen that still paces out a round already settled (bingo's
/// balls, one every quarter second): frames follow at 10 a second, and the
/// win's chime waits for the end (`sounds`).
#[derive(Resource, Default)]
pub struct PacedOut(pub bool);

/// The systems that set [`PacedOut`]; what shows money runs after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PaceOut;

/// Set by the host's threads (through the waker): news to draw.
#[derive(Resource, Clone, Default)]
struct News(Arc<AtomicBool>);

/// Frames are drawn until then (a touch, a key, a new mode, news).
#[derive(Resource, Default)]
struct Awake(Option<Instant>);

impl Plugin for FramePacingPlugin {
    fn build(&self, app: &mut App) {
        let sleeping = UpdateMode::reactive(LONGEST_SLEEP);
        app.insert_resource(WinitSettings { focused_mode: sleeping, unfocused_mode: sleeping })
            .init_resource::<Moving>()
            .init_resource::<PacedOut>()
            .init_resource::<News>()
            .init_resource::<Awake>()
            .add_systems(Startup, give_the_host_a_waker)
            .add_systems(PreUpdate, drop_modifiers_that_did_not_change.after(EguiPreUpdateSet::ProcessInput).before(EguiPreUpdateSet::BeginPass))
            .add_systems(First, |mut m: ResMut<Moving>, mut p: ResMut<PacedOut>| (m.0, p.0) = (false, false))
            .add_systems(Last, (stay_awake_after_touches_and_news, ask_for_the_next_frame, pace_frames).chain());
    }
}

/// The host's threads wake the frame loop through winit's event loop.
fn give_the_host_a_waker(proxy: Option<Res<EventLoopProxyWrapper>>, news: Res<News>, session: Res<SessionRes>) {
    let Some(proxy) = proxy else { return };
    let proxy = Mutex::new((**proxy).clone());
    let flag = news.0.clone();
    if let Ok(mut s) = session.0.lock() {
        s.on_news(Arc::new(move || {
            flag.store(true, Ordering::SeqCst);
            if let Ok(p) = proxy.lock() {
                let _ = p.send_event(WinitUserEvent::WakeUp);
            }
        }));
    }
}

/// bevy_egui 0.42 tells egui the keyboard's modifiers every frame, changed
/// or not, and egui takes any event as a reason to draw the next frame at
/// once: the loop would never sleep. Only a change is passed on.
fn drop_modifiers_that_did_not_change(mut inputs: Query<&mut EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(m) => last.replace(*m) != Some(*m),
            _ => true,
        });
    }
}

/// A touch, a key, a wheel, a new mode or the host's news keeps frames
/// coming for [`SETTLE`].
fn stay_awake_after_touches_and_news(
    mut keys: MessageReader<KeyboardInput>,
    mut buttons: MessageReader<MouseButtonInput>,
    mut touches: MessageReader<TouchInput>,
    mut wheels: MessageReader<MouseWheel>,
    mode: Res<State<Mode>>,
    news: Res<News>,
    mut awake: ResMut<Awake>,
) {
    let touched = keys.read().count() + buttons.read().count() + touches.read().count() + wheels.read().count() > 0;
    if touched | mode.is_changed() | news.0.swap(false, Ordering::SeqCst) {
        awake.0 = Some(Instant::now() + SETTLE);
    }
}

/// Whether the next frame follows at once (paced), or the loop sleeps.
pub fn draw_on(mode: Mode, moving: bool, awake: bool, capturing: bool) -> bool {
    moving || awake || capturing || matches!(mode, Mode::Playing | Mode::Attract)
}

/// How long the loop may sleep: until the first thing due, at most
/// [`LONGEST_SLEEP`].
pub fn sleep_for(due: impl IntoIterator<Item = Option<Duration>>) -> Duration {
    due.into_iter().flatten().fold(LONGEST_SLEEP, Duration::min)
}

#[allow(clippy::too_many_arguments)]
fn ask_for_the_next_frame(
    mode: Res<State<Mode>>,
    moving: Res<Moving>,
    paced: Res<PacedOut>,
    awake: Res<Awake>,
    capture: Res<Capture>,
    shots: Query<(), With<Screenshot>>,
    session: Res<SessionRes>,
    mut winit: ResMut<WinitSettings>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let mode = *mode.get();
    let awake = awake.0.is_some_and(|until| Instant::now() < until);
    if draw_on(mode, moving.0 || paced.0, awake, capture.busy() || !shots.is_empty()) {
        // The next frame follows at once: how long the loop could sleep
        // does not matter (and is not worked out on every moving frame).
        redraw.write(RequestRedraw);
        return;
    }

    let (host, banner) = session
        .0
        .lock()
        .map_or((None, None), |s| (s.next_due(), s.linked_banner().map(|(_, at)| BANNER_FOR.saturating_sub(at.elapsed())).filter(|d| !d.is_zero())));
    let alarm = (mode == Mode::Tilt).then_some(ALARM_EVERY);
    let sleeping = UpdateMode::reactive(sleep_for([host, banner, alarm]));
    if winit.focused_mode != sleeping {
        winit.focused_mode = sleeping;
        winit.unfocused_mode = sleeping;
    }
}

/// The frame's length while frames follow each other: short while a
/// round is on screen or anything moves, long otherwise.
pub fn frame_length(mode: Mode, moving: bool) -> Duration {
    if moving || mode == Mode::Playing { MOVING } else { STILL }
}

/// Sleep what is left of the frame's length since the last frame ended
/// (nothing after the loop has slept longer).
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

    #[test]
    fn frames_follow_each_other_only_while_something_moves_or_settles() {
        // A still screen between rounds, in recall, audit or tilt: asleep.
        for m in [Mode::Idle, Mode::Recall, Mode::Audit, Mode::Tilt] {
            assert!(!draw_on(m, false, false, false), "{m:?}");
            assert!(draw_on(m, true, false, false) && draw_on(m, false, true, false) && draw_on(m, false, false, true), "{m:?}");
        }
        // A round and the attract loop always move.
        assert!(draw_on(Mode::Playing, false, false, false) && draw_on(Mode::Attract, false, false, false));
    }

    #[test]
    fn the_loop_sleeps_until_the_first_thing_due_at_most_five_seconds() {
        let s = Duration::from_secs;
        assert_eq!(sleep_for([None, None, None]), LONGEST_SLEEP);
        assert_eq!(sleep_for([Some(s(60)), None, Some(s(4))]), s(4));
        assert_eq!(sleep_for([Some(Duration::from_millis(1_050)), Some(s(12)), None]), Duration::from_millis(1_050));
        assert_eq!(sleep_for([Some(s(600))]), LONGEST_SLEEP);
    }
}
