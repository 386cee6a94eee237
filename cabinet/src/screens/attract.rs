//! The attract screen: shown while nobody plays.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::{HudLayout, screen_ui};

pub struct AttractPlugin;

impl Plugin for AttractPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw_attract.run_if(in_state(Mode::Attract)));
    }
}

fn draw_attract(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>, time: Res<Time>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "attract", &hud);
    let Ok(s) = session.0.lock() else { return Ok(()) };
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(60.0);
            let pulse = (time.elapsed_secs() * 2.0).sin() * 0.5 + 0.5;
            ui.label(egui::RichText::new(s.t("BEM-VINDO", "WELCOME")).size(64.0).color(egui::Color32::from_rgb(250, (180.0 + 70.0 * pulse) as u8, 0)));
            ui.add_space(20.0);
            for g in s.games() {
                ui.label(egui::RichText::new(g.name()).size(30.0));
            }
            ui.add_space(30.0);
            ui.label(egui::RichText::new(s.t("Introduza notas para jogar (teclas 1-4)", "Insert notes to play (keys 1-4)")).size(24.0));
            ui.label(s.t("Jogue com responsabilidade. Maiores de 18 anos.", "Play responsibly. Adults only."));
        });
    });
    Ok(())
}
