//! Help and paytable screens, generated from the paytable itself (M-8,
//! M-31): rules, minimum and maximum bet, the lines drawn, every prize, the
//! double-up and its odds, progressive conditions, how to complain. The
//! host writes each game's page as [`Block`]s (`game_host::help`, the same
//! page `paytable rules` publishes, M-40); this plugin lays them out in pages
//! over the game area and draws them with Bevy (issue 29), paged by touch
//! (or the arrow keys) and closed by the help button (H); its HISTÓRICO
//! button opens the player's history (issue 45).

pub mod page;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::TextBounds;
use game_host::session::Session;

use crate::SessionRes;
use crate::layout::{Area, GAME, WIDTH};
use crate::modes::Mode;
use crate::screens::table;
use crate::stage::{self, Fonts};
use crate::touches::Presses;
pub use page::Block;

pub struct HelpPlugin;

/// Whether the help screen is open (key H, the help button).
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

/// The page shown (from 0), kept while the sheet stays open.
#[derive(Resource, Default)]
struct PageShown(usize);

impl Plugin for HelpPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HelpOpen>().init_resource::<PageShown>().add_systems(Update, (turn_help_pages, show_help).chain());
    }
}

/// The sheet over the game area, and its page turners (design units).
const SHEET: Area = Area::new(0.0, GAME.y, WIDTH, GAME.h);
const TEXT_LEFT: f32 = (WIDTH - page::WIDTH) / 2.0;
const TEXT_TOP: f32 = GAME.y + 100.0;
const PAGE_BUTTONS_Y: f32 = GAME.y + GAME.h - 96.0;

/// A control of the sheet.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Back,
    On,
    /// The player's history (M-34), by touch (issue 45).
    History,
    Close,
}

impl Turn {
    const ALL: [Turn; 4] = [Turn::Back, Turn::On, Turn::History, Turn::Close];

    fn area(self) -> Area {
        let x = match self {
            Turn::Back => TEXT_LEFT,
            Turn::On => TEXT_LEFT + 300.0,
            Turn::History => return crate::layout::HELP_TO_HISTORY,
            Turn::Close => WIDTH - TEXT_LEFT - 260.0,
        };
        Area::new(x, PAGE_BUTTONS_Y, 260.0, 72.0)
    }

    fn label(self, s: &Session) -> &'static str {
        match self {
            Turn::Back => s.t("◀ ANTERIOR"),
            Turn::On => s.t("SEGUINTE ▶"),
            Turn::History => s.t("HISTÓRICO"),
            Turn::Close => s.t("FECHAR"),
        }
    }
}

#[derive(Component)]
struct Sheet;

/// What the sheet on screen was built from.
#[derive(Default, PartialEq)]
struct Built(Option<(Vec<Block>, usize)>);

