//! Playing cards as the card-game screens draw them (M-4: clear, distinct
//! symbols) in the egui screens (recall, help): the art kit's faces and back
//! (issue 29; `CardArtPlugin` makes them textures once), a gold frame for a
//! held card.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle, EguiUserTextures, egui};
use game_core::cards::Card;

pub const CARD: egui::Vec2 = egui::vec2(110.0, 156.0);

/// The art kit's card file for `c` (`cards/10H.svg`, `cards/joker.svg`).
pub fn art_name(c: Card) -> String {
    if c.is_joker() {
        return "cards/joker.svg".into();
    }
    let shown = c.to_string();
    let (rank, suit) = shown.split_at(1);
    let rank = if rank == "T" { "10" } else { rank };
    format!("cards/{rank}{}.svg", suit.to_uppercase())
}

/// The card faces and the back as egui textures, by art file.
#[derive(Default)]
struct CardTextures {
    by_file: HashMap<String, egui::TextureId>,
}

/// Where the painters find the textures: egui's own memory.
fn card_art_id() -> egui::Id {
    egui::Id::new("card-art")
}

#[derive(Resource)]
struct CardArt(Arc<CardTextures>);

/// Makes the art kit's cards (at twice their screen height, sharp when
/// scaled) and the reel games' symbols textures once, and hands them to
/// every egui painter.
pub struct CardArtPlugin;

impl Plugin for CardArtPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, make_card_textures).add_systems(EguiPrimaryContextPass, share_card_textures);
    }
}

fn make_card_textures(mut commands: Commands, session: Res<crate::SessionRes>, mut images: ResMut<Assets<Image>>, mut textures: ResMut<EguiUserTextures>) {
    let mut by_file = HashMap::new();
    let cards = (0..52u8).map(|i| art_name(Card::new(i / 4, i % 4))).chain(["cards/back.svg".to_owned(), "cards/joker.svg".to_owned()]);
    let mut files: Vec<(String, u32)> = cards.map(|f| (f, (CARD.y * 2.0) as u32)).collect();
    // The dice and the bingo ball, for the recall of those rounds.
    files.extend(crate::screens::pictures::art_files());
    // The reel games' symbols, for the audit's replay of a recalled spin.
    if let Ok(s) = session.0.lock() {
        for g in s.games() {
            if let Some(r) = g.rules::<game_host::kinds::reels::Reels>() {
                files.extend(r.game.symbols.iter().map(|sym| (symbol_art_name(r.game.family(), &sym.id), SYMBOL_PX)));
            }
        }
    }
    for (file, height) in files {
        // Every file was drawn once at boot (`art::check`).
        match crate::art::image(&file, height) {
            Ok(image) => {
                let id = textures.add_image(EguiTextureHandle::Strong(images.add(image)));
                by_file.insert(file, id);
            }
            Err(e) => error!("{e}"),
        }
    }
    commands.insert_resource(CardArt(Arc::new(CardTextures { by_file })));
}

/// The height a reel symbol is rasterised at for the egui screens.
const SYMBOL_PX: u32 = 160;

/// A reel game's symbol picture in the art kit.
pub fn symbol_art_name(game: &str, symbol: &str) -> String {
    crate::art::for_game(game, &[symbol.to_owned()]).pop().unwrap_or_default()
}

/// The egui texture of an art file made at start-up (cards, reel
/// symbols), once the textures are shared (from the first frame on).
pub fn egui_art(ctx: &egui::Context, file: &str) -> Option<egui::TextureId> {
    ctx.data(|d| d.get_temp::<Arc<CardTextures>>(card_art_id())).and_then(|t| t.by_file.get(file).copied())
}

fn share_card_textures(mut contexts: EguiContexts, art: Res<CardArt>, mut shared: Local<bool>) -> Result {
    if !*shared {
        let textures = art.0.clone();
        contexts.ctx_mut()?.data_mut(|d| d.insert_temp(card_art_id(), textures));
        *shared = true;
    }
    Ok(())
}

/// A card of a recalled table round drawn side by side with the other
/// hand's (baccarat), so that the audit menu shows both whole.
pub const RECALL_CARD: egui::Vec2 = egui::vec2(77.0, 109.0);

/// A further hand's card in multi-hand play (issue 18): a third of the size.
pub const SMALL_CARD: egui::Vec2 = egui::vec2(44.0, 62.0);

