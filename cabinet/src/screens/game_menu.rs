//! The multigame menu (issue 29; the deck's GAMES button, key Tab): a
//! tile per game the cabinet hosts, with its logo from the art kit, its
//! name and family, and the configured denominations under them, drawn by
//! Bevy over the game area. A touch on a tile chooses the game (and closes
//! the menu), on a denomination chooses it; between rounds only (M-9,
//! E-41: the host refuses otherwise).

use bevy::prelude::*;
use game_host::command::Command;

use crate::SessionRes;
use crate::layout::{self, GAME};
use crate::modes::Mode;
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct GameMenuPlugin;

/// Whether the menu is open.
#[derive(Resource, Default)]
pub struct GameMenuOpen(pub bool);

impl Plugin for GameMenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GameMenuOpen>().add_systems(Update, (toggle_game_menu, close_outside_idle, show_game_menu, touch_game_menu).chain());
    }
}

#[derive(Component)]
struct Menu;
/// A tile's highlight (game index) and a denomination's (cents).
#[derive(Component)]
struct TileMark(usize);
#[derive(Component)]
struct DenomMark(u64);

const GOLD: Color = Color::srgb(0.96, 0.82, 0.29);
const PLAIN: Color = Color::srgb(0.16, 0.15, 0.26);

fn toggle_game_menu(keys: Res<ButtonInput<KeyCode>>, mut open: ResMut<GameMenuOpen>) {
    if keys.just_pressed(KeyCode::Tab) {
        open.0 = !open.0;
    }
}

/// The menu is a thing of the idle screens: a round, a door, the audit
/// menu close it.
fn close_outside_idle(mode: Res<State<Mode>>, mut open: ResMut<GameMenuOpen>) {
    if open.0 && !matches!(mode.get(), Mode::Idle | Mode::Attract) {
        open.0 = false;
    }
}

/// Build the menu when it opens (and when the language changes), take it
/// down when it closes; keep the chosen game and denomination lit.
#[allow(clippy::too_many_arguments)]
fn show_game_menu(
    mut commands: Commands,
    open: Res<GameMenuOpen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    menus: Query<Entity, With<Menu>>,
    mut tiles: Query<(&TileMark, &mut Sprite), Without<DenomMark>>,
    mut denoms: Query<(&DenomMark, &mut Sprite), Without<TileMark>>,
    mut built_in: Local<Option<game_host::session::Lang>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if !open.0 {
        for e in &menus {
            commands.entity(e).despawn();
        }
        *built_in = None;
        return;
    }
    if *built_in != Some(s.lang()) {
        for e in &menus {
            commands.entity(e).despawn();
        }
        *built_in = Some(s.lang());
        let (cx, cy) = GAME.centre();
        let n = s.games().len();
        let denominations = s.machine().config().denominations.clone();
        commands.spawn((Menu, Transform::default(), Visibility::Inherited)).with_children(|menu| {
            menu.spawn((
                Sprite::from_color(Color::srgba(0.02, 0.02, 0.06, 0.94), Vec2::new(GAME.w, GAME.h)),
                Transform::from_translation(stage::at(cx, cy, 20.0)),
            ));
            menu.spawn((stage::text(&fonts, s.t("ESCOLHA O JOGO"), 40.0, GOLD), Transform::from_translation(stage::at(cx, GAME.y + 42.0, 21.0))));
            for (i, g) in s.games().iter().enumerate() {
                let a = layout::menu_tile(i, n);
                let (tx, ty) = a.centre();
                menu.spawn((TileMark(i), Sprite::from_color(PLAIN, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(tx, ty, 21.0))));
                let logo = art.get(&mut images, &format!("games/{}/logo.svg", g.variant_family()), 150);
                let l = layout::menu_logo(a);
                let (lx, ly) = l.centre();
                menu.spawn((Sprite { image: logo, custom_size: Some(Vec2::new(l.w, l.h)), ..default() }, Transform::from_translation(stage::at(lx, ly, 22.0))));
                // Compact tiles (more than ten games) take smaller text.
                let small = (a.w / 330.0).min(1.0);
                // A long name in a small tile takes smaller text still, so
                // that it stays inside its tile (about 0.6 em a letter).
                let title = g.title(s.lang());
                let fits = (a.w - 16.0) / (0.6 * title.chars().count().max(1) as f32);
                menu.spawn((
                    stage::text(&fonts, title, (24.0 * small).min(fits).max(11.0), Color::WHITE),
                    Transform::from_translation(stage::at(tx, a.bottom() - 34.0, 22.0)),
                ));
                menu.spawn((
                    stage::text(&fonts, g.family(s.lang()), (16.0 * small).max(13.0), Color::srgb(0.7, 0.7, 0.8)),
                    Transform::from_translation(stage::at(tx, a.bottom() - 12.0, 22.0)),
                ));
            }
            let d_n = denominations.len();
            if d_n > 0 {
                let first = layout::menu_denomination(0, d_n);
                menu.spawn((stage::text(&fonts, s.t("DENOMINAÇÃO"), 22.0, GOLD), Transform::from_translation(stage::at(cx, first.y - 22.0, 21.0))));
            }
            for (i, &d) in denominations.iter().enumerate() {
                let a = layout::menu_denomination(i, d_n);
                let (dx, dy) = a.centre();
                menu.spawn((DenomMark(d), Sprite::from_color(PLAIN, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(dx, dy, 21.0))));
                menu.spawn((
                    stage::text(&fonts, s.machine().config().currency.format(d), 26.0, Color::WHITE),
                    Transform::from_translation(stage::at(dx, dy, 22.0)),
                ));
            }
        });
    }
    for (t, mut sprite) in &mut tiles {
        let c = if t.0 == s.selected() { GOLD.with_alpha(0.55) } else { PLAIN };
        if sprite.color != c {
            sprite.color = c;
        }
    }
    for (d, mut sprite) in &mut denoms {
        let c = if d.0 == s.denom() { GOLD.with_alpha(0.55) } else { PLAIN };
        if sprite.color != c {
            sprite.color = c;
        }
    }
}

/// A touch on a tile or a denomination.
fn touch_game_menu(presses: Res<Presses>, session: Res<SessionRes>, mut open: ResMut<GameMenuOpen>) {
    if !open.0 {
        return;
    }
    let points = presses.on_overlay().to_vec();
    let Ok(mut s) = session.0.lock() else { return };
    for d in points {
        let n = s.games().len();
        if let Some(i) = (0..n).find(|&i| layout::menu_tile(i, n).contains(d.x, d.y)) {
            info!("game menu: game {i}");
            s.command(Command::SelectGame { index: i });
            open.0 = false;
            return;
        }
        let denominations = s.machine().config().denominations.clone();
        if let Some(&cents) =
            denominations.iter().enumerate().find(|(i, _)| layout::menu_denomination(*i, denominations.len()).contains(d.x, d.y)).map(|(_, c)| c)
        {
            info!("game menu: denomination {cents}");
            s.command(Command::SelectDenomination { cents });
        }
    }
}
