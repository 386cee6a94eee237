//! Issue 33 benchmarks: the exact base-game RTP of 90-ball bingo with 30
//! balls drawn (one card's distribution over every set of its numbers the
//! draws can mark; 4 cards return exactly 4 times one card), and one extra
//! ball's price on the cabinet's path (`Round::offer`: every ball still in
//! the drum on 4 cards; aim: under 5 ms, well inside the time between two
//! balls). And the extra balls' figures `paytable check` prints: the
//! player's best policy for one card (Dinkelbach's passes of the chain)
//! and the bounds on every offer for 1 to 4 cards.
#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use game_core::bingo::{BingoGame, Round};

fn sample(f: &str) -> BingoGame {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(f);
    paytables::bingo::compile_bingo(&p.display().to_string(), &std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("bingo exact base RTP");
    g.sample_size(20);
    let mut ninety = sample("bingo-90.ron");
    ninety.balls = 30;
    g.bench_function("90-ball, 30 balls, 4 cards", |b| b.iter(|| game_core::bingo::odds::card_odds(std::hint::black_box(&ninety))));
    let seventy_five = sample("bingo-75.ron");
    g.bench_function("75-ball, 42 balls (2^24 sets)", |b| b.iter(|| game_core::bingo::odds::card_odds(std::hint::black_box(&seventy_five))));
    g.finish();
}

fn price(c: &mut Criterion) {
    let mut g = c.benchmark_group("bingo extra-ball price");
    for f in ["bingo-75.ron", "bingo-90.ron"] {
        let game = sample(f);
        let mut rng = meters::rng::StreamRng::from_seed(33);
        // A round with an offer on the table, as the cabinet prices it.
        let round = loop {
            let (cards, balls) = game.deal(4, &mut rng);
            let r = Round::new(&game, 10, cards, balls);
            if r.offer().is_some() {
                break r;
            }
        };
        g.bench_function(format!("{f}, 4 cards"), |b| b.iter(|| std::hint::black_box(&round).offer()));
    }
    g.finish();
}

fn extra_figures(c: &mut Criterion) {
    let mut g = c.benchmark_group("bingo extra-ball figures");
    g.sample_size(10);
    for f in ["bingo-90.ron", "bingo-80.ron"] {
        let game = sample(f);
        let extra = game.extra.unwrap();
        let sets = game_core::bingo::odds::CardSets::new(&game);
        let every = sets.extra(&extra, game.minimum);
        g.bench_function(format!("{f}, best policy, one card"), |b| b.iter(|| sets.best_policy(std::hint::black_box(&extra), game.minimum, &every)));
        g.bench_function(format!("{f}, bounds on every offer, 1 to 4 cards"), |b| b.iter(|| sets.offer_bounds(std::hint::black_box(&extra))));
    }
    g.finish();
}

criterion_group!(benches, exact, price, extra_figures);
criterion_main!(benches);
