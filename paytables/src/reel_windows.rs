//! A reel's distinct windows: the unit of the full-cycle walk (issue 36,
//! point 4).
//!
//! Everything a spin pays depends only on what each reel shows in the
//! window (its rows' symbols), never on which stop showed it. Stops that
//! show the same window are therefore one class whose weight is the sum of
//! theirs, and the walk over classes gives every figure of the walk over
//! stops exactly — the hit frequency, the largest win and the whole win
//! distribution included — with far fewer combinations wherever a strip
//! repeats itself (a long strip of few symbols, a strip listed twice).

use std::collections::HashMap;

use game_core::reels::{Strip, SymbolId};

/// One reel's windows, each with its weight and its scatter count.
pub(crate) struct Windows {
    /// `symbols[class * rows + row]`.
    pub(crate) symbols: Vec<SymbolId>,
    pub(crate) weights: Vec<u64>,
    pub(crate) scatters: Vec<u8>,
}

impl Windows {
    pub(crate) fn len(&self) -> usize {
        self.weights.len()
    }
}

/// The distinct windows of `strip` seen through `rows` rows, in the order
/// of their first stop, each weighing what its stops weigh together (stops
/// of weight 0 show nothing). Should a class's weight not fit 64 bits, the
/// strip is kept stop by stop.
pub(crate) fn classes(strip: &Strip, rows: usize, scatter: Option<SymbolId>) -> Windows {
    let window = |stop: usize| (0..rows).map(|r| strip.at(stop, r)).collect::<Vec<_>>();
    let mut index: HashMap<Vec<SymbolId>, usize> = HashMap::new();
    let mut out = Windows { symbols: Vec::new(), weights: Vec::new(), scatters: Vec::new() };
    for stop in 0..strip.len() {
        let w = strip.weight(stop);
        if w == 0 {
            continue;
        }
        let win = window(stop);
        match index.get(&win) {
            Some(&class) => match out.weights[class].checked_add(w) {
                Some(sum) => out.weights[class] = sum,
                None => return by_stop(strip, rows, scatter),
            },
            None => {
                index.insert(win.clone(), out.weights.len());
                out.scatters.push(win.iter().filter(|&&s| Some(s) == scatter).count() as u8);
                out.symbols.extend(win);
                out.weights.push(w);
            }
        }
    }
    out
}

/// `strip` stop by stop (the walk as it was before classes).
fn by_stop(strip: &Strip, rows: usize, scatter: Option<SymbolId>) -> Windows {
    let stops: Vec<usize> = (0..strip.len()).filter(|&s| strip.weight(s) > 0).collect();
    let symbols: Vec<SymbolId> = stops.iter().flat_map(|&s| (0..rows).map(move |r| strip.at(s, r))).collect();
    Windows {
        scatters: symbols.chunks(rows.max(1)).map(|c| c.iter().filter(|&&x| Some(x) == scatter).count() as u8).collect(),
        weights: stops.iter().map(|&s| strip.weight(s)).collect(),
        symbols,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_windows_are_one_class_with_their_summed_weight() {
        // A B A B C, one row: A (1 + 3), B (2 + 4), C (5).
        let strip = Strip { symbols: vec![0, 1, 0, 1, 2], weights: Some(vec![1, 2, 3, 4, 5]) };
        let w = classes(&strip, 1, Some(2));
        assert_eq!((w.symbols, w.weights, w.scatters), (vec![0, 1, 2], vec![4, 6, 5], vec![0, 0, 1]));
        // Two rows: windows AB BA AB BC CA; a stop of weight 0 shows nothing.
        let strip = Strip { symbols: vec![0, 1, 0, 1, 2], weights: Some(vec![1, 2, 3, 0, 5]) };
        let w = classes(&strip, 2, Some(2));
        assert_eq!((w.symbols, w.weights, w.scatters), (vec![0, 1, 1, 0, 2, 0], vec![4, 2, 5], vec![0, 0, 1]));
        // Weights past 64 bits together: kept stop by stop.
        let strip = Strip { symbols: vec![0, 0], weights: Some(vec![u64::MAX, 1]) };
        let w = classes(&strip, 1, None);
        assert_eq!((w.symbols, w.weights), (vec![0, 0], vec![u64::MAX, 1]));
    }
}
