//! The reels drawn by Bevy's 2D renderer (issue 29): the game's symbol art
//! in the reel frame, each strip scrolling as `motion` says and landing on
//! the committed stops; after the landing, each winning line in turn drawn
//! over its symbols with its win, the scatter, and above the configured
//! multiple of the bet a big-win celebration. A ways game (issue 50)
//! frames each winning symbol's cells in turn, its reels may be of their
//! own heights (each centred in the window), and a landed expanding wild
//! fills its reel; a hold-and-spin plays step by step after the base spin
//! (`hold`). Everything here follows the round the host reports and
//! the time; nothing is decided.

use bevy::prelude::*;
use game_core::reels::{ReelGame, Spin};
use game_host::kinds::reels::Reels;
use game_host::round::Phase;
use game_host::session::Session;

use super::Reveal;
use super::cascade;
use super::hold::{self, HoldView};
use super::motion::Motion;
use crate::SessionRes;
use crate::layout::{self, Area};
use crate::stage::{self, ArtTextures, Fonts};

/// Seconds each win is shown before the next.
pub const WIN_SHOW_S: f32 = 1.4;
/// Seconds the big-win celebration lasts.
pub const BIG_WIN_S: f32 = 4.0;

const LINE_COLOURS: [Color; 5] =
    [Color::srgb(1.0, 0.9, 0.1), Color::srgb(0.1, 1.0, 1.0), Color::srgb(1.0, 0.2, 1.0), Color::srgb(0.2, 1.0, 0.2), Color::srgb(1.0, 0.55, 0.0)];

/// The reel stage of the game on screen: which game it was built for and
/// where its window stands.
#[derive(Resource, Default)]
pub struct ReelStage {
    game: Option<String>,
    window: Option<Area>,
    symbols: Vec<Handle<Image>>,
    texture_px: f32,
}

impl ReelStage {
    /// Where the reel window of the game on screen stands.
    pub(super) fn window(&self) -> Option<Area> {
        self.window
    }

    /// The picture of symbol `k` of the game on screen.
    pub(super) fn symbol(&self, k: usize) -> Handle<Image> {
        self.symbols.get(k).cloned().unwrap_or_default()
    }
}

#[derive(Component)]
pub(super) struct ReelRoot;
/// A symbol sprite: reel, and its slot from the top (rows + 1 slots, the
/// extra one for the symbol scrolling in).
#[derive(Component)]
struct Slot(usize, usize);
#[derive(Component)]
struct Glow(usize);
#[derive(Component)]
struct Segment(usize);
/// One bar of a cell's win mark: reel, row, side.
#[derive(Component)]
struct Mark(usize, usize, usize);
#[derive(Component)]
struct CaptionBand;
#[derive(Component)]
struct Caption;
#[derive(Component)]
struct TitleBand;
#[derive(Component)]
struct Title;
#[derive(Component)]
struct BigWin;

pub fn add(app: &mut App) {
    app.init_resource::<ReelStage>()
        .add_systems(Update, (build_reel_stage, leave_the_window_to_the_reels, (move_reels, show_wins, label_held_values, celebrate_big_win)).chain());
}

/// Issue 50: each held pearl's value on its cell while the feature is on
/// the reels.
fn label_held_values(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    stage: Res<ReelStage>,
    mut labels: Query<(&CashLabel, &mut Text2d, &mut Visibility)>,
) {
    if stage.window.is_none() || labels.is_empty() {
        return;
    }
    let Ok(s) = session.0.lock() else { return };
    let Some(game) = reel_game(&s) else { return };
    let shown = on_screen(&s, game, &reveal, time.elapsed_secs());
    for (cell, mut text, mut visibility) in &mut labels {
        let held = shown.hold.as_ref().and_then(|v| v.held.iter().find(|c| c.0 == cell.0 && c.1 == cell.1));
        let Some(&(_, _, value, credits)) = held else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        let words = hold::label(&s, value, credits, shown.denom);
        if text.0 != words {
            text.0 = words;
        }
        visibility.set_if_neq(Visibility::Inherited);
    }
}

