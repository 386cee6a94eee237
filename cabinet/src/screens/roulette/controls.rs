//! The roulette screen's own buttons (design units): the call bets and the
//! racetrack on a French wheel (AR 20, FR 40); the edits of the bet (undo,
//! clear, repeat, double) are the shared row of `screens::chips`. Pure
//! layout; what each does is an edit the host checks.

use game_core::roulette::{CallBet, Wheel};

use crate::layout::Area;

/// A button of the roulette screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// A series: voisins, tiers or orphelins.
    Series(CallBet),
    /// How many neighbours either side the racetrack places (1–3).
    NeighboursCount,
    /// A number of the racetrack (its place on the wheel).
    Racetrack(usize),
    /// The numbers ending in a digit.
    Finals(u8),
}

/// The rows under the cloth.
const SERIES_Y: f32 = 528.0;
const TRACK_Y: f32 = 598.0;
const FINALS_Y: f32 = 660.0;
const LEFT: f32 = 680.0;
/// A racetrack cell's width.
const TRACK_W: f32 = 32.0;

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
            Button::Racetrack(i) => Area::new(LEFT + 16.0 + i as f32 * TRACK_W, TRACK_Y, TRACK_W - 2.0, 50.0),
            Button::Finals(d) => Area::new(LEFT + 130.0 + f32::from(d) * 100.0, FINALS_Y, 92.0, 52.0),
        }
    }

    /// Every button the table shows: the call bets only where it takes them.
    pub fn all(wheel: Wheel, call_bets: bool) -> Vec<Button> {
        let mut v = Vec::new();
        if call_bets && wheel.call_bets_allowed() {
            v.extend([CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins].map(Button::Series));
            v.push(Button::NeighboursCount);
            v.extend((0..wheel.sequence().len()).map(Button::Racetrack));
            v.extend((0..10).map(Button::Finals));
        }
        v
    }

    /// The button at a touch, if any.
    pub fn at(buttons: &[Button], x: f32, y: f32) -> Option<Button> {
        buttons.iter().copied().find(|b| b.area().contains(x, y))
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
        assert_eq!(all.len(), 3 + 1 + 37 + 10);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let (p, q) = (a.area(), b.area());
                let apart = p.x + p.w <= q.x || q.x + q.w <= p.x || p.bottom() <= q.y || q.bottom() <= p.y;
                assert!(apart, "{a:?} and {b:?} overlap");
            }
            let (x, y) = a.area().centre();
            assert_eq!(Button::at(&all, x, y), Some(*a));
            assert!(a.area().x + a.area().w <= 1920.0 && a.area().bottom() <= 728.0, "{a:?} not above the edit buttons (screens::chips::EDITS_Y)");
        }
        assert!(Button::all(Wheel::American38, true).is_empty());
        assert!(Button::all(Wheel::French, false).is_empty());
    }
}
