//! The outcome tests at 99% (issue 51) on the draws a game makes through
//! the core (`outcomes::collect_game`): each range's values (binned into
//! cells of exactly known size when the range is larger than the sample
//! can fill), each position of a round, runs above and below the middle, serial
//! pairs, serial correlation at lags 1 to 10, the gap test, the poker test
//! on five cards of a 52-card deck, and A-10's bet-conditioned
//! homogeneity. Each returns verdicts; none returns an empty pass: a test
//! the sample cannot feed is left out, and the report counts what ran.

use std::collections::{BTreeMap, BTreeSet};

use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::erf::erfc;

use super::ALPHA;
use game_host::kind::Chances;

use crate::outcomes::{Rounds, Tally, Verdict};

/// Draws of one range in draw order, at least this many for the stream
/// tests (runs, serial, lags, gap).
const STREAM_MIN: usize = 1_000;
/// Every cell of a chi-square expects at least this many.
const CELL_MIN: f64 = 5.0;
/// At most this many cells per axis.
const MOST_CELLS: u64 = 1_000;

/// The draws of each range, in draw order.
pub fn streams(rounds: &Rounds) -> BTreeMap<u64, Vec<u64>> {
    let mut s: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for &(range, value) in rounds.iter().flatten() {
        if range >= 2 {
            s.entry(range).or_default().push(value);
        }
    }
    s
}

/// A chi-square of `counts` against `expected` (same length), with `df`
/// degrees of freedom.
pub fn chi_square_expected(test: String, counts: &[u64], expected: &[f64], df: u64) -> Verdict {
    let samples: u64 = counts.iter().sum();
    let statistic: f64 = counts.iter().zip(expected).map(|(&o, &e)| (o as f64 - e).powi(2) / e).sum();
    let p_value = ChiSquared::new(df.max(1) as f64).map_or(0.0, |d| 1.0 - d.cdf(statistic));
    Verdict { test, samples, statistic, degrees_of_freedom: df, p_value, pass: p_value >= ALPHA }
}

/// A two-sided test of a standard normal statistic.
fn normal(test: String, samples: u64, z: f64) -> Verdict {
    let p_value = if z.is_finite() { erfc(z.abs() / std::f64::consts::SQRT_2) } else { 0.0 };
    Verdict { test, samples, statistic: z, degrees_of_freedom: 0, p_value, pass: p_value >= ALPHA }
}

/// Cells of `0..range` for a sample of `samples` expecting `per_cell` in
/// each: the range itself when every value can, else `k` cells of sizes
/// differing by at most one (value v in cell ⌊v·k/range⌋). Returns (k,
/// sizes).
fn cells(range: u64, samples: u64, per_cell: f64) -> (u64, Vec<u64>) {
    // The smallest cell holds ⌊range/k⌋ values.
    let mut k = ((samples as f64 / per_cell) as u64).clamp(2, range.clamp(2, MOST_CELLS));
    while k > 2 && (samples as f64) * ((range / k) as f64) < per_cell * range as f64 {
        k -= 1;
    }
    cells_of(k, range)
}

/// `wanted` cells of `0..range` (at most the range and `MOST_CELLS`, at
/// least two).
fn cells_of(wanted: u64, range: u64) -> (u64, Vec<u64>) {
    let k = wanted.clamp(2, range.clamp(2, MOST_CELLS));
    // The values v with ⌊v·k/range⌋ = b: from ⌈b·range/k⌉ to ⌈(b+1)·range/k⌉ − 1.
    let start = |b: u64| (u128::from(b) * u128::from(range)).div_ceil(u128::from(k)) as u64;
    (k, (0..k).map(|b| start(b + 1) - start(b)).collect())
}

fn cell_of(v: u64, k: u64, range: u64) -> usize {
    (u128::from(v) * u128::from(k) / u128::from(range)) as usize
}

