//! The póquer sem descarte screen: the ante, the player's five cards and
//! the dealer's up card, raise (F1) or fold (F2), then the dealer's hand
//! and the settlement. The dealer's hand was drawn and committed at the
//! deal; the screen only turns it over.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use game_core::double_up::DoubleUpRule;
use game_core::poker::{Category, evaluate};
use game_core::stud_poker::{Decision, Outcome, StudDeal, StudPokerGame, TieRule};
use game_host::kind::GameKind;
use game_host::round::Opening;
use meters::RoundRecall;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::cards::{paint_hand, paint_hand_turning, turned};
use crate::screens::help::bet_range;
use crate::screens::{HudLayout, KindPages, screen_ui};
use game_host::kinds::stud_poker::StudPoker;
use game_host::round::Phase;
use game_host::session::{Lang, Session};

pub struct StudPokerScreenPlugin;

impl Plugin for StudPokerScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, help_page, replay);
        app.add_systems(Update, decision_keys.run_if(in_state(Mode::Playing)))
            .add_systems(EguiPrimaryContextPass, draw_stud_screen.run_if(in_state(Mode::Idle).or_else(in_state(Mode::Playing)).and_then(stud_selected)));
    }
}

fn stud_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<StudPoker>().is_some())
}

/// F1 raises ("vou"), F2 folds ("passo").
fn decision_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    if !s.in_round() {
        return;
    }
    if keys.just_pressed(KeyCode::F1) {
        s.decide::<StudPoker>(Decision::Raise);
    } else if keys.just_pressed(KeyCode::F2) {
        s.decide::<StudPoker>(Decision::Fold);
    }
}

fn category(s: &Session, c: Category) -> &'static str {
    if s.lang() == Lang::Pt { c.name_pt() } else { c.name_en() }
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

/// The deal or the settlement on screen and when it began: the cards
/// dealt, then the dealer's hidden ones, turn over one after another
/// (issue 29; presentation only).
#[derive(Default)]
struct Turning {
    shown: Option<(u64, bool)>,
    since: f32,
}

