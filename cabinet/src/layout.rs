//! Where everything stands on the cabinet's screen (issue 29), in design
//! units of a 1920 × 1080 screen: x to the right and y down from the
//! top-left corner. The stage is scaled whole to the window (a 1280 × 720
//! window shows it at two thirds) and centred, so every screen, the window
//! tests and the touch targets share these figures. Plain geometry: no
//! Bevy, no egui (the window tests include this file).

/// The design screen.
pub const WIDTH: f32 = 1920.0;
pub const HEIGHT: f32 = 1080.0;

/// A rectangle of the design screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Area {
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> Area {
        Area { x, y, w, h }
    }

    pub fn centre(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }

    pub fn contains(&self, x: f32, y: f32) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }

    /// Whether the two areas share any surface (touching edges do not).
    #[cfg(test)]
    pub fn overlaps(&self, other: &Area) -> bool {
        self.x < other.x + other.w && other.x < self.x + self.w && self.y < other.y + other.h && other.y < self.y + self.h
    }

    /// The area shrunk by `by` on every side.
    pub fn inset(&self, by: f32) -> Area {
        Area::new(self.x + by, self.y + by, (self.w - 2.0 * by).max(0.0), (self.h - 2.0 * by).max(0.0))
    }
}

/// The top bar: machine, game, denomination, progressives (M-30).
pub const TOP_BAR: Area = Area::new(0.0, 0.0, WIDTH, 96.0);
/// The game: reels, cards, tables.
pub const GAME: Area = Area::new(0.0, 96.0, WIDTH, 720.0);
/// The meters bar: credit, bet and win, large and always visible (M-30),
/// and the message line.
pub const METERS_BAR: Area = Area::new(0.0, 816.0, WIDTH, 64.0);
/// The touch button deck.
pub const DECK: Area = Area::new(0.0, 880.0, WIDTH, 200.0);

/// The buttons of the deck, left to right as cabinets lay them out: the
/// service buttons, the money, the bet, and play at the player's right hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeckButton {
    Help,
    Menu,
    Language,
    Denomination,
    CashOut,
    Lines,
    BetMinus,
    BetPlus,
    MaxBet,
    Play,
}

impl DeckButton {
    pub const ALL: [DeckButton; 10] = [
        DeckButton::Help,
        DeckButton::Menu,
        DeckButton::Language,
        DeckButton::Denomination,
        DeckButton::CashOut,
        DeckButton::Lines,
        DeckButton::BetMinus,
        DeckButton::BetPlus,
        DeckButton::MaxBet,
        DeckButton::Play,
    ];

    /// The art kit's file of the button (`assets/art/buttons`).
    pub fn art(self) -> &'static str {
        match self {
            DeckButton::Help => "buttons/help.svg",
            DeckButton::Menu => "buttons/menu.svg",
            DeckButton::Language => "buttons/language.svg",
            DeckButton::Denomination => "buttons/denomination.svg",
            DeckButton::CashOut => "buttons/cash-out.svg",
            DeckButton::Lines => "buttons/lines.svg",
            DeckButton::BetMinus => "buttons/bet-minus.svg",
            DeckButton::BetPlus => "buttons/bet-plus.svg",
            DeckButton::MaxBet => "buttons/max-bet.svg",
            DeckButton::Play => "buttons/play.svg",
        }
    }

    /// Where the button stands: a finger-sized 180 × 120 (about 3.5 cm on
    /// a 27-inch screen), its label under it.
    pub fn area(self) -> Area {
        let i = DeckButton::ALL.iter().position(|&b| b == self).unwrap_or(0) as f32;
        Area::new(DECK_MARGIN + i * (BUTTON_W + BUTTON_GAP), DECK.y + 10.0, BUTTON_W, BUTTON_H)
    }

    /// The centre of the button's label.
    pub fn label_centre(self) -> (f32, f32) {
        let a = self.area();
        (a.x + a.w / 2.0, a.bottom() + 34.0)
    }

    /// The button under a touch at (x, y), if any.
    pub fn at(x: f32, y: f32) -> Option<DeckButton> {
        DeckButton::ALL.into_iter().find(|b| b.area().contains(x, y))
    }
}

