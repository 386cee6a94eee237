//! Help and paytable screens, generated from the paytable itself (M-8,
//! M-31): rules, minimum and maximum bet, the lines drawn, every prize, the
//! double-up and its odds, progressive conditions, how to complain.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::screens::KindPages;
use game_host::session::Session;

pub struct HelpPlugin;

/// Whether the help screen is open (key H).
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

impl Plugin for HelpPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HelpOpen>().init_resource::<KindPages>().add_systems(EguiPrimaryContextPass, draw_help.run_if(|h: Res<HelpOpen>| h.0));
    }
}

fn draw_help(mut contexts: EguiContexts, session: Res<SessionRes>, pages: Res<KindPages>, mut open: ResMut<HelpOpen>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(s) = session.0.lock() else { return Ok(()) };
    let mut keep = true;
    egui::Window::new(format!("{} — {}", s.t("Regras e tabela de prémios", "Rules and paytable"), s.game().name()))
        .open(&mut keep)
        .default_size([900.0, 600.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                // The selected game's own page, from its kind's screen plugin.
                let double_up = pages.help.iter().find_map(|page| page(ui, &s)).flatten();
                common_help(ui, &s, double_up);
            });
        });
    open.0 = keep;
    Ok(())
}

pub(crate) fn bet_range(ui: &mut egui::Ui, s: &Session, min_bet: u64, max_bet: u64) {
    let c = &s.machine().config().currency;
    ui.label(format!(
        "{} {} {} ({}), {} {} {} ({})",
        s.t("Aposta mínima", "Minimum bet"),
        min_bet,
        s.t("créditos", "credits"),
        c.format(min_bet * s.denom()),
        s.t("aposta máxima", "maximum bet"),
        max_bet,
        s.t("créditos", "credits"),
        c.format(max_bet * s.denom())
    ));
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
