//! The hold-and-spin feature on the reels (issue 50): after the base
//! spin lands, the feature the round committed is shown step by step —
//! its start, then each respin — with the pearls held standing in their
//! cells and every other cell empty, each pearl's value written on it (in
//! money, or its jackpot's name), the cells a respin landed framed, the
//! respins left in the title band and the feature's total in the caption;
//! a full screen adds the grand. Everything here reads the committed
//! `HoldAndSpin`; nothing is drawn from the RNG or decided.

use bevy::prelude::*;
use game_core::reels::{CashValue, HoldAndSpin, HoldAndSpinRule, ReelRound};
use game_host::session::Session;

/// Seconds each step of the feature (its start, each respin) stays on
/// screen.
pub const HOLD_STEP_S: f32 = 1.2;

/// The steps of a round's feature: its start and each respin.
pub fn steps(round: &ReelRound) -> usize {
    round.hold.as_ref().map_or(0, |h| 1 + h.respins.len())
}

/// The feature as one step shows it.
#[derive(Clone, Debug)]
pub struct HoldView {
    /// Every pearl held by this step: (reel, row), its value, its credits.
    pub held: Vec<(usize, usize, CashValue, u64)>,
    /// The cells this step landed (the start's, or a respin's).
    pub landed: Vec<(usize, usize)>,
    /// The respins left after this step.
    pub left: u8,
    /// The values held so far, in credits.
    pub total: u64,
    /// The last step of a full screen: the grand, in credits.
    pub grand: Option<u64>,
    /// The grand is a progressive's (`grand_progressive`): the pool pays
    /// it, so it is named, not counted, here.
    pub pooled: bool,
}

impl HoldView {
    /// Step `step` (0: the start) of `h`, played by `rule`.
    pub fn at(h: &HoldAndSpin, rule: &HoldAndSpinRule, step: usize) -> HoldView {
        let (respins, pooled) = (rule.respins, rule.grand_progressive);
        let step = step.min(h.respins.len());
        let mut held: Vec<(usize, usize, CashValue, u64)> = h.start.iter().map(|c| (usize::from(c.reel), usize::from(c.row), c.value, c.credits)).collect();
        for r in &h.respins[..step] {
            held.extend(r.landed.iter().map(|c| (usize::from(c.reel), usize::from(c.row), c.value, c.credits)));
        }
        let landed = match step {
            0 => h.start.iter().map(|c| (usize::from(c.reel), usize::from(c.row))).collect(),
            k => h.respins[k - 1].landed.iter().map(|c| (usize::from(c.reel), usize::from(c.row))).collect(),
        };
        let left = if step == 0 { respins } else { h.respins[step - 1].left };
        let total = held.iter().filter(|c| !(pooled && c.2 == CashValue::Grand)).map(|c| c.3).sum();
        let grand = (step == h.respins.len() && h.full).then_some(h.grand_credits);
        HoldView { held, landed, left, total, grand, pooled }
    }

    pub fn holds(&self, reel: usize, row: usize) -> bool {
        self.held.iter().any(|c| c.0 == reel && c.1 == row)
    }

    /// The title band: the feature's name and the respins left.
    pub fn heading(&self, s: &Session) -> String {
        format!("{} · {} {}", s.t("Hold & Spin"), self.left, if self.left == 1 { s.t("RESPIN") } else { s.t("RESPINS") })
    }

    /// The caption: the values held so far, and the grand of a full screen.
    pub fn caption(&self, s: &Session, denom: u64) -> String {
        let mut text = format!("{} {}", s.t("TOTAL"), s.show(self.total * denom));
        let grands = self.held.iter().any(|c| c.2 == CashValue::Grand) || self.grand.is_some();
        if self.pooled && grands {
            // Issue 50: the pool pays it, in the round's settlement.
            text.push_str(&format!(" + {}", s.t("GRANDE PROGRESSIVO")));
        } else if let Some(g) = self.grand {
            text.push_str(&format!(" + {} {}", s.t("GRANDE"), s.show(g * denom)));
        }
        text
    }
}

/// What a held pearl's label says: its money, or its jackpot's name.
pub fn label(s: &Session, value: CashValue, credits: u64, denom: u64) -> String {
    match value {
        CashValue::Credits(_) => s.show(credits * denom),
        CashValue::Mini => s.t("MINI").to_owned(),
        CashValue::Minor => s.t("MENOR").to_owned(),
        CashValue::Major => s.t("MAIOR").to_owned(),
        CashValue::Grand => s.t("GRANDE").to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use game_core::reels::Jackpots;
    use game_core::reels::hold::{Cash, Respin};

    use super::*;

    fn rule(grand_progressive: bool) -> HoldAndSpinRule {
        HoldAndSpinRule {
            symbol: 0,
            trigger: 2,
            respins: 3,
            landing: (1, 1),
            values: vec![(CashValue::Credits(5), 1), (CashValue::Grand, 1)],
            jackpots: Jackpots { mini: 10, minor: 20, major: 50, grand: 1_000 },
            grand_progressive,
        }
    }

    /// A feature of a 1×3 window: two pearls to start (5 credits and a
    /// grand), the third cell landed by the first respin: a full screen.
    fn feature() -> HoldAndSpin {
        let cash = |row, value, credits| Cash { reel: 0, row, value, credits };
        HoldAndSpin {
            start: vec![cash(0, CashValue::Credits(5), 10), cash(1, CashValue::Grand, 2_000)],
            respins: vec![Respin { landed: vec![cash(2, CashValue::Credits(5), 10)], left: 3 }],
            full: true,
            grand_credits: 2_000,
            win: 4_020,
        }
    }

    #[test]
    fn a_fixed_grand_is_counted_in_the_total_a_progressive_one_is_the_pool_s() {
        let h = feature();
        let fixed = HoldView::at(&h, &rule(false), 1);
        assert_eq!((fixed.total, fixed.grand, fixed.pooled), (2_020, Some(2_000), false));
        let pooled = HoldView::at(&h, &rule(true), 1);
        assert_eq!((pooled.total, pooled.pooled), (20, true), "the grand pearl is the pool's, not in the total");
        // The start: two pearls held, three respins.
        let start = HoldView::at(&h, &rule(true), 0);
        assert_eq!((start.held.len(), start.left, start.total, start.grand), (2, 3, 10, None));
        // What the round's own win leaves to the pool: the pearl and the full screen.
        assert_eq!(h.pooled_grand(&rule(true), 2), 4_000);
        assert_eq!(h.pooled_grand(&rule(false), 2), 0);
    }
}
