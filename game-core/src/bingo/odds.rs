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
//! triangle inequality), and measured by simulation.
//!
//! Extra balls, for one card, are a Markov chain over the card's marked
//! sets: the next ball is any of the N − d balls still in the drum, each
//! as likely, and marks the card's cell if it holds that number. The
//! expected value and price of every offer along the way are summed by
//! dynamic programming over the 2^K sets and the extra balls bought.

use super::pattern::{Pattern, best};
use super::variant::Variant;
use super::{BingoGame, ExtraBalls};

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
    /// The return per credit bet on a card, as (numerator, `draws`).
    pub fn rtp(&self, patterns: &[Pattern]) -> (u128, u128) {
        (self.ways.iter().zip(patterns).map(|(w, p)| w * u128::from(p.pays)).sum(), self.draws)
    }

    /// E[X²] per credit² of what one card pays, as (numerator, `draws`).
    pub fn second_moment(&self, patterns: &[Pattern]) -> (u128, u128) {
        (self.ways.iter().zip(patterns).map(|(w, p)| w * u128::from(p.pays) * u128::from(p.pays)).sum(), self.draws)
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

/// The extra-ball chain for one card (see [`CardSets::extra`]).
pub fn extra_figures(game: &BingoGame, extra: &ExtraBalls, bet: u64) -> ExtraFigures {
    CardSets::new(game).extra(extra, bet)
}

/// A card of the game's variant and, for every set of its numbers, the
/// pattern it pays: visited once (2^24 sets on 75-ball), then read by the
/// base game's odds and by the extra balls' chain at any margin or bet.
pub struct CardSets<'a> {
    game: &'a BingoGame,
    k: usize,
    by_set: Vec<u8>,
}

