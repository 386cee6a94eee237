//! Independent check of the exact reel math (issue 3 "Proof"): every stop
//! combination of the full cycle is visited one by one — no pruning, no
//! folding of scatter distributions — and the spin's win, its square, the
//! hits and the scatter counts are summed. The compiler's figures must
//! equal these sums exactly.
#![allow(clippy::unwrap_used)]

use game_core::reels::{ReelGame, Strip};
use paytables::reel_math::{MathError, Moments, Work, analyse, analyse_with, enumerate_on};

/// Brute force over every stop combination: per line count, per scatter
/// count, the exact moments of the spin win (credits per line credit).
/// Each combination is evaluated whole, with the game's own line rule; the
/// first reel's stops are split over two threads.
fn brute(game: &ReelGame, strips: &[Strip], configs: &[usize], free: bool) -> (Vec<Vec<Moments>>, Vec<u128>) {
    let halves: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2).map(|t| s.spawn(move || brute_part(game, strips, configs, free, t, 2))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let (mut m, mut h) = halves[0].clone();
    for (m2, h2) in &halves[1..] {
        for (a, b) in m.iter_mut().zip(m2) {
            for (x, y) in a.iter_mut().zip(b) {
                x.weight += y.weight;
                x.sum += y.sum;
                x.sum_sq += y.sum_sq;
            }
        }
        for (a, b) in h.iter_mut().zip(h2) {
            *a += b;
        }
    }
    (m, h)
}

fn brute_part(game: &ReelGame, strips: &[Strip], configs: &[usize], free: bool, part: usize, parts: usize) -> (Vec<Vec<Moments>>, Vec<u128>) {
    let n = strips.len();
    let rows = game.rows as usize;
    let sc = game.scatter.as_ref();
    let max_c = n * rows + 1;
    let mut moments = vec![vec![Moments::default(); max_c]; configs.len()];
    let mut hits = vec![0u128; configs.len()];
    let max_lines = *configs.last().unwrap();
    let mut stops = [0usize; 8];
    stops[0] = part;
    let mut pays = [0u64; 64];
    loop {
        let w: u128 = (0..n).map(|r| u128::from(strips[r].weight(stops[r]))).product();
        if w > 0 {
            let mut scatters = 0;
            if let Some(sc) = sc {
                for r in 0..n {
                    for row in 0..rows {
                        if strips[r].at(stops[r], row) == sc.symbol {
                            scatters += 1;
                        }
                    }
                }
            }
            for (l, pay) in pays.iter_mut().enumerate().take(max_lines) {
                let mut syms = [0u8; 8];
                for r in 0..n {
                    syms[r] = strips[r].at(stops[r], game.lines[l][r] as usize);
                }
                *pay = game.line_pay(&syms[..n]).map_or(0, |p| p.pay);
            }
            let spay = sc.map_or(0, |sc| sc.pays[scatters]);
            let awards = sc.and_then(|s| s.free_games.as_ref()).filter(|f| !free || f.retrigger).map_or(0, |f| f.awards[scatters]);
            for (j, &l) in configs.iter().enumerate() {
                let win = pays[..l].iter().sum::<u64>() + spay * l as u64;
                let x = u128::from(win);
                let m = &mut moments[j][scatters];
                m.weight += w;
                m.sum += x * w;
                m.sum_sq += x * x * w;
                if win > 0 || awards > 0 {
                    hits[j] += w;
                }
            }
        }
        // Next combination (odometer); the first reel steps by `parts`.
        let mut r = n;
        loop {
            if r == 0 {
                return (moments, hits);
            }
            r -= 1;
            stops[r] += if r == 0 { parts } else { 1 };
            if stops[r] < strips[r].len() {
                break;
            }
            if r == 0 {
                return (moments, hits);
            }
            stops[r] = 0;
        }
    }
}

fn check_sample(file: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(file);
    let game = paytables::load(&path).unwrap();
    let configs: Vec<usize> = game.bet.lines.iter().map(|&l| l as usize).collect();
    let mut sets = vec![(game.reels.clone(), false)];
    if game.free_games().is_some() {
        sets.push((game.strips(true).to_vec(), true));
    }
    for (strips, free) in sets {
        let (moments, hits) = brute(&game, &strips, &configs, free);
        let cycle: u128 = strips.iter().map(|s| u128::from(s.total_weight())).product();
        // Issue 18: the figures never depend on the number of worker threads.
        for threads in [1, 2, 8] {
            let fast = enumerate_on(&game, &strips, &configs, free, threads, &Work::unlimited()).unwrap();
            assert_eq!(fast.by_scatters, moments, "{file}: moments by scatter count (free = {free}, {threads} threads)");
            assert_eq!(fast.hit_weight, hits, "{file}: hit weights (free = {free}, {threads} threads)");
            assert_eq!(fast.cycle, cycle);
        }
    }
}

/// B-11: the analysis's exact enumeration over the full game cycle equals
/// an independent brute force over every stop combination.
#[test]
fn classic_sevens_matches_brute_force_over_the_full_cycle() {
    check_sample("classic-sevens.ron");
}

#[test]
fn ocean_treasure_matches_brute_force_over_the_full_cycle() {
    check_sample("ocean-treasure.ron");
}

fn sevens() -> ReelGame {
    paytables::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables/classic-sevens.ron")).unwrap()
}

