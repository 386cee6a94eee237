//! The top bar and its banners (M-30, M-39, M-38, M-22; issue 29), drawn
//! by Bevy: the machine, the game, the denomination, the progressive values
//! and the lab mark; under it, while they apply, the DEMO band, the M-38
//! warning and a linked pool's award. In Portuguese by default, English on
//! request. The egui screens learn the space it takes from `HudLayout`.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use crate::SessionRes;
use crate::layout::{self, GAME, TOP_BAR, WIDTH};
use crate::modes::Mode;
use crate::screens::HudLayout;
use crate::stage::{self, Fonts};

pub struct TopBarPlugin;

/// The demonstration mark's colour (the window tests look for it).
pub const DEMO_FILL: Color = Color::srgb_u8(170, 0, 170);
/// The M-38 warning's colour.
pub const WARNING_FILL: Color = Color::srgb_u8(255, 140, 0);
/// The M-22 linked-award banner's colour.
pub const AWARD_FILL: Color = Color::srgb_u8(150, 20, 20);
/// A banner's height, in design units.
const BANNER_H: f32 = 52.0;
/// The width the progressives' values wrap within (from x 1170 to the
/// lab's mark).
const PROGRESSIVES_W: f32 = 420.0;
/// The room of the game's name, from its left edge (360) to short of the
/// denomination (820).
const GAME_TITLE_W: f32 = 440.0;
/// The name's size: 34 units up to 20 characters (about 22 units a
/// character at that size fill its room), smaller beyond, never under 24.
fn title_size(title: &str) -> f32 {
    let chars = title.chars().count().max(1) as f32;
    (34.0 * 20.0 / chars).clamp(24.0, 34.0)
}

impl Plugin for TopBarPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HudLayout>().init_resource::<Banners>().add_systems(Update, show_top_bar).add_systems(EguiPrimaryContextPass, measure_hud);
    }
}

/// How many banners stand under the top bar now.
#[derive(Resource, Default)]
struct Banners(usize);