/// Uniformity of one range's values (binned when the range is larger than
/// the sample fills).
pub fn uniformity(label: &str, range: u64, values: &[u64]) -> Option<Verdict> {
    let n = values.len() as u64;
    if (n as f64) < CELL_MIN * 2.0 {
        return None;
    }
    let (k, sizes) = cells(range, n, CELL_MIN);
    let mut counts = vec![0u64; k as usize];
    for &v in values {
        counts[cell_of(v, k, range).min(k as usize - 1)] += 1;
    }
    let expected: Vec<f64> = sizes.iter().map(|&s| n as f64 * s as f64 / range as f64).collect();
    let what = if k == range { "values".to_owned() } else { format!("values in {k} cells") };
    Some(chi_square_expected(format!("{label}uniform({range}) {what}"), &counts, &expected, k - 1))
}

/// The data a shown test already judges (issue 77: each datum tested
/// once). A value shown over `n` equally likely cells whose counts are,
/// up to the cells' order, the counts of a range's draws — a roulette's
/// pocket is its one draw, a die its draw plus one — is the same
/// chi-square as that range's uniformity (a uniform chi-square does not
/// see the order of its cells). Counted twice, one deviation fails twice
/// (French roulette's pocket failed as "uniform(37)", "position 1" and
/// "shown: pocket", p = 4.62e-3 thrice), and the rule that judges a set
/// takes its tests as apart.
#[derive(Default)]
pub struct SameAsShown(BTreeSet<(u64, Vec<u64>)>);

impl SameAsShown {
    /// The largest range whose values are counted to compare.
    const MOST_VALUES: u64 = 4_096;

    pub fn of(shown: &Tally) -> Self {
        SameAsShown(
            shown
                .values()
                .filter_map(|(chances, counts)| match chances {
                    Chances::Uniform(n) if *n <= Self::MOST_VALUES => {
                        let mut c: Vec<u64> = (0..*n as usize).map(|v| counts.get(v).copied().unwrap_or(0)).collect();
                        c.sort_unstable();
                        Some((*n, c))
                    }
                    _ => None,
                })
                .collect(),
        )
    }

    /// Whether `values` of `0..range` are, counted, a shown test's data.
    pub fn judges(&self, range: u64, values: &[u64]) -> bool {
        if range > Self::MOST_VALUES || !self.0.iter().any(|(n, _)| *n == range) {
            return false;
        }
        let mut c = vec![0u64; range as usize];
        for &v in values {
            match c.get_mut(v as usize) {
                Some(slot) => *slot += 1,
                // A value out of its range is judged by no shown test.
                None => return false,
            }
        }
        self.judges_counts(range, c)
    }

    /// Whether the counts of each value of `0..range` are a shown test's.
    pub fn judges_counts(&self, range: u64, mut counts: Vec<u64>) -> bool {
        counts.sort_unstable();
        self.0.contains(&(range, counts))
    }
}

/// Uniformity per range, less what a shown test judges.
pub fn per_range(streams: &BTreeMap<u64, Vec<u64>>, shown: &SameAsShown) -> Vec<Verdict> {
    streams.iter().filter(|(r, v)| !shown.judges(**r, v)).filter_map(|(&r, v)| uniformity("", r, v)).collect()
}

/// Uniformity per position of a round (the n-th draw of every round, of
/// the same range): a card by its place in the deal, a reel by its
/// place on the screen. The first 52 positions; a position that holds
/// every draw of its range is the range's own test (`per_range`), and a
/// position a shown test judges is that test: neither is tested again.
pub fn per_position(rounds: &Rounds, shown: &SameAsShown) -> Vec<Verdict> {
    let mut at: BTreeMap<(usize, u64), Vec<u64>> = BTreeMap::new();
    let mut of_range: BTreeMap<u64, usize> = BTreeMap::new();
    for r in rounds {
        for (i, &(range, v)) in r.iter().enumerate() {
            if range >= 2 {
                *of_range.entry(range).or_default() += 1;
                if i < 52 {
                    at.entry((i, range)).or_default().push(v);
                }
            }
        }
    }
    at.iter()
        .filter(|&(&(_, range), v)| of_range.get(&range) != Some(&v.len()) && !shown.judges(range, v))
        .filter_map(|(&(i, range), v)| uniformity(&format!("position {} ", i + 1), range, v))
        .collect()
}

