//! Fantan (Macau, Despacho 58/2004): a heap of buttons counted off four
//! at a time; the remainder, 1–4 (a remainder of 0 counts as 4, Art. 3.2),
//! is the result. The chances of Art. 6 — fan, nim, nga, sé-sam-hong and
//! kuoc — pay Art. 7's prizes beside the stake returned, a tie returns the
//! stake (Art. 8), and 5 % of every prize goes to the bank (Art. 9).
//!
//! The video game draws the remainder uniformly over 1–4 when betting
//! closes (Art. 4): a heap of a random size counted by fours, each result
//! equally likely, as the digest assumes for its figures. The text names
//! no kuoc pair; docs/fantan.md decides that kuoc is any two numbers
//! (the four side by side on the square, 1-2, 2-3, 3-4, 4-1, and the two
//! across it, 1-3 and 2-4), and that nim and nga name their numbers in
//! order: the winning ones first, the tie last.

use crate::ratio::gcd;
use meters::GameRng;
use serde::{Deserialize, Serialize};

/// A chance on the fantan table (Art. 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    /// Fan: one number, 3× (Art. 7 1) (1)).
    Fan(u8),
    /// Nim: the first number wins 2×, the second ties (Art. 7 1) (2)).
    Nim(u8, u8),
    /// Nga: the first two numbers win ½× (a < b), the third ties (Art. 7 1) (3)).
    Nga(u8, u8, u8),
    /// Sé-sam-hong: three numbers (a < b < c) win ⅓× (Art. 7 1) (4)).
    SeSamHong(u8, u8, u8),
    /// Kuoc: two numbers (a < b), the simple chance, 1× (Art. 7 2)).
    Kuoc(u8, u8),
}

/// The bank's share of every prize (Art. 9): 5 %, as a fraction.
pub const COMMISSION: (u64, u64) = (5, 100);

impl Spot {
    /// Every chance of the table: 4 fans, 12 nims, 12 ngas, 4 sé-sam-hongs
    /// and 6 kuocs.
    pub fn all() -> Vec<Spot> {
        let mut v: Vec<Spot> = (1..=4).map(Spot::Fan).collect();
        for w in 1..=4 {
            for t in (1..=4).filter(|&t| t != w) {
                v.push(Spot::Nim(w, t));
            }
        }
        for a in 1..=4 {
            for b in a + 1..=4 {
                for t in (1..=4).filter(|&t| t != a && t != b) {
                    v.push(Spot::Nga(a, b, t));
                }
            }
        }
        for left in (1..=4).rev() {
            let mut three = (1..=4).filter(|&n| n != left);
            if let (Some(a), Some(b), Some(c)) = (three.next(), three.next(), three.next()) {
                v.push(Spot::SeSamHong(a, b, c));
            }
        }
        for a in 1..=4 {
            for b in a + 1..=4 {
                v.push(Spot::Kuoc(a, b));
            }
        }
        v
    }

    /// Whether the table has this chance.
    pub fn on_cloth(self) -> bool {
        Spot::all().contains(&self)
    }

    /// The prize of Art. 7 as a fraction of the stake, before the bank's
    /// 5 %.
    pub fn prize(self) -> (u64, u64) {
        match self {
            Spot::Fan(_) => (3, 1),
            Spot::Nim(..) => (2, 1),
            Spot::Nga(..) => (1, 2),
            Spot::SeSamHong(..) => (1, 3),
            Spot::Kuoc(..) => (1, 1),
        }
    }

    /// Whether the chance wins on `result`.
    pub fn wins(self, result: u8) -> bool {
        match self {
            Spot::Fan(n) | Spot::Nim(n, _) => result == n,
            Spot::Nga(a, b, _) | Spot::Kuoc(a, b) => result == a || result == b,
            Spot::SeSamHong(a, b, c) => result == a || result == b || result == c,
        }
    }

    /// Whether the chance ties on `result`: its stake returned (Art. 8).
    pub fn ties(self, result: u8) -> bool {
        match self {
            Spot::Nim(_, t) | Spot::Nga(_, _, t) => result == t,
            _ => false,
        }
    }

