//! Boule (BO-1…15): a wheel of 25 compartments — the numbers 1–24 on red
//! or black and the blue star (BO-2) — and the cloth's chances (BO-3):
//! a number or the star (pleno), 2, 3, 4, 6 or 8 numbers, and the simple
//! chances, paid in addition to the stake (BO-8). When the ball rests on
//! the star every other chance loses (BO-9). One compartment is drawn
//! uniformly when betting closes (BO-5: the bet is fixed before the draw).
//!
//! The text does not draw the cloth (SILENT in the digest); `decisions.md`
//! ("Boule's cloth") settles it, and this module is that decision:
//! - the numbers stand in 8 rows of 3 (row `r` holds 3r−2, 3r−1, 3r), as a
//!   roulette cloth without its zero; the star has its own box above them;
//! - 2 numbers: side by side in a row or one above the other; 3: a row;
//!   4: the square where four numbers meet; 6: two rows one above the
//!   other; 8: a column;
//! - the simple chances: "doze números" is the odd or the even twelve
//!   (ímpar, par), beside pequeno (1–12), grande (13–24) and the colours;
//! - the colours alternate around the wheel ([`WHEEL`]): red are the odd
//!   numbers of 1–12 and the even numbers of 13–24, so that colour, parity
//!   and half are three different twelves, each colour six of each.

use meters::GameRng;
use serde::{Deserialize, Serialize};

/// The star's compartment, in the draw's numbering (the numbers are 1–24).
pub const STAR: u8 = 0;

/// The compartments around the wheel, clockwise from the star: the colours
/// alternate, red first (BO-2).
pub const WHEEL: [u8; 25] = [STAR, 1, 13, 3, 15, 5, 17, 7, 19, 9, 21, 11, 23, 14, 2, 16, 4, 18, 6, 20, 8, 22, 10, 24, 12];

/// Whether number `n` (1–24) is red: the odd numbers of 1–12 and the even
/// numbers of 13–24.
pub fn red(n: u8) -> bool {
    (1..=24).contains(&n) && (n <= 12) == (n % 2 == 1)
}

/// A chance on the boule cloth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    /// The star, pleno: 23:1.
    Star,
    /// One number, pleno: 23:1.
    Number(u8),
    /// Two numbers side by side or one above the other (a < b): 11:1.
    Two(u8, u8),
    /// The three numbers of row 1–8: 7:1.
    Row(u8),
    /// The four numbers whose square has `n` top left (n, n+1, n+3, n+4): 5:1.
    Four(u8),
    /// Rows `r` and `r + 1`: six numbers, 3:1.
    SixNumbers(u8),
    /// Column 1–3: eight numbers, 2:1.
    Column(u8),
    /// The simple chances, even money.
    Odd,
    Even,
    Low,
    High,
    Red,
    Black,
}

impl Spot {
    /// Every chance of the cloth, each once: the star, 24 numbers, 37 twos
    /// (16 side by side, 21 one above the other), 8 rows, 14 squares, 7
    /// six-number lines, 3 columns and 6 simple chances.
    pub fn all() -> Vec<Spot> {
        let mut v = vec![Spot::Star];
        v.extend((1..=24).map(Spot::Number));
        for n in 1..=24u8 {
            if n % 3 != 0 {
                v.push(Spot::Two(n, n + 1));
            }
            if n <= 21 {
                v.push(Spot::Two(n, n + 3));
            }
        }
        v.extend((1..=8).map(Spot::Row));
        v.extend((1..=20u8).filter(|n| n % 3 != 0).map(Spot::Four));
        v.extend((1..=7).map(Spot::SixNumbers));
        v.extend((1..=3).map(Spot::Column));
        v.extend([Spot::Odd, Spot::Even, Spot::Low, Spot::High, Spot::Red, Spot::Black]);
        v
    }

    /// Whether the cloth has this chance (a group of numbers that do not
    /// meet on it is no chance).
    pub fn on_cloth(self) -> bool {
        Spot::all().contains(&self)
    }