fn draw_stud_screen(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>, time: Res<Time>, mut turning: Local<Turning>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "stud_poker", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let Some(g) = s.rules::<StudPoker>().map(|r| r.0.clone()) else { return Ok(()) };
    let round = s.round::<StudPoker>().cloned();
    let mut decision = None;
    let now = time.elapsed_secs();
    if let Some(r) = &round {
        let stage = (r.id, r.phase == Phase::Ended);
        if turning.shown != Some(stage) {
            // A round this screen did not see dealt is shown as it stands.
            let seen = turning.shown.is_some_and(|(id, _)| id == r.id) || r.phase != Phase::Ended;
            *turning = Turning { shown: Some(stage), since: if seen && !r.resumed { now } else { now - 10.0 } };
        }
    }
    let elapsed = now - turning.since;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            raise_table(ui, &s, &g);
            match &round {
                Some(r) if r.phase != Phase::Ended => {
                    ui.label(egui::RichText::new(s.t("CROUPIER", "DEALER")).size(20.0));
                    let mut dealer = [None; 5];
                    dealer[4] = Some(r.state.deal.dealer_up_card());
                    let up = [1.0, 1.0, 1.0, 1.0, turned(5, elapsed)];
                    paint_hand_turning(ui, &dealer, &[], &up);
                    ui.add_space(10.0);
                    let player: Vec<f32> = (0..5).map(|i| turned(i, elapsed)).collect();
                    paint_hand_turning(ui, &r.state.deal.player.map(Some), &[], &player);
                    ui.label(egui::RichText::new(category(&s, evaluate(&r.state.deal.player).category())).size(24.0));
                    ui.label(format!("{} {}", s.t("Ante:", "Ante:"), s.show(r.state.ante * r.denom)));
                    if r.state.side_bet > 0 {
                        ui.label(format!("{} {}", s.t("Aposta no jackpot:", "Jackpot bet:"), s.show(r.state.side_bet * r.denom)));
                    }
                    ui.horizontal(|ui| {
                        ui.add_space((ui.available_width() / 2.0 - 180.0).max(0.0));
                        let raise = format!("{} {} (F1)", s.t("APOSTAR", "RAISE"), s.show(2 * r.state.ante * r.denom));
                        if ui.add_sized([180.0, 40.0], egui::Button::new(raise)).clicked() {
                            decision = Some(Decision::Raise);
                        }
                        if ui.add_sized([180.0, 40.0], egui::Button::new(s.t("DESISTIR (F2)", "FOLD (F2)"))).clicked() {
                            decision = Some(Decision::Fold);
                        }
                    });
                }
                Some(last) => {
                    // The last round stays on screen until the next (E-34).
                    let Some((_, st)) = last.state.settled else { return };
                    ui.label(egui::RichText::new(format!("{} — {}", s.t("CROUPIER", "DEALER"), category(&s, st.dealer))).size(20.0));
                    // The dealer's hidden cards turn at the settlement.
                    let hidden: Vec<f32> = (0..5).map(|i| if i == 4 { 1.0 } else { turned(i, elapsed) }).collect();
                    paint_hand_turning(ui, &last.state.deal.dealer.map(Some), &[], &hidden);
                    ui.add_space(10.0);
                    paint_hand(ui, &last.state.deal.player.map(Some), &[]);
                    ui.label(egui::RichText::new(category(&s, st.player)).size(24.0));
                    let colour = if st.returned > st.staked { egui::Color32::GOLD } else { egui::Color32::LIGHT_GRAY };
                    ui.heading(
                        egui::RichText::new(format!("{} — {}", outcome_text(&s, st.outcome), s.show(st.returned * last.denom))).color(colour).size(28.0),
                    );
                    // The side bet's win: its fixed sum or the jackpot.
                    let side = last.settled_win.unwrap_or(0).saturating_sub(st.returned * last.denom);
                    if side > 0 {
                        ui.heading(egui::RichText::new(format!("JACKPOT — {}", s.show(side))).color(egui::Color32::GOLD).size(28.0));
                    }
                    ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
                    side_bet_line(ui, &s);
                }
                _ => {
                    ui.label(egui::RichText::new(s.t("CROUPIER", "DEALER")).size(20.0));
                    paint_hand(ui, &[None; 5], &[]);
                    ui.add_space(10.0);
                    paint_hand(ui, &[None; 5], &[]);
                    ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
                    side_bet_line(ui, &s);
                }
            }
        });
    });
    if let Some(d) = decision {
        s.decide::<StudPoker>(d);
    }
    Ok(())
}

