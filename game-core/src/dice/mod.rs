//! The dice games of the text: banca francesa (BF 1–43, three dice, ases,
//! pequeno and grande, re-thrown until a throw decides), cussec / sic bo
//! (three dice under the dome, every bet of its rule 8) and
//! peixe-camarão-caranguejo (the same dice with figures and colours,
//! Macau 59/2004), and craps (two dice rolled until every bet on the
//! cloth is decided, `craps`). Each die is one uniform draw of 1–6
//! through the core; a throw of the three-dice games is three dice.

pub mod banca_francesa;
pub mod craps;
pub mod fish_prawn_crab;
pub mod sic_bo;

use meters::GameRng;

/// Three dice, each 1–6, in the order they were drawn.
pub type Throw = [u8; 3];

/// One throw of three balanced dice (BF 5 a: perfect balance).
pub fn throw(rng: &mut impl GameRng) -> Throw {
    std::array::from_fn(|_| 1 + rng.uniform(6) as u8)
}

/// Every one of the 216 throws, each once: the exact figures enumerate
/// them.
pub fn every_throw() -> impl Iterator<Item = Throw> {
    (0..216u16).map(|i| [(i / 36) as u8 + 1, ((i / 6) % 6) as u8 + 1, (i % 6) as u8 + 1])
}

/// The sum of the up-faces.
pub fn total(t: &Throw) -> u8 {
    t.iter().sum()
}

/// How many dice show `face`.
pub fn count(t: &Throw, face: u8) -> usize {
    t.iter().filter(|&&d| d == face).count()
}

/// Whether the three dice show the same face.
pub fn triple(t: &Throw) -> bool {
    t[0] == t[1] && t[1] == t[2]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frequencies of §5.6: out of 216, sum 3 once … 10 and 11 27 times.
    #[test]
    fn the_216_throws_give_the_texts_frequencies() {
        let mut by_total = [0u32; 19];
        for t in every_throw() {
            assert!(t.iter().all(|d| (1..=6).contains(d)));
            by_total[usize::from(total(&t))] += 1;
        }
        assert_eq!(&by_total[3..], &[1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]);
        assert_eq!(every_throw().collect::<std::collections::BTreeSet<_>>().len(), 216);
    }

    /// A chi-square over 10^6 throws of the production draw, each die
    /// uniform at 99%.
    #[test]
    fn each_die_is_uniform() {
        let mut rng = meters::rng::StreamRng::from_seed(5);
        let mut faces = [[0u64; 7]; 3];
        let n = 1_000_000u64;
        for _ in 0..n {
            let t = throw(&mut rng);
            for (k, d) in t.iter().enumerate() {
                faces[k][usize::from(*d)] += 1;
            }
        }
        for die in faces {
            let e = n as f64 / 6.0;
            let chi2: f64 = die[1..].iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
            assert!(chi2 < 15.086, "chi-square {chi2:.2} over the 99% point for 5 degrees of freedom");
        }
    }
}
