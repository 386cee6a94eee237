//! The player's hands on the roulette table, betting open only (AR 15–16):
//! a touch on the cloth places a chip of the selected value on the spot
//! under the finger; the buttons undo, clear, repeat, double, place a call
//! bet; the keys do the same (the numeric keypad moves a cursor over the
//! cloth and Enter places; Backspace undo, Delete clear, F5 repeat, F6
//! double, F1–F3 the series). Each is one `Command::EditBet` the host
//! checks; a refusal is the host's message. The racetrack, opened over the
//! cloth by its button, places a number with its neighbours or a series.

use bevy::prelude::*;
use game_core::roulette::{CallBet, Spot};
use game_host::command::Command;
use game_host::kinds::roulette::RouletteEdit;
use game_host::session::Session;
use serde_json::json;

use super::cloth;
use super::controls::{Button, TRACK};
use super::view::{RouletteTable, WIN_PANEL};
use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::chips::EditButton;
use crate::screens::help::HelpOpen;
use crate::touches::Presses;

pub(super) fn add(app: &mut App) {
    app.add_systems(Update, (touch_roulette, roulette_keys).run_if(in_state(Mode::Idle)).run_if(super::roulette_selected));
}

fn edit(s: &mut Session, edit: serde_json::Value) {
    s.command(Command::EditBet { edit });
}

fn place(s: &mut Session, spot: Spot) {
    edit(s, json!({ "Kind": RouletteEdit::Place { spot } }));
}

fn call(s: &mut Session, bet: CallBet) {
    edit(s, json!({ "Kind": RouletteEdit::Call { bet } }));
}

/// What a button does.
fn press(s: &mut Session, table: &mut RouletteTable, b: Button) {
    match b {
        Button::Series(bet) | Button::TrackSeries(bet) => call(s, bet),
        Button::NeighboursCount => table.neighbours = table.neighbours % 3 + 1,
        Button::Track => table.track_open = !table.track_open,
        Button::Racetrack(i) => {
            let Some(w) = table.wheel else { return };
            let number = w.sequence()[i];
            call(s, CallBet::Neighbours { number, each_side: table.neighbours });
        }
        Button::Finals(digit) => call(s, CallBet::Finals { digit }),
    }
}

#[allow(clippy::too_many_arguments)]
fn touch_roulette(presses: Res<Presses>, session: Res<SessionRes>, help: Res<HelpOpen>, mut table: ResMut<RouletteTable>) {
    if help.0 {
        return;
    }
    let points = presses.on_game().to_vec();
    if points.is_empty() {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    for p in points {
        // The itemised win stands over the call bets: a touch puts it away.
        let last = s.round_info().map(|r| r.id);
        if WIN_PANEL.contains(p.x, p.y) && last.is_some() && table.dismissed != last {
            table.dismissed = last;
            continue;
        }
        if let Some(b) = EditButton::at(p.x, p.y) {
            info!("roulette: {b:?} touched");
            b.press(&mut s);
            continue;
        }
        if let Some(b) = Button::at(&table.buttons, table.track_open, p.x, p.y) {
            info!("roulette: {b:?} touched");
            press(&mut s, &mut table, b);
            continue;
        }
        // The open racetrack covers the cloth: a touch between its cells
        // places nothing under it.
        if table.track_open && TRACK.inset(-10.0).contains(p.x, p.y) {
            continue;
        }
        if let Some(spot) = cloth::spot_at(&table.anchors, p.x, p.y) {
            info!("roulette: {spot:?} touched");
            place(&mut s, spot);
        }
    }
}

/// The keys: the keypad's arrows move the cursor half a cell at a time
/// (over numbers, lines and corners alike), Enter places a chip where it
/// stands.
fn roulette_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>, help: Res<HelpOpen>, mut table: ResMut<RouletteTable>) {
    if help.0 {
        return;
    }
    let moves = [(KeyCode::Numpad4, (-0.5, 0.0)), (KeyCode::Numpad6, (0.5, 0.0)), (KeyCode::Numpad8, (0.0, -0.5)), (KeyCode::Numpad2, (0.0, 0.5))];
    for (key, (dx, dy)) in moves {
        if keys.just_pressed(key) {
            let (x, y) = table.cursor.unwrap_or_else(|| cloth::number_cell(17).centre());
            let area = cloth::area();
            let next = ((x + dx * cloth::CELL_W).clamp(area.x + 4.0, area.x + area.w - 4.0), (y + dy * cloth::CELL_H).clamp(area.y + 4.0, area.bottom() - 4.0));
            table.cursor = Some(next);
        }
    }
    let Ok(mut s) = session.0.lock() else { return };
    if keys.just_pressed(KeyCode::NumpadEnter) || keys.just_pressed(KeyCode::Numpad5) {
        let at = table.cursor.unwrap_or_else(|| cloth::number_cell(17).centre());
        table.cursor = Some(at);
        if let Some(spot) = cloth::spot_at(&table.anchors, at.0, at.1) {
            place(&mut s, spot);
        }
    }
    for b in EditButton::ALL {
        if keys.just_pressed(b.key()) {
            b.press(&mut s);
        }
    }
    let buttons =
        [(KeyCode::F1, Button::Series(CallBet::Voisins)), (KeyCode::F2, Button::Series(CallBet::Tiers)), (KeyCode::F3, Button::Series(CallBet::Orphelins))];
    for (key, b) in buttons {
        if keys.just_pressed(key) && table.buttons.contains(&b) {
            press(&mut s, &mut table, b);
        }
    }
}