/// Póquer sem descarte: the seed rules, the raise's pays, the cap.
fn stud_help(ui: &mut egui::Ui, s: &Session, g: &StudPokerGame) {
    ui.heading(s.t("Regras", "Rules"));
    ui.label(s.t(
        "Aposte o ante e receba cinco cartas; o croupier recebe cinco, uma delas à vista. Escolha APOSTAR (F1: uma segunda aposta de duas vezes o ante) ou DESISTIR (F2: perde o ante). O croupier qualifica-se com ás e rei ou melhor; se não se qualificar, o ante é pago 1:1 e a aposta devolvida. Se se qualificar e a sua mão for melhor, o ante paga 1:1 e a aposta conforme a tabela; se for pior, perde as duas.",
        "Bet the ante and receive five cards; the dealer receives five, one face up. Choose RAISE (F1: a second bet of twice the ante) or FOLD (F2: the ante is lost). The dealer qualifies with ace-king or better; if not, the ante pays 1:1 and the raise is returned. If the dealer qualifies and your hand is better, the ante pays 1:1 and the raise by the table; if worse, both are lost.",
    ));
    ui.label(match g.tie_rule {
        TieRule::SuitOrder => s.t(
            "Mãos da mesma categoria e valor: decide o naipe (espadas, copas, paus, ouros).",
            "Hands of equal rank: the suit decides (spades, hearts, clubs, diamonds).",
        ),
        TieRule::Push => s.t("Mãos iguais: empate, as apostas são devolvidas.", "Equal hands: a push, the bets are returned."),
    });
    bet_range(ui, s, g.antes.first().copied().unwrap_or(1), g.antes.last().copied().unwrap_or(1) * 3);
    ui.heading(s.t("A aposta paga (por 1)", "The raise pays (to 1)"));
    egui::Grid::new("stud_pays").striped(true).show(ui, |ui| {
        for (i, &pay) in g.raise_pays.iter().enumerate().rev() {
            let cat = Category::ALL[i];
            ui.label(if s.lang() == game_host::session::Lang::Pt { cat.name_pt() } else { cat.name_en() });
            ui.label(format!("{pay}:1"));
            ui.end_row();
        }
    });
    if let Some(cap) = g.max_win_credits {
        ui.label(format!("{} {cap} {}", s.t("Prémio máximo por jogada:", "Maximum win per round:"), s.t("créditos", "credits")));
    }
    if let Some(j) = &g.jackpot {
        ui.heading(s.t("Aposta no jackpot (tecla J)", "Jackpot side bet (key J)"));
        ui.label(format!(
            "{} {} {}. {}",
            s.t("Com o ante, uma aposta fixa de", "With the ante, a fixed bet of"),
            j.bet_credits,
            s.t("créditos", "credits"),
            s.t(
                "Paga pela mão do jogador, qualifique-se ou não o croupier: sequência real 100% do jackpot, sequência de cor 10% (ou as somas fixas, se maiores); poker, full e cor, somas fixas.",
                "Paid on the player's hand whether or not the dealer qualifies: royal flush 100% of the jackpot, straight flush 10% (or the fixed sums, when greater); four of a kind, full house and flush, fixed sums."
            )
        ));
        egui::Grid::new("stud_jackpot").striped(true).show(ui, |ui| {
            for (cat, pay) in [
                (Category::RoyalFlush, j.royal_fixed),
                (Category::StraightFlush, j.straight_flush_fixed),
                (Category::FourOfAKind, j.four_of_a_kind),
                (Category::FullHouse, j.full_house),
                (Category::Flush, j.flush),
            ] {
                ui.label(category(s, cat));
                ui.label(format!("{pay} {}", s.t("créditos", "credits")));
                ui.end_row();
            }
        });
        if !j.pays_on_fold {
            ui.label(s.t("Uma mão que desiste não ganha o jackpot.", "A folded hand does not win the jackpot."));
        }
    }
}

/// Whether the next round carries the jackpot side bet (key J).
fn side_bet_line(ui: &mut egui::Ui, s: &Session) {
    if s.rules::<StudPoker>().is_some_and(|g| g.0.jackpot.is_some()) {
        let on = s.game().bet::<StudPoker>().is_some_and(|b| b.jackpot);
        ui.label(if on { s.t("Aposta no jackpot: SIM (J)", "Jackpot bet: ON (J)") } else { s.t("Aposta no jackpot: NÃO (J)", "Jackpot bet: OFF (J)") });
    }
}

/// The help page of a póquer sem descarte game.
fn help_page(ui: &mut egui::Ui, s: &Session) -> Option<Option<DoubleUpRule>> {
    let g = s.rules::<StudPoker>()?;
    stud_help(ui, s, &g.0);
    Some(None)
}

/// A recalled póquer sem descarte round: the dealer's hand and the
/// player's, as dealt (M-15).
fn replay(ui: &mut egui::Ui, _s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == StudPoker::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<u64, StudDeal>>(first.step.data.clone()) else { return false };
    paint_hand(ui, &rec.deal.dealer.map(Some), &[]);
    paint_hand(ui, &rec.deal.player.map(Some), &[]);
    true
}