/// Wald–Wolfowitz runs of values below and at-or-above the middle of the
/// range, given the counts of each.
pub fn runs(range: u64, values: &[u64]) -> Option<Verdict> {
    if values.len() < STREAM_MIN {
        return None;
    }
    let low: Vec<bool> = values.iter().map(|&v| v < range / 2).collect();
    let n1 = low.iter().filter(|&&b| b).count() as f64;
    let n = low.len() as f64;
    let n2 = n - n1;
    if n1 == 0.0 || n2 == 0.0 {
        return Some(normal(format!("runs uniform({range})"), n as u64, f64::INFINITY));
    }
    let observed = 1 + low.windows(2).filter(|w| w[0] != w[1]).count();
    let mean = 2.0 * n1 * n2 / n + 1.0;
    let var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0));
    Some(normal(format!("runs uniform({range})"), n as u64, (observed as f64 - mean) / var.sqrt()))
}

/// Serial pairs: non-overlapping pairs of successive draws of the range,
/// over a grid of cells of known size.
pub fn serial_pairs(range: u64, values: &[u64]) -> Option<Verdict> {
    if values.len() < STREAM_MIN {
        return None;
    }
    let pairs = (values.len() / 2) as u64;
    // The most cells per axis (64 at most) whose smallest cell expects five.
    let mut per_axis = ((pairs as f64 / CELL_MIN).sqrt() as u64).clamp(2, 64);
    let smallest = |k: u64| cells_of(k, range).1.into_iter().min().unwrap_or(0) as f64;
    while per_axis > 2 && pairs as f64 * (smallest(per_axis) / range as f64).powi(2) < CELL_MIN {
        per_axis -= 1;
    }
    let (k, sizes) = cells_of(per_axis, range);
    let k = k as usize;
    let mut counts = vec![0u64; k * k];
    for p in values.chunks_exact(2) {
        counts[cell_of(p[0], k as u64, range).min(k - 1) * k + cell_of(p[1], k as u64, range).min(k - 1)] += 1;
    }
    let r2 = (range as f64).powi(2);
    let expected: Vec<f64> = (0..k * k).map(|c| pairs as f64 * sizes[c / k] as f64 * sizes[c % k] as f64 / r2).collect();
    (expected.iter().all(|&e| e >= CELL_MIN))
        .then(|| chi_square_expected(format!("serial pairs uniform({range}) {k}×{k}"), &counts, &expected, (k * k - 1) as u64))
}

/// Serial correlation of the draws of a range at lags 1 to 10: r_k of the
/// values' midpoints, z = (r_k + 1/n)·√n.
pub fn lags(range: u64, values: &[u64]) -> Vec<Verdict> {
    if values.len() < STREAM_MIN {
        return Vec::new();
    }
    let u: Vec<f64> = values.iter().map(|&v| (v as f64 + 0.5) / range as f64).collect();
    let n = u.len() as f64;
    let mean = u.iter().sum::<f64>() / n;
    let var: f64 = u.iter().map(|x| (x - mean).powi(2)).sum();
    (1..=10)
        .map(|k| {
            let cov: f64 = u.iter().zip(&u[k..]).map(|(a, b)| (a - mean) * (b - mean)).sum();
            let r = if var > 0.0 { cov / var } else { 1.0 };
            normal(format!("lag {k} uniform({range})"), u.len() as u64, (r + 1.0 / n) * n.sqrt())
        })
        .collect()
}

