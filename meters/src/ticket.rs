//! Coded tickets (bilhetes codificados, M-12, M-25 f/g; certification.md F-45).
//!
//! A validation number has 18 digits: 17 drawn from a ChaCha20 stream keyed
//! by fresh OS entropy (never the game stream, and unpredictable from earlier
//! tickets), then a Luhn check digit, so a single misread digit or a swap of
//! two neighbours is always detected.

use serde::{Deserialize, Serialize};

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
    Ok(format!("{digits}{}", luhn_digit(&digits)))
}

/// The Luhn check digit for a string of decimal digits.
pub fn luhn_digit(digits: &str) -> u32 {
    let sum: u32 = digits
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 0 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    (10 - sum % 10) % 10
}

/// Whether a validation number is well formed: 18 digits, Luhn-valid.
pub fn is_well_formed(validation: &str) -> bool {
    validation.len() == 18 && validation.chars().all(|c| c.is_ascii_digit()) && luhn_digit(&validation[..17]).to_string() == validation[17..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luhn_matches_the_published_example() {
        // The classic worked example: 7992739871 has check digit 3.
        assert_eq!(luhn_digit("7992739871"), 3);
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