    /// The numbers the chance covers (the star covers none of them).
    pub fn numbers(self) -> Vec<u8> {
        match self {
            Spot::Star => Vec::new(),
            Spot::Number(n) => vec![n],
            Spot::Two(a, b) => vec![a, b],
            Spot::Row(r) => (3 * r - 2..=3 * r).collect(),
            Spot::Four(n) => vec![n, n + 1, n + 3, n + 4],
            Spot::SixNumbers(r) => (3 * r - 2..=3 * r + 3).collect(),
            Spot::Column(c) => (0..8).map(|k| c + 3 * k).collect(),
            Spot::Odd => (1..=24).filter(|n| n % 2 == 1).collect(),
            Spot::Even => (1..=24).filter(|n| n % 2 == 0).collect(),
            Spot::Low => (1..=12).collect(),
            Spot::High => (13..=24).collect(),
            Spot::Red => (1..=24).filter(|&n| red(n)).collect(),
            Spot::Black => (1..=24).filter(|&n| !red(n)).collect(),
        }
    }

    /// What the chance pays, P:1, when it wins (BO-8).
    pub fn pays(self) -> u64 {
        match self {
            Spot::Star | Spot::Number(_) => 23,
            Spot::Two(..) => 11,
            Spot::Row(_) => 7,
            Spot::Four(_) => 5,
            Spot::SixNumbers(_) => 3,
            Spot::Column(_) => 2,
            Spot::Odd | Spot::Even | Spot::Low | Spot::High | Spot::Red | Spot::Black => 1,
        }
    }

    /// Whether the chance wins on `compartment`: the star only on the star
    /// (BO-9: when the star wins every other chance loses).
    pub fn wins(self, compartment: u8) -> bool {
        match self {
            Spot::Star => compartment == STAR,
            _ => compartment != STAR && self.numbers().contains(&compartment),
        }
    }

    /// What `stake` on the chance returns on `compartment`: the stake and
    /// its prize (BO-8), or nothing.
    pub fn returned(self, stake: u64, compartment: u8) -> u64 {
        if self.wins(compartment) { stake.saturating_mul(self.pays() + 1) } else { 0 }
    }

    pub fn name(self, portuguese: bool) -> String {
        let pick = |pt: &str, en: &str| if portuguese { pt.to_owned() } else { en.to_owned() };
        let list = |v: Vec<u8>| v.iter().map(u8::to_string).collect::<Vec<_>>().join("-");
        match self {
            Spot::Star => pick("estrela", "star"),
            Spot::Number(n) => format!("{} {n}", pick("pleno", "straight")),
            Spot::Two(..) | Spot::Four(_) => format!("{} {}", pick("números", "numbers"), list(self.numbers())),
            Spot::Row(r) => format!("{} {r}", pick("linha", "row")),
            Spot::SixNumbers(r) => format!("{} {}-{}", pick("linhas", "rows"), r, r + 1),
            Spot::Column(c) => format!("{} {c}", pick("coluna", "column")),
            Spot::Odd => pick("ímpar", "odd"),
            Spot::Even => pick("par", "even"),
            Spot::Low => pick("pequeno (1-12)", "low (1-12)"),
            Spot::High => pick("grande (13-24)", "high (13-24)"),
            Spot::Red => pick("vermelho", "red"),
            Spot::Black => pick("preto", "black"),
        }
    }
}

/// The ball thrown: one compartment, uniformly over the 25 of the wheel.
pub fn spin(rng: &mut impl GameRng) -> u8 {
    WHEEL[rng.index(WHEEL.len())]
}

