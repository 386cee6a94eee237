//! Ways pays (issue 50): a symbol pays for every way it runs from the
//! leftmost reel over adjacent reels, in any row. A way starts with the
//! symbol itself on the first reel; on the reels after it the wild
//! substitutes. A symbol's run is the number of adjacent reels, from the
//! first, that show it (or, after the first, the wild); its ways are the
//! product of how many times each of those reels shows it, and it pays
//! `pays[symbol][run]` per way. A 5-reel, 3-row window has 3⁵ = 243 ways,
//! a 4-row one 4⁵ = 1,024.
//!
//! A ways game's stake is `bet.lines` credits per unit (the cost of the
//! whole ways bet, e.g. 25), times the credits per unit the player
//! chooses; each way pays its pay per credit of that unit. A ways game may
//! have several wilds, each standing for its own list of symbols with its
//! own multiplier; a way's multiplier is its wilds' multipliers multiplied
//! or added (the paytable's `wild_multipliers`). A wild has no pays of its
//! own (the compiler refuses the rest, named).

use serde::{Deserialize, Serialize};

use super::{ReelGame, SymbolId, SymbolKind, WildMultipliers};

/// A ways win of a spin: the symbol, the reels its run crosses, its ways,
/// and the credits it pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WayWin {
    pub symbol: SymbolId,
    pub count: u8,
    pub ways: u64,
    pub win: u64,
}

/// Which symbols each wild stands for, and at what multiplier, as a
/// table made once for a loop that asks it millions of times (the
/// cascade's exact walk, issue 73): the same answers as
/// [`ReelGame::substitute`].
pub struct WildTable {
    symbols: usize,
    /// `factor[w * symbols + x]`: wild `w`'s multiplier standing for `x`.
    factor: Vec<Option<u64>>,
}

impl WildTable {
    #[inline]
    pub fn get(&self, w: SymbolId, x: SymbolId) -> Option<u64> {
        let (w, x) = (usize::from(w), usize::from(x));
        if x >= self.symbols {
            return None;
        }
        self.factor.get(w * self.symbols + x).copied().flatten()
    }
}

/// Whether a cell of reel `reel` showing `y` is in a way of `x`: on the
/// first reel the symbol itself, on the later ones the symbol or a wild
/// that `substitute`s it. The cells a screen frames and a cascade removes.
#[inline]
pub(crate) fn in_way(reel: usize, y: SymbolId, x: SymbolId, substitute: impl Fn(SymbolId, SymbolId) -> Option<u64>) -> bool {
    y == x || (reel > 0 && substitute(y, x).is_some())
}

impl ReelGame {
    /// The game's [`WildTable`].
    pub fn wild_table(&self) -> WildTable {
        let n = self.symbols.len();
        let factor = (0..n * n).map(|i| self.substitute((i / n) as SymbolId, (i % n) as SymbolId)).collect();
        WildTable { symbols: n, factor }
    }

    /// Each symbol's ways pay on the window `at(reel, row)`, per credit of
    /// the unit: (symbol, run, ways, pay), for the symbols that pay.
    pub fn way_pays(&self, at: impl Fn(usize, usize) -> SymbolId) -> Vec<(SymbolId, u8, u64, u64)> {
        let mut out = Vec::new();
        self.each_way_pay(at, |x, run, ways, pay| out.push((x, run, ways, pay)));
        out
    }

