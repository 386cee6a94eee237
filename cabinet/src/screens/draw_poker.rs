//! The draw-poker screen: the paytable at the current bet always on screen
//! (M-8), the deal, the holds (touch a card or keys F1–F5), the draw, the
//! winning hand with its amount (M-5), and the double-up. It only shows
//! what the session committed; the cards of the draw were drawn at the deal.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use game_core::double_up::DoubleUpRule;
use game_core::draw_poker::{DrawPokerGame, Wild};
use game_host::kind::GameKind;
use game_host::kinds::draw_poker::{DrawBet, DrawDeal, DrawPokerRound, DrawRecord};
use game_host::round::Opening;
use meters::RoundRecall;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::cards::{double_up_panel, paint_hand, paint_hand_turning, paint_small_hand, turned};
use crate::screens::help::bet_range;
use crate::screens::{HudLayout, KindPages, screen_ui};
use game_host::kinds::draw_poker::{DrawDecision, DrawPoker};
use game_host::round::Phase;
use game_host::session::{Lang, Session};

pub struct DrawPokerScreenPlugin;

impl Plugin for DrawPokerScreenPlugin {
    fn build(&self, app: &mut App) {
        KindPages::register(app, help_page, replay);
        app.add_systems(Update, hold_keys.run_if(in_state(Mode::Playing))).add_systems(
            EguiPrimaryContextPass,
            draw_draw_poker_screen.run_if(in_state(Mode::Idle).or_else(in_state(Mode::Playing)).and_then(draw_poker_selected)),
        );
    }
}

fn draw_poker_selected(session: Res<SessionRes>) -> bool {
    session.0.lock().is_ok_and(|s| s.rules::<DrawPoker>().is_some())
}

const HOLD_KEYS: [KeyCode; 5] = [KeyCode::F1, KeyCode::F2, KeyCode::F3, KeyCode::F4, KeyCode::F5];

/// The hold buttons: F1–F5 hold or release the card above them.
fn hold_keys(keys: Res<ButtonInput<KeyCode>>, session: Res<SessionRes>) {
    let Ok(mut s) = session.0.lock() else { return };
    for (i, k) in HOLD_KEYS.iter().enumerate() {
        if keys.just_pressed(*k) {
            s.decide::<DrawPoker>(DrawDecision::Toggle(i));
        }
    }
}

/// The paytable glass (M-8, issue 29): a column per coin count, in
/// credits, the column of the bet on screen lit and the row of `paid`
/// highlighted.
fn paytable(ui: &mut egui::Ui, s: &Session, g: &DrawPokerGame, coins: u32, paid: Option<usize>) {
    const LIT: egui::Color32 = egui::Color32::from_rgb(150, 16, 30);
    egui::Frame::new().fill(egui::Color32::from_rgb(12, 22, 80)).stroke(egui::Stroke::new(3.0, egui::Color32::GOLD)).corner_radius(8.0).inner_margin(8.0).show(
        ui,
        |ui| {
            egui::Grid::new("draw_paytable").num_columns(1 + g.coins.len()).spacing([18.0, 1.0]).show(ui, |ui| {
                ui.label("");
                for &c in &g.coins {
                    let head = egui::RichText::new(format!("{c} {}", s.t("moeda(s)", "coin(s)"))).size(14.0).color(egui::Color32::LIGHT_GRAY);
                    ui.label(if c == coins { head.background_color(LIT).color(egui::Color32::WHITE) } else { head });
                }
                ui.end_row();
                for (i, e) in g.entries.iter().enumerate() {
                    let colour = if paid == Some(i) { egui::Color32::WHITE } else { egui::Color32::from_rgb(250, 215, 0) };
                    ui.label(egui::RichText::new(e.name_in(s.lang() == Lang::Pt)).color(colour).size(15.0).strong());
                    for &c in &g.coins {
                        let pay = egui::RichText::new((g.pays_per_coin(i, c) * u64::from(c)).to_string()).color(colour).size(15.0).monospace();
                        ui.label(if c == coins { pay.background_color(LIT) } else { pay });
                    }
                    ui.end_row();
                }
            });
        },
    );
}

/// The paytable, and in multi-hand play (issue 18) every further hand
/// beside it, small: the cards held until the draw, then its own final
/// cards and what they pay (one column up to four further hands, two
/// beyond).
fn paytable_and_hands(ui: &mut egui::Ui, s: &Session, g: &DrawPokerGame, round: &DrawPokerRound, paid: Option<usize>, denom: u64) {
    if round.deal.more.is_empty() {
        paytable(ui, s, g, round.coins, paid);
        return;
    }
    let dealt = round.deal.first.hand();
    let finals = round.drawn.as_ref().map(|d| d.more.as_slice());
    let columns = if round.deal.more.len() > 4 { 2 } else { 1 };
    ui.horizontal_top(|ui| {
        paytable(ui, s, g, round.coins, paid);
        ui.add_space(24.0);
        egui::Grid::new("further_hands").spacing([16.0, 4.0]).show(ui, |ui| {
            for k in 0..round.deal.more.len() {
                let (faces, pays) = match finals.and_then(|f| f.get(k)) {
                    Some(hand) => {
                        let pays = g.evaluate(hand).map_or_else(String::new, |e| {
                            format!("{} {}", g.entries[e].name_in(s.lang() == Lang::Pt), s.show(g.win(hand, round.coins) * denom))
                        });
                        (hand.map(Some), pays)
                    }
                    None => (std::array::from_fn(|i| round.hold.holds(i).then_some(dealt[i])), String::new()),
                };
                paint_small_hand(ui, &format!("{} {}", s.t("Mão", "Hand"), k + 2), &faces, &pays);
                if (k + 1) % columns == 0 {
                    ui.end_row();
                }
            }
        });
    });
}

