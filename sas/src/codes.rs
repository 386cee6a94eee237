//! The code tables SAS puts in its frames for money values: the
//! denomination codes of LP 1F / B0–B2 and the bill codes of LP 48 and
//! of the bill meters (sas.md §4–§5). The values are the SAS tables as
//! recalled [R: check against the licensed specification's tables C-4 and
//! C-5 before a floor goes live]; a value with no code has none (00 / not
//! reported).

/// (code, cents) of SAS's denomination table.
const DENOMINATIONS: [(u8, u64); 23] = [
    (0x01, 1),
    (0x17, 2),
    (0x18, 3),
    (0x02, 5),
    (0x03, 10),
    (0x19, 15),
    (0x0B, 20),
    (0x04, 25),
    (0x1A, 40),
    (0x05, 50),
    (0x06, 100),
    (0x0C, 200),
    (0x0D, 250),
    (0x07, 500),
    (0x08, 1_000),
    (0x09, 2_000),
    (0x0E, 2_500),
    (0x0F, 5_000),
    (0x0A, 10_000),
    (0x10, 20_000),
    (0x11, 25_000),
    (0x12, 50_000),
    (0x13, 100_000),
];

/// The denomination code of `cents`, 00 where SAS has none.
pub fn denomination_code(cents: u64) -> u8 {
    DENOMINATIONS.iter().find(|(_, c)| *c == cents).map_or(0, |(code, _)| *code)
}

/// The cents of a denomination code.
pub fn denomination_cents(code: u8) -> Option<u64> {
    DENOMINATIONS.iter().find(|(c, _)| *c == code).map(|(_, cents)| *cents)
}

/// (meter code of its count in LP 2F / 6F, single-bill LP, bill code of
/// LP 48, cents) of every note SAS counts.
const BILLS: [(u8, Option<u8>, u8, u64); 12] = [
    (0x40, Some(0x31), 0x00, 100),
    (0x41, Some(0x32), 0x01, 200),
    (0x42, Some(0x33), 0x02, 500),
    (0x43, Some(0x34), 0x03, 1_000),
    (0x44, Some(0x35), 0x04, 2_000),
    (0x45, Some(0x3B), 0x05, 2_500),
    (0x46, Some(0x36), 0x06, 5_000),
    (0x47, Some(0x37), 0x07, 10_000),
    (0x48, Some(0x3A), 0x08, 20_000),
    (0x49, Some(0x45), 0x09, 25_000),
    (0x4A, Some(0x38), 0x0A, 50_000),
    (0x4B, Some(0x39), 0x0B, 100_000),
];

/// LP 08's bill denominations, bit by bit from the first byte's least
/// significant bit, in cents of the cabinet's currency [R: the order of
/// SAS's LP 08 table as recalled: 1, 2, 5, 10, 20, 25, 50, 100, then 200
/// up to 1,000,000].
const BILL_BITS: [u64; 24] = [
    100,
    200,
    500,
    1_000,
    2_000,
    2_500,
    5_000,
    10_000,
    20_000,
    25_000,
    50_000,
    100_000,
    200_000,
    250_000,
    500_000,
    1_000_000,
    2_000_000,
    2_500_000,
    5_000_000,
    10_000_000,
    20_000_000,
    25_000_000,
    50_000_000,
    100_000_000,
];

/// The note values LP 08's four bytes enable (the fourth is reserved).
pub fn bills_enabled(mask: [u8; 4]) -> Vec<u64> {
    let bits = u32::from_le_bytes(mask);
    BILL_BITS.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, cents)| *cents).collect()
}

/// LP 08's mask for these note values (a value SAS has no bit for is
/// left out).
pub fn bills_mask(cents: &[u64]) -> [u8; 4] {
    let bits = BILL_BITS.iter().enumerate().filter(|(_, c)| cents.contains(c)).fold(0u32, |m, (i, _)| m | (1 << i));
    bits.to_le_bytes()
}

/// The note value a bill-count meter code (40–4B) counts.
pub fn bill_of_meter(code: u16) -> Option<u64> {
    BILLS.iter().find(|b| u16::from(b.0) == code).map(|b| b.3)
}

/// The note value a single-bill long poll (31–45) counts.
pub fn bill_of_long_poll(command: u8) -> Option<u64> {
    BILLS.iter().find(|b| b.1 == Some(command)).map(|b| b.3)
}

/// LP 48's bill code of a note value.
pub fn bill_code(cents: u64) -> Option<u8> {
    BILLS.iter().find(|b| b.3 == cents).map(|b| b.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_one_value_both_ways() {
        for (code, cents) in DENOMINATIONS {
            assert_eq!(denomination_code(cents), code);
            assert_eq!(denomination_cents(code), Some(cents));
        }
        assert_eq!(denomination_code(7), 0, "no code: 00");
        let mut codes: Vec<u8> = DENOMINATIONS.iter().map(|d| d.0).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), DENOMINATIONS.len());
        let euros = [500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];
        assert_eq!(bills_mask(&euros), [0b1101_1100, 0b0000_0101, 0, 0], "5, 10, 20, 50 | 100 | 200, 500");
        assert_eq!(bills_enabled(bills_mask(&euros)), euros);
        assert_eq!(bills_enabled([0xFF, 0xFF, 0xFF, 0xFF]).len(), 24, "the reserved byte names nothing");
        for (meter, lp, code, cents) in BILLS {
            assert_eq!(bill_of_meter(u16::from(meter)), Some(cents));
            assert_eq!(lp.and_then(bill_of_long_poll), Some(cents));
            assert_eq!(bill_code(cents), Some(code));
        }
    }
}
