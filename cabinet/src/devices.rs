//! The cabinet's buttons as keys (a button panel is a keyboard to the
//! cabinet) and, in the lab build only, the devices emulated by keys
//! (issue 5): the note acceptor (1–4: 5, 10, 20, 50 €), the ticket reader
//! (T: the last printed ticket), the doors (M main, L logic) and the
//! attendant key (K). Each key only calls the session.
//!
//! Issue 45: the development keys that stand in for devices are not in the
//! retail build at all (its devices are the hardware's, or the operator
//! panel a site opens with `--operator-panel`), and no key reaches any of
//! these systems while an operator types in a text field (`touches`).

use bevy::prelude::*;
use game_core::double_up::Colour;
use game_host::command::Command;
use game_host::kind::BetControl;

use crate::SessionRes;
use crate::layout::DeckButton;
use crate::modes::Mode;
use crate::screens::deck;
use crate::screens::game_menu::GameMenuOpen;
use crate::screens::help::HelpOpen;
use crate::screens::reels::Reveal;

pub struct DevicesPlugin;

/// Said at start by the lab build alone (the retail build's binary is
/// checked for its absence, `cabinet/tests/retail_build.rs`).
#[cfg(feature = "lab")]
const DEVICE_KEYS: &str = "development keys stand in for the devices: 1-4 notes, T ticket, M L doors, K attendant key, O operator panel";

impl Plugin for DevicesPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (note_player_activity, player_buttons.run_if(not_typing), autoplay_next_round))
            .add_systems(Update, watch_session.run_if(bevy::time::common_conditions::on_real_timer(std::time::Duration::from_secs(1))));
        #[cfg(feature = "lab")]
        {
            info!("{DEVICE_KEYS}");
            app.add_systems(Update, (accept_money_keys, door_and_key_switches).run_if(not_typing));
        }
    }
}

/// Whether no text field has the keyboard: a key typed into one (the RAM
/// clear's PIN and reason) is the field's, never a button's or a device's
/// (issue 74: a reason typed with an L toggled the logic door).
fn not_typing(wants: Option<Res<bevy_egui::input::EguiWantsInput>>) -> bool {
    !wants.is_some_and(|w| w.wants_any_keyboard_input())
}

/// Any key or touch restarts the inactivity clock (M-35) and ends the
/// attract loop; the screenshot key (a lab's, F12) does neither.
fn note_player_activity(keys: Res<ButtonInput<KeyCode>>, mouse: Res<ButtonInput<MouseButton>>, session: Res<SessionRes>) {
    let pressed = keys.get_just_pressed().any(|k| *k != KeyCode::F12) || mouse.get_just_pressed().next().is_some();
    if pressed && let Ok(mut s) = session.0.lock() {
        s.touch();
    }
}

/// Once a second: M-38 warnings and the M-35 end of an idle session.
fn watch_session(session: Res<SessionRes>) {
    if let Ok(mut s) = session.0.lock() {
        s.tend_session();
    }
}

#[cfg(feature = "lab")]
fn accept_money_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    for (key, cents) in [(KeyCode::Digit1, 500), (KeyCode::Digit2, 1_000), (KeyCode::Digit3, 2_000), (KeyCode::Digit4, 5_000)] {
        if keys.just_pressed(key) {
            s.command(Command::InsertNote { cents });
        }
    }
    if keys.just_pressed(KeyCode::KeyT)
        && let Some(v) = s.last_ticket().map(str::to_owned)
    {
        s.command(Command::InsertTicket { validation: v });
    }
}

#[cfg(feature = "lab")]
fn door_and_key_switches(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>, mode: Res<State<Mode>>, mut next: ResMut<NextState<Mode>>) {
    use meters::Door;
    let Ok(mut s) = session.0.lock() else { return };
    if keys.just_pressed(KeyCode::KeyM) {
        s.command(Command::ToggleDoor { door: Door::Main });
    }
    if keys.just_pressed(KeyCode::KeyL) {
        s.command(Command::ToggleDoor { door: Door::Logic });
    }
    if keys.just_pressed(KeyCode::KeyK) {
        if *mode.get() == Mode::Audit {
            s.command(Command::AttendantClear);
            next.set(Mode::Idle);
        } else {
            next.set(Mode::Audit);
        }
    }
}

