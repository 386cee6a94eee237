//! Banca francesa (BF 1–43): three dice; ases (1-1-1) pays 61:1, pequeno
//! (5, 6, 7) and grande (14, 15, 16) 1:1 (BF 6, BF 26); a throw that makes
//! none of them decides nothing and the dice are thrown again until one
//! does (BF 13). The video golpe draws its throws until the decisive one;
//! the bets are fixed when the player launches the throw (BF 33–34), so
//! the non-decisive throws are shown but change nothing. Ases makes
//! pequeno and grande lose, and the reverse (BF 14).

use meters::GameRng;
use serde::{Deserialize, Serialize};

use super::{Throw, throw, total};

/// The chances of the cloth (BF 4). Line bets (BF 7–10) are physical-table
/// conventions with a silent half-stake rule and are not offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Chance {
    Ases,
    Pequeno,
    Grande,
}

impl Chance {
    pub const ALL: [Chance; 3] = [Chance::Ases, Chance::Pequeno, Chance::Grande];

    /// The payout P:1 (the stake kept, BF 26).
    pub fn payout(self) -> u64 {
        match self {
            Chance::Ases => 61,
            Chance::Pequeno | Chance::Grande => 1,
        }
    }

    /// The most on the chance, as a multiple of the table minimum (BF 12).
    pub fn max_ratio(self) -> u64 {
        match self {
            Chance::Ases => 6,
            Chance::Pequeno | Chance::Grande => 200,
        }
    }

    pub fn name(self, portuguese: bool) -> &'static str {
        match (self, portuguese) {
            (Chance::Ases, _) => "ases",
            (Chance::Pequeno, true) => "pequeno",
            (Chance::Pequeno, false) => "small (pequeno)",
            (Chance::Grande, true) => "grande",
            (Chance::Grande, false) => "big (grande)",
        }
    }
}

/// The chance a throw decides, if any (BF 6, BF 13).
pub fn decides(t: &Throw) -> Option<Chance> {
    match total(t) {
        3 => Some(Chance::Ases),
        5..=7 => Some(Chance::Pequeno),
        14..=16 => Some(Chance::Grande),
        _ => None,
    }
}

/// What `stake` on `chance` returns when the golpe is decided by `decided`.
pub fn returned(chance: Chance, stake: u64, decided: Chance) -> u64 {
    if chance == decided { stake.saturating_mul(chance.payout() + 1) } else { 0 }
}

/// The most throws a golpe may take before the draw is given up (and
/// discarded by the core): (17/24)^1000 is about 10^-150.
pub const MOST_THROWS: usize = 1000;

/// A golpe: throws until one decides (BF 13); the last is the decisive one.
pub fn golpe(rng: &mut impl GameRng) -> Result<Vec<Throw>, String> {
    let mut throws = Vec::new();
    while throws.len() < MOST_THROWS {
        let t = throw(rng);
        throws.push(t);
        if decides(&t).is_some() {
            return Ok(throws);
        }
    }
    Err(format!("no decisive throw in {MOST_THROWS} throws"))
}

/// A banca francesa table (an approved paytable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BancaFrancesaGame {
    pub id: String,
    pub name: String,
    /// The table minimum on a chance, in credits.
    pub minimum: u64,
    /// The chip values the player picks from, in credits.
    pub chips: Vec<u64>,
}

impl BancaFrancesaGame {
    /// The most a chance may hold (BF 12: ases 6 ×, pequeno and grande 200 × the minimum).
    pub fn maximum(&self, chance: Chance) -> u64 {
        self.minimum.saturating_mul(chance.max_ratio())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::every_throw;

    /// §5.6: 63 of the 216 throws decide (1 ases, 31 pequeno, 31 grande),
    /// and every chance returns 62/63 of its stake over the decided golpes.
    #[test]
    fn every_chance_returns_62_of_63() {
        let decided: Vec<Chance> = every_throw().filter_map(|t| decides(&t)).collect();
        assert_eq!(decided.len(), 63);
        assert_eq!(decided.iter().filter(|&&c| c == Chance::Ases).count(), 1);
        assert_eq!(decided.iter().filter(|&&c| c == Chance::Pequeno).count(), 31);
        for chance in Chance::ALL {
            let back: u64 = decided.iter().map(|&d| returned(chance, 1, d)).sum();
            assert_eq!(back, 62, "{chance:?}: 62 back for 63 staked");
        }
        assert_eq!(returned(Chance::Ases, 10, Chance::Ases), 620);
        assert_eq!(returned(Chance::Pequeno, 10, Chance::Ases), 0, "ases makes pequeno lose (BF 14)");
    }

    #[test]
    fn a_golpe_ends_on_its_first_decisive_throw() {
        let mut rng = meters::rng::StreamRng::from_seed(3);
        let mut lengths = 0usize;
        for _ in 0..2_000 {
            let g = golpe(&mut rng).unwrap();
            assert!(decides(g.last().unwrap()).is_some());
            assert!(g[..g.len() - 1].iter().all(|t| decides(t).is_none()));
            lengths += g.len();
        }
        // 24/7 ≈ 3.43 throws a golpe on average (§5.6).
        let mean = lengths as f64 / 2_000.0;
        assert!((3.1..3.8).contains(&mean), "{mean}");
    }
}
