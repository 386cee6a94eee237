//! The draw-poker screen: the paytable at the current bet always on screen
//! (M-8), the deal, the holds (touch a card or keys F1–F5), the draw, the
//! winning hand with its amount (M-5), and the double-up. It only shows
//! what the session committed; the cards of the draw were drawn at the deal.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use game_core::draw_poker::DrawPokerGame;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::cards::{double_up_panel, paint_hand};
use crate::screens::{HudLayout, screen_ui};
use game_host::session::{CardRound, HostedGame, Session};

pub struct DrawPokerScreenPlugin;

impl Plugin for DrawPokerScreenPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, hold_keys.run_if(in_state(Mode::Playing))).add_systems(
            EguiPrimaryContextPass,
            draw_draw_poker_screen.run_if(in_state(Mode::Idle).or_else(in_state(Mode::Playing)).and_then(draw_poker_selected)),
        );
    }
}

fn draw_poker_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| matches!(s.game(), HostedGame::DrawPoker(_)))
}

const HOLD_KEYS: [KeyCode; 5] = [KeyCode::F1, KeyCode::F2, KeyCode::F3, KeyCode::F4, KeyCode::F5];

/// The hold buttons: F1–F5 hold or release the card above them.
fn hold_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    for (i, k) in HOLD_KEYS.iter().enumerate() {
        if keys.just_pressed(*k) {
            s.toggle_hold(i);
        }
    }
}

/// The paytable at the bet on screen, the row of `paid` highlighted.
fn paytable(ui: &mut egui::Ui, s: &Session, g: &DrawPokerGame, coins: u32, paid: Option<usize>) {
    egui::Grid::new("draw_paytable").num_columns(2).spacing([40.0, 2.0]).show(ui, |ui| {
        for (i, e) in g.entries.iter().enumerate() {
            let pay = g.pays_per_coin(i, coins) * u64::from(coins);
            let colour = if paid == Some(i) { egui::Color32::GOLD } else { egui::Color32::LIGHT_GRAY };
            ui.label(egui::RichText::new(&e.name).color(colour).size(18.0));
            ui.label(egui::RichText::new(s.show(pay * s.denom)).color(colour).size(18.0));
            ui.end_row();
        }
    });
}

fn draw_draw_poker_screen(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "draw_poker", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let HostedGame::DrawPoker(g) = s.game() else { return Ok(()) };
    let g = g.clone();
    let mut touched = None;
    let mut choice = None;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| match (&s.draw, &s.last_card_round) {
            (Some(d), _) => {
                let paid = if d.drawn { g.evaluate(&d.hand) } else { None };
                paytable(ui, &s, &g, d.record.coins, paid);
                ui.add_space(16.0);
                let held: Vec<bool> = (0..5).map(|i| d.hold.holds(i)).collect();
                touched = paint_hand(ui, &d.hand.map(Some), &held);
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - 5.0 * 122.0) / 2.0).max(0.0));
                    for (i, h) in held.iter().enumerate() {
                        let text = if *h { s.t("GUARDADA", "HELD") } else { "" };
                        ui.add_sized([122.0, 24.0], egui::Label::new(egui::RichText::new(format!("{text}\nF{}", i + 1)).color(egui::Color32::GOLD)));
                    }
                });
                if d.drawn {
                    match paid {
                        Some(e) => {
                            ui.heading(
                                egui::RichText::new(format!("{} — {}", g.entries[e].name, s.show(d.win * d.denom))).color(egui::Color32::GOLD).size(30.0),
                            );
                        }
                        None => {
                            ui.heading(s.t("Sem prémio", "No win"));
                        }
                    }
                    if s.double_up_offered() {
                        choice = double_up_panel(ui, &s, d.at_stake, d.denom, &d.gambles);
                    }
                } else {
                    let dealt = g.evaluate(&d.hand).map(|e| g.entries[e].name.clone());
                    if let Some(n) = dealt {
                        ui.label(egui::RichText::new(n).size(22.0));
                    }
                    ui.label(s.t(
                        "Escolha as cartas a guardar (F1–F5 ou toque) e prima ESPAÇO para trocar",
                        "Choose the cards to hold (F1–F5 or touch) and press SPACE to draw",
                    ));
                }
            }
            (None, Some(CardRound::Draw(last))) if last.record.game == g.id => {
                let paid = g.evaluate(&last.hand);
                paytable(ui, &s, &g, s.coins, paid);
                ui.add_space(16.0);
                let held: Vec<bool> = (0..5).map(|i| last.hold.holds(i)).collect();
                paint_hand(ui, &last.hand.map(Some), &held);
                if let Some(e) = paid {
                    ui.heading(egui::RichText::new(format!("{} — {}", g.entries[e].name, s.show(last.at_stake * last.denom))).color(egui::Color32::GOLD));
                }
                ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
            }
            _ => {
                paytable(ui, &s, &g, s.coins, None);
                ui.add_space(16.0);
                paint_hand(ui, &[None; 5], &[]);
                ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
            }
        });
    });
    if let Some(i) = touched {
        s.toggle_hold(i);
    }
    match choice {
        Some(Some(c)) => s.gamble(c),
        Some(None) => s.collect(),
        None => {}
    }
    Ok(())
}
