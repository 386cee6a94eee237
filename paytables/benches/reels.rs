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

criterion_group!(benches, exact, simulate);
criterion_main!(benches);
