//! The exact mathematics of a cascade game (issue 50;
//! `game_core::reels::cascade`).
//!
//! A cascade draws nothing: every window after the first follows from the
//! stops (the symbols left fall, the strips fill from above). The win of
//! a spin is therefore a function of its stops alone, and the exact
//! figures are a walk of the full cycle: every stop combination, its
//! weight, and its whole cascade played by game-core's own rule. Where
//! that is possible, everything is exact, the hit frequency and the win
//! distribution included. The cascade ties every reel to every other (a
//! removal on one reel changes which ways the others complete), so no
//! product form over the reels exists as it does for ways pays; past
//! [`CASCADE_CYCLE_LIMIT`] combinations the analysis refuses, named, and
//! the game can only be simulated (`paytable simulate`), which is never
//! printed as exact.

use std::collections::BTreeMap;

use game_core::reels::{MAX_REELS, ReelGame, Strip, SymbolId, WildTable};

use crate::reel_math::{Culprit, MathError, Moments, SpinStats};

/// Stop combinations up to which a cascade game's cycle is walked (about
/// a minute on two cores at most).
pub const CASCADE_CYCLE_LIMIT: u128 = 20_000_000;

/// Wins below this many credits are counted in a table, the rest in a map.
const DENSE_WINS: usize = 1 << 14;

/// What one thread's part of the walk collects.
struct Part {
    moments: Moments,
    hits: u128,
    /// Weight by win: a table for the small wins, a map past it.
    small: Vec<u128>,
    large: BTreeMap<u64, u128>,
    /// Weight of the spins paying each (symbol, run) somewhere in their
    /// cascade, `combos[symbol * (MAX_REELS + 1) + run]`.
    combos: Vec<u128>,
    /// The (symbol, run) a spin has paid so far (a scratch list).
    seen: Vec<usize>,
}

impl Part {
    fn new(game: &ReelGame) -> Part {
        Part {
            moments: Moments::default(),
            hits: 0,
            small: vec![0; DENSE_WINS],
            large: BTreeMap::new(),
            combos: vec![0; game.symbols.len() * (MAX_REELS + 1)],
            seen: Vec::new(),
        }
    }

    fn add(&mut self, other: Part) {
        self.moments.merge(&other.moments);
        self.hits += other.hits;
        for (a, b) in self.small.iter_mut().zip(other.small) {
            *a += b;
        }
        for (k, v) in other.large {
            *self.large.entry(k).or_default() += v;
        }
        for (a, b) in self.combos.iter_mut().zip(other.combos) {
            *a += b;
        }
    }
}

/// The spin statistics of a cascade game on `strips`, by walking every
/// stop combination (every bet configuration alike: a ways game has one
/// cost).
pub fn spin_stats(game: &ReelGame, strips: &[Strip], configs: &[usize], threads: usize) -> Result<SpinStats, MathError> {
    let cycle_stops: u128 = strips.iter().map(|s| s.len() as u128).product();
    if cycle_stops > CASCADE_CYCLE_LIMIT {
        return Err(MathError::CycleTooLarge {
            what: format!(
                "{cycle_stops} stop combinations of a cascade game, past the {CASCADE_CYCLE_LIMIT} an exact walk takes: a cascade ties every reel to the others, so only the full cycle is exact; shorten the strips, or simulate (paytable simulate), which is not exact"
            ),
            culprit: Culprit::Strips,
        });
    }
    let first = strips.first().map_or(0, Strip::len);
    let threads = threads.clamp(1, first.max(1));
    let wilds = &game.wild_table();
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut part = Part::new(game);
                    let n = strips.len();
                    let mut stops = vec![0u32; n];
                    for a in (t..first).step_by(threads) {
                        stops[0] = a as u32;
                        walk(game, wilds, strips, &mut stops, 1, u128::from(strips[0].weight(a)), &mut part);
                    }
                    part
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut total = Part::new(game);
    for p in parts {
        total.add(p);
    }
    let mut histogram = total.large;
    histogram.extend(total.small.iter().enumerate().filter(|&(_, &w)| w > 0).map(|(win, &w)| (win as u64, w)));
    // A run's pay is the paytable's for it: each (symbol, run) is its one
    // (symbol, run, pay).
    let mut combo_any = BTreeMap::new();
    let mut combo_hits = BTreeMap::new();
    for (i, &w) in total.combos.iter().enumerate().filter(|&(_, &w)| w > 0) {
        let (symbol, run) = (i / (MAX_REELS + 1), i % (MAX_REELS + 1));
        let pay = game.pays.get(symbol).and_then(|p| p.get(run)).copied().unwrap_or(0);
        combo_any.insert((symbol as SymbolId, run as u8), w);
        combo_hits.insert((symbol as SymbolId, run as u8, pay), w);
    }
    let k = configs.len();
    Ok(SpinStats {
        by_scatters: vec![vec![total.moments]; k],
        line_sum: vec![total.moments.sum; k],
        hit_weight: vec![total.hits; k],
        histogram: vec![histogram; k],
        combo_any,
        combo_hits,
        cycle: total.moments.weight,
        joint: true,
        combo_line_max: BTreeMap::new(),
    })
}

/// Every combination of the reels from `reel` on, its weight `w` so far.
fn walk(game: &ReelGame, wilds: &WildTable, strips: &[Strip], stops: &mut [u32], reel: usize, w: u128, part: &mut Part) {
    if reel == strips.len() {
        // The spin's own wins and every cascade after them, per credit of
        // the unit, by game-core's rule.
        let mut win = 0u64;
        part.seen.clear();
        game.fall(strips, stops, wilds, |window| {
            for &(symbol, run, _, pay) in window.pays {
                win += pay * window.multiplier;
                let combo = usize::from(symbol) * (MAX_REELS + 1) + usize::from(run);
                if !part.seen.contains(&combo) {
                    part.seen.push(combo);
                }
            }
        });
        part.moments.add(win, w);
        if win > 0 {
            part.hits += w;
        }
        match part.small.get_mut(win as usize) {
            Some(slot) => *slot += w,
            None => *part.large.entry(win).or_default() += w,
        }
        for &combo in &part.seen {
            if let Some(slot) = part.combos.get_mut(combo) {
                *slot += w;
            }
        }
        return;
    }
    for i in 0..strips[reel].len() {
        let sw = strips[reel].weight(i);
        if sw == 0 {
            continue;
        }
        stops[reel] = i as u32;
        walk(game, wilds, strips, stops, reel + 1, w * u128::from(sw), part);
    }
}
