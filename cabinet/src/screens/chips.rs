//! What every screen of a bet of many spots shares (roulette, banca
//! francesa, sic bo): the chip that stands for a stake, and the row of
//! edit buttons (undo, clear, repeat, double) with what each sends the
//! host. The host checks every edit against the table.

use bevy::prelude::*;
use bevy::text::{Justify, TextBounds};
use game_host::command::Command;
use game_host::session::Session;
use serde_json::json;

use crate::layout::Area;
use crate::stage::{self, ArtTextures, Fonts};

/// An edit every bet of many spots takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditButton {
    Undo,
    Clear,
    Repeat,
    Double,
}

/// The row of edit buttons under a table (design units), and where the
/// selected chip's value is written: above the message line (issue 75: a
/// refused bet's line was drawn over the buttons' foot).
pub const EDITS_Y: f32 = 722.0;
const EDITS_H: f32 = 58.0;
const EDITS_X: f32 = 680.0;
pub const CHIP_LABEL: (f32, f32) = (1545.0, EDITS_Y + EDITS_H / 2.0);

impl EditButton {
    pub const ALL: [EditButton; 4] = [EditButton::Undo, EditButton::Clear, EditButton::Repeat, EditButton::Double];

    pub fn area(self) -> Area {
        let k = EditButton::ALL.iter().position(|&b| b == self).unwrap_or(0) as f32;
        Area::new(EDITS_X + k * 215.0, EDITS_Y, 200.0, EDITS_H)
    }

    pub fn label(self, s: &Session) -> &'static str {
        match self {
            EditButton::Undo => s.t("DESFAZER"),
            EditButton::Clear => s.t("LIMPAR"),
            EditButton::Repeat => s.t("REPETIR"),
            EditButton::Double => s.t("DOBRAR|double"),
        }
    }

    /// The button at a touch.
    pub fn at(x: f32, y: f32) -> Option<EditButton> {
        EditButton::ALL.into_iter().find(|b| b.area().contains(x, y))
    }

    /// Send the edit to the host.
    pub fn press(self, s: &mut Session) {
        let edit = match self {
            EditButton::Undo => json!("Undo"),
            EditButton::Clear => json!("Clear"),
            EditButton::Repeat => json!("Repeat"),
            EditButton::Double => json!({ "Kind": "Double" }),
        };
        s.command(Command::EditBet { edit });
    }

    /// The keys that mirror the buttons: Backspace, Delete, F5, F6.
    pub fn key(self) -> KeyCode {
        match self {
            EditButton::Undo => KeyCode::Backspace,
            EditButton::Clear => KeyCode::Delete,
            EditButton::Repeat => KeyCode::F5,
            EditButton::Double => KeyCode::F6,
        }
    }
}

/// The chip art that stands for a stake: the largest value drawn at or
/// under it.
pub fn chip_art(stake: u64) -> String {
    let v = [500u64, 100, 25, 10, 5, 1].into_iter().find(|&v| v <= stake).unwrap_or(1);
    format!("chips/chip-{v}.svg")
}

/// A box with a label: a button or a spot of a cloth.
pub fn spawn_box(root: &mut ChildSpawnerCommands, fonts: &Fonts, a: Area, fill: Color, label: String, size: f32, z: f32) {
    spawn_box_labelled_in(root, fonts, a, a, fill, label, size, z);
}

/// A box whose label keeps to `room`, a part of it (the rest for a chip).
#[allow(clippy::too_many_arguments)]
pub fn spawn_box_labelled_in(root: &mut ChildSpawnerCommands, fonts: &Fonts, a: Area, room: Area, fill: Color, label: String, size: f32, z: f32) {
    let (x, y) = a.centre();
    root.spawn((Sprite::from_color(fill, Vec2::new(a.w - 2.0, a.h - 2.0)), Transform::from_translation(stage::at(x, y, z))));
    // Centred line by line and kept inside the box, wrapped if it must be
    // (issue 45: "SMALL (PEQUENO)" ran out of banca francesa's box).
    let (lx, ly) = room.centre();
    root.spawn((
        stage::text(fonts, label, size, Color::WHITE),
        TextLayout::justify(Justify::Center),
        TextBounds::new_horizontal((room.w - 12.0).max(8.0)),
        Transform::from_translation(stage::at(lx, ly, z + 0.1)),
    ));
}

/// The edit buttons' row.
pub fn spawn_edit_buttons(root: &mut ChildSpawnerCommands, fonts: &Fonts, s: &Session) {
    for b in EditButton::ALL {
        spawn_box(root, fonts, b.area(), Color::srgb(0.1, 0.3, 0.6), b.label(s).to_owned(), 26.0, 1.1);
    }
}

/// A stake's chip at (x, y), its amount written on it.
pub fn spawn_chip(
    root: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    art: &mut ArtTextures,
    images: &mut Assets<Image>,
    stake: u64,
    at: (f32, f32),
    marker: impl Bundle,
) {
    let image = art.get(images, &chip_art(stake), 64);
    root.spawn((marker, Sprite { image, custom_size: Some(Vec2::splat(44.0)), ..default() }, Transform::from_translation(stage::at(at.0, at.1, 2.0))))
        .with_children(|c| {
            c.spawn((stage::text(fonts, stake.to_string(), 17.0, Color::BLACK), crate::screen_text::OnPlate, Transform::from_xyz(0.0, 0.0, 0.1)));
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edit_buttons_stand_apart_in_the_game_area_and_a_chip_is_drawn_for_any_stake() {
        for (i, a) in EditButton::ALL.iter().enumerate() {
            for b in &EditButton::ALL[i + 1..] {
                assert!(a.area().x + a.area().w <= b.area().x, "{a:?} {b:?}");
            }
            let (x, y) = a.area().centre();
            assert_eq!(EditButton::at(x, y), Some(*a));
            assert!(a.area().bottom() <= crate::layout::MESSAGE_LINE.y, "{a:?} reaches into the message line");
        }
        assert_eq!(chip_art(1), "chips/chip-1.svg");
        assert_eq!(chip_art(7), "chips/chip-5.svg");
        assert_eq!(chip_art(30), "chips/chip-25.svg");
        assert_eq!(chip_art(100_000), "chips/chip-500.svg");
        assert_eq!(chip_art(0), "chips/chip-1.svg");
        for stake in [1, 2, 4, 20, 50, 1_000] {
            assert!(crate::art::source(&chip_art(stake)).is_ok());
        }
    }
}