/// The deal or the draw on screen and when it began: its cards turn over
/// one after another (issue 29; presentation only).
#[derive(Default)]
struct Turning {
    shown: Option<(u64, bool)>,
    since: f32,
}

fn draw_draw_poker_screen(mut contexts: EguiContexts, hud: Res<HudLayout>, session: Res<SessionRes>, time: Res<Time>, mut turning: Local<Turning>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "draw_poker", &hud);
    let Ok(mut s) = session.0.lock() else { return Ok(()) };
    let Some(g) = s.rules::<DrawPoker>().map(|r| r.0.clone()) else { return Ok(()) };
    let coins = s.game().bet::<DrawPoker>().map_or(1, |b| b.coins);
    let round = s.round::<DrawPoker>().cloned();
    let mut touched = None;
    let mut choice = None;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| match &round {
            Some(d) if d.phase != Phase::Ended => {
                let hand = d.state.hand();
                let drawn = d.state.drawn.as_ref();
                let paid = drawn.and_then(|_| g.evaluate(&hand));
                paytable_and_hands(ui, &s, &g, &d.state, paid, d.denom);
                ui.add_space(16.0);
                let held: Vec<bool> = (0..5).map(|i| d.state.hold.holds(i)).collect();
                // The deal turns every card; the draw, the cards replaced.
                let now = time.elapsed_secs();
                let stage = (d.id, drawn.is_some());
                if turning.shown != Some(stage) {
                    *turning = Turning { shown: Some(stage), since: if d.resumed { now - 10.0 } else { now } };
                }
                let mut k = 0;
                let turns: Vec<f32> = held
                    .iter()
                    .map(|&h| {
                        if drawn.is_some() && h {
                            1.0
                        } else {
                            k += 1;
                            turned(k - 1, now - turning.since)
                        }
                    })
                    .collect();
                touched = paint_hand_turning(ui, &hand.map(Some), &held, &turns);
                ui.horizontal(|ui| {
                    ui.add_space(((ui.available_width() - 5.0 * 122.0) / 2.0).max(0.0));
                    for (i, h) in held.iter().enumerate() {
                        let text = if *h { s.t("GUARDADA", "HELD") } else { "" };
                        ui.add_sized([122.0, 24.0], egui::Label::new(egui::RichText::new(format!("{text}\nF{}", i + 1)).color(egui::Color32::GOLD)));
                    }
                });
                if let Some(dr) = drawn.filter(|dr| !dr.more.is_empty()) {
                    // Multi-hand: the first hand's prize, then every hand's together.
                    let first = paid.map_or_else(|| s.t("Sem prémio", "No win").to_owned(), |e| g.entries[e].name_in(s.lang() == Lang::Pt).to_owned());
                    ui.label(egui::RichText::new(first).size(22.0));
                    ui.heading(
                        egui::RichText::new(format!("{} — {}", s.t("Prémio das mãos", "All hands win"), s.show(dr.win * d.denom)))
                            .color(egui::Color32::GOLD)
                            .size(30.0),
                    );
                    if s.double_up_offered() {
                        choice = double_up_panel(ui, &s, d.at_stake, d.denom, &d.gambles);
                    }
                } else if let Some(dr) = drawn {
                    match paid {
                        Some(e) => {
                            ui.heading(
                                egui::RichText::new(format!("{} — {}", g.entries[e].name_in(s.lang() == Lang::Pt), s.show(dr.win * d.denom)))
                                    .color(egui::Color32::GOLD)
                                    .size(30.0),
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
                    let dealt = g.evaluate(&hand).map(|e| g.entries[e].name_in(s.lang() == Lang::Pt).to_owned());
                    if let Some(n) = dealt {
                        ui.label(egui::RichText::new(n).size(22.0));
                    }
                    ui.label(s.t(
                        "Escolha as cartas a guardar (F1–F5 ou toque) e prima ESPAÇO para trocar",
                        "Choose the cards to hold (F1–F5 or touch) and press SPACE to draw",
                    ));
                }
            }
            Some(last) => {
                // The last round stays on screen until the next (E-34).
                let hand = last.state.hand();
                let paid = g.evaluate(&hand);
                paytable_and_hands(ui, &s, &g, &last.state, paid, last.denom);
                ui.add_space(16.0);
                let held: Vec<bool> = (0..5).map(|i| last.state.hold.holds(i)).collect();
                paint_hand(ui, &hand.map(Some), &held);
                if let Some(e) = paid {
                    ui.heading(
                        egui::RichText::new(format!("{} — {}", g.entries[e].name_in(s.lang() == Lang::Pt), s.show(last.at_stake * last.denom)))
                            .color(egui::Color32::GOLD),
                    );
                }
                ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
            }
            None => {
                paytable(ui, &s, &g, coins, None);
                ui.add_space(16.0);
                paint_hand(ui, &[None; 5], &[]);
                ui.label(s.t("Prima ESPAÇO para dar cartas", "Press SPACE to deal"));
            }
        });
    });
    if let Some(i) = touched {
        s.decide::<DrawPoker>(DrawDecision::Toggle(i));
    }
    match choice {
        Some(Some(c)) => s.gamble(c),
        Some(None) => s.collect(),
        None => {}
    }
    Ok(())
}