/// A boule table (an approved paytable): its limits. The payouts are the
/// text's (BO-8) and not configurable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BouleGame {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a chance, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cloth as decided: 24 + 1 plenos, 16 twos side by side and 21
    /// one above the other, 8 rows, 14 squares, 7 six-number lines, 3
    /// columns, 6 simple chances; every group covers as many numbers as its
    /// payout says, and every group of numbers on it meets on the cloth.
    #[test]
    fn the_cloth_holds_every_chance_once_each_group_adjacent() {
        let all = Spot::all();
        assert_eq!(all.len(), 1 + 24 + 37 + 8 + 14 + 7 + 3 + 6);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len(), "each chance once");
        let cell = |n: u8| ((n - 1) / 3, (n - 1) % 3);
        for s in &all {
            let ns = s.numbers();
            let want = match s.pays() {
                23 => usize::from(*s != Spot::Star),
                11 => 2,
                7 => 3,
                5 => 4,
                3 => 6,
                2 => 8,
                _ => 12,
            };
            assert_eq!(ns.len(), want, "{s:?}");
            assert!(ns.iter().all(|n| (1..=24).contains(n)), "{s:?}");
            if (2..=6).contains(&ns.len()) {
                // The cells of a group make one block of the cloth.
                let rows: Vec<u8> = ns.iter().map(|&n| cell(n).0).collect();
                let cols: Vec<u8> = ns.iter().map(|&n| cell(n).1).collect();
                let span = |v: &[u8]| v.iter().max().unwrap() - v.iter().min().unwrap() + 1;
                assert_eq!(usize::from(span(&rows)) * usize::from(span(&cols)), ns.len(), "{s:?} is not a block");
            }
        }
        assert!(!Spot::Two(3, 4).on_cloth(), "3 and 4 are at opposite ends of two rows");
        assert!(!Spot::Four(3).on_cloth() && !Spot::Four(21).on_cloth() && !Spot::Row(9).on_cloth() && !Spot::SixNumbers(8).on_cloth());
    }

    /// BO-2: 25 compartments, each once; the colours alternate around the
    /// wheel; colour, parity and half are three different twelves.
    #[test]
    fn the_wheel_alternates_red_and_black_and_the_twelves_differ() {
        let mut seen = WHEEL;
        seen.sort_unstable();
        assert_eq!(seen.to_vec(), (0..=24).collect::<Vec<u8>>());
        for k in 1..24 {
            assert_ne!(red(WHEEL[k]), red(WHEEL[k + 1]), "{} and {} side by side", WHEEL[k], WHEEL[k + 1]);
        }
        let twelves = [Spot::Red, Spot::Odd, Spot::Low].map(|s| s.numbers());
        assert!(twelves.iter().all(|t| t.len() == 12));
        assert!(twelves[0] != twelves[1] && twelves[1] != twelves[2] && twelves[0] != twelves[2]);
        for (a, b) in [(Spot::Red, Spot::Odd), (Spot::Red, Spot::Low), (Spot::Black, Spot::Even), (Spot::Black, Spot::High)] {
            let both = a.numbers().iter().filter(|n| b.numbers().contains(n)).count();
            assert_eq!(both, 6, "{a:?} and {b:?}");
        }
    }

    /// BO-8 and BO-9 over the 25 compartments: every chance returns 24
    /// units of 25 staked (96 %), the digest's figure, and the star makes
    /// every other chance lose.
    #[test]
    fn every_chance_returns_96_percent_and_the_star_takes_all() {
        for s in Spot::all() {
            let back: u64 = WHEEL.iter().map(|&c| s.returned(1, c)).sum();
            assert_eq!(back, 24, "{s:?} returns {back}/25");
            assert_eq!(s.returned(10, STAR), if s == Spot::Star { 240 } else { 0 }, "{s:?} on the star");
        }
        assert_eq!(Spot::Number(17).returned(2, 17), 48);
        assert_eq!(Spot::Column(2).returned(5, 23), 15, "23 is in column 2");
        assert_eq!(Spot::Red.returned(5, 14), 10, "14 is red");
        assert_eq!(Spot::Red.returned(5, 13), 0, "13 is black");
    }

    /// The draw is uniform over the wheel (a chi-square over 250,000
    /// throws of the production generator, at 99 %).
    #[test]
    fn the_ball_rests_uniformly_over_the_25_compartments() {
        let mut rng = meters::rng::StreamRng::from_seed(11);
        let n = 250_000u64;
        let mut counts = [0u64; 25];
        for _ in 0..n {
            counts[usize::from(spin(&mut rng))] += 1;
        }
        let expected = n as f64 / 25.0;
        let chi2: f64 = counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
        // The 99 % point of chi-square with 24 degrees of freedom.
        assert!(chi2 < 42.980, "chi-square {chi2:.2}");
    }
}
