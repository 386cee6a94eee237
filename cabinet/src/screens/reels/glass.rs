//! The paytable glass beside the reels (issue 45, defect 11): as a
//! cabinet prints its prizes on the glass either side of the reel window,
//! each paying symbol's picture and what a line of it pays at the bet now
//! chosen, in credits, one column per run length. Drawn from the game's
//! compiled paytable and the session's bet; nothing here is decided.

use bevy::prelude::*;
use game_core::reels::{ReelGame, SymbolKind};
use game_host::kinds::reels::Reels;
use game_host::names::Lang;

use super::view::ReelStage;
use crate::SessionRes;
use crate::layout::{self, Area};
use crate::modes::Mode;
use crate::stage::{self, Fonts};

/// What the glass on screen was drawn for: the game, the language and the
/// credits bet per line (its figures follow the bet).
#[derive(Resource, Default, PartialEq)]
struct GlassDrawn(Option<(String, Lang, u64)>);

/// Everything of the glass, taken down whole when what it shows changes.
#[derive(Component)]
struct Glass;

/// The glass's plates as drawn, gold rim included: opaque, so the stage's
/// backdrop is not drawn under them while they show.
#[derive(Resource, Default)]
struct GlassPlates(Vec<Area>);

const GOLD: Color = Color::srgb(0.96, 0.82, 0.29);
const INK: Color = Color::srgb(0.97, 0.95, 0.9);

pub fn add(app: &mut App) {
    app.init_resource::<GlassDrawn>().init_resource::<GlassPlates>().add_systems(Update, draw_pay_glass.after(super::view::build_reel_stage)).add_systems(
        PostUpdate,
        show_the_glass
            .in_set(stage::HoleTheBackdrop)
            .after(crate::screens::decide_whether_the_game_shows)
            .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
    );
}

/// The glass is put away under help and the menus, and while the
/// double-up offer stands beside the reels over its place; decided after
/// this frame's touches (help opened by a touch hides it in that frame).
fn show_the_glass(
    session: Res<SessionRes>,
    game_screen: Res<crate::screens::GameScreen>,
    mode: Res<State<Mode>>,
    plates: Res<GlassPlates>,
    mut hole: ResMut<stage::BackdropHole>,
    mut glasses: Query<&mut Visibility, With<Glass>>,
) {
    let offered = *mode.get() == Mode::Playing && session.0.lock().is_ok_and(|s| s.double_up_offered());
    let shown = game_screen.0 && !offered && !glasses.is_empty();
    let visible = if shown { Visibility::Inherited } else { Visibility::Hidden };
    for mut v in &mut glasses {
        v.set_if_neq(visible);
    }
    let under: &[Area] = if shown { &plates.0 } else { &[] };
    if hole.glass != under {
        hole.glass = under.to_vec();
    }
}

/// The symbols a line pays for, in the paytable's order, and the run
/// lengths any of them pays: the glass's rows and columns.
pub(crate) fn glass_table(game: &ReelGame) -> (Vec<usize>, Vec<usize>) {
    let paying = |sym: usize| game.pays.get(sym).is_some_and(|p| p.iter().any(|&x| x > 0));
    let rows: Vec<usize> = (0..game.symbols.len()).filter(|&s| paying(s) && game.symbols[s].kind != SymbolKind::Scatter).collect();
    let most = game.pays.iter().map(Vec::len).max().unwrap_or(0);
    let counts = (1..most).filter(|&c| rows.iter().any(|&s| game.pays[s].get(c).copied().unwrap_or(0) > 0)).collect();
    (rows, counts)
}

/// A figure's font size that fits its cell with room either side (a bold
/// digit is about 0.7 of the size wide).
fn fitting(text: &str, cell: Area, most: f32) -> f32 {
    let chars = text.chars().count().max(1) as f32;
    ((cell.w - 14.0) / (0.7 * chars)).min(most)
}

/// The size a line of words (mixed case: the shipped face's letters at
/// about 0.56 em, 0.6 with room) is drawn at to stay inside `width` less
/// its margins (issue 75: the glass's subtitle ran past its frame on both
/// sides), at most `most`.
fn fitting_line(text: &str, width: f32, most: f32) -> f32 {
    let chars = text.chars().count().max(1) as f32;
    ((width - 32.0) / (0.6 * chars)).min(most)
}

