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

use game_core::reels::{ReelGame, Strip, SymbolId};

use crate::reel_math::{Culprit, MathError, Moments, SpinStats};

/// Stop combinations up to which a cascade game's cycle is walked (about
/// a minute on two cores at most).
pub const CASCADE_CYCLE_LIMIT: u128 = 20_000_000;

/// What one thread's part of the walk collects.
#[derive(Default)]
struct Part {
    moments: Moments,
    hits: u128,
    histogram: BTreeMap<u64, u128>,
    combos: BTreeMap<(SymbolId, u8), u128>,
    combo_pays: BTreeMap<(SymbolId, u8, u64), u128>,
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
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut part = Part::default();
                    let n = strips.len();
                    let mut stops = vec![0u32; n];
                    for a in (t..first).step_by(threads) {
                        stops[0] = a as u32;
                        walk(game, strips, &mut stops, 1, u128::from(strips[0].weight(a)), &mut part);
                    }
                    part
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut total = Part::default();
    for p in parts {
        total.moments.weight += p.moments.weight;
        total.moments.sum += p.moments.sum;
        total.moments.sum_sq += p.moments.sum_sq;
        total.hits += p.hits;
        for (k, v) in p.histogram {
            *total.histogram.entry(k).or_default() += v;
        }
        for (k, v) in p.combos {
            *total.combos.entry(k).or_default() += v;
        }
        for (k, v) in p.combo_pays {
            *total.combo_pays.entry(k).or_default() += v;
        }
    }
    let k = configs.len();
    Ok(SpinStats {
        by_scatters: vec![vec![total.moments]; k],
        line_sum: vec![total.moments.sum; k],
        hit_weight: vec![total.hits; k],
        histogram: vec![total.histogram; k],
        combo_any: total.combos,
        combo_hits: total.combo_pays,
        cycle: total.moments.weight,
        joint: true,
        combo_line_max: BTreeMap::new(),
    })
}

/// Every combination of the reels from `reel` on, its weight `w` so far.
fn walk(game: &ReelGame, strips: &[Strip], stops: &mut [u32], reel: usize, w: u128, part: &mut Part) {
    if reel == strips.len() {
        // The spin's own wins and every cascade after them, per credit of
        // the unit, by game-core's rule.
        let (first, more) = game.cascades(strips, stops, 1);
        let win = first.iter().map(|x| x.win).sum::<u64>() + more.iter().map(|c| c.win).sum::<u64>();
        let x = u128::from(win);
        part.moments.weight += w;
        part.moments.sum += x * w;
        part.moments.sum_sq += x * x * w;
        if win > 0 {
            part.hits += w;
        }
        *part.histogram.entry(win).or_default() += w;
        let mut seen: Vec<(SymbolId, u8, u64)> = Vec::new();
        for ww in first.iter().chain(more.iter().flat_map(|c| c.way_wins.iter())) {
            let pay = game.pays[usize::from(ww.symbol)].get(usize::from(ww.count)).copied().unwrap_or(0);
            if !seen.contains(&(ww.symbol, ww.count, pay)) {
                seen.push((ww.symbol, ww.count, pay));
            }
        }
        for (symbol, count, pay) in seen {
            *part.combos.entry((symbol, count)).or_default() += w;
            *part.combo_pays.entry((symbol, count, pay)).or_default() += w;
        }
        return;
    }
    for i in 0..strips[reel].len() {
        let sw = strips[reel].weight(i);
        if sw == 0 {
            continue;
        }
        stops[reel] = i as u32;
        walk(game, strips, stops, reel + 1, w * u128::from(sw), part);
    }
}
