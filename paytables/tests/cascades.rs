//! Cascades (issue 50): the exact figures of `paytables::cascade_math`
//! against a brute force written here that plays every stop combination's
//! cascade itself (each reel a column of strip positions, the cells on any
//! paying path of one row per reel removed, the rest falling, the strip
//! read upwards into the top), its ways counted path by path; a
//! hand-played cascade; the production round equal to the simulation's;
//! and the refusals.
#![allow(clippy::unwrap_used)]

mod common;
use common::{refused, shipped};

use std::collections::BTreeMap;

use game_core::reels::{Bet, FastReels, ReelGame, StopTables, SymbolId, SymbolKind};
use meters::rng::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use paytables::compile;
use paytables::reel_math::{Method, analyse};

/// Three reels of three rows; A, K, Q pay in ways, W is wild from the
/// second reel on; multipliers 1, 2, 3 then 5, at most 6 cascades.
const SMALL: &str = r#"ReelPaytable(
    id: "cascade-small",
    name: "Cascata",
    rows: 3,
    ways: true,
    symbols: [
        (id: "A", name: "Ás"),
        (id: "K", name: "Rei"),
        (id: "Q", name: "Dama"),
        (id: "W", name: "Curinga", kind: Wild(multiplier: 1)),
    ],
    reels: [
        ["A", "K", "Q", "A", "Q", "K", "A"],
        ["K", "W", "A", "Q", "K", "A"],
        ["Q", "A", "K", "K", "W", "Q", "A", "Q"],
    ],
    weights: Some([
        [2, 1, 3, 1, 2, 1, 1],
        [1, 1, 2, 3, 1, 2],
        [2, 1, 1, 2, 1, 3, 1, 1],
    ]),
    pays: [
        (symbol: "A", count: 3, pays: 5),
        (symbol: "K", count: 3, pays: 3),
        (symbol: "Q", count: 2, pays: 1),
        (symbol: "Q", count: 3, pays: 2),
    ],
    cascade: Some((multipliers: [1, 2, 3, 5], max_cascades: 6)),
    bet: (lines: [10], credits_per_line: [1, 2]),
)"#;

/// A window's paying symbols: for each, its longest run, its paths and
/// the cells on them (one row per reel: the symbol on the first, it or a
/// wild after).
/// A paying symbol of a window: it, its run, its pay (all its paths) and
/// the cells on its paths.
type Paid = (SymbolId, usize, u64, Vec<(usize, usize)>);

fn paths(game: &ReelGame, window: &[Vec<SymbolId>]) -> Vec<Paid> {
    let mut out = Vec::new();
    for x in 0..game.symbols.len() as SymbolId {
        if !matches!(game.symbols[usize::from(x)].kind, SymbolKind::Regular) {
            continue;
        }
        let fits = |r: usize, s: SymbolId| s == x || (r > 0 && matches!(game.symbols[usize::from(s)].kind, SymbolKind::Wild { .. }));
        for k in (1..=window.len()).rev() {
            let total: usize = window[..k].iter().map(Vec::len).product();
            let mut count = 0;
            let mut cells = Vec::new();
            for path in 0..total {
                let mut p = path;
                let rows: Vec<usize> = (0..k)
                    .map(|r| {
                        let row = p % window[r].len();
                        p /= window[r].len();
                        row
                    })
                    .collect();
                if rows.iter().enumerate().all(|(r, &row)| fits(r, window[r][row])) {
                    count += 1;
                    for (r, &row) in rows.iter().enumerate() {
                        if !cells.contains(&(r, row)) {
                            cells.push((r, row));
                        }
                    }
                }
            }
            if count > 0 {
                let pay = game.pays[usize::from(x)].get(k).copied().unwrap_or(0);
                if pay > 0 {
                    out.push((x, k, count * pay, cells));
                }
                break;
            }
        }
    }
    out
}