/// Issue 18, case 1: a pay of 2^63 + 50 with the ×2 wild overflowed the
/// bound on the largest win and a partial sum was reported as exact. Now
/// the analysis refuses it, naming the cause, on any number of threads.
#[test]
fn a_pay_whose_wild_multiple_overflows_is_refused_not_miscounted() {
    let mut game = sevens();
    assert!(game.wild().is_some_and(|(_, m)| m == 2), "the sample has a ×2 wild");
    game.pays[0][2] = (1u64 << 63) + 50;
    let e = analyse(&game).unwrap_err();
    assert!(matches!(&e, MathError::PaysTooLarge { what, .. } if what.contains("does not fit 64 bits")), "{e}");
    for threads in [1, 2, 8] {
        let e = enumerate_on(&game, &game.reels.clone(), &[1], false, threads, &Work::unlimited()).unwrap_err();
        assert!(matches!(e, MathError::PaysTooLarge { .. }), "{threads} threads: {e}");
    }
}

/// A pay that fits 64 bits but whose squared sums over the cycle would not
/// fit 128 bits is refused too: no sum of the analysis can wrap.
#[test]
fn pays_whose_exact_sums_would_exceed_128_bits_are_refused() {
    let mut game = sevens();
    game.pays[0][2] = 1u64 << 56;
    let e = analyse(&game).unwrap_err();
    assert!(matches!(&e, MathError::PaysTooLarge { what, .. } if what.contains("128 bits")), "{e}");
    // The largest pay the bound allows on this cycle is still analysed exactly.
    let mut game = sevens();
    game.pays[0][2] = 1 << 20;
    assert!(analyse(&game).is_ok());
}

/// Issue 18: a long analysis reports how far it has come and stops at its
/// deadline with a clear error, never with a figure.
#[test]
fn an_analysis_past_its_deadline_stops_with_the_work_left() {
    let game = paytables::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables/ocean-treasure.ron")).unwrap();
    let (combos, first) = paytables::reel_math::work_size(&game);
    // The walk's unit is a reel's distinct window (issue 36), counted here
    // on its own: each strip's windows of stops that weigh something.
    let distinct = |strip: &game_core::reels::Strip| {
        (0..strip.len())
            .filter(|&s| strip.weight(s) > 0)
            .map(|s| (0..game.rows as usize).map(|r| strip.at(s, r)).collect::<Vec<_>>())
            .collect::<std::collections::HashSet<_>>()
            .len() as u128
    };
    let mut sets = vec![game.reels.as_slice()];
    if game.free_games().is_some_and(|f| f.reels.is_some()) {
        sets.push(game.strips(true));
    }
    assert_eq!(combos, sets.iter().map(|s| s.iter().map(distinct).product::<u128>()).sum::<u128>());
    assert_eq!(u128::from(first), sets.iter().map(|s| distinct(&s[0])).sum::<u128>());
    let work = Work::until(Some(std::time::Instant::now()));
    match analyse_with(&game, 2, &work) {
        Err(MathError::Stopped { done, total, .. }) => {
            assert_eq!(total, first);
            assert!(done < total, "{done} of {total}");
        }
        other => panic!("expected a stop, got {:?}", other.map(|f| f.cycle)),
    }
    assert!(work.progress().0 < first);
    // Unlimited, the same work runs to the end and counts every stop.
    let work = Work::unlimited();
    analyse_with(&game, 2, &work).unwrap();
    assert_eq!(work.progress(), (first, first));
}

/// Issue 36, point 4: a game of 29 million stop combinations — Sevens
/// Classic with each strip listed 14 times over — once had no hit
/// frequency and no largest base win (its cycle was past the walk's
/// limit). Walked by its reels' distinct windows it reports both, and they
/// are the small game's: the hit weight from the independent brute force
/// above, scaled by the copies, and its largest base win.
#[test]
fn a_29_million_combination_copy_reports_the_hit_frequency_of_its_brute_forced_original() {
    let small = sevens();
    let mut copy = small.clone();
    for strip in &mut copy.reels {
        strip.symbols = strip.symbols.repeat(14);
        strip.weights = strip.weights.as_ref().map(|w| w.repeat(14));
    }
    let stops: u128 = copy.reels.iter().map(|r| r.len() as u128).product();
    assert_eq!(stops, 308 * 308 * 308);
    assert!(stops > paytables::reel_math::FULL_CYCLE_LIMIT);
    assert_eq!(paytables::reel_math::method_for(&copy), paytables::reel_math::Method::FullCycle);
    let configs: Vec<usize> = small.bet.lines.iter().map(|&l| l as usize).collect();
    let (_, hits) = brute(&small, &small.reels, &configs, false);
    let small_cycle: u128 = small.reels.iter().map(|s| u128::from(s.total_weight())).product();
    let big = analyse(&copy).unwrap();
    let reference = analyse(&small).unwrap();
    assert_eq!(big.cycle, small_cycle * 14 * 14 * 14);
    for (i, c) in big.configs.iter().enumerate() {
        let exact = num_rational::BigRational::new(hits[i].into(), small_cycle.into());
        assert_eq!(c.hit_frequency.as_ref(), Some(&exact), "{} lines: hit frequency", c.lines);
        assert_eq!(c.max_base_win, reference.configs[i].max_base_win, "{} lines: largest base win", c.lines);
        assert!(c.max_base_win.is_some());
        assert_eq!(c.rtp, reference.configs[i].rtp);
    }
}