/// A held pearl's value, written on its cell (issue 50).
#[derive(Component)]
struct CashLabel(usize, usize);

/// The reel window is the reels' alone: the stage's backdrop is not drawn
/// under it (the window's blue is the screen's clear colour).
fn leave_the_window_to_the_reels(stage: Res<ReelStage>, game_screen: Res<crate::screens::GameScreen>, mut hole: ResMut<stage::BackdropHole>) {
    let window = stage.window.filter(|_| game_screen.0);
    if hole.window != window {
        hole.window = window;
    }
}

/// The reel game on screen, when the screen shows one.
fn reel_game(s: &Session) -> Option<&ReelGame> {
    s.rules::<Reels>().map(|r| &r.game)
}

/// The cell of `reel` and `row` of `game` in its reel window: a reel
/// shorter than the window stands centred in it (issue 50, 3-4-5-4-3).
pub(crate) fn cell_of(window: Area, game: &ReelGame, reel: usize, row: usize) -> Area {
    let (reels, rows) = (game.reels.len(), game.rows as usize);
    let mut c = layout::reel_cell(window, reels, rows, reel, row);
    c.y += rows.saturating_sub(game.rows_of(reel)) as f32 / 2.0 * c.h;
    c
}

/// Build the stage for the reel game selected, take it down for any other.
#[allow(clippy::too_many_arguments)]
pub(super) fn build_reel_stage(
    mut commands: Commands,
    session: Res<SessionRes>,
    game_screen: Res<crate::screens::GameScreen>,
    mut stage: ResMut<ReelStage>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    fonts: Option<Res<Fonts>>,
    roots: Query<Entity, With<ReelRoot>>,
    mut shown: Query<&mut Visibility, With<ReelRoot>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let want = reel_game(&s).map(|g| g.id.clone());
    let visible = game_screen.0;
    for mut v in &mut shown {
        v.set_if_neq(if visible { Visibility::Inherited } else { Visibility::Hidden });
    }
    if stage.game == want {
        return;
    }
    for e in &roots {
        commands.entity(e).despawn();
    }
    *stage = ReelStage::default();
    let Some(game) = reel_game(&s) else { return };
    let (reels, rows) = (game.reels.len(), game.rows as usize);
    let window = layout::reel_window(reels, rows);
    let cell = window.w / reels as f32;
    let texture_px = cell.round().max(16.0);
    let symbols: Vec<Handle<Image>> =
        game.symbols.iter().map(|sym| art.get(&mut images, &format!("games/{}/symbols/{}.svg", game.family(), sym.id), texture_px as u32)).collect();
    let frame = layout::reel_frame(window);
    let frame_art = art.get(&mut images, "reels/frame.svg", frame.h.round() as u32);
    let (wx, wy) = window.centre();
    // The art's own pixels per design unit across and down (it is
    // stretched over the frame).
    let art_size = images.get(&frame_art).map_or(Vec2::new(frame.w, frame.h), |i| i.size_f32());
    let (sx, sy) = (art_size.x / frame.w, art_size.y / frame.h);
    commands.spawn((ReelRoot, Transform::default(), if visible { Visibility::Inherited } else { Visibility::Hidden })).with_children(|root| {
        for reel in 0..reels {
            for slot in 0..=game.rows_of(reel) {
                root.spawn((Slot(reel, slot), Sprite::default(), Transform::from_translation(stage::at(wx, wy, 2.0)), Visibility::Hidden));
            }
            let c = layout::reel_cell(window, reels, rows, reel, 0);
            root.spawn((
                Glow(reel),
                Sprite::from_color(Color::srgba(1.0, 0.8, 0.2, 0.0), Vec2::new(c.w, window.h)),
                Transform::from_translation(stage::at(c.centre().0, wy, 3.0)),
                Visibility::Hidden,
            ));
        }
        // The frame's four edges, each its slice of the art: the window's
        // hole is not drawn (every pixel costs under software rendering).
        for edge in layout::frame_edges(frame, window) {
            let slice = Rect::new((edge.x - frame.x) * sx, (edge.y - frame.y) * sy, (edge.x + edge.w - frame.x) * sx, (edge.bottom() - frame.y) * sy);
            root.spawn((
                Sprite { image: frame_art.clone(), rect: Some(slice), custom_size: Some(Vec2::new(edge.w, edge.h)), ..default() },
                Transform::from_translation(stage::at(edge.centre().0, edge.centre().1, 4.0)),
            ));
        }
        for k in 0..reels.saturating_sub(1) {
            root.spawn((Segment(k), Sprite::from_color(Color::WHITE, Vec2::new(1.0, 8.0)), Transform::default(), Visibility::Hidden));
        }
        // Issue 50: a label per cell for the hold-and-spin's values.
        if game.hold_and_spin.is_some() {
            for reel in 0..reels {
                for row in 0..game.rows_of(reel) {
                    let (x, y) = cell_of(window, game, reel, row).centre();
                    root.spawn((
                        CashLabel(reel, row),
                        stage::text(&fonts, "", (cell * 0.15).max(11.0), Color::srgb(0.55, 0.05, 0.05)),
                        Transform::from_translation(stage::at(x, y + cell * 0.3, 6.0)),
                        Visibility::Hidden,
                    ));
                }
            }
        }
        for reel in 0..reels {
            for row in 0..game.rows_of(reel) {
                for side in 0..4 {
                    root.spawn((Mark(reel, row, side), Sprite::from_color(Color::WHITE, Vec2::ONE), Transform::default(), Visibility::Hidden));
                }
            }
        }
        // Issue 45: the caption and the title stand in bands of their own
        // outside the frame, never over a row of symbols.
        let (caption, title) = (layout::reel_caption(window), layout::reel_title(window));
        let band = |a: layout::Area| {
            (Sprite::from_color(Color::srgba(0.0, 0.0, 0.0, 0.72), Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(wx, a.centre().1, 6.0)))
        };
        root.spawn((CaptionBand, band(caption), Visibility::Hidden));
        root.spawn((Caption, stage::text(&fonts, "", 32.0, Color::srgb(1.0, 0.87, 0.3)), Transform::from_translation(stage::at(wx, caption.centre().1, 7.0))));
        root.spawn((TitleBand, band(title), Visibility::Hidden));
        root.spawn((Title, stage::text(&fonts, "", 32.0, Color::srgb(0.5, 0.9, 1.0)), Transform::from_translation(stage::at(wx, title.centre().1, 7.0))));
        root.spawn((
            BigWin,
            stage::text(&fonts, "", 96.0, Color::srgb(1.0, 0.85, 0.1)),
            Transform::from_translation(stage::at(wx, wy, 8.0)),
            Visibility::Hidden,
        ));
    });
    *stage = ReelStage { game: want, window: Some(window), symbols, texture_px };
}

