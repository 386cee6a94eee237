//! Cussec / sic bo: three dice under the dome, and every bet of its rule 8
//! with its payout (the stake kept). Pequeno (4–10) and grande (11–17)
//! lose on any triple (rule 9).

use serde::{Deserialize, Serialize};

use super::{Throw, count, total, triple};

/// A place on the sic bo cloth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    /// Pequeno: a total of 4–10, not a triple.
    Small,
    /// Grande: a total of 11–17, not a triple.
    Big,
    /// A number on one, two or three dice: 1:1, 2:1, 3:1.
    Single(u8),
    /// Two different faces both showing (a < b): 5:1.
    Pair(u8, u8),
    /// A face on at least two dice: 10:1, 30:1 on its triple.
    Double(u8),
    /// A face on all three dice: 190:1.
    Triple(u8),
    /// Any triple: 32:1.
    AnyTriple,
    /// A total of 4–17.
    Total(u8),
}

impl Spot {
    /// Every spot of the cloth: 2 + 6 + 15 + 6 + 6 + 1 + 14 = 50.
    pub fn all() -> Vec<Spot> {
        let mut v = vec![Spot::Small, Spot::Big];
        v.extend((1..=6).map(Spot::Single));
        for a in 1..=6 {
            for b in a + 1..=6 {
                v.push(Spot::Pair(a, b));
            }
        }
        v.extend((1..=6).map(Spot::Double));
        v.extend((1..=6).map(Spot::Triple));
        v.push(Spot::AnyTriple);
        v.extend((4..=17).map(Spot::Total));
        v
    }

    /// Whether the cloth has this spot.
    pub fn on_cloth(self) -> bool {
        Spot::all().contains(&self)
    }

    /// What the throw pays on the spot, P:1 (0: it loses).
    pub fn payout(self, t: &Throw) -> u64 {
        let sum = total(t);
        match self {
            Spot::Small => u64::from((4..=10).contains(&sum) && !triple(t)),
            Spot::Big => u64::from((11..=17).contains(&sum) && !triple(t)),
            Spot::Single(n) => count(t, n) as u64,
            Spot::Pair(a, b) => 5 * u64::from(count(t, a) > 0 && count(t, b) > 0),
            Spot::Double(n) => match count(t, n) {
                2 => 10,
                3 => 30,
                _ => 0,
            },
            Spot::Triple(n) => 190 * u64::from(count(t, n) == 3),
            Spot::AnyTriple => 32 * u64::from(triple(t)),
            Spot::Total(s) if s == sum => total_payout(s),
            Spot::Total(_) => 0,
        }
    }

    /// What `stake` on the spot returns on the throw: the stake and its
    /// prize, or nothing.
    pub fn returned(self, stake: u64, t: &Throw) -> u64 {
        match self.payout(t) {
            0 => 0,
            p => stake.saturating_mul(p + 1),
        }
    }

    pub fn name(self, portuguese: bool) -> String {
        let pick = |pt: &str, en: &str| if portuguese { pt.to_owned() } else { en.to_owned() };
        match self {
            Spot::Small => pick("pequeno (4-10)", "small (4-10)"),
            Spot::Big => pick("grande (11-17)", "big (11-17)"),
            Spot::Single(n) => format!("{} {n}", pick("número", "number")),
            Spot::Pair(a, b) => format!("{} {a}-{b}", pick("combinação", "combination")),
            Spot::Double(n) => format!("{} {n}-{n}", pick("duplo", "double")),
            Spot::Triple(n) => format!("{} {n}-{n}-{n}", pick("triplo", "triple")),
            Spot::AnyTriple => pick("qualquer triplo", "any triple"),
            Spot::Total(s) => format!("{} {s}", pick("total", "total")),
        }
    }
}

/// What a total of `t` (4–17) pays, P:1 (rule 8); 0 for no total of the cloth.
pub fn total_payout(t: u8) -> u64 {
    match t {
        4 | 17 => 65,
        5 | 16 => 32,
        6 | 15 => 19,
        7 | 14 => 12,
        8 | 13 => 8,
        9 | 12 => 7,
        10 | 11 => 6,
        _ => 0,
    }
}

/// A sic bo table (an approved paytable): its limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SicBoGame {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a spot, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::every_throw;

    /// §7: each bet's return over the 216 throws, against the digest's RTP.
    #[test]
    fn every_bet_returns_the_digests_figure_over_the_216_throws() {
        let back = |s: Spot| every_throw().map(|t| s.returned(1, &t)).sum::<u64>();
        assert_eq!(Spot::all().len(), 50);
        assert_eq!(back(Spot::Small), 210, "35/36");
        assert_eq!(back(Spot::Big), 210);
        assert_eq!(back(Spot::Single(4)), 199, "199/216");
        assert_eq!(back(Spot::Pair(2, 5)), 180, "5/6");
        assert_eq!(back(Spot::Double(6)), 196, "49/54");
        assert_eq!(back(Spot::Triple(1)), 191, "191/216");
        assert_eq!(back(Spot::AnyTriple), 198, "11/12");
        for (s, want) in
            [(4, 198), (17, 198), (5, 198), (16, 198), (6, 200), (15, 200), (7, 195), (14, 195), (8, 189), (13, 189), (9, 200), (12, 200), (10, 189), (11, 189)]
        {
            assert_eq!(back(Spot::Total(s)), want, "total {s}");
        }
        assert_eq!(Spot::Small.payout(&[2, 2, 2]), 0, "a triple makes small lose (rule 9)");
        assert!(!Spot::Pair(3, 3).on_cloth() && !Spot::Total(3).on_cloth() && !Spot::Single(7).on_cloth());
    }
}
