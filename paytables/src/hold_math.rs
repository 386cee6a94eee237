//! The exact mathematics of a hold-and-spin feature (issue 50;
//! `game_core::reels::hold`), by a Markov chain over its states.
//!
//! Every free cell lands a bonus symbol with the same probability `p` on
//! every respin, independently of the others, so the cells are
//! exchangeable: which cells are held never changes what happens next,
//! only how many. The chain's state is therefore (cells held, respins
//! left); a respin from `n` held lands `m` of the `T − n` free cells with
//! the binomial probability C(T − n, m) pᵐ (1 − p)^(T − n − m), and goes
//! to (n + m, R) when `m` > 0, to (n, r − 1) when `m` = 0. The chain ends
//! at r = 0 or n = T. Each step raises `n` or lowers `r`, so the states
//! are visited in the order (n up, r down) once each: the law of the final
//! count `N` is exact in rationals (the test `hold_and_spin.rs` plays the
//! feature over explicit positions on a small grid and finds the same).
//!
//! Every held symbol carries a value drawn independently from the value
//! table (mean μ, second moment s₂ per credit of the unit), so given `N`
//! the feature pays S = the sum of `N` values, plus the grand when N = T:
//! E[F | N] = Nμ + G·[N = T] and
//! E[F² | N] = N s₂ + N(N − 1) μ² + (2 G N μ + G²)·[N = T].
//! The win's whole law is the values' law convolved `N` times (integer
//! weights), mixed over the law of `N`.

use std::collections::BTreeMap;

use game_core::reels::HoldAndSpinRule;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

fn int(x: u64) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

fn binomial(n: usize, k: usize) -> BigInt {
    (0..k).fold(BigInt::one(), |acc, i| acc * BigInt::from(n - i) / BigInt::from(i + 1))
}

/// The law of the final count of held cells, `law[n]` = P(N = n), for a
/// feature starting with `start` held of `cells`, `respins` respins, each
/// free cell landing with probability `p`.
pub fn final_counts(cells: usize, respins: u8, p: &BigRational, start: usize) -> Vec<BigRational> {
    let r_max = usize::from(respins);
    let q = BigRational::one() - p;
    // The powers of p and q, and each step's binomial laws, computed once.
    let pow = |x: &BigRational, k: usize| (0..k).fold(BigRational::one(), |acc, _| acc * x);
    let mut law = vec![BigRational::zero(); cells + 1];
    // mass[n][r]: the probability of reaching (n held, r respins left).
    let mut mass = vec![vec![BigRational::zero(); r_max + 1]; cells + 1];
    if start >= cells || r_max == 0 {
        law[start.min(cells)] = BigRational::one();
        return law;
    }
    mass[start][r_max] = BigRational::one();
    for n in start..=cells {
        if n == cells {
            // Every cell held: the feature ends, whatever respins are left.
            law[n] = mass[n].iter().fold(BigRational::zero(), |a, m| a + m);
            break;
        }
        let free = cells - n;
        let steps: Vec<BigRational> = (0..=free).map(|m| BigRational::from_integer(binomial(free, m)) * pow(p, m) * pow(&q, free - m)).collect();
        for r in (1..=r_max).rev() {
            let here = std::mem::take(&mut mass[n][r]);
            if here.is_zero() {
                continue;
            }
            for (m, step) in steps.iter().enumerate() {
                let to = &here * step;
                if m == 0 {
                    mass[n][r - 1] += to;
                } else {
                    mass[n + m][r_max] += to;
                }
            }
        }
        law[n] = std::mem::take(&mut mass[n][0]);
    }
    law
}

/// The feature's exact figures from one start count.
#[derive(Clone, Debug)]
pub struct FromStart {
    /// P(N = n).
    pub final_counts: Vec<BigRational>,
    /// E[F] and E[F²], in credits per credit of the unit.
    pub mean: BigRational,
    pub second: BigRational,
    /// E[N].
    pub mean_count: BigRational,
}

/// The feature's exact figures, for every start count that triggers it.
#[derive(Clone, Debug)]
pub struct HoldMath {
    pub cells: usize,
    /// A free cell's probability of landing a bonus symbol per respin.
    pub landing: BigRational,
    /// A value's mean and second moment, per credit of the unit.
    pub value_mean: BigRational,
    pub value_second: BigRational,
    /// `by_start[c]`: Some for every start count `c` ≥ the trigger.
    pub by_start: Vec<Option<FromStart>>,
}

/// The chain of `rule` on a window of `cells` cells.
pub fn analyse(rule: &HoldAndSpinRule, cells: usize) -> HoldMath {
    let landing = BigRational::new(BigInt::from(rule.landing.0), BigInt::from(rule.landing.0 + rule.landing.1));
    let total = int(rule.values.iter().map(|v| v.1).sum());
    let value_mean = rule.values.iter().fold(BigRational::zero(), |a, &(v, w)| a + int(w) * int(rule.pay(v))) / &total;
    let value_second = rule.values.iter().fold(BigRational::zero(), |a, &(v, w)| a + int(w) * int(rule.pay(v)) * int(rule.pay(v))) / &total;
    let grand = int(rule.jackpots.grand);
    let by_start = (0..=cells)
        .map(|c| {
            (c >= usize::from(rule.trigger)).then(|| {
                let law = final_counts(cells, rule.respins, &landing, c);
                let (mut mean, mut second, mut mean_count) = (BigRational::zero(), BigRational::zero(), BigRational::zero());
                for (n, pr) in law.iter().enumerate() {
                    if pr.is_zero() {
                        continue;
                    }
                    let nn = int(n as u64);
                    let s = &nn * &value_mean;
                    let mut f = s.clone();
                    let mut f2 = &nn * &value_second + &nn * (&nn - int(1)) * &value_mean * &value_mean;
                    if n == cells {
                        f2 += int(2) * &grand * &s + &grand * &grand;
                        f += &grand;
                    }
                    mean += pr * f;
                    second += pr * f2;
                    mean_count += pr * nn;
                }
                FromStart { final_counts: law, mean, second, mean_count }
            })
        })
        .collect();
    HoldMath { cells, landing, value_mean, value_second, by_start }
}

/// The whole law of the feature's win from `start` held, in credits per
/// credit of the unit: win → probability.
pub fn win_distribution(rule: &HoldAndSpinRule, cells: usize, start: usize) -> BTreeMap<u64, BigRational> {
    let landing = BigRational::new(BigInt::from(rule.landing.0), BigInt::from(rule.landing.0 + rule.landing.1));
    let law = final_counts(cells, rule.respins, &landing, start);
    let total: u64 = rule.values.iter().map(|v| v.1).sum();
    let mut out: BTreeMap<u64, BigRational> = BTreeMap::new();
    // sums[s]: the weight of the value sequences so far summing to s.
    let mut sums: BTreeMap<u64, BigInt> = BTreeMap::from([(0, BigInt::one())]);
    let mut scale = BigInt::one();
    for (n, pr) in law.iter().enumerate() {
        if n > 0 {
            let mut next: BTreeMap<u64, BigInt> = BTreeMap::new();
            for (s, w) in &sums {
                for &(v, vw) in &rule.values {
                    *next.entry(s + rule.pay(v)).or_default() += w * BigInt::from(vw);
                }
            }
            sums = next;
            scale *= BigInt::from(total);
        }
        if pr.is_zero() {
            continue;
        }
        let grand = if n == cells { rule.jackpots.grand } else { 0 };
        for (s, w) in &sums {
            *out.entry(s + grand).or_insert_with(BigRational::zero) += pr * BigRational::new(w.clone(), scale.clone());
        }
    }
    out
}
