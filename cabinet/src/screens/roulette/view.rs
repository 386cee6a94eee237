//! What the roulette screen draws: the wheel and the ball, the cloth with
//! the bet's chips, the pocket marked once the ball rests, the result
//! announced and itemised, the last numbers and the figures.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use game_core::roulette::{PocketColour, RouletteGame, Spot, Wheel, colour, pocket_name};
use game_host::kinds::roulette::{Roulette, RouletteRound, announce};
use game_host::round::Phase;
use game_host::session::{Lang, Session};

use super::cloth;
use super::controls::{Button, TRACK, finals_label};
use super::spin::{SPIN_S, Spin};
use super::stats::{self, Stats};
use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::chips::{self, spawn_box};
use crate::screens::reels::Reveal;
use crate::screens::table;
use crate::stage::{self, ArtTextures, Fonts};

pub(super) fn add(app: &mut App) {
    app.init_resource::<RouletteTable>()
        .add_systems(Update, advance_roulette.run_if(in_state(Mode::Playing)))
        .add_systems(Update, (build_roulette_table, (turn_wheel, show_chips, show_result, show_figures).run_if(super::roulette_selected)).chain());
}

/// The wheel's centre and size, the ball's rim and pocket radii (of the
/// wheel's radius, as the art kit draws its pockets).
pub const WHEEL_CENTRE: (f32, f32) = (360.0, 400.0);
pub const WHEEL_D: f32 = 500.0;
const BALL_RIM: f32 = 0.94;
const BALL_POCKET: f32 = 0.64;
/// The itemised win's panel (over the call bets, while it is shown).
pub const WIN_PANEL: Area = Area::new(680.0, 520.0, 1200.0, 200.0);
/// Seconds the ball rests before the round is settled on screen.
const REST_S: f32 = 0.6;

/// The roulette table on screen.
#[derive(Resource)]
pub(super) struct RouletteTable {
    /// The game and language the table was built for.
    key: Option<String>,
    pub wheel: Option<Wheel>,
    pub anchors: Vec<(Spot, (f32, f32), bool)>,
    pub buttons: Vec<Button>,
    /// How many neighbours either side the racetrack places.
    pub neighbours: u8,
    /// The keyboard's cursor on the cloth, once a key moved it.
    pub cursor: Option<(f32, f32)>,
    /// The layout the chips on screen show.
    chips_on: Option<Vec<(Spot, u64)>>,
    /// The rounds played when the figures were counted.
    figures_of: Option<u64>,
    pub stats: Stats,
    /// The round whose itemised win the player put away.
    pub dismissed: Option<u64>,
    /// Whether the racetrack is open over the cloth (`Button::Track`).
    pub track_open: bool,
}

impl Default for RouletteTable {
    fn default() -> Self {
        RouletteTable {
            key: None,
            wheel: None,
            anchors: Vec::new(),
            buttons: Vec::new(),
            neighbours: 2,
            cursor: None,
            chips_on: None,
            figures_of: None,
            stats: Stats::default(),
            dismissed: None,
            track_open: false,
        }
    }
}

#[derive(Component)]
struct RouletteRoot;
#[derive(Component)]
struct WheelSprite;
#[derive(Component)]
struct Ball;
#[derive(Component)]
struct Dolly;
#[derive(Component)]
struct ChipOnCloth;
#[derive(Component)]
pub(super) struct Cursor;
/// A text of the table, by what it shows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Says {
    Announce,
    Chip,
    Neighbours,
    Track,
    Itemised,
    Figures,
}
#[derive(Component)]
struct ItemisedPanel;
/// The cloth with its chips, the dolly and the cursor: put away while the
/// racetrack is open over it.
#[derive(Component)]
struct ClothLayer;
/// The racetrack, over the cloth while it is open.
#[derive(Component)]
struct TrackLayer;

/// The call bets' buttons, the racetrack and the finals, with their labels.
#[derive(Component)]
struct CallBetRow;
/// A box of the last numbers strip.
#[derive(Component)]
struct LastBox(usize);
#[derive(Component)]
struct LastText(usize);

fn pocket_fill(p: u8) -> Color {
    match colour(p) {
        PocketColour::Red => Color::srgb(0.72, 0.06, 0.14),
        PocketColour::Black => Color::srgb(0.1, 0.1, 0.1),
        PocketColour::Zero => Color::srgb(0.1, 0.5, 0.2),
    }
}