/// What the reels show now: the spin, its motion, and the seconds since
/// it began (the round at rest: far past the landing).
struct OnScreen {
    spin: Spin,
    motion: Motion,
    t: f32,
    free_game: Option<(usize, usize)>,
    /// The hold-and-spin's step on screen (issue 50): the reels at rest,
    /// the pearls held in their cells.
    hold: Option<HoldView>,
    /// The cascade on screen (issue 50): its number (from 1) and itself.
    cascade: Option<(usize, game_core::reels::Cascade)>,
    /// The round's whole win and stake, in credits, and its denomination.
    win: u64,
    stake: u64,
    denom: u64,
}

const AT_REST: f32 = 1.0e6;

fn on_screen(s: &Session, game: &ReelGame, reveal: &Reveal, now: f32) -> OnScreen {
    match s.round::<Reels>() {
        Some(r) => {
            let open = r.phase != Phase::Ended;
            let spins = r.state.free_spins.len();
            // Issue 50: past the spins, the feature's steps; a settled
            // round with a feature keeps its last step on the reels.
            let cascades = cascade::steps(&r.state);
            let hold_step = match &r.state.hold {
                Some(_) if open && reveal.spin > spins + cascades => Some(reveal.spin - spins - cascades - 1),
                Some(h) if !open => Some(h.respins.len()),
                _ => None,
            };
            // The base spin's cascades (a settled round keeps its last).
            let cascade_step = if open && reveal.spin > spins && reveal.spin <= spins + cascades {
                Some(reveal.spin - spins)
            } else if !open && cascades > 0 {
                Some(cascades)
            } else {
                None
            };
            let in_spins = hold_step.is_none() && cascade_step.is_none() && open && reveal.spin > 0;
            let spin = if in_spins { r.state.free_spins.get(reveal.spin - 1).unwrap_or(&r.state.base) } else { &r.state.base };
            // The round revealed on this screen: its own clock (a hurried
            // reveal moved it on to the landing); a round from before the
            // screen began: at rest. A feature's step: at rest, its clock
            // counting from the step's start.
            let motion = Motion::new(game, spin);
            let own = if reveal.round == Some(r.id) { now - reveal.started } else { AT_REST };
            let t = if hold_step.is_some() || cascade_step.is_some() { motion.rests_at() + own } else { own };
            let rule = game.hold_and_spin.as_deref();
            // A progressive grand is the pool's, shown by its award (issue 50).
            let pooled = rule.zip(r.state.hold.as_ref()).map_or(0, |(rule, h)| h.pooled_grand(rule, r.state.bet.credits_per_line));
            OnScreen {
                motion,
                spin: spin.clone(),
                t,
                free_game: in_spins.then_some((reveal.spin, spins)),
                hold: hold_step.and_then(|k| r.state.hold.as_ref().zip(rule).map(|(h, rule)| HoldView::at(h, rule, k))),
                cascade: cascade_step.and_then(|k| r.state.base.cascades.get(k - 1).map(|c| (k, c.clone()))),
                win: r.state.win.saturating_sub(pooled),
                stake: r.state.bet.total_credits(),
                denom: r.denom,
            }
        }
        None => {
            let bet = s.game().bet::<Reels>().copied().unwrap_or(game_core::reels::Bet { lines: 1, credits_per_line: 1 });
            let mut spin = game.evaluate(&vec![0; game.reels.len()], bet, false);
            spin.line_wins.clear();
            spin.way_wins.clear();
            spin.scatter_win = 0;
            spin.free_games_awarded = 0;
            OnScreen { motion: Motion::new(game, &spin), spin, t: AT_REST, free_game: None, hold: None, cascade: None, win: 0, stake: 1, denom: s.denom() }
        }
    }
}

