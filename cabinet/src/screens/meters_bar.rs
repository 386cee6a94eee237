//! The meters bar (M-30, issue 29): credit, bet and win, large and always
//! visible on the player's screens, over the button deck; the win rolls up
//! to its amount (a press shows it whole at once); the message line above
//! it (refusals, notices, autoplay's count).

use bevy::prelude::*;
use game_host::round::Phase;
use meters::Cents;

use crate::SessionRes;
use crate::layout::{METERS_BAR, WIDTH};
use crate::modes::Mode;
use crate::stage::{self, Fonts};

pub struct MetersBarPlugin;

impl Plugin for MetersBarPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RollUp>().add_systems(Update, (spawn_meters_bar, skip_roll_up, show_meters.after(crate::pacing::PaceOut)).chain());
    }
}

/// The win counter rolling up to a new win.
#[derive(Resource, Default)]
pub struct RollUp {
    target: Cents,
    from: Cents,
    started: f32,
    skipped: bool,
    /// When the roll ends.
    until: f32,
}

/// Seconds a win of `credits` takes to roll up: longer for more, at most 4 s.
pub fn roll_up_seconds(credits: u64) -> f32 {
    (0.5 + 0.02 * credits as f32).min(4.0)
}

/// The amount shown `elapsed` seconds into a roll from `from` to `target`
/// over `seconds`: never past the target, exactly the target at the end.
pub fn rolled(from: Cents, target: Cents, elapsed: f32, seconds: f32) -> Cents {
    if elapsed >= seconds || target <= from || seconds <= 0.0 {
        return target;
    }
    let share = (elapsed.max(0.0) / seconds * 1_000.0) as u128;
    from + ((u128::from(target - from) * share / 1_000) as Cents).min(target - from)
}

#[derive(Component)]
struct Bar;
#[derive(Component)]
enum Meter {
    CreditLabel,
    Credit,
    BetLabel,
    Bet,
    WinLabel,
    Win,
    Message,
}

fn spawn_meters_bar(mut commands: Commands, fonts: Option<Res<Fonts>>, mut done: Local<bool>) {
    let Some(fonts) = fonts else { return };
    if *done {
        return;
    }
    *done = true;
    let (_, cy) = METERS_BAR.centre();
    let label_y = METERS_BAR.y + 14.0;
    let value_y = METERS_BAR.y + 43.0;
    commands.spawn((Bar, Transform::default(), Visibility::Hidden)).with_children(|bar| {
        bar.spawn((
            Sprite::from_color(Color::srgb(0.06, 0.04, 0.1), Vec2::new(WIDTH, METERS_BAR.h)),
            Transform::from_translation(stage::at(WIDTH / 2.0, cy, 9.0)),
        ));
        bar.spawn((
            Sprite::from_color(Color::srgb(0.72, 0.53, 0.04), Vec2::new(WIDTH, 3.0)),
            Transform::from_translation(stage::at(WIDTH / 2.0, METERS_BAR.y, 9.5)),
        ));
        let label = Color::srgb(0.75, 0.75, 0.85);
        let value = Color::srgb(1.0, 0.85, 0.25);
        for (x, l, v) in [(330.0, Meter::CreditLabel, Meter::Credit), (960.0, Meter::BetLabel, Meter::Bet), (1590.0, Meter::WinLabel, Meter::Win)] {
            bar.spawn((l, stage::text(&fonts, "", 18.0, label), Transform::from_translation(stage::at(x, label_y, 10.0))));
            bar.spawn((v, stage::text(&fonts, "", 34.0, value), Transform::from_translation(stage::at(x, value_y, 10.0))));
        }
        bar.spawn((
            Meter::Message,
            stage::text(&fonts, "", 22.0, Color::srgb(1.0, 1.0, 0.75)),
            Transform::from_translation(stage::at(WIDTH / 2.0, crate::layout::MESSAGE_LINE.centre().1, 10.0)),
        ));
    });
}

