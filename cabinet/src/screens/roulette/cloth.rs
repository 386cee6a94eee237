//! The cloth as the roulette screen lays it out (design units, y down):
//! the zero column, the 12 × 3 grid of numbers (row r = 3r−2 … 3r, the
//! columns from 34, 35 and 36, AR 19 g), the columns' "2 para 1", the
//! dozens and the even chances; every spot's chip stands on its anchor
//! (a cell's centre, the edge or corner between the numbers it covers).
//! A touch goes to the nearest anchor, a cell's centre counting closer,
//! so that a finger on a number plays it and a finger on a line plays
//! the numbers the line joins. Pure geometry: the window tests use it too.

use game_core::roulette::{DOUBLE_ZERO, Spot, Wheel, inside_bets};

use crate::layout::Area;

/// The grid of numbers: 12 columns of three cells.
pub const GRID_X: f32 = 760.0;
pub const GRID_Y: f32 = 150.0;
pub const CELL_W: f32 = 86.0;
pub const CELL_H: f32 = 78.0;
pub const ZERO_W: f32 = 80.0;
/// The outside rows under the grid.
pub const DOZEN_H: f32 = 62.0;
pub const EVEN_H: f32 = 62.0;
pub const COLUMN_W: f32 = 96.0;

/// The whole cloth, the zero and the columns' cells included.
pub fn area() -> Area {
    Area::new(GRID_X - ZERO_W, GRID_Y, ZERO_W + 12.0 * CELL_W + COLUMN_W, 3.0 * CELL_H + DOZEN_H + EVEN_H)
}

/// A number's cell (1–36).
pub fn number_cell(n: u8) -> Area {
    let r = f32::from((n - 1) / 3);
    let c = f32::from((n - 1) % 3);
    Area::new(GRID_X + r * CELL_W, GRID_Y + (2.0 - c) * CELL_H, CELL_W, CELL_H)
}

/// The zero's cell, and on a wheel with 00 the two halves (00 on top, by 3).
pub fn zero_cell(wheel: Wheel, pocket: u8) -> Area {
    let h = 3.0 * CELL_H;
    match (wheel.has_double_zero(), pocket) {
        (false, _) => Area::new(GRID_X - ZERO_W, GRID_Y, ZERO_W, h),
        (true, DOUBLE_ZERO) => Area::new(GRID_X - ZERO_W, GRID_Y, ZERO_W, h / 2.0),
        (true, _) => Area::new(GRID_X - ZERO_W, GRID_Y + h / 2.0, ZERO_W, h / 2.0),
    }
}

/// A pocket's cell on the cloth.
pub fn pocket_cell(wheel: Wheel, pocket: u8) -> Area {
    if pocket == 0 || pocket == DOUBLE_ZERO { zero_cell(wheel, pocket) } else { number_cell(pocket) }
}

/// The cell of an outside spot (None for an inside one, or one drawn as
/// the line between two cells: two dozens, two columns).
pub fn outside_cell(spot: &Spot) -> Option<Area> {
    let below = GRID_Y + 3.0 * CELL_H;
    let even = |k: f32| Some(Area::new(GRID_X + k * 2.0 * CELL_W, below + DOZEN_H, 2.0 * CELL_W, EVEN_H));
    match spot {
        Spot::Dozen(d) => Some(Area::new(GRID_X + f32::from(d - 1) * 4.0 * CELL_W, below, 4.0 * CELL_W, DOZEN_H)),
        Spot::Column(c) => Some(Area::new(GRID_X + 12.0 * CELL_W, GRID_Y + f32::from(3 - c) * CELL_H, COLUMN_W, CELL_H)),
        Spot::Low => even(0.0),
        Spot::Even => even(1.0),
        Spot::Red => even(2.0),
        Spot::Black => even(3.0),
        Spot::Odd => even(4.0),
        Spot::High => even(5.0),
        _ => None,
    }
}

/// The room an outside spot's chip takes beside its label (a chip is 44
/// across).
const CHIP_ROOM: f32 = 52.0;

/// An outside spot's label's room and where its chip stands, apart (issue
/// 75: a chip at the cell's centre hid "PAR" and "PRETO"): a dozen's or an
/// even chance's chip at the cell's right end, the label in the rest; a
/// column's chip under its "2 para 1".
pub fn outside_parts(spot: &Spot) -> Option<(Area, (f32, f32))> {
    let cell = outside_cell(spot)?;
    Some(match spot {
        Spot::Column(_) => (Area::new(cell.x, cell.y + 2.0, cell.w, 26.0), (cell.centre().0, cell.y + 52.0)),
        _ => (Area::new(cell.x, cell.y, cell.w - CHIP_ROOM, cell.h), (cell.x + cell.w - CHIP_ROOM / 2.0, cell.centre().1)),
    })
}

