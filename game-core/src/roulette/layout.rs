//! The cloth: every chance of AR 13–14/19 and FR 13–14/18, what each
//! covers and what it pays (AR 42, FR 33), and every geometrically
//! possible inside bet (AR 18, FR 17) on the standard 12 × 3 grid (row r
//! = 3r−2, 3r−1, 3r; the columns from 34, 35 and 36: AR 19 g).

use serde::{Deserialize, Serialize};

use super::wheel::{DOUBLE_ZERO, PocketColour, Wheel, colour};

/// A place a chip can stand on the cloth.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    /// An inside bet: the numbers the chip covers, ascending (00 is 37):
    /// pleno, cavalo, rua, quadro, linha, and the zero bets of the wheel.
    Numbers(Vec<u8>),
    /// Dúzia 1 (1–12), 2 (13–24) or 3 (25–36).
    Dozen(u8),
    /// Coluna 1 (from 34: 1, 4, … 34), 2 (from 35) or 3 (from 36).
    Column(u8),
    /// Cavalo de dúzia: 1 (dozens 1 and 2) or 2 (dozens 2 and 3).
    TwoDozens(u8),
    /// Cavalo de coluna: 1 (columns 1 and 2) or 2 (columns 2 and 3).
    TwoColumns(u8),
    Red,
    Black,
    Even,
    Odd,
    Low,
    High,
}

/// The chances of the text, each with its payout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Chance {
    Straight,
    Split,
    Street,
    Corner,
    /// 0-00-1-2-3, five numbers at 6:1: not in the text (Art. 2 n.º 3),
    /// offered only where a paytable says so, and under the others' RTP.
    TopLine,
    SixLine,
    Dozen,
    Column,
    TwoDozens,
    TwoColumns,
    /// Encarnado, preto, par, ímpar, menor, maior.
    EvenChance,
}

impl Chance {
    /// The payout P:1 as a fraction (numerator, denominator): the winner
    /// keeps the stake and wins stake × P (AR 42, FR 33).
    pub fn payout(self) -> (u64, u64) {
        match self {
            Chance::Straight => (35, 1),
            Chance::Split => (17, 1),
            Chance::Street => (11, 1),
            Chance::Corner => (8, 1),
            Chance::TopLine => (6, 1),
            Chance::SixLine => (5, 1),
            Chance::Dozen | Chance::Column => (2, 1),
            Chance::TwoDozens | Chance::TwoColumns => (1, 2),
            Chance::EvenChance => (1, 1),
        }
    }

    /// The chance's names, Portuguese and English.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Chance::Straight => ("pleno", "straight-up"),
            Chance::Split => ("cavalo", "split"),
            Chance::Street => ("rua", "street"),
            Chance::Corner => ("quadro", "corner"),
            Chance::TopLine => ("0-00-1-2-3", "top line 0-00-1-2-3"),
            Chance::SixLine => ("linha", "six-line"),
            Chance::Dozen => ("dúzia", "dozen"),
            Chance::Column => ("coluna", "column"),
            Chance::TwoDozens => ("cavalo de dúzia", "two dozens"),
            Chance::TwoColumns => ("cavalo de coluna", "two columns"),
            Chance::EvenChance => ("chance simples", "even chance"),
        }
    }

    pub const ALL: [Chance; 11] = [
        Chance::Straight,
        Chance::Split,
        Chance::Street,
        Chance::Corner,
        Chance::TopLine,
        Chance::SixLine,
        Chance::Dozen,
        Chance::Column,
        Chance::TwoDozens,
        Chance::TwoColumns,
        Chance::EvenChance,
    ];
}

/// The grid's number at row `r` (1–12) and column `c` (1–3).
fn at(r: u8, c: u8) -> u8 {
    3 * r - 3 + c
}

/// Every inside bet the wheel's cloth takes, each as its numbers ascending:
/// 38 or 37 plenos; 57 cavalos; 12 ruas; 22 quadros; 11 linhas; and the
/// zero bets: on a single zero 0-1, 0-2, 0-3, 0-1-2, 0-2-3 (AR 20 a I) and
/// 0-1-2-3; on 0 and 00, 0-1, 0-2, 00-2, 00-3, 0-00, 0-1-2, 0-00-2,
/// 00-2-3, and 0-00-1-2-3 when `top_line` (decisions in docs/roulette.md).
pub fn inside_bets(wheel: Wheel, top_line: bool) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..=36).map(|n| vec![n]).collect();
    if wheel.has_double_zero() {
        out.push(vec![DOUBLE_ZERO]);
    }
    for r in 1..=12 {
        for c in 1..=2 {
            out.push(vec![at(r, c), at(r, c + 1)]);
        }
    }
    for r in 1..=11 {
        for c in 1..=3 {
            out.push(vec![at(r, c), at(r + 1, c)]);
        }
    }
    for r in 1..=12 {
        out.push(vec![at(r, 1), at(r, 2), at(r, 3)]);
    }
    for r in 1..=11 {
        for c in 1..=2 {
            out.push(vec![at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)]);
        }
    }
    for r in 1..=11 {
        out.push((0..6).map(|k| at(r, 1) + k).collect());
    }
    let z = DOUBLE_ZERO;
    if wheel.has_double_zero() {
        out.extend([vec![0, 1], vec![0, 2], vec![2, z], vec![3, z], vec![0, z], vec![0, 1, 2], vec![0, 2, z], vec![2, 3, z]]);
        if top_line {
            out.push(vec![0, 1, 2, 3, z]);
        }
    } else {
        out.extend([vec![0, 1], vec![0, 2], vec![0, 3], vec![0, 1, 2], vec![0, 2, 3], vec![0, 1, 2, 3]]);
    }
    out
}

