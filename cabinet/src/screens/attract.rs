//! The attract screen (issue 29), drawn by Bevy while nobody plays: the
//! welcome, then each hosted game in turn — its logo, its name and family,
//! and a glimpse of it playing (a reel game's symbols running past, a card
//! game's hand dealt) — with the invitation to insert money and the
//! responsible-gaming line. Pure presentation: nothing here draws from
//! the core's RNG or touches a meter.

use bevy::prelude::*;

use crate::SessionRes;
use crate::layout::{GAME, WIDTH};
use crate::modes::Mode;
use crate::stage::{self, ArtTextures, Fonts};

pub struct AttractPlugin;

/// Seconds each game is shown.
pub const GAME_S: f32 = 5.0;

impl Plugin for AttractPlugin {
    fn build(&self, app: &mut App) {
        // Built on the first frame of attract (the font is loaded at
        // start-up, after the first mode is entered), taken down on leaving.
        app.add_systems(OnExit(Mode::Attract), despawn_attract).add_systems(Update, (spawn_attract, run_attract).chain().run_if(in_state(Mode::Attract)));
    }
}

#[derive(Component)]
struct Attract;
#[derive(Component)]
struct Welcome;
#[derive(Component)]
struct Logo;
#[derive(Component)]
struct GameName;
/// One of the glimpse's pictures, by its place in the row.
#[derive(Component)]
struct Glimpse(usize);

const GOLD: Color = Color::srgb(1.0, 0.85, 0.1);
const PICTURES: usize = 7;
const PICTURE: f32 = 140.0;

fn spawn_attract(mut commands: Commands, fonts: Option<Res<Fonts>>, session: Res<SessionRes>, built: Query<(), With<Attract>>) {
    let Some(fonts) = fonts else { return };
    if !built.is_empty() {
        return;
    }
    let Ok(s) = session.0.lock() else { return };
    let (cx, _) = GAME.centre();
    commands.spawn((Attract, Transform::default(), Visibility::Inherited)).with_children(|a| {
        a.spawn((Welcome, stage::text(&fonts, s.t("BEM-VINDO", "WELCOME"), 84.0, GOLD), Transform::from_translation(stage::at(cx, GAME.y + 60.0, 5.0))));
        a.spawn((Logo, Sprite::default(), Transform::from_translation(stage::at(cx, GAME.y + 225.0, 5.0))));
        a.spawn((GameName, stage::text(&fonts, "", 36.0, Color::WHITE), Transform::from_translation(stage::at(cx, GAME.y + 362.0, 5.0))));
        for k in 0..PICTURES {
            a.spawn((Glimpse(k), Sprite::default(), Transform::from_translation(stage::at(cx, GAME.y + 490.0, 5.0))));
        }
        a.spawn((
            stage::text(&fonts, s.t("Introduza notas para jogar", "Insert notes to play"), 36.0, Color::WHITE),
            Transform::from_translation(stage::at(cx, GAME.bottom() - 82.0, 5.0)),
        ));
        a.spawn((
            stage::text(&fonts, s.t("Jogue com responsabilidade. Maiores de 18 anos.", "Play responsibly. Adults only."), 24.0, Color::srgb(0.8, 0.8, 0.85)),
            Transform::from_translation(stage::at(cx, GAME.bottom() - 38.0, 5.0)),
        ));
    });
}

fn despawn_attract(mut commands: Commands, roots: Query<Entity, With<Attract>>) {
    for e in &roots {
        commands.entity(e).despawn();
    }
}

/// The art of a game's glimpse: a reel game's symbols, or a royal flush.
fn glimpse_art(s: &game_host::session::Session, game: usize) -> Vec<String> {
    let Some(g) = s.games().get(game) else { return Vec::new() };
    match g.rules::<game_host::kinds::reels::Reels>() {
        Some(r) => r.game.symbols.iter().map(|sym| format!("games/{}/symbols/{}.svg", g.id(), sym.id)).collect(),
        None => ["AS", "KS", "QS", "JS", "10S"].iter().map(|c| format!("cards/{c}.svg")).collect(),
    }
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn run_attract(
    time: Res<Time>,
    session: Res<SessionRes>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut welcome: Query<&mut Transform, (With<Welcome>, Without<Logo>, Without<Glimpse>)>,
    mut logo: Query<(&mut Sprite, &mut Transform), (With<Logo>, Without<Welcome>, Without<Glimpse>)>,
    mut name: Query<&mut Text2d, With<GameName>>,
    mut glimpses: Query<(&Glimpse, &mut Sprite, &mut Transform), (Without<Logo>, Without<Welcome>)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let n = s.games().len().max(1);
    let t = time.elapsed_secs();
    let game = ((t / GAME_S) as usize) % n;
    let phase = (t % GAME_S) / GAME_S;
    for mut tr in &mut welcome {
        tr.scale = Vec3::splat(1.0 + 0.04 * (t * 2.0).sin());
    }
    if let Some(g) = s.games().get(game) {
        let image = art.get(&mut images, &format!("games/{}/logo.svg", g.id()), 300);
        for (mut sprite, mut tr) in &mut logo {
            if sprite.image != image {
                sprite.image = image.clone();
                sprite.custom_size = Some(Vec2::new(400.0, 200.0));
            }
            // Each game comes in growing and leaves the same way.
            let grow = (phase * 8.0).min((1.0 - phase) * 8.0).min(1.0);
            tr.scale = Vec3::splat(0.6 + 0.4 * grow);
        }
        let title = format!("{} — {}", g.name(), g.family(s.lang()));
        for mut text in &mut name {
            if text.0 != title {
                text.0.clone_from(&title);
            }
        }
    }
    // The glimpse: the game's pictures running across, a reel strip on its side.
    let pictures = glimpse_art(&s, game);
    let card_game = s.games().get(game).is_some_and(|g| g.rules::<game_host::kinds::reels::Reels>().is_none());
    let step = PICTURE + 20.0;
    let run = (t * 60.0) % step;
    for (k, mut sprite, mut tr) in &mut glimpses {
        let Some(file) = pictures.get((k.0 + (t * 60.0 / step) as usize) % pictures.len().max(1)) else { continue };
        // A card stands 1.4 times as high as it is wide; a symbol is square.
        let (width, height) = if card_game { (PICTURE * 0.9, PICTURE * 1.26) } else { (PICTURE, PICTURE) };
        let image = art.get(&mut images, file, height as u32);
        if sprite.image != image {
            sprite.image = image;
        }
        sprite.custom_size = Some(Vec2::new(width, height));
        let x = WIDTH / 2.0 + (k.0 as f32 - (PICTURES as f32 - 1.0) / 2.0) * step - run + step / 2.0;
        tr.translation = stage::at(x, GAME.y + 490.0, 5.0);
    }
}