/// The art kit's wheel for `wheel`.
pub fn wheel_art(wheel: Wheel) -> &'static str {
    match wheel {
        Wheel::French => "roulette/wheel-single-zero.svg",
        Wheel::American37 => "roulette/wheel-american-37.svg",
        Wheel::American38 => "roulette/wheel-double-zero.svg",
    }
}

/// Build the table for the roulette selected.
#[allow(clippy::too_many_arguments)]
fn build_roulette_table(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<RouletteTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut roots: Query<(Entity, &mut Visibility), With<RouletteRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = s.rules::<Roulette>().map(|r| format!("{}/{:?}", r.0.id, s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    let neighbours = table.neighbours;
    *table = RouletteTable { key: table.key.take(), neighbours, ..default() };
    let Some(g) = s.rules::<Roulette>().map(|r| r.0.clone()) else { return };
    let pt = s.lang() == Lang::Pt;
    table.wheel = Some(g.wheel);
    table.anchors = cloth::anchors(g.wheel, g.top_line);
    table.buttons = Button::all(g.wheel, g.call_bets);
    let wheel_image = art.get(&mut images, wheel_art(g.wheel), 600);
    let ball_image = art.get(&mut images, "roulette/ball.svg", 48);
    let felt = Color::srgb(0.05, 0.36, 0.18);
    commands.spawn((RouletteRoot, Transform::default(), visibility)).with_children(|root| {
        let (wx, wy) = WHEEL_CENTRE;
        root.spawn((
            WheelSprite,
            Sprite { image: wheel_image, custom_size: Some(Vec2::splat(WHEEL_D)), ..default() },
            Transform::from_translation(stage::at(wx, wy, 1.0)),
        ));
        root.spawn((
            Ball,
            Sprite { image: ball_image, custom_size: Some(Vec2::splat(20.0)), ..default() },
            Transform::from_translation(stage::at(wx, wy, 1.5)),
            Visibility::Hidden,
        ));
        // The cloth: its felt, the pockets, the outside cells.
        let c = cloth::area();
        let (cx, cy) = c.centre();
        root.spawn((ClothLayer, Transform::default(), Visibility::Inherited)).with_children(|root| {
            root.spawn((Sprite::from_color(felt, Vec2::new(c.w + 16.0, c.h + 16.0)), Transform::from_translation(stage::at(cx, cy, 1.0))));
            for &p in g.wheel.sequence() {
                spawn_box(root, &fonts, cloth::pocket_cell(g.wheel, p), pocket_fill(p), pocket_name(p), 30.0, 1.1);
            }
            for spot in Spot::outside() {
                let Some(a) = cloth::outside_cell(&spot) else { continue };
                let label = match &spot {
                    Spot::Dozen(d) => s
                        .t(match *d {
                            1 => "1ª DÚZIA (1-12)",
                            2 => "2ª DÚZIA (13-24)",
                            _ => "3ª DÚZIA (25-36)",
                        })
                        .into(),
                    Spot::Column(_) => s.t("2 para 1").into(),
                    Spot::Red => s.t("ENCARNADO").into(),
                    Spot::Black => s.t("PRETO").into(),
                    other => other.name(pt).to_uppercase(),
                };
                let fill = match spot {
                    Spot::Red => pocket_fill(1),
                    Spot::Black => pocket_fill(2),
                    _ => felt,
                };
                let most: f32 = match spot {
                    Spot::Column(_) => 17.0,
                    Spot::Dozen(_) => 22.0,
                    _ => 20.0,
                };
                let room = cloth::outside_parts(&spot).map_or(a, |(room, _)| room);
                // Its longest word within the room (a word is never broken:
                // "ENCARNADO" ran under its chip), capitals at about 0.72 em.
                let longest = label.split_whitespace().map(|w| w.chars().count()).max().unwrap_or(1).max(1) as f32;
                let size = most.min((room.w - 14.0) / (0.72 * longest));
                chips::spawn_box_labelled_in(root, &fonts, a, room, fill, label, size, 1.1);
            }
            // The dolly that marks the winning number, and the keys' cursor.
            root.spawn((
                Dolly,
                Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.55), Vec2::new(cloth::CELL_W - 8.0, cloth::CELL_H - 8.0)),
                Transform::from_translation(stage::at(0.0, 0.0, 1.3)),
                Visibility::Hidden,
            ));
            root.spawn((
                Cursor,
                Sprite::from_color(Color::srgba(1.0, 0.85, 0.2, 0.7), Vec2::splat(26.0)),
                Transform::from_translation(stage::at(0.0, 0.0, 1.9)),
                Visibility::Hidden,
            ));
        });
        // The racetrack (a French wheel's call bets), over the cloth while
        // it is open: the wheel's numbers round an oval, the series inside.
        if table.buttons.iter().any(|b| b.on_track()) {
            root.spawn((TrackLayer, Transform::default(), Visibility::Hidden)).with_children(|track| {
                let t = TRACK.inset(-10.0);
                let (tx, ty) = t.centre();
                track.spawn((Sprite::from_color(table::GOLD, Vec2::new(t.w + 6.0, t.h + 6.0)), Transform::from_translation(stage::at(tx, ty, 2.3))));
                track.spawn((Sprite::from_color(felt, Vec2::new(t.w, t.h)), Transform::from_translation(stage::at(tx, ty, 2.35))));
                for b in table.buttons.iter().filter(|b| b.on_track()) {
                    let (fill, label, size) = match b {
                        Button::Racetrack(i) => (pocket_fill(g.wheel.sequence()[*i]), pocket_name(g.wheel.sequence()[*i]), 32.0),
                        Button::TrackSeries(c) => (Color::srgb(0.35, 0.2, 0.05), c.name(pt).to_uppercase().replace(" (VIZINHOS DO ZERO)", ""), 28.0),
                        _ => continue,
                    };
                    track.spawn((
                        Sprite::from_color(table::GOLD, Vec2::new(b.area().w, b.area().h)),
                        Transform::from_translation(stage::at(b.area().centre().0, b.area().centre().1, 2.4)),
                    ));
                    spawn_box(track, &fonts, b.area().inset(1.5), fill, label, size, 2.45);
                }
            });
        }
        // The call bets (French wheel): put away while the itemised win
        // stands over them (issue 45: never a label peeking out under it).
        root.spawn((CallBetRow, Transform::default(), Visibility::Inherited)).with_children(|row| {
            for b in table.buttons.iter().filter(|b| !b.on_track()) {
                let label = match b {
                    Button::Series(c) => c.name(pt).to_uppercase().replace(" (VIZINHOS DO ZERO)", ""),
                    Button::NeighboursCount | Button::Track => String::new(),
                    Button::Finals(d) => d.to_string(),
                    Button::Racetrack(_) | Button::TrackSeries(_) => continue,
                };
                let (fill, size) = match b {
                    Button::Finals(_) => (Color::srgb(0.2, 0.22, 0.3), 26.0),
                    Button::Track => (Color::srgb(0.1, 0.3, 0.6), 24.0),
                    _ => (Color::srgb(0.35, 0.2, 0.05), 22.0),
                };
                let a = b.area();
                if matches!(b, Button::NeighboursCount | Button::Track) {
                    let (x, y) = a.centre();
                    let says = if *b == Button::Track { Says::Track } else { Says::Neighbours };
                    row.spawn((Sprite::from_color(fill, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(x, y, 1.1))));
                    row.spawn((says, stage::text(&fonts, "", size, Color::WHITE), Transform::from_translation(stage::at(x, y, 1.2))));
                } else {
                    spawn_box(row, &fonts, a, fill, label, size, 1.1);
                }
            }
            if g.call_bets && g.wheel.call_bets_allowed() {
                let (x, y) = finals_label();
                row.spawn((stage::text(&fonts, s.t("FINAIS"), 22.0, table::GOLD), Transform::from_translation(stage::at(x, y, 1.2))));
            }
        });
        chips::spawn_edit_buttons(root, &fonts, &s);
        let (lx, ly) = chips::CHIP_LABEL;
        root.spawn((Says::Chip, stage::text(&fonts, "", 26.0, table::GOLD), Anchor::CENTER_LEFT, Transform::from_translation(stage::at(lx, ly, 1.2))));
        root.spawn((Says::Announce, stage::text(&fonts, "", 34.0, table::GOLD), Transform::from_translation(stage::at(cx, 118.0, 1.2))));
        // The itemised win, over the call bets while it is shown.
        let (px, py) = WIN_PANEL.centre();
        root.spawn((
            ItemisedPanel,
            Sprite::from_color(Color::srgb(0.02, 0.03, 0.08), Vec2::new(WIN_PANEL.w, WIN_PANEL.h)),
            Transform::from_translation(stage::at(px, py, 3.0)),
            Visibility::Hidden,
        ))
        .with_children(|p| {
            p.spawn((
                Says::Itemised,
                stage::text(&fonts, "", 22.0, Color::WHITE),
                Anchor::TOP_LEFT,
                Transform::from_xyz(-WIN_PANEL.w / 2.0 + 24.0, WIN_PANEL.h / 2.0 - 16.0, 0.1),
            ));
        });
        // The last numbers and the figures, under the wheel.
        for i in 0..stats::LAST {
            let a = Area::new(40.0 + i as f32 * 52.0, 668.0, 48.0, 44.0);
            let (x, y) = a.centre();
            root.spawn((LastBox(i), Sprite::from_color(Color::NONE, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(x, y, 1.1))));
            root.spawn((LastText(i), stage::text(&fonts, "", 22.0, Color::WHITE), Transform::from_translation(stage::at(x, y, 1.2))));
        }
        root.spawn((
            Says::Figures,
            stage::text(&fonts, "", 18.0, Color::srgb(0.85, 0.85, 0.9)),
            Anchor::TOP_LEFT,
            Transform::from_translation(stage::at(40.0, 722.0, 1.2)),
        ));
    });
}

