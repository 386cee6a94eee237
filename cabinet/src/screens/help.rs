//! Help and paytable screens, generated from the paytable itself (M-8,
//! M-31): rules, minimum and maximum bet, the lines drawn, every prize, the
//! double-up and its odds, progressive conditions, how to complain.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use game_core::draw_poker::{DrawPokerGame, Wild};
use game_core::poker::Category;
use game_core::reels::{ReelGame, SymbolKind};
use game_core::stud_poker::{StudPokerGame, TieRule};

use crate::SessionRes;
use game_host::session::{HostedGame, Session};

pub struct HelpPlugin;

/// Whether the help screen is open (key H).
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

impl Plugin for HelpPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HelpOpen>().add_systems(EguiPrimaryContextPass, draw_help.run_if(|h: Res<HelpOpen>| h.0));
    }
}

fn draw_help(mut contexts: EguiContexts, session: Res<SessionRes>, mut open: ResMut<HelpOpen>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(s) = session.0.lock() else { return Ok(()) };
    let mut keep = true;
    egui::Window::new(format!("{} — {}", s.t("Regras e tabela de prémios", "Rules and paytable"), s.game().name()))
        .open(&mut keep)
        .default_size([900.0, 600.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let double_up = match s.game() {
                    HostedGame::Reels(l) => {
                        reel_help(ui, &s, &l.game);
                        l.game.double_up
                    }
                    HostedGame::DrawPoker(g) => {
                        draw_poker_help(ui, &s, g);
                        g.double_up
                    }
                    HostedGame::StudPoker(g) => {
                        stud_help(ui, &s, g);
                        None
                    }
                };
                common_help(ui, &s, double_up);
            });
        });
    open.0 = keep;
    Ok(())
}

fn bet_range(ui: &mut egui::Ui, s: &Session, min_bet: u64, max_bet: u64) {
    let c = &s.machine.config().currency;
    ui.label(format!(
        "{} {} {} ({}), {} {} {} ({})",
        s.t("Aposta mínima", "Minimum bet"),
        min_bet,
        s.t("créditos", "credits"),
        c.format(min_bet * s.denom),
        s.t("aposta máxima", "maximum bet"),
        max_bet,
        s.t("créditos", "credits"),
        c.format(max_bet * s.denom)
    ));
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
    bet_range(ui, s, u64::from(g.coins.first().copied().unwrap_or(1)), u64::from(g.max_coins()));
    ui.heading(s.t("Prémios (créditos por moeda apostada)", "Prizes (credits per coin bet)"));
    egui::Grid::new("draw_pays").striped(true).show(ui, |ui| {
        ui.strong(s.t("mão", "hand"));
        for &c in &g.coins {
            ui.strong(format!("{c} {}", s.t("moeda(s)", "coin(s)")));
        }
        ui.end_row();
        for (i, e) in g.entries.iter().enumerate() {
            ui.label(&e.name);
            for &c in &g.coins {
                ui.label((g.pays_per_coin(i, c) * u64::from(c)).to_string());
            }
            ui.end_row();
        }
    });
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
            ui.label(if s.lang == game_host::session::Lang::Pt { cat.name_pt() } else { cat.name_en() });
            ui.label(format!("{pay}:1"));
            ui.end_row();
        }
    });
    if let Some(cap) = g.max_win_credits {
        ui.label(format!("{} {cap} {}", s.t("Prémio máximo por jogada:", "Maximum win per round:"), s.t("créditos", "credits")));
    }
}