/// Where the chip of `spot` is drawn: an outside spot's beside its label,
/// an inside one's on its anchor.
pub fn chip_at(wheel: Wheel, spot: &Spot) -> Option<(f32, f32)> {
    match outside_parts(spot) {
        Some((_, at)) => Some(at),
        None => anchor(wheel, spot).map(|(at, _)| at),
    }
}

/// The y of the line under the number `n`'s cell, and x of its right edge.
fn bottom(n: u8) -> f32 {
    number_cell(n).bottom()
}

/// Where the chip of `spot` stands, and whether the anchor is a cell's
/// centre (a touch counts closer to it).
pub fn anchor(wheel: Wheel, spot: &Spot) -> Option<((f32, f32), bool)> {
    if let Some(cell) = outside_cell(spot) {
        return Some((cell.centre(), true));
    }
    let below = GRID_Y + 3.0 * CELL_H;
    match spot {
        Spot::TwoDozens(d) => return Some(((GRID_X + f32::from(*d) * 4.0 * CELL_W, below + DOZEN_H / 2.0), false)),
        Spot::TwoColumns(c) => return Some(((GRID_X + 12.0 * CELL_W + COLUMN_W / 2.0, GRID_Y + f32::from(3 - c) * CELL_H), false)),
        Spot::Numbers(_) => {}
        _ => return None,
    }
    let Spot::Numbers(ns) = spot else { return None };
    let zeros = ns.iter().any(|&n| n == 0 || n == DOUBLE_ZERO);
    let edge = GRID_X;
    let y_mid = |n: u8| number_cell(n).centre().1;
    let row_line = |n: u8| number_cell(n).y; // the line above n's cell
    Some(match ns.as_slice() {
        [p] if zeros => (pocket_cell(wheel, *p).centre(), true),
        [n] => (number_cell(*n).centre(), true),
        // 0 and 00 side by side: the line between their halves.
        [0, DOUBLE_ZERO] => ((GRID_X - ZERO_W / 2.0, GRID_Y + 1.5 * CELL_H), false),
        // A zero and one number: the zero's edge beside that number
        // (on 0/00, the part of 2's cell beside the zero in question).
        [0, n] if !wheel.has_double_zero() => ((edge, y_mid(*n)), false),
        [0, 1] => ((edge, y_mid(1)), false),
        [0, 2] => ((edge, GRID_Y + 1.5 * CELL_H + CELL_H / 4.0), false),
        [2, DOUBLE_ZERO] => ((edge, GRID_Y + 1.5 * CELL_H - CELL_H / 4.0), false),
        [3, DOUBLE_ZERO] => ((edge, y_mid(3)), false),
        // Trios with a zero: the corner of the zero and the two numbers.
        [0, 1, 2] => ((edge, row_line(1)), false),
        [0, 2, 3] => ((edge, row_line(2)), false),
        [0, 2, DOUBLE_ZERO] => ((edge, GRID_Y + 1.5 * CELL_H), false),
        [2, 3, DOUBLE_ZERO] => ((edge, row_line(2)), false),
        // The four (0-1-2-3) and the top line (0-00-1-2-3): the zero's
        // corner on the street line.
        [0, 1, 2, 3] | [0, 1, 2, 3, DOUBLE_ZERO] => ((edge, below), false),
        // Two numbers across (n, n+3) or along (n, n+1).
        [a, b] if b - a == 3 => ((number_cell(*a).x + CELL_W, y_mid(*a)), false),
        [a, _] => ((number_cell(*a).centre().0, row_line(*a)), false),
        // A street: its bottom line; a six-line: the corner of two streets.
        [a, _, _] => ((number_cell(*a).centre().0, bottom(*a)), false),
        [a, _, _, _] => ((number_cell(*a).x + CELL_W, row_line(*a)), false),
        [a, _, _, _, _, _] => ((number_cell(*a).x + CELL_W, bottom(*a)), false),
        _ => return None,
    })
}

/// Every spot of the cloth with its anchor.
pub fn anchors(wheel: Wheel, top_line: bool) -> Vec<(Spot, (f32, f32), bool)> {
    inside_bets(wheel, top_line)
        .into_iter()
        .map(Spot::Numbers)
        .chain(Spot::outside())
        .filter_map(|s| anchor(wheel, &s).map(|(p, centre)| (s, p, centre)))
        .collect()
}

