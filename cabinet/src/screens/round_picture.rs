//! A finished round drawn as the player saw it, in the player's history
//! (M-34; issue 45, defect 4): a reel window's symbols, the hands of
//! cards, the pocket, the dice, the balls — from the art kit, as the game
//! screens draw them. What to draw is the host's
//! (`game_host::picture::RoundPicture`); this only lays it out in the
//! picture's area (`layout::history_picture`).

use bevy::prelude::*;
use bevy::sprite::Anchor;
use game_core::roulette::PocketColour;
use game_host::picture::{Hand, Scene};

use crate::layout::{self, Area};
use crate::screens::cards::{art_name, symbol_art_name};
use crate::stage::{self, ArtTextures, Fonts, WINDOW_BLUE};

/// What drawing a picture needs: the sheet it is drawn on, the art, the
/// font, and how a design point becomes a place on the sheet.
pub struct Painter<'a, 'w> {
    pub sheet: &'a mut ChildSpawnerCommands<'w>,
    pub art: &'a mut ArtTextures,
    pub images: &'a mut Assets<Image>,
    pub fonts: &'a Fonts,
    pub local: &'a dyn Fn(f32, f32, f32) -> Transform,
}

/// Heights the art is rasterised at (sharp at 1920×1080).
const SYMBOL_PX: u32 = 128;
const CARD_PX: u32 = 160;
const DIE_PX: u32 = 96;
const BALL_PX: u32 = 64;
/// A hand's label: its size, and the widest a character of it is drawn
/// (the shipped bold face at about 0.64 em).
const LABEL_SIZE: f32 = 15.0;
const LABEL_CHAR_W: f32 = LABEL_SIZE * 0.66;

impl Painter<'_, '_> {
    fn image(&mut self, file: &str, px: u32, area: Area, z: f32) {
        let image = self.art.get(self.images, file, px);
        let (x, y) = area.centre();
        self.sheet.spawn((Sprite { image, custom_size: Some(Vec2::new(area.w, area.h)), ..default() }, (self.local)(x, y, z)));
    }

    fn tile(&mut self, colour: Color, area: Area, z: f32) {
        let (x, y) = area.centre();
        self.sheet.spawn((Sprite::from_color(colour, Vec2::new(area.w, area.h)), (self.local)(x, y, z)));
    }

    fn text(&mut self, value: impl Into<String>, size: f32, colour: Color, at: (f32, f32), anchor: Anchor) {
        self.sheet.spawn((stage::text(self.fonts, value, size, colour), anchor, (self.local)(at.0, at.1, 1.5)));
    }

    /// Round `row`'s picture of `scene` (a reel game's symbols are those
    /// of `game`).
    pub fn draw(&mut self, row: usize, game: &str, scene: &Scene) {
        let area = layout::history_picture(row);
        match scene {
            Scene::Reels { rows } => self.reels(row, game, rows),
            Scene::Cards(hands) => self.hands(area, hands),
            Scene::Pocket { name, colour } => self.pocket(area, name, *colour),
            Scene::Section { name, fill } => self.section(area, name, *fill),
            Scene::Dice(throws) => self.dice(area, throws),
            Scene::Balls { drawn, bought } => self.balls(area, drawn, *bought),
        }
    }

    /// The window's symbols on the reel window's blue, cell by cell.
    fn reels(&mut self, row: usize, game: &str, rows: &[Vec<String>]) {
        let reels = rows.iter().map(Vec::len).max().unwrap_or(0);
        if reels == 0 {
            return;
        }
        let first = layout::history_symbol(row, reels, rows.len(), 0, 0);
        let last = layout::history_symbol(row, reels, rows.len(), reels - 1, rows.len() - 1);
        self.tile(WINDOW_BLUE, Area::new(first.x, first.y, last.x + last.w - first.x, last.bottom() - first.y), 0.8);
        for (r, symbols) in rows.iter().enumerate() {
            // An empty cell lies above or below a shorter reel (issue 50).
            for (reel, symbol) in symbols.iter().enumerate().filter(|(_, s)| !s.is_empty()) {
                let cell = layout::history_symbol(row, reels, rows.len(), reel, r);
                self.image(&symbol_art_name(game, symbol), SYMBOL_PX, cell, 1.0);
            }
        }
    }

