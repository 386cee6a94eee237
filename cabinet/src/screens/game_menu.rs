//! The multigame menu (key Tab, or touch): every game the cabinet hosts,
//! and the denominations, chosen between rounds only (M-9, E-41).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::modes::Mode;

pub struct GameMenuPlugin;

/// Whether the menu is open.
#[derive(Resource, Default)]
pub struct GameMenuOpen(pub bool);

impl Plugin for GameMenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GameMenuOpen>().add_systems(Update, toggle_game_menu).add_systems(
            EguiPrimaryContextPass,
            draw_game_menu.run_if(|m: Res<GameMenuOpen>| m.0).run_if(in_state(Mode::Idle).or_else(in_state(Mode::Attract))),
        );
    }
}

fn toggle_game_menu(keys: Res<ButtonInput<KeyCode>>, mut open: ResMut<GameMenuOpen>) {
    if keys.just_pressed(KeyCode::Tab) {
        open.0 = !open.0;
    }
}

fn draw_game_menu(mut contexts: EguiContexts, session: Res<SessionRes>, mut open: ResMut<GameMenuOpen>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let mut chosen_game = None;
    let mut chosen_denom = None;
    let mut keep = true;
    egui::Window::new(s.t("Escolha o jogo (Tab)", "Choose a game (Tab)")).open(&mut keep).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        for (i, g) in s.games().iter().enumerate() {
            let kind = g.family(s.lang());
            let text = egui::RichText::new(format!("{} — {kind}", g.name())).size(24.0);
            if ui.add_sized([460.0, 44.0], egui::Button::new(text).selected(i == s.selected())).clicked() {
                chosen_game = Some(i);
            }
        }
        ui.separator();
        ui.label(s.t("Denominação", "Denomination"));
        ui.horizontal_wrapped(|ui| {
            for &d in &s.machine().config().denominations {
                if ui.add(egui::Button::new(s.machine().config().currency.format(d)).selected(d == s.denom())).clicked() {
                    chosen_denom = Some(d);
                }
            }
        });
    });
    if let Some(i) = chosen_game {
        s.choose_game(i);
        open.0 = false;
    }
    if let Some(d) = chosen_denom {
        s.choose_denomination(d);
    }
    if !keep {
        open.0 = false;
    }
    Ok(())
}
