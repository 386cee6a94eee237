//! The player's history (M-34): every round of this session, newest first,
//! with bet, win, the round drawn as the player saw it (symbols, cards, the
//! pocket, the dice, the balls: `round_picture`, issue 45) and the
//! double-up's gambles, and the session's totals; drawn by Bevy over the
//! game area (issue 29) with the meters bar beside it (M-30), opened by the
//! help's HISTÓRICO button, paged by touch (or Page Up/Down) and left by its
//! button, R or Escape.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::TextBounds;
use game_host::session::Session;

use crate::SessionRes;
use crate::layout::{self, Area, GAME, HISTORY_COLUMNS, HISTORY_ROW_H, HISTORY_ROWS, WIDTH};
use crate::modes::Mode;
use crate::screens::round_picture::Painter;
use crate::screens::table;
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct RecallPlugin;

impl Plugin for RecallPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HistoryPage>()
            .add_systems(OnExit(Mode::Recall), take_down_history)
            .add_systems(Update, (turn_history_pages, show_history).chain().run_if(in_state(Mode::Recall)));
    }
}

/// The page of the history shown (0: the newest rounds).
#[derive(Resource, Default)]
struct HistoryPage(usize);

/// Rounds on one page (each drawn as a picture, `layout::history_row`).
pub const ROWS_PER_PAGE: usize = HISTORY_ROWS;
const HEADER_Y: f32 = GAME.y + 112.0;

/// A control of the history screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    Newer,
    Older,
    Back,
}

impl Control {
    const ALL: [Control; 3] = [Control::Newer, Control::Older, Control::Back];

    fn area(self) -> Area {
        let x = match self {
            Control::Newer => 60.0,
            Control::Older => 360.0,
            Control::Back => return layout::HISTORY_BACK,
        };
        Area::new(x, layout::HISTORY_BACK.y, layout::HISTORY_BACK.w, layout::HISTORY_BACK.h)
    }

    fn label(self, s: &Session) -> &'static str {
        match self {
            Control::Newer => s.t("◀ MAIS RECENTES"),
            Control::Older => s.t("ANTERIORES ▶"),
            Control::Back => s.t("VOLTAR AO JOGO"),
        }
    }
}

#[derive(Component)]
struct HistorySheet;

/// The number of pages `rounds` rounds take (at least one, for the
/// empty history's page).
pub fn pages(rounds: usize) -> usize {
    rounds.div_ceil(ROWS_PER_PAGE).max(1)
}

pub use game_host::help::clipped;

