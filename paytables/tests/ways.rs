//! Ways pays (issue 50): the exact figures of `paytables::ways_math`
//! (generating functions over the reels, a dynamic programme for the hit
//! frequency) against a brute force of every stop combination of reduced
//! strips, each window's ways counted here independently (every prefix of
//! rows that matches, not a product of counts); and the refusals.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use game_core::reels::{Bet, ReelGame, SymbolId, SymbolKind, WildMultipliers};
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
/// are the symbol on the first reel and the symbol or a wild standing for
/// it after it (read here from the symbols' kinds); the run is the
/// longest such prefix; its ways the prefixes of that length, and their
/// multipliers summed: each path's wilds' multipliers multiplied, or
/// added (a path without a wild: 1).
fn ways_by_paths(game: &ReelGame, window: &[Vec<SymbolId>], x: SymbolId) -> (usize, u64, u64) {
    // The factor of a cell showing `s` on reel `r`: 1 for the symbol, the
    // wild's multiplier for a wild standing for it.
    let factor = |r: usize, s: SymbolId| -> Option<(u64, bool)> {
        if s == x {
            return Some((1, false));
        }
        match &game.symbols[usize::from(s)].kind {
            SymbolKind::Wild { multiplier, substitutes, .. } if r > 0 && substitutes.as_ref().is_none_or(|l| l.contains(&x)) => Some((*multiplier, true)),
            _ => None,
        }
    };
    let add = game.wild_multipliers == WildMultipliers::Add;
    let mut best = (0, 0, 0);
    for k in 1..=window.len() {
        let (mut count, mut weighted) = (0u64, 0u64);
        let paths: usize = window[..k].iter().map(Vec::len).product();
        for path in 0..paths {
            let mut p = path;
            let factors: Option<Vec<(u64, bool)>> = (0..k)
                .map(|r| {
                    let rows = window[r].len();
                    let row = p % rows;
                    p /= rows;
                    factor(r, window[r][row])
                })
                .collect();
            if let Some(f) = factors {
                count += 1;
                let wilds: Vec<u64> = f.iter().filter(|w| w.1).map(|w| w.0).collect();
                weighted += match (add, wilds.is_empty()) {
                    (_, true) => 1,
                    (true, false) => wilds.iter().sum::<u64>(),
                    (false, false) => wilds.iter().product::<u64>(),
                };
            }
        }
        if count == 0 {
            break;
        }
        best = (k, count, weighted);
    }
    best
}