/// A spin's whole cascade played here: its win per credit of the unit.
fn brute_cascade(game: &ReelGame, stops: &[usize], multipliers: &[u64], max: usize) -> u64 {
    let strips = &game.reels;
    let mut columns: Vec<Vec<usize>> = stops.iter().enumerate().map(|(r, &s)| (0..3).map(|row| (s + row) % strips[r].len()).collect()).collect();
    let mut above: Vec<usize> = stops.to_vec();
    let mut total = 0;
    for k in 0.. {
        let window: Vec<Vec<SymbolId>> = columns.iter().enumerate().map(|(r, c)| c.iter().map(|&i| strips[r].symbols[i]).collect()).collect();
        let wins = paths(game, &window);
        let m = multipliers[k.min(multipliers.len() - 1)];
        total += wins.iter().map(|w| w.2).sum::<u64>() * m;
        if wins.is_empty() || k == max {
            break;
        }
        for (r, column) in columns.iter_mut().enumerate() {
            let gone: Vec<usize> = (0..3).filter(|&row| wins.iter().any(|w| w.3.contains(&(r, row)))).collect();
            let mut kept: Vec<usize> = (0..3).filter(|row| !gone.contains(row)).map(|row| column[row]).collect();
            // The strip read upwards: the stop above the highest fills the
            // lowest empty cell, and so on up.
            let mut fill = Vec::new();
            for _ in 0..gone.len() {
                above[r] = (above[r] + strips[r].len() - 1) % strips[r].len();
                fill.insert(0, above[r]);
            }
            fill.append(&mut kept);
            *column = fill;
        }
    }
    total
}

#[test]
fn a_cascade_played_by_hand() {
    let g = compile("cascade.ron", SMALL).unwrap();
    // Stops 0, 2, 1: reel 1 A K Q, reel 2 A Q K, reel 3 A K K. A pays 3
    // in a row once (5); K: K on reel 1, reel 2, reel 3 twice: 1·1·2 = 2
    // ways of 3 (6); Q: Q on reel 1 and 2, not reel 3: a run of 2 (1).
    let (first, more) = g.cascades(&g.reels, &[0, 2, 1], 1);
    assert_eq!(first.iter().map(|w| w.win).sum::<u64>(), 12);
    // Every cell paid is removed: reel 1 whole, reel 2 whole, reel 3 A K
    // K whole; each reel fills from the strip above its stop: reel 1
    // (stop 0, 7 stops) reads 6, 5, 4 → Q K A top to bottom (4, 5, 6);
    // reel 2 (stop 2) reads 1, 0, 5 → A K W (5, 0, 1); reel 3 (stop 1)
    // reads 0, 7, 6 → A Q Q (6, 7, 0).
    assert_eq!(more[0].window, vec![vec![2, 1, 0], vec![0, 1, 3], vec![0, 2, 2]]);
    assert_eq!(more[0].multiplier, 2);
    let brute = brute_cascade(&g, &[0, 2, 1], &[1, 2, 3, 5], 6);
    assert_eq!(first.iter().map(|w| w.win).sum::<u64>() + more.iter().map(|c| c.win).sum::<u64>(), brute);
}

/// Every stop combination's cascade played here: RTP, variance, hit
/// frequency and the whole win distribution equal the analysis's.
#[test]
fn the_exact_figures_equal_every_stop_combination_played_here() {
    let g = compile("cascade.ron", SMALL).unwrap();
    let f = analyse(&g).unwrap();
    assert_eq!(f.method, Method::Cascade);
    let (mut cycle, mut sum, mut sum_sq, mut hits) = (0u128, 0u128, 0u128, 0u128);
    let mut histogram: BTreeMap<u64, u128> = BTreeMap::new();
    let mut cascaded = 0;
    let (l0, l1, l2) = (g.reels[0].len(), g.reels[1].len(), g.reels[2].len());
    for a in 0..l0 {
        for b in 0..l1 {
            for c in 0..l2 {
                let w = u128::from(g.reels[0].weight(a) * g.reels[1].weight(b) * g.reels[2].weight(c));
                let win = brute_cascade(&g, &[a, b, c], &[1, 2, 3, 5], 6);
                let first: u64 = paths(&g, &g.window(&[a as u32, b as u32, c as u32], false)).iter().map(|x| x.2).sum();
                cascaded += usize::from(win > first);
                cycle += w;
                sum += w * u128::from(win);
                sum_sq += w * u128::from(win) * u128::from(win);
                hits += if win > 0 { w } else { 0 };
                *histogram.entry(win).or_default() += w;
            }
        }
    }
    assert!(cascaded > 20, "{cascaded} combinations pay more through cascades");
    let r = |x: u128| BigRational::from_integer(BigInt::from(x));
    let cost = r(10);
    let mean = r(sum) / r(cycle);
    let c = &f.configs[0];
    assert_eq!(f.cycle, cycle);
    assert_eq!(c.rtp, &mean / &cost);
    assert_eq!(c.variance, (r(sum_sq) / r(cycle) - &mean * &mean) / (&cost * &cost));
    assert_eq!(c.hit_frequency.clone().unwrap(), r(hits) / r(cycle));
    assert_eq!(c.histogram.clone().unwrap(), histogram);
    assert_eq!(c.max_base_win, histogram.keys().next_back().copied());
}

