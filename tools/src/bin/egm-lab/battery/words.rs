//! The generator's raw words under NIST SP 800-22 (issue 51, A-9): every
//! sub-test of the publication's fifteen tests (the `rng-entropy` crate,
//! checked there against the publication's worked examples and Appendix
//! B's table for the digits of e) on `sequences` sequences of `bits` bits,
//! each sub-test judged by the publication's two-level assessment (§4.2):
//! the proportion of sequences passing at α = 0.01 inside
//! p̂ ± 3·√(p̂(1−p̂)/m), and the uniformity of its p-values (a chi-square
//! over ten bins, P ≥ 0.0001, from 55 sequences on).

use entropy::nist;
use entropy::result::{Status, TestResult};
use serde::Serialize;

use super::ALPHA;
use super::rule::SetRule;
use crate::outcomes::uniformity;

/// A source of raw 32-bit words.
pub struct Words<F: FnMut() -> u32>(pub F);

impl<F: FnMut() -> u32> entropy::rng::Rng for Words<F> {
    fn next_u32(&mut self) -> u32 {
        (self.0)()
    }
}

/// One sub-test's second level over the sequences.
#[derive(Clone, Debug, Serialize)]
pub struct SubTest {
    /// The test, and the sub-test's ordinal where a test has several (a
    /// template, an excursion state).
    pub test: String,
    /// Sequences the sub-test could judge (an excursion test needs 500
    /// cycles of the walk; a sequence with fewer is not counted, §2.14).
    pub sequences: usize,
    pub passed: usize,
    /// The least proportion passing that is accepted.
    pub proportion_at_least: f64,
    /// The uniformity of the p-values (P-value_T), from 55 sequences on.
    pub uniformity: Option<f64>,
    pub smallest_p: f64,
    /// The most sequences that may fail at 99 %, and the least p-value
    /// accepted ([`SetRule`]).
    pub most_failed: usize,
    pub smallest_p_floor: f64,
    pub pass: bool,
}

/// What NIST SP 800-22 said of one generator.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub generator: String,
    pub sequences: usize,
    pub bits: usize,
    pub sub_tests: Vec<SubTest>,
    /// Sub-tests no sequence of this length could judge (the universal
    /// test's larger block lengths need more bits).
    pub not_applicable: Vec<String>,
    pub pass: bool,
}

/// Run the suite on `sequences` sequences of `bits` bits from `source`,
/// `threads` sequences at a time, and judge every sub-test once by the
/// rule of a run of its sub-tests and `other_sets` more sets ([`SetRule`]:
/// nothing is re-run).
pub fn run<S: FnMut() -> u32>(generator: &str, sequences: usize, bits: usize, threads: usize, other_sets: usize, source: S) -> (Report, SetRule) {
    let (raw, not_applicable) = second_level(&suite(sequences, bits, threads, source));
    let rule = SetRule::for_sets(raw.len() + other_sets);
    let sub_tests: Vec<SubTest> = raw.into_iter().map(|(test, p, errored)| judge(test, &p, errored, &rule)).collect();
    let pass = !sub_tests.is_empty() && sub_tests.iter().all(|t| t.pass);
    (Report { generator: generator.to_owned(), sequences, bits, sub_tests, not_applicable, pass }, rule)
}

/// Every sequence's results, the suite's 200 slots in its fixed order.
fn suite(sequences: usize, bits: usize, threads: usize, mut source: impl FnMut() -> u32) -> Vec<Vec<TestResult>> {
    // Each sequence's words are drawn here, in order, then judged on a
    // worker: the stream a lab reproduces is the generator's own order.
    let mut per_sequence: Vec<Vec<TestResult>> = Vec::with_capacity(sequences);
    let words = bits.div_ceil(32);
    let mut pending: Vec<Vec<u32>> = Vec::new();
    let judge_batch = |batch: Vec<Vec<u32>>| -> Vec<Vec<TestResult>> {
        std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .into_iter()
                .map(|w| {
                    s.spawn(move || {
                        let mut it = w.into_iter();
                        nist::run_all(&mut Words(|| it.next().unwrap_or(0)), bits)
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        })
    };
    for _ in 0..sequences {
        pending.push((0..words).map(|_| source()).collect());
        if pending.len() == threads.max(1) {
            per_sequence.extend(judge_batch(std::mem::take(&mut pending)));
        }
    }
    per_sequence.extend(judge_batch(pending));
    per_sequence
}

/// A sub-test's name, its p-values over the sequences, and the sequences
/// whose computation failed.
type Raw = (String, Vec<f64>, usize);

/// Every sub-test's p-values over the sequences, in the suite's fixed
/// order; and the sub-tests no sequence could judge.
fn second_level(per_sequence: &[Vec<TestResult>]) -> (Vec<Raw>, Vec<String>) {
    let slots = per_sequence.iter().map(Vec::len).max().unwrap_or(0);
    let mut sub_tests = Vec::new();
    let mut not_applicable = Vec::new();
    let mut ordinal: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for slot in 0..slots {
        let Some(name) = per_sequence.iter().find_map(|r| r.get(slot)).map(|r| r.name) else { continue };
        let n = ordinal.entry(name).or_default();
        *n += 1;
        let test = format!("{} #{}", name.trim_start_matches("nist::"), n);
        let p: Vec<f64> = per_sequence.iter().filter_map(|r| r.get(slot)).filter(|r| r.status == Status::Scored).map(|r| r.p_value).collect();
        // A sequence whose computation failed counts as a failure.
        let errored = per_sequence.iter().filter_map(|r| r.get(slot)).filter(|r| matches!(r.status, Status::Error | Status::Unsupported)).count();
        if p.is_empty() && errored == 0 {
            not_applicable.push(test);
            continue;
        }
        sub_tests.push((test, p, errored));
    }
    (sub_tests, not_applicable)
}

/// The second level of one sub-test over its p-values, by `rule`.
pub fn judge(test: String, p: &[f64], errored: usize, rule: &SetRule) -> SubTest {
    let m = p.len() + errored;
    let passed = p.iter().filter(|&&v| v >= ALPHA).count();
    let most_failed = rule.most_failed(m);
    let proportion_at_least = (m - most_failed) as f64 / m.max(1) as f64;
    let uniformity = (m >= 55).then(|| uniformity(p.iter().copied()));
    let smallest_p = p.iter().copied().fold(1.0, f64::min);
    let smallest_p_floor = rule.smallest_p_floor(m);
    let pass = m > 0 && m - passed <= most_failed && uniformity.is_none_or(|u| u >= rule.uniformity_floor()) && smallest_p >= smallest_p_floor;
    SubTest { test, sequences: m, passed, proportion_at_least, uniformity, smallest_p, most_failed, smallest_p_floor, pass }
}

/// The negative control of the words: the raw words of a 32-bit linear
/// congruential generator (x ← 69069·x + 1 mod 2³²), whose low bits
/// repeat with periods 2, 4, 8, …; the suite must FAIL it.
pub fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut x = seed as u32 | 1;
    move || {
        x = x.wrapping_mul(69069).wrapping_add(1);
        x
    }
}
