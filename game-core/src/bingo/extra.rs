//! The extra balls' figures.
//!
//! **One card: the chain.** The next ball is any of the N − d balls still
//! in the drum, each as likely, and marks the card's cell if it holds that
//! number; so the marked sets form a Markov chain. The expected value and
//! the price of every offer along the way, buying while offered, are
//! summed by dynamic programming over the 2^K sets and the extra balls
//! bought, with the gain, price and floor of `Round::offer`.
//!
//! **Any number of cards: the bounds.** An offer's return is
//! v / (r · price(v, r)): v is the bet times the sum, over the cards, of
//! each card's gain (what marking each of its unmarked numbers would add),
//! and r the balls in the drum. A card's gain is the gain of its own
//! marked set, and a card with j of its K numbers marked after d balls is
//! possible only if j ≤ d and K − j ≤ N − d. So the gains of n cards are n
//! values, each one a gain one card can show after d balls (0 included):
//! sums over a superset of the states n cards can show together. The
//! least and the most return over every bet of the paytable, every count
//! of balls at which an offer can come and every such sum bound the return
//! of every offer n cards can be made; and so of every policy, since a
//! policy's return is a ratio of sums of its offers' values and prices,
//! which lies between its least and its most term.

use std::collections::{BTreeSet, HashSet};

use super::odds::{CardSets, choose};
use super::{BingoGame, ExtraBalls};

/// A return as a fraction: (value numerator, value denominator × price).
pub type Ratio = (u128, u128);

/// Whether return `a` is above return `b` (cross-multiplied, in u128; in
/// f64 where a product would overflow, which no paytable's figures reach).
fn above(a: Ratio, b: Ratio) -> bool {
    match (a.0.checked_mul(b.1), b.0.checked_mul(a.1)) {
        (Some(x), Some(y)) => x > y,
        _ => a.0 as f64 / a.1 as f64 > b.0 as f64 / b.1 as f64,
    }
}

/// Widens `(least, most)` to take in `r`.
fn take_in(bounds: &mut Option<(Ratio, Ratio)>, r: Ratio) {
    match bounds {
        None => *bounds = Some((r, r)),
        Some((least, most)) => {
            if above(*least, r) {
                *least = r;
            }
            if above(r, *most) {
                *most = r;
            }
        }
    }
}

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

/// The extra-ball chain for one card (see [`CardSets::extra`]).
pub fn extra_figures(game: &BingoGame, extra: &ExtraBalls, bet: u64) -> ExtraFigures {
    CardSets::new(game).extra(extra, bet)
}

/// The least and the most return of any extra ball offered to a round of
/// `cards` cards, at any bet of the paytable (see the module's
/// documentation): every policy's return lies between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferBounds {
    pub cards: usize,
    pub least: Ratio,
    pub most: Ratio,
}

/// How the chain meets an offer.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Buy every ball offered.
    EveryOffer,
    /// Buy where the ball and the offers after it are worth more than λ
    /// times their price (E[value − λ·price] > 0), else stop.
    WorthAt(f64),
}