/// Knuth's gap test: the gaps between draws in the lower half, each
/// length j with probability p(1−p)^j, the longest cell open-ended.
pub fn gap(range: u64, values: &[u64]) -> Option<Verdict> {
    if values.len() < STREAM_MIN {
        return None;
    }
    let half = range / 2;
    let p = half as f64 / range as f64;
    let mut gaps: Vec<usize> = Vec::new();
    let mut run = 0usize;
    for &v in values {
        if v < half {
            gaps.push(run);
            run = 0;
        } else {
            run += 1;
        }
    }
    let total = gaps.len() as f64;
    // Cells 0..t−1 and "t or more", every cell expecting CELL_MIN.
    let mut t = 1usize;
    while t < 30 && total * (1.0 - p).powi(t as i32 + 1) >= CELL_MIN && total * p * (1.0 - p).powi(t as i32) >= CELL_MIN {
        t += 1;
    }
    let mut counts = vec![0u64; t + 1];
    for g in gaps {
        counts[g.min(t)] += 1;
    }
    let mut expected: Vec<f64> = (0..t).map(|j| total * p * (1.0 - p).powi(j as i32)).collect();
    expected.push(total * (1.0 - p).powi(t as i32));
    (total >= 2.0 * CELL_MIN).then(|| chi_square_expected(format!("gap uniform({range}) {} cells", t + 1), &counts, &expected, t as u64))
}

/// The hands of five cards a round deals from one 52-card deck: the first
/// five of a partial Fisher–Yates (`draw_without_replacement(52, k)`:
/// draws of ranges 52, 51, 50, 49, 48), rebuilt from the draws.
pub fn first_hands(rounds: &Rounds) -> Vec<[u8; 5]> {
    rounds
        .iter()
        .filter_map(|r| {
            let start = r.windows(5).position(|w| w.iter().map(|d| d.0).eq([52, 51, 50, 49, 48]))?;
            let mut pool: Vec<u8> = (0..52).collect();
            let mut hand = [0u8; 5];
            for (i, &(_, v)) in r[start..start + 5].iter().enumerate() {
                pool.swap(i, i + v as usize);
                hand[i] = pool[i];
            }
            Some(hand)
        })
        .collect()
}

/// A hand's class: 0 high card, 1 pair, 2 two pair, 3 three of a kind,
/// 4 straight, 5 flush, 6 full house, 7 four of a kind, 8 straight flush
/// (card c is rank c mod 13, suit c / 13; under the null every fixed
/// naming of the deck gives the same law).
pub fn class(hand: &[u8; 5]) -> usize {
    let mut ranks: Vec<u8> = hand.iter().map(|c| c % 13).collect();
    ranks.sort_unstable();
    let flush = hand.iter().all(|c| c / 13 == hand[0] / 13);
    let distinct = {
        let mut d = ranks.clone();
        d.dedup();
        d.len()
    };
    let straight = distinct == 5 && (ranks[4] - ranks[0] == 4 || ranks == [0, 9, 10, 11, 12]);
    let mut counts: Vec<usize> = (0..13u8).map(|r| ranks.iter().filter(|&&x| x == r).count()).filter(|&c| c > 0).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    match (straight, flush, counts.as_slice()) {
        (true, true, _) => 8,
        (_, _, [4, ..]) => 7,
        (_, _, [3, 2]) => 6,
        (_, true, _) => 5,
        (true, _, _) => 4,
        (_, _, [3, ..]) => 3,
        (_, _, [2, 2, ..]) => 2,
        (_, _, [2, ..]) => 1,
        _ => 0,
    }
}

/// The exact number of each class among the C(52,5) = 2,598,960 hands.
pub const CLASS_COUNTS: [u64; 9] = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40];

