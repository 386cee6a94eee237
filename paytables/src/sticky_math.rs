//! Free games with a sticky wild (issue 50): the free games of a round
//! are no longer independent, since a reel the sticky (expanding) wild
//! filled stays filled for the rest of them. They are a Markov chain
//! whose state is the set of filled reels: from state `s`, each spin
//! fills the reels of some new set `T` (those whose window shows the
//! wild), and its win depends on `s` and on the stops that filled `T`.
//! For every pair (`s`, `T`) the spin's moments — its probability, Σ
//! win and Σ win² over the cycle — are the ways mathematics of the free
//! strips with the reels of `s` replaced by one all-wild stop, those of
//! `T` kept to the stops that show the wild and the other reels to the
//! stops that do not. A forward pass over the free games then carries,
//! per state, the probability, E[T·1] and E[T²·1] of the session so far,
//! so the session of N free games has its exact mean and second moment
//! for every N the scatters award (retriggers are refused with a sticky
//! wild: the number of free games is the award).
//!
//! With w reels that can show the wild there are 2^w states and 3^w
//! (state, new set) pairs: 243 ways-mathematics runs for five reels.

use game_core::reels::{ReelGame, Strip};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use crate::reel_math::MathError;

/// One free game's moments from a state to the next: probability, and
/// per bet configuration E[win·1], E[win²·1] (credits per credit of the
/// unit, the free games' multiplier applied).
struct Step {
    to: usize,
    p: BigRational,
    e1: Vec<BigRational>,
    e2: Vec<BigRational>,
}

fn rat(x: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

/// Per bet configuration, for every number of free games `n` up to
/// `most`, the session's E[T] and E[T²] (index `n`).
pub type Sessions = Vec<Vec<(BigRational, BigRational)>>;

/// The sessions of free games of `game`, whose wild is sticky.
pub fn sessions(game: &ReelGame, configs: &[usize], most: usize) -> Result<Sessions, MathError> {
    let Some(wild) = game.sticky_wild() else { return Ok(Vec::new()) };
    let strips = game.strips(true);
    let n = strips.len();
    let shows = |r: usize, stop: usize| game.reel_window(r, &strips[r], stop).contains(&wild);
    // The reels that can show the wild: the chain's state is a set of them.
    let can: Vec<usize> = (0..n).filter(|&r| (0..strips[r].len()).any(|stop| strips[r].weight(stop) > 0 && shows(r, stop))).collect();
    let states = 1usize << can.len();
    let mult = BigRational::from_integer(BigInt::from(game.free_games().map_or(1, |f| f.multiplier)));
    let cycle: BigRational = strips.iter().map(|s| rat(u128::from(s.total_weight()))).product();
    let mut steps: Vec<Vec<Step>> = Vec::with_capacity(states);
    for s in 0..states {
        let mut from_s = Vec::new();
        let free_bits: Vec<usize> = (0..can.len()).filter(|&b| s >> b & 1 == 0).collect();
        for pick in 0..1usize << free_bits.len() {
            let t: usize = free_bits.iter().enumerate().filter(|&(i, _)| pick >> i & 1 == 1).fold(0, |m, (_, &b)| m | 1 << b);
            let mut these: Vec<Strip> = strips.to_vec();
            for (b, &r) in can.iter().enumerate() {
                let strip = &strips[r];
                these[r] = if s >> b & 1 == 1 {
                    // Held: one stop, all wild, weighing the whole reel.
                    Strip { symbols: vec![wild], weights: Some(vec![strip.total_weight()]) }
                } else {
                    let filled = t >> b & 1 == 1;
                    let weights = (0..strip.len()).map(|stop| if shows(r, stop) == filled { strip.weight(stop) } else { 0 }).collect();
                    Strip { symbols: strip.symbols.clone(), weights: Some(weights) }
                };
            }
            if these.iter().any(|st| st.total_weight() == 0) {
                continue;
            }
            let stats = crate::ways_math::spin_stats(game, &these, configs, true)?;
            let weight: u128 = stats.by_scatters.first().map_or(0, |m| m.iter().map(|x| x.weight).sum());
            let e1 = stats.by_scatters.iter().map(|m| rat(m.iter().map(|x| x.sum).sum()) * &mult / &cycle).collect();
            let e2 = stats.by_scatters.iter().map(|m| rat(m.iter().map(|x| x.sum_sq).sum()) * &mult * &mult / &cycle).collect();
            from_s.push(Step { to: s | t, p: rat(weight) / &cycle, e1, e2 });
        }
        steps.push(from_s);
    }
    // The forward pass: per state, P, E[T·1], E[T²·1] after k free games.
    let mut out: Sessions = vec![vec![(BigRational::zero(), BigRational::zero())]; configs.len()];
    for (j, sessions) in out.iter_mut().enumerate() {
        let mut mass = vec![BigRational::zero(); states];
        mass[0] = BigRational::from_integer(1.into());
        let (mut a, mut b) = (vec![BigRational::zero(); states], vec![BigRational::zero(); states]);
        for _ in 1..=most {
            let (mut m2, mut a2, mut b2) = (vec![BigRational::zero(); states], vec![BigRational::zero(); states], vec![BigRational::zero(); states]);
            for (s, from_s) in steps.iter().enumerate() {
                if mass[s].is_zero() {
                    continue;
                }
                for st in from_s {
                    m2[st.to] += &mass[s] * &st.p;
                    a2[st.to] += &a[s] * &st.p + &mass[s] * &st.e1[j];
                    b2[st.to] += &b[s] * &st.p + BigRational::from_integer(2.into()) * &a[s] * &st.e1[j] + &mass[s] * &st.e2[j];
                }
            }
            (mass, a, b) = (m2, a2, b2);
            sessions.push((a.iter().sum(), b.iter().sum()));
        }
    }
    Ok(out)
}
