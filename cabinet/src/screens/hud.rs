//! The always-visible information (M-30, M-8, M-16): machine id and game,
//! denomination, lines and bet, win, credit, progressives; and the message
//! banners. In Portuguese by default, English on request. Credit, bet and
//! win are in the meters bar (`meters_bar`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::SessionRes;
use crate::screens::HudLayout;

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

fn draw_hud(mut contexts: EguiContexts, session: Res<SessionRes>, mode: Res<State<crate::modes::Mode>>, mut layout: ResMut<HudLayout>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok(s) = session.0.lock() else { return Ok(()) };
    // The stage's bands in egui's points (`layout`): the top bar is egui's,
    // the bottom bands are drawn by Bevy under the egui screens; the HUD
    // draws within the stage (a portrait window's top box is Bevy's).
    let view = ctx.viewport_rect();
    let (scale, ox, oy) = crate::layout::fit(view.width(), view.height());
    let stage = egui::Rect::from_min_size(view.min + egui::vec2(ox, oy), egui::vec2(crate::layout::WIDTH * scale, crate::layout::HEIGHT * scale));
    let mut root = egui::Ui::new(ctx.clone(), "hud".into(), egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(stage));
    let top_bar = crate::layout::TOP_BAR.h * scale;
    let stage_bottom = (view.max.y - stage.max.y) + (crate::layout::HEIGHT - crate::layout::GAME.bottom() + 32.0) * scale;
    let top = egui::Panel::top("hud_top").exact_size(top_bar).frame(egui::Frame::new().fill(egui::Color32::from_rgb(10, 8, 22)).inner_margin(10.0)).show(
        &mut root,
        |ui| {
            ui.horizontal_centered(|ui| {
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
        },
    );
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
    // The meters bar, the message line and the button deck are Bevy's
    // (`meters_bar`, `deck`): the screens draw above them.
    // The operator's screens (audit, recall, tilt) have the whole height.
    let deck_shown = matches!(mode.get(), crate::modes::Mode::Attract | crate::modes::Mode::Idle | crate::modes::Mode::Playing);
    *layout = HudLayout { top: oy + top.response.rect.height() + banner, bottom: if deck_shown { stage_bottom } else { 0.0 } };
    Ok(())
}
