//! Issue 3 benchmarks: the exact analysis of the 5×3 sample (every bet
//! configuration, the full 28⁵ cycle), and simulated rounds per second on
//! one core through the production game code and RNG.
#![allow(clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_core::reels::{FastReels, StopTables};
use meters::StreamRng;

fn sample(f: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(f)
}

fn exact(c: &mut Criterion) {
    let ocean = paytables::load(&sample("ocean-treasure.ron")).unwrap();
    let classic = paytables::load(&sample("classic-sevens.ron")).unwrap();
    let mut g = c.benchmark_group("exact RTP");
    g.sample_size(10);
    g.bench_function("ocean-treasure 5x3, 20 lines, 5 bet configurations", |b| b.iter(|| paytables::reel_math::analyse(&ocean).unwrap()));
    g.bench_function("classic-sevens 3x1", |b| b.iter(|| paytables::reel_math::analyse(&classic).unwrap()));
    g.finish();
}

/// Ocean Treasure with every strip (base and free) redrawn at `stops` stops:
/// the 28-stop strips repeated and shuffled with a fixed seed, so each
/// symbol keeps its share.
fn long_strips(stops: usize) -> game_core::reels::ReelGame {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut g = paytables::load(&sample("ocean-treasure.ron")).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
    let mut stretch = |s: &mut game_core::reels::Strip| {
        let mut symbols: Vec<u8> = s.symbols.iter().copied().cycle().take(stops).collect();
        for i in (1..symbols.len()).rev() {
            symbols.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        *s = game_core::reels::Strip { symbols, weights: None };
    };
    g.reels.iter_mut().for_each(&mut stretch);
    if let Some(f) = g.scatter.as_mut().and_then(|s| s.free_games.as_mut()).and_then(|f| f.reels.as_mut()) {
        f.iter_mut().for_each(&mut stretch);
    }
    g
}

/// Issue 18: the exact RTP and standard deviation of a 5×3, 20-line game
/// from symbol counts, independent of strip length.
fn commercial_strips(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact RTP from symbol counts");
    g.sample_size(10);
    for stops in [250, 1_000] {
        let game = long_strips(stops);
        assert_eq!(paytables::reel_math::method_for(&game), paytables::reel_math::Method::SymbolCounts);
        g.bench_function(format!("5x3, 20 lines, 5 bet configurations, {stops}-stop strips"), |b| b.iter(|| paytables::reel_math::analyse(&game).unwrap()));
    }
    g.finish();
}

/// Issue 50: the exact figures of a ways game (RTP, SD, hit frequency and
/// the free games) with 100-stop strips: Ocean Treasure's strips and pays
/// as 243 ways (5×3) and 1,024 ways (5×4).
fn ways(c: &mut Criterion) {
    let mut g = c.benchmark_group("exact figures of a ways game");
    g.sample_size(10);
    for (rows, ways) in [(3u8, 243), (4, 1_024)] {
        let mut game = long_strips(100);
        game.ways = true;
        game.rows = rows;
        game.lines.clear();
        game.bet.lines = vec![25];
        assert_eq!(paytables::reel_math::method_for(&game), paytables::reel_math::Method::Ways);
        g.bench_function(format!("{ways} ways, 100-stop strips"), |b| b.iter(|| paytables::reel_math::analyse(&game).unwrap()));
    }
    // The shipped 243-ways game (an expanding wild), and a second wild
    // (×3, for the pictures alone) with the wilds' multipliers added: the
    // costliest combination (a sum of products per run, pairs of parts).
    let floresta = paytables::load(&sample("floresta-243.ron")).unwrap();
    g.bench_function("floresta-243 (243 ways, expanding wild)", |b| b.iter(|| paytables::reel_math::analyse(&floresta).unwrap()));
    let mut game = long_strips(100);
    game.ways = true;
    game.lines.clear();
    game.bet.lines = vec![25];
    let pictures: Vec<u8> = game.symbols.iter().enumerate().filter(|(_, s)| s.id == "F" || s.id == "SH").map(|(i, _)| i as u8).collect();
    let second = game.symbols.len() as u8;
    game.symbols.push(game_core::reels::Symbol {
        id: "V".into(),
        name: "V".into(),
        kind: game_core::reels::SymbolKind::Wild { multiplier: 3, expanding: false, substitutes: Some(pictures), sticky: false },
    });
    game.pays.push(vec![0; game.reels.len() + 1]);
    for (r, strip) in game.reels.iter_mut().enumerate().skip(1) {
        let at = 7 * r % strip.symbols.len();
        strip.symbols[at] = second;
    }
    game.wild_multipliers = game_core::reels::WildMultipliers::Add;
    g.bench_function("243 ways, two wilds added, 100-stop strips", |b| b.iter(|| paytables::reel_math::analyse(&game).unwrap()));
    // Floresta Encantada with its wild sticky in free games (no
    // retriggers): the free games by the Markov chain over the filled
    // reels (8 states, 27 steps, each a ways analysis).
    let mut sticky = floresta.clone();
    for s in &mut sticky.symbols {
        if let game_core::reels::SymbolKind::Wild { sticky: on, .. } = &mut s.kind {
            *on = true;
        }
    }
    g.bench_function("floresta-243 with a sticky wild (Markov chain)", |b| b.iter(|| paytables::reel_math::analyse(&sticky).unwrap()));
    // Issue 50: the hold-and-spin chain of a 5×4 window (20 cells, three
    // respins, six to start), every start count from 6 to 20, in exact
    // rationals.
    let rule = game_core::reels::HoldAndSpinRule {
        symbol: 0,
        trigger: 6,
        respins: 3,
        landing: (1, 30),
        values: vec![
            (game_core::reels::CashValue::Credits(25), 60),
            (game_core::reels::CashValue::Credits(50), 25),
            (game_core::reels::CashValue::Credits(125), 10),
            (game_core::reels::CashValue::Mini, 3),
            (game_core::reels::CashValue::Minor, 1),
            (game_core::reels::CashValue::Major, 1),
        ],
        jackpots: game_core::reels::Jackpots { mini: 250, minor: 500, major: 2500, grand: 25000 },
        grand_progressive: false,
    };
    g.bench_function("hold-and-spin chain, 5x4 window, 3 respins", |b| b.iter(|| paytables::hold_math::analyse(&rule, 20)));
    // Issue 50: the shipped hold-and-spin game whole (1,024 ways and the
    // chain), and the shipped cascade game's full cycle (3.2 million stop
    // combinations, each cascade played).
    let dragao = paytables::load(&sample("dragao-1024.ron")).unwrap();
    g.bench_function("dragao-1024 (1,024 ways, hold-and-spin)", |b| b.iter(|| paytables::reel_math::analyse(&dragao).unwrap()));
    let minas = paytables::load(&sample("minas-cascata.ron")).unwrap();
    g.sample_size(10);
    g.bench_function("minas-cascata (243 ways, cascades, full cycle)", |b| b.iter(|| paytables::reel_math::analyse(&minas).unwrap()));
    g.finish();
}

/// Issue 50: the strip generator reaching 94.00 % (to 0.01 %) with a hit
/// frequency of 30–36 % from Floresta Encantada's strips, seed 7.
fn generate(c: &mut Criterion) {
    let mut g = c.benchmark_group("strip generator");
    g.sample_size(10);
    let game = paytables::load(&sample("floresta-243.ron")).unwrap();
    let rtp = num_rational::BigRational::new(94.into(), 100.into());
    let targets = paytables::generate::Targets::to_a_hundredth_of_a_percent(&rtp, Some((0.30, 0.36)), None, None);
    g.bench_function("floresta-243 to 94.00 %", |b| {
        b.iter(|| {
            let out = paytables::generate::generate(&game, &targets, &mut StreamRng::from_seed(7), 20_000).unwrap();
            assert!(out.missed.is_empty());
            out.steps
        })
    });
    g.finish();
}

fn simulate(c: &mut Criterion) {
    let mut g = c.benchmark_group("simulated rounds, one core");
    for (file, lines) in [("ocean-treasure.ron", 20usize), ("classic-sevens.ron", 1)] {
        let game = paytables::load(&sample(file)).unwrap();
        let tables = StopTables::new(&game).unwrap();
        let fast = FastReels::new(&game, &tables);
        let mut rng = StreamRng::from_seed(1);
        const ROUNDS: u64 = 100_000;
        g.throughput(Throughput::Elements(ROUNDS));
        g.bench_function(format!("{file} at {lines} lines"), |b| {
            b.iter(|| {
                let mut won = 0u64;
                for _ in 0..ROUNDS {
                    won += fast.round(&mut rng, lines);
                }
                won
            })
        });
    }
    g.finish();
}

criterion_group!(benches, exact, commercial_strips, ways, generate, simulate);
criterion_main!(benches);
