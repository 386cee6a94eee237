//! The always-visible information (M-30, M-8, M-16): machine id and game,
//! denomination, lines and bet, win, credit, progressives; and the message
//! line. In Portuguese by default, English on request.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::screens::{HudLayout, viewport_ui};
use game_host::round::Phase;

pub struct HudPlugin;

/// The demonstration mark's colour (the window tests look for it).
pub const DEMO_FILL: egui::Color32 = egui::Color32::from_rgb(170, 0, 170);
/// The M-38 warning's colour.
pub const WARNING_FILL: egui::Color32 = egui::Color32::from_rgb(255, 140, 0);
/// The M-22 linked-award banner's colour.
pub const AWARD_FILL: egui::Color32 = egui::Color32::from_rgb(150, 20, 20);

/// A full-width strip under the top panel with one strong line of text;
/// returns its height (the screens draw below it).
fn top_banner(root: &mut egui::Ui, id: &'static str, fill: egui::Color32, margin: f32, text: egui::RichText) -> f32 {
    egui::Panel::top(id).frame(egui::Frame::new().fill(fill).inner_margin(margin)).show(root, |ui| ui.label(text.strong())).response.rect.height()
}

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HudLayout>().add_systems(EguiPrimaryContextPass, draw_hud);
    }
}

fn draw_hud(mut contexts: EguiContexts, session: Res<SessionRes>, mut layout: ResMut<HudLayout>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = viewport_ui(ctx, "hud");
    let Ok(s) = session.0.lock() else { return Ok(()) };
    let top = egui::Panel::top("hud_top").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.heading(format!("{} {}", s.t("Máquina", "Machine"), s.machine().config().machine_id));
            ui.separator();
            ui.heading(s.game().name());
            ui.separator();
            ui.label(format!("{} {}", s.t("Denominação", "Denomination"), s.machine().config().currency.format(s.denom())));
            ui.separator();
            let shown = s.progressives_shown();
            if shown.is_empty() {
                ui.label(format!("{}: —", s.t("Progressivos", "Progressives")));
            } else {
                let cur = &s.machine().config().currency;
                let text: Vec<String> = shown
                    .iter()
                    .map(|p| {
                        let value = p.value.map_or_else(|| s.t("indisponível", "unavailable").to_owned(), |v| cur.format(v));
                        let mark = if p.linked { s.t(" (ligado)", " (linked)") } else { "" };
                        format!("{}{mark} {value}", p.name)
                    })
                    .collect();
                ui.colored_label(egui::Color32::GOLD, format!("{}: {}", s.t("Progressivos", "Progressives"), text.join(" · ")));
            }
            if s.machine().config().mode.is_lab() {
                ui.separator();
                ui.colored_label(egui::Color32::YELLOW, s.t("MODO LABORATÓRIO", "LAB MODE"));
            }
        });
    });
    // M-39: a demonstration is marked on screen at all times.
    let mut banner = 0.0;
    if s.demo() {
        let text = s.t(
            "DEMONSTRAÇÃO — créditos de jogo sem valor; o único prémio é jogo grátis (regra 39)",
            "DEMO — play credits of no value; the only prize is free play (rule 39)",
        );
        banner += top_banner(&mut root, "demo", DEMO_FILL, 6.0, egui::RichText::new(text).size(22.0).color(egui::Color32::WHITE));
    }
    // M-38: what may end the session, before it does.
    if let Some(w) = s.warning() {
        banner += top_banner(&mut root, "warning", WARNING_FILL, 6.0, egui::RichText::new(w).size(22.0).color(egui::Color32::BLACK));
    }
    // M-22: a linked pool's award is signalled on every machine of the pool.
    if let Some((text, at)) = s.linked_banner()
        && at.elapsed() < std::time::Duration::from_secs(15)
    {
        banner += top_banner(&mut root, "linked_award", AWARD_FILL, 8.0, egui::RichText::new(text).size(30.0).color(egui::Color32::GOLD));
    }
    // The win on screen: nothing while the outcome is being shown, the
    // amount at stake once it is, the settled win after the round.
    let last_win = s
        .round_info()
        .map(|r| match r.phase {
            Phase::Decisions | Phase::Presenting => 0,
            Phase::DoubleUp | Phase::ProgressivePending => r.at_stake * r.denom,
            Phase::Ended => r.settled_win.unwrap_or(0),
        })
        .or_else(|| s.history().last().map(|h| h.win))
        .unwrap_or(0);
    let bottom = egui::Panel::bottom("hud_bottom").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            let big = |t: String| egui::RichText::new(t).size(22.0).strong();
            ui.label(big(format!("{} {}", s.t("CRÉDITO", "CREDIT"), s.show(s.machine().credit()))));
            ui.separator();
            ui.label(big(format!("{} {}", s.t("APOSTA", "BET"), s.show(s.stake_cents()))));
            ui.label(s.bet_text());
            ui.separator();
            ui.label(big(format!("{} {}", s.t("PRÉMIO", "WIN"), s.show(last_win))));
            if s.autoplay_left() > 0 {
                ui.separator();
                ui.label(format!("{} {}", s.t("Jogo automático:", "Autoplay:"), s.autoplay_left()));
            }
        });
        if let Some(m) = s.message_text() {
            ui.colored_label(egui::Color32::LIGHT_YELLOW, m);
        }
        ui.small(s.t(
            "Espaço jogar · F1-F5 guardar / F1 apostar F2 desistir · 1-4 notas · C pagar · O painel · setas esq./dir. ou Tab jogo · setas cima/baixo linhas · +/− aposta · J jackpot · Q/W denominação · G/B dobrar · Enter receber · A automático · H ajuda · R histórico · V créditos/€ · E idioma · K chave · M/L portas · F12 captura",
            "Space play · F1-F5 hold / F1 raise F2 fold · 1-4 notes · C cash out · O panel · left/right arrows or Tab game · up/down arrows lines · +/− bet · J jackpot · Q/W denomination · G/B double · Enter collect · A autoplay · H help · R history · V credits/€ · E language · K key · M/L doors · F12 screenshot",
        ));
    });
    *layout = HudLayout { top: top.response.rect.height() + banner, bottom: bottom.response.rect.height() };
    Ok(())
}