/// Any key or touch shows a rolling win whole.
fn skip_roll_up(keys: Res<ButtonInput<KeyCode>>, mouse: Res<ButtonInput<MouseButton>>, mut roll: ResMut<RollUp>) {
    if keys.get_just_pressed().next().is_some() || mouse.get_just_pressed().next().is_some() {
        roll.skipped = true;
    }
}

#[allow(clippy::too_many_arguments)]
fn show_meters(
    session: Res<SessionRes>,
    mode: Res<State<Mode>>,
    time: Res<Time>,
    mut roll: ResMut<RollUp>,
    mut moving: ResMut<crate::pacing::Moving>,
    paced: Res<crate::pacing::PacedOut>,
    mut bar: Query<&mut Visibility, With<Bar>>,
    mut meters: Query<(&Meter, &mut Text2d)>,
) {
    let Ok(s) = session.0.lock() else { return };
    // M-30: the credit, bet and win stay in sight under the player's
    // history too (issue 45).
    let shown = matches!(mode.get(), Mode::Attract | Mode::Idle | Mode::Playing | Mode::Recall);
    for mut v in &mut bar {
        v.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
    }
    if !shown {
        return;
    }
    let now = time.elapsed_secs();
    // Issue 75: a round settled while its screen still paces it out
    // (bingo's balls) shows neither its win nor the credit it brought
    // before the last ball has fallen.
    let held_back = if paced.0 { s.round_info().filter(|r| r.phase == Phase::Ended).and_then(|r| r.settled_win).unwrap_or(0) } else { 0 };
    let win = if paced.0 { 0 } else { s.win_on_screen() };
    if win != roll.target {
        // A new win rolls up from nothing; a smaller one (a new round, a
        // lost double-up) shows at once.
        *roll = RollUp { target: win, from: 0, started: now, skipped: win < roll.target, until: now };
    }
    let seconds = roll_up_seconds(win / s.denom().max(1));
    roll.until = roll.started + seconds;
    if !roll.skipped && now < roll.until {
        moving.0 = true;
    }
    let win_shown = if roll.skipped { win } else { rolled(roll.from, win, now - roll.started, seconds) };
    let mut message = s.message_text().unwrap_or_default();
    if s.autoplay_left() > 0 {
        message = format!("{message}   {} {}", s.t("Jogo automático:"), s.autoplay_left());
    }
    for (m, mut text) in &mut meters {
        let want = match m {
            Meter::CreditLabel => s.t("CRÉDITO").to_owned(),
            Meter::Credit => s.show(s.machine().credit().saturating_sub(held_back)),
            Meter::BetLabel => format!("{} · {}", s.t("APOSTA"), s.bet_text()),
            Meter::Bet => s.show(s.stake_cents()),
            Meter::WinLabel => s.t("PRÉMIO").to_owned(),
            Meter::Win => s.show(win_shown),
            Meter::Message => message.trim().to_owned(),
        };
        if text.0 != want {
            text.0 = want;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_rolls_up_to_exactly_its_amount_and_never_past_it() {
        let seconds = roll_up_seconds(150);
        assert_eq!(seconds, 3.5);
        assert_eq!(roll_up_seconds(10_000), 4.0, "at most 4 s");
        let mut last = 0;
        for k in 0..=40 {
            let shown = rolled(0, 1_500, seconds * k as f32 / 40.0, seconds);
            assert!(shown >= last && shown <= 1_500, "{k}: {shown} after {last}");
            last = shown;
        }
        assert_eq!(last, 1_500);
        assert_eq!(rolled(0, 1_500, 0.0, seconds), 0);
        assert_eq!(rolled(0, 1_500, seconds / 2.0, seconds), 750);
        assert_eq!(rolled(0, u64::MAX, 1.0, 2.0), u64::MAX / 2, "no overflow on any amount");
        assert_eq!(rolled(500, 100, 0.1, 1.0), 100, "a smaller amount shows at once");
    }
}