impl Spot {
    /// The chance the spot is, when the cloth has it.
    pub fn chance(&self) -> Chance {
        match self {
            Spot::Numbers(n) => match n.len() {
                1 => Chance::Straight,
                2 => Chance::Split,
                3 => Chance::Street,
                4 => Chance::Corner,
                5 => Chance::TopLine,
                _ => Chance::SixLine,
            },
            Spot::Dozen(_) => Chance::Dozen,
            Spot::Column(_) => Chance::Column,
            Spot::TwoDozens(_) => Chance::TwoDozens,
            Spot::TwoColumns(_) => Chance::TwoColumns,
            _ => Chance::EvenChance,
        }
    }

    /// Whether the wheel's cloth has this spot.
    pub fn on_cloth(&self, wheel: Wheel, top_line: bool) -> bool {
        match self {
            Spot::Numbers(n) => inside_bets(wheel, top_line).contains(n),
            Spot::Dozen(d) | Spot::Column(d) => (1..=3).contains(d),
            Spot::TwoDozens(d) | Spot::TwoColumns(d) => (1..=2).contains(d),
            _ => true,
        }
    }

    /// Whether the spot wins when `pocket` comes up. Outside bets never
    /// hold 0 or 00, so they lose on them outright (AR 39, FR 29).
    pub fn covers(&self, pocket: u8) -> bool {
        let n = pocket;
        let number = (1..=36).contains(&n);
        let dozen = |d: u8| number && (n - 1) / 12 + 1 == d;
        let column = |c: u8| number && (n - 1) % 3 + 1 == c;
        match self {
            Spot::Numbers(ns) => ns.contains(&n),
            Spot::Dozen(d) => dozen(*d),
            Spot::Column(c) => column(*c),
            Spot::TwoDozens(d) => dozen(*d) || dozen(*d + 1),
            Spot::TwoColumns(c) => column(*c) || column(*c + 1),
            Spot::Red => colour(n) == PocketColour::Red,
            Spot::Black => colour(n) == PocketColour::Black,
            Spot::Even => number && n.is_multiple_of(2),
            Spot::Odd => number && !n.is_multiple_of(2),
            Spot::Low => number && n <= 18,
            Spot::High => number && n >= 19,
        }
    }

    /// How many numbers the spot covers.
    pub fn numbers_covered(&self) -> u64 {
        match self {
            Spot::Numbers(n) => n.len() as u64,
            Spot::Dozen(_) | Spot::Column(_) => 12,
            Spot::TwoDozens(_) | Spot::TwoColumns(_) => 24,
            _ => 18,
        }
    }

    /// What `stake` credits on the spot return when `pocket` comes up: the
    /// stake and its prize, or nothing. The stake of a ½:1 bet is even
    /// (the table refuses an odd one), so the prize is whole.
    pub fn returned(&self, stake: u64, pocket: u8) -> u64 {
        if !self.covers(pocket) {
            return 0;
        }
        let (num, den) = self.chance().payout();
        stake.saturating_add(stake.saturating_mul(num) / den)
    }

    /// The spot as the cloth names it, in Portuguese or English.
    pub fn name(&self, portuguese: bool) -> String {
        let pick = |pt: &str, en: &str| if portuguese { pt.to_owned() } else { en.to_owned() };
        match self {
            Spot::Numbers(ns) => {
                let numbers: Vec<String> = ns.iter().map(|&n| super::wheel::pocket_name(n)).collect();
                let (pt, en) = self.chance().names();
                format!("{} {}", pick(pt, en), numbers.join("-"))
            }
            Spot::Dozen(d) => format!("{} {d}", pick("dúzia", "dozen")),
            Spot::Column(c) => format!("{} {c}", pick("coluna", "column")),
            Spot::TwoDozens(d) => format!("{} {}-{}", pick("cavalo de dúzia", "two dozens"), d, d + 1),
            Spot::TwoColumns(c) => format!("{} {}-{}", pick("cavalo de coluna", "two columns"), c, c + 1),
            Spot::Red => pick("encarnado", "red"),
            Spot::Black => pick("preto", "black"),
            Spot::Even => pick("par", "even"),
            Spot::Odd => pick("ímpar", "odd"),
            Spot::Low => pick("menor (1-18)", "low (1-18)"),
            Spot::High => pick("maior (19-36)", "high (19-36)"),
        }
    }