const BUTTON_W: f32 = 180.0;
const BUTTON_H: f32 = 120.0;
const BUTTON_GAP: f32 = 12.0;
const DECK_MARGIN: f32 = (WIDTH - 10.0 * BUTTON_W - 9.0 * BUTTON_GAP) / 2.0;

/// The height of the bands above and below a reel frame: the round's
/// title (free games) above, the win line's caption below (issue 45: never
/// over a row of symbols).
pub const REEL_BAND_H: f32 = 48.0;

/// The message line at the foot of the game area, above the meters bar
/// (`meters_bar`): no game draws there.
pub const MESSAGE_LINE: Area = Area::new(0.0, METERS_BAR.y - 32.0, WIDTH, 32.0);

/// The reel window of a game of `reels` × `rows`: square cells as large as
/// the game area allows inside the reel frame with a band above and below
/// it, centred.
pub fn reel_window(reels: usize, rows: usize) -> Area {
    let (reels, rows) = (reels.max(1) as f32, rows.max(1) as f32);
    let room = Area::new(GAME.x, GAME.y, GAME.w, MESSAGE_LINE.y - GAME.y);
    let tall = room.h - 2.0 * (28.0 + REEL_BAND_H + 4.0);
    let cell = (1400.0 / reels).min(tall / rows).min(300.0);
    let (w, h) = (cell * reels, cell * rows);
    let (cx, cy) = room.centre();
    Area::new(cx - w / 2.0, cy - h / 2.0, w, h)
}

/// The cell of `reel` and `row` in a reel window.
pub fn reel_cell(window: Area, reels: usize, rows: usize, reel: usize, row: usize) -> Area {
    let (w, h) = (window.w / reels.max(1) as f32, window.h / rows.max(1) as f32);
    Area::new(window.x + reel as f32 * w, window.y + row as f32 * h, w, h)
}

/// The reel frame around a reel window.
pub fn reel_frame(window: Area) -> Area {
    window.inset(-28.0)
}

/// The four edges of `frame` around `window` (top, bottom, left, right):
/// the frame drawn without the window's hole.
pub fn frame_edges(frame: Area, window: Area) -> [Area; 4] {
    [
        Area::new(frame.x, frame.y, frame.w, window.y - frame.y),
        Area::new(frame.x, window.bottom(), frame.w, frame.bottom() - window.bottom()),
        Area::new(frame.x, window.y, window.x - frame.x, window.h),
        Area::new(window.x + window.w, window.y, frame.x + frame.w - window.x - window.w, window.h),
    ]
}

/// The most pieces `backdrop_pieces` cuts the backdrop into (one sprite
/// each); holes that would need more leave the backdrop whole.
pub const BACKDROP_PIECES: usize = 16;

/// Where the stage's backdrop is drawn (issue 45: under software
/// rendering every pixel a sprite covers costs, seen or not): the whole
/// screen in the attract loop; otherwise the game area less the `holes`
/// (what a game draws opaque over it: the reel window, the paytable
/// glass), and the deck — never under the top bar and the meters bar,
/// which are opaque. Pieces never overlap: the game area is cut in
/// columns at the holes' edges, each column less the holes across it, and
/// side by side pieces of the same rows joined.
pub fn backdrop_pieces(whole: bool, holes: &[Area]) -> Vec<Area> {
    let screen = Area::new(0.0, 0.0, WIDTH, HEIGHT);
    if whole {
        return vec![screen];
    }
    let holes: Vec<Area> = holes.iter().map(|h| clip(*h, GAME)).filter(|h| h.w > 0.0 && h.h > 0.0).collect();
    let mut xs: Vec<f32> = vec![GAME.x, GAME.x + GAME.w];
    xs.extend(holes.iter().flat_map(|h| [h.x, h.x + h.w]));
    xs.sort_by(f32::total_cmp);
    xs.dedup();
    // (left, right, top, bottom) of each piece, joined across columns.
    let mut cut: Vec<(f32, f32, f32, f32)> = Vec::new();
    for column in xs.windows(2) {
        let (x0, x1) = (column[0], column[1]);
        let mut across: Vec<(f32, f32)> = holes.iter().filter(|h| h.x <= x0 && h.x + h.w >= x1).map(|h| (h.y, h.bottom())).collect();
        across.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut free = Vec::new();
        let mut y = GAME.y;
        for (top, bottom) in across {
            if top > y {
                free.push((y, top));
            }
            y = y.max(bottom);
        }
        if y < GAME.bottom() {
            free.push((y, GAME.bottom()));
        }
        for (top, bottom) in free {
            match cut.iter_mut().find(|p| p.1 == x0 && p.2 == top && p.3 == bottom) {
                Some(p) => p.1 = x1,
                None => cut.push((x0, x1, top, bottom)),
            }
        }
    }
    let mut pieces: Vec<Area> = cut.into_iter().map(|(x0, x1, top, bottom)| Area::new(x0, top, x1 - x0, bottom - top)).collect();
    pieces.push(DECK);
    pieces.retain(|p| p.w > 0.0 && p.h > 0.0);
    if pieces.len() > BACKDROP_PIECES {
        return vec![GAME, DECK];
    }
    pieces
}

