//! Playing cards as the card-game screens draw them (M-4: clear, distinct
//! symbols): rank and suit in the suit's colour on a white face, a patterned
//! back for a card not shown, a gold frame for a held card. Also the
//! double-up panel the reel and draw-poker screens share.

use bevy_egui::egui;
use game_core::cards::Card;
use game_core::double_up::{Colour, Gamble};

use game_host::session::Session;

pub const CARD: egui::Vec2 = egui::vec2(110.0, 156.0);

/// One card; `face` None draws its back. Returns the response (a card can
/// be touched to hold it).
pub fn paint_card(ui: &mut egui::Ui, face: Option<Card>, held: bool) -> egui::Response {
    paint_card_sized(ui, face, held, CARD)
}

/// A further hand's card in multi-hand play (issue 18): a third of the size.
pub const SMALL_CARD: egui::Vec2 = egui::vec2(44.0, 62.0);

/// A card of `size`, drawn as [`paint_card`] draws one, its text scaled.
pub fn paint_card_sized(ui: &mut egui::Ui, face: Option<Card>, held: bool, size: egui::Vec2) -> egui::Response {
    let k = size.y / CARD.y;
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let p = ui.painter_at(rect.expand(4.0));
    match face {
        Some(c) => {
            p.rect_filled(rect, 10.0, egui::Color32::WHITE);
            let colour = if c.is_joker() {
                egui::Color32::from_rgb(120, 0, 160)
            } else if c.is_red() {
                egui::Color32::from_rgb(200, 0, 0)
            } else {
                egui::Color32::BLACK
            };
            let (rank, suit) =
                if c.is_joker() { ("JK".to_owned(), "★".to_owned()) } else { (Card::rank_char(c.rank()).to_string(), c.suit_symbol().to_string()) };
            let rank = if rank == "T" { "10".to_owned() } else { rank };
            p.text(rect.left_top() + egui::vec2(10.0, 6.0) * k, egui::Align2::LEFT_TOP, &rank, egui::FontId::proportional(30.0 * k), colour);
            p.text(rect.center() + egui::vec2(0.0, 12.0) * k, egui::Align2::CENTER_CENTER, &suit, egui::FontId::proportional(64.0 * k), colour);
        }
        None => {
            p.rect_filled(rect, 10.0 * k, egui::Color32::from_rgb(20, 50, 140));
            p.rect_stroke(rect.shrink(8.0 * k), 6.0 * k, egui::Stroke::new(2.0, egui::Color32::from_rgb(200, 170, 60)), egui::StrokeKind::Inside);
        }
    }
    if held {
        p.rect_stroke(rect.expand(2.0), 12.0, egui::Stroke::new(4.0, egui::Color32::GOLD), egui::StrokeKind::Outside);
    }
    response
}

/// A further hand of multi-hand play, small, with its label and what it
/// pays, centred on one line.
pub fn paint_small_hand(ui: &mut egui::Ui, label: &str, faces: &[Option<Card>], pays: &str) {
    ui.horizontal(|ui| {
        ui.add_sized([64.0, SMALL_CARD.y], egui::Label::new(egui::RichText::new(label).size(16.0)));
        for f in faces {
            paint_card_sized(ui, *f, false, SMALL_CARD);
            ui.add_space(4.0);
        }
        ui.add_sized([190.0, SMALL_CARD.y], egui::Label::new(egui::RichText::new(pays).size(16.0).color(egui::Color32::GOLD)));
    });
}

/// A row of cards; returns the index of a card touched.
pub fn paint_hand(ui: &mut egui::Ui, faces: &[Option<Card>], held: &[bool]) -> Option<usize> {
    let mut touched = None;
    ui.horizontal(|ui| {
        let width = faces.len() as f32 * (CARD.x + 12.0);
        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
        for (i, f) in faces.iter().enumerate() {
            if paint_card(ui, *f, held.get(i).copied().unwrap_or(false)).clicked() {
                touched = Some(i);
            }
            ui.add_space(12.0);
        }
    });
    touched
}

/// The double-up offer (M-11: the odds shown before the player chooses):
/// Some(Some(colour)) to gamble, Some(None) to collect.
pub fn double_up_panel(ui: &mut egui::Ui, s: &Session, at_stake: u64, denom: u64, gambles: &[Gamble]) -> Option<Option<Colour>> {
    let mut choice = None;
    ui.separator();
    ui.heading(format!(
        "{} {} — {}",
        s.t("DOBRAR", "DOUBLE UP"),
        s.show(at_stake * denom),
        s.t("vermelho ou preto, 50%: acerte e dobra, falhe e perde", "red or black, 50%: right doubles it, wrong loses it")
    ));
    ui.horizontal(|ui| {
        if ui.button(s.t("VERMELHO (G)", "RED (G)")).clicked() {
            choice = Some(Some(Colour::Red));
        }
        if ui.button(s.t("PRETO (B)", "BLACK (B)")).clicked() {
            choice = Some(Some(Colour::Black));
        }
        if ui.button(s.t("RECEBER (Enter)", "COLLECT (Enter)")).clicked() {
            choice = Some(None);
        }
    });
    for g in gambles {
        ui.label(format!("{} → {}: {}", game_host::names::colour(g.pick, s.lang()), game_host::names::colour(g.drawn, s.lang()), s.show(g.result * denom)));
    }
    choice
}