    /// Every outside spot.
    pub fn outside() -> Vec<Spot> {
        let mut v: Vec<Spot> = (1..=3).flat_map(|d| [Spot::Dozen(d), Spot::Column(d)]).collect();
        v.extend((1..=2).flat_map(|d| [Spot::TwoDozens(d), Spot::TwoColumns(d)]));
        v.extend([Spot::Red, Spot::Black, Spot::Even, Spot::Odd, Spot::Low, Spot::High]);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent reading of "adjacent" on the grid: two numbers are
    /// neighbours when their rows and columns differ by at most one.
    fn grid(n: u8) -> (i32, i32) {
        (i32::from((n - 1) / 3), i32::from((n - 1) % 3))
    }

    /// §4.4: 57 cavalos, 12 ruas, 22 quadros and 11 linhas among 1–36, and
    /// every one of them geometrically possible; none other.
    #[test]
    fn the_inside_bets_are_every_possible_one_and_no_other() {
        let all = inside_bets(Wheel::French, false);
        let non_zero = |len: usize| all.iter().filter(|b| b.len() == len && !b.contains(&0)).count();
        assert_eq!(non_zero(2), 57);
        assert_eq!(non_zero(3), 12);
        assert_eq!(non_zero(4), 22);
        assert_eq!(non_zero(6), 11);
        // Brute force over every pair and quadruple of 1–36.
        let mut pairs = 0;
        for a in 1..=36u8 {
            for b in a + 1..=36 {
                let ((ra, ca), (rb, cb)) = (grid(a), grid(b));
                if (ra - rb).abs() + (ca - cb).abs() == 1 {
                    pairs += 1;
                    assert!(all.contains(&vec![a, b]), "{a}-{b}");
                }
            }
        }
        assert_eq!(pairs, 57);
        let corners: Vec<Vec<u8>> = (1..=36u8).filter(|&a| grid(a).1 < 2 && grid(a).0 < 11).map(|a| vec![a, a + 1, a + 3, a + 4]).collect();
        assert_eq!(corners.len(), 22);
        assert!(corners.iter().all(|c| all.contains(c)));
        // Nothing repeated; every set ascending.
        let unique: std::collections::BTreeSet<&Vec<u8>> = all.iter().collect();
        assert_eq!(unique.len(), all.len());
        assert!(all.iter().all(|b| b.windows(2).all(|w| w[0] < w[1])));
        // Impossible bets are refused.
        assert!(!Spot::Numbers(vec![3, 4]).on_cloth(Wheel::French, false), "3 and 4 are not adjacent");
        assert!(!Spot::Numbers(vec![1, 2, 4, 5, 7]).on_cloth(Wheel::French, true));
        assert!(!Spot::Numbers(vec![0, 1, 2, 3, DOUBLE_ZERO]).on_cloth(Wheel::American38, false), "top line only when offered");
        assert!(Spot::Numbers(vec![0, 1, 2, 3, DOUBLE_ZERO]).on_cloth(Wheel::American38, true));
        assert!(!Spot::Numbers(vec![DOUBLE_ZERO]).on_cloth(Wheel::French, false));
        assert!(Spot::Numbers(vec![0, 2, 3]).on_cloth(Wheel::French, false), "AR 20 a I's rua 0-2-3");
        assert!(!Spot::Dozen(4).on_cloth(Wheel::French, false));
        assert!(!Spot::TwoDozens(3).on_cloth(Wheel::French, false));
    }

    /// §4.5–4.7 and §3: for every spot, over every pocket, the return is
    /// 36 stakes on 37 or 38 pockets (the top line's 35 on 38), so every
    /// chance's RTP is 36/37 or 18/19 exactly; zero loses every outside bet.
    #[test]
    fn every_spot_returns_thirty_six_stakes_over_the_wheel() {
        for (wheel, top) in [(Wheel::French, false), (Wheel::American37, false), (Wheel::American38, true)] {
            let mut spots: Vec<Spot> = inside_bets(wheel, top).into_iter().map(Spot::Numbers).collect();
            spots.extend(Spot::outside());
            for spot in spots {
                let total: u64 = wheel.sequence().iter().map(|&p| spot.returned(2, p)).sum();
                let want = if spot.chance() == Chance::TopLine { 2 * 35 } else { 2 * 36 };
                assert_eq!(total, want, "{wheel:?} {spot:?}");
                let covered = wheel.sequence().iter().filter(|&&p| spot.covers(p)).count() as u64;
                assert_eq!(covered, spot.numbers_covered(), "{spot:?}");
            }
            for spot in Spot::outside() {
                assert_eq!(spot.returned(10, 0), 0, "{spot:?} loses on zero (AR 39)");
                assert_eq!(spot.returned(10, DOUBLE_ZERO), 0, "{spot:?} loses on 00");
            }
        }
        assert_eq!(Spot::Red.returned(10, 1), 20);
        assert_eq!(Spot::TwoDozens(1).returned(10, 13), 15, "½:1");
        assert_eq!(Spot::Numbers(vec![17]).returned(1, 17), 36);
    }
}