/// The page turners: touches on the sheet's buttons, and the arrow keys.
#[allow(clippy::too_many_arguments)]
fn turn_help_pages(
    keys: Res<ButtonInput<KeyCode>>,
    presses: Res<Presses>,
    mut open: ResMut<HelpOpen>,
    mut shown: ResMut<PageShown>,
    mut next: ResMut<NextState<Mode>>,
) {
    if !open.0 {
        shown.0 = 0;
        return;
    }
    let mut turns: Vec<Turn> = presses.on_overlay().to_vec().into_iter().filter_map(|p| Turn::ALL.into_iter().find(|t| t.area().contains(p.x, p.y))).collect();
    if keys.just_pressed(KeyCode::PageUp) {
        turns.push(Turn::Back);
    }
    if keys.just_pressed(KeyCode::PageDown) {
        turns.push(Turn::On);
    }
    for t in turns {
        info!("help: {t:?} touched");
        match t {
            // The last page is clamped when the sheet is drawn.
            Turn::Back => shown.0 = shown.0.saturating_sub(1),
            Turn::On => shown.0 += 1,
            Turn::History => {
                open.0 = false;
                next.set(Mode::Recall);
            }
            Turn::Close => open.0 = false,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn show_help(
    mut commands: Commands,
    session: Res<SessionRes>,
    mode: Res<State<Mode>>,
    fonts: Option<Res<Fonts>>,
    mut open: ResMut<HelpOpen>,
    mut shown: ResMut<PageShown>,
    sheets: Query<Entity, With<Sheet>>,
    mut built: Local<Built>,
) {
    // A door or the attendant's key takes the screen from the help.
    if matches!(mode.get(), Mode::Tilt | Mode::Audit) {
        open.0 = false;
    }
    let Some(fonts) = fonts else { return };
    let take_down = |commands: &mut Commands, built: &mut Built| {
        for e in &sheets {
            commands.entity(e).despawn();
        }
        built.0 = None;
    };
    if !open.0 {
        if built.0.is_some() {
            take_down(&mut commands, &mut built);
        }
        return;
    }
    let Ok(s) = session.0.lock() else { return };
    let laid = page::paginate(&game_host::help::document(&*s, s.game()));
    shown.0 = shown.0.min(laid.len().saturating_sub(1));
    let Some(blocks) = laid.get(shown.0) else { return };
    let want = Some((blocks.clone(), shown.0));
    if built.0 == want {
        return;
    }
    take_down(&mut commands, &mut built);
    let title = format!("{} — {}   ({} / {})", s.t("Regras e tabela de prémios"), s.game().title(s.lang()), shown.0 + 1, laid.len());
    let (cx, cy) = SHEET.centre();
    commands
        .spawn((Sheet, Sprite::from_color(Color::srgb(0.02, 0.04, 0.12), Vec2::new(SHEET.w, SHEET.h)), Transform::from_translation(stage::at(cx, cy, 45.0))))
        .with_children(|sheet| {
            let local = |x: f32, y: f32, z: f32| Transform::from_xyz(x - cx, cy - y, z);
            sheet.spawn((stage::text(&fonts, title, 38.0, table::GOLD), Anchor::TOP_LEFT, local(TEXT_LEFT, GAME.y + 32.0, 1.0)));
            let mut y = TEXT_TOP;
            for b in blocks {
                draw_block(sheet, &fonts, b, y, &local);
                y += page::height(b);
            }
            for t in Turn::ALL {
                let live = match t {
                    Turn::Back => shown.0 > 0,
                    Turn::On => shown.0 + 1 < laid.len(),
                    Turn::History | Turn::Close => true,
                };
                let a = t.area();
                let (bx, by) = a.centre();
                let fill = if live { Color::srgb(0.1, 0.3, 0.6) } else { Color::srgb(0.15, 0.15, 0.2) };
                sheet.spawn((Sprite::from_color(fill, Vec2::new(a.w, a.h)), local(bx, by, 1.0))).with_children(|b| {
                    let colour = if live { Color::WHITE } else { Color::srgb(0.4, 0.4, 0.45) };
                    b.spawn((stage::text(&fonts, t.label(&s), 28.0, colour), Transform::from_xyz(0.0, 0.0, 0.5)));
                });
            }
        });
    built.0 = want;
}

/// One block at height `y` of the design screen.
fn draw_block(sheet: &mut ChildSpawnerCommands, fonts: &Fonts, b: &Block, y: f32, local: &dyn Fn(f32, f32, f32) -> Transform) {
    match b {
        Block::Heading(t) => {
            sheet.spawn((stage::text(fonts, t.clone(), page::HEADING_SIZE, table::GOLD), Anchor::TOP_LEFT, local(TEXT_LEFT, y + 8.0, 1.0)));
        }
        Block::Text(t) => {
            sheet.spawn((
                stage::text(fonts, t.clone(), page::TEXT_SIZE, Color::WHITE),
                Anchor::TOP_LEFT,
                TextBounds::new_horizontal(page::WIDTH),
                local(TEXT_LEFT, y, 1.0),
            ));
        }
        Block::Table { header, rows } => {
            let lefts = page::column_lefts(header, rows);
            let x_of = |c: usize| TEXT_LEFT + lefts.get(c).copied().unwrap_or(0.0);
            for (r, row) in std::iter::once(header).chain(rows).enumerate() {
                let ry = y + r as f32 * page::ROW_H;
                if r % 2 == 0 && r > 0 {
                    sheet.spawn((
                        Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.05), Vec2::new(page::WIDTH, page::ROW_H)),
                        local(WIDTH / 2.0, ry + page::ROW_H / 2.0, 0.5),
                    ));
                }
                let colour = if r == 0 { table::GOLD } else { Color::WHITE };
                for (c, cell) in row.iter().enumerate() {
                    sheet.spawn((stage::text(fonts, cell.clone(), page::TABLE_SIZE, colour), Anchor::TOP_LEFT, local(x_of(c), ry + 4.0, 1.0)));
                }
            }
        }
        Block::Lines { rows, lines } => {
            let per_row = page::lines_per_row();
            let reels = lines.first().map_or(0, Vec::len);
            for (i, line) in lines.iter().enumerate() {
                let x = TEXT_LEFT + (i % per_row) as f32 * page::LINE_W;
                let top = y + (i / per_row) as f32 * page::line_row_h(*rows);
                sheet.spawn((stage::text(fonts, (i + 1).to_string(), 20.0, table::GOLD), Anchor::TOP_LEFT, local(x, top, 1.0)));
                let cell = page::LINE_CELL;
                let span = (page::LINE_W - 50.0) / reels.max(1) as f32;
                for (reel, &on) in line.iter().enumerate() {
                    for row in 0..*rows {
                        let colour = if row == on { Color::srgb(1.0, 0.85, 0.1) } else { Color::srgb(0.25, 0.25, 0.3) };
                        let (px, py) = (x + 36.0 + reel as f32 * span + span / 2.0, top + 26.0 + f32::from(row) * cell + cell / 2.0);
                        sheet.spawn((Sprite::from_color(colour, Vec2::new(span - 2.0, cell - 2.0)), local(px, py, 1.0)));
                    }
                }
            }
        }
    }
}
