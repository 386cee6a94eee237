//! The tilt screen: what stopped play, until it is cleared (E-37, E-38).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::{HudLayout, screen_ui};

pub struct TiltPlugin;

impl Plugin for TiltPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw_tilt.run_if(in_state(Mode::Tilt)));
    }
}

fn draw_tilt(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "tilt", &hud);
    let Ok(s) = session.0.lock() else { return Ok(()) };
    let text = s.block_text().unwrap_or_default();
    egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(120, 0, 0))).show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(80.0);
            ui.label(egui::RichText::new(text).size(40.0).color(egui::Color32::WHITE).strong());
            ui.add_space(20.0);
            ui.label(
                egui::RichText::new(s.t("Jogo suspenso. Chave do empregado: K", "Play suspended. Attendant key: K")).size(22.0).color(egui::Color32::WHITE),
            );
        });
    });
    Ok(())
}
