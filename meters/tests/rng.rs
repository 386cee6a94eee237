//! Certification tests of the RNG (certification.md §A; issue: "exact
//! uniformity of the scaling on a small generator over its whole input
//! space; chi-square at 99% over at least 10^7 draws; every card in every
//! position after shuffling").
#![allow(clippy::unwrap_used)]

use meters::rng::{CoreRng, GameRng, StreamRng, WeightTable, lemire_map};
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Enumerate every 16-bit input: each value of 0..n must receive exactly
/// ⌊2^16 / n⌋ accepted inputs.
#[test]
fn scaling_is_exactly_uniform_over_every_16_bit_input() {
    for n in 1u16..=1000 {
        let mut counts = vec![0u32; n as usize];
        for x in 0..=u16::MAX {
            if let Some(v) = lemire_map(x, n) {
                counts[v as usize] += 1;
            }
        }
        let expect = (1u32 << 16) / u32::from(n);
        assert!(counts.iter().all(|&c| c == expect), "n = {n}: {counts:?}");
    }
    for n in [u16::MAX, 1 << 15, (1 << 15) + 1, (1 << 15) - 1, 40_000] {
        let mut counts = vec![0u32; n as usize];
        for x in 0..=u16::MAX {
            if let Some(v) = lemire_map(x, n) {
                counts[v as usize] += 1;
            }
        }
        let expect = (1u32 << 16) / u32::from(n);
        assert!(counts.iter().all(|&c| c == expect), "n = {n}");
    }
}

/// The same over the whole 2^32 input space of a 32-bit word.
fn exhaustive_u32(n: u32) {
    let mut counts = vec![0u64; n as usize];
    for x in 0..=u32::MAX {
        if let Some(v) = lemire_map(x, n) {
            counts[v as usize] += 1;
        }
    }
    let expect = (1u64 << 32) / u64::from(n);
    assert!(counts.iter().all(|&c| c == expect), "n = {n}");
}

#[test]
fn scaling_is_exactly_uniform_over_every_32_bit_input_n37() {
    exhaustive_u32(37);
}

#[test]
fn scaling_is_exactly_uniform_over_every_32_bit_input_n52() {
    exhaustive_u32(52);
}

#[test]
fn scaling_is_exactly_uniform_over_every_32_bit_input_n1000() {
    exhaustive_u32(1000);
}

fn chi_square_critical(df: f64, p: f64) -> f64 {
    ChiSquared::new(df).unwrap().inverse_cdf(p)
}

/// Ranges of 2^32 and above take the 64-bit path: uniform as well.
#[test]
fn uniform_above_32_bits_passes_chi_square() {
    const DRAWS: u64 = 2_000_000;
    let n: u64 = (1 << 40) + 3;
    let buckets = 64u64;
    let mut rng = StreamRng::from_seed(99);
    let mut counts = vec![0u64; buckets as usize];
    for _ in 0..DRAWS {
        let v = rng.uniform(n);
        assert!(v < n);
        counts[(u128::from(v) * u128::from(buckets) / u128::from(n)) as usize] += 1;
    }
    let e = DRAWS as f64 / buckets as f64;
    let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    assert!(chi < chi_square_critical((buckets - 1) as f64, 0.99), "χ² = {chi}");
}

/// 10^7 production draws of `uniform(n)`: the chi-square statistic must sit
/// under the 99% critical value.
#[test]
fn uniform_passes_chi_square_at_99_percent() {
    const DRAWS: u64 = 10_000_000;
    for (i, n) in [2u64, 3, 37, 38, 52, 75, 80, 90, 1000].into_iter().enumerate() {
        let mut rng = StreamRng::from_seed(0xC0FFEE + i as u64);
        let mut counts = vec![0u64; n as usize];
        for _ in 0..DRAWS {
            counts[rng.uniform(n) as usize] += 1;
        }
        let e = DRAWS as f64 / n as f64;
        let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        let critical = chi_square_critical((n - 1) as f64, 0.99);
        assert!(chi < critical, "n = {n}: χ² = {chi:.2} ≥ {critical:.2}");
    }
}

