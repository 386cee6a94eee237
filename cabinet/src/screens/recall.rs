//! The player's history (M-34): every round of this session, with bet,
//! result and totals.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::{HudLayout, screen_ui};

pub struct RecallPlugin;

impl Plugin for RecallPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw_history.run_if(in_state(Mode::Recall)));
    }
}

fn draw_history(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "recall", &hud);
    let Ok(s) = session.0.lock() else { return Ok(()) };
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.heading(s.t("HISTÓRICO DAS JOGADAS (R para voltar)", "GAME HISTORY (R to return)"));
        let bet: u64 = s.history().iter().map(|h| h.stake).sum();
        let won: u64 = s.history().iter().map(|h| h.win).sum();
        ui.label(format!(
            "{}: {} — {}: {} — {}: {}",
            s.t("Jogadas", "Games"),
            s.history().len(),
            s.t("apostado", "bet"),
            s.show(bet),
            s.t("ganho", "won"),
            s.show(won)
        ));
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("history").striped(true).show(ui, |ui| {
                for label in [
                    s.t("jogada", "game"),
                    s.t("jogo", "title"),
                    s.t("aposta", "bet"),
                    s.t("prémio", "win"),
                    s.t("resultado", "outcome"),
                    s.t("dobrar", "double-up"),
                ] {
                    ui.strong(label);
                }
                ui.end_row();
                for h in s.history().iter().rev() {
                    ui.label(h.round.to_string());
                    ui.label(&h.game);
                    ui.label(s.show(h.stake));
                    ui.label(s.show(h.win));
                    ui.label(&h.detail);
                    ui.label(
                        h.gambles
                            .iter()
                            .map(|g| format!("{}/{}", game_host::names::colour(g.pick, s.lang()), game_host::names::colour(g.drawn, s.lang())))
                            .collect::<Vec<_>>()
                            .join(" "),
                    );
                    ui.end_row();
                }
            });
        });
    });
    Ok(())
}