/// The poker test on cards: the classes of the hands dealt against their
/// exact law, the rarest classes pooled until each cell expects five.
pub fn poker(hands: &[[u8; 5]]) -> Option<Verdict> {
    let n = hands.len() as f64;
    if n < 200.0 {
        return None;
    }
    let mut counts = [0u64; 9];
    for h in hands {
        counts[class(h)] += 1;
    }
    let total: u64 = CLASS_COUNTS.iter().sum();
    let mut obs: Vec<u64> = Vec::new();
    let mut exp: Vec<f64> = Vec::new();
    // From the rarest up: pool a class into the next commoner one while its
    // cell expects under five.
    let (mut o, mut e) = (0u64, 0.0);
    for c in (0..9).rev() {
        o += counts[c];
        e += n * CLASS_COUNTS[c] as f64 / total as f64;
        if e >= CELL_MIN {
            obs.push(o);
            exp.push(e);
            (o, e) = (0, 0.0);
        }
    }
    if let (Some(last_o), Some(last_e)) = (obs.last_mut(), exp.last_mut()) {
        *last_o += o;
        *last_e += e;
    }
    (obs.len() >= 2).then(|| chi_square_expected(format!("poker test, {} five-card hands, {} cells", hands.len(), obs.len()), &obs, &exp, obs.len() as u64 - 1))
}

/// A chi-square over cells in their order, a cell expecting under five
/// pooled with the cells after it.
pub fn pooled(test: String, counts: &[u64], expected: &[f64]) -> Option<Verdict> {
    let (mut obs, mut exp) = (Vec::new(), Vec::new());
    let (mut o, mut e) = (0u64, 0.0);
    for (&c, &x) in counts.iter().zip(expected) {
        o += c;
        e += x;
        if e >= CELL_MIN {
            obs.push(o);
            exp.push(e);
            (o, e) = (0, 0.0);
        }
    }
    if let (Some(lo), Some(le)) = (obs.last_mut(), exp.last_mut()) {
        *lo += o;
        *le += e;
    }
    (obs.len() >= 2).then(|| {
        let cells = obs.len();
        chi_square_expected(format!("{test}, {cells} cells"), &obs, &exp, cells as u64 - 1)
    })
}