/// Reel games: rules, bet range, lines, every prize, wild and scatter.
fn reel_help(ui: &mut egui::Ui, s: &Session, g: &ReelGame) {
    ui.heading(s.t("Regras", "Rules"));
    ui.label(s.t(
                "Os prémios de linha pagam da esquerda para a direita a partir do primeiro rolo. Em cada linha paga-se só o prémio mais alto (regra 13); os prémios de várias linhas somam-se (regra 14). O wild substitui todos os símbolos excepto o scatter. O scatter paga em qualquer posição, multiplicado pela aposta total.",
                "Line wins pay left to right from the first reel. Each line pays only its highest win (rule 13); wins on several lines are added (rule 14). The wild substitutes for every symbol but the scatter. The scatter pays anywhere, times the total bet.",
            ));
    let min_bet = g.bet.lines.first().copied().unwrap_or(1) as u64 * g.bet.credits_per_line.first().copied().unwrap_or(1);
    let max_bet = g.bet.lines.last().copied().unwrap_or(1) as u64 * g.bet.credits_per_line.last().copied().unwrap_or(1);
    bet_range(ui, s, min_bet, max_bet);
    ui.heading(s.t("Linhas", "Lines"));
    ui.horizontal_wrapped(|ui| {
        for (i, line) in g.lines.iter().enumerate() {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(70.0, 12.0 * g.rows as f32 + 16.0), egui::Sense::hover());
            let p = ui.painter_at(rect);
            p.text(rect.min, egui::Align2::LEFT_TOP, format!("{}", i + 1), egui::FontId::monospace(10.0), egui::Color32::WHITE);
            for (r, &row) in line.iter().enumerate() {
                for y in 0..g.rows {
                    let cell = egui::Rect::from_min_size(rect.min + egui::vec2(12.0 + r as f32 * 11.0, 12.0 + y as f32 * 12.0), egui::vec2(10.0, 10.0));
                    p.rect_filled(cell, 1.0, if y == row { egui::Color32::YELLOW } else { egui::Color32::DARK_GRAY });
                }
            }
        }
    });
    ui.heading(s.t("Prémios (créditos por crédito apostado na linha)", "Prizes (credits per credit bet on the line)"));
    egui::Grid::new("pays").striped(true).show(ui, |ui| {
        for (sym, pays) in g.pays.iter().enumerate() {
            if pays.iter().all(|&p| p == 0) {
                continue;
            }
            ui.label(&g.symbols[sym].name);
            for (count, &pay) in pays.iter().enumerate() {
                if pay > 0 {
                    ui.label(format!("{count} × = {pay}"));
                }
            }
            ui.end_row();
        }
    });
    if let Some(w) = g.symbols.iter().find_map(|x| match x.kind {
        SymbolKind::Wild { multiplier } => Some((x, multiplier)),
        _ => None,
    }) {
        ui.label(format!("{}: wild, {} ×{}", w.0.name, s.t("prémios com wild multiplicados por", "wins with a wild multiplied by"), w.1));
    }
    if let Some(sc) = &g.scatter {
        ui.heading("Scatter");
        for (count, &pay) in sc.pays.iter().enumerate() {
            let awards = sc.free_games.as_ref().and_then(|f| f.awards.get(count)).copied().unwrap_or(0);
            if pay > 0 || awards > 0 {
                ui.label(format!(
                    "{count} × {}: {} × {} + {} {}",
                    g.symbols[sc.symbol as usize].name,
                    pay,
                    s.t("aposta total", "total bet"),
                    awards,
                    s.t("jogos grátis", "free games")
                ));
            }
        }
        if let Some(f) = &sc.free_games {
            ui.label(format!(
                "{} ×{}{}",
                s.t("Prémios dos jogos grátis multiplicados por", "Free-game wins multiplied by"),
                f.multiplier,
                if f.retrigger { s.t("; podem ser reactivados", "; they can retrigger") } else { "" }
            ));
        }
    }
}

/// What every game's help ends with: the double-up and its odds, the
/// progressives and how they are won (M-31), how to complain.
fn common_help(ui: &mut egui::Ui, s: &Session, double_up: Option<game_core::double_up::DoubleUpRule>) {
    if let Some(d) = double_up {
        ui.heading(s.t("Dobrar (aposta opcional, regra 11)", "Double up (optional bet, rule 11)"));
        ui.label(format!(
            "{} {} {} {} {}.",
            s.t(
                "Depois de um prémio pode escolher vermelho ou preto: 50% de probabilidade de dobrar, 50% de perder o valor em jogo. Até",
                "After a win you may pick red or black: a 50% chance to double, 50% to lose the amount at stake. Up to"
            ),
            d.max_doubles,
            s.t("vezes, prémio máximo", "times, maximum"),
            d.max_win_credits,
            s.t("créditos", "credits")
        ));
    }
    ui.heading(s.t("Prémios acumulados (progressivos)", "Progressive jackpots"));
    let conditions = s.progressive_conditions();
    if conditions.is_empty() {
        ui.label(s.t("Este jogo não está ligado a nenhum progressivo.", "This game is not linked to any progressive."));
    }
    for c in conditions {
        ui.label(c);
    }
    ui.heading(s.t("Reclamações", "Complaints"));
    ui.label(s.t(
                "Em caso de dúvida, os registos electrónicos da máquina fazem fé (regra 15). Pode reclamar junto do empregado da sala ou no livro de reclamações do casino; a autoridade reguladora recebe reclamações por escrito.",
                "In a dispute the machine's electronic records are authoritative (rule 15). Complain to a floor attendant or in the casino's complaints book; the regulator accepts written complaints.",
            ));
    ui.label(format!("{}: {}", s.t("Percentagem de retorno mínima legal", "Legal minimum return"), "80%"));
}
