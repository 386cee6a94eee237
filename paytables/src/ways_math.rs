//! Exact mathematics of a ways game (issue 50; `game_core::reels::ways`)
//! over its full cycle, without visiting the cycle stop by stop.
//!
//! A symbol `x`'s win for a run of exactly `k` reels is a product over the
//! reels of one function of each reel's stop: its count of `x` on the
//! first reel, of `x` or the wild on the others up to the run, "shows
//! neither" on reel `k` (when `k` < the reels), 1 beyond. The reels stop
//! independently, so the expectation of such a product is the product of
//! each reel's expectation; carrying the scatters each stop shows as the
//! power of a variable `z` (a polynomial per reel) gives the joint law
//! with the scatter count. So, for every scatter count `c`:
//! - Σ weight, Σ win·weight: Σ over the (x, k) terms of pay × the
//!   coefficient of `z^c` in Π_reels Σ_stops weight · f(stop) · z^scatters
//!   (the scatter's pay, fixed by `c`, added per bet configuration);
//! - Σ win²·weight: the same over pairs of terms (the product of two terms
//!   is again a product of per-reel functions).
//!
//! The hit frequency needs the joint law of the runs, not a sum: a
//! dynamic programme over the reels whose state is the set of symbols
//! whose run is still alive, whether a paid run has ended, and the
//! scatters so far, each reel's stops grouped by what they show.
//!
//! Several wilds (each standing for its own symbols, with its own
//! multiplier) change only each stop's figures: a way's multipliers
//! multiplied make each term's Σ over its ways a product of per-reel sums
//! of factors again; added, a sum of products (the ways without a wild,
//! and per reel its wilds' multipliers times the ways through the
//! others), each part taken as above and pairs of parts for the second
//! moment.
//!
//! Each reel is read through `ReelGame::reel_window`: its own rows (a
//! 3-4-5-4-3 window) and an expanding wild filling the reel are then
//! already in each stop's counts, and nothing below depends on them.
//!
//! Integers throughout (big integers for products); the win histogram is
//! not computed (the figures say so).

use std::collections::{BTreeMap, HashMap};

use game_core::reels::{ReelGame, Strip, SymbolId, SymbolKind, WildMultipliers};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use crate::reel_math::{Culprit, MathError, Moments, SpinStats};

/// A polynomial in `z` (the scatter count), lowest power first.
type Poly = Vec<BigInt>;