/// the draws must not depend on the bet. For every range both
/// samples drew, a chi-square test of homogeneity of the two samples'
/// values over cells of the range.
pub fn bet_conditioned(a: &BTreeMap<u64, Vec<u64>>, b: &BTreeMap<u64, Vec<u64>>) -> Vec<Verdict> {
    a.iter()
        .filter_map(|(&range, va)| {
            let vb = b.get(&range)?;
            let n = (va.len() + vb.len()) as u64;
            if va.len().min(vb.len()) < 100 {
                return None;
            }
            let (k, _) = cells(range, va.len().min(vb.len()) as u64, CELL_MIN * 2.0);
            let count = |v: &[u64]| {
                let mut c = vec![0u64; k as usize];
                for &x in v {
                    c[cell_of(x, k, range).min(k as usize - 1)] += 1;
                }
                c
            };
            let (ca, cb) = (count(va), count(vb));
            let (na, nb) = (va.len() as f64, vb.len() as f64);
            let mut statistic = 0.0;
            for (x, y) in ca.iter().zip(&cb) {
                let col = (x + y) as f64;
                if col == 0.0 {
                    continue;
                }
                let (ea, eb) = (na * col / n as f64, nb * col / n as f64);
                statistic += (*x as f64 - ea).powi(2) / ea + (*y as f64 - eb).powi(2) / eb;
            }
            let df = k - 1;
            let p_value = ChiSquared::new(df as f64).map_or(0.0, |d| 1.0 - d.cdf(statistic));
            Some(Verdict {
                test: format!("bet-conditioned uniform({range}) {k} cells"),
                samples: n,
                statistic,
                degrees_of_freedom: df,
                p_value,
                pass: p_value >= ALPHA,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes of all C(52,5) hands, counted by brute force, are the
    /// published counts the poker test judges against.
    #[test]
    fn every_five_card_hand_is_classed_as_the_published_counts_say() {
        let mut counts = [0u64; 9];
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            counts[class(&[a, b, c, d, e])] += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(counts, CLASS_COUNTS);
    }

    /// Issue 77: each datum is tested once. A roulette's pocket is its one
    /// draw: its uniformity is the shown pocket's test, not a range's nor
    /// a position's besides; three dice shown die by die are their
    /// positions' tests, while the range's pooled draws (all dice) stay a
    /// test of their own; counts a shown test does not hold are tested.
    #[test]
    fn a_value_shown_as_drawn_is_tested_once() {
        use meters::GameRng;
        let mut rng = meters::StreamRng::from_seed(77);
        let tally = |values: &mut dyn Iterator<Item = u64>, n: u64| {
            let mut c = vec![0u64; n as usize];
            for v in values {
                c[v as usize] += 1;
            }
            c
        };
        // Roulette: one draw of 37 a round; the pocket shown in the wheel's order.
        let spins: Rounds = (0..20_000).map(|_| vec![(37, rng.uniform(37))]).collect();
        let pockets = tally(&mut spins.iter().map(|r| (r[0].1 * 5) % 37), 37);
        let shown = SameAsShown::of(&Tally::from([("pocket, 37 cells".to_owned(), (Chances::Uniform(37), pockets))]));
        let drawn = streams(&spins);
        assert_eq!(per_range(&drawn, &SameAsShown::default()).len(), 1, "without a shown test, the range is tested");
        assert!(per_position(&spins, &SameAsShown::default()).is_empty(), "a position holding every draw is the range's test");
        assert!(per_range(&drawn, &shown).is_empty(), "the shown pocket is the range's test");
        // Dice: three draws of 6 a round, each shown as its die.
        let throws: Rounds = (0..20_000).map(|_| (0..3).map(|_| (6, rng.uniform(6))).collect()).collect();
        let die = |k: usize| (format!("die {}", k + 1), (Chances::Uniform(6), tally(&mut throws.iter().map(|r| r[k].1), 6)));
        let shown = SameAsShown::of(&Tally::from([die(0), die(1), die(2)]));
        assert_eq!(per_position(&throws, &SameAsShown::default()).len(), 3);
        assert!(per_position(&throws, &shown).is_empty(), "each die is its position's test");
        assert_eq!(per_range(&streams(&throws), &shown).len(), 1, "the pooled dice are a test of their own");
        // Shown counts of other data judge nothing here.
        let other = SameAsShown::of(&Tally::from([die(0)]));
        assert_eq!(per_position(&throws, &other).len(), 2);
    }

    /// Cells of a large range cover it exactly, sizes within one.
    #[test]
    fn cells_cover_the_range() {
        let (k, sizes) = cells(1_000_003, 20_000, 5.0);
        assert_eq!(k, 1_000);
        assert_eq!(sizes.iter().sum::<u64>(), 1_000_003);
        assert!(sizes.iter().all(|&s| s == 1_000 || s == 1_001));
        assert_eq!(cell_of(1_000_002, k, 1_000_003), 999);
    }

    /// A stream that alternates low and high fails the runs test and the
    /// lag-1 test; one that repeats each value fails serial pairs.
    #[test]
    fn patterned_streams_fail_their_tests() {
        let alternating: Vec<u64> = (0..4_000).map(|i| if i % 2 == 0 { (i * 7) % 18 } else { 19 + (i * 5) % 18 }).collect();
        assert!(!runs(37, &alternating).expect("enough draws").pass);
        assert!(!lags(37, &alternating)[0].pass);
        let doubled: Vec<u64> = (0..4_000u64).map(|i| (i / 2 * 13) % 37).collect();
        assert!(!serial_pairs(37, &doubled).expect("enough pairs").pass);
        let clumped: Vec<u64> = (0..4_000u64).map(|i| if (i / 8) % 2 == 0 { 3 } else { 30 }).collect();
        assert!(!gap(37, &clumped).expect("enough gaps").pass);
    }
}