/// How much closer a touch counts to a cell's centre than to a line.
const CENTRE_PULL: f32 = 0.55;

/// The spot a touch at (x, y) plays: the nearest anchor, a cell's centre
/// counting closer; None off the cloth.
pub fn spot_at(anchors: &[(Spot, (f32, f32), bool)], x: f32, y: f32) -> Option<Spot> {
    if !area().inset(-12.0).contains(x, y) {
        return None;
    }
    anchors
        .iter()
        .map(|(s, (ax, ay), centre)| {
            let d = ((ax - x).powi(2) + (ay - y).powi(2)).sqrt();
            (s, if *centre { d * CENTRE_PULL } else { d })
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(s, _)| s.clone())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every spot of each cloth has an anchor of its own, a touch on it
    /// plays that spot, and no touch anywhere plays a spot the cloth lacks.
    #[test]
    fn every_spot_is_played_by_a_touch_on_its_anchor_and_nothing_else() {
        for (wheel, top) in [(Wheel::French, false), (Wheel::American38, true), (Wheel::American37, false)] {
            let all = anchors(wheel, top);
            let want = inside_bets(wheel, top).len() + Spot::outside().len();
            assert_eq!(all.len(), want, "{wheel:?}: every spot anchored");
            for (s, (x, y), _) in &all {
                assert_eq!(spot_at(&all, *x, *y).as_ref(), Some(s), "{wheel:?}: the anchor of {s:?}");
                assert!(area().inset(-1.0).contains(*x, *y), "{s:?} off the cloth");
            }
            let mut points = std::collections::BTreeSet::new();
            for (_, (x, y), _) in &all {
                assert!(points.insert(((x * 10.0) as i64, (y * 10.0) as i64)), "{wheel:?}: two spots share an anchor at {x},{y}");
            }
            let a = area();
            let mut y = a.y;
            while y < a.bottom() {
                let mut x = a.x;
                while x < a.x + a.w {
                    let s = spot_at(&all, x, y).unwrap();
                    assert!(s.on_cloth(wheel, top), "{s:?}");
                    x += 7.0;
                }
                y += 7.0;
            }
            assert_eq!(spot_at(&all, 10.0, 10.0), None);
        }
    }

    /// A finger well inside a number's cell plays the number; on the line
    /// between two numbers, the split; the cells stand where AR 19 g says.
    #[test]
    fn a_finger_on_a_number_plays_it_and_on_a_line_the_split() {
        let all = anchors(Wheel::French, false);
        let c = number_cell(17);
        let (cx, cy) = c.centre();
        assert_eq!(spot_at(&all, cx + CELL_W * 0.3, cy - CELL_H * 0.25), Some(Spot::Numbers(vec![17])));
        assert_eq!(spot_at(&all, c.x + CELL_W - 2.0, cy), Some(Spot::Numbers(vec![17, 20])));
        assert_eq!(spot_at(&all, cx, c.y + 2.0), Some(Spot::Numbers(vec![17, 18])));
        // Column 3 (from 36) is the top row; column 1 (from 34) the bottom.
        assert!(number_cell(36).y < number_cell(35).y && number_cell(35).y < number_cell(34).y);
        assert_eq!(number_cell(1).x, GRID_X);
        assert!(outside_cell(&Spot::Column(3)).unwrap().contains(GRID_X + 12.0 * CELL_W + 10.0, number_cell(36).centre().1));
        // Issue 75: an outside spot's chip (44 across) stands inside its
        // cell and clear of the room its label keeps.
        let mut parted = 0;
        for spot in Spot::outside() {
            // Two dozens or two columns: a chip on the line between two cells.
            let Some(cell) = outside_cell(&spot) else {
                assert_eq!(outside_parts(&spot), None);
                continue;
            };
            parted += 1;
            let (label, (x, y)) = outside_parts(&spot).unwrap();
            let chip = Area::new(x - 22.0, y - 22.0, 44.0, 44.0);
            assert!(cell.contains(chip.x, chip.y) && cell.contains(chip.x + chip.w - 1.0, chip.bottom() - 1.0), "{spot:?}: the chip leaves its cell");
            let apart = chip.x >= label.x + label.w || chip.y >= label.bottom();
            assert!(apart, "{spot:?}: the chip {chip:?} covers its label's room {label:?}");
            assert_eq!(chip_at(Wheel::French, &spot), Some((x, y)));
        }
        assert_eq!(parted, 12, "three dozens, three columns, six even chances");
    }
}
