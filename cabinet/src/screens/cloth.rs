//! The cloth of a table of many chances that is not roulette's (the dice
//! tables, the wheels, fantan): its places, each with a gold rim and a
//! light lit over a chance the outcome won; the chips staked on it; a
//! touch on a place (a chip placed there) or on an edit button. Each
//! table's screen (`dice`, `wheel`) draws its own outcome beside it.

use bevy::prelude::*;
use game_host::command::Command;
use game_host::session::Session;
use serde_json::json;

use crate::layout::Area;
use crate::screens::chips::{self, EditButton, spawn_box};
use crate::screens::table;
use crate::stage::{self, ArtTextures, Fonts};

/// A place of a cloth: the spot as the kind's edit names it (JSON), where
/// it stands, its label and colour.
pub struct Cell {
    pub spot: serde_json::Value,
    pub area: Area,
    pub label: String,
    pub fill: Color,
    /// The label's font size (design units): banca francesa's three large
    /// chances are written large, sic bo's fifty spots small.
    pub size: f32,
    /// A place over the others (boule's chances of 2, 3, 4 and 6 numbers
    /// on the lines between the numbers' boxes): drawn above them, and a
    /// touch on it is its own, not the box's under it.
    pub raised: bool,
}

/// The light over a place the outcome won (by its index in the cloth).
#[derive(Component)]
pub struct LitSpot(pub usize);

/// A place as the screen keeps it once spawned: its spot (JSON), where it
/// stands, and whether it is raised over the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub spot: serde_json::Value,
    pub area: Area,
    pub raised: bool,
}

/// The place a touch at (x, y) is on: a raised place before the box under it.
pub fn place_at(places: &[Place], x: f32, y: f32) -> Option<&Place> {
    let on = |raised: bool| places.iter().find(|p| p.raised == raised && p.area.contains(x, y));
    on(true).or_else(|| on(false))
}

/// Spawn the cloth's places under `root`, in order (a [`LitSpot`] is its
/// place's index).
pub fn spawn_cells(root: &mut ChildSpawnerCommands, fonts: &Fonts, cells: Vec<Cell>) -> Vec<Place> {
    let mut places = Vec::new();
    for (i, c) in cells.into_iter().enumerate() {
        let (x, y) = c.area.centre();
        let lift = if c.raised { 0.5 } else { 0.0 };
        root.spawn((
            LitSpot(i),
            Sprite::from_color(Color::srgba(1.0, 0.85, 0.2, 0.5), Vec2::new(c.area.w - 2.0, c.area.h - 2.0)),
            Transform::from_translation(stage::at(x, y, 1.15 + lift)),
            Visibility::Hidden,
        ));
        // The cloth's printed lines: a gold rim round each place.
        root.spawn((Sprite::from_color(table::GOLD, Vec2::new(c.area.w + 2.0, c.area.h + 2.0)), Transform::from_translation(stage::at(x, y, 1.05 + lift))));
        spawn_box(root, fonts, c.area.inset(2.0), c.fill, c.label, c.size, 1.1 + lift);
        places.push(Place { spot: c.spot, area: c.area, raised: c.raised });
    }
    places
}

