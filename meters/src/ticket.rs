//! Coded tickets (bilhetes codificados, M-12, M-25 f/g; certification.md F-45).
//!
//! A validation number has 18 digits: 17 drawn from a ChaCha20 stream keyed
//! by fresh OS entropy (never the game stream, and unpredictable from earlier
//! tickets), then a Damm check digit, so every single misread digit and
//! every swap of two neighbours is detected (issue 21: the Luhn digit used
//! before missed 09 ↔ 90).

mod secure_enhanced;

use serde::{Deserialize, Serialize};

pub use secure_enhanced::{MAX as SECURE_ENHANCED_MAX, secure_enhanced_number};

use crate::money::Cents;
use crate::rng::{GameRng, RngError, StreamRng};

/// A printed ticket: what the cabinet's printer puts on paper.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticket {
    pub machine_id: String,
    pub validation: String,
    pub value: Cents,
    pub issued_utc: String,
}

const BODY: u64 = 100_000_000_000_000_000; // 10^17

/// A fresh, unpredictable 18-digit validation number.
pub fn new_validation_number() -> Result<String, RngError> {
    let body = StreamRng::from_entropy()?.uniform(BODY);
    let digits = format!("{body:017}");
    Ok(format!("{digits}{}", check_digit(&digits)))
}

/// The Damm quasigroup of order 10 (H. M. Damm, 2004): a Latin square
/// whose rows and columns are permutations, weakly totally anti-symmetric.
const DAMM: [[u8; 10]; 10] = [
    [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
    [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
    [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
    [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
    [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
    [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
    [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
    [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
    [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
    [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
];

/// The Damm check digit of a string of decimal digits (non-digits skipped).
pub fn check_digit(digits: &str) -> u32 {
    u32::from(digits.chars().filter_map(|c| c.to_digit(10)).fold(0u8, |interim, d| DAMM[usize::from(interim)][d as usize]))
}

/// Whether a validation number is well formed: 18 digits, its last the
/// Damm check digit of the other 17.
pub fn is_well_formed(validation: &str) -> bool {
    validation.len() == 18 && validation.chars().all(|c| c.is_ascii_digit()) && check_digit(&validation[..17]).to_string() == validation[17..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damm_matches_the_published_example() {
        // Damm's worked example: 572 has check digit 4.
        assert_eq!(check_digit("572"), 4);
        assert_eq!(check_digit("5724"), 0, "a number with its check digit folds to 0");
    }

    /// The two properties that make every single-digit error and every
    /// adjacent transposition detectable, checked for every case: each row
    /// and column is a permutation (a changed digit changes the interim
    /// digit, and later digits never merge two interim digits), and the
    /// table is weakly totally anti-symmetric (a·b and b·a after the same
    /// interim digit never agree).
    #[test]
    fn the_table_detects_every_substitution_and_adjacent_swap() {
        for r in 0..10 {
            let mut row = [false; 10];
            let mut col = [false; 10];
            for c in 0..10 {
                row[usize::from(DAMM[r][c])] = true;
                col[usize::from(DAMM[c][r])] = true;
            }
            assert!(row.iter().all(|&x| x) && col.iter().all(|&x| x), "row or column {r} is not a permutation");
        }
        for s in 0..10 {
            for a in 0..10 {
                for b in 0..10 {
                    if a != b {
                        let ab = DAMM[usize::from(DAMM[s][a])][b];
                        let ba = DAMM[usize::from(DAMM[s][b])][a];
                        assert_ne!(ab, ba, "interim {s}: {a}{b} and {b}{a} agree");
                    }
                }
            }
        }
    }

    #[test]
    fn every_adjacent_swap_of_a_validation_number_is_detected() {
        // Issue 21: Luhn missed 09 <-> 90.
        let body = "12345678909876543";
        let good = format!("{body}{}", check_digit(body));
        let swapped = good.replacen("09", "90", 1);
        assert_ne!(swapped, good);
        assert!(is_well_formed(&good) && !is_well_formed(&swapped));
        for _ in 0..200 {
            let v = new_validation_number().expect("entropy");
            for i in 0..17 {
                let mut bytes = v.clone().into_bytes();
                if bytes[i] == bytes[i + 1] {
                    continue;
                }
                bytes.swap(i, i + 1);
                let swapped = String::from_utf8(bytes).expect("ascii");
                assert!(!is_well_formed(&swapped), "{v} → {swapped} passed");
            }
        }
    }

    #[test]
    fn validation_numbers_are_well_formed_and_distinct() {
        let a = new_validation_number().expect("entropy");
        let b = new_validation_number().expect("entropy");
        assert!(is_well_formed(&a) && is_well_formed(&b));
        assert_ne!(a, b);
    }

    #[test]
    fn every_single_digit_misread_is_detected() {
        let v = new_validation_number().expect("entropy");
        for i in 0..18 {
            for d in b'0'..=b'9' {
                let mut bytes = v.clone().into_bytes();
                if bytes[i] == d {
                    continue;
                }
                bytes[i] = d;
                let misread = String::from_utf8(bytes).expect("ascii");
                assert!(!is_well_formed(&misread), "{misread} passed");
            }
        }
    }
}
