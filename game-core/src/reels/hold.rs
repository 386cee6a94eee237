//! Hold-and-spin, cash on reels (issue 50; ways games).
//!
//! When the base window shows `trigger` or more bonus symbols, the feature
//! starts: every bonus symbol is held with a value drawn from the
//! paytable's weighted table (credits, or a fixed jackpot level: mini,
//! minor, major, grand), and `respins` respins are given. On a respin
//! every cell not held lands a bonus symbol with the paytable's landing
//! weights (one table for every cell), and each one landed is held with a
//! value drawn at once; a respin that lands one or more gives `respins`
//! respins again, one that lands none uses one up. The feature ends when
//! the respins run out or every cell is held; a full screen pays the
//! grand jackpot besides the values. It pays the values held (and the
//! grand) times the credits per unit.
//!
//! The draws, in order: the held cells' values, reel by reel, top row
//! first; then per respin, for each cell not held in the same order, its
//! landing and, if it landed, its value. [`FastReels`](super::FastReels)
//! draws the same words in the same order from counts alone.

use meters::{GameRng, WeightTable};
use serde::{Deserialize, Serialize};

use super::SymbolId;

/// What a held bonus symbol carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CashValue {
    /// Credits per credit of the unit.
    Credits(u64),
    Mini,
    Minor,
    Major,
    Grand,
}

/// The four fixed jackpots, in credits per credit of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Jackpots {
    pub mini: u64,
    pub minor: u64,
    pub major: u64,
    pub grand: u64,
}

/// The paytable's hold-and-spin rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HoldAndSpinRule {
    /// The bonus symbol ([`super::SymbolKind::Bonus`]).
    pub symbol: SymbolId,
    /// Bonus symbols in the base window that start the feature.
    pub trigger: u8,
    /// Respins given at the start and again by every respin that lands a
    /// bonus symbol.
    pub respins: u8,
    /// A free cell lands a bonus symbol with weight `landing.0` against
    /// `landing.1` for a blank.
    pub landing: (u64, u64),
    /// The values a held bonus symbol carries, with their weights.
    pub values: Vec<(CashValue, u64)>,
    pub jackpots: Jackpots,
    /// The grand is paid by a progressive pool (standalone or linked), at
    /// least its fixed value (`jackpots.grand`, which the exact RTP
    /// counts): the round's own win leaves it out
    /// ([`HoldAndSpin::pooled_grand`]) and the host pays the level, or the
    /// fixed sum where it is greater or no pool paid it.
    #[serde(default)]
    pub grand_progressive: bool,
}

impl HoldAndSpinRule {
    /// A value's pay, in credits per credit of the unit.
    pub fn pay(&self, v: CashValue) -> u64 {
        match v {
            CashValue::Credits(c) => c,
            CashValue::Mini => self.jackpots.mini,
            CashValue::Minor => self.jackpots.minor,
            CashValue::Major => self.jackpots.major,
            CashValue::Grand => self.jackpots.grand,
        }
    }
}

/// A held bonus symbol: its cell, its value and what it pays in credits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cash {
    pub reel: u8,
    pub row: u8,
    pub value: CashValue,
    pub credits: u64,
}

/// One respin: the bonus symbols it landed and the respins left after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Respin {
    pub landed: Vec<Cash>,
    pub left: u8,
}

/// A played hold-and-spin feature, as the round commits it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HoldAndSpin {
    /// The bonus symbols that started it.
    pub start: Vec<Cash>,
    pub respins: Vec<Respin>,
    /// Every cell held: the grand jackpot paid besides the values.
    pub full: bool,
    /// The grand paid for the full screen, in credits (0 without one).
    pub grand_credits: u64,
    /// Everything the feature pays, in credits.
    pub win: u64,
}

impl HoldAndSpin {
    /// Every held bonus symbol, in the order held.
    pub fn held(&self) -> impl Iterator<Item = &Cash> {
        self.start.iter().chain(self.respins.iter().flat_map(|r| r.landed.iter()))
    }

    /// How many times the feature won the grand: each grand pearl held,
    /// and the full screen.
    pub fn grands(&self) -> u64 {
        self.held().filter(|c| c.value == CashValue::Grand).count() as u64 + u64::from(self.full)
    }

