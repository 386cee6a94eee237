//! Hold-and-spin (issue 50): the exact figures of `paytables::hold_math`
//! (a Markov chain over the count held and the respins left) against a
//! brute force written here that plays the feature over explicit
//! positions (every subset of the free cells a respin may land, the held
//! cells as a bit mask) and every assignment of values to the cells held,
//! on a small grid; the whole game's RTP, SD and hit frequency against
//! every stop combination of the base strips with each window's ways
//! counted path by path; a simulation through the production round; and
//! the refusals.
#![allow(clippy::unwrap_used)]

mod common;
use common::{refused, shipped};

use std::collections::BTreeMap;

use game_core::reels::{Bet, CashValue, FastReels, HoldAndSpinRule, ReelGame, StopTables, SymbolId, SymbolKind};
use meters::rng::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use paytables::reel_math::analyse;
use paytables::{PaytableError, compile};

/// Three reels of two rows (six cells); A and K pay in ways, W is wild,
/// P the bonus symbol (three start the feature, two respins).
const SMALL: &str = r#"ReelPaytable(
    id: "hold-small",
    name: "Hold",
    rows: 2,
    ways: true,
    symbols: [
        (id: "A", name: "Ás"),
        (id: "K", name: "Rei"),
        (id: "W", name: "Curinga", kind: Wild(multiplier: 1)),
        (id: "P", name: "Pérola", kind: Bonus),
    ],
    reels: [
        ["A", "P", "K", "P", "A"],
        ["K", "W", "P", "A", "P", "K"],
        ["P", "A", "K", "P"],
    ],
    weights: Some([
        [2, 1, 3, 1, 1],
        [1, 2, 1, 3, 1, 2],
        [1, 2, 2, 1],
    ]),
    pays: [
        (symbol: "A", count: 2, pays: 1),
        (symbol: "A", count: 3, pays: 6),
        (symbol: "K", count: 3, pays: 4),
    ],
    hold_and_spin: Some((
        symbol: "P",
        trigger: 3,
        respins: 2,
        landing: (bonus: 1, blank: 2),
        values: [
            (value: Credits(1), weight: 3),
            (value: Credits(5), weight: 2),
            (value: Mini, weight: 1),
            (value: Major, weight: 1),
        ],
        jackpots: (mini: 10, minor: 20, major: 50, grand: 100),
    )),
    bet: (lines: [10], credits_per_line: [1, 2]),
)"#;

