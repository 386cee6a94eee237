//! Cascades, or tumbles (issue 50; ways games).
//!
//! After a window's ways pay, every cell of every way win is removed; on
//! each reel the symbols left fall to the bottom and the cells emptied at
//! the top are filled from the reel's strip, continuing it upwards (the
//! stop before the highest symbol on the reel, then the one before it…).
//! The new window pays again, at the next multiplier of the paytable's
//! list (the last repeating), and so on until a window pays nothing or
//! `max_cascades` cascades have fallen (that window's win still pays).
//!
//! Nothing new is drawn: the whole cascade follows from the stops, so a
//! cascade game's cycle is its stops' and its figures are exact by
//! enumerating them (`paytables::cascade_math`).

use serde::{Deserialize, Serialize};

use super::{ReelGame, Strip, SymbolId, WayWin, WildTable};

/// The paytable's cascade rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CascadeRule {
    /// The multiplier of each window's win: the first for the spin's own
    /// window, then one per cascade; the last repeats.
    pub multipliers: Vec<u64>,
    /// The most cascades a spin falls (a cap: every cascade removes
    /// symbols, and a strip read upwards forever could pay forever).
    pub max_cascades: u8,
}

impl CascadeRule {
    /// The multiplier of window `k` (0: the spin's own).
    #[inline]
    pub fn multiplier(&self, k: usize) -> u64 {
        self.multipliers.get(k).or(self.multipliers.last()).copied().unwrap_or(1)
    }
}

/// One cascade: the window after the fall, its way wins (multiplied) and
/// its multiplier and win, in credits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cascade {
    pub window: Vec<Vec<SymbolId>>,
    pub way_wins: Vec<WayWin>,
    pub multiplier: u64,
    pub win: u64,
}

/// The most rows a reel of a cascade shows (the compiler refuses more
/// than 8 rows for any reel game).
pub const MAX_ROWS: usize = 8;

/// A window's symbols, `[reel][row]` (rows past a reel's own unused).
pub type Grid = [[SymbolId; MAX_ROWS]; super::MAX_REELS];

/// One window of a cascade as it paid: 0 the spin's own, then each
/// cascade, its multiplier, its symbols and its way pays per credit of the
/// unit before the multiplier, (symbol, run, ways, pay), in symbol order.
pub struct Paid<'a> {
    pub index: usize,
    pub multiplier: u64,
    pub symbols: &'a Grid,
    pub pays: &'a [(SymbolId, u8, u64, u64)],
}

impl ReelGame {
    /// The one rule of a cascade: every window the spin at `stops` on
    /// `strips` shows, from its own to the last cascade, handed to
    /// `window` as it pays. Nothing is allocated: the exact analysis plays
    /// it for every stop combination of the cycle (issue 73).
    /// `wilds`: the game's [`ReelGame::wild_table`], made once by the caller.
    pub fn fall(&self, strips: &[Strip], stops: &[u32], wilds: &WildTable, mut window: impl FnMut(&Paid<'_>)) {
        let Some(rule) = &self.cascade else { return };
        let n = strips.len().min(stops.len()).min(super::MAX_REELS);
        let heights: [usize; super::MAX_REELS] = std::array::from_fn(|r| self.rows_of(r).min(MAX_ROWS));
        let rows = |r: usize| heights[r];
        // Each reel's cells as strip positions, top row first, and how
        // far up each strip has been read: the next stop to fall in is
        // the one before it.
        let mut columns = [[0u32; MAX_ROWS]; super::MAX_REELS];
        let mut top = [0usize; super::MAX_REELS];
        for r in 0..n {
            // Counted round the strip (no division per cell).
            let len = strips[r].len().max(1);
            let mut at = stops[r] as usize % len;
            for cell in columns[r].iter_mut().take(rows(r)) {
                *cell = at as u32;
                at = if at + 1 == len { 0 } else { at + 1 };
            }
            top[r] = stops[r] as usize % len;
        }
        let mut symbols: Grid = [[0; MAX_ROWS]; super::MAX_REELS];
        for index in 0.. {
            for r in 0..n {
                for row in 0..rows(r) {
                    symbols[r][row] = strips[r].symbols.get(columns[r][row] as usize).copied().unwrap_or(0);
                }
            }
            // The window's pays, and the cells of its way wins: on the
            // run's reels the symbol, or after the first a wild that
            // substitutes it. A way starts with its symbol on the first
            // reel, so no more symbols pay than that reel has rows.
            let mut pays = [(0 as SymbolId, 0u8, 0u64, 0u64); MAX_ROWS];
            let mut paid = 0;
            let mut won = [0u16; super::MAX_REELS];
            self.each_way_pay_with(
                |r, row| symbols[r][row],
                |y, x| wilds.get(y, x),
                |x, run, ways, pay| {
                    if let Some(slot) = pays.get_mut(paid) {
                        *slot = (x, run, ways, pay);
                        paid += 1;
                    }
                    for (r, cells) in won.iter_mut().enumerate().take(usize::from(run).min(n)) {
                        for (row, &y) in symbols[r].iter().enumerate().take(rows(r)) {
                            if super::ways::in_way(r, y, x, |y, x| wilds.get(y, x)) {
                                *cells |= 1 << row;
                            }
                        }
                    }
                },
            );
            window(&Paid { index, multiplier: rule.multiplier(index), symbols: &symbols, pays: &pays[..paid] });
            if paid == 0 || index >= usize::from(rule.max_cascades) {
                return;
            }
            // Every cell won is removed; the symbols left fall to the
            // bottom and the strip fills the reel from above.
            for r in 0..n {
                let (len, h) = (strips[r].len().max(1), rows(r));
                let mut kept = [0u32; MAX_ROWS];
                let mut k = 0;
                for (row, &cell) in columns[r].iter().enumerate().take(h) {
                    if won[r] & (1 << row) == 0 {
                        kept[k] = cell;
                        k += 1;
                    }
                }
                let fresh = h - k;
                for row in (0..fresh).rev() {
                    top[r] = if top[r] == 0 { len - 1 } else { top[r] - 1 };
                    columns[r][row] = top[r] as u32;
                }
                for (cell, &kept) in columns[r][fresh..h].iter_mut().zip(&kept[..k]) {
                    *cell = kept;
                }
            }
        }
    }

    /// The cascades that follow a spin's window at `stops` on `strips`:
    /// the spin's own wins (at the first multiplier), then each cascade.
    /// `unit`: credits per unit.
    pub fn cascades(&self, strips: &[Strip], stops: &[u32], unit: u64) -> (Vec<WayWin>, Vec<Cascade>) {
        let mut first = Vec::new();
        let mut out = Vec::new();
        let n = strips.len().min(stops.len());
        self.fall(strips, stops, &self.wild_table(), |w| {
            let way_wins: Vec<WayWin> =
                w.pays.iter().map(|&(symbol, count, ways, pay)| WayWin { symbol, count, ways, win: pay * unit * w.multiplier }).collect();
            if w.index == 0 {
                first = way_wins;
            } else {
                let window = (0..n).map(|r| w.symbols[r][..self.rows_of(r).min(MAX_ROWS)].to_vec()).collect();
                let win = way_wins.iter().map(|x| x.win).sum();
                out.push(Cascade { window, way_wins, multiplier: w.multiplier, win });
            }
        });
        (first, out)
    }
}
