//! The three wheels of the text, each sequence copied exactly, clockwise
//! (FR 4; AR 3 a–b, AR 4), and the pockets' colours (AR 8, FR 8,
//! decisions.md: the standard red set; 0 and 00 neither colour).

use serde::{Deserialize, Serialize};

/// The pocket 00 of the American 38-pocket wheel (numbers are 0–36).
pub const DOUBLE_ZERO: u8 = 37;

/// FR 4, AR 3 a): French numbering, 37 pockets.
const FRENCH: [u8; 37] =
    [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26];
/// AR 3 b): American numbering, 37 pockets.
const AMERICAN_37: [u8; 37] =
    [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2];
/// AR 4: American numbering, 38 pockets (00 between 1 and 27; the source's
/// "2 6" is 26).
const AMERICAN_38: [u8; 38] =
    [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, DOUBLE_ZERO, 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2];

/// The standard red set (decisions.md, Roulette).
pub const RED: [u8; 18] = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wheel {
    /// French numbering, single zero: French roulette, or American roulette
    /// on a French wheel (AR 3 a). The only wheel with call bets (AR 20).
    French,
    /// American numbering, single zero (AR 3 b).
    American37,
    /// American numbering with 0 and 00 (AR 4).
    American38,
}

impl Wheel {
    /// The pockets clockwise from 0.
    pub fn sequence(self) -> &'static [u8] {
        match self {
            Wheel::French => &FRENCH,
            Wheel::American37 => &AMERICAN_37,
            Wheel::American38 => &AMERICAN_38,
        }
    }

    /// How many pockets the wheel has (37 or 38).
    pub fn pockets(self) -> u64 {
        self.sequence().len() as u64
    }

    pub fn has_double_zero(self) -> bool {
        self == Wheel::American38
    }

    /// Call bets are played only on French numbering (AR 20, FR 40).
    pub fn call_bets_allowed(self) -> bool {
        self == Wheel::French
    }

    /// Where `pocket` stands on the wheel (its index in the sequence).
    pub fn position(self, pocket: u8) -> Option<usize> {
        self.sequence().iter().position(|&p| p == pocket)
    }

    /// The pocket `steps` places clockwise (negative: anticlockwise) of
    /// the one at `position`.
    pub fn step(self, position: usize, steps: i64) -> u8 {
        let n = self.sequence().len() as i64;
        let at = (position as i64 + steps).rem_euclid(n) as usize;
        self.sequence()[at]
    }
}

/// A pocket's colour: 0 and 00 are neither red nor black (AR 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PocketColour {
    Red,
    Black,
    Zero,
}

pub fn colour(pocket: u8) -> PocketColour {
    if pocket == 0 || pocket == DOUBLE_ZERO {
        PocketColour::Zero
    } else if RED.contains(&pocket) {
        PocketColour::Red
    } else {
        PocketColour::Black
    }
}

/// A pocket as the cloth writes it: "0"–"36", or "00".
pub fn pocket_name(pocket: u8) -> String {
    if pocket == DOUBLE_ZERO { "00".to_owned() } else { pocket.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literal(s: &str) -> Vec<u8> {
        s.split('-').map(|n| if n == "00" { DOUBLE_ZERO } else { n.parse().unwrap() }).collect()
    }

    /// §4.1: each wheel equals the text's string.
    #[test]
    fn each_wheel_is_the_texts_sequence() {
        assert_eq!(Wheel::French.sequence(), literal("0-32-15-19-4-21-2-25-17-34-6-27-13-36-11-30-8-23-10-5-24-16-33-1-20-14-31-9-22-18-29-7-28-12-35-3-26"));
        assert_eq!(
            Wheel::American37.sequence(),
            literal("0-28-9-26-30-11-7-20-32-17-5-22-34-15-3-24-36-13-1-27-10-25-29-12-8-19-31-18-6-21-33-16-4-23-35-14-2")
        );
        assert_eq!(
            Wheel::American38.sequence(),
            literal("0-28-9-26-30-11-7-20-32-17-5-22-34-15-3-24-36-13-1-00-27-10-25-29-12-8-19-31-18-6-21-33-16-4-23-35-14-2")
        );
        for w in [Wheel::French, Wheel::American37, Wheel::American38] {
            let mut s = w.sequence().to_vec();
            s.sort_unstable();
            let want: Vec<u8> = (0..w.pockets() as u8).collect();
            assert_eq!(s, want, "{w:?} holds every pocket once");
        }
    }

    /// §4.3: 18 red, 18 black, the zeros neither; on the French and the
    /// 38-pocket wheels the colours alternate round the wheel.
    #[test]
    fn colours_are_the_standard_set_and_alternate() {
        assert_eq!((1..=36).filter(|&n| colour(n) == PocketColour::Red).count(), 18);
        assert_eq!((1..=36).filter(|&n| colour(n) == PocketColour::Black).count(), 18);
        assert_eq!(colour(0), PocketColour::Zero);
        assert_eq!(colour(DOUBLE_ZERO), PocketColour::Zero);
        for w in [Wheel::French, Wheel::American38] {
            let numbers: Vec<u8> = w.sequence().iter().copied().filter(|&p| colour(p) != PocketColour::Zero).collect();
            let s = w.sequence();
            for i in 0..s.len() {
                let (a, b) = (s[i], s[(i + 1) % s.len()]);
                if colour(a) != PocketColour::Zero && colour(b) != PocketColour::Zero {
                    assert_ne!(colour(a), colour(b), "{w:?}: {a} and {b} side by side");
                }
            }
            assert_eq!(numbers.len(), 36);
        }
        assert_eq!(pocket_name(DOUBLE_ZERO), "00");
        assert_eq!(Wheel::French.step(0, -1), 26);
        assert_eq!(Wheel::French.step(0, 2), 15);
    }
}