/// Weighted choice through cumulative integer weights: exact mapping of
/// every ticket, and chi-square over 10^7 draws.
#[test]
fn weighted_choice_maps_tickets_exactly_and_passes_chi_square() {
    let weights = [1u64, 0, 5, 12, 30, 2];
    let table = WeightTable::new(&weights).unwrap();
    let mut by_ticket = vec![0u64; weights.len()];
    for t in 0..table.total() {
        by_ticket[table.index_of(t)] += 1;
    }
    assert_eq!(by_ticket, weights);

    const DRAWS: u64 = 10_000_000;
    let mut rng = StreamRng::from_seed(7);
    let mut counts = [0u64; 6];
    for _ in 0..DRAWS {
        counts[rng.pick(&table)] += 1;
    }
    assert_eq!(counts[1], 0, "a zero weight is never drawn");
    let total = table.total() as f64;
    let chi: f64 = weights
        .iter()
        .zip(counts)
        .filter(|(w, _)| **w > 0)
        .map(|(w, c)| {
            let e = DRAWS as f64 * *w as f64 / total;
            (c as f64 - e).powi(2) / e
        })
        .sum();
    assert!(chi < chi_square_critical(4.0, 0.99), "χ² = {chi}");
}

/// Every card lands in every position with probability 1/52: one
/// chi-square over the 52 × 52 position-by-card table, (52−1)² degrees of
/// freedom, at 99%.
#[test]
fn shuffle_puts_every_card_in_every_position() {
    const SHUFFLES: u64 = 400_000;
    let mut rng = StreamRng::from_seed(52);
    let mut table = vec![[0u64; 52]; 52];
    let mut deck: Vec<usize> = (0..52).collect();
    for _ in 0..SHUFFLES {
        rng.shuffle(&mut deck);
        for (pos, &card) in deck.iter().enumerate() {
            table[pos][card] += 1;
        }
    }
    let e = SHUFFLES as f64 / 52.0;
    let chi: f64 = table.iter().flatten().map(|&c| (c as f64 - e).powi(2) / e).sum();
    let critical = chi_square_critical(51.0 * 51.0, 0.99);
    assert!(chi < critical, "χ² = {chi:.1} ≥ {critical:.1}");
    assert!(table.iter().flatten().all(|&c| c > 0));
}

/// Drawing without replacement gives distinct values, each value equally
/// likely in each draw position (bingo balls, dealt cards).
#[test]
fn draw_without_replacement_is_distinct_and_uniform() {
    let mut rng = StreamRng::from_seed(90);
    const DRAWS: u64 = 200_000;
    let mut first = vec![0u64; 90];
    for _ in 0..DRAWS {
        let balls = rng.draw_without_replacement(90, 30);
        let mut seen = [false; 90];
        for &b in &balls {
            assert!(!seen[b], "ball {b} drawn twice");
            seen[b] = true;
        }
        first[balls[29]] += 1;
    }
    let e = DRAWS as f64 / 90.0;
    let chi: f64 = first.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    assert!(chi < chi_square_critical(89.0, 0.99), "χ² = {chi}");
}

/// Seeding: two boots with the same persisted carry, at the same
/// moment, never share a stream; the next carry differs too.
#[test]
fn two_boots_with_the_same_carry_produce_different_streams() {
    let carry = [7u8; 32];
    let a = CoreRng::seed_from_entropy(&carry).unwrap();
    let b = CoreRng::seed_from_entropy(&carry).unwrap();
    let xa: Vec<u64> = (0..4).map(|_| a.rng.lock().next_raw()).collect();
    let xb: Vec<u64> = (0..4).map(|_| b.rng.lock().next_raw()).collect();
    assert_ne!(xa, xb);
    assert_ne!(a.next_carry, b.next_carry);
    assert_ne!(a.next_carry, carry);
}

/// Background cycling: the production generator advances while idle,
/// so the same press at the same moment does not see the same state.
#[test]
fn production_generator_cycles_while_idle() {
    let seeded = CoreRng::seed_from_entropy(&[]).unwrap();
    assert!(seeded.rng.is_cycling());
    let before = seeded.rng.background_advances();
    std::thread::sleep(std::time::Duration::from_millis(50));
    let after = seeded.rng.background_advances();
    assert!(after > before, "no background advance in 50 ms");
}

/// A lab seed is reproducible and does not cycle: the lab's reproducible
/// checks depend on it.
#[test]
fn lab_seed_is_reproducible() {
    let a = CoreRng::lab(42);
    let b = CoreRng::lab(42);
    assert!(!a.is_cycling());
    let xa: Vec<u64> = (0..8).map(|_| a.lock().uniform(1000)).collect();
    let xb: Vec<u64> = (0..8).map(|_| b.lock().uniform(1000)).collect();
    assert_eq!(xa, xb);
    let mut s = StreamRng::from_seed(42);
    let xs: Vec<u64> = (0..8).map(|_| s.uniform(1000)).collect();
    assert_eq!(xa, xs, "the lab core stream and the simulation stream agree");
}