fn rat(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// The law of the final held mask from `held`, over explicit positions:
/// each respin every subset of the free cells may land, with probability
/// pᵐ qᶠ⁻ᵐ; a respin that lands any gives all the respins again.
fn final_masks(cells: u32, held: u64, left: u8, respins: u8, p: &BigRational, out: &mut BTreeMap<u64, BigRational>, pr: BigRational) {
    let all = (1u64 << cells) - 1;
    if left == 0 || held == all {
        *out.entry(held).or_insert_with(BigRational::zero) += pr;
        return;
    }
    let free: Vec<u32> = (0..cells).filter(|&c| held >> c & 1 == 0).collect();
    let q = BigRational::one() - p;
    for subset in 0u64..1 << free.len() {
        let landed = subset.count_ones() as usize;
        let mut step = pr.clone();
        for _ in 0..landed {
            step *= p;
        }
        for _ in landed..free.len() {
            step *= &q;
        }
        let mut mask = held;
        for (i, &c) in free.iter().enumerate() {
            if subset >> i & 1 == 1 {
                mask |= 1 << c;
            }
        }
        let next = if landed > 0 { respins } else { left - 1 };
        final_masks(cells, mask, next, respins, p, out, step);
    }
}

/// The feature's win law from the start mask, every assignment of values
/// to the held cells enumerated, the grand added to a full screen.
fn brute_win_law(rule: &HoldAndSpinRule, cells: u32, start: u64) -> BTreeMap<u64, BigRational> {
    let p = rat(rule.landing.0, rule.landing.0 + rule.landing.1);
    let mut masks = BTreeMap::new();
    final_masks(cells, start, rule.respins, rule.respins, &p, &mut masks, BigRational::one());
    let total: u64 = rule.values.iter().map(|v| v.1).sum();
    let pay = |v: CashValue| match v {
        CashValue::Credits(c) => c,
        CashValue::Mini => 10,
        CashValue::Minor => 20,
        CashValue::Major => 50,
        CashValue::Grand => 100,
    };
    let mut law = BTreeMap::new();
    for (mask, pr) in masks {
        let n = mask.count_ones();
        let grand = if n == cells { 100 } else { 0 };
        for assignment in 0..rule.values.len().pow(n) {
            let (mut a, mut win, mut weight) = (assignment, grand, 1u64);
            for _ in 0..n {
                let (v, w) = rule.values[a % rule.values.len()];
                a /= rule.values.len();
                win += pay(v);
                weight *= w;
            }
            *law.entry(win).or_insert_with(BigRational::zero) += &pr * rat(weight, total.pow(n));
        }
    }
    law
}

fn moments(law: &BTreeMap<u64, BigRational>) -> (BigRational, BigRational) {
    law.iter().fold((BigRational::zero(), BigRational::zero()), |(m, s), (&w, p)| (m + p * BigInt::from(w), s + p * BigInt::from(w) * BigInt::from(w)))
}

/// A window's ways pay per credit of the unit, counted path by path: for
/// each paying symbol, the longest k for which some path of one row per
/// reel shows it on the first reel and it or a wild on the next k − 1,
/// paid per such path.
fn ways_pay(game: &ReelGame, window: &[Vec<SymbolId>]) -> u64 {
    let mut pay = 0;
    for x in 0..game.symbols.len() as SymbolId {
        if !matches!(game.symbols[usize::from(x)].kind, SymbolKind::Regular) {
            continue;
        }
        let fits = |r: usize, s: SymbolId| s == x || (r > 0 && matches!(game.symbols[usize::from(s)].kind, SymbolKind::Wild { .. }));
        for k in (1..=window.len()).rev() {
            let paths: usize = window[..k].iter().map(Vec::len).product();
            let count = (0..paths)
                .filter(|&path| {
                    let mut p = path;
                    (0..k).all(|r| {
                        let row = p % window[r].len();
                        p /= window[r].len();
                        fits(r, window[r][row])
                    })
                })
                .count() as u64;
            if count > 0 {
                pay += game.pays[usize::from(x)].get(k).copied().unwrap_or(0) * count;
                break;
            }
        }
    }
    pay
}

/// The law of the final count from the chain equals the explicit
/// positions' for every start mask; the win law too, value by value.
#[test]
fn the_chain_equals_the_feature_played_over_explicit_positions() {
    let g = compile("hold.ron", SMALL).unwrap();
    let rule = g.hold_and_spin.as_deref().unwrap();
    let cells = g.cells().len() as u32;
    assert_eq!(cells, 6);
    let math = paytables::hold_math::analyse(rule, cells as usize);
    for start in 0u64..1 << cells {
        let c = start.count_ones() as usize;
        if c < 3 {
            assert!(math.by_start[c].is_none(), "{c} bonus symbols do not start it");
            continue;
        }
        let brute = brute_win_law(rule, cells, start);
        let exact = paytables::hold_math::win_distribution(rule, cells as usize, c);
        assert_eq!(exact, brute, "start {start:06b}");
        let (m, s) = moments(&brute);
        let from = math.by_start[c].as_ref().unwrap();
        assert_eq!(from.mean, m, "mean from {start:06b}");
        assert_eq!(from.second, s, "second moment from {start:06b}");
    }
    // A published-by-hand figure: from five held, one free cell and two
    // respins, the screen fills with probability 1 − (2/3)² = 5/9.
    let from5 = math.by_start[5].as_ref().unwrap();
    assert_eq!(from5.final_counts[6], rat(5, 9));
    assert_eq!(from5.final_counts[5], rat(4, 9));
}

/// The whole game against every stop combination: the base window's ways
/// counted path by path, the feature's law from the window's own bonus
/// cells (positions, not counts) by the brute force above.
#[test]
fn the_game_s_rtp_sd_and_hit_frequency_equal_every_stop_combination() {
    let g = compile("hold.ron", SMALL).unwrap();
    let rule = g.hold_and_spin.as_deref().unwrap();
    let f = analyse(&g).unwrap();
    let bonus = rule.symbol;
    let (mut cycle, mut sum, mut sum_sq, mut hits, mut feature, mut starts) = (0u64, BigRational::zero(), BigRational::zero(), 0u64, BigRational::zero(), 0u64);
    let mut by_start: BTreeMap<u64, (BigRational, BigRational)> = BTreeMap::new();
    let (l0, l1, l2) = (g.reels[0].len(), g.reels[1].len(), g.reels[2].len());
    for a in 0..l0 {
        for b in 0..l1 {
            for c in 0..l2 {
                let stops = [a, b, c];
                let weight: u64 = stops.iter().enumerate().map(|(r, &s)| g.reels[r].weights.as_ref().unwrap()[s]).product();
                let window: Vec<Vec<SymbolId>> =
                    stops.iter().enumerate().map(|(r, &s)| (0..2).map(|row| g.reels[r].symbols[(s + row) % g.reels[r].len()]).collect()).collect();
                let base = ways_pay(&g, &window);
                let mask = window.iter().flatten().enumerate().filter(|&(_, &x)| x == bonus).fold(0u64, |m, (i, _)| m | 1 << i);
                // Cells reel by reel, top row first: the bit of (reel, row) is reel·2 + row.
                let (ef, ef2) = if mask.count_ones() >= 3 {
                    starts += weight;
                    by_start.entry(mask).or_insert_with(|| moments(&brute_win_law(rule, 6, mask))).clone()
                } else {
                    (BigRational::zero(), BigRational::zero())
                };
                let b = BigRational::from_integer(BigInt::from(base));
                let w = BigRational::from_integer(BigInt::from(weight));
                cycle += weight;
                sum += &w * (&b + &ef);
                sum_sq += &w * (&b * &b + &b * &ef * BigInt::from(2) + &ef2);
                feature += &w * &ef;
                hits += if base > 0 || mask.count_ones() >= 3 { weight } else { 0 };
            }
        }
    }
    let cycle_r = BigRational::from_integer(BigInt::from(cycle));
    let cost = BigRational::from_integer(BigInt::from(10));
    let mean = &sum / &cycle_r;
    let config = &f.configs[0];
    assert_eq!(f.cycle, u128::from(cycle));
    assert_eq!(config.rtp, &mean / &cost, "RTP");
    assert_eq!(config.rtp_hold, &feature / &cycle_r / &cost, "the feature's part");
    assert_eq!(config.variance, (&sum_sq / &cycle_r - &mean * &mean) / (&cost * &cost), "variance");
    assert_eq!(config.hit_frequency.clone().unwrap(), rat(hits, cycle), "hit frequency");
    let hold = f.hold.as_ref().unwrap();
    assert_eq!(hold.trigger_probability, rat(starts, cycle));
    // The levels' parts make up the feature's part.
    let parts = hold.rtp_levels.iter().fold(BigRational::zero(), |a, (_, x)| a + x);
    assert_eq!(parts, config.rtp_hold, "{:?}", hold.rtp_levels);
    assert!(hold.rtp_levels.iter().any(|(name, x)| name == "grand (full screen)" && x > &BigRational::zero()));
    assert!(!config.rtp_hold.is_zero() && config.rtp > config.rtp_hold);
}

/// The simulation plays the feature from counts (FastReels) and equals
/// the production round, which plays it over positions, round by round;
/// both lie within the exact figures' interval.
#[test]
fn a_simulation_through_the_production_round_agrees() {
    let g = compile("hold.ron", SMALL).unwrap();
    let f = analyse(&g).unwrap();
    let tables = StopTables::new(&g).unwrap();
    let fast = FastReels::new(&g, &tables);
    let (mut a, mut b) = (StreamRng::from_seed(9), StreamRng::from_seed(9));
    let mut features = 0;
    let mut full = 0;
    for i in 0..200_000 {
        let round = g.play(&tables, &mut a, Bet { lines: 10, credits_per_line: 2 }).unwrap();
        assert_eq!(fast.round(&mut b, 10) * 2, round.win, "round {i}");
        if let Some(h) = &round.hold {
            features += 1;
            full += u64::from(h.full);
            // The feature as the round commits it: the respins reset by a
            // landing, its values paid and the grand on a full screen.
            let mut left = 2;
            for r in &h.respins {
                left = if r.landed.is_empty() { left - 1 } else { 2 };
                assert_eq!(r.left, left);
            }
            let held = h.held().count();
            assert_eq!(h.full, held == 6);
            assert_eq!(h.win, h.held().map(|c| c.credits).sum::<u64>() + if h.full { 200 } else { 0 });
            assert!(h.held().all(|c| c.credits == 2 * g.hold_and_spin.as_ref().unwrap().pay(c.value)));
        }
    }
    assert!(features > 1_000 && full > 10, "{features} features, {full} full screens");
    let exact = f.configs[0].rtp.to_f64().unwrap();
    let r = paytables::simulate::run_parallel(&g, 10, 2_000_000, 21, 2, &|_| {}).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");
    let sd = f.configs[0].standard_deviation();
    assert!((r.standard_deviation() - sd).abs() / sd < 0.05, "SD {} against the exact {sd}", r.standard_deviation());
}

/// Each malformed hold-and-spin refused at its line, naming the problem.
#[test]
fn a_malformed_hold_and_spin_is_refused_at_its_line() {
    let line_of = |src: &str, needle: &str| src.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let cases: [(&str, &str, &str, &str); 10] = [
        ("respins: 2,", "respins: 0,", "respins: 0,", "never spin"),
        ("respins: 2,", "respins: 200,", "respins: 200,", "does not end"),
        ("trigger: 3,", "trigger: 7,", "trigger: 7,", "not 7"),
        ("(id: \"P\", name: \"Pérola\", kind: Bonus),", "(id: \"P\", name: \"Pérola\"),", "symbol: \"P\",", "not declared with kind: Bonus"),
        ("landing: (bonus: 1, blank: 2),", "landing: (bonus: 1, blank: 0),", "landing:", "every free cell"),
        ("(value: Credits(1), weight: 3),", "(value: Credits(0), weight: 3),", "Credits(0)", "worth 0"),
        ("(value: Mini, weight: 1),", "(value: Mini, weight: 0),", "(value: Mini, weight: 0)", "never shows"),
        ("grand: 100)", "grand: 5)", "jackpots:", "mini ≤ minor ≤ major ≤ grand"),
        ("(symbol: \"K\", count: 3, pays: 4),", "(symbol: \"P\", count: 3, pays: 4),", "(symbol: \"P\", count: 3", "pays through the hold-and-spin"),
        ("ways: true,", "ways: true,\n    scatter: Some((symbol: \"P\", pays: {3: 1})),", "hold_and_spin: Some((", "has no scatter"),
    ];
    for (from, to, at, says) in cases {
        assert!(SMALL.contains(from), "{from}");
        let src = SMALL.replacen(from, to, 1);
        let problems = refused(&src);
        let line = line_of(&src, at);
        assert!(problems.iter().any(|(l, m)| *l == line && m.contains(says)), "{to}: expected {says:?} at line {line}, got {problems:?}");
    }
    // A bonus symbol without the feature, and the feature on paylines.
    let src = SMALL.replacen("    hold_and_spin: Some((", "    hold_and_spin_off: Some((", 1);
    assert!(matches!(compile("bad.ron", &src), Err(PaytableError::Syntax { .. })), "an unknown field is a syntax error");
    let src = SMALL.replacen("ways: true,", "lines: [[0, 0, 0]],", 1);
    assert!(refused(&src).iter().any(|(_, m)| m.contains("built for ways games")));
}

/// Pérolas do Dragão (1,024 ways, four fixed jackpots) in its three
/// variants: the exact RTP (to six places, as approved), the feature's
/// chain on the 20-cell window, and the production round equal to the
/// simulation's, round by round, with a 2·10⁶-round simulation inside the
/// exact figure's interval.
#[test]
fn the_shipped_hold_and_spin_game_in_three_variants() {
    for (id, rtp) in [("dragao-1024", "0.959949"), ("dragao-1024-94", "0.940081"), ("dragao-1024-92", "0.920095")] {
        let g = shipped(id);
        assert_eq!(g.ways_count(), 1024);
        assert_eq!(g.cells().len(), 20);
        let f = analyse(&g).unwrap();
        assert_eq!(paytables::reel_math::decimal(&f.configs[0].rtp, 6), rtp, "{id}");
        let hold = f.hold.as_ref().unwrap();
        let parts = hold.rtp_levels.iter().fold(BigRational::zero(), |a, (_, x)| a + x);
        assert_eq!(parts, f.configs[0].rtp_hold, "{id}: the levels make up the feature's part");
        assert_eq!(hold.final_counts.iter().fold(BigRational::zero(), |a, x| a + x), BigRational::one(), "{id}");
    }
    let g = shipped("dragao-1024");
    let f = analyse(&g).unwrap();
    let tables = StopTables::new(&g).unwrap();
    let fast = FastReels::new(&g, &tables);
    let (mut a, mut b) = (StreamRng::from_seed(4), StreamRng::from_seed(4));
    let mut features = 0;
    for i in 0..100_000 {
        let round = g.play(&tables, &mut a, Bet { lines: 50, credits_per_line: 1 }).unwrap();
        assert_eq!(fast.round(&mut b, 50), round.win, "round {i}");
        features += usize::from(round.hold.is_some());
    }
    assert!(features > 300, "{features} features in 100,000 rounds (1 in 157 expected)");
    let exact = f.configs[0].rtp.to_f64().unwrap();
    let r = paytables::simulate::run_parallel(&g, 50, 2_000_000, 33, 2, &|_| {}).unwrap();
    let (lo, hi) = r.ci99();
    assert!(lo <= exact && exact <= hi, "exact {exact} outside [{lo}, {hi}]");
}
