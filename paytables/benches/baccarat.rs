//! Issue 31 benchmark: the exact enumeration of a baccarat shoe (every
//! coup by points, without replacement) and every bet's figures, for the
//! shipped 8-deck and 6-deck tables (aim: well under 0.1 s).
#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};

fn figures(c: &mut Criterion) {
    let mut g = c.benchmark_group("baccarat exact figures");
    for f in ["bacara.ron", "bacara-6-sem-comissao.ron"] {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(f);
        let game = paytables::baccarat::compile_baccarat(&p.display().to_string(), &std::fs::read_to_string(&p).unwrap()).unwrap();
        g.bench_function(f, |b| b.iter(|| paytables::baccarat::game_figures(std::hint::black_box(&game))));
    }
    g.finish();
}

criterion_group!(benches, figures);
criterion_main!(benches);
