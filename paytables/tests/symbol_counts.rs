//! Issue 18: the RTP and the variance computed from per-reel symbol counts
//! equal, as exact fractions, those of the full enumeration of the cycle
//! (itself checked against an independent brute force in `brute_force.rs`)
//! on every sample paytable and on random small paytables, whatever the
//! number of worker threads; and the moments the two methods collect per
//! scatter count are the same integers.
#![allow(clippy::unwrap_used)]

use game_core::reels::{ReelGame, Strip, SymbolKind};
use paytables::reel_counts::spin_by_counts;
use paytables::reel_math::{Method, Work, analyse_by, enumerate_on};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

fn sample(file: &str) -> ReelGame {
    paytables::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(file)).unwrap()
}

/// Both methods on every set of strips of `game`, and the analyses.
fn same_figures(game: &ReelGame, threads: &[usize]) {
    let configs: Vec<usize> = game.bet.lines.iter().map(|&l| l as usize).collect();
    let mut sets = vec![(game.reels.clone(), false)];
    if game.free_games().is_some_and(|f| f.reels.is_some()) {
        sets.push((game.strips(true).to_vec(), true));
    }
    for (strips, free) in &sets {
        let full = enumerate_on(game, strips, &configs, *free, 2, &Work::unlimited()).unwrap();
        for &t in threads {
            let counts = spin_by_counts(game, strips, &configs, t, &Work::unlimited()).unwrap();
            assert_eq!(counts.by_scatters, full.by_scatters, "{}: moments by scatter count (free strips {free}, {t} threads)", game.id);
            assert_eq!(counts.line_sum, full.line_sum, "{}: line sums", game.id);
            assert_eq!(counts.combo_hits, full.combo_hits, "{}: line hits per combination", game.id);
            assert_eq!(counts.cycle, full.cycle);
            // One line's probability is a lower bound of "on any line".
            for (k, &w) in &counts.combo_line_max {
                assert!(w <= full.combo_any.get(k).copied().unwrap_or(0), "{}: {k:?} bound {w} above the exact weight", game.id);
            }
        }
    }
    let a = analyse_by(game, Method::FullCycle, 2, &Work::unlimited()).unwrap();
    let b = analyse_by(game, Method::SymbolCounts, 2, &Work::unlimited()).unwrap();
    assert_eq!(b.method, Method::SymbolCounts);
    for (x, y) in a.configs.iter().zip(&b.configs) {
        assert_eq!(x.rtp, y.rtp, "{}: RTP at {} lines", game.id, x.lines);
        assert_eq!((&x.rtp_lines, &x.rtp_scatter, &x.rtp_free_games), (&y.rtp_lines, &y.rtp_scatter, &y.rtp_free_games), "{}", game.id);
        assert_eq!(x.variance, y.variance, "{}: variance at {} lines", game.id, x.lines);
        assert!(x.hit_frequency.is_some() && y.hit_frequency.is_none(), "the hit frequency needs the full cycle");
    }
    assert_eq!(a.configs.len(), b.configs.len());
}

#[test]
fn every_sample_gives_the_same_exact_figures_by_symbol_counts() {
    for file in ["classic-sevens.ron", "ocean-treasure.ron"] {
        same_figures(&sample(file), &[1, 2, 8]);
    }
}

/// A random small game built on Ocean Treasure's symbols and rules (wild
/// with its multiplier, scatter pays, free games with their own strips and
/// retriggers): random strips of 1 to 7 stops with random weights (zero
/// included), random lines and random pays.
fn random_game(seed: u64) -> ReelGame {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut r = |n: u64| rng.next_u64() % n;
    let mut g = sample("ocean-treasure.ron");
    let symbols = g.symbols.len() as u64;
    let reels = 3 + r(3) as usize;
    let rows = 1 + r(3) as u8;
    let strip = |r: &mut dyn FnMut(u64) -> u64| {
        let len = 1 + r(7) as usize;
        let weighted = r(2) == 0;
        Strip {
            symbols: (0..len).map(|_| r(symbols) as u8).collect(),
            weights: weighted.then(|| {
                let mut w: Vec<u64> = (0..len).map(|_| r(4)).collect();
                w[0] = w[0].max(1);
                w
            }),
        }
    };
    g.rows = rows;
    g.reels = (0..reels).map(|_| strip(&mut r)).collect();
    let lines = 1 + r(6) as usize;
    g.lines = (0..lines).map(|_| (0..reels).map(|_| r(u64::from(rows)) as u8).collect()).collect();
    g.bet.lines = if lines > 1 { vec![1, lines as u32] } else { vec![1] };
    for (i, pays) in g.pays.iter_mut().enumerate() {
        *pays = (0..=reels)
            .map(|c| {
                if c >= 2 && r(3) > 0 {
                    r(40)
                } else if c == 1 && r(5) == 0 {
                    r(3)
                } else {
                    0
                }
            })
            .collect();
        if matches!(g.symbols[i].kind, SymbolKind::Scatter) {
            pays.iter_mut().for_each(|p| *p = 0);
        }
    }
    let cells = reels * rows as usize + 1;
    if let Some(sc) = g.scatter.as_mut() {
        sc.pays = (0..cells).map(|c| if c >= 2 { r(6) } else { 0 }).collect();
        if let Some(f) = sc.free_games.as_mut() {
            // Awards rare enough that free games end on average.
            f.awards = (0..cells).map(|c| if c >= 3 && r(2) == 0 { 1 + r(3) as u32 } else { 0 }).collect();
            f.retrigger = r(2) == 0;
            f.reels = (r(2) == 0).then(|| (0..reels).map(|_| strip(&mut r)).collect());
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn random_small_games_give_the_same_exact_figures(seed in any::<u64>()) {
        let game = random_game(seed);
        match analyse_by(&game, Method::FullCycle, 1, &Work::unlimited()) {
            // Free games that never end on average are refused alike.
            Err(e) => prop_assert_eq!(analyse_by(&game, Method::SymbolCounts, 1, &Work::unlimited()).unwrap_err(), e),
            Ok(_) => same_figures(&game, &[1, 3]),
        }
    }
}
