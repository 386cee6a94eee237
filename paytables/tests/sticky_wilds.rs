//! Sticky wilds (issue 50): in free games a reel the sticky expanding wild
//! filled stays filled. The exact session figures of `sticky_math` (a
//! Markov chain over the filled reels, each step by the ways mathematics)
//! against brute forces written here: every pair of free games stop by
//! stop, and, for longer sessions, the chain rebuilt from every stop of
//! every state with the ways counted path by path; the whole game's free
//! part; a simulation through the production round; the refusals.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use game_core::reels::{Bet, ReelGame, SymbolId};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use paytables::compile;
use paytables::reel_math::analyse;

/// Four reels of three rows; the wild W expands and sticks, on reels 2 to
/// 4; 2 free games for three scatters, 5 for four, at ×2.
const STICKY: &str = r#"ReelPaytable(
    id: "sticky",
    name: "Sticky",
    rows: 3,
    ways: true,
    symbols: [
        (id: "A", name: "Ás"),
        (id: "K", name: "Rei"),
        (id: "Q", name: "Dama"),
        (id: "W", name: "Curinga", kind: Wild(multiplier: 1, expanding: true, sticky: true)),
        (id: "S", name: "Dispersão", kind: Scatter),
    ],
    reels: [
        ["A", "K", "Q", "A", "S", "K"],
        ["K", "W", "A", "Q", "Q", "S", "A"],
        ["Q", "A", "S", "K", "W"],
        ["A", "Q", "K", "S", "W", "K"],
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
    scatter: Some((symbol: "S", pays: {3: 5}, free_games: Some((awards: {3: 2, 4: 5}, multiplier: 2, retrigger: false)))),
    bet: (lines: [25], credits_per_line: [1, 2]),
)"#;

const COST: u64 = 25;

/// The free game at `stops` with the reels of `held` filled, read here
/// from the strips: its win (credits per credit of the unit, ×2 for the
/// free games, the scatter's pay on the cost included) and the reels
/// filled after it.
fn free_game(g: &ReelGame, stops: &[usize], held: u8) -> (u64, u8) {
    let strips = g.strips(true);
    let wild = 3u8;
    let scatter = 4u8;
    let window: Vec<Vec<SymbolId>> = (0..4)
        .map(|r| {
            if held >> r & 1 == 1 {
                return vec![wild; 3];
            }
            let s = &strips[r].symbols;
            let cells: Vec<SymbolId> = (0..3).map(|row| s[(stops[r] + row) % s.len()]).collect();
            if cells.contains(&wild) { vec![wild; 3] } else { cells }
        })
        .collect();
    let mut win = 0;
    for x in 0..3u8 {
        // Every path of one row per reel, the symbol on the first reel and
        // it or the wild after; the longest run with a path.
        let mut best = (0usize, 0u64);
        for k in 1..=4 {
            let mut count = 0;
            for path in 0..3u64.pow(k as u32) {
                let mut p = path;
                count += u64::from((0..k).all(|r| {
                    let y = window[r][(p % 3) as usize];
                    p /= 3;
                    y == x || (r > 0 && y == wild)
                }));
            }
            if count == 0 {
                break;
            }
            best = (k, count);
        }
        win += g.pays[usize::from(x)].get(best.0).copied().unwrap_or(0) * best.1;
    }
    let scatters = window.iter().flatten().filter(|&&y| y == scatter).count();
    win += g.scatter.as_ref().unwrap().pays.get(scatters).copied().unwrap_or(0) * COST;
    let filled = window.iter().enumerate().filter(|(_, c)| c.contains(&wild)).fold(held, |m, (r, _)| m | 1 << r);
    (win * 2, filled)
}

/// Every stop combination of the free strips with its weight.
fn every_stop(g: &ReelGame) -> Vec<(Vec<usize>, u128)> {
    let strips = g.strips(true);
    let mut out = vec![(Vec::new(), 1u128)];
    for s in strips {
        out = out.into_iter().flat_map(|(stops, w)| (0..s.len()).map(move |i| ([stops.clone(), vec![i]].concat(), w * u128::from(s.weight(i))))).collect();
    }
    out
}