fn mul(a: &Poly, b: &Poly) -> Poly {
    let mut out = vec![BigInt::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// One reel's stops as the analysis needs them: weight, scatters shown,
/// and for each symbol `x`: how many times the window shows it (`own`),
/// how many of its cells a way of `x` may go through (`cells`: it, or a
/// wild standing for it), those cells' factors summed (`weighted`: 1 for
/// `x`, a wild's multiplier for the wild) and the wilds' multipliers
/// alone (`wild_sum`).
struct Stop {
    weight: u64,
    scatters: usize,
    own: Vec<u64>,
    cells: Vec<u64>,
    weighted: Vec<u64>,
    wild_sum: Vec<u64>,
}

fn stops(game: &ReelGame, reel: usize, strip: &Strip) -> Vec<Stop> {
    // The scatter, or a hold-and-spin's bonus symbol (issue 50).
    let scatter = game.counted_symbol();
    let symbols = game.symbols.len();
    (0..strip.len())
        .filter(|&i| strip.weight(i) > 0)
        .map(|i| {
            // The reel's own rows, an expanding wild filling them.
            let shown: Vec<SymbolId> = game.reel_window(reel, strip, i);
            let mut stop = Stop {
                weight: strip.weight(i),
                scatters: shown.iter().filter(|&&s| Some(s) == scatter).count(),
                own: vec![0; symbols],
                cells: vec![0; symbols],
                weighted: vec![0; symbols],
                wild_sum: vec![0; symbols],
            };
            for &y in &shown {
                for x in 0..symbols {
                    if usize::from(y) == x {
                        stop.own[x] += 1;
                        stop.cells[x] += 1;
                        stop.weighted[x] += 1;
                    } else if let Some(m) = game.substitute(y, x as SymbolId) {
                        stop.cells[x] += 1;
                        stop.weighted[x] += m;
                        stop.wild_sum[x] += m;
                    }
                }
            }
            stop
        })
        .collect()
}

/// A paid run: symbol `x` over exactly `k` reels, paying `pay` per way
/// (times the way's multiplier).
#[derive(Clone, Copy)]
struct Term {
    x: usize,
    k: usize,
    pay: u64,
}

/// One product-form part of a term's Σ over its ways of their multipliers
/// (see `game_core::reels::ways`): multiplied, the one product of the
/// reels' summed factors; added, the ways without a wild, and for each
/// reel after the first its wilds' multipliers times the ways through
/// the other reels.
#[derive(Clone, Copy, PartialEq)]
enum Piece {
    Multiplied,
    NoWild,
    WildOn(usize),
}

impl Term {
    /// The term's parts.
    fn pieces(&self, combine: WildMultipliers) -> Vec<Piece> {
        match combine {
            WildMultipliers::Multiply => vec![Piece::Multiplied],
            WildMultipliers::Add => std::iter::once(Piece::NoWild).chain((1..self.k).map(Piece::WildOn)).collect(),
        }
    }

    /// A part's factor on reel `r` at `stop`: on the run's reels as the
    /// part says; "shows none of it" on reel `k`; 1 beyond.
    fn factor(&self, piece: Piece, r: usize, stop: &Stop) -> u64 {
        match r.cmp(&self.k) {
            std::cmp::Ordering::Less => match piece {
                _ if r == 0 => stop.own[self.x],
                Piece::Multiplied => stop.weighted[self.x],
                Piece::NoWild => stop.own[self.x],
                Piece::WildOn(j) if j == r => stop.wild_sum[self.x],
                Piece::WildOn(_) => stop.cells[self.x],
            },
            std::cmp::Ordering::Equal => u64::from(stop.cells[self.x] == 0),
            std::cmp::Ordering::Greater => 1,
        }
    }

    /// Whether the run is paid on reel `r` at `stop`: 1 or 0.
    fn shows(&self, r: usize, stop: &Stop) -> u64 {
        match r.cmp(&self.k) {
            std::cmp::Ordering::Less => u64::from(if r == 0 { stop.own[self.x] } else { stop.cells[self.x] } > 0),
            std::cmp::Ordering::Equal => u64::from(stop.cells[self.x] == 0),
            std::cmp::Ordering::Greater => 1,
        }
    }
}

/// Σ_stops weight · f(stop) · z^scatters on one reel (a reel shows at
/// most `rows` scatters).
fn reel_poly(reel: &[Stop], rows: usize, f: impl Fn(&Stop) -> u64) -> Poly {
    let mut p = vec![BigInt::zero(); rows + 1];
    for s in reel {
        let v = f(s);
        if v > 0 {
            p[s.scatters] += BigInt::from(s.weight) * BigInt::from(v);
        }
    }
    p
}

/// Π over the reels of [`reel_poly`]: of degree at most reels × rows.
fn product(reels: &[Vec<Stop>], rows: usize, f: impl Fn(usize, &Stop) -> u64) -> Poly {
    reels.iter().enumerate().fold(vec![BigInt::from(1)], |acc, (r, reel)| mul(&acc, &reel_poly(reel, rows, |s| f(r, s))))
}

fn small(x: &BigInt, what: &str) -> Result<u128, MathError> {
    x.to_u128().ok_or_else(|| MathError::PaysTooLarge { what: what.to_owned(), culprit: Culprit::LargestPay })
}

/// The spin statistics of a ways game on `strips` (every bet
/// configuration alike: a way's pay does not depend on the cost).
pub fn spin_stats(game: &ReelGame, strips: &[Strip], configs: &[usize], free: bool) -> Result<SpinStats, MathError> {
    let reels: Vec<Vec<Stop>> = strips.iter().enumerate().map(|(r, s)| stops(game, r, s)).collect();
    let n = reels.len();
    let rows = usize::from(game.rows);
    let max_scatters = n * rows;
    let terms: Vec<Term> = (0..game.symbols.len())
        .filter(|&x| matches!(game.symbols[x].kind, SymbolKind::Regular))
        .flat_map(|x| (1..=n).map(move |k| (x, k)))
        .filter_map(|(x, k)| game.pays[x].get(k).copied().filter(|&p| p > 0).map(|pay| Term { x, k, pay }))
        .collect();
    let weight = product(&reels, rows, |_, _| 1);
    let mut sum = vec![BigInt::zero(); max_scatters + 1];
    let mut sum_sq = vec![BigInt::zero(); max_scatters + 1];
    let mut combo_hits = BTreeMap::new();
    let mut combo_line_max = BTreeMap::new();
    let combine = game.wild_multipliers;
    for (i, t) in terms.iter().enumerate() {
        for piece in t.pieces(combine) {
            let ways = product(&reels, rows, |r, s| t.factor(piece, r, s));
            for (c, v) in ways.iter().enumerate() {
                sum[c] += v * BigInt::from(t.pay);
            }
        }
        // The weight of spins where this run pays.
        let hits = product(&reels, rows, |r, s| t.shows(r, s));
        let w = small(&hits.iter().sum::<BigInt>(), "the weight of a run")?;
        combo_hits.insert((t.x as SymbolId, t.k as u8, t.pay), w);
        combo_line_max.insert((t.x as SymbolId, t.k as u8), w);
        // Pairs of terms, each pair once (twice off the diagonal); the
        // product of two sums of parts, part by part.
        for u in &terms[i..] {
            let times = BigInt::from(t.pay) * BigInt::from(u.pay) * BigInt::from(if std::ptr::eq(t, u) { 1 } else { 2 });
            for p in t.pieces(combine) {
                for q in u.pieces(combine) {
                    let both = product(&reels, rows, |r, s| t.factor(p, r, s) * u.factor(q, r, s));
                    for (c, v) in both.iter().enumerate() {
                        sum_sq[c] += v * &times;
                    }
                }
            }
        }
    }
    // Per bet configuration, the spin's win with the scatter's pay (its
    // count's pay × the cost, a constant given the count): Σ (W + s)² =
    // Σ W² + 2 s Σ W + s² Σ 1.
    let mut by_scatters = Vec::with_capacity(configs.len());
    for &cost in configs {
        let mut moments = Vec::with_capacity(max_scatters + 1);
        for c in 0..=max_scatters {
            let pay = game.scatter.as_ref().and_then(|sc| sc.pays.get(c)).copied().unwrap_or(0);
            let s = BigInt::from(pay) * BigInt::from(cost);
            let with = &sum[c] + &s * &weight[c];
            let with_sq = &sum_sq[c] + BigInt::from(2) * &s * &sum[c] + &s * &s * &weight[c];
            moments.push(Moments {
                weight: small(&weight[c], "the cycle")?,
                sum: small(&with, "the sum of wins")?,
                sum_sq: small(&with_sq, "the sum of squared wins")?,
            });
        }
        by_scatters.push(moments);
    }
    let cycle = small(&weight.iter().sum::<BigInt>(), "the cycle")?;
    let line_sum = small(&sum.iter().sum::<BigInt>(), "the sum of wins")?;
    let hit = hit_weight(game, &reels, &terms, free)?;
    Ok(SpinStats {
        by_scatters,
        line_sum: vec![line_sum; configs.len()],
        hit_weight: vec![hit; configs.len()],
        histogram: vec![BTreeMap::new(); configs.len()],
        combo_any: BTreeMap::new(),
        combo_hits,
        cycle,
        joint: false,
        combo_line_max,
    })
}

/// The weight of the spins that pay anything or award free games: the
/// dynamic programme of the module's text.
fn hit_weight(game: &ReelGame, reels: &[Vec<Stop>], terms: &[Term], free: bool) -> Result<u128, MathError> {
    let n = reels.len();
    // Symbols as bits (a game has at most 64 symbols; more is refused).
    if game.symbols.len() > 64 {
        return Err(MathError::PaysTooLarge { what: "more than 64 symbols in a ways game".into(), culprit: Culprit::LargestPay });
    }
    // The symbols a run of exactly k reels pays, as bits, for each k.
    let mut paid = vec![0u64; n + 1];
    for t in terms {
        paid[t.k] |= 1 << t.x;
    }
    let mask =
        |s: &Stop, first: bool| -> u64 { (0..game.symbols.len()).filter(|&x| if first { s.own[x] > 0 } else { s.cells[x] > 0 }).fold(0u64, |m, x| m | 1 << x) };
    // State: (alive symbols, a paid run ended, scatters) → weight; only
    // the symbols some run pays are followed.
    let paying = paid.iter().fold(0u64, |m, p| m | p);
    let mut states: HashMap<(u64, bool, usize), u128> = HashMap::new();
    for s in &reels[0] {
        let alive = mask(s, true) & paying;
        *states.entry((alive, false, s.scatters)).or_default() += u128::from(s.weight);
    }
    for (r, reel) in reels.iter().enumerate().skip(1) {
        // This reel's stops grouped by what they show.
        let mut groups: HashMap<(u64, usize), u128> = HashMap::new();
        for s in reel {
            *groups.entry((mask(s, false), s.scatters)).or_default() += u128::from(s.weight);
        }
        let mut next: HashMap<(u64, bool, usize), u128> = HashMap::new();
        for (&(alive, won, sc), &w) in &states {
            for (&(shown, s), &g) in &groups {
                let still = alive & shown;
                let ended = alive & !shown;
                let won = won || ended & paid[r] != 0;
                let v = w.checked_mul(g).ok_or_else(|| MathError::PaysTooLarge { what: "the cycle".into(), culprit: Culprit::Strips })?;
                *next.entry((still, won, sc + s)).or_default() += v;
            }
        }
        states = next;
    }
    let sc = game.scatter.as_ref();
    // A round that starts the hold-and-spin feature is a hit.
    let starts_hold = |c: usize| !free && game.hold_and_spin.as_ref().is_some_and(|h| c >= usize::from(h.trigger));
    let scatter_hit = |c: usize| {
        starts_hold(c)
            || sc.is_some_and(|s| {
                s.pays.get(c).copied().unwrap_or(0) > 0
                    || s.free_games.as_ref().is_some_and(|f| (!free || f.retrigger) && f.awards.get(c).copied().unwrap_or(0) > 0)
            })
    };
    Ok(states.iter().filter(|&(&(alive, won, c), _)| won || alive & paid[n] != 0 || scatter_hit(c)).map(|(_, &w)| w).sum())
}
