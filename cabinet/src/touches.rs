//! Who a key or a touch belongs to (issue 45), decided once a frame before
//! any screen reads input:
//!
//! - while a text field of the operator's screens has the keyboard, keys
//!   go to it alone: no device, deck or player command sees them (a
//!   validation number typed in the operator panel is digits, and digits
//!   are the development keys of the note acceptor); only the screenshot
//!   key (F12) still takes its evidence;
//! - a touch on an operator's window (egui) is that window's alone;
//! - while a screen is open over the game (help, the game menu, the
//!   history: the host's [`Overlay`](game_host::session::Overlay)), its
//!   touches go to it and to the deck, never to the game under it.
//!
//! The host refuses play under an overlay whatever reaches it; this is the
//! cabinet's half of the same rule, so that a touch is never even offered
//! to the game behind the sheet.

use bevy::input::InputSystems;
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPreUpdateSet, egui};

use game_host::command::Command;
use game_host::session::Overlay;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::game_menu::GameMenuOpen;
use crate::screens::help::HelpOpen;
use crate::stage;

pub struct TouchesPlugin;

impl Plugin for TouchesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Presses>()
            .add_systems(PreUpdate, (keys_to_the_text_field_alone, route_presses).chain().after(InputSystems).after(EguiPreUpdateSet::ProcessInput))
            .add_systems(PostUpdate, tell_the_host_of_overlays);
    }
}

/// This frame's touches and left clicks on the design screen, and whether
/// an overlay owns them.
#[derive(Resource, Default)]
pub struct Presses {
    points: Vec<Vec2>,
    overlay: bool,
}

impl Presses {
    /// The touches for the game's own screen: none under an overlay.
    pub fn on_game(&self) -> &[Vec2] {
        if self.overlay { &[] } else { &self.points }
    }

    /// The touches for the overlay open: none when there is none.
    pub fn on_overlay(&self) -> &[Vec2] {
        if self.overlay { &self.points } else { &[] }
    }

    /// The touches for the button deck, which stays at hand under an
    /// overlay (the host's controls say which of its buttons work).
    pub fn on_deck(&self) -> &[Vec2] {
        &self.points
    }
}

/// A text field has the keyboard: the keys of this frame are its alone,
/// but for the screenshot key (F12: evidence, never a command).
fn keys_to_the_text_field_alone(wants: Res<EguiWantsInput>, mut keys: ResMut<ButtonInput<KeyCode>>) {
    if !wants.wants_any_keyboard_input() {
        return;
    }
    // A key pressed and released within one frame is only `just_pressed`:
    // resetting it clears that too.
    let seen: Vec<KeyCode> =
        keys.get_pressed().chain(keys.get_just_pressed()).chain(keys.get_just_released()).copied().filter(|k| *k != KeyCode::F12).collect();
    for k in seen {
        keys.reset(k);
    }
}

fn route_presses(
    mouse: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    window: Query<&Window, With<PrimaryWindow>>,
    mut contexts: EguiContexts,
    session: Res<SessionRes>,
    mut presses: ResMut<Presses>,
) {
    presses.points.clear();
    let Ok(w) = window.single() else { return };
    let mut raw: Vec<Vec2> = touches.iter_just_pressed().map(|t| t.position()).collect();
    if mouse.just_pressed(MouseButton::Left)
        && let Some(p) = w.cursor_position()
    {
        raw.push(p);
    }
    if raw.is_empty() {
        return;
    }
    // An operator's window (egui, above the background) takes the touches on it.
    if let Ok(ctx) = contexts.ctx_mut() {
        let zoom = ctx.zoom_factor();
        raw.retain(|p| ctx.layer_id_at(egui::pos2(p.x / zoom, p.y / zoom)).is_none_or(|l| l.order == egui::Order::Background));
    }
    presses.points = raw.into_iter().map(|p| stage::design_point(w, p)).collect();
    presses.overlay = session.0.lock().is_ok_and(|s| s.overlay().is_some());
}

/// The screen over the game, as the host must know it: the history (a
/// mode of its own), help, or the game menu; once a frame, after every
/// screen has opened or closed what it does.
fn tell_the_host_of_overlays(help: Res<HelpOpen>, menu: Res<GameMenuOpen>, mode: Res<State<Mode>>, session: Res<SessionRes>) {
    let want = match (*mode.get(), help.0, menu.0) {
        (Mode::Recall, _, _) => Some(Overlay::History),
        (Mode::Attract | Mode::Idle | Mode::Playing, true, _) => Some(Overlay::Help),
        (Mode::Attract | Mode::Idle | Mode::Playing, false, true) => Some(Overlay::GameMenu),
        _ => None,
    };
    if let Ok(mut s) = session.0.lock()
        && s.overlay() != want
    {
        s.command(Command::Overlay { overlay: want });
    }
}