fn player_buttons(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<SessionRes>,
    mode: Res<State<Mode>>,
    mut next: ResMut<NextState<Mode>>,
    mut reveal: ResMut<Reveal>,
    mut help: ResMut<HelpOpen>,
    mut menu: ResMut<GameMenuOpen>,
) {
    let Ok(mut s) = session.0.lock() else { return };
    let m = *mode.get();
    // The keys that mirror a button of the touch deck do what it does.
    for (key, button) in [(KeyCode::KeyE, DeckButton::Language), (KeyCode::KeyH, DeckButton::Help)] {
        if keys.just_pressed(key) {
            deck::act(button, &mut s, m, &mut next, &mut reveal, &mut help, &mut menu);
        }
    }
    if keys.just_pressed(KeyCode::KeyV) {
        let currency = !s.show_currency();
        s.command(Command::ShowCurrency { currency });
    }
    match m {
        Mode::Attract | Mode::Idle => {
            for (key, button) in [(KeyCode::Space, DeckButton::Play), (KeyCode::KeyC, DeckButton::CashOut)] {
                if keys.just_pressed(key) {
                    deck::act(button, &mut s, m, &mut next, &mut reveal, &mut help, &mut menu);
                }
            }
            if keys.just_pressed(KeyCode::ArrowLeft) {
                s.command(Command::StepGame { delta: -1 });
            }
            if keys.just_pressed(KeyCode::ArrowRight) {
                s.command(Command::StepGame { delta: 1 });
            }
            if keys.just_pressed(KeyCode::ArrowUp) {
                s.command(Command::AdjustBet { control: BetControl::Lines, delta: 1 });
            }
            if keys.just_pressed(KeyCode::ArrowDown) {
                s.command(Command::AdjustBet { control: BetControl::Lines, delta: -1 });
            }
            if keys.just_pressed(KeyCode::Equal) || keys.just_pressed(KeyCode::NumpadAdd) {
                s.command(Command::AdjustBet { control: BetControl::Amount, delta: 1 });
            }
            if keys.just_pressed(KeyCode::Minus) || keys.just_pressed(KeyCode::NumpadSubtract) {
                s.command(Command::AdjustBet { control: BetControl::Amount, delta: -1 });
            }
            if keys.just_pressed(KeyCode::KeyJ) {
                // The side bet (póquer sem descarte's jackpot), on or off.
                s.command(Command::AdjustBet { control: BetControl::SideBet, delta: 1 });
            }
            if keys.just_pressed(KeyCode::KeyQ) {
                s.command(Command::StepDenomination { delta: -1 });
            }
            if keys.just_pressed(KeyCode::KeyW) {
                s.command(Command::StepDenomination { delta: 1 });
            }
            if keys.just_pressed(KeyCode::KeyA) {
                // M-32: a finite count, stopped by any key below.
                s.command(Command::Autoplay { rounds: 10 });
            }
            if keys.just_pressed(KeyCode::KeyR) {
                next.set(Mode::Recall);
            }
        }
        Mode::Playing => {
            if keys.just_pressed(KeyCode::Space) {
                deck::act(DeckButton::Play, &mut s, m, &mut next, &mut reveal, &mut help, &mut menu);
            }
            if keys.just_pressed(KeyCode::KeyG) {
                s.command(Command::Gamble { colour: Colour::Red });
            }
            if keys.just_pressed(KeyCode::KeyB) {
                s.command(Command::Gamble { colour: Colour::Black });
            }
            if keys.just_pressed(KeyCode::Enter) {
                s.command(Command::Collect);
            }
            if keys.just_pressed(KeyCode::KeyA) {
                s.command(Command::Autoplay { rounds: 0 });
            }
        }
        Mode::Recall => {
            if keys.just_pressed(KeyCode::KeyR) || keys.just_pressed(KeyCode::Escape) {
                next.set(Mode::Idle);
            }
        }
        Mode::Audit | Mode::Tilt => {}
    }
}

/// Autoplay (M-32): the next round when the last is done, until the count
/// runs out or anything blocks play.
fn autoplay_next_round(session: Res<SessionRes>, mode: Res<State<Mode>>, mut next: ResMut<NextState<Mode>>) {
    let Ok(mut s) = session.0.lock() else { return };
    if *mode.get() == Mode::Idle && s.autoplay_next() {
        next.set(Mode::Playing);
    }
}
