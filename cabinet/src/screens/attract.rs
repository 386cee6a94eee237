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
        a.spawn((Welcome, stage::text(&fonts, s.t("BEM-VINDO"), 84.0, GOLD), Transform::from_translation(stage::at(cx, GAME.y + 60.0, 5.0))));
        a.spawn((Logo, Sprite::default(), Transform::from_translation(stage::at(cx, GAME.y + 225.0, 5.0))));
        a.spawn((GameName, stage::text(&fonts, "", 36.0, Color::WHITE), Transform::from_translation(stage::at(cx, GAME.y + 362.0, 5.0))));
        for k in 0..PICTURES {
            a.spawn((Glimpse(k), Sprite::default(), Transform::from_translation(stage::at(cx, GAME.y + 490.0, 5.0))));
        }
        a.spawn((
            stage::text(&fonts, s.t("Introduza notas para jogar"), 36.0, Color::WHITE),
            Transform::from_translation(stage::at(cx, GAME.bottom() - 82.0, 5.0)),
        ));
        a.spawn((
            stage::text(&fonts, s.t("Jogue com responsabilidade. Maiores de 18 anos."), 24.0, Color::srgb(0.8, 0.8, 0.85)),
            Transform::from_translation(stage::at(cx, GAME.bottom() - 38.0, 5.0)),
        ));
    });
}

fn despawn_attract(mut commands: Commands, roots: Query<Entity, With<Attract>>) {
    for e in &roots {
        commands.entity(e).despawn();
    }
}

/// What a game's glimpse shows (issue 45: each game its own): the
/// pictures running past, and whether they are cards (taller than wide).
pub struct GlimpseArt {
    pub files: Vec<String>,
    pub cards: bool,
}

/// A game's glimpse, by its kind: a reel game's symbols; roulette's ball
/// and chips; a dice game's dice; bingo's balls and card; a card game a
/// hand of its own (a royal flush, a full house against the house, a
/// blackjack, a natural nine).
pub fn glimpse_art(s: &game_host::session::Session, game: usize) -> GlimpseArt {
    use game_host::kinds::{
        baccarat::Baccarat, banca_francesa::BancaFrancesa, bingo::Bingo, blackjack::Blackjack, boule::Boule, craps::Craps, desafio_ao_casino::DesafioAoCasino,
        fantan::Fantan, fish_prawn_crab::FishPrawnCrab, poquer_3_cartas::Poquer3Cartas, reels::Reels, roda_da_sorte::RodaDaSorte, roulette::Roulette,
        sic_bo::SicBo, stud_poker::StudPoker,
    };
    let named = |names: &[&str], cards: bool| GlimpseArt { files: names.iter().map(|n| (*n).to_owned()).collect(), cards };
    let Some(g) = s.games().get(game) else { return named(&[], false) };
    if let Some(r) = g.rules::<Reels>() {
        return GlimpseArt { files: r.game.symbols.iter().map(|sym| format!("games/{}/symbols/{}.svg", g.variant_family(), sym.id)).collect(), cards: false };
    }
    if g.rules::<Roulette>().is_some() {
        return named(&["roulette/ball.svg", "chips/chip-1.svg", "chips/chip-5.svg", "chips/chip-10.svg", "chips/chip-25.svg", "chips/chip-100.svg"], false);
    }
    // A wheel: boule's ball and the chips; the wheel of fortune's chips.
    if g.rules::<Boule>().is_some() {
        return named(&["roulette/ball.svg", "chips/chip-1.svg", "chips/chip-5.svg", "chips/chip-10.svg", "chips/chip-25.svg"], false);
    }
    // Fantan: its beads and the large chips.
    if g.rules::<Fantan>().is_some() {
        return named(&["roulette/ball.svg", "chips/chip-100.svg", "chips/chip-500.svg"], false);
    }
    if g.rules::<RodaDaSorte>().is_some() {
        return named(&["chips/chip-1.svg", "chips/chip-5.svg", "chips/chip-10.svg", "chips/chip-25.svg", "chips/chip-100.svg"], false);
    }
    if g.rules::<BancaFrancesa>().is_some() || g.rules::<SicBo>().is_some() {
        return named(&["dice/die-1.svg", "dice/die-2.svg", "dice/die-3.svg", "dice/die-4.svg", "dice/die-5.svg", "dice/die-6.svg"], false);
    }
    // Craps: a natural, 5 and 6, on a chip.
    if g.rules::<Craps>().is_some() {
        return named(&["dice/die-5.svg", "dice/die-6.svg", "chips/chip-5.svg"], false);
    }
    if g.rules::<FishPrawnCrab>().is_some() {
        return named(&["dice/figure-1.svg", "dice/figure-2.svg", "dice/figure-3.svg", "dice/figure-4.svg", "dice/figure-5.svg", "dice/figure-6.svg"], false);
    }
    if g.rules::<Bingo>().is_some() {
        return named(&["bingo/ball.svg", "bingo/card.svg"], false);
    }
    if g.rules::<Blackjack>().is_some() {
        return named(&["cards/AS.svg", "cards/KH.svg", "cards/AD.svg", "cards/QC.svg", "cards/back.svg"], true);
    }
    if g.rules::<Baccarat>().is_some() {
        return named(&["cards/9H.svg", "cards/KS.svg", "cards/4D.svg", "cards/5C.svg", "cards/back.svg"], true);
    }
    // Póquer de 3 cartas: three pictures, its best hand.
    if g.rules::<Poquer3Cartas>().is_some() {
        return named(&["cards/KS.svg", "cards/QH.svg", "cards/JC.svg", "cards/back.svg"], true);
    }
    // Desafio ao casino: a war won, an ace over a king.
    if g.rules::<DesafioAoCasino>().is_some() {
        return named(&["cards/AH.svg", "cards/KC.svg", "cards/back.svg", "cards/back.svg"], true);
    }
    if g.rules::<StudPoker>().is_some() {
        return named(&["cards/KH.svg", "cards/KD.svg", "cards/KS.svg", "cards/9C.svg", "cards/9H.svg", "cards/back.svg"], true);
    }
    named(&["cards/AS.svg", "cards/KS.svg", "cards/QS.svg", "cards/JS.svg", "cards/10S.svg"], true)
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
        let image = art.get(&mut images, &format!("games/{}/logo.svg", g.variant_family()), 300);
        for (mut sprite, mut tr) in &mut logo {
            if sprite.image != image {
                sprite.image = image.clone();
                sprite.custom_size = Some(Vec2::new(400.0, 200.0));
            }
            // Each game comes in growing and leaves the same way.
            let grow = (phase * 8.0).min((1.0 - phase) * 8.0).min(1.0);
            tr.scale = Vec3::splat(0.6 + 0.4 * grow);
        }
        let title = format!("{} — {}", g.title(s.lang()), g.family(s.lang()));
        for mut text in &mut name {
            if text.0 != title {
                text.0.clone_from(&title);
            }
        }
    }
    // The glimpse: the game's pictures running across, a reel strip on its side.
    let GlimpseArt { files: pictures, cards: card_game } = glimpse_art(&s, game);
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