/// The round the wheel shows (open, or the last one), and its clock.
fn round_shown<'a>(s: &'a Session, reveal: &Reveal, now: f32) -> Option<(&'a RouletteRound, u64, f32, bool)> {
    let r = s.round::<Roulette>()?;
    // A round this screen did not see launched is shown at rest.
    let t = if reveal.round == Some(r.id) { now - reveal.started } else { SPIN_S + 10.0 };
    Some((&r.state, r.id, t, r.phase == Phase::Ended))
}

/// Turn the wheel, run the ball onto the committed pocket.
#[allow(clippy::type_complexity)]
fn turn_wheel(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    table: Res<RouletteTable>,
    mut wheel: Query<&mut Transform, (With<WheelSprite>, Without<Ball>)>,
    mut ball: Query<(&mut Transform, &mut Visibility), (With<Ball>, Without<WheelSprite>)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let Some(w) = table.wheel else { return };
    let now = time.elapsed_secs();
    let shown = round_shown(&s, &reveal, now);
    let spin = shown.and_then(|(r, id, t, _)| w.position(r.pocket).map(|i| (Spin::new(i, w.sequence().len(), id), t)));
    let angle = spin.map_or(now * 0.3, |(sp, t)| sp.wheel(t));
    for mut tf in &mut wheel {
        tf.rotation = Quat::from_rotation_z(-angle);
    }
    for (mut tf, mut vis) in &mut ball {
        let Some((sp, t)) = spin else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        let r = WHEEL_D / 2.0 * (BALL_POCKET + (BALL_RIM - BALL_POCKET) * sp.ball_radius(t));
        let a = sp.ball(t);
        tf.translation = stage::at(WHEEL_CENTRE.0 + r * a.sin(), WHEEL_CENTRE.1 - r * a.cos(), 1.5);
    }
}

