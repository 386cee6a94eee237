//! Exact odds of a bingo card.
//!
//! **Why one card's odds do not depend on its numbers.** The draw is a
//! uniform set of D of the N balls. A card holds K distinct numbers; the
//! cells it marks are the cells of the drawn numbers among its own, so for
//! every j the marked set is uniform over the C(K, j) sets of j of its
//! cells, with probability C(K, j)·C(N−K, D−j)/C(N, D) for j hits,
//! whichever K numbers the card holds. A pattern is a set of cells, so the
//! distribution of the pattern a card pays is the same for every card of
//! the variant's geometry, and exactly
//!
//!   P(card pays p) = Σⱼ ways(j, p) · C(N−K, D−j) / C(N, D),
//!
//! where ways(j, p) counts the sets of j of the card's cells whose highest
//! pattern is p, found by visiting all 2^K of them. The 75-, 80- and
//! 30-ball cards all have the same geometry; the 90-ball cards' blanks
//! differ, which is why a 90-ball pattern must be made of whole rows (each
//! row holds exactly five numbers on every card, B-14), and then any valid
//! layout gives the same count. So the card generator's distribution
//! drops out of the return entirely: each of the n cards of a round has
//! this prize distribution, whatever the others are, and by linearity of
//! expectation the return of n cards is n times one card's, exactly. What
//! does depend on the cards together (they share the draw) is the
//! distribution of the round's total: its hit frequency and standard
//! deviation for n > 1 are given as proven bounds (the union bound and the
//! triangle inequality), and measured by simulation. The extra balls'
//! figures are in [`super::extra`].

use super::BingoGame;
use super::pattern::{Pattern, best};
use super::variant::Variant;

/// C(n, k) exactly.
pub fn choose(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// A card's geometry: the cells that hold numbers, and the free ones.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub numbered: Vec<usize>,
    pub free: u32,
}

impl Geometry {
    /// The variant's geometry: every cell but the free centre; on 90-ball,
    /// one valid layout (rows of five, columns of one or two), which any
    /// other gives the same odds for patterns of whole rows.
    pub fn of(variant: Variant) -> Geometry {
        let cells: Vec<usize> = match variant {
            Variant::Ninety => {
                let rows: [[usize; 5]; 3] = [[0, 1, 2, 3, 4], [4, 5, 6, 7, 8], [0, 2, 5, 6, 8]];
                let mut v: Vec<usize> = rows.iter().enumerate().flat_map(|(r, cs)| cs.iter().map(move |&c| variant.cell(r, c))).collect();
                v.sort_unstable();
                v
            }
            _ => (0..variant.cells()).filter(|&c| Some(c) != variant.free_cell()).collect(),
        };
        let all = variant.full_mask();
        let numbered = cells.iter().fold(0u32, |m, &c| m | 1 << c);
        Geometry { numbered: cells, free: all & !numbered }
    }

    /// The marked cells for a set `s` of the card's numbers (bit k: the
    /// k-th numbered cell).
    fn expander(&self) -> impl Fn(u32) -> u32 + '_ {
        let lo: Vec<u32> = (0..1u32 << 12).map(|s| self.spread(s, 0)).collect();
        let hi: Vec<u32> = (0..1u32 << self.numbered.len().saturating_sub(12)).map(|s| self.spread(s, 12)).collect();
        move |s| self.free | lo[(s & 0xfff) as usize] | hi[(s >> 12) as usize]
    }

    fn spread(&self, s: u32, from: usize) -> u32 {
        (0..32).filter(|b| s >> b & 1 == 1).filter_map(|b| self.numbered.get(from + b)).fold(0, |m, &c| m | 1 << c)
    }
}

/// The exact distribution of what one card pays after the fixed draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardOdds {
    /// For each pattern, the draws (of C(N, D)) in which it is the card's
    /// highest.
    pub ways: Vec<u128>,
    /// The draws in which the card pays nothing.
    pub none: u128,
    /// C(N, D).
    pub draws: u128,
}

impl CardOdds {
    /// The return per credit bet on a card, as (numerator, `draws`);
    /// `None` where the numerator would not fit 128 bits (issue 49: pays
    /// near 2^64 overflowed; the compiler bounds them, the sum is checked
    /// all the same).
    pub fn rtp(&self, patterns: &[Pattern]) -> Option<(u128, u128)> {
        let sum = self.ways.iter().zip(patterns).try_fold(0u128, |acc, (w, p)| acc.checked_add(w.checked_mul(u128::from(p.pays))?))?;
        Some((sum, self.draws))
    }
}

/// For every set of the card's numbers, the index of the pattern it pays
/// (`u8::MAX`: none). Visits all 2^K sets.
fn best_by_set(game: &BingoGame, g: &Geometry) -> Vec<u8> {
    let expand = g.expander();
    let k = g.numbered.len();
    let mut out = vec![u8::MAX; 1 << k];
    let threads = 2;
    let chunk = out.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for (t, part) in out.chunks_mut(chunk).enumerate() {
            let expand = &expand;
            scope.spawn(move || {
                for (i, slot) in part.iter_mut().enumerate() {
                    let s = (t * chunk + i) as u32;
                    *slot = best(&game.patterns, expand(s)).map_or(u8::MAX, |p| p as u8);
                }
            });
        }
    });
    out
}

/// One card's exact odds after the game's fixed draw.
pub fn card_odds(game: &BingoGame) -> CardOdds {
    CardSets::new(game).odds()
}

/// A card of the game's variant and, for every set of its numbers, the
/// pattern it pays: visited once (2^24 sets on 75-ball), then read by the
/// base game's odds and by the extra balls' chain at any margin or bet.
pub struct CardSets<'a> {
    pub(super) game: &'a BingoGame,
    /// The card's numbers, K.
    pub(super) k: usize,
    /// The pattern each set of them pays (`u8::MAX`: none).
    pub(super) by_set: Vec<u8>,
    /// Each set's gain: Σ, over its unmarked numbers, of what marking it
    /// adds; computed on first use (the extra balls).
    pub(super) gains: std::sync::OnceLock<Vec<u64>>,
}

impl<'a> CardSets<'a> {
    pub fn new(game: &'a BingoGame) -> CardSets<'a> {
        let g = Geometry::of(game.variant);
        CardSets { game, k: g.numbered.len(), by_set: best_by_set(game, &g), gains: std::sync::OnceLock::new() }
    }

    /// One card's exact odds after the game's fixed draw.
    pub fn odds(&self) -> CardOdds {
        let (game, by_set) = (self.game, &self.by_set);
        let k = self.k as u64;
        let (n, d) = (u64::from(game.variant.balls()), u64::from(game.balls));
        // ways(j, p): the sets of j numbers whose highest pattern is p.
        let mut count = vec![vec![0u128; game.patterns.len() + 1]; k as usize + 1];
        for (s, &p) in by_set.iter().enumerate() {
            let j = (s as u32).count_ones() as usize;
            let slot = if p == u8::MAX { game.patterns.len() } else { usize::from(p) };
            count[j][slot] += 1;
        }
        let mut ways = vec![0u128; game.patterns.len()];
        let mut none = 0u128;
        for (j, row) in count.iter().enumerate() {
            let j = j as u64;
            if j > d {
                continue;
            }
            let outside = choose(n - k, d - j);
            for (p, &c) in row.iter().enumerate() {
                if p == game.patterns.len() {
                    none += c * outside;
                } else {
                    ways[p] += c * outside;
                }
            }
        }
        CardOdds { ways, none, draws: choose(n, d) }
    }
}
