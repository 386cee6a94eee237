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
//! chooses; each way pays its pay per credit of that unit. The wild of a
//! ways game has no pays of its own and multiplies by 1 (the compiler
//! refuses the rest, named).

use serde::{Deserialize, Serialize};

use super::{ReelGame, SymbolId, SymbolKind};

/// A ways win of a spin: the symbol, the reels its run crosses, its ways,
/// and the credits it pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WayWin {
    pub symbol: SymbolId,
    pub count: u8,
    pub ways: u64,
    pub win: u64,
}

impl ReelGame {
    /// Each symbol's ways pay on the window `at(reel, row)`, per credit of
    /// the unit: (symbol, run, ways, pay), for the symbols that pay.
    pub fn way_pays(&self, at: impl Fn(usize, usize) -> SymbolId) -> Vec<(SymbolId, u8, u64, u64)> {
        let mut out = Vec::new();
        self.each_way_pay(at, |x, run, ways, pay| out.push((x, run, ways, pay)));
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
    /// symbol that pays.
    #[inline]
    fn each_way_pay(&self, at: impl Fn(usize, usize) -> SymbolId, mut paid: impl FnMut(SymbolId, u8, u64, u64)) {
        let wild = self.wild().map(|(w, _)| w);
        let n = self.reels.len();
        for (i, s) in self.symbols.iter().enumerate() {
            if !matches!(s.kind, SymbolKind::Regular) {
                continue;
            }
            let x = i as SymbolId;
            let (mut run, mut ways) = (0usize, 1u64);
            for r in 0..n {
                let c = (0..self.rows_of(r))
                    .filter(|&row| {
                        let y = at(r, row);
                        y == x || (r > 0 && Some(y) == wild)
                    })
                    .count() as u64;
                if c == 0 {
                    break;
                }
                ways *= c;
                run += 1;
            }
            let pay = self.pays[i].get(run).copied().unwrap_or(0);
            if run > 0 && pay > 0 {
                paid(x, run as u8, ways, pay * ways);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BetRules, Strip, Symbol};
    use super::*;

    fn game() -> ReelGame {
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
                sym("W", SymbolKind::Wild { multiplier: 1, expanding: false }),
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
        let window = [[2u8, 2], [0, 0], [0, 0]];
        assert_eq!(g.way_pay_total(|r, row| window[r][row]), 0, "a wild on the first reel starts no way");
    }
}