/// Draw poker: rules, the bet in coins, every hand and its pay per coin.
fn draw_poker_help(ui: &mut egui::Ui, s: &Session, g: &DrawPokerGame) {
    ui.heading(s.t("Regras", "Rules"));
    ui.label(s.t(
        "Recebe cinco cartas de um baralho baralhado; escolha as que guarda (teclas F1–F5 ou toque nas cartas) e prima ESPAÇO: as outras são substituídas pelas cartas seguintes do mesmo baralho. A mão final paga só o prémio mais alto que faz (regra 13).",
        "You are dealt five cards from a shuffled deck; choose the ones to hold (keys F1–F5 or touch the cards) and press SPACE: the others are replaced by the next cards of the same deck. The final hand pays only the highest prize it makes (rule 13).",
    ));
    match g.wild {
        Wild::None => {}
        Wild::Deuces => {
            ui.label(s.t("Os quatro 2 são wild: substituem qualquer carta.", "The four deuces are wild: they stand for any card."));
        }
        Wild::Joker => {
            ui.label(s.t("Baralho de 53 cartas: o joker é wild e substitui qualquer carta.", "53-card deck: the joker is wild and stands for any card."));
        }
    }
    if g.hands.len() > 1 {
        let hands: Vec<String> = g.hands.iter().map(u32::to_string).collect();
        ui.label(format!(
            "{} {} {}",
            s.t("Jogo de várias mãos (setas cima/baixo):", "Multi-hand play (up/down arrows):"),
            hands.join(", "),
            s.t(
                "mãos. Todas partem das mesmas cinco cartas e guardam as mesmas; cada mão troca as outras de um baralho seu, sem as cinco dadas. A aposta é moedas × mãos, e cada mão paga o seu prémio.",
                "hands. Every hand starts from the same five cards and holds the same ones; each replaces the others from its own deck, less the five dealt. The bet is coins × hands, and each hand pays its own prize."
            )
        ));
    }
    bet_range(ui, s, u64::from(g.coins.first().copied().unwrap_or(1)), u64::from(g.max_coins()));
    ui.heading(s.t("Prémios (créditos por moeda apostada)", "Prizes (credits per coin bet)"));
    egui::Grid::new("draw_pays").striped(true).show(ui, |ui| {
        ui.strong(s.t("mão", "hand"));
        for &c in &g.coins {
            ui.strong(format!("{c} {}", s.t("moeda(s)", "coin(s)")));
        }
        ui.end_row();
        for (i, e) in g.entries.iter().enumerate() {
            ui.label(e.name_in(s.lang() == Lang::Pt));
            for &c in &g.coins {
                ui.label((g.pays_per_coin(i, c) * u64::from(c)).to_string());
            }
            ui.end_row();
        }
    });
}

/// The help page of a draw-poker game.
fn help_page(ui: &mut egui::Ui, s: &Session) -> Option<Option<DoubleUpRule>> {
    let g = s.rules::<DrawPoker>()?;
    draw_poker_help(ui, s, &g.0);
    Some(g.0.double_up)
}

/// A recalled draw-poker round: the deal, then the final hand with the
/// cards held (M-15).
fn replay(ui: &mut egui::Ui, s: &Session, r: &RoundRecall) -> bool {
    let Some(first) = r.steps.first().filter(|st| st.step.name == DrawPoker::OPENING) else { return false };
    let Ok(rec) = serde_json::from_value::<Opening<DrawBet, DrawDeal>>(first.step.data.clone()) else { return false };
    paint_hand(ui, &rec.deal.first.hand().map(Some), &[]);
    for st in &r.steps[1..] {
        if let Ok(d) = serde_json::from_value::<DrawRecord>(st.step.data.clone()) {
            let held: Vec<bool> = (0..5).map(|i| d.hold.holds(i)).collect();
            paint_hand(ui, &d.hand.map(Some), &held);
            for (k, hand) in d.more.iter().enumerate() {
                paint_small_hand(ui, &format!("{} {}", s.t("Mão", "Hand"), k + 2), &hand.map(Some), "");
            }
        }
    }
    true
}