/// Scroll each strip to where its motion has it, cropping the symbols at
/// the window's edges.
fn move_reels(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    stage: Res<ReelStage>,
    mut slots: Query<(&Slot, &mut Sprite, &mut Transform, &mut Visibility), Without<Glow>>,
    mut glows: Query<(&Glow, &mut Sprite, &mut Visibility), Without<Slot>>,
) {
    let Some(window) = stage.window else { return };
    let Ok(s) = session.0.lock() else { return };
    let Some(game) = reel_game(&s) else { return };
    let now = time.elapsed_secs();
    let shown = on_screen(&s, game, &reveal, now);
    let reels = game.reels.len();
    let cell = window.w / reels as f32;
    let strips = game.strips(shown.spin.free);
    for (slot, mut sprite, mut transform, mut visibility) in &mut slots {
        let (reel, k) = (slot.0, slot.1);
        let (Some(strip), Some(&stop)) = (strips.get(reel), shown.spin.stops.get(reel)) else { continue };
        // A reel a sticky wild holds (issue 50) does not spin.
        let held = shown.spin.held >> reel & 1 == 1;
        let pos = if held { stop as f32 } else { stop as f32 + shown.motion.offset(reel, shown.t) };
        let base = pos.floor();
        let frac = pos - base;
        let first = (base as i64).rem_euclid(strip.len() as i64) as usize;
        // Landed, the reel shows its window as the game reads it (an
        // expanding wild fills the reel); running, the strip as it is.
        let landed = shown.motion.landed(reel, shown.t) && frac == 0.0 && first == stop as usize;
        let symbol = match game.sticky_wild() {
            Some(w) if held => w,
            _ if landed => game.reel_window(reel, strip, first).get(k).copied().unwrap_or_else(|| strip.at(first, k)),
            _ => strip.at(first, k),
        } as usize;
        // The hold-and-spin's step: the pearls held, every other cell empty.
        let symbol = match (&shown.hold, &game.hold_and_spin) {
            (Some(view), Some(rule)) if k < game.rows_of(reel) && view.holds(reel, k) => usize::from(rule.symbol),
            (Some(_), _) => {
                visibility.set_if_neq(Visibility::Hidden);
                continue;
            }
            // A cascade: the window after its fall, still.
            _ => match &shown.cascade {
                Some((_, c)) if k < game.rows_of(reel) => c.window.get(reel).and_then(|cells| cells.get(k)).map_or(symbol, |&x| usize::from(x)),
                Some(_) => {
                    visibility.set_if_neq(Visibility::Hidden);
                    continue;
                }
                None => symbol,
            },
        };
        // The reel's own column: a shorter reel is centred in the window.
        let column = cell_of(window, game, reel, 0);
        let (column_top, column_bottom) = (column.y, column.y + game.rows_of(reel) as f32 * cell);
        let top = column_top + (k as f32 - frac) * cell;
        let (from, to) = (top.max(column_top), (top + cell).min(column_bottom));
        if to - from < 0.5 {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        }
        visibility.set_if_neq(Visibility::Inherited);
        let px = stage.texture_px;
        let image = stage.symbols.get(symbol).cloned().unwrap_or_default();
        if sprite.image != image {
            sprite.image = image;
        }
        sprite.rect = Some(Rect::new(0.0, (from - top) / cell * px, px, (to - top) / cell * px));
        sprite.custom_size = Some(Vec2::new(cell, to - from));
        transform.translation = stage::at(window.x + (reel as f32 + 0.5) * cell, (from + to) / 2.0, 2.0);
    }
    let pulse = 0.25 + 0.15 * (now * 8.0).sin();
    for (glow, mut sprite, mut visibility) in &mut glows {
        // A glow that is off is not drawn at all: under software rendering
        // every pixel a sprite covers costs, seen or not.
        let on = shown.motion.anticipating(glow.0, shown.t);
        visibility.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
        if on {
            sprite.color = Color::srgba(1.0, 0.8, 0.2, pulse);
        }
    }
}