fn rat(x: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

/// What the brute force of a game found: per scatter count Σ weight,
/// Σ win·weight and Σ win²·weight (the scatter's pay included), the hit
/// weight, the cycle, the ways' own Σ win·weight, each paid run's weight.
struct Brute {
    by_c: BTreeMap<usize, (u128, u128, u128)>,
    hit: u128,
    cycle: u128,
    ways_total: u128,
    runs: BTreeMap<(SymbolId, usize), u128>,
}

/// Every stop combination of the base strips, the window read here from
/// the strips (`rows[r]` rows on reel `r`; `expanding`: the wild fills a
/// reel it shows on), each symbol's ways counted by [`ways_by_paths`].
fn brute_force(game: &ReelGame, rows: &[usize], expanding: bool, cost: u32) -> Brute {
    let strips = game.strips(false);
    let sizes: Vec<usize> = strips.iter().map(|s| s.len()).collect();
    let scatter = game.scatter.as_ref().unwrap().symbol;
    let wild = game.wild().map(|(w, _)| w);
    let mut b = Brute { by_c: BTreeMap::new(), hit: 0, cycle: 0, ways_total: 0, runs: BTreeMap::new() };
    let mut stops = vec![0u32; sizes.len()];
    loop {
        let w: u128 = stops.iter().zip(strips).map(|(&s, strip)| u128::from(strip.weight(s as usize))).product();
        let window: Vec<Vec<SymbolId>> = (0..sizes.len())
            .map(|r| {
                let strip = &strips[r].symbols;
                let mut shown: Vec<SymbolId> = (0..rows[r]).map(|row| strip[(stops[r] as usize + row) % strip.len()]).collect();
                if expanding && shown.iter().any(|&s| Some(s) == wild) {
                    shown = vec![wild.unwrap(); rows[r]];
                }
                shown
            })
            .collect();
        let mut win = 0u64;
        for (x, s) in game.symbols.iter().enumerate() {
            if !matches!(s.kind, SymbolKind::Regular) {
                continue;
            }
            let (k, _, weighted) = ways_by_paths(game, &window, x as SymbolId);
            let pay = game.pays[x].get(k).copied().unwrap_or(0);
            if pay > 0 {
                win += pay * weighted;
                *b.runs.entry((x as SymbolId, k)).or_default() += w;
            }
        }
        // The production evaluation agrees with the independent count.
        let spin = game.evaluate(&stops, Bet { lines: cost, credits_per_line: 1 }, false);
        assert_eq!(spin.way_wins.iter().map(|v| v.win).sum::<u64>(), win, "{stops:?}");
        let c = window.iter().flatten().filter(|&&s| s == scatter).count();
        assert_eq!(spin.scatter_count as usize, c, "{stops:?}");
        b.ways_total += u128::from(win) * w;
        // The spin's win with its scatter pay, per credit of the unit.
        let win = win + game.scatter.as_ref().unwrap().pays.get(c).copied().unwrap_or(0) * u64::from(cost);
        let e = b.by_c.entry(c).or_default();
        e.0 += w;
        e.1 += u128::from(win) * w;
        e.2 += u128::from(win) * u128::from(win) * w;
        if spin.win > 0 || spin.free_games_awarded > 0 {
            b.hit += w;
        }
        b.cycle += w;
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
    b
}

/// The exact figures of `game` against its brute force.
fn exact_equals_brute_force(game: &ReelGame, b: &Brute, cost: u32) {
    let stats = paytables::ways_math::spin_stats(game, game.strips(false), &[cost as usize], false).unwrap();
    assert_eq!(stats.cycle, b.cycle);
    for (c, m) in stats.by_scatters[0].iter().enumerate() {
        assert_eq!((m.weight, m.sum, m.sum_sq), b.by_c.get(&c).copied().unwrap_or_default(), "{c} scatters");
    }
    assert_eq!(stats.hit_weight[0], b.hit);
    for ((x, k, _), w) in &stats.combo_hits {
        assert_eq!(b.runs.get(&(*x, usize::from(*k))).copied().unwrap_or(0), *w, "symbol {x} over {k} reels");
    }
    assert!(b.by_c.values().filter(|m| m.1 > 0).count() >= 2 && b.hit > 0, "the brute force sees wins at several scatter counts");
    // The whole game: its base ways part is the brute force's over the
    // cost; the hit frequency exact; the free games through the branching
    // process every reel game shares.
    let f = analyse(game).unwrap();
    assert_eq!(f.method, Method::Ways);
    assert_eq!(f.configs[0].rtp_lines, rat(b.ways_total) / rat(b.cycle) / rat(u128::from(cost)));
    assert_eq!(f.configs[0].hit_frequency, Some(rat(b.hit) / rat(b.cycle)));
    assert!(f.configs[0].rtp_free_games > BigRational::from_integer(0.into()));
    // The scatter distribution of the figures is the brute force's.
    for (c, &w) in f.scatter_distribution.iter().enumerate() {
        assert_eq!(w, b.by_c.get(&c).map_or(0, |m| m.0), "weight of {c} scatters");
    }
}

#[test]
fn the_exact_figures_equal_a_brute_force_of_every_stop() {
    let game = compile("small.ron", SMALL).unwrap();
    assert!(game.ways);
    let b = brute_force(&game, &[3; 4], false, 25);
    exact_equals_brute_force(&game, &b, 25);
}

/// Issue 50: reels of different heights (2-3-4-3, 2 × 3 × 4 × 3 = 72
/// ways) and an expanding wild, which fills every row of a reel it shows
/// on (covering a scatter beside it), and starts no way on the first.
fn shaped() -> String {
    SMALL
        .replace("    rows: 3,\n", "    rows: 4,\n    reel_rows: Some([2, 3, 4, 3]),\n")
        .replace("Wild(multiplier: 1)", "Wild(multiplier: 1, expanding: true)")
        .replace("        [\"A\", \"K\", \"Q\", \"W\", \"S\", \"K\"],", "        [\"A\", \"K\", \"Q\", \"W\", \"S\", \"K\", \"A\"],")
        .replace("        [2, 3, 1, 1, 1, 2],", "        [2, 3, 1, 1, 1, 2, 1],")
}

#[test]
fn reels_of_their_own_heights_and_an_expanding_wild_equal_a_brute_force() {
    let src = shaped();
    let game = compile("shaped.ron", &src).unwrap();
    assert_eq!((game.rows, game.reel_rows.clone(), game.ways_count()), (4, vec![2, 3, 4, 3], 72));
    assert_eq!(game.expanding_wild(), game.wild().map(|(w, _)| w));
    let b = brute_force(&game, &[2, 3, 4, 3], true, 25);
    exact_equals_brute_force(&game, &b, 25);
    // The expansion matters: the same game without it has other figures.
    let plain = compile("plain.ron", &src.replace(", expanding: true", "")).unwrap();
    let p = brute_force(&plain, &[2, 3, 4, 3], false, 25);
    exact_equals_brute_force(&plain, &p, 25);
    assert_ne!(b.ways_total, p.ways_total);
    assert_ne!(b.by_c, p.by_c, "an expanding wild covers scatters");
}

/// Issue 50: two wilds, W ×2 standing for every symbol and V ×3 for A
/// and K alone, their multipliers multiplied or added in each way.
fn two_wilds(combine: &str) -> String {
    SMALL
        .replace("        (id: \"W\", name: \"Curinga\", kind: Wild(multiplier: 1)),\n", "        (id: \"W\", name: \"Curinga\", kind: Wild(multiplier: 2)),\n        (id: \"V\", name: \"Curinga real\", kind: Wild(multiplier: 3, substitutes: Some([\"A\", \"K\"]))),\n")
        .replace("    ways: true,\n", &format!("    ways: true,\n    wild_multipliers: {combine},\n"))
        .replace("[\"K\", \"W\", \"A\", \"Q\", \"Q\", \"S\", \"A\"]", "[\"K\", \"W\", \"A\", \"V\", \"Q\", \"S\", \"A\"]")
        .replace("[\"Q\", \"A\", \"S\", \"K\", \"W\"]", "[\"Q\", \"A\", \"S\", \"K\", \"W\", \"V\"]")
        .replace("[2, 1, 1, 3, 1],", "[2, 1, 1, 3, 1, 2],")
}

#[test]
fn several_wilds_with_their_own_symbols_and_multipliers_equal_a_brute_force() {
    let mut totals = Vec::new();
    for combine in ["Multiply", "Add"] {
        let src = two_wilds(combine);
        assert_ne!(src, SMALL);
        let game = compile("wilds.ron", &src).unwrap_or_else(|e| panic!("{combine}: {e}"));
        assert_eq!(game.symbols.iter().filter(|s| matches!(s.kind, SymbolKind::Wild { .. })).count(), 2);
        let b = brute_force(&game, &[3; 4], false, 25);
        exact_equals_brute_force(&game, &b, 25);
        totals.push(b.ways_total);
    }
    // The combination matters, and both differ from the plain game.
    let plain = brute_force(&compile("small.ron", SMALL).unwrap(), &[3; 4], false, 25);
    assert!(totals[0] != totals[1] && totals[0] != plain.ways_total && totals[1] != plain.ways_total, "{totals:?} {}", plain.ways_total);
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
    // Reels of their own heights, an expanding wild.
    let game = compile("shaped.ron", &shaped()).unwrap();
    let f = analyse(&game).unwrap();
    let r = paytables::simulate::run_parallel(&game, 25, 1_000_000, 11, 2, &|_| {}).unwrap();
    let exact = num_traits::ToPrimitive::to_f64(&f.configs[0].rtp).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "shaped: exact {exact} outside [{lo}, {hi}]");
    // Two wilds, their multipliers added.
    let game = compile("wilds.ron", &two_wilds("Add")).unwrap();
    let f = analyse(&game).unwrap();
    let r = paytables::simulate::run_parallel(&game, 25, 1_000_000, 13, 2, &|_| {}).unwrap();
    let exact = num_traits::ToPrimitive::to_f64(&f.configs[0].rtp).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "two wilds: exact {exact} outside [{lo}, {hi}]");
    let sd = f.configs[0].standard_deviation();
    assert!((r.standard_deviation() - sd).abs() / sd < 0.05, "two wilds: SD {} against the exact {sd}", r.standard_deviation());
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
    assert!(bad("(symbol: \"A\", count: 2, pays: 1),", "(symbol: \"W\", count: 2, pays: 1),").contains("never starts a way"));
    // Issue 50: reel heights and expanding wilds off the rules.
    let shaped = shaped();
    let bad_shaped = |from: &str, to: &str| {
        let src = shaped.replace(from, to);
        assert_ne!(src, shaped);
        compile("bad.ron", &src).unwrap_err().to_string()
    };
    // Several wilds off the rules, each at the wild V's line (12).
    let wilds = two_wilds("Multiply");
    let bad_wilds = |from: &str, to: &str| {
        let src = wilds.replace(from, to);
        assert_ne!(src, wilds);
        let e = compile("bad.ron", &src).unwrap_err().to_string();
        assert!(e.contains("bad.ron:12"), "{e}");
        e
    };
    assert!(bad_wilds("Some([\"A\", \"K\"])", "Some([\"A\", \"V\"])").contains("the wild V substitutes for itself"));
    assert!(bad_wilds("Some([\"A\", \"K\"])", "Some([\"A\", \"W\"])").contains("substitutes \"W\", another wild"));
    assert!(bad_wilds("Some([\"A\", \"K\"])", "Some([\"S\"])").contains("substitutes \"S\", the scatter"));
    assert!(bad_wilds("Some([\"A\", \"K\"])", "Some([\"A\", \"X\"])").contains("substitutes \"X\", which is not a symbol of the game"));
    assert!(bad_wilds("Some([\"A\", \"K\"])", "Some([\"A\", \"A\"])").contains("lists \"A\" twice"));
    assert!(bad_wilds("Some([\"A\", \"K\"])", "Some([])").contains("substitutes nothing"));
    assert!(bad_wilds("Wild(multiplier: 3,", "Wild(multiplier: 0,").contains("a wild multiplier must be at least 1"));
    let both = wilds.replace("Wild(multiplier: 2)", "Wild(multiplier: 2, expanding: true)");
    let e = compile("bad.ron", &both.replace("Wild(multiplier: 3,", "Wild(multiplier: 3, expanding: true,")).unwrap_err().to_string();
    assert!(e.contains("bad.ron:12") && e.contains("at most one expanding wild"), "{e}");
    // A payline game keeps one wild for every symbol, multiplied as ever.
    let lines = wilds.replace("    ways: true,\n    wild_multipliers: Multiply,\n", "    lines: [[0, 0, 0, 0]],\n    wild_multipliers: Add,\n");
    let e = compile("bad.ron", &lines).unwrap_err().to_string();
    assert!(
        e.contains("several wilds are built for ways games") && e.contains("substitution lists are built for ways games") && e.contains("it is for ways games"),
        "{e}"
    );
    let e = bad_shaped("reel_rows: Some([2, 3, 4, 3])", "reel_rows: Some([2, 3, 4])");
    assert!(e.contains("bad.ron:5") && e.contains("reel_rows gives 3 reels, the game has 4"), "{e}");
    assert!(bad_shaped("reel_rows: Some([2, 3, 4, 3])", "reel_rows: Some([2, 3, 5, 3])").contains("rows is the tallest reel's rows: 5 here, not 4"));
    assert!(bad_shaped("reel_rows: Some([2, 3, 4, 3])", "reel_rows: Some([2, 0, 4, 3])").contains("a reel shows 1 to 8 rows, not 0"));
    let e = bad_shaped("    ways: true,\n", "    lines: [[0, 0, 0, 0]],\n");
    assert!(e.contains("reel_rows is for ways games") && e.contains("expanding wilds are built for ways games"), "{e}");
    let e = bad("    ways: true,\n", "");
    assert!(e.contains("bad.ron:1") && e.contains("at least one payline is required (or `ways: true`)") && e.contains("bad.ron:34"), "{e}");
    let _ = Work::unlimited();
}
