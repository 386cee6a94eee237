//! Ways pays (issue 50): the exact figures of `paytables::ways_math`
//! (generating functions over the reels, a dynamic programme for the hit
//! frequency) against a brute force of every stop combination of reduced
//! strips, each window's ways counted here independently (every prefix of
//! rows that matches, not a product of counts); and the refusals.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use game_core::reels::{Bet, ReelGame, SymbolId, SymbolKind};
use num_bigint::BigInt;
use num_rational::BigRational;
use paytables::reel_math::{Method, Work, analyse};
use paytables::{PaytableError, compile};

/// Four reels of three rows, weighted strips; A, K, Q; a wild W kept off
/// the first reel's ways (it may stand there: it starts no way); a
/// scatter S paying and awarding free games.
const SMALL: &str = r#"ReelPaytable(
    id: "ways-small",
    name: "Ways",
    rows: 3,
    ways: true,
    symbols: [
        (id: "A", name: "Ás"),
        (id: "K", name: "Rei"),
        (id: "Q", name: "Dama"),
        (id: "W", name: "Curinga", kind: Wild(multiplier: 1)),
        (id: "S", name: "Dispersão", kind: Scatter),
    ],
    reels: [
        ["A", "K", "Q", "W", "S", "K"],
        ["K", "W", "A", "Q", "Q", "S", "A"],
        ["Q", "A", "S", "K", "W"],
        ["A", "Q", "K", "S", "Q", "K"],
    ],
    weights: Some([
        [2, 3, 1, 1, 1, 2],
        [1, 1, 2, 3, 1, 1, 2],
        [2, 1, 1, 3, 1],
        [1, 2, 2, 1, 1, 3],
    ]),
    pays: [
        (symbol: "A", count: 2, pays: 1),
        (symbol: "A", count: 3, pays: 4),
        (symbol: "A", count: 4, pays: 20),
        (symbol: "K", count: 3, pays: 3),
        (symbol: "K", count: 4, pays: 10),
        (symbol: "Q", count: 3, pays: 2),
        (symbol: "Q", count: 4, pays: 8),
    ],
    scatter: Some((symbol: "S", pays: {3: 5, 4: 50}, free_games: Some((awards: {3: 2, 4: 5}, multiplier: 2, retrigger: false)))),
    bet: (lines: [25], credits_per_line: [1, 2]),
)"#;

/// The independent count: every prefix of one row per reel whose symbols
/// are the symbol on the first reel and the symbol or the wild after it;
/// the run is the longest such prefix; its ways the prefixes of that
/// length.
fn ways_by_paths(game: &ReelGame, window: &[Vec<SymbolId>], x: SymbolId) -> (usize, u64) {
    let wild = game.wild().map(|(w, _)| w);
    let rows = usize::from(game.rows);
    let matches = |r: usize, s: SymbolId| s == x || (r > 0 && Some(s) == wild);
    let mut best = (0, 0);
    for k in 1..=window.len() {
        let mut count = 0u64;
        for path in 0..rows.pow(k as u32) {
            let mut p = path;
            let all = (0..k).all(|r| {
                let row = p % rows;
                p /= rows;
                matches(r, window[r][row])
            });
            count += u64::from(all);
        }
        if count == 0 {
            break;
        }
        best = (k, count);
    }
    best
}