    /// The grand's fixed sums this feature won, in credits: what a
    /// progressive grand pays at least (0 when the grand is fixed: it is
    /// then in `win`).
    pub fn pooled_grand(&self, rule: &HoldAndSpinRule, unit: u64) -> u64 {
        if rule.grand_progressive { self.grands().saturating_mul(rule.jackpots.grand).saturating_mul(unit) } else { 0 }
    }
}

/// The weight tables of a hold-and-spin rule: landing, then values.
#[derive(Clone, Debug)]
pub struct HoldTables {
    pub(crate) landing: WeightTable,
    pub(crate) values: WeightTable,
}

impl HoldTables {
    pub fn new(rule: &HoldAndSpinRule) -> Result<Self, meters::rng::WeightError> {
        let weights: Vec<u64> = rule.values.iter().map(|v| v.1).collect();
        Ok(Self { landing: WeightTable::new(&[rule.landing.0, rule.landing.1])?, values: WeightTable::new(&weights)? })
    }

    /// Draw a value: its index in the rule's table.
    #[inline]
    pub(crate) fn value(&self, rng: &mut impl GameRng) -> usize {
        rng.pick(&self.values)
    }

    /// Draw a free cell's landing: true for a bonus symbol.
    #[inline]
    pub(crate) fn lands(&self, rng: &mut impl GameRng) -> bool {
        rng.pick(&self.landing) == 0
    }
}

/// Play the feature from the held cells `start` of a window whose cells
/// are `cells` (reel, row), in draw order; `unit` the credits per unit.
pub fn play(rule: &HoldAndSpinRule, tables: &HoldTables, rng: &mut impl GameRng, cells: &[(u8, u8)], start: &[(u8, u8)], unit: u64) -> HoldAndSpin {
    let draw = |rng: &mut _, (reel, row): (u8, u8)| {
        let value = rule.values[tables.value(rng)].0;
        Cash { reel, row, value, credits: rule.pay(value) * unit }
    };
    let start: Vec<Cash> = start.iter().map(|&c| draw(&mut *rng, c)).collect();
    let mut held: Vec<bool> = cells.iter().map(|c| start.iter().any(|s| (s.reel, s.row) == *c)).collect();
    let mut left = rule.respins;
    let mut respins = Vec::new();
    while left > 0 && held.iter().any(|h| !h) {
        let mut landed = Vec::new();
        for (i, &c) in cells.iter().enumerate() {
            if held[i] || !tables.lands(rng) {
                continue;
            }
            held[i] = true;
            landed.push(draw(&mut *rng, c));
        }
        left = if landed.is_empty() { left - 1 } else { rule.respins };
        respins.push(Respin { landed, left });
    }
    let full = held.iter().all(|&h| h);
    let grand_credits = if full { rule.jackpots.grand * unit } else { 0 };
    let win = start.iter().map(|c| c.credits).sum::<u64>() + respins.iter().flat_map(|r| &r.landed).map(|c| c.credits).sum::<u64>() + grand_credits;
    HoldAndSpin { start, respins, full, grand_credits, win }
}

/// The feature's pay per credit of the unit from `start` held of `cells`,
/// drawing the same words in the same order as [`play`] from counts
/// alone: the simulation's.
#[inline]
pub fn pay_from_counts(rule: &HoldAndSpinRule, tables: &HoldTables, rng: &mut impl GameRng, cells: usize, start: usize) -> u64 {
    let mut pay = 0u64;
    for _ in 0..start {
        pay += rule.pay(rule.values[tables.value(rng)].0);
    }
    let mut held = start;
    let mut left = rule.respins;
    while left > 0 && held < cells {
        let free = cells - held;
        let mut landed = 0;
        for _ in 0..free {
            if tables.lands(rng) {
                landed += 1;
                pay += rule.pay(rule.values[tables.value(rng)].0);
            }
        }
        held += landed;
        left = if landed == 0 { left - 1 } else { rule.respins };
    }
    if held == cells { pay + rule.jackpots.grand } else { pay }
}
