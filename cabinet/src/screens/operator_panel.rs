//! The on-screen operator panel: the simulated devices driven by touch or
//! mouse — the note acceptor (5, 10, 20, 50 €), the ticket reader (a
//! ticket by its validation number), the doors and the attendant key — for
//! labs and for cabinets without the hardware. Each button calls the
//! session exactly as the device would.
//!
//! It opens only where the site asked for it at start (`--operator-panel`);
//! the lab build also opens and closes it with the key O. In the retail
//! build it cannot be closed (nothing could open it again): it folds to
//! its title bar. While its ticket field has the keyboard, keys are the
//! field's alone (`touches`, issue 45).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use meters::Door;

use crate::SessionRes;
use crate::modes::Mode;

pub struct OperatorPanelPlugin;

/// Whether the panel is open, and the validation number being typed.
#[derive(Resource, Default)]
pub struct OperatorPanel {
    pub open: bool,
    pub validation: String,
}

impl Plugin for OperatorPanelPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<OperatorPanel>().add_systems(EguiPrimaryContextPass, draw_operator_panel.run_if(|p: Res<OperatorPanel>| p.open));
        #[cfg(feature = "lab")]
        app.add_systems(Update, toggle_operator_panel);
    }
}

#[cfg(feature = "lab")]
fn toggle_operator_panel(keys: Res<ButtonInput<KeyCode>>, mut panel: ResMut<OperatorPanel>) {
    if keys.just_pressed(KeyCode::KeyO) {
        panel.open = !panel.open;
    }
}

fn draw_operator_panel(
    mut contexts: EguiContexts,
    session: Res<SessionRes>,
    mut panel: ResMut<OperatorPanel>,
    mode: Res<State<Mode>>,
    mut next: ResMut<NextState<Mode>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    #[cfg(feature = "lab")]
    let mut open = panel.open;
    let title = s.t("Painel do operador").to_owned();
    // In the screen's top right corner, over the top bar's end: folded, it
    // is a tab that covers no game (issue 45: at (680, 120) it lay over
    // the reels and the roulette cloth).
    let window = egui::Window::new(title).anchor(egui::Align2::RIGHT_TOP, [-6.0, 6.0]);
    // The lab build closes it (and O opens it again); the retail build folds it.
    #[cfg(feature = "lab")]
    let window = window.open(&mut open);
    window.show(ctx, |ui| {
        ui.strong(s.t("Moedeiro de notas"));
        ui.horizontal(|ui| {
            for cents in [500u64, 1_000, 2_000, 5_000] {
                if ui.button(s.machine().config().currency.format(cents)).clicked() {
                    s.insert_note(cents);
                }
            }
        });
        ui.strong(s.t("Leitor de bilhetes"));
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut panel.validation).hint_text(s.t("número de validação")).desired_width(200.0));
            if ui.button(s.t("Inserir")).clicked() {
                let v: String = panel.validation.chars().filter(|c| c.is_ascii_digit()).collect();
                s.insert_ticket(&v);
                // Issue 75: the number typed is cleared once inserted.
                panel.validation.clear();
                panel.validation.clear();
            }
        });
        if let Some(t) = s.last_ticket() {
            ui.small(format!("{} {t}", s.t("Último bilhete:")));
        }
        ui.strong(s.t("Portas e chave"));
        ui.horizontal(|ui| {
            let open_doors = s.machine().state().doors_open.clone();
            for (door, name) in [(Door::Main, s.t("Porta principal")), (Door::Logic, s.t("Porta lógica"))] {
                let state = if open_doors.contains(&door) { s.t("fechar") } else { s.t("abrir") };
                if ui.button(format!("{name} — {state}")).clicked() {
                    s.toggle_door(door);
                }
            }
            if ui.button(s.t("Chave do empregado")).clicked() {
                if *mode.get() == Mode::Audit {
                    s.attendant_clear();
                    next.set(Mode::Idle);
                } else {
                    next.set(Mode::Audit);
                }
            }
        });
    });
    #[cfg(feature = "lab")]
    {
        panel.open = open;
    }
    Ok(())
}