/// `a` cut to what lies inside `within`.
fn clip(a: Area, within: Area) -> Area {
    let (x0, y0) = (a.x.max(within.x), a.y.max(within.y));
    let (x1, y1) = ((a.x + a.w).min(within.x + within.w), a.bottom().min(within.bottom()));
    Area::new(x0, y0, (x1 - x0).max(0.0), (y1 - y0).max(0.0))
}

/// The band under a reel frame: the win line's caption.
pub fn reel_caption(window: Area) -> Area {
    let frame = reel_frame(window);
    Area::new(frame.x, frame.bottom() + 2.0, frame.w, REEL_BAND_H)
}

/// The band over a reel frame: the round's title (free games).
pub fn reel_title(window: Area) -> Area {
    let frame = reel_frame(window);
    Area::new(frame.x, frame.y - 2.0 - REEL_BAND_H, frame.w, REEL_BAND_H)
}

/// The paytable glass either side of a reel frame (issue 45, defect 11):
/// a cabinet prints its prizes on the glass beside the reels. The room left
/// and right of the frame, less a margin, when it is wide enough for the
/// symbol and its pays (a 3 × 1 classic and a 5 × 3 video game have it).
pub fn pay_glass(window: Area) -> Option<[Area; 2]> {
    let frame = reel_frame(window);
    let room = frame.x - GAME.x;
    if room < 360.0 {
        return None;
    }
    let margin = 32.0;
    let h = (frame.h + 2.0 * (REEL_BAND_H + 2.0)).clamp(480.0, MESSAGE_LINE.y - GAME.y - 64.0);
    let y = frame.centre().1 - h / 2.0;
    let w = room - 2.0 * margin;
    Some([Area::new(GAME.x + margin, y, w, h), Area::new(frame.x + frame.w + margin, y, w, h)])
}

/// The title band at the top of a paytable glass.
pub const GLASS_TITLE_H: f32 = 76.0;
/// The column headings' band under it.
pub const GLASS_HEADING_H: f32 = 40.0;

/// Row `row` of `rows` of a paytable glass, under its title and headings.
pub fn glass_row(glass: Area, row: usize, rows: usize) -> Area {
    let top = glass.y + GLASS_TITLE_H + GLASS_HEADING_H;
    let h = (glass.bottom() - 12.0 - top) / rows.max(1) as f32;
    Area::new(glass.x, top + row as f32 * h, glass.w, h)
}

/// Within a glass's row (or its headings' band, `row` = the band): the
/// symbol's square and the pay column `k` of `columns`.
pub fn glass_cells(row: Area, columns: usize) -> (Area, Vec<Area>) {
    let side = (row.h - 12.0).clamp(24.0, 96.0);
    let symbol = Area::new(row.x + 16.0, row.centre().1 - side / 2.0, side, side);
    let x0 = symbol.x + side + 12.0;
    let w = (row.x + row.w - 12.0 - x0) / columns.max(1) as f32;
    (symbol, (0..columns).map(|k| Area::new(x0 + k as f32 * w, row.y, w, row.h)).collect())
}

