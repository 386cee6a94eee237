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

use super::{ReelGame, Strip, SymbolId, WayWin};

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

impl ReelGame {
    /// The window's way wins at multiplier `mult`, for `unit` credits per
    /// unit, and the cells they cover.
    fn window_wins(&self, window: &[Vec<SymbolId>], unit: u64, mult: u64) -> (Vec<WayWin>, Vec<(usize, usize)>) {
        let mut wins = Vec::new();
        let mut cells: Vec<(usize, usize)> = Vec::new();
        for (symbol, count, ways, pay) in self.way_pays(|r, row| window[r][row]) {
            wins.push(WayWin { symbol, count, ways, win: pay * unit * mult });
            for c in self.way_cells(window, symbol, count) {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
        }
        (wins, cells)
    }

    /// The cascades that follow a spin's window at `stops` on `strips`:
    /// the spin's own wins (at the first multiplier), then each cascade.
    /// `unit`: credits per unit.
    pub fn cascades(&self, strips: &[Strip], stops: &[u32], unit: u64) -> (Vec<WayWin>, Vec<Cascade>) {
        let Some(rule) = &self.cascade else { return (Vec::new(), Vec::new()) };
        // Each reel's cells as strip positions, top row first.
        let mut columns: Vec<Vec<usize>> =
            strips.iter().zip(stops).enumerate().map(|(r, (s, &stop))| (0..self.rows_of(r)).map(|row| (stop as usize + row) % s.len()).collect()).collect();
        // How far up each strip has been read: the next stop to fall in
        // is the one before it.
        let mut top: Vec<usize> = stops.iter().map(|&s| s as usize).collect();
        let read = |columns: &[Vec<usize>]| -> Vec<Vec<SymbolId>> {
            columns.iter().zip(strips).map(|(cells, s)| cells.iter().map(|&i| s.symbols[i]).collect()).collect()
        };
        let (first, mut cells) = self.window_wins(&read(&columns), unit, rule.multiplier(0));
        let mut out = Vec::new();
        while !cells.is_empty() && out.len() < usize::from(rule.max_cascades) {
            for (r, column) in columns.iter_mut().enumerate() {
                let len = strips[r].len();
                let kept: Vec<usize> = column.iter().enumerate().filter(|(row, _)| !cells.contains(&(r, *row))).map(|(_, &i)| i).collect();
                let mut fresh = Vec::new();
                for _ in kept.len()..column.len() {
                    top[r] = (top[r] + len - 1) % len;
                    fresh.push(top[r]);
                }
                fresh.reverse();
                *column = fresh.into_iter().chain(kept).collect();
            }
            let window = read(&columns);
            let multiplier = rule.multiplier(out.len() + 1);
            let (way_wins, next) = self.window_wins(&window, unit, multiplier);
            let win = way_wins.iter().map(|w| w.win).sum();
            out.push(Cascade { window, way_wins, multiplier, win });
            cells = next;
        }
        (first, out)
    }
}