impl CardSets<'_> {
    /// Each set's gain: Σ, over the card's numbers not in the set, of what
    /// marking that number adds to the card's prize (as `Round::offer`
    /// sums it, per credit bet).
    pub(super) fn gains(&self) -> &[u64] {
        self.gains.get_or_init(|| {
            let pays: Vec<u64> = self.game.patterns.iter().map(|p| p.pays).collect();
            let pay = |p: u8| if p == u8::MAX { 0 } else { pays[usize::from(p)] };
            let (by_set, k) = (&self.by_set, self.k);
            let mut out = vec![0u64; by_set.len()];
            let chunk = out.len().div_ceil(2);
            std::thread::scope(|scope| {
                for (t, part) in out.chunks_mut(chunk).enumerate() {
                    let pay = &pay;
                    scope.spawn(move || {
                        for (i, slot) in part.iter_mut().enumerate() {
                            let s = t * chunk + i;
                            let now = pay(by_set[s]);
                            *slot = (0..k).filter(|c| s >> c & 1 == 0).map(|c| pay(by_set[s | 1 << c]).saturating_sub(now)).fold(0, u64::saturating_add);
                        }
                    });
                }
            });
            out
        })
    }

    /// The extra-ball chain for one card (see the module's documentation),
    /// every offer bought. Mirrors `Round::offer` exactly: the same gain
    /// per ball, and the price and floor of [`ExtraBalls::price`].
    pub fn extra(&self, extra: &ExtraBalls, bet: u64) -> ExtraFigures {
        self.chain(extra, bet, Policy::EveryOffer)
    }

    /// The player's best policy for one card: the highest return per
    /// credit that any way of buying and stopping can get, and its value
    /// and price per round. `every` is [`CardSets::extra`] at the same
    /// extra balls and bet. Dinkelbach's iteration: from the return λ of
    /// buying every offer, the chain finds the policy that maximises
    /// E[value − λ·price], buying only where that is positive; its return
    /// becomes the next λ, which rises until no policy gains at λ. The
    /// marked set and the balls drawn are the whole state (the next ball
    /// is any of the drum's, each as likely), so that policy is best among
    /// every policy, whatever history it looks at.
    pub fn best_policy(&self, extra: &ExtraBalls, bet: u64, every: &ExtraFigures) -> ExtraFigures {
        let mut fig = every.clone();
        for _ in 0..100 {
            if fig.price <= 0.0 {
                break;
            }
            let next = self.chain(extra, bet, Policy::WorthAt(fig.rtp()));
            if next.price <= 0.0 || next.rtp() <= fig.rtp() {
                break;
            }
            fig = next;
        }
        fig
    }

    fn chain(&self, extra: &ExtraBalls, bet: u64, policy: Policy) -> ExtraFigures {
        let (game, k) = (self.game, self.k);
        let gains = self.gains();
        let (n, d0) = (u64::from(game.variant.balls()), u64::from(game.balls));
        let most = u64::from(extra.most);
        let size = 1usize << k;
        // The offer at set s after d balls: (value numerator, remaining, price).
        let offer = |s: usize, d: u64| -> Option<(u64, u64, u64)> {
            let remaining = n.checked_sub(d)?;
            let value = gains[s].checked_mul(bet)?;
            Some((value, remaining, extra.price(value, remaining)?))
        };
        let feasible = |s: usize, d: u64| {
            let j = (s as u32).count_ones() as u64;
            j <= d && (k as u64 - j) <= n - d
        };
        // Backwards over the extra balls: A (value) and B (price) to come.
        let mut next_a = vec![0f64; size];
        let mut next_b = vec![0f64; size];
        let mut bounds: Option<(Ratio, Ratio)> = None;
        for level in (0..most).rev() {
            let d = d0 + level;
            let mut a = vec![0f64; size];
            let mut b = vec![0f64; size];
            let chunk = size.div_ceil(2);
            let extremes: Vec<Option<(Ratio, Ratio)>> = std::thread::scope(|scope| {
                let handles: Vec<_> = a
                    .chunks_mut(chunk)
                    .zip(b.chunks_mut(chunk))
                    .enumerate()
                    .map(|(t, (pa, pb))| {
                        let (next_a, next_b, offer, feasible) = (&next_a, &next_b, &offer, &feasible);
                        scope.spawn(move || {
                            let mut seen: Option<(Ratio, Ratio)> = None;
                            for i in 0..pa.len() {
                                let s = t * chunk + i;
                                let Some((value, remaining, price)) = offer(s, d) else { continue };
                                if feasible(s, d) {
                                    take_in(&mut seen, (u128::from(value), u128::from(remaining) * u128::from(price)));
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
                                let a = value as f64 / rem + (fa + miss * next_a[s]) / rem;
                                let b = price as f64 + (fb + miss * next_b[s]) / rem;
                                // Stopping gains 0: buy only where E[value − λ·price] > 0.
                                if let Policy::WorthAt(lambda) = policy
                                    && a <= lambda * b * (1.0 + 1e-12)
                                {
                                    continue;
                                }
                                pa[i] = a;
                                pb[i] = b;
                            }
                            seen
                        })
                    })
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            });
            for (least, most) in extremes.into_iter().flatten() {
                take_in(&mut bounds, least);
                take_in(&mut bounds, most);
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
        ExtraFigures { value, price, offered, best: bounds.map(|b| b.1), worst: bounds.map(|b| b.0) }
    }

    /// The bounds on one offer's return for 1 to `most_cards` cards, at
    /// every bet from the paytable's least to its most (see the module's
    /// documentation); a count of cards that is never offered a ball is
    /// left out.
    pub fn offer_bounds(&self, extra: &ExtraBalls) -> Vec<OfferBounds> {
        let game = self.game;
        let (n, d0, k) = (u64::from(game.variant.balls()), u64::from(game.balls), self.k as u64);
        // The gains one card can show with j of its numbers marked.
        let mut by_hits: Vec<HashSet<u64>> = vec![HashSet::new(); self.k + 1];
        for (s, &g) in self.gains().iter().enumerate() {
            by_hits[(s as u32).count_ones() as usize].insert(g);
        }
        let mut found: Vec<Option<(Ratio, Ratio)>> = vec![None; usize::from(game.most_cards)];
        for d in d0..d0 + u64::from(extra.most) {
            let Some(remaining) = n.checked_sub(d) else { continue };
            let mut one: BTreeSet<u64> = BTreeSet::from([0]);
            for (j, gains) in by_hits.iter().enumerate() {
                let j = j as u64;
                if j <= d && k - j <= remaining {
                    one.extend(gains);
                }
            }
            // The sums n cards can show: n gains, each one card's.
            let mut sums: BTreeSet<u64> = BTreeSet::from([0]);
            for bounds in found.iter_mut() {
                sums = sums.iter().flat_map(|&a| one.iter().map(move |&b| a.saturating_add(b))).collect();
                for bet in game.minimum..=game.maximum {
                    for &t in &sums {
                        let Some(value) = t.checked_mul(bet) else { continue };
                        let Some(price) = extra.price(value, remaining) else { continue };
                        take_in(bounds, (u128::from(value), u128::from(remaining) * u128::from(price)));
                    }
                }
            }
        }
        found.into_iter().enumerate().filter_map(|(i, b)| b.map(|(least, most)| OfferBounds { cards: i + 1, least, most })).collect()
    }
}