    /// What the chance returns on `result`, as a fraction of the stake:
    /// on a win the stake and the prize less the bank's 5 % (Art. 7, 9),
    /// on a tie the stake (Art. 8), else nothing. In lowest terms.
    pub fn returns(self, result: u8) -> (u64, u64) {
        if self.wins(result) {
            let (p, q) = self.prize();
            let (c, d) = COMMISSION;
            // 1 + p/q × (d − c)/d over one denominator.
            let (num, den) = (q * d + p * (d - c), q * d);
            let g = gcd(num, den);
            (num / g, den / g)
        } else if self.ties(result) {
            (1, 1)
        } else {
            (0, 1)
        }
    }

    /// The step, in cents, of a stake on this chance whose every return is
    /// a whole number of cents (the bank's 5 % of a fan's 3× is whole
    /// from 20 cents): a stake off the step is refused, never rounded, so
    /// no fraction of a cent is lost or created (decisions.md, Money).
    pub fn cent_step(self) -> u64 {
        (1..=4).map(|r| self.returns(r).1).fold(1, |step, den| step / gcd(step, den) * den)
    }

    /// The least stake of whole credits at `denom` cents a credit that is
    /// whole steps ([`Spot::cent_step`]), in cents: the two's least common
    /// multiple.
    pub fn least_stake_cents(self, denom: u64) -> u64 {
        let (step, denom) = (self.cent_step(), denom.max(1));
        step / gcd(step, denom) * denom
    }

    /// The cents returned on `stake` cents on `result`, stake included;
    /// None when that is not a whole number of cents (a stake off
    /// [`Spot::cent_step`]).
    pub fn returned_cents(self, stake: u64, result: u8) -> Option<u64> {
        let (num, den) = self.returns(result);
        let scaled = u128::from(stake).checked_mul(u128::from(num))?;
        if !scaled.is_multiple_of(u128::from(den)) {
            return None;
        }
        u64::try_from(scaled / u128::from(den)).ok()
    }

    pub fn name(self, portuguese: bool) -> String {
        let tie = if portuguese { "empata" } else { "ties" };
        match self {
            Spot::Fan(n) => format!("fan {n}"),
            Spot::Nim(w, t) => format!("nim {w} ({tie} {t})"),
            Spot::Nga(a, b, t) => format!("nga {a}-{b} ({tie} {t})"),
            // English drops the Portuguese accent of the name (Macau's
            // romanisation), as it does for every loanword.
            Spot::SeSamHong(a, b, c) => format!("{} {a}-{b}-{c}", if portuguese { "sé-sam-hong" } else { "se-sam-hong" }),
            Spot::Kuoc(a, b) => format!("kuoc {a}-{b}"),
        }
    }
}

/// The buttons counted off by fours: the remainder, 1–4 (0 counts as 4,
/// Art. 3.2), each equally likely.
pub fn count(rng: &mut impl GameRng) -> u8 {
    1 + rng.uniform(4) as u8
}