fn turn_history_pages(keys: Res<ButtonInput<KeyCode>>, presses: Res<Presses>, mut page: ResMut<HistoryPage>, mut next: ResMut<NextState<Mode>>) {
    let mut pressed: Vec<Control> =
        presses.on_overlay().to_vec().into_iter().filter_map(|p| Control::ALL.into_iter().find(|c| c.area().contains(p.x, p.y))).collect();
    if keys.just_pressed(KeyCode::PageUp) {
        pressed.push(Control::Newer);
    }
    if keys.just_pressed(KeyCode::PageDown) {
        pressed.push(Control::Older);
    }
    for c in pressed {
        info!("history: {c:?} touched");
        match c {
            Control::Newer => page.0 = page.0.saturating_sub(1),
            // The last page is clamped when the sheet is drawn.
            Control::Older => page.0 += 1,
            Control::Back => next.set(Mode::Idle),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn show_history(
    mut commands: Commands,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    mut page: ResMut<HistoryPage>,
    sheets: Query<Entity, With<HistorySheet>>,
    mut built: Local<Option<(usize, usize, bool)>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let rounds = s.history();
    let count = pages(rounds.len());
    page.0 = page.0.min(count - 1);
    let want = (page.0, rounds.len(), s.lang() == game_host::session::Lang::Pt);
    if sheets.iter().next().is_some() && *built == Some(want) {
        return;
    }
    for e in &sheets {
        commands.entity(e).despawn();
    }
    let (cx, cy) = GAME.centre();
    let local = |x: f32, y: f32, z: f32| Transform::from_xyz(x - cx, cy - y, z);
    let bet: u64 = rounds.iter().map(|h| h.stake).sum();
    let won: u64 = rounds.iter().map(|h| h.win).sum();
    commands
        .spawn((
            HistorySheet,
            Sprite::from_color(Color::srgb(0.02, 0.04, 0.12), Vec2::new(GAME.w, GAME.h)),
            Transform::from_translation(stage::at(cx, cy, 45.0)),
        ))
        .with_children(|sheet| {
            let title = format!("{}   ({} / {})", s.t("HISTÓRICO DAS JOGADAS"), page.0 + 1, count);
            sheet.spawn((stage::text(&fonts, title, 38.0, table::GOLD), Anchor::TOP_LEFT, local(HISTORY_COLUMNS[0], GAME.y + 20.0, 1.0)));
            let totals = format!("{}: {}   {}: {}   {}: {}", s.t("Jogadas"), rounds.len(), s.t("apostado|bet"), s.show(bet), s.t("ganho"), s.show(won));
            sheet.spawn((stage::text(&fonts, totals, 28.0, Color::WHITE), Anchor::TOP_LEFT, local(HISTORY_COLUMNS[0], GAME.y + 66.0, 1.0)));
            let header = [s.t("jogada|game"), s.t("jogo|title"), s.t("aposta"), s.t("prémio|win"), s.t("resultado"), "", s.t("dobrar")];
            for (x, h) in HISTORY_COLUMNS.iter().zip(header) {
                sheet.spawn((stage::text(&fonts, h, 26.0, table::GOLD), Anchor::TOP_LEFT, local(*x, HEADER_Y, 1.0)));
            }
            if rounds.is_empty() {
                let none = s.t("Ainda não jogou nesta sessão.");
                let y = layout::history_row(0).y + 12.0;
                sheet.spawn((stage::text(&fonts, none, 26.0, Color::WHITE), Anchor::TOP_LEFT, local(HISTORY_COLUMNS[0], y, 1.0)));
            }
            let mut painter = Painter { sheet, art: &mut art, images: &mut images, fonts: &fonts, local: &local };
            for (i, h) in rounds.iter().rev().skip(page.0 * ROWS_PER_PAGE).take(ROWS_PER_PAGE).enumerate() {
                let row = layout::history_row(i);
                if i % 2 == 0 {
                    let (x, y) = row.centre();
                    painter.sheet.spawn((Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.05), Vec2::new(row.w, row.h)), local(x, y, 0.5)));
                }
                let gambles = h
                    .gambles
                    .iter()
                    .map(|g| format!("{}/{}", game_host::names::colour(g.pick, s.lang()), game_host::names::colour(g.drawn, s.lang())))
                    .collect::<Vec<_>>()
                    .join(" ");
                let picture = h.picture(s.lang());
                let text_y = row.y + 12.0;
                let cells = [
                    (HISTORY_COLUMNS[0], h.round.to_string()),
                    (HISTORY_COLUMNS[1], clipped(s.games().iter().find(|g| g.id() == h.game).map_or(h.game.as_str(), |g| g.title(s.lang())), 20)),
                    (HISTORY_COLUMNS[2], s.show(h.stake)),
                    (HISTORY_COLUMNS[3], s.show(h.win)),
                ];
                for (x, cell) in cells {
                    painter.sheet.spawn((stage::text(&fonts, cell, 24.0, Color::WHITE), Anchor::TOP_LEFT, local(x, text_y, 1.0)));
                }
                // The caption and the gambles, wrapped in their columns.
                for (k, (text, size)) in [(picture.caption.clone(), 20.0), (gambles, 20.0)].into_iter().enumerate() {
                    let right = HISTORY_COLUMNS.get(k + 6).copied().unwrap_or(WIDTH - 40.0);
                    let width = right - HISTORY_COLUMNS[k + 5] - 20.0;
                    painter.sheet.spawn((
                        stage::text(&fonts, text, size, Color::WHITE),
                        TextBounds::new(width, HISTORY_ROW_H - 12.0),
                        Anchor::TOP_LEFT,
                        local(HISTORY_COLUMNS[k + 5], text_y, 1.0),
                    ));
                }
                painter.draw(i, s.art_family(&h.game), &picture.scene);
            }
            for c in Control::ALL {
                let live = match c {
                    Control::Newer => page.0 > 0,
                    Control::Older => page.0 + 1 < count,
                    Control::Back => true,
                };
                let a = c.area();
                let (bx, by) = a.centre();
                let fill = if live { Color::srgb(0.1, 0.3, 0.6) } else { Color::srgb(0.15, 0.15, 0.2) };
                sheet.spawn((Sprite::from_color(fill, Vec2::new(a.w, a.h)), local(bx, by, 1.0))).with_children(|b| {
                    let colour = if live { Color::WHITE } else { Color::srgb(0.4, 0.4, 0.45) };
                    b.spawn((stage::text(&fonts, c.label(&s), 26.0, colour), Transform::from_xyz(0.0, 0.0, 0.5)));
                });
            }
        });
    *built = Some(want);
}

fn take_down_history(mut commands: Commands, sheets: Query<Entity, With<HistorySheet>>, mut page: ResMut<HistoryPage>) {
    for e in &sheets {
        commands.entity(e).despawn();
    }
    page.0 = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_pages_hold_every_round_and_the_empty_history_has_one() {
        assert_eq!(pages(0), 1);
        assert_eq!(pages(1), 1);
        assert_eq!(pages(ROWS_PER_PAGE), 1);
        assert_eq!(pages(ROWS_PER_PAGE + 1), 2);
        assert_eq!(pages(3 * ROWS_PER_PAGE), 3);
    }

    #[test]
    fn a_long_outcome_is_cut_with_an_ellipsis_and_a_short_one_is_kept() {
        assert_eq!(clipped("abc", 5), "abc");
        assert_eq!(clipped("abcdef", 5), "abcd…");
        assert_eq!(clipped("ééééé", 5), "ééééé");
        assert_eq!(clipped("éééééé", 5).chars().count(), 5);
    }
}