/// The game menu's tiles: up to ten games five to a row in large tiles;
/// up to 21 seven to a row in compact ones, so that three rows still
/// clear the denominations under them; more (up to 32) eight to a row in
/// four rows of small ones.
const MENU_TILES_PER_ROW: usize = 5;
const MENU_COMPACT_PER_ROW: usize = 7;
const MENU_SMALL_PER_ROW: usize = 8;
/// The most games the menu lays out.
pub const MENU_MOST_GAMES: usize = 4 * MENU_SMALL_PER_ROW;

/// The tile of game `i` of `n` in the game menu.
pub fn menu_tile(i: usize, n: usize) -> Area {
    let (per_row, w, h, gap, top) = if n <= 2 * MENU_TILES_PER_ROW {
        (MENU_TILES_PER_ROW, 330.0, 210.0, 24.0, 80.0)
    } else if n <= 3 * MENU_COMPACT_PER_ROW {
        (MENU_COMPACT_PER_ROW, 240.0, 150.0, 14.0, 70.0)
    } else {
        (MENU_SMALL_PER_ROW, 220.0, 120.0, 8.0, 56.0)
    };
    let per_row = n.clamp(1, per_row);
    let (row, col) = (i / per_row, i % per_row);
    let in_row = (n - row * per_row).min(per_row) as f32;
    let row_w = in_row * w + (in_row - 1.0) * gap;
    Area::new((WIDTH - row_w) / 2.0 + col as f32 * (w + gap), GAME.y + top + row as f32 * (h + gap), w, h)
}

/// A card table's decision button `k` (blackjack's hit, stand, double…,
/// keys F1–F7): seven in a row across the table, under the hands.
pub fn decision_button(k: usize) -> Area {
    Area::new(60.0 + k as f32 * 260.0, 700.0, 240.0, 72.0)
}

/// Where a tile's logo (2:1) sits: across the tile above its two lines of
/// text (the game's name and family).
pub fn menu_logo(tile: Area) -> Area {
    let w = (tile.w - 30.0).min(2.0 * (tile.h - 60.0));
    Area::new(tile.x + (tile.w - w) / 2.0, tile.y + 12.0, w, w / 2.0)
}

/// The button of denomination `i` of `n` in the game menu, in one row
/// under the tiles.
pub fn menu_denomination(i: usize, n: usize) -> Area {
    let (w, gap) = (160.0, 16.0);
    let row_w = n as f32 * w + (n as f32 - 1.0) * gap;
    Area::new((WIDTH - row_w) / 2.0 + i as f32 * (w + gap), GAME.bottom() - 120.0, w, 80.0)
}

/// How the design screen sits in a window of `width` × `height` logical
/// pixels: its scale and the offset of its top-left corner. A landscape
/// window shows it whole and centred; a portrait one (taller than wide,
/// 1080 × 1920) stands it at the bottom, in the player's reach, and leaves
/// the top to the top box (`top_box`).
pub fn fit(width: f32, height: f32) -> (f32, f32, f32) {
    let scale = (width / WIDTH).min(height / HEIGHT).max(1e-3);
    let spare = height - HEIGHT * scale;
    (scale, (width - WIDTH * scale) / 2.0, if height > width { spare } else { spare / 2.0 })
}

/// The top box of a portrait window, on the design screen (above the
/// stage: its y is negative); none in landscape.
pub fn top_box(width: f32, height: f32) -> Option<Area> {
    let (scale, _, oy) = fit(width, height);
    (height > width && oy >= 1.0).then(|| Area::new(0.0, -oy / scale, WIDTH, oy / scale))
}

/// The player's history (M-34; issue 45, defect 4): rounds on a page, and
/// where each round's row, its picture and a reel window's symbols stand.
pub const HISTORY_ROWS: usize = 4;
pub const HISTORY_ROW_H: f32 = 112.0;
/// The columns: round, game, bet, win, picture, caption, double-up.
pub const HISTORY_COLUMNS: [f32; 7] = [60.0, 170.0, 470.0, 630.0, 790.0, 1420.0, 1690.0];
const HISTORY_TOP: f32 = GAME.y + 150.0;
/// The help sheet's button to the history, and the history's back to the game.
pub const HELP_TO_HISTORY: Area = Area::new(WIDTH - 80.0 - 560.0, GAME.y + GAME.h - 96.0, 260.0, 72.0);
pub const HISTORY_BACK: Area = Area::new(WIDTH - 380.0, GAME.y + GAME.h - 88.0, 280.0, 68.0);
/// A history card picture: its label's height above the hand, and how far
/// each card of a hand lies from the one before, as a share of its width.
pub const HISTORY_LABEL_H: f32 = 23.0;
pub const HISTORY_CARD_STEP: f32 = 0.62;