/// Light each place whose chance `wins` (by the place's index in the
/// cloth), none while the outcome is not at rest.
pub fn light_winners<F: bevy::ecs::query::QueryFilter>(lit: &mut Query<(&LitSpot, &mut Visibility), F>, rested: bool, wins: impl Fn(usize) -> bool) {
    for (spot, mut vis) in lit.iter_mut() {
        let on = rested && wins(spot.0);
        vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// The chips on the cloth kept to `layout` (the round's while it is open,
/// else the bet): when it differs from what `shown` holds, the chips
/// marked `M` go and the layout's are laid under `root`, each stake in the
/// top right corner of its place.
#[allow(clippy::too_many_arguments)]
pub fn keep_chips<M: Component + Copy>(
    commands: &mut Commands,
    root: Option<Entity>,
    chips: &Query<Entity, With<M>>,
    shown: &mut Option<Vec<(serde_json::Value, u64)>>,
    layout: Vec<(serde_json::Value, u64)>,
    (fonts, art, images): (&Fonts, &mut ArtTextures, &mut Assets<Image>),
    places: &[Place],
    marker: M,
) {
    if shown.as_ref() == Some(&layout) {
        return;
    }
    for e in chips {
        commands.entity(e).despawn();
    }
    let Some(root) = root else { return };
    commands.entity(root).with_children(|r| {
        for (spot, stake) in &layout {
            let Some(a) = places.iter().find(|p| p.spot == *spot).map(|p| p.area) else { continue };
            let (x, y) = a.centre();
            // A small place (a line between boule's numbers) holds its chip
            // on it; a box, in its corner, clear of its label.
            let at = if a.w < 60.0 { (x, y) } else { (x + a.w / 2.0 - 12.0, y + a.h / 2.0 - 12.0) };
            chips::spawn_chip(r, fonts, art, images, *stake, at, marker);
        }
    });
    *shown = Some(layout);
}

/// The texts of a cloth's screen: the chip selected, beside the edit
/// buttons, and the result.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
pub enum ClothText {
    Result,
    Chip,
}

/// Spawn the chip's label and the result's text (its top left at
/// `result_at`) under `root`.
pub fn spawn_texts(root: &mut ChildSpawnerCommands, fonts: &Fonts, result_at: (f32, f32)) {
    let (lx, ly) = chips::CHIP_LABEL;
    root.spawn((
        ClothText::Chip,
        stage::text(fonts, "", 26.0, table::GOLD),
        bevy::sprite::Anchor::CENTER_LEFT,
        Transform::from_translation(stage::at(lx, ly, 1.2)),
    ));
    root.spawn((
        ClothText::Result,
        stage::text(fonts, "", 24.0, Color::WHITE),
        bevy::sprite::Anchor::TOP_LEFT,
        Transform::from_translation(stage::at(result_at.0, result_at.1, 1.2)),
    ));
}

/// Write the result and the chip selected (none without a bet).
pub fn show_texts(texts: &mut Query<(&ClothText, &mut Text2d)>, s: &Session, result: &str, chip: Option<u64>) {
    let chip = chip.map_or(String::new(), |c| format!("{} {c}", s.t("FICHA")));
    for (which, mut text) in texts.iter_mut() {
        let want = match which {
            ClothText::Result => result,
            ClothText::Chip => &chip,
        };
        if text.0 != *want {
            want.clone_into(&mut text.0);
        }
    }
}

/// The touches and keys of a cloth: an edit button (or its key) does its
/// edit; a place takes a chip of the selected value (`table` names the
/// screen in the log).
pub fn touch(s: &mut Session, keys: &ButtonInput<KeyCode>, points: &[Vec2], places: &[Place], table: &str) {
    for b in EditButton::ALL.into_iter().filter(|b| keys.just_pressed(b.key())) {
        b.press(s);
    }
    for p in points {
        if let Some(b) = EditButton::at(p.x, p.y) {
            info!("{table}: {b:?} touched");
            b.press(s);
        } else if let Some(place) = place_at(places, p.x, p.y) {
            info!("{table}: {} touched", place.spot);
            s.command(Command::EditBet { edit: json!({ "Kind": { "Place": { "spot": place.spot } } }) });
        }
    }
}

/// Whether any edit key is down this frame (a cloth with no touch and no
/// key has nothing to do).
pub fn any_edit_key(keys: &ButtonInput<KeyCode>) -> bool {
    EditButton::ALL.into_iter().any(|b| keys.just_pressed(b.key()))
}

/// A table's result as the screen itemises it: the headline, the first
/// four chances that won (stake → what it returns), how many more, and
/// the total returned.
pub fn itemised(s: &Session, headline: String, won: &[(String, u64, u64)]) -> String {
    let mut lines = vec![headline];
    for (name, stake, back) in won.iter().take(4) {
        lines.push(format!("{name}: {stake} → {back}"));
    }
    if won.len() > 4 {
        lines.push(format!("… {} {}", won.len() - 4, s.t("apostas mais")));
    }
    let total: u64 = won.iter().map(|(_, _, b)| b).sum();
    if total > 0 {
        lines.push(format!("{} {total} {}", s.t("TOTAL DEVOLVIDO"), s.t("créditos")));
    }
    lines.join("\n")
}
