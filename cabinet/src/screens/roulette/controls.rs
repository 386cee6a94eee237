//! The roulette screen's own buttons (design units): the call bets and the
//! racetrack on a French wheel (AR 20, FR 40); the edits of the bet (undo,
//! clear, repeat, double) are the shared row of `screens::chips`. Pure
//! layout; what each does is an edit the host checks.
//!
//! The racetrack is printed as a casino prints it (issue 45, defect 11: a
//! row of 37 cells of 30 px under the cloth was too small for a finger):
//! an oval of the wheel's numbers in the wheel's order, the zero at its
//! right end, with the three series written inside it where their numbers
//! lie, drawn over the cloth while the player has it open (`Button::Track`).
//! Its cells are 80 px wide at 1920 × 1080.

use game_core::roulette::{CallBet, Wheel};

use crate::layout::Area;

/// A button of the roulette screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// A series: voisins, tiers or orphelins.
    Series(CallBet),
    /// How many neighbours either side the racetrack places (1–3).
    NeighboursCount,
    /// Opens the racetrack over the cloth, or closes it.
    Track,
    /// A number of the racetrack (its place on the wheel), while it is open.
    Racetrack(usize),
    /// A series written inside the racetrack, while it is open.
    TrackSeries(CallBet),
    /// The numbers ending in a digit.
    Finals(u8),
}

/// The rows under the cloth.
const SERIES_Y: f32 = 528.0;
const TRACK_Y: f32 = 598.0;
const FINALS_Y: f32 = 660.0;
const LEFT: f32 = 680.0;

/// The racetrack, over the cloth (`cloth::area`, a little taller).
pub const TRACK: Area = Area::new(680.0, 150.0, 1208.0, 364.0);
/// The width of its two ends, and the height of its two long rows.
const TRACK_END_W: f32 = 80.0;
const TRACK_ROW_H: f32 = 88.0;
/// The cells of the top row and of the bottom row, of the right end and
/// of the left end: 13 + 6 + 13 + 5 = 37 pockets.
const TRACK_ROW: usize = 13;
const TRACK_RIGHT: usize = 6;
const TRACK_LEFT: usize = 5;
/// Where the wheel's first pocket (the zero) stands on the ring counted
/// clockwise from the top row's left: the middle of the right end.
const ZERO_AT: usize = 15;

/// The cell of the wheel's `i`-th pocket on the racetrack (a French
/// wheel's 37), clockwise in the wheel's order.
pub fn track_cell(i: usize) -> Area {
    let n = 2 * TRACK_ROW + TRACK_RIGHT + TRACK_LEFT;
    let pos = (i + ZERO_AT) % n;
    let w = (TRACK.w - 2.0 * TRACK_END_W) / TRACK_ROW as f32;
    let x0 = TRACK.x + TRACK_END_W;
    // Edges on whole pixels: neighbouring cells share theirs exactly.
    let column = |k: usize| (x0 + k as f32 * w).round();
    let cell = |x: f32, x1: f32, y: f32, y1: f32| Area::new(x, y, x1 - x, y1 - y);
    if pos < TRACK_ROW {
        cell(column(pos), column(pos + 1), TRACK.y, TRACK.y + TRACK_ROW_H)
    } else if pos < TRACK_ROW + TRACK_RIGHT {
        let row = |k: usize| (TRACK.y + k as f32 * TRACK.h / TRACK_RIGHT as f32).round();
        let k = pos - TRACK_ROW;
        cell(column(TRACK_ROW), TRACK.x + TRACK.w, row(k), row(k + 1))
    } else if pos < 2 * TRACK_ROW + TRACK_RIGHT {
        let k = TRACK_ROW - 1 - (pos - TRACK_ROW - TRACK_RIGHT);
        cell(column(k), column(k + 1), TRACK.bottom() - TRACK_ROW_H, TRACK.bottom())
    } else {
        let row = |k: usize| (TRACK.bottom() - k as f32 * TRACK.h / TRACK_LEFT as f32).round();
        let k = pos - 2 * TRACK_ROW - TRACK_RIGHT;
        cell(TRACK.x, x0, row(k + 1), row(k))
    }
}

/// A series' place inside the racetrack, beside the numbers it covers:
/// tiers on the left (the numbers facing the zero), orphelins between,
/// voisins du zéro on the right round the zero.
fn track_series(bet: CallBet) -> Area {
    let w = (TRACK.w - 2.0 * TRACK_END_W) / TRACK_ROW as f32;
    let (x0, y0) = (TRACK.x + TRACK_END_W, TRACK.y + TRACK_ROW_H);
    let h = TRACK.h - 2.0 * TRACK_ROW_H;
    let (from, to) = match bet {
        CallBet::Tiers => (0.0, 5.0),
        CallBet::Orphelins => (5.0, 8.5),
        _ => (8.5, TRACK_ROW as f32),
    };
    Area::new(x0 + from * w + 4.0, y0 + 4.0, (to - from) * w - 8.0, h - 8.0)
}

