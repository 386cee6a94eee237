//! Dice, bingo cards and balls as the audit menu's recall draws them
//! (M-15; issue 75: banca francesa's golpe, sic bo's dome and a bingo round
//! were recalled as text): the art kit's dice and ball, made egui textures
//! with the cards (`cards::CardArtPlugin`), and a bingo card's grid painted
//! cell by cell, each number drawn gold as the round's balls marked it.
//! Only drawing: what to draw comes from the recalled round.

use bevy_egui::egui;
use game_host::session::Session;

use crate::screens::cards::egui_art;

/// A die in the recall (egui points), and the ball of the balls' rows.
pub const DIE: f32 = 48.0;
pub const BALL: f32 = 28.0;
/// A cell of a recalled bingo card (four 90-ball cards side by side fit
/// the menu's 1280 points).
pub const CELL: f32 = 28.0;

/// The art files this module draws, with the height each is made at.
pub fn art_files() -> Vec<(String, u32)> {
    (1..=6).map(|f| (die_art(f), (DIE * 2.0) as u32)).chain([("bingo/ball.svg".to_owned(), (BALL * 2.0) as u32)]).collect()
}

fn die_art(face: u8) -> String {
    format!("dice/die-{face}.svg")
}

const GOLD: egui::Color32 = egui::Color32::from_rgb(245, 210, 74);
const CREAM: egui::Color32 = egui::Color32::from_rgb(247, 245, 235);
const INK: egui::Color32 = egui::Color32::from_rgb(26, 26, 38);

/// One throw's dice, left to right, and `caption` after them, laid in
/// the caller's row (a horizontal or a wrapped layout).
pub fn paint_throw(ui: &mut egui::Ui, faces: &[u8], caption: &str) {
    for &face in faces {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(DIE, DIE), egui::Sense::hover());
        let p = ui.painter_at(rect);
        match egui_art(ui.ctx(), &die_art(face)) {
            Some(texture) => {
                p.image(texture, rect, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
            }
            // Before the textures are shared (the first frame).
            None => {
                p.rect_filled(rect, 8.0, CREAM);
                p.text(rect.center(), egui::Align2::CENTER_CENTER, face.to_string(), egui::FontId::proportional(28.0), INK);
            }
        }
    }
    ui.label(egui::RichText::new(caption).size(20.0));
}

/// The place a wheel stopped at (or fantan's remainder): its name on its
/// colour in a gold-rimmed box, and `caption` after it.
pub fn paint_section(ui: &mut egui::Ui, name: &str, fill: [u8; 3], caption: &str) {
    let wide = (name.chars().count() as f32 * 22.0 + 24.0).max(DIE);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(wide, DIE), egui::Sense::hover());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 6.0, egui::Color32::from_rgb(217, 179, 77));
    p.rect_filled(rect.shrink(3.0), 5.0, egui::Color32::from_rgb(fill[0], fill[1], fill[2]));
    p.text(rect.center(), egui::Align2::CENTER_CENTER, name, egui::FontId::proportional(30.0), egui::Color32::WHITE);
    ui.label(egui::RichText::new(caption).size(20.0));
}

/// A bingo card's grid: `cells` row by row, `columns` across (0: a blank
/// cell, or the free centre where `free` says), each number written as
/// `name` calls it, gold where `marked` has its bit.
pub fn paint_bingo_card(ui: &mut egui::Ui, cells: &[u8], columns: usize, free: Option<usize>, marked: u32, name: &dyn Fn(u8) -> String) {
    let columns = columns.max(1);
    let rows = cells.len().div_ceil(columns);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(columns as f32 * CELL, rows as f32 * CELL), egui::Sense::hover());
    let p = ui.painter_at(rect);
    for (c, &v) in cells.iter().enumerate() {
        let at = rect.min + egui::vec2((c % columns) as f32 * CELL, (c / columns) as f32 * CELL);
        let cell = egui::Rect::from_min_size(at, egui::vec2(CELL, CELL)).shrink(1.5);
        let blank = v == 0 && free != Some(c);
        let fill = if blank {
            egui::Color32::from_rgb(51, 56, 89)
        } else if marked >> c & 1 == 1 {
            GOLD
        } else {
            CREAM
        };
        p.rect_filled(cell, 3.0, fill);
        if v != 0 {
            p.text(cell.center(), egui::Align2::CENTER_CENTER, name(v), egui::FontId::proportional(15.0), INK);
        }
    }
}

/// The balls drawn, in order, in rows as wide as the page; the bought
/// ones (from `bought_from` on) ringed in gold.
pub fn paint_balls(ui: &mut egui::Ui, balls: &[String], bought_from: usize) {
    let per_row = ((ui.available_width() / (BALL + 4.0)).floor() as usize).max(1);
    let rows = balls.len().div_ceil(per_row);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(per_row as f32 * (BALL + 4.0), rows as f32 * (BALL + 4.0)), egui::Sense::hover());
    let p = ui.painter_at(rect.expand(3.0));
    let art = egui_art(ui.ctx(), "bingo/ball.svg");
    for (i, ball) in balls.iter().enumerate() {
        let at = rect.min + egui::vec2((i % per_row) as f32 * (BALL + 4.0), (i / per_row) as f32 * (BALL + 4.0));
        let r = egui::Rect::from_min_size(at, egui::vec2(BALL, BALL));
        if i >= bought_from {
            p.circle_filled(r.center(), BALL / 2.0 + 3.0, GOLD);
        }
        match art {
            Some(texture) => {
                p.image(texture, r, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
            }
            None => {
                p.circle_filled(r.center(), BALL / 2.0, CREAM);
            }
        }
        p.text(r.center(), egui::Align2::CENTER_CENTER, ball, egui::FontId::proportional(12.0), INK);
    }
}

/// A recalled round's bets, each with its stake in credits and what it
/// returned (M-15): the table every table game's recall ends with.
pub fn paint_settlement(ui: &mut egui::Ui, id: &str, s: &Session, rows: impl IntoIterator<Item = (String, u64, String)>) {
    egui::Grid::new(id).striped(true).show(ui, |ui| {
        for h in [s.t("aposta"), s.t("fichas (créd.)"), s.t("devolve")] {
            ui.strong(h);
        }
        ui.end_row();
        for (bet, stake, back) in rows {
            ui.label(bet);
            ui.label(stake.to_string());
            ui.label(back);
            ui.end_row();
        }
    });
}
