//! The póquer sem descarte screen: the ante, the player's five cards and
//! the dealer's up card, raise (F1) or fold (F2), then the dealer's hand
//! and the settlement. The dealer's hand was drawn and committed at the
//! deal; the screen only turns it over.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use game_core::poker::{Category, evaluate};
use game_core::stud_poker::{Decision, Outcome, StudPokerGame};

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::cards::paint_hand;
use crate::screens::{HudLayout, screen_ui};
use game_host::session::{CardRound, HostedGame, Lang, Session};

pub struct StudPokerScreenPlugin;

impl Plugin for StudPokerScreenPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, decision_keys.run_if(in_state(Mode::Playing)))
            .add_systems(EguiPrimaryContextPass, draw_stud_screen.run_if(in_state(Mode::Idle).or_else(in_state(Mode::Playing)).and_then(stud_selected)));
    }
}

fn stud_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| matches!(s.game(), HostedGame::StudPoker(_)))
}

/// F1 raises ("vou"), F2 folds ("passo").
fn decision_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    if s.stud.is_none() {
        return;
    }
    if keys.just_pressed(KeyCode::F1) {
        s.stud_decide(Decision::Raise);
    } else if keys.just_pressed(KeyCode::F2) {
        s.stud_decide(Decision::Fold);
    }
}

fn category(s: &Session, c: Category) -> &'static str {
    if s.lang == Lang::Pt { c.name_pt() } else { c.name_en() }
}

fn outcome_text(s: &Session, o: Outcome) -> &'static str {
    match o {
        Outcome::Folded => s.t("Desistiu: o ante fica perdido", "Folded: the ante is lost"),
        Outcome::DealerDoesNotQualify => {
            s.t("O croupier não se qualifica: ante pago 1:1, aposta devolvida", "The dealer does not qualify: ante paid 1:1, raise returned")
        }
        Outcome::PlayerWins => s.t("GANHOU", "YOU WIN"),
        Outcome::DealerWins => s.t("O croupier ganha", "The dealer wins"),
        Outcome::Push => s.t("Empate: apostas devolvidas", "Push: bets returned"),
    }
}

fn raise_table(ui: &mut egui::Ui, s: &Session, g: &StudPokerGame) {
    ui.horizontal_wrapped(|ui| {
        for (i, pay) in g.raise_pays.iter().enumerate().rev().take(7) {
            ui.label(format!("{} {pay}:1 ·", category(s, Category::ALL[i])));
        }
    });
}

fn draw_stud_screen(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "stud_poker", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let HostedGame::StudPoker(g) = s.game() else { return Ok(()) };
    let g = g.clone();
    let mut decision = None;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            raise_table(ui, &s, &g);
            match (&s.stud, &s.last_card_round) {
                (Some(r), _) => {
                    ui.label(egui::RichText::new(s.t("CROUPIER", "DEALER")).size(20.0));
                    let mut dealer = [None; 5];
                    dealer[4] = Some(r.record.deal.dealer_up_card());
                    paint_hand(ui, &dealer, &[]);
                    ui.add_space(10.0);
                    paint_hand(ui, &r.record.deal.player.map(Some), &[]);
                    ui.label(egui::RichText::new(category(&s, evaluate(&r.record.deal.player).category())).size(24.0));
                    ui.label(format!("{} {}", s.t("Ante:", "Ante:"), s.show(r.record.ante * r.denom)));
                    ui.horizontal(|ui| {
                        ui.add_space((ui.available_width() / 2.0 - 180.0).max(0.0));
                        let raise = format!("{} {} (F1)", s.t("APOSTAR", "RAISE"), s.show(2 * r.record.ante * r.denom));
                        if ui.add_sized([180.0, 40.0], egui::Button::new(raise)).clicked() {
                            decision = Some(Decision::Raise);
                        }
                        if ui.add_sized([180.0, 40.0], egui::Button::new(s.t("DESISTIR (F2)", "FOLD (F2)"))).clicked() {
                            decision = Some(Decision::Fold);
                        }
                    });
                }
                (None, Some(CardRound::Stud(last))) if last.record.game == g.id => {
                    let Some(st) = last.settlement else { return };
                    ui.label(egui::RichText::new(format!("{} — {}", s.t("CROUPIER", "DEALER"), category(&s, st.dealer))).size(20.0));
                    paint_hand(ui, &last.record.deal.dealer.map(Some), &[]);
                    ui.add_space(10.0);
                    paint_hand(ui, &last.record.deal.player.map(Some), &[]);
                    ui.label(egui::RichText::new(category(&s, st.player)).size(24.0));
                    let colour = if st.returned > st.staked { egui::Color32::GOLD } else { egui::Color32::LIGHT_GRAY };
                    ui.heading(
                        egui::RichText::new(format!("{} — {}", outcome_text(&s, st.outcome), s.show(st.returned * last.denom))).color(colour).size(28.0),
                    );
                    ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
                }
                _ => {
                    ui.label(egui::RichText::new(s.t("CROUPIER", "DEALER")).size(20.0));
                    paint_hand(ui, &[None; 5], &[]);
                    ui.add_space(10.0);
                    paint_hand(ui, &[None; 5], &[]);
                    ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
                }
            }
        });
    });
    if let Some(d) = decision {
        s.stud_decide(d);
    }
    Ok(())
}