impl Button {
    pub fn area(self) -> Area {
        match self {
            Button::Series(b) => {
                let k = match b {
                    CallBet::Voisins => 0.0,
                    CallBet::Tiers => 1.0,
                    _ => 2.0,
                };
                Area::new(LEFT + k * 300.0, SERIES_Y, 285.0, 58.0)
            }
            Button::NeighboursCount => Area::new(LEFT + 900.0, SERIES_Y, 300.0, 58.0),
            Button::Track => Area::new(LEFT, TRACK_Y, 285.0, 52.0),
            Button::Racetrack(i) => track_cell(i),
            Button::TrackSeries(b) => track_series(b),
            Button::Finals(d) => Area::new(LEFT + 130.0 + f32::from(d) * 100.0, FINALS_Y, 92.0, 52.0),
        }
    }

    /// Every button the table shows: the call bets only where it takes them.
    pub fn all(wheel: Wheel, call_bets: bool) -> Vec<Button> {
        let mut v = Vec::new();
        if call_bets && wheel.call_bets_allowed() {
            v.extend([CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins].map(Button::Series));
            v.push(Button::NeighboursCount);
            v.push(Button::Track);
            v.extend((0..wheel.sequence().len()).map(Button::Racetrack));
            v.extend([CallBet::Tiers, CallBet::Orphelins, CallBet::Voisins].map(Button::TrackSeries));
            v.extend((0..10).map(Button::Finals));
        }
        v
    }

    /// Whether the button is printed on the racetrack (shown and touched
    /// only while it is open).
    pub fn on_track(self) -> bool {
        matches!(self, Button::Racetrack(_) | Button::TrackSeries(_))
    }

    /// The button at a touch, if any: the racetrack's only while it is open.
    pub fn at(buttons: &[Button], track_open: bool, x: f32, y: f32) -> Option<Button> {
        buttons.iter().copied().filter(|b| track_open || !b.on_track()).find(|b| b.area().contains(x, y))
    }
}

/// Where the "finals" label stands (before the digits).
pub fn finals_label() -> (f32, f32) {
    (LEFT + 60.0, FINALS_Y + 26.0)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_buttons_never_overlap_and_only_a_french_wheel_has_call_bets() {
        let all = Button::all(Wheel::French, true);
        assert_eq!(all.len(), 3 + 1 + 1 + 37 + 3 + 10);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let (p, q) = (a.area(), b.area());
                let apart = p.x + p.w <= q.x || q.x + q.w <= p.x || p.bottom() <= q.y || q.bottom() <= p.y;
                assert!(apart, "{a:?} and {b:?} overlap");
            }
            let (x, y) = a.area().centre();
            assert_eq!(Button::at(&all, true, x, y), Some(*a));
            assert_eq!(Button::at(&all, false, x, y), (!a.on_track()).then_some(*a), "the racetrack's buttons only while it is open");
            assert!(a.area().x + a.area().w <= 1920.0 && a.area().bottom() <= 722.0, "{a:?} not above the edit buttons (screens::chips::EDITS_Y)");
        }
        assert!(Button::all(Wheel::American38, true).is_empty());
        assert!(Button::all(Wheel::French, false).is_empty());
    }

    /// The racetrack holds every pocket of the wheel once, in the wheel's
    /// order round the oval (each cell touches the next, the last the
    /// first), each a finger wide (80 px at 1920 × 1080), the zero at its
    /// right end; each series is written beside the numbers it covers.
    #[test]
    fn the_racetrack_runs_round_the_wheel_in_order_in_cells_a_finger_wide() {
        let touch = |a: Area, b: Area| a.x <= b.x + b.w + 0.01 && b.x <= a.x + a.w + 0.01 && a.y <= b.bottom() + 0.01 && b.y <= a.bottom() + 0.01;
        let seq = Wheel::French.sequence();
        for i in 0..seq.len() {
            let (a, b) = (track_cell(i), track_cell((i + 1) % seq.len()));
            assert!(touch(a, b), "pockets {} and {} are neighbours on the wheel: {a:?} {b:?}", seq[i], seq[(i + 1) % seq.len()]);
            assert!(a.w >= 80.0 && a.h >= 60.0, "{}: {a:?}", seq[i]);
            assert!(a.x >= TRACK.x && a.x + a.w <= TRACK.x + TRACK.w + 0.01 && a.y >= TRACK.y && a.bottom() <= TRACK.bottom() + 0.01);
        }
        let zero = track_cell(0);
        assert!(zero.x + zero.w >= TRACK.x + TRACK.w - 0.01 && (zero.centre().1 - TRACK.centre().1).abs() < 70.0, "the zero at the right end: {zero:?}");
        // Each series' place is nearer its own numbers than any other
        // series' place is (the middle of its numbers' cells).
        let series = [
            (CallBet::Tiers, vec![27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33]),
            (CallBet::Orphelins, vec![17, 34, 6, 1, 20, 14, 31, 9]),
            (CallBet::Voisins, vec![22, 18, 29, 7, 28, 12, 35, 3, 26, 0, 32, 15, 19, 4, 21, 2, 25]),
        ];
        for (bet, numbers) in &series {
            let xs: Vec<f32> = numbers.iter().map(|n| track_cell(seq.iter().position(|p| p == n).unwrap()).centre().0).collect();
            let mid = xs.iter().sum::<f32>() / xs.len() as f32;
            let nearest = series
                .iter()
                .map(|(b, _)| *b)
                .min_by(|p, q| (track_series(*p).centre().0 - mid).abs().total_cmp(&(track_series(*q).centre().0 - mid).abs()))
                .unwrap();
            assert_eq!(nearest, *bet, "{bet:?}'s numbers stand round x = {mid:.0}");
        }
    }
}