#[derive(Component)]
enum Bar {
    Machine,
    Game,
    Denomination,
    Progressives,
    Lab,
}
/// A banner's band and its text: 0 demo, 1 warning, 2 award.
#[derive(Component)]
struct Band(usize);
#[derive(Component)]
struct BandText(usize);

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_top_bar(
    mut commands: Commands,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut banners: ResMut<Banners>,
    built: Query<(), With<Bar>>,
    mut bar: Query<(&Bar, &mut Text2d, &mut TextFont), Without<BandText>>,
    mut bands: Query<(&Band, &mut Visibility, &mut Transform), Without<BandText>>,
    mut band_texts: Query<(&BandText, &mut Text2d, &mut Visibility, &mut Transform), Without<Bar>>,
) {
    let Some(fonts) = fonts else { return };
    if built.is_empty() {
        let (_, cy) = TOP_BAR.centre();
        commands
            .spawn((Sprite::from_color(Color::srgb_u8(10, 8, 22), Vec2::new(WIDTH, TOP_BAR.h)), Transform::from_translation(stage::at(WIDTH / 2.0, cy, 30.0))));
        let grey = Color::srgb(0.8, 0.8, 0.85);
        for (b, x, size, colour, anchor) in [
            (Bar::Machine, 24.0, 30.0, grey, Anchor::CENTER_LEFT),
            (Bar::Game, 360.0, 34.0, Color::WHITE, Anchor::CENTER_LEFT),
            (Bar::Denomination, 820.0, 24.0, grey, Anchor::CENTER_LEFT),
            (Bar::Progressives, 1170.0, 22.0, Color::srgb(1.0, 0.85, 0.25), Anchor::CENTER_LEFT),
            (Bar::Lab, WIDTH - 24.0, 18.0, Color::srgb(1.0, 1.0, 0.2), Anchor::CENTER_RIGHT),
        ] {
            let wraps = matches!(b, Bar::Progressives);
            let title = matches!(b, Bar::Game);
            let mut text = commands.spawn((b, stage::text(&fonts, "", size, colour), anchor, Transform::from_translation(stage::at(x, cy, 31.0))));
            // The progressives wrap within their room, short of the lab's
            // mark (issue 45: a long list ran over it).
            if wraps {
                text.insert(bevy::text::TextBounds::new_horizontal(PROGRESSIVES_W));
            }
            if title {
                text.insert(bevy::text::TextBounds::new_horizontal(GAME_TITLE_W));
            }
        }
        for (k, fill, ink) in [(0, DEMO_FILL, Color::WHITE), (1, WARNING_FILL, Color::BLACK), (2, AWARD_FILL, Color::srgb(1.0, 0.85, 0.1))] {
            commands.spawn((Band(k), Sprite::from_color(fill, Vec2::new(WIDTH, BANNER_H)), Transform::default(), Visibility::Hidden));
            commands.spawn((
                BandText(k),
                stage::text(&fonts, "", if k == 2 { 34.0 } else { 26.0 }, ink),
                crate::screen_text::OnPlate,
                Transform::default(),
                Visibility::Hidden,
            ));
        }
        return;
    }
    let Ok(s) = session.0.lock() else { return };
    let cur = &s.machine().config().currency;
    for (b, mut text, mut font) in &mut bar {
        let want = match b {
            Bar::Machine => format!("{} {}", s.t("Máquina"), s.machine().config().machine_id),
            Bar::Game => s.game().title(s.lang()).to_owned(),
            Bar::Denomination => format!("{} {}", s.t("Denominação"), cur.format(s.denom())),
            Bar::Progressives => {
                let lines = s.progressive_lines();
                if lines.is_empty() { format!("{}: —", s.t("Progressivos")) } else { lines.join(" · ") }
            }
            // Issue 47: an evaluation cabinet says so on every screen. A
            // demonstration's machine runs in lab mode on a throwaway
            // memory (M-39): its own banner below marks it.
            Bar::Lab => if s.demo() {
                ""
            } else if s.machine().config().mode.is_lab() {
                s.t("MODO LABORATÓRIO")
            } else {
                s.evaluation_mark().unwrap_or("")
            }
            .to_owned(),
        };
        if text.0 != want {
            // A long game name is set smaller to keep short of the
            // denomination (issue 45: "No-Commission Baccarat" ran over it).
            if matches!(b, Bar::Game) {
                font.font_size = bevy::text::FontSize::Px(title_size(&want));
            }
            text.0 = want;
        }
    }
    // M-39: a demonstration is marked on screen at all times; M-38: what
    // may end the session, before it does; M-22: a linked pool's award on
    // every machine of the pool.
    let texts: [Option<String>; 3] = [
        s.demo().then(|| s.t("DEMONSTRAÇÃO — créditos de jogo sem valor; o único prémio é jogo grátis").to_owned()),
        s.warning(),
        s.linked_banner().filter(|(_, at)| at.elapsed() < crate::pacing::BANNER_FOR).map(|(t, _)| t),
    ];
    // Stacked under the top bar in that order.
    let mut y = GAME.y;
    let mut places = [None; 3];
    for (k, t) in texts.iter().enumerate() {
        if t.is_some() {
            places[k] = Some(y + BANNER_H / 2.0);
            y += BANNER_H;
        }
    }
    banners.0 = places.iter().flatten().count();
    for (band, mut v, mut tr) in &mut bands {
        v.set_if_neq(if places[band.0].is_some() { Visibility::Inherited } else { Visibility::Hidden });
        if let Some(cy) = places[band.0] {
            tr.translation = stage::at(WIDTH / 2.0, cy, 30.0);
        }
    }
    for (band, mut text, mut v, mut tr) in &mut band_texts {
        v.set_if_neq(if places[band.0].is_some() { Visibility::Inherited } else { Visibility::Hidden });
        if let (Some(cy), Some(t)) = (places[band.0], &texts[band.0]) {
            tr.translation = stage::at(WIDTH / 2.0, cy, 31.0);
            if &text.0 != t {
                text.0.clone_from(t);
            }
        }
    }
}

/// The space the top bar, its banners, the meters bar and the deck take,
/// in egui's points, for the egui screens.
fn measure_hud(mut contexts: EguiContexts, mode: Res<State<Mode>>, banners: Res<Banners>, mut hud: ResMut<HudLayout>) -> Result {
    let view = contexts.ctx_mut()?.viewport_rect();
    let (scale, _, oy) = layout::fit(view.width(), view.height());
    let top = oy + (TOP_BAR.h + banners.0 as f32 * BANNER_H) * scale;
    let stage_bottom = view.height() - (oy + layout::HEIGHT * scale);
    let bottom = stage_bottom + (layout::HEIGHT - GAME.bottom() + 32.0) * scale;
    // The operator's screens (audit, recall, tilt) have the whole height.
    let deck_shown = matches!(mode.get(), Mode::Attract | Mode::Idle | Mode::Playing);
    *hud = HudLayout { top, bottom: if deck_shown { bottom } else { 0.0 } };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_game_name_is_set_smaller_and_a_short_one_full_size() {
        assert_eq!(title_size("Sevens Classic"), 34.0);
        assert_eq!(title_size("Ocean Treasure — 20 l"), 34.0 * 20.0 / 21.0);
        // "No-Commission Baccarat": 22 characters at about 0.64 of the size
        // each stay inside the room.
        let size = title_size("No-Commission Baccarat");
        assert!(22.0 * 0.64 * size < GAME_TITLE_W, "{size}");
        assert_eq!(title_size(&"x".repeat(60)), 24.0);
    }
}