#[test]
fn the_production_round_equals_the_simulation_s_and_both_agree_with_the_exact_rtp() {
    let g = compile("cascade.ron", SMALL).unwrap();
    let f = analyse(&g).unwrap();
    let tables = StopTables::new(&g).unwrap();
    let fast = FastReels::new(&g, &tables);
    let (mut a, mut b) = (StreamRng::from_seed(6), StreamRng::from_seed(6));
    let mut with_cascades = 0;
    for i in 0..100_000 {
        let round = g.play(&tables, &mut a, Bet { lines: 10, credits_per_line: 2 }).unwrap();
        assert_eq!(fast.round(&mut b, 10) * 2, round.win, "round {i}");
        let stops: Vec<usize> = round.base.stops.iter().map(|&s| s as usize).collect();
        assert_eq!(round.win, brute_cascade(&g, &stops, &[1, 2, 3, 5], 6) * 2, "round {i}");
        with_cascades += usize::from(!round.base.cascades.is_empty());
        // Each cascade's multiplier rises along the list, the last repeating.
        for (k, c) in round.base.cascades.iter().enumerate() {
            assert_eq!(c.multiplier, [2, 3, 5, 5, 5, 5][k]);
        }
    }
    assert!(with_cascades > 1_000, "{with_cascades} rounds cascaded");
    let exact = f.configs[0].rtp.to_f64().unwrap();
    let r = paytables::simulate::run_parallel(&g, 10, 2_000_000, 8, 2, &|_| {}).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");
}

#[test]
fn a_malformed_cascade_is_refused_at_its_line() {
    let line_of = |src: &str, needle: &str| src.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let rule = "cascade: Some((multipliers: [1, 2, 3, 5], max_cascades: 6)),";
    let cases: [(&str, &str, &str); 6] = [
        ("cascade: Some((multipliers: [1, 2, 3, 5], max_cascades: 0)),", "cascade:", "loop forever"),
        ("cascade: Some((multipliers: [1, 2, 3, 5], max_cascades: 255)),", "cascade:", "loop forever"),
        ("cascade: Some((multipliers: [], max_cascades: 6)),", "cascade:", "at least the spin's own"),
        ("cascade: Some((multipliers: [1, 0, 3], max_cascades: 6)),", "cascade:", "not 0"),
        ("cascade: Some((multipliers: [1, 2, 3, 4, 5], max_cascades: 2)),", "cascade:", "would never apply"),
        ("cascade: Some((multipliers: [1, 2], max_cascades: 6)),\n    scatter: Some((symbol: \"A\", pays: {3: 1})),", "cascade:", "has no scatter"),
    ];
    for (to, at, says) in cases {
        let src = SMALL.replacen(rule, to, 1);
        let problems = refused(&src);
        let line = line_of(&src, at);
        assert!(problems.iter().any(|(l, m)| *l == line && m.contains(says)), "{to}: expected {says:?} at line {line}, got {problems:?}");
    }
    let src = SMALL.replacen("ways: true,", "lines: [[0, 0, 0]],", 1);
    assert!(refused(&src).iter().any(|(_, m)| m.contains("cascades are built for ways games")));
    let src = SMALL.replacen("kind: Wild(multiplier: 1)", "kind: Wild(multiplier: 1, expanding: true)", 1);
    assert!(refused(&src).iter().any(|(_, m)| m.contains("does not expand")));
}

/// Minas de Ouro (243 ways, cascades at ×1, ×2, ×3, ×5) in its three
/// variants: the exact RTP over the full cycle (to six places, as
/// approved), and a simulation of the production round inside its
/// interval.
#[test]
fn the_shipped_cascade_game_in_three_variants() {
    for (id, rtp) in [("minas-cascata", "0.960018"), ("minas-cascata-94", "0.939941"), ("minas-cascata-92", "0.920027")] {
        let g = shipped(id);
        assert_eq!(g.ways_count(), 243);
        let f = analyse(&g).unwrap();
        assert_eq!(f.method, Method::Cascade);
        assert_eq!(paytables::reel_math::decimal(&f.configs[0].rtp, 6), rtp, "{id}");
        // The win distribution is the whole cycle's.
        assert_eq!(f.configs[0].histogram.as_ref().unwrap().values().sum::<u128>(), f.cycle, "{id}");
    }
    let g = shipped("minas-cascata");
    let exact = analyse(&g).unwrap().configs[0].rtp.to_f64().unwrap();
    let r = paytables::simulate::run_parallel(&g, 25, 1_000_000, 44, 2, &|_| {}).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");
}