/// One thing a landed spin shows in turn: a line win, a ways win, or the
/// scatter.
enum Shown {
    Line(usize),
    Way(usize),
    Scatter,
}

fn wins_of(spin: &Spin) -> Vec<Shown> {
    let mut v: Vec<Shown> = (0..spin.line_wins.len()).map(Shown::Line).collect();
    v.extend((0..spin.way_wins.len()).map(Shown::Way));
    if spin.scatter_win > 0 || spin.free_games_awarded > 0 {
        v.push(Shown::Scatter);
    }
    v
}

/// After the landing: each win in turn, its line over the symbols and its
/// cells framed, with its amount; the free game's count while it plays.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn show_wins(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    stage: Res<ReelStage>,
    mut segments: Query<(&Segment, &mut Sprite, &mut Transform, &mut Visibility), (Without<Mark>, Without<CaptionBand>, Without<TitleBand>)>,
    mut marks: Query<(&Mark, &mut Sprite, &mut Transform, &mut Visibility), (Without<Segment>, Without<CaptionBand>, Without<TitleBand>)>,
    mut caption: Query<&mut Text2d, (With<Caption>, Without<Title>)>,
    mut band: Query<&mut Visibility, (With<CaptionBand>, Without<Segment>, Without<Mark>, Without<TitleBand>)>,
    mut title: Query<&mut Text2d, (With<Title>, Without<Caption>)>,
    mut title_band: Query<&mut Visibility, (With<TitleBand>, Without<Segment>, Without<Mark>, Without<CaptionBand>)>,
) {
    let Some(window) = stage.window else { return };
    let Ok(s) = session.0.lock() else { return };
    let Some(game) = reel_game(&s) else { return };
    let shown = on_screen(&s, game, &reveal, time.elapsed_secs());
    let since = shown.t - shown.motion.rests_at();
    let wins = match (&shown.hold, &shown.cascade) {
        (Some(_), _) => Vec::new(),
        (None, Some((_, c))) => (0..c.way_wins.len()).map(Shown::Way).collect(),
        (None, None) => wins_of(&shown.spin),
    };
    let current = (since >= 0.0 && !wins.is_empty()).then(|| &wins[((since / WIN_SHOW_S) as usize) % wins.len()]);
    let centre = |reel: usize, row: usize| -> (f32, f32) { cell_of(window, game, reel, row).centre() };
    let shown_window = match &shown.cascade {
        Some((_, c)) => c.window.clone(),
        None => game.window_held(&shown.spin.stops, shown.spin.free, shown.spin.held),
    };
    // A cascade's wins are its own (issue 50).
    let way_wins = shown.cascade.as_ref().map_or(&shown.spin.way_wins, |(_, c)| &c.way_wins);
    // The cells framed and the line's points, by what is shown.
    let mut framed: Vec<(usize, usize)> = Vec::new();
    let mut points: Vec<(f32, f32)> = Vec::new();
    let mut colour = LINE_COLOURS[0];
    let mut text = String::new();
    match current {
        Some(Shown::Line(k)) => {
            let w = &shown.spin.line_wins[*k];
            colour = LINE_COLOURS[*k % LINE_COLOURS.len()];
            if let Some(line) = game.lines.get(w.line as usize) {
                points = line.iter().enumerate().map(|(reel, &row)| centre(reel, row as usize)).collect();
                framed = line.iter().enumerate().take(w.count as usize).map(|(reel, &row)| (reel, row as usize)).collect();
            }
            let name = game.symbols.get(w.symbol as usize).map_or("", |x| s.lang().term(&x.name));
            text = format!("{} {} · {} × {} · {}", s.t("LINHA"), w.line + 1, w.count, name, s.show(w.win * shown.denom));
        }
        Some(Shown::Way(k)) => {
            // Issue 50: every cell of the symbol's run, the first reel's
            // showing the symbol itself, the later ones it or a wild
            // standing for it.
            let w = &way_wins[*k];
            colour = LINE_COLOURS[*k % LINE_COLOURS.len()];
            framed = game.way_cells(&shown_window, w.symbol, w.count);
            let name = game.symbols.get(w.symbol as usize).map_or("", |x| s.lang().term(&x.name));
            text = format!("{} × {} · {} · {}", w.count, name, s.lang().count(w.ways, "MANEIRA", "MANEIRAS"), s.show(w.win * shown.denom));
        }
        Some(Shown::Scatter) => {
            colour = LINE_COLOURS[2];
            if let Some(rule) = &game.scatter {
                for (reel, cells) in shown_window.iter().enumerate() {
                    for (row, &x) in cells.iter().enumerate() {
                        if x == rule.symbol {
                            framed.push((reel, row));
                        }
                    }
                }
            }
            text = format!("SCATTER × {} · {}", shown.spin.scatter_count, s.show(shown.spin.scatter_win * shown.denom));
            if shown.spin.free_games_awarded > 0 {
                text.push_str(&format!(" + {} {}", shown.spin.free_games_awarded, s.t("JOGOS GRÁTIS")));
            }
        }
        None => {}
    }
    // Issue 50: the feature's step frames the cells it landed, its total.
    if let Some(view) = &shown.hold {
        framed.clone_from(&view.landed);
        colour = LINE_COLOURS[0];
        text = view.caption(&s, shown.denom);
    }
    for (seg, mut sprite, mut transform, mut visibility) in &mut segments {
        let (Some(a), Some(b)) = (points.get(seg.0), points.get(seg.0 + 1)) else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        sprite.color = colour;
        sprite.custom_size = Some(Vec2::new((dx * dx + dy * dy).sqrt() + 8.0, 10.0));
        *transform = Transform::from_translation(stage::at((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0, 5.0)).with_rotation(Quat::from_rotation_z(-dy.atan2(dx)));
        visibility.set_if_neq(Visibility::Inherited);
    }
    for (mark, mut sprite, mut transform, mut visibility) in &mut marks {
        if !framed.contains(&(mark.0, mark.1)) {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        }
        let c = cell_of(window, game, mark.0, mark.1).inset(4.0);
        let (cx, cy) = c.centre();
        let t = 8.0;
        let (x, y, w, h) = match mark.2 {
            0 => (cx, c.y + t / 2.0, c.w, t),
            1 => (cx, c.bottom() - t / 2.0, c.w, t),
            2 => (c.x + t / 2.0, cy, t, c.h),
            _ => (c.x + c.w - t / 2.0, cy, t, c.h),
        };
        sprite.color = colour;
        sprite.custom_size = Some(Vec2::new(w, h));
        transform.translation = stage::at(x, y, 5.0);
        visibility.set_if_neq(Visibility::Inherited);
    }
    if let Ok(mut c) = caption.single_mut()
        && c.0 != text
    {
        c.0.clone_from(&text);
    }
    if let Ok(mut v) = band.single_mut() {
        v.set_if_neq(if text.is_empty() { Visibility::Hidden } else { Visibility::Inherited });
    }
    let heading = match (&shown.hold, &shown.cascade) {
        (Some(view), _) => view.heading(&s),
        (None, Some((k, c))) => cascade::heading(&s, *k, c.multiplier),
        (None, None) => shown.free_game.map(|(k, n)| format!("{} {k}/{n}", s.t("JOGO GRÁTIS"))).unwrap_or_default(),
    };
    if let Ok(mut t) = title.single_mut()
        && t.0 != heading
    {
        t.0.clone_from(&heading);
    }
    if let Ok(mut v) = title_band.single_mut() {
        v.set_if_neq(if heading.is_empty() { Visibility::Hidden } else { Visibility::Inherited });
    }
}

/// A win of at least the configured multiple of the bet: a celebration
/// over the reels once the last spin has landed.
fn celebrate_big_win(
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    mut big: Query<(&mut Text2d, &mut Transform, &mut Visibility), With<BigWin>>,
    stage: Res<ReelStage>,
    mut moving: ResMut<crate::pacing::Moving>,
) {
    let Some(window) = stage.window else { return };
    let Ok((mut text, mut transform, mut visibility)) = big.single_mut() else { return };
    let Ok(s) = session.0.lock() else { return };
    let Some(game) = reel_game(&s) else { return };
    let now = time.elapsed_secs();
    let shown = on_screen(&s, game, &reveal, now);
    let multiple = u64::from(s.config().big_win_multiple);
    let last_spin = shown.free_game.is_none_or(|(k, n)| k == n)
        && s.round::<Reels>().is_none_or(|r| r.state.hold.is_none() || shown.hold.as_ref().is_some_and(|v| v.grand.is_some() || v.left == 0))
        && s.round::<Reels>()
            .is_none_or(|r| r.state.base.cascades.is_empty() || shown.cascade.as_ref().is_some_and(|(k, _)| *k == r.state.base.cascades.len()));
    let since = shown.t - shown.motion.rests_at();
    let big = multiple > 0 && shown.win >= multiple.saturating_mul(shown.stake.max(1)) && last_spin && (0.0..BIG_WIN_S).contains(&since);
    if !big {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    }
    moving.0 = true;
    let words = format!("{}\n{}", s.t("GRANDE PRÉMIO"), s.show(shown.win * shown.denom));
    if text.0 != words {
        text.0 = words;
    }
    let (cx, cy) = window.centre();
    *transform = Transform::from_translation(stage::at(cx, cy, 8.0)).with_scale(Vec3::splat(1.0 + 0.08 * (since * 6.0).sin()));
    visibility.set_if_neq(Visibility::Inherited);
}
