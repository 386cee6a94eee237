//! Issue 32 benchmark: a rule set's return under optimal composition-
//! dependent play, by enumeration of the shoe (every up card, every
//! two-card hand, every split), for the shipped seed and standard games.
//! Issue 73's aim: under 0.1 s, so that a designer sweeps rule sets and a
//! cabinet checks its tables at boot without a pause (docs/designer-speed.md
//! holds the figures).
#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};

fn analysis(c: &mut Criterion) {
    let mut g = c.benchmark_group("blackjack optimal-play analysis");
    g.sample_size(10);
    for f in ["blackjack.ron", "blackjack-classico.ron"] {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(f);
        let game = paytables::blackjack::compile_blackjack(&p.display().to_string(), &std::fs::read_to_string(&p).unwrap()).unwrap();
        g.bench_function(f, |b| b.iter(|| paytables::blackjack::figures(std::hint::black_box(&game))));
    }
    g.finish();
}

criterion_group!(benches, analysis);
criterion_main!(benches);
