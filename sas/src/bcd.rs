//! Packed BCD (sas.md §4): most significant digit first, two digits a
//! byte. A meter wider than its field goes modulo 10^(2 × bytes) [R: the
//! digest's reading of the licensed text]; the cabinet keeps `u64` meters
//! (C-21), the field is what rolls over.

/// `value` in `bytes` bytes of packed BCD, modulo 10^(2 × bytes).
pub fn encode(value: u64, bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes];
    let mut v = value;
    for b in out.iter_mut().rev() {
        let lo = (v % 10) as u8;
        v /= 10;
        let hi = (v % 10) as u8;
        v /= 10;
        *b = (hi << 4) | lo;
    }
    out
}

/// A BCD field that holds a nibble over 9.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("byte {index} of a BCD field is {byte:#04x}: a digit over 9")]
pub struct NotBcd {
    pub index: usize,
    pub byte: u8,
}

/// The value of a packed BCD field (at most 19 digits fit a `u64`).
pub fn decode(field: &[u8]) -> Result<u64, NotBcd> {
    let mut v: u64 = 0;
    for (index, &byte) in field.iter().enumerate() {
        let (hi, lo) = (byte >> 4, byte & 0x0F);
        if hi > 9 || lo > 9 {
            return Err(NotBcd { index, byte });
        }
        v = v.wrapping_mul(100).wrapping_add(u64::from(hi) * 10 + u64::from(lo));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meters_and_amounts_go_most_significant_digit_first() {
        // sas.md §2: the reply to LP 1A for 1,250 credits.
        assert_eq!(encode(1_250, 4), [0x00, 0x00, 0x12, 0x50]);
        // LP 80's $1,234.56 in 5 bytes of cents.
        assert_eq!(encode(123_456, 5), [0x00, 0x00, 0x12, 0x34, 0x56]);
        assert_eq!(encode(0, 2), [0, 0]);
        // A 4-byte field rolls over at 10^8.
        assert_eq!(encode(123_456_789, 4), [0x23, 0x45, 0x67, 0x89]);
        assert_eq!(decode(&[0x00, 0x00, 0x12, 0x50]), Ok(1_250));
        assert_eq!(decode(&[0x12, 0x3A]), Err(NotBcd { index: 1, byte: 0x3A }));
        for v in [0u64, 7, 99, 100, 9_999_999, 99_999_999, 1_000_000_000, u64::MAX / 10] {
            let field = encode(v, 10);
            assert_eq!(decode(&field), Ok(v), "{v}");
        }
    }
}