    /// Each hand fanned out under its label, left to right; the hands that
    /// do not fit are counted at the end.
    fn hands(&mut self, area: Area, hands: &[Hand]) {
        let mut x = area.x;
        for (i, hand) in hands.iter().enumerate() {
            let n = hand.cards.len().max(1);
            let last_card = layout::history_card(area, x, n - 1);
            // The hand takes the room of its cards or of its label, the wider.
            let width = (last_card.x + last_card.w - x).max(hand.label.chars().count() as f32 * LABEL_CHAR_W);
            let last = i + 1 == hands.len();
            // Room for this hand, and for the count of the rest after it.
            if x + width > area.x + area.w - if last { 0.0 } else { 50.0 } {
                self.text(format!("+{}", hands.len() - i), 26.0, Color::WHITE, (x, area.y + area.h / 2.0), Anchor::CENTER_LEFT);
                return;
            }
            self.text(hand.label.clone(), LABEL_SIZE, super::table::GOLD, (x, area.y), Anchor::TOP_LEFT);
            for (k, card) in hand.cards.iter().enumerate() {
                self.image(&art_name(*card), CARD_PX, layout::history_card(area, x, k), 1.0 + k as f32 * 0.01);
            }
            x += width + 24.0;
        }
    }

    /// The pocket as the wheel colours it, its number on it.
    fn pocket(&mut self, area: Area, name: &str, colour: PocketColour) {
        let fill = match colour {
            PocketColour::Red => Color::srgb(0.75, 0.08, 0.08),
            PocketColour::Black => Color::srgb(0.08, 0.08, 0.08),
            PocketColour::Zero => Color::srgb(0.0, 0.5, 0.2),
        };
        let side = area.h;
        let tile = Area::new(area.x, area.y, side, side);
        self.tile(Color::srgb(0.85, 0.7, 0.3), tile, 0.9);
        self.tile(fill, tile.inset(4.0), 1.0);
        self.text(name, 48.0, Color::WHITE, tile.centre(), Anchor::CENTER);
    }

    /// The place a wheel stopped at (or fantan's remainder): its name on
    /// its colour, a box as wide as the name needs.
    fn section(&mut self, area: Area, name: &str, fill: [u8; 3]) {
        let side = area.h;
        let wide = side.max(name.chars().count() as f32 * 30.0 + 24.0).min(area.w);
        let tile = Area::new(area.x, area.y, wide, side);
        self.tile(Color::srgb(0.85, 0.7, 0.3), tile, 0.9);
        self.tile(Color::srgb_u8(fill[0], fill[1], fill[2]), tile.inset(4.0), 1.0);
        self.text(name, 48.0, Color::WHITE, tile.centre(), Anchor::CENTER);
    }

    /// Each throw's three dice, left to right, the deciding throw last; the
    /// earliest throws that do not fit are counted first.
    fn dice(&mut self, area: Area, throws: &[Vec<u8>]) {
        let side = if throws.len() > 1 { 48.0 } else { 72.0 };
        // Three dice a throw, two a roll of craps.
        let dice = throws.iter().map(Vec::len).max().unwrap_or(3) as f32;
        let group = dice * side + (dice - 1.0) * 6.0;
        let fits = ((area.w - 60.0 + 24.0) / (group + 24.0)).floor().max(1.0) as usize;
        let shown = &throws[throws.len().saturating_sub(fits)..];
        let mut x = area.x;
        if shown.len() < throws.len() {
            self.text(format!("+{}", throws.len() - shown.len()), 26.0, Color::WHITE, (x, area.y + area.h / 2.0), Anchor::CENTER_LEFT);
            x += 60.0;
        }
        let y = area.y + (area.h - side) / 2.0;
        for throw in shown {
            for (k, face) in throw.iter().enumerate() {
                self.image(&format!("dice/die-{face}.svg"), DIE_PX, Area::new(x + k as f32 * (side + 6.0), y, side, side), 1.0);
            }
            x += group + 24.0;
        }
    }

    /// The balls drawn in rows, numbered; the bought ones ringed in gold.
    fn balls(&mut self, area: Area, drawn: &[u8], bought: usize) {
        const BALL: f32 = 30.0;
        const GAP: f32 = 3.0;
        let per_row = ((area.w + GAP) / (BALL + GAP)).floor() as usize;
        let rows = ((area.h + GAP) / (BALL + GAP)).floor() as usize;
        // The last place holds the count of the balls left out, if any.
        let room = if drawn.len() > per_row * rows { per_row * rows - 1 } else { per_row * rows };
        let first_bought = drawn.len().saturating_sub(bought);
        for (i, ball) in drawn.iter().enumerate().take(room) {
            let at = Area::new(area.x + (i % per_row) as f32 * (BALL + GAP), area.y + (i / per_row) as f32 * (BALL + GAP), BALL, BALL);
            if i >= first_bought {
                self.tile(super::table::GOLD, at.inset(-2.0), 0.9);
            }
            self.image("bingo/ball.svg", BALL_PX, at, 1.0);
            self.text(ball.to_string(), 14.0, Color::BLACK, at.centre(), Anchor::CENTER);
        }
        if drawn.len() > room {
            self.text(format!("+{}", drawn.len() - room), 20.0, Color::WHITE, (area.x + area.w, area.bottom()), Anchor::BOTTOM_RIGHT);
        }
    }
}