/// Row `i` of a history page (0 at the top).
pub fn history_row(i: usize) -> Area {
    Area::new(40.0, HISTORY_TOP + i as f32 * HISTORY_ROW_H, WIDTH - 80.0, HISTORY_ROW_H)
}

/// Where row `i`'s picture is drawn.
pub fn history_picture(i: usize) -> Area {
    let row = history_row(i);
    Area::new(HISTORY_COLUMNS[4], row.y + 6.0, HISTORY_COLUMNS[5] - HISTORY_COLUMNS[4] - 20.0, row.h - 12.0)
}

/// The square of the symbol on reel `reel`, row `row`, in row `i`'s picture
/// of a reel window of `reels` × `rows`.
pub fn history_symbol(i: usize, reels: usize, rows: usize, reel: usize, row: usize) -> Area {
    let p = history_picture(i);
    let side = (p.h / rows.max(1) as f32).min(p.w / reels.max(1) as f32);
    Area::new(p.x + reel as f32 * side, p.y + row as f32 * side, side, side)
}

/// Card `k` of a hand whose first card's left edge is at `x`, in a history
/// picture `picture` (a card's width to its height as the art kit's 250 : 350).
pub fn history_card(picture: Area, x: f32, k: usize) -> Area {
    let h = picture.h - HISTORY_LABEL_H;
    let w = h * 250.0 / 350.0;
    Area::new(x + k as f32 * w * HISTORY_CARD_STEP, picture.y + HISTORY_LABEL_H, w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_screen_is_cut_in_four_bands_without_overlap() {
        assert_eq!(TOP_BAR.bottom(), GAME.y);
        assert_eq!(GAME.bottom(), METERS_BAR.y);
        assert_eq!(METERS_BAR.bottom(), DECK.y);
        assert_eq!(DECK.bottom(), HEIGHT);
    }

    #[test]
    fn the_deck_buttons_are_finger_sized_apart_and_on_the_screen() {
        for (i, b) in DeckButton::ALL.iter().enumerate() {
            let a = b.area();
            assert!(a.w >= 150.0 && a.h >= 100.0, "{b:?} {a:?}");
            assert!(a.x >= 0.0 && a.x + a.w <= WIDTH && a.y >= DECK.y && a.bottom() <= DECK.bottom(), "{b:?} {a:?}");
            let (lx, ly) = b.label_centre();
            assert!(ly < DECK.bottom() && (lx - a.centre().0).abs() < 1e-3);
            assert_eq!(DeckButton::at(a.centre().0, a.centre().1), Some(*b));
            if let Some(next) = DeckButton::ALL.get(i + 1) {
                assert!(next.area().x - (a.x + a.w) >= 10.0, "{b:?} and {next:?} touch");
            }
        }
        assert_eq!(DeckButton::at(3.0, 950.0), None, "the margin is no button");
        assert_eq!(DeckButton::at(960.0, 500.0), None, "the game is no button");
    }

    #[test]
    fn a_reel_window_fits_its_frame_inside_the_game() {
        for (reels, rows) in [(3, 1), (3, 3), (5, 3), (5, 4), (6, 5)] {
            let w = reel_window(reels, rows);
            let f = reel_frame(w);
            assert!(f.x >= 0.0 && f.x + f.w <= WIDTH && f.y >= GAME.y && f.bottom() <= GAME.bottom(), "{reels}×{rows}: {f:?}");
            let c = reel_cell(w, reels, rows, reels - 1, rows - 1);
            assert!((c.x + c.w - (w.x + w.w)).abs() < 1e-3 && (c.bottom() - w.bottom()).abs() < 1e-3);
            assert!((c.w - c.h).abs() < 1e-3, "square cells");
        }
    }

    /// Issue 45: the caption and title bands lie in the game area, outside
    /// the reel frame (never over a row of symbols); the frame's four edges
    /// tile the frame less the window exactly.
    #[test]
    fn the_reels_caption_and_title_stand_outside_the_frame() {
        let apart = |a: Area, b: Area| a.x + a.w <= b.x || b.x + b.w <= a.x || a.bottom() <= b.y || b.bottom() <= a.y;
        for (reels, rows) in [(3, 1), (3, 3), (5, 3), (5, 4), (6, 5)] {
            let w = reel_window(reels, rows);
            let f = reel_frame(w);
            for band in [reel_caption(w), reel_title(w)] {
                assert!(band.y >= GAME.y && band.bottom() <= MESSAGE_LINE.y, "{reels}×{rows}: {band:?} is not above the message line");
                assert!(apart(band, f), "{reels}×{rows}: {band:?} over the frame {f:?}");
                assert!(band.h >= REEL_BAND_H);
            }
            let edges = frame_edges(f, w);
            let area: f32 = edges.iter().map(|e| e.w * e.h).sum();
            assert!((area - (f.w * f.h - w.w * w.h)).abs() < 1.0, "{reels}×{rows}");
            for (i, a) in edges.iter().enumerate() {
                assert!(apart(*a, w), "{a:?} over the window");
                for b in &edges[i + 1..] {
                    assert!(apart(*a, *b), "{a:?} and {b:?}");
                }
            }
        }
        // Three reels of one row: larger than before (220-unit cells), not lost in the screen.
        assert!(reel_window(3, 1).h >= 280.0);
    }

    /// The backdrop's pieces cover the game area less the hole, and the
    /// deck, without overlapping (a brute-force count over a grid of points).
    #[test]
    fn the_paytable_glass_stands_beside_the_frame_and_its_cells_apart() {
        let apart = |a: Area, b: Area| a.x + a.w <= b.x || b.x + b.w <= a.x || a.bottom() <= b.y || b.bottom() <= a.y;
        // The shipped games: Sevens Classic's six paying symbols, three a
        // glass; Ocean Treasure's ten, five a glass.
        for (reels, rows, per_glass) in [(3, 1, 3), (5, 3, 5)] {
            let w = reel_window(reels, rows);
            let frame = reel_frame(w);
            let [left, right] = pay_glass(w).expect("a 3 × 1 and a 5 × 3 game have room for the glass");
            for g in [left, right] {
                assert!(apart(g, frame) && g.w >= 360.0, "{g:?} beside {frame:?}");
                assert!(g.y >= GAME.y && g.bottom() <= MESSAGE_LINE.y, "{g:?} inside the game area");
                let row = glass_row(g, per_glass - 1, per_glass);
                assert!(row.y >= g.y + GLASS_TITLE_H + GLASS_HEADING_H && row.bottom() <= g.bottom());
                let (symbol, cells) = glass_cells(row, 3);
                assert!(symbol.h >= 64.0, "a symbol a player can read: {symbol:?}");
                assert!(cells.iter().all(|c| apart(*c, symbol) && c.w >= 90.0 && c.x + c.w <= g.x + g.w), "{cells:?}");
            }
        }
        // A game wider than that leaves no room: no glass.
        assert_eq!(pay_glass(reel_window(7, 3)), None);
    }

    #[test]
    fn the_backdrop_is_drawn_only_where_it_is_seen() {
        let window = reel_window(5, 3);
        // The reel window alone, and with the paytable glass either side
        // (its gold rim 4 units out), as a reel game's screen has them.
        let glass: Vec<Area> = pay_glass(window).expect("a five-reel window leaves room for the glass").iter().map(|g| g.inset(-4.0)).collect();
        for holes in [vec![window], [vec![window], glass.clone()].concat()] {
            let pieces = backdrop_pieces(false, &holes);
            assert!(pieces.len() <= BACKDROP_PIECES, "{pieces:?}");
            let inside = |a: &Area, x: f32, y: f32| x >= a.x && x < a.x + a.w && y >= a.y && y < a.bottom();
            let mut checked = 0;
            for yi in 0..540 {
                for xi in 0..960 {
                    let (x, y) = (xi as f32 * 2.0 + 1.0, yi as f32 * 2.0 + 1.0);
                    let covering = pieces.iter().filter(|p| inside(p, x, y)).count();
                    let holed = holes.iter().any(|h| inside(h, x, y));
                    let want = usize::from((inside(&GAME, x, y) && !holed) || inside(&DECK, x, y));
                    assert_eq!(covering, want, "({x}, {y}) under {} holes", holes.len());
                    checked += 1;
                }
            }
            assert_eq!(checked, 960 * 540);
        }
        assert_eq!(backdrop_pieces(true, &[window]), vec![Area::new(0.0, 0.0, WIDTH, HEIGHT)]);
        assert_eq!(backdrop_pieces(false, &[]), vec![GAME, DECK]);
    }

    #[test]
    fn the_game_menu_holds_up_to_32_games_and_eight_denominations_apart_in_the_game_area() {
        let inside = |a: Area| a.x >= 0.0 && a.x + a.w <= WIDTH && a.y >= GAME.y && a.bottom() <= GAME.bottom();
        let apart = |a: Area, b: Area| a.x + a.w <= b.x || b.x + b.w <= a.x || a.bottom() <= b.y || b.bottom() <= a.y;
        for n in 1..=MENU_MOST_GAMES {
            let tiles: Vec<Area> = (0..n).map(|i| menu_tile(i, n)).collect();
            let denoms: Vec<Area> = (0..8).map(|i| menu_denomination(i, 8)).collect();
            // The "DENOMINATION" title, 22 px high, 22 px above the buttons.
            assert!(tiles.iter().all(|t| t.bottom() <= denoms[0].y - 36.0), "{n} games reach the denominations' title");
            for (i, a) in tiles.iter().chain(&denoms).enumerate() {
                assert!(inside(*a), "{n} games: {a:?}");
                for b in tiles.iter().chain(&denoms).skip(i + 1) {
                    assert!(apart(*a, *b), "{n} games: {a:?} and {b:?} overlap");
                }
            }
        }
        // Five games: one row, centred.
        let (first, last) = (menu_tile(0, 5), menu_tile(4, 5));
        assert!((first.x - (WIDTH - last.x - last.w)).abs() < 1e-3 && first.y == last.y);
    }

    #[test]
    fn the_stage_fits_any_window_whole_and_centred() {
        assert_eq!(fit(1920.0, 1080.0), (1.0, 0.0, 0.0));
        let (s, x, y) = fit(1280.0, 720.0);
        assert!((s - 2.0 / 3.0).abs() < 1e-6 && x == 0.0 && y == 0.0);
        assert_eq!(top_box(1280.0, 720.0), None);
        assert_eq!(top_box(1920.0, 1200.0), None, "a taller landscape window: centred, no top box");
        // Portrait: the whole stage across the width, at the bottom; the
        // top box above it is the rest of the window.
        let (s, x, y) = fit(1080.0, 1920.0);
        assert!((s - 0.5625).abs() < 1e-6 && x == 0.0 && (y - (1920.0 - 607.5)).abs() < 1e-3);
        let b = top_box(1080.0, 1920.0).expect("a portrait window has a top box");
        assert!((b.y + b.h).abs() < 1e-3 && (b.h * s - (1920.0 - 607.5)).abs() < 1e-2 && b.w == WIDTH);
    }

    #[test]
    fn the_history_s_pictures_stand_in_their_rows_above_the_buttons() {
        for i in 0..HISTORY_ROWS {
            let (row, p) = (history_row(i), history_picture(i));
            assert!(p.y >= row.y && p.bottom() <= row.bottom() && p.x >= HISTORY_COLUMNS[4] && p.x + p.w <= HISTORY_COLUMNS[5]);
            // A 5 × 3 window and a 3 × 1 one fit the picture.
            for (reels, rows) in [(5, 3), (3, 1)] {
                let last = history_symbol(i, reels, rows, reels - 1, rows - 1);
                assert!(last.x + last.w <= p.x + p.w + 0.01 && last.bottom() <= p.bottom() + 0.01, "{reels} × {rows}");
            }
        }
        // The page's buttons (88 above the game's bottom) stay clear.
        assert!(history_row(HISTORY_ROWS - 1).bottom() <= GAME.bottom() - 88.0);
    }
}
