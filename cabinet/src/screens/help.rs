//! Help and paytable screens, generated from the paytable itself (M-8,
//! M-31): rules, minimum and maximum bet, the lines drawn, every prize, the
//! double-up and its odds, progressive conditions, how to complain.

use bevy::prelude::*;
use bevy_egui::{egui, EguiContexts, EguiPrimaryContextPass};
use game_core::reels::SymbolKind;

use crate::SessionRes;

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
    let g = &s.game().game;
    let mut keep = true;
    egui::Window::new(format!("{} — {}", s.t("Regras e tabela de prémios", "Rules and paytable"), g.name)).open(&mut keep).default_size([900.0, 600.0]).show(ctx, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(s.t("Regras", "Rules"));
            ui.label(s.t(
                "Os prémios de linha pagam da esquerda para a direita a partir do primeiro rolo. Em cada linha paga-se só o prémio mais alto (regra 13); os prémios de várias linhas somam-se (regra 14). O wild substitui todos os símbolos excepto o scatter. O scatter paga em qualquer posição, multiplicado pela aposta total.",
                "Line wins pay left to right from the first reel. Each line pays only its highest win (rule 13); wins on several lines are added (rule 14). The wild substitutes for every symbol but the scatter. The scatter pays anywhere, times the total bet.",
            ));
            let c = &s.machine.config().currency;
            let min_bet = g.bet.lines.first().copied().unwrap_or(1) as u64 * g.bet.credits_per_line.first().copied().unwrap_or(1);
            let max_bet = g.bet.lines.last().copied().unwrap_or(1) as u64 * g.bet.credits_per_line.last().copied().unwrap_or(1);
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
            if let Some(w) = g.symbols.iter().find_map(|x| match x.kind { SymbolKind::Wild { multiplier } => Some((x, multiplier)), _ => None }) {
                ui.label(format!("{}: wild, {} ×{}", w.0.name, s.t("prémios com wild multiplicados por", "wins with a wild multiplied by"), w.1));
            }
            if let Some(sc) = &g.scatter {
                ui.heading("Scatter");
                for (count, &pay) in sc.pays.iter().enumerate() {
                    let awards = sc.free_games.as_ref().and_then(|f| f.awards.get(count)).copied().unwrap_or(0);
                    if pay > 0 || awards > 0 {
                        ui.label(format!("{count} × {}: {} × {} + {} {}", g.symbols[sc.symbol as usize].name, pay, s.t("aposta total", "total bet"), awards, s.t("jogos grátis", "free games")));
                    }
                }
                if let Some(f) = &sc.free_games {
                    ui.label(format!("{} ×{}{}", s.t("Prémios dos jogos grátis multiplicados por", "Free-game wins multiplied by"), f.multiplier, if f.retrigger { s.t("; podem ser reactivados", "; they can retrigger") } else { "" }));
                }
            }
            if let Some(d) = g.double_up {
                ui.heading(s.t("Dobrar (aposta opcional, regra 11)", "Double up (optional bet, rule 11)"));
                ui.label(format!(
                    "{} {} {} {} {}.",
                    s.t("Depois de um prémio pode escolher vermelho ou preto: 50% de probabilidade de dobrar, 50% de perder o valor em jogo. Até", "After a win you may pick red or black: a 50% chance to double, 50% to lose the amount at stake. Up to"),
                    d.max_doubles,
                    s.t("vezes, prémio máximo", "times, maximum"),
                    d.max_win_credits,
                    s.t("créditos", "credits")
                ));
            }
            ui.heading(s.t("Prémios acumulados (progressivos)", "Progressive jackpots"));
            ui.label(s.t("Este jogo não está ligado a nenhum progressivo.", "This game is not linked to any progressive."));
            ui.heading(s.t("Reclamações", "Complaints"));
            ui.label(s.t(
                "Em caso de dúvida, os registos electrónicos da máquina fazem fé (regra 15). Pode reclamar junto do empregado da sala ou no livro de reclamações do casino; a autoridade reguladora recebe reclamações por escrito.",
                "In a dispute the machine's electronic records are authoritative (rule 15). Complain to a floor attendant or in the casino's complaints book; the regulator accepts written complaints.",
            ));
            ui.label(format!("{}: {}", s.t("Percentagem de retorno mínima legal", "Legal minimum return"), "80%"));
        });
    });
    open.0 = keep;
    Ok(())
}
