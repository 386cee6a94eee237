//! Cards on the table, drawn by Bevy (issue 29): the art kit's faces and
//! back as sprites, turned over as a card seen edge-on, a held card framed
//! in gold; and the touches of a frame on the design screen. Shared by the
//! card screens (draw poker, stud).

use bevy::prelude::*;
use game_core::cards::Card;

use crate::layout::Area;
use crate::screens::cards::art_name;
use crate::stage::{self, ArtTextures};

/// A card on the table (250 : 350, as the art kit draws them).
pub const CARD: Vec2 = Vec2::new(165.0, 231.0);
/// The height the card art is rasterised at: sharp at 1920×1080.
const CARD_PX: u32 = 240;
pub const GOLD: Color = Color::srgb(0.96, 0.82, 0.29);

/// How one card is shown: its face (None: its back), how far it has
/// turned over (0 face down, 1 face up), where its centre stands and its
/// size, on the design screen.
pub struct CardLook {
    pub face: Option<Card>,
    pub turn: f32,
    pub centre: (f32, f32),
    pub size: Vec2,
}

/// Set a card's sprite as `look` says: its back while it has turned less
/// than half way, then its face, narrowed as a card seen edge-on.
pub fn show_card(sprite: &mut Sprite, transform: &mut Transform, look: &CardLook, z: f32, art: &mut ArtTextures, images: &mut Assets<Image>) {
    let face = if look.turn < 0.5 { None } else { look.face };
    let file = face.map_or_else(|| "cards/back.svg".to_owned(), art_name);
    let image = art.get(images, &file, CARD_PX);
    if sprite.image != image {
        sprite.image = image;
    }
    let width = (1.0 - 2.0 * look.turn.clamp(0.0, 1.0)).abs().max(0.04);
    sprite.custom_size = Some(Vec2::new(look.size.x * width, look.size.y));
    transform.translation = stage::at(look.centre.0, look.centre.1, z);
}

/// The area of a card centred at `centre`.
pub fn card_area(centre: (f32, f32), size: Vec2) -> Area {
    Area::new(centre.0 - size.x / 2.0, centre.1 - size.y / 2.0, size.x, size.y)
}

/// The centres of a row of `n` cards of `size`, `gap` apart, centred on
/// `x` at height `y`.
pub fn row(n: usize, size: Vec2, gap: f32, x: f32, y: f32) -> Vec<(f32, f32)> {
    let width = n as f32 * size.x + n.saturating_sub(1) as f32 * gap;
    (0..n).map(|i| (x - width / 2.0 + size.x / 2.0 + i as f32 * (size.x + gap), y)).collect()
}

/// The start every table screen's build shares: the table's roots are
/// shown in idle and play and hidden otherwise; when `key` (the game and
/// language the table is built for, None for another kind's game)
/// differs from `built`, the old roots are despawned, `built` takes the
/// new key, and the visibility to spawn the new root with is returned.
/// None: the table on screen is current.
pub fn rebuild<R: Component>(
    commands: &mut Commands,
    game_screen: bool,
    key: Option<String>,
    built: &mut Option<String>,
    roots: &mut Query<(Entity, &mut Visibility), With<R>>,
) -> Option<Visibility> {
    let shown = if game_screen { Visibility::Inherited } else { Visibility::Hidden };
    for (_, mut v) in roots.iter_mut() {
        v.set_if_neq(shown);
    }
    if *built == key {
        return None;
    }
    for (e, _) in roots.iter() {
        commands.entity(e).despawn();
    }
    *built = key;
    Some(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_cards_is_centred_and_evenly_spaced() {
        let r = row(5, CARD, 24.0, 960.0, 600.0);
        assert_eq!(r.len(), 5);
        assert!((r[2].0 - 960.0).abs() < 1e-3, "the middle card on the centre");
        assert!((r[1].0 - r[0].0 - (CARD.x + 24.0)).abs() < 1e-3);
        assert!((r[0].0 + r[4].0 - 1920.0).abs() < 1e-3, "symmetric");
        let a = card_area(r[0], CARD);
        assert!(a.contains(r[0].0, r[0].1) && !a.contains(r[1].0, r[1].1));
        assert!(row(0, CARD, 24.0, 960.0, 600.0).is_empty());
    }
}
