//! The double-up offer (M-11: the odds shown before the player chooses)
//! over any game's screen, for every kind whose paytable offers it: the
//! amount at stake, red or black, collect; each gamble's result. The play
//! button (and Enter) takes the win.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::HudLayout;
use crate::screens::cards::double_up_panel;

pub struct DoubleUpPlugin;

impl Plugin for DoubleUpPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw_double_up.run_if(in_state(Mode::Playing)));
    }
}

fn draw_double_up(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    if !s.double_up_offered() {
        return Ok(());
    }
    let Some(r) = s.round_info() else { return Ok(()) };
    let mut choice = None;
    // Beside the game, on the right: the outcome stays in view.
    egui::Area::new(egui::Id::new("double-up")).anchor(egui::Align2::RIGHT_TOP, [-8.0, hud.top + 8.0]).show(ctx, |ui| {
        ui.set_max_width(230.0);
        egui::Frame::new().fill(egui::Color32::from_black_alpha(225)).corner_radius(12.0).inner_margin(12.0).show(ui, |ui| {
            choice = double_up_panel(ui, &s, r.at_stake, r.denom, &r.gambles);
        });
    });
    match choice {
        Some(Some(c)) => s.gamble(c),
        Some(None) => s.collect(),
        None => {}
    }
    Ok(())
}
