//! SAS secure-enhanced validation numbers (sas.md §6; issue 48).
//!
//! The floor's system sets this machine's validation ID and a sequence
//! number (LP 4C, kept in critical memory); before each ticket the
//! sequence is incremented and the ticket's 18-digit number derived from
//! the two, so the floor can recompute it: system ID 00, then two 8-digit
//! halves, each from CRC-16/KERMIT over bytes of the ID and sequence, the
//! leading digit of each half carrying a check (the sum of the half's
//! digits modulo 5, shifted left one bit). The layout is the one public
//! descriptions of SAS give; the test's vectors come from an independent
//! implementation [R: check against the licensed text before a floor
//! goes live].

/// The largest validation ID or sequence number (3 bytes).
pub const MAX: u32 = 0x00FF_FFFF;

const KERMIT: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_KERMIT);

/// The number of the ticket printed with `sequence` (already incremented)
/// under validation ID `id`; both 24 bits (higher bits ignored).
pub fn secure_enhanced_number(id: u32, sequence: u32) -> String {
    let [s0, s1, s2, _] = sequence.to_le_bytes();
    let [i0, i1, i2, _] = id.to_le_bytes();
    // The sequence's low bytes as they are, the rest folded over them.
    let pairs = [[s0, s1], [s2 ^ s0, i0 ^ s1], [i1 ^ s0, i2 ^ s1]];
    let mut c = [0u8; 6];
    for (k, pair) in pairs.iter().enumerate() {
        let [lo, hi] = KERMIT.checksum(pair).to_le_bytes();
        c[2 * k] = lo;
        c[2 * k + 1] = hi;
    }
    let first = u32::from_le_bytes([c[3], c[4], c[5], 0]);
    let second = u32::from_le_bytes([c[0], c[1], c[2], 0]);
    format!("00{}{}", checked_half(first), checked_half(second))
}

/// An 8-digit half: its leading digit (0 or 1: the half is under 2^24)
/// also carries the sum of the half's digits modulo 5, times two.
fn checked_half(value: u32) -> String {
    let digits: Vec<u32> = format!("{value:08}").chars().filter_map(|c| c.to_digit(10)).collect();
    let check = digits.iter().sum::<u32>() % 5;
    let lead = digits.first().copied().unwrap_or(0) | (check << 1);
    let rest: String = digits.iter().skip(1).map(u32::to_string).collect();
    format!("{lead}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors computed with an independent, public implementation of the
    /// algorithm (Python, outside this repository), ID and sequence in hex.
    #[test]
    fn numbers_equal_an_independent_implementation() {
        for (id, sequence, number) in [
            (0x00_0001, 0x00_0001, "000169370485315032"),
            (0x12_3456, 0x00_0001, "007648465487018968"),
            (0x12_3456, 0x00_0002, "003375462860209840"),
            (0xAB_CDEF, 0x00_0100, "002737332627344521"),
            (0xFF_FFFF, 0xFF_FFFF, "000000000080061624"),
            (0x00_0001, 0x00_0000, "006000001728978432"),
            (0x00_002A, 0x00_0007, "006504851525262600"),
            (0x01_0203, 0x04_0506, "004218018208782717"),
        ] {
            assert_eq!(secure_enhanced_number(id, sequence), number, "ID {id:06X}, sequence {sequence:06X}");
        }
    }

    #[test]
    fn every_number_is_18_digits_opening_with_system_id_00() {
        for sequence in 0..2_000 {
            let n = secure_enhanced_number(0x00_BEEF, sequence);
            assert!(n.len() == 18 && n.starts_with("00") && n.bytes().all(|b| b.is_ascii_digit()), "{n}");
        }
    }
}