/// A fantan table (an approved paytable): its limits, in credits. The
/// prizes and the commission are the text's (Art. 7, 9) and not
/// configurable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FantanGame {
    pub id: String,
    pub name: String,
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_stake_is_the_first_whole_credit_count_on_the_cent_step() {
        for spot in Spot::all() {
            for denom in [1u64, 2, 5, 10, 15, 25, 50, 100, 200] {
                // Brute force: the first k credits whose cents are whole steps.
                let want = (1..).map(|k| k * denom).find(|c| c % spot.cent_step() == 0).unwrap_or(0);
                assert_eq!(spot.least_stake_cents(denom), want, "{spot:?} at {denom}");
            }
        }
        assert_eq!(Spot::Fan(1).least_stake_cents(15), 60);
        assert_eq!(Spot::Nga(1, 2, 3).least_stake_cents(25), 200);
    }

    /// Art. 6: 4 + 12 + 12 + 4 + 6 chances, each once, every number 1–4.
    #[test]
    fn the_table_holds_every_chance_once() {
        let all = Spot::all();
        assert_eq!(all.len(), 38);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 38);
        for s in &all {
            let covered = (1..=4).filter(|&r| s.wins(r) || s.ties(r)).count();
            let want = match s {
                Spot::Fan(_) => 1,
                Spot::Nim(..) | Spot::Kuoc(..) => 2,
                Spot::Nga(..) | Spot::SeSamHong(..) => 3,
            };
            assert_eq!(covered, want, "{s:?}");
        }
        assert!(!Spot::Nim(2, 2).on_cloth() && !Spot::Fan(5).on_cloth() && !Spot::Kuoc(3, 1).on_cloth());
    }

    /// The digest's figures, each result 1–4 equally likely: fan 96.25 %,
    /// nim 97.5 %, nga 98.75 %, sé-sam-hong 98.75 %, kuoc 97.5 % — each
    /// summed here over the four results in plain integers, the prize
    /// less 5 % written out by hand.
    #[test]
    fn every_chance_returns_the_digests_figure() {
        // Per 480 units staked, 120 on each of the four results: every
        // return a whole number of units.
        let per_480 = |s: Spot| -> u64 {
            (1..=4)
                .map(|r| {
                    let (n, d) = s.returns(r);
                    assert_eq!(120 * n % d, 0, "{s:?} on {r}: {n}/{d}");
                    120 * n / d
                })
                .sum()
        };
        for s in Spot::all() {
            let want = match s {
                // 120 × (1 + 3 × 0.95) = 462: 96.25 %.
                Spot::Fan(_) => 462,
                // 120 × (1 + 2 × 0.95) + 120 = 468: 97.5 %.
                Spot::Nim(..) => 468,
                // 2 × 120 × (1 + 0.5 × 0.95) + 120 = 474: 98.75 %.
                Spot::Nga(..) => 474,
                // 3 × 120 × (1 + 0.95 / 3) = 474: 98.75 %.
                Spot::SeSamHong(..) => 474,
                // 2 × 120 × (1 + 0.95) = 468: 97.5 %.
                Spot::Kuoc(..) => 468,
            };
            assert_eq!(per_480(s), want, "{s:?}");
        }
        assert_eq!(Spot::Fan(2).returns(2), (77, 20));
        assert_eq!(Spot::Nga(1, 3, 2).returns(2), (1, 1), "the tie");
        assert_eq!(Spot::Nga(1, 3, 2).returns(4), (0, 1));
    }

    /// Art. 9 in whole cents: a stake on a chance's step returns whole
    /// cents on every result; one cent off it returns a fraction, refused.
    #[test]
    fn the_banks_five_percent_is_whole_cents_on_the_step_only() {
        let steps: Vec<(Spot, u64)> =
            [Spot::Fan(1), Spot::Nim(1, 2), Spot::Nga(1, 2, 3), Spot::SeSamHong(1, 2, 3), Spot::Kuoc(1, 2)].map(|s| (s, s.cent_step())).to_vec();
        assert_eq!(steps.iter().map(|s| s.1).collect::<Vec<_>>(), [20, 10, 40, 60, 20]);
        for (s, step) in steps {
            assert!((1..=4).all(|r| s.returned_cents(step, r).is_some()), "{s:?}");
            assert!((1..=4).any(|r| s.returned_cents(step + 1, r).is_none()), "{s:?}");
        }
        assert_eq!(Spot::Fan(3).returned_cents(100, 3), Some(385), "1.00 staked: 3.00 less 0.15, and the stake");
        assert_eq!(Spot::SeSamHong(1, 2, 4).returned_cents(60, 4), Some(79));
    }

    /// The count is uniform over 1–4 (a chi-square over 100,000 counts of
    /// the production generator, at 99 %).
    #[test]
    fn the_count_is_uniform_over_one_to_four() {
        let mut rng = meters::rng::StreamRng::from_seed(17);
        let mut counts = [0u64; 4];
        for _ in 0..100_000 {
            counts[usize::from(count(&mut rng) - 1)] += 1;
        }
        let chi2: f64 = counts.iter().map(|&c| (c as f64 - 25_000.0).powi(2) / 25_000.0).sum();
        // The 99 % point of chi-square with 3 degrees of freedom.
        assert!(chi2 < 11.345, "chi-square {chi2:.2}: {counts:?}");
    }
}