    /// The cells of a way win of `symbol` over `run` reels in `window`
    /// (`window[reel][row]`), as (reel, row): on the first reel the
    /// symbol itself, on the later ones the symbol or a wild that
    /// substitutes it; the screens frame these.
    pub fn way_cells(&self, window: &[Vec<SymbolId>], symbol: SymbolId, run: u8) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (reel, cells) in window.iter().enumerate().take(usize::from(run)) {
            for (row, &y) in cells.iter().enumerate() {
                if in_way(reel, y, symbol, |y, x| self.substitute(y, x)) {
                    out.push((reel, row));
                }
            }
        }
        out
    }

    /// The total of [`Self::way_pays`], without collecting them: for the
    /// simulation's hot loop.
    #[inline]
    pub fn way_pay_total(&self, at: impl Fn(usize, usize) -> SymbolId) -> u64 {
        let mut total = 0;
        self.each_way_pay(at, |_, _, _, pay| total += pay);
        total
    }

    /// The one rule of a ways pay: `paid(symbol, run, ways, pay)` for each
    /// symbol that pays. On each reel of the run a way goes through a
    /// cell showing the symbol or (after the first reel) a wild that
    /// substitutes it; the way's multiplier is its wilds' multipliers
    /// multiplied, or added ([`WildMultipliers`]; ×1 without a wild). So
    /// the ways pay `pay` × Σ over the ways of their multipliers:
    /// multiplied, Π over the reels of each reel's Σ of its cells'
    /// factors (1 for the symbol, m for a wild); added, the ways without
    /// a wild (Π of the symbol's own counts) plus Σ over the reels of the
    /// reel's wild multipliers times the ways through the other reels.
    #[inline]
    fn each_way_pay(&self, at: impl Fn(usize, usize) -> SymbolId, paid: impl FnMut(SymbolId, u8, u64, u64)) {
        self.each_way_pay_with(at, |y, x| self.substitute(y, x), paid)
    }

    /// [`Self::each_way_pay`] with the wilds looked up by `substitute`
    /// (a [`WildTable`]'s, in a hot loop).
    #[inline]
    pub(crate) fn each_way_pay_with(
        &self,
        at: impl Fn(usize, usize) -> SymbolId,
        substitute: impl Fn(SymbolId, SymbolId) -> Option<u64>,
        mut paid: impl FnMut(SymbolId, u8, u64, u64),
    ) {
        let n = self.reels.len();
        for (i, s) in self.symbols.iter().enumerate() {
            if !matches!(s.kind, SymbolKind::Regular) {
                continue;
            }
            let x = i as SymbolId;
            // A way starts with the symbol itself on the first reel: a
            // symbol not there pays nothing (most symbols of a window).
            let first = (0..self.rows_of(0)).filter(|&row| at(0, row) == x).count() as u64;
            if first == 0 || n == 0 {
                continue;
            }
            // Per reel of the run: cells in a way, the symbol's own cells,
            // the Σ of factors (multiplied), the Σ of wild multipliers.
            let mut cells = [(0u64, 0u64, 0u64, 0u64); super::MAX_REELS];
            cells[0] = (first, first, first, 0);
            let mut run = 1usize;
            for (r, reel) in cells.iter_mut().enumerate().take(n).skip(1) {
                for row in 0..self.rows_of(r) {
                    let y = at(r, row);
                    if y == x {
                        *reel = (reel.0 + 1, reel.1 + 1, reel.2 + 1, reel.3);
                    } else if r > 0
                        && let Some(m) = substitute(y, x)
                    {
                        *reel = (reel.0 + 1, reel.1, reel.2 + m, reel.3 + m);
                    }
                }
                if reel.0 == 0 {
                    break;
                }
                run += 1;
            }
            let pay = self.pays[i].get(run).copied().unwrap_or(0);
            if run == 0 || pay == 0 {
                continue;
            }
            let run_cells = &cells[..run];
            let ways = run_cells.iter().map(|c| c.0).product::<u64>();
            let weighted = match self.wild_multipliers {
                WildMultipliers::Multiply => run_cells.iter().map(|c| c.2).product::<u64>(),
                WildMultipliers::Add => {
                    let plain = run_cells.iter().map(|c| c.1).product::<u64>();
                    let with_wild: u64 =
                        (0..run).map(|r| run_cells[r].3 * run_cells.iter().enumerate().filter(|&(q, _)| q != r).map(|(_, c)| c.0).product::<u64>()).sum();
                    plain + with_wild
                }
            };
            paid(x, run as u8, ways, pay * weighted);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::{BetRules, Strip, Symbol};
    use super::*;

    pub(crate) fn game() -> ReelGame {
        let sym = |id: &str, kind| Symbol { id: id.into(), name: id.into(), kind };
        let strip = |s: &[u8]| Strip { symbols: s.to_vec(), weights: None };
        // A, B regular; W wild; S scatter.
        let mut pays = vec![vec![0u64; 4]; 4];
        pays[0][2] = 2;
        pays[0][3] = 10;
        pays[1][3] = 5;
        ReelGame {
            id: "w".into(),
            name: "W".into(),
            symbols: vec![
                sym("A", SymbolKind::Regular),
                sym("B", SymbolKind::Regular),
                sym("W", SymbolKind::Wild { multiplier: 1, expanding: false, substitutes: None, sticky: false }),
                sym("S", SymbolKind::Scatter),
            ],
            rows: 2,
            reel_rows: vec![],
            reels: vec![strip(&[0, 1]), strip(&[0, 2]), strip(&[0, 1])],
            lines: vec![],
            pays,
            scatter: None,
            bet: BetRules { lines: vec![10], credits_per_line: vec![1] },
            double_up: None,
            wild_only_multiplied: false,
            ways: true,
            wild_multipliers: WildMultipliers::Multiply,
            variant_of: None,
            hold_and_spin: None,
            cascade: None,
        }
    }

    /// Ways counted by hand: a window of rows × reels, each symbol's run
    /// and the product of its counts.
    #[test]
    fn ways_are_the_product_of_each_reel_s_count() {
        let g = game();
        // Reel 1: A A; reel 2: A W; reel 3: B A.
        let window = [[0u8, 0], [0, 2], [1, 0]];
        let pays = g.way_pays(|r, row| window[r][row]);
        // A: 2 × 2 × 1 = 4 ways of three, 10 each; B: not on reel 1.
        assert_eq!(pays, vec![(0, 3, 4, 40)]);
        // Reel 1: B A; reel 2: W W; reel 3: S S. A: 1 × 2 ways of two (2
        // each); B: 1 × 2 ways of two, unpaid; the wild never starts a way.
        let window = [[1u8, 0], [2, 2], [3, 3]];
        assert_eq!(g.way_pays(|r, row| window[r][row]), vec![(0, 2, 2, 4)]);
        let cells: Vec<Vec<u8>> = window.iter().map(|r| r.to_vec()).collect();
        assert_eq!(g.way_cells(&cells, 0, 2), vec![(0, 1), (1, 0), (1, 1)], "A on reel 1, the wilds on reel 2");
        let window = [[2u8, 2], [0, 0], [0, 0]];
        assert_eq!(g.way_pay_total(|r, row| window[r][row]), 0, "a wild on the first reel starts no way");
    }

    /// Two wilds (issue 50): W ×2 for every symbol, V ×3 for A alone;
    /// each way's multiplier counted by hand, multiplied and added.
    #[test]
    fn several_wilds_multiply_or_add_in_each_way() {
        let mut g = game();
        g.symbols.push(Symbol {
            id: "V".into(),
            name: "V".into(),
            kind: SymbolKind::Wild { multiplier: 3, expanding: false, substitutes: Some(vec![0]), sticky: false },
        });
        g.symbols[2].kind = SymbolKind::Wild { multiplier: 2, expanding: false, substitutes: None, sticky: false };
        g.pays.push(vec![0; 4]);
        // Reel 1: A B; reel 2: W V; reel 3: A V. A's ways: 1 × 2 × 2 = 4,
        // through (W, A) ×2, (W, V) ×6, (V, A) ×3, (V, V) ×9: Σ 20,
        // 10 each → 200. B: reel 2's W only (V stands for A alone), reel
        // 3 neither: a run of 2, unpaid.
        let window = [[0u8, 1], [2, 4], [0, 4]];
        assert_eq!(g.way_pays(|r, row| window[r][row]), vec![(0, 3, 4, 200)]);
        // Added: (W, A) 2, (W, V) 2 + 3, (V, A) 3, (V, V) 3 + 3: Σ 16.
        g.wild_multipliers = WildMultipliers::Add;
        assert_eq!(g.way_pays(|r, row| window[r][row]), vec![(0, 3, 4, 160)]);
        // Without a wild a way counts once, added or multiplied.
        let window = [[0u8, 0], [0, 1], [0, 1]];
        assert_eq!(g.way_pays(|r, row| window[r][row]), vec![(0, 3, 2, 20)]);
        // B's run through V stops: V does not stand for B.
        let window = [[1u8, 1], [4, 4], [1, 1]];
        assert_eq!(g.way_pays(|r, row| window[r][row]), vec![]);
    }
}