/// A card of `size`, drawn as [`paint_card`] draws one, its text scaled.
pub fn paint_card_sized(ui: &mut egui::Ui, face: Option<Card>, held: bool, size: egui::Vec2) -> egui::Response {
    paint_card_turning(ui, face, held, size, 1.0)
}

/// How far a dealt card has turned over (issue 29): 0 face down, 1 face
/// up; card `i` of a deal that began `elapsed` seconds ago, one after
/// another.
pub fn turned(i: usize, elapsed: f32) -> f32 {
    ((elapsed - DEAL_GAP_S * i as f32) / TURN_S).clamp(0.0, 1.0)
}

/// Seconds between two cards' turns, and a turn's length.
pub const DEAL_GAP_S: f32 = 0.07;
pub const TURN_S: f32 = 0.14;

/// A card turning over: its back while `turn` < ½, then its face, narrowed
/// as a card seen edge-on.
pub fn paint_card_turning(ui: &mut egui::Ui, face: Option<Card>, held: bool, size: egui::Vec2, turn: f32) -> egui::Response {
    let k = size.y / CARD.y;
    let (full, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let width = (1.0 - 2.0 * turn).abs().max(0.04);
    let rect = egui::Rect::from_center_size(full.center(), egui::vec2(full.width() * width, full.height()));
    let face = if turn < 0.5 { None } else { face };
    let p = ui.painter_at(full.expand(4.0));
    let file = face.map_or_else(|| "cards/back.svg".to_owned(), art_name);
    let art = egui_art(ui.ctx(), &file);
    match (art, face) {
        (Some(texture), _) => {
            p.image(texture, rect, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
        }
        // Before the textures are shared (the first frame): drawn plainly.
        (None, face) => paint_plain(&p, rect, face, k),
    }
    if held {
        p.rect_stroke(rect.expand(2.0), 12.0, egui::Stroke::new(4.0, egui::Color32::GOLD), egui::StrokeKind::Outside);
    }
    response
}

/// A card drawn without the art kit: rank and suit in the suit's colour on
/// a white face, or a blue back.
fn paint_plain(p: &egui::Painter, rect: egui::Rect, face: Option<Card>, k: f32) {
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
    paint_hand_turning(ui, faces, held, &[])
}

/// A row of cards, each turned as far as `turns` says (face up where it
/// says nothing); returns the index of a card touched.
pub fn paint_hand_turning(ui: &mut egui::Ui, faces: &[Option<Card>], held: &[bool], turns: &[f32]) -> Option<usize> {
    let mut touched = None;
    ui.horizontal(|ui| {
        let width = faces.len() as f32 * (CARD.x + 12.0);
        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
        for (i, f) in faces.iter().enumerate() {
            if paint_card_turning(ui, *f, held.get(i).copied().unwrap_or(false), CARD, turns.get(i).copied().unwrap_or(1.0)).clicked() {
                touched = Some(i);
            }
            ui.add_space(12.0);
        }
    });
    touched
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn dealt_cards_turn_one_after_another_and_end_face_up() {
        assert_eq!(turned(0, 0.0), 0.0);
        assert_eq!(turned(0, TURN_S), 1.0);
        assert!(turned(1, TURN_S) < 1.0 && turned(1, TURN_S) > 0.0, "the second card is still turning");
        assert_eq!(turned(4, 4.0 * DEAL_GAP_S), 0.0, "the fifth begins after four gaps");
        // A whole hand is face up well inside half a second.
        assert!((0..5).all(|i| turned(i, 4.0 * DEAL_GAP_S + TURN_S) == 1.0));
        const { assert!(4.0 * DEAL_GAP_S + TURN_S < 0.5) };
    }

    #[test]
    fn every_card_has_its_own_face_in_the_art_kit() {
        assert_eq!(art_name("Th".parse().unwrap()), "cards/10H.svg");
        assert_eq!(art_name("Qs".parse().unwrap()), "cards/QS.svg");
        assert_eq!(art_name("2d".parse().unwrap()), "cards/2D.svg");
        assert_eq!(art_name(Card::JOKER), "cards/joker.svg");
        let names: std::collections::BTreeSet<String> = (0..52u8).map(|i| art_name(Card::new(i / 4, i % 4))).collect();
        assert_eq!(names.len(), 52);
        for n in &names {
            assert!(crate::art::source(n).is_ok(), "{n}");
        }
    }
}