/// Draw the glass for the reel game on screen (again when the language or
/// the bet changes); none where the frame leaves no room.
#[allow(clippy::too_many_arguments)]
fn draw_pay_glass(
    mut commands: Commands,
    session: Res<SessionRes>,
    stage: Res<ReelStage>,
    fonts: Option<Res<Fonts>>,
    game_screen: Res<crate::screens::GameScreen>,
    mut drawn: ResMut<GlassDrawn>,
    mut plates: ResMut<GlassPlates>,
    glasses: Query<Entity, With<Glass>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let game = s.rules::<Reels>().map(|r| &r.game);
    let per_line = s.game().bet::<Reels>().map_or(1, |b| b.credits_per_line);
    let want = GlassDrawn(game.map(|g| (g.id.clone(), s.lang(), per_line)));
    // Spawned hidden under a sheet; `show_the_glass` keeps it so.
    let visible = if game_screen.0 { Visibility::Inherited } else { Visibility::Hidden };
    if *drawn == want && (!glasses.is_empty() || want.0.is_none()) {
        return;
    }
    for e in &glasses {
        commands.entity(e).despawn();
    }
    *drawn = want;
    plates.0.clear();
    let (Some(game), Some(window)) = (game, stage.window()) else { return };
    let Some(glass) = layout::pay_glass(window) else { return };
    let (rows, counts) = glass_table(game);
    let per_glass = rows.len().div_ceil(2);
    let pay = |sym: usize, c: usize| game.pays[sym].get(c).copied().unwrap_or(0).saturating_mul(per_line);
    // One size for every figure of the glass, the longest's (issue 45,
    // defect 6: "100 1000 5000" once ran together).
    let widest = rows.iter().flat_map(|&sym| counts.iter().map(move |&c| (sym, c))).map(|(sym, c)| pay(sym, c).to_string()).max_by_key(String::len);
    let figure = layout::glass_cells(layout::glass_row(glass[0], 0, per_glass), counts.len())
        .1
        .first()
        .map_or(34.0, |cell| fitting(&widest.unwrap_or_default(), *cell, 34.0));
    let plate = |a: Area, colour: Color, z: f32| {
        (Sprite::from_color(colour, Vec2::new(a.w, a.h)), Transform::from_translation(stage::at(a.centre().0, a.centre().1, z)))
    };
    commands.spawn((Glass, Transform::default(), visible)).with_children(|root| {
        for (half, area) in glass.iter().enumerate() {
            let mine: Vec<usize> = rows.iter().copied().skip(half * per_glass).take(per_glass).collect();
            if mine.is_empty() {
                continue;
            }
            // The gold rim as four edges around the plate (every pixel a
            // sprite covers costs under software rendering, seen or not);
            // the backdrop is not drawn under either (`stage::BackdropHole`).
            for edge in layout::frame_edges(area.inset(-4.0), *area) {
                root.spawn(plate(edge, GOLD, 1.0));
            }
            root.spawn(plate(*area, Color::srgb(0.02, 0.05, 0.16), 1.1));
            plates.0.push(area.inset(-4.0));
            let (cx, top) = (area.centre().0, area.y);
            // A ways game (issue 50) pays per way, per credit of the unit.
            let (title, unit) = if game.ways {
                (s.t("PRÉMIO POR MANEIRA"), s.lang().count(per_line, "crédito por unidade", "créditos por unidade"))
            } else {
                (s.t("PRÉMIO POR LINHA"), s.lang().count(per_line, "crédito por linha", "créditos por linha"))
            };
            let title_size = fitting(title, *area, 28.0);
            root.spawn((stage::text(&fonts, title, title_size, GOLD), Transform::from_translation(stage::at(cx, top + 26.0, 2.0))));
            let note = format!("{} {unit}", s.t("em créditos, com"));
            let note_size = fitting_line(&note, area.w, 20.0);
            root.spawn((stage::text(&fonts, note, note_size, INK), Transform::from_translation(stage::at(cx, top + 58.0, 2.0))));
            let headings = Area::new(area.x, top + layout::GLASS_TITLE_H, area.w, layout::GLASS_HEADING_H);
            let (_, heads) = layout::glass_cells(headings, counts.len());
            for (c, cell) in counts.iter().zip(&heads) {
                root.spawn((stage::text(&fonts, format!("{c} ×"), 24.0, GOLD), Transform::from_translation(stage::at(cell.centre().0, cell.centre().1, 2.0))));
            }
            for (k, &sym) in mine.iter().enumerate() {
                let row = layout::glass_row(*area, k, per_glass);
                let (square, cells) = layout::glass_cells(row, counts.len());
                if k > 0 {
                    root.spawn(plate(Area::new(row.x + 12.0, row.y, row.w - 24.0, 2.0), Color::srgba(0.96, 0.82, 0.29, 0.35), 1.2));
                }
                root.spawn((
                    Sprite { image: stage.symbol(sym), custom_size: Some(Vec2::new(square.w, square.h)), ..default() },
                    Transform::from_translation(stage::at(square.centre().0, square.centre().1, 2.0)),
                ));
                for (&c, cell) in counts.iter().zip(&cells) {
                    let pay = pay(sym, c);
                    let (text, colour) = if pay == 0 { ("—".to_owned(), Color::srgba(0.97, 0.95, 0.9, 0.35)) } else { (pay.to_string(), INK) };
                    root.spawn((stage::text(&fonts, text, figure, colour), Transform::from_translation(stage::at(cell.centre().0, cell.centre().1, 2.0))));
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped games' glasses against their paytables as written
    /// (assets/paytables/*.ron, read by hand): Sevens Classic pays six
    /// symbols, cherries from one in a row; Ocean Treasure nine (not the
    /// scatter chest), from two in a row.
    #[test]
    fn the_glass_lists_every_paying_symbol_and_run_of_the_shipped_games() {
        use paytables::artifact::{Artifact, CompiledGame};
        let load = |id: &str| -> ReelGame {
            let path = format!("{}/../assets/paytables/compiled/{id}.json", env!("CARGO_MANIFEST_DIR"));
            let artifact: Artifact = serde_json::from_slice(&std::fs::read(path).expect("the shipped artifact")).expect("an artifact");
            match artifact.game {
                CompiledGame::Reels(g) => g,
                _ => panic!("{id} is not a reel game"),
            }
        };
        let sevens = load("classic-sevens");
        let (rows, counts) = glass_table(&sevens);
        let ids: Vec<&str> = rows.iter().map(|&s| sevens.symbols[s].id.as_str()).collect();
        assert_eq!(ids, ["CH", "B1", "B2", "B3", "7", "W"]);
        assert_eq!(counts, [1, 2, 3]);
        let ocean = load("ocean-treasure");
        let (rows, counts) = glass_table(&ocean);
        let ids: Vec<&str> = rows.iter().map(|&s| ocean.symbols[s].id.as_str()).collect();
        assert_eq!(ids, ["9", "10", "J", "Q", "K", "A", "F", "SH", "W"]);
        assert_eq!(counts, [2, 3, 4, 5]);
    }
}