fn rat(x: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

#[test]
fn two_sticky_free_games_equal_every_pair_of_spins() {
    let g = compile("sticky.ron", STICKY).unwrap();
    assert_eq!(g.sticky_wild(), Some(3));
    let all = every_stop(&g);
    let cycle: u128 = all.iter().map(|s| s.1).sum();
    let (mut e1, mut e2) = (0u128, 0u128);
    let mut held_twice = 0u128;
    for (a, wa) in &all {
        let (first, held) = free_game(&g, a, 0);
        for (b, wb) in &all {
            let (second, _) = free_game(&g, b, held);
            let t = u128::from(first + second);
            e1 += wa * wb * t;
            e2 += wa * wb * t * t;
            held_twice += if held != 0 { wa * wb } else { 0 };
        }
    }
    assert!(held_twice > 0);
    let sessions = paytables::sticky_math::sessions(&g, &[25], 2).unwrap();
    let cc = rat(cycle) * rat(cycle);
    assert_eq!(sessions[0][2], (rat(e1) / &cc, rat(e2) / &cc));
    // One free game alone: the plain expectation.
    let one: u128 = all.iter().map(|(s, w)| w * u128::from(free_game(&g, s, 0).0)).sum();
    assert_eq!(sessions[0][1].0, rat(one) / rat(cycle));
}

#[test]
fn five_sticky_free_games_equal_the_chain_rebuilt_stop_by_stop() {
    let g = compile("sticky.ron", STICKY).unwrap();
    let all = every_stop(&g);
    let cycle = rat(all.iter().map(|s| s.1).sum());
    // From each state, every stop: to which state, with what win.
    let mut steps: BTreeMap<u8, Vec<(u8, BigRational, BigRational)>> = BTreeMap::new();
    for held in 0..16u8 {
        if held & 1 == 1 {
            continue; // the first reel never shows the wild
        }
        steps.insert(
            held,
            all.iter()
                .map(|(s, w)| {
                    let (win, next) = free_game(&g, s, held);
                    (next, rat(*w) / &cycle, rat(u128::from(win)))
                })
                .collect(),
        );
    }
    let mut state: BTreeMap<u8, (BigRational, BigRational, BigRational)> = BTreeMap::new();
    state.insert(0, (BigRational::from_integer(1.into()), BigRational::zero(), BigRational::zero()));
    let sessions = paytables::sticky_math::sessions(&g, &[25], 5).unwrap();
    for (n, session) in sessions[0].iter().enumerate().skip(1) {
        let mut next: BTreeMap<u8, (BigRational, BigRational, BigRational)> = BTreeMap::new();
        for (held, (m, a, b)) in &state {
            for (to, p, win) in &steps[held] {
                let e = next.entry(*to).or_insert_with(|| (BigRational::zero(), BigRational::zero(), BigRational::zero()));
                e.0 += m * p;
                e.1 += a * p + m * p * win;
                e.2 += b * p + BigRational::from_integer(2.into()) * a * p * win + m * p * win * win;
            }
        }
        state = next;
        let mean: BigRational = state.values().map(|v| v.1.clone()).sum();
        let second: BigRational = state.values().map(|v| v.2.clone()).sum();
        assert_eq!(*session, (mean, second), "{n} free games");
    }
    // The whole game: its free part is Σ over the scatter counts of the
    // base cycle's weight times the session the count awards.
    let f = analyse(&g).unwrap();
    let dist = &f.scatter_distribution;
    let base_cycle = rat(dist.iter().sum());
    let want = (rat(dist[3]) * &sessions[0][2].0 + rat(dist.get(4).copied().unwrap_or(0)) * &sessions[0][5].0) / base_cycle / rat(u128::from(COST));
    assert_eq!(f.configs[0].rtp_free_games, want);
    assert!(want > BigRational::zero());
}

#[test]
fn a_simulation_through_the_production_round_agrees() {
    let g = compile("sticky.ron", STICKY).unwrap();
    let f = analyse(&g).unwrap();
    let exact = num_traits::ToPrimitive::to_f64(&f.configs[0].rtp).unwrap();
    let r = paytables::simulate::run_parallel(&g, 25, 2_000_000, 17, 2, &|_| {}).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");
    let sd = f.configs[0].standard_deviation();
    assert!((r.standard_deviation() - sd).abs() / sd < 0.05, "SD {} against the exact {sd}", r.standard_deviation());
    // The production round holds the filled reels, free game by free game.
    let tables = game_core::reels::StopTables::new(&g).unwrap();
    let mut rng = meters::rng::StreamRng::from_seed(3);
    let mut held_seen = false;
    for _ in 0..20_000 {
        let round = g.play(&tables, &mut rng, Bet { lines: 25, credits_per_line: 1 }).unwrap();
        let mut held = 0;
        for spin in &round.free_spins {
            assert_eq!(spin.held, held);
            let stops: Vec<usize> = spin.stops.iter().map(|&s| s as usize).collect();
            let (win, next) = free_game(&g, &stops, held);
            assert_eq!(spin.win, win, "{spin:?}");
            held_seen |= held != 0;
            held = next;
        }
    }
    assert!(held_seen, "some free game began with a reel held");
}

#[test]
fn a_sticky_wild_off_the_rules_is_refused_at_its_line() {
    let bad = |from: &str, to: &str| {
        let src = STICKY.replace(from, to);
        assert_ne!(src, STICKY);
        let e = compile("bad.ron", &src).unwrap_err().to_string();
        assert!(e.contains("bad.ron:10"), "{e}");
        e
    };
    assert!(bad("expanding: true, sticky", "expanding: false, sticky").contains("is sticky but does not expand"));
    assert!(bad("retrigger: false", "retrigger: true").contains("the free games retrigger"));
    assert!(bad(", free_games: Some((awards: {3: 2, 4: 5}, multiplier: 2, retrigger: false))", "").contains("sticky in free games, and the game has none"));
    let e = bad("    ways: true,\n", "    lines: [[0, 0, 0, 0]],\n");
    assert!(e.contains("sticky wilds are built for ways games"), "{e}");
}