#[cfg(all(test, feature = "lab"))]
#[path = "../../../tests/support/test_config.rs"]
mod test_config;

#[cfg(all(test, feature = "lab"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::glimpse_art;
    use super::test_config;
    use game_host::boot::{BootOptions, boot};

    /// Issue 45, defect 9: every shipped game's glimpse shows art of its
    /// own kind, every file of it one the cabinet checks at boot; games of
    /// different kinds never share a glimpse.
    #[test]
    fn each_game_s_glimpse_shows_its_own_kind() {
        let dir = tempfile::tempdir().unwrap();
        let config = test_config::config(dir.path(), "");
        let s = boot(&BootOptions { config, db: dir.path().join("egm.sqlite"), lab_seed: Some(1), demo: false }).unwrap();
        let needed = crate::art::needed(&s);
        assert_eq!(s.games().len(), 30);
        // Every file the shipped games need is in the kit and draws (a game
        // added without its logo would stop the cabinet at boot).
        assert_eq!(crate::art::check(&needed), Vec::new());
        let mut seen: Vec<(String, Vec<String>)> = Vec::new();
        for (i, g) in s.games().iter().enumerate() {
            let art = glimpse_art(&s, i);
            assert!(!art.files.is_empty(), "{}: an empty glimpse", g.id());
            for f in &art.files {
                assert!(needed.contains(f), "{}: {f} is not in the art the cabinet checks", g.id());
            }
            // The family's own art, by its folder (an independent reading:
            // the family the host names for the game).
            let family = g.family(game_host::session::Lang::En).to_lowercase();
            let folder = if family.contains("roulette") {
                "roulette/"
            } else if family.contains("dice") || family.contains("banca") || family.contains("sic bo") {
                "dice/"
            } else if family.contains("bingo") {
                "bingo/"
            } else if family.contains("boule") || family.contains("wheel of fortune") || family.contains("fan-tan") {
                "chips/"
            } else if family.contains("slot") || family.contains("reel") {
                "symbols/"
            } else {
                "cards/"
            };
            assert!(art.files.iter().any(|f| f.contains(folder)), "{} ({family}): {:?} shows no {folder}", g.id(), art.files);
            assert_eq!(art.cards, folder == "cards/", "{}", g.id());
            seen.push((family, art.files));
        }
        for (a, fa) in &seen {
            for (b, fb) in &seen {
                assert!(a == b || fa != fb, "{a} and {b} share a glimpse");
            }
        }
    }
}