/// Tell the host the spin was shown once the ball rests (at once when the
/// player pressed play again, or for a resumed round).
fn advance_roulette(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<Roulette>().filter(|r| r.phase != Phase::Ended) else { return };
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, time.elapsed_secs(), SPIN_S + REST_S) {
        s.revealed();
    }
}

/// The chips of the bet on the cloth (the round's while one is open).
#[allow(clippy::too_many_arguments)]
fn show_chips(
    mut commands: Commands,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<RouletteTable>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    roots: Query<Entity, With<ClothLayer>>,
    chips: Query<Entity, With<ChipOnCloth>>,
    mut cursor: Query<(&mut Transform, &mut Visibility), With<Cursor>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let Some(w) = table.wheel else { return };
    for (mut tf, mut vis) in &mut cursor {
        match table.cursor {
            Some((x, y)) => {
                vis.set_if_neq(Visibility::Inherited);
                tf.translation = stage::at(x, y, 1.9);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
    let layout = match s.round::<Roulette>().filter(|r| r.phase != Phase::Ended) {
        Some(r) => r.state.bet.spots.clone(),
        None => s.game().bet::<Roulette>().map(|b| b.spots.clone()).unwrap_or_default(),
    };
    if table.chips_on.as_ref() == Some(&layout) {
        return;
    }
    for e in &chips {
        commands.entity(e).despawn();
    }
    let Ok(root) = roots.single() else { return };
    commands.entity(root).with_children(|r| {
        for (spot, stake) in &layout {
            let Some(at) = cloth::chip_at(w, spot) else { continue };
            chips::spawn_chip(r, &fonts, &mut art, &mut images, *stake, at, ChipOnCloth);
        }
    });
    table.chips_on = Some(layout);
}

/// The announce line, the chip selected, the neighbours' count, the
/// dolly on the winning number and the win itemised spot by spot.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_result(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    mut table: ResMut<RouletteTable>,
    mut texts: Query<(&Says, &mut Text2d)>,
    mut dolly: Query<(&mut Transform, &mut Visibility), (With<Dolly>, Without<ItemisedPanel>)>,
    mut panel: Query<&mut Visibility, (With<ItemisedPanel>, Without<Dolly>, Without<CallBetRow>)>,
    mut call_bets: Query<&mut Visibility, (With<CallBetRow>, Without<Dolly>, Without<ItemisedPanel>)>,
    mut layers: Query<
        (&mut Visibility, Has<TrackLayer>),
        (Or<(With<ClothLayer>, With<TrackLayer>)>, Without<CallBetRow>, Without<Dolly>, Without<ItemisedPanel>),
    >,
) {
    let Ok(s) = session.0.lock() else { return };
    let Some(w) = table.wheel else { return };
    let now = time.elapsed_secs();
    let shown = round_shown(&s, &reveal, now);
    let landed = shown.filter(|(_, _, t, _)| *t >= SPIN_S);
    let bet = s.game().bet::<Roulette>().cloned();
    // The itemised win is put away once the bet on the cloth changes.
    if let (Some((r, id, _, true)), Some(b)) = (landed, &bet)
        && b.spots != r.bet.spots
    {
        table.dismissed = Some(id);
    }
    // The win is itemised once the round is settled, in the frame the win
    // meter shows it (issue 75: the total came a moment before PRÉMIO).
    let itemised = landed.filter(|(_, id, _, ended)| *ended && table.dismissed != Some(*id));
    // A spin is watched on the cloth: the racetrack closes when a round
    // opens.
    if s.round::<Roulette>().is_some_and(|r| r.phase != Phase::Ended) {
        table.track_open = false;
    }
    for (mut vis, track) in &mut layers {
        vis.set_if_neq(if track == table.track_open { Visibility::Inherited } else { Visibility::Hidden });
    }
    for (mut tf, mut vis) in &mut dolly {
        match landed {
            Some((r, _, _, _)) => {
                let (x, y) = cloth::pocket_cell(w, r.pocket).centre();
                tf.translation = stage::at(x, y, 1.3);
                vis.set_if_neq(Visibility::Inherited);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
    for mut vis in &mut panel {
        vis.set_if_neq(if itemised.is_some() { Visibility::Inherited } else { Visibility::Hidden });
    }
    for mut vis in &mut call_bets {
        vis.set_if_neq(if itemised.is_some() { Visibility::Hidden } else { Visibility::Inherited });
    }
    let announce_line = match (shown, landed) {
        (_, Some((r, _, _, _))) => format!("{} {}", s.t("SAIU|number"), announce(r.pocket, s.lang()).to_uppercase()),
        (Some((_, _, _, false)), None) => s.t("NADA MAIS — RIEN NE VA PLUS").to_owned(),
        _ => s.t("FAÇAM AS VOSSAS APOSTAS").to_owned(),
    };
    let chip = bet.as_ref().map_or(String::new(), |b| format!("{} {}", s.t("FICHA"), b.chip));
    let neighbours = format!("{} ±{}", s.t("VIZINHOS"), table.neighbours);
    let track = s.t(if table.track_open { "MESA" } else { "PISTA" }).to_owned();
    let itemised_text = itemised.map(|(r, _, _, _)| itemise(&s, r)).unwrap_or_default();
    for (says, mut text) in &mut texts {
        let want = match says {
            Says::Announce => &announce_line,
            Says::Chip => &chip,
            Says::Neighbours => &neighbours,
            Says::Track => &track,
            Says::Itemised => &itemised_text,
            Says::Figures => continue,
        };
        if text.0 != *want {
            text.0.clone_from(want);
        }
    }
}

/// The win spot by spot (FR 25, FR 31): each winning bet, its stake and
/// what it returns, then the total; or what was lost.
pub fn itemise(s: &Session, r: &RouletteRound) -> String {
    let pt = s.lang() == Lang::Pt;
    let settled = RouletteGame::settle(&r.bet.spots, r.pocket);
    let won: Vec<&(Spot, u64, u64)> = settled.iter().filter(|(_, _, back)| *back > 0).collect();
    let total: u64 = won.iter().map(|(_, _, b)| b).sum();
    let staked = RouletteGame::staked(&r.bet.spots);
    let mut lines = vec![format!("{} — {} {}", announce(r.pocket, s.lang()).to_uppercase(), s.t("apostado|staked"), staked)];
    if won.is_empty() {
        lines.push(s.t("Nenhuma aposta contém o número.").to_owned());
    }
    for (spot, stake, back) in won.iter().take(3) {
        lines.push(format!("{}: {} {} → {}", spot.name(pt), stake, s.t("créd."), back));
    }
    if won.len() > 3 {
        lines.push(format!("… {} {}", won.len() - 3, s.t("apostas mais")));
    }
    if total > 0 {
        lines.push(format!("{} {} {}", s.t("TOTAL DEVOLVIDO"), total, s.t("créditos")));
    }
    lines.join("\n")
}

/// The last numbers with their colours and the figures, counted again
/// from the journal when a round has been played (never while the ball
/// runs: the strip shows no number before the wheel does).
#[allow(clippy::type_complexity)]
fn show_figures(
    session: Res<SessionRes>,
    mut table: ResMut<RouletteTable>,
    mut boxes: Query<(&LastBox, &mut Sprite)>,
    mut texts: Query<(Option<&LastText>, Option<&Says>, &mut Text2d)>,
) {
    let Ok(s) = session.0.lock() else { return };
    if s.round::<Roulette>().is_some_and(|r| r.phase != Phase::Ended) {
        return;
    }
    let played = s.machine().state().totals.games.jogadas_efectuadas;
    if table.figures_of == Some(played) {
        return;
    }
    table.figures_of = Some(played);
    let Some(g) = s.rules::<Roulette>() else { return };
    let st = stats::stats(&super::last_pockets(&s, &g.0.id), g.0.wheel.has_double_zero());
    for (b, mut sprite) in &mut boxes {
        sprite.color = st.last.get(b.0).map_or(Color::NONE, |&p| pocket_fill(p));
    }
    let names = |v: &[u8]| v.iter().map(|&p| pocket_name(p)).collect::<Vec<_>>().join(" ");
    let figures = if st.spins == 0 {
        s.t("Ainda sem números nesta mesa.").to_owned()
    } else {
        format!(
            "{}: {} {}   {} {}\n{} {}%  {} {}%  zero {}%   {} {}%  {} {}%",
            s.lang().count(st.spins as u64, "jogada|spin", "jogadas|spins"),
            s.t("quentes"),
            names(&st.hot),
            s.t("frios"),
            names(&st.cold),
            s.t("encarnado"),
            st.red,
            s.t("preto"),
            st.black,
            st.zero,
            s.t("ímpar"),
            st.odd,
            s.t("par"),
            st.even
        )
    };
    for (last, says, mut text) in &mut texts {
        let want = match (last, says) {
            (Some(l), _) => st.last.get(l.0).map_or(String::new(), |&p| pocket_name(p)),
            (_, Some(Says::Figures)) => figures.clone(),
            _ => continue,
        };
        if text.0 != want {
            text.0 = want;
        }
    }
    table.stats = st;
}