fn rat(x: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

#[test]
fn the_exact_figures_equal_a_brute_force_of_every_stop() {
    let game = compile("small.ron", SMALL).unwrap();
    assert!(game.ways);
    let strips = game.strips(false);
    let sizes: Vec<usize> = strips.iter().map(|s| s.len()).collect();
    let scatter = game.scatter.as_ref().unwrap().symbol;
    // Brute force: per scatter count, Σ weight, Σ win·weight, Σ win²·weight
    // (win per credit of the unit, the scatter's pay included); the ways'
    // own sum; the hit weight.
    let mut by_c: BTreeMap<usize, (u128, u128, u128)> = BTreeMap::new();
    let (mut hit, mut cycle, mut ways_total) = (0u128, 0u128, 0u128);
    let mut runs: BTreeMap<(SymbolId, usize), u128> = BTreeMap::new();
    let mut stops = vec![0u32; sizes.len()];
    loop {
        let w: u128 = stops.iter().zip(strips).map(|(&s, strip)| u128::from(strip.weight(s as usize))).product();
        let window = game.window(&stops, false);
        let mut win = 0u64;
        for (x, s) in game.symbols.iter().enumerate() {
            if !matches!(s.kind, SymbolKind::Regular) {
                continue;
            }
            let (k, ways) = ways_by_paths(&game, &window, x as SymbolId);
            let pay = game.pays[x].get(k).copied().unwrap_or(0);
            if pay > 0 {
                win += pay * ways;
                *runs.entry((x as SymbolId, k)).or_default() += w;
            }
        }
        // The production evaluation agrees with the independent count.
        let spin = game.evaluate(&stops, Bet { lines: 25, credits_per_line: 1 }, false);
        assert_eq!(spin.way_wins.iter().map(|v| v.win).sum::<u64>(), win, "{stops:?}");
        let c = window.iter().flatten().filter(|&&s| s == scatter).count();
        ways_total += u128::from(win) * w;
        // The spin's win with its scatter pay, per credit of the unit.
        let win = win + game.scatter.as_ref().unwrap().pays.get(c).copied().unwrap_or(0) * 25;
        let e = by_c.entry(c).or_default();
        e.0 += w;
        e.1 += u128::from(win) * w;
        e.2 += u128::from(win) * u128::from(win) * w;
        if spin.win > 0 || spin.free_games_awarded > 0 {
            hit += w;
        }
        cycle += w;
        let mut r = 0;
        loop {
            stops[r] += 1;
            if (stops[r] as usize) < sizes[r] {
                break;
            }
            stops[r] = 0;
            r += 1;
            if r == sizes.len() {
                break;
            }
        }
        if r == sizes.len() {
            break;
        }
    }
    let stats = paytables::ways_math::spin_stats(&game, strips, &[25], false).unwrap();
    assert_eq!(stats.cycle, cycle);
    for (c, m) in stats.by_scatters[0].iter().enumerate() {
        assert_eq!((m.weight, m.sum, m.sum_sq), by_c.get(&c).copied().unwrap_or_default(), "{c} scatters");
    }
    assert_eq!(stats.hit_weight[0], hit);
    for ((x, k, _), w) in &stats.combo_hits {
        assert_eq!(runs.get(&(*x, usize::from(*k))).copied().unwrap_or(0), *w, "symbol {x} over {k} reels");
    }
    assert!(by_c.values().filter(|m| m.1 > 0).count() >= 2 && hit > 0, "the brute force sees wins at several scatter counts");
    // The whole game: its base ways part is the brute force's over the
    // cost; the hit frequency exact; the free games through the branching
    // process every reel game shares.
    let f = analyse(&game).unwrap();
    assert_eq!(f.method, Method::Ways);
    assert_eq!(f.configs[0].rtp_lines, rat(ways_total) / rat(cycle) / rat(25));
    assert_eq!(f.configs[0].hit_frequency, Some(rat(hit) / rat(cycle)));
    assert!(f.configs[0].rtp_free_games > BigRational::from_integer(0.into()));
}

/// A simulation through the production round lies inside its interval
/// of the exact figure.
#[test]
fn a_simulation_through_the_production_round_agrees() {
    let game = compile("small.ron", SMALL).unwrap();
    let f = analyse(&game).unwrap();
    let r = paytables::simulate::run_parallel(&game, 25, 1_000_000, 9, 2, &|_| {}).unwrap();
    let exact = num_traits::ToPrimitive::to_f64(&f.configs[0].rtp).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");
    let sd = f.configs[0].standard_deviation();
    assert!((r.standard_deviation() - sd).abs() / sd < 0.05, "SD {} against the exact {sd}", r.standard_deviation());
}

#[test]
fn a_ways_paytable_off_the_rules_is_refused_at_its_line() {
    let bad = |from: &str, to: &str| {
        let src = SMALL.replace(from, to);
        assert_ne!(src, SMALL);
        match compile("bad.ron", &src) {
            Err(e @ (PaytableError::Invalid { .. } | PaytableError::Several(_))) => e.to_string(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    };
    assert!(bad("    ways: true,\n", "    ways: true,\n    lines: [[0, 0, 0, 0]],\n").contains("a ways game pays in any row: it has no paylines"));
    assert!(bad("lines: [25]", "lines: [25, 50]").contains("the one cost of its ways bet"));
    assert!(bad("Wild(multiplier: 1)", "Wild(multiplier: 2)").contains("a ways game's wild multiplies by 1"));
    assert!(bad("(symbol: \"A\", count: 2, pays: 1),", "(symbol: \"W\", count: 2, pays: 1),").contains("never starts a way"));
    let e = bad("    ways: true,\n", "");
    assert!(e.contains("bad.ron:1") && e.contains("at least one payline is required (or `ways: true`)") && e.contains("bad.ron:34"), "{e}");
    let _ = Work::unlimited();
}