impl<'a> CardSets<'a> {
    pub fn new(game: &'a BingoGame) -> CardSets<'a> {
        let g = Geometry::of(game.variant);
        CardSets { game, k: g.numbered.len(), by_set: best_by_set(game, &g) }
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

/// A return as a fraction: (value numerator, value denominator × price).
pub type Ratio = (u128, u128);

/// The extra balls' figures for one card at a bet of `bet` credits, the
/// player buying every ball offered; and the best and worst return of a
/// single offer over every marked set the card can show when one is made.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtraFigures {
    /// E[Σ expected value of the balls bought] per round, credits.
    pub value: f64,
    /// E[Σ prices paid] per round, credits.
    pub price: f64,
    /// The probability that a round is offered an extra ball.
    pub offered: f64,
    /// The highest and lowest return of one offer, value/price, as
    /// (value numerator, value denominator × price).
    pub best: Option<Ratio>,
    pub worst: Option<Ratio>,
}

impl ExtraFigures {
    /// The return of the purchases when every offer is bought.
    pub fn rtp(&self) -> f64 {
        if self.price > 0.0 { self.value / self.price } else { 0.0 }
    }
}

impl CardSets<'_> {
    /// The extra-ball chain for one card (see the module's documentation).
    /// Mirrors `Round::offer` exactly: the same gain per ball, price and
    /// floor.
    pub fn extra(&self, extra: &ExtraBalls, bet: u64) -> ExtraFigures {
        let (game, by_set, k) = (self.game, &self.by_set, self.k);
        let pays: Vec<u64> = game.patterns.iter().map(|p| p.pays).collect();
        let pay = |p: u8| if p == u8::MAX { 0 } else { pays[usize::from(p)] };
        let (n, d0) = (u64::from(game.variant.balls()), u64::from(game.balls));
        let most = u64::from(extra.most);
        let size = 1usize << k;
        // The offer at set s after d balls: (value numerator, remaining, price).
        let offer = |s: usize, d: u64| -> Option<(u64, u64, u64)> {
            let now = pay(by_set[s]);
            let mut total = 0u64;
            for c in 0..k {
                if s >> c & 1 == 0 {
                    total += pay(by_set[s | 1 << c]).saturating_sub(now);
                }
            }
            if total == 0 || d >= n {
                return None;
            }
            let remaining = n - d;
            let value = total.checked_mul(bet)?;
            let num = u128::from(value) * (10_000 + u128::from(extra.margin_bp));
            let price = u64::try_from(num.div_ceil(u128::from(remaining) * 10_000)).ok()?.max(1);
            if u128::from(value) * 10_000 < u128::from(extra.offer_floor_bp) * u128::from(price) * u128::from(remaining) {
                return None;
            }
            Some((value, remaining, price))
        };
        let feasible = |s: usize, d: u64| {
            let j = (s as u32).count_ones() as u64;
            j <= d && (k as u64 - j) <= n - d
        };
        // Backwards over the extra balls: A (value) and B (price) to come.
        let mut next_a = vec![0f64; size];
        let mut next_b = vec![0f64; size];
        let mut best_ratio: Option<Ratio> = None;
        let mut worst_ratio: Option<Ratio> = None;
        for level in (0..most).rev() {
            let d = d0 + level;
            let mut a = vec![0f64; size];
            let mut b = vec![0f64; size];
            let threads = 2;
            let chunk = size.div_ceil(threads);
            let extremes: Vec<(Option<Ratio>, Option<Ratio>)> = std::thread::scope(|scope| {
                let handles: Vec<_> = a
                    .chunks_mut(chunk)
                    .zip(b.chunks_mut(chunk))
                    .enumerate()
                    .map(|(t, (pa, pb))| {
                        let (next_a, next_b, offer, feasible) = (&next_a, &next_b, &offer, &feasible);
                        scope.spawn(move || {
                            let (mut hi, mut lo): (Option<Ratio>, Option<Ratio>) = (None, None);
                            for i in 0..pa.len() {
                                let s = t * chunk + i;
                                let Some((value, remaining, price)) = offer(s, d) else { continue };
                                let r = (u128::from(value), u128::from(remaining) * u128::from(price));
                                if feasible(s, d) {
                                    if hi.is_none_or(|h| r.0 * h.1 > h.0 * r.1) {
                                        hi = Some(r);
                                    }
                                    if lo.is_none_or(|l| r.0 * l.1 < l.0 * r.1) {
                                        lo = Some(r);
                                    }
                                }
                                let rem = remaining as f64;
                                let mut fa = 0f64;
                                let mut fb = 0f64;
                                let mut unmarked = 0u64;
                                for c in 0..k {
                                    if s >> c & 1 == 0 {
                                        unmarked += 1;
                                        fa += next_a[s | 1 << c];
                                        fb += next_b[s | 1 << c];
                                    }
                                }
                                let miss = (remaining - unmarked) as f64;
                                pa[i] = value as f64 / rem + (fa + miss * next_a[s]) / rem;
                                pb[i] = price as f64 + (fb + miss * next_b[s]) / rem;
                            }
                            (hi, lo)
                        })
                    })
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            });
            for (hi, lo) in extremes {
                if let Some(r) = hi
                    && best_ratio.is_none_or(|h| r.0 * h.1 > h.0 * r.1)
                {
                    best_ratio = Some(r);
                }
                if let Some(r) = lo
                    && worst_ratio.is_none_or(|l| r.0 * l.1 < l.0 * r.1)
                {
                    worst_ratio = Some(r);
                }
            }
            next_a = a;
            next_b = b;
        }
        // Weigh the sets the fixed draw leaves: C(N−K, D−j)/C(N, D) each.
        let all = choose(n, d0) as f64;
        let weight: Vec<f64> = (0..=k as u64).map(|j| if j <= d0 { choose(n - k as u64, d0 - j) as f64 / all } else { 0.0 }).collect();
        let (mut value, mut price, mut offered) = (0f64, 0f64, 0f64);
        for s in 0..size {
            let w = weight[(s as u32).count_ones() as usize];
            value += w * next_a[s];
            price += w * next_b[s];
            if next_b[s] > 0.0 {
                offered += w;
            }
        }
        ExtraFigures { value, price, offered, best: best_ratio, worst: worst_ratio }
    }
}
