//! CRC-16/KERMIT (sas.md §2): width 16, polynomial 0x1021 reflected,
//! initial value 0, reflected in and out, no final XOR. It covers every
//! byte of a frame from the address to the last data byte and goes on the
//! wire low byte first, so the CRC over a whole frame, its CRC included,
//! is zero: the receive check.

use crc::{CRC_16_KERMIT, Crc};

const KERMIT: Crc<u16> = Crc::<u16>::new(&CRC_16_KERMIT);

/// The CRC of `bytes`.
pub fn crc(bytes: &[u8]) -> u16 {
    KERMIT.checksum(bytes)
}

/// The CRC of `bytes` from the register `seed` (LP 21's ROM signature:
/// each image's result seeds the next). The `crc` crate takes the initial
/// register unreflected, so the seed is reversed (sas.md §2: 0x1234 over
/// "123456789" gives 0x46D6).
pub fn seeded(seed: u16, bytes: &[u8]) -> u16 {
    let mut digest = KERMIT.digest_with_initial(seed.reverse_bits());
    digest.update(bytes);
    digest.finalize()
}

/// `bytes` with their CRC appended, low byte first.
pub fn sealed(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out.extend_from_slice(&crc(bytes).to_le_bytes());
    out
}

/// Whether a whole frame (its CRC included) checks.
pub fn checks(frame: &[u8]) -> bool {
    frame.len() >= 2 && crc(frame) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent bitwise CRC (sas.md §2's description), to check the
    /// crate's tables against.
    fn bitwise(seed: u16, bytes: &[u8]) -> u16 {
        let mut r = seed;
        for b in bytes {
            r ^= u16::from(*b);
            for _ in 0..8 {
                r = if r & 1 == 1 { (r >> 1) ^ 0x8408 } else { r >> 1 };
            }
        }
        r
    }

    /// The spec's nibble form, a third computation.
    fn nibbles(seed: u16, bytes: &[u8]) -> u16 {
        let mut r = seed;
        for b in bytes {
            for n in [u16::from(*b) & 0xF, u16::from(*b) >> 4] {
                let q = (r ^ n) & 0xF;
                r = (r >> 4) ^ (q * 0x1081);
            }
        }
        r
    }

    #[test]
    fn the_check_value_and_the_worked_frames_of_the_digest() {
        assert_eq!(crc(b"123456789"), 0x2189);
        // sas.md §2's worked examples, as they go on the wire.
        let frames: [(&[u8], u16, &[u8]); 4] = [
            (&[0x01, 0x2F, 0x05, 0x00, 0x00, 0x00, 0x01, 0x05], 0xA13A, &[0x01, 0x2F, 0x05, 0x00, 0x00, 0x00, 0x01, 0x05, 0x3A, 0xA1]),
            (&[0x01, 0x1A, 0x00, 0x00, 0x12, 0x50], 0x0867, &[0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]),
            (&[0x00, 0x80, 0x01, 0x01, 0x00, 0x00, 0x12, 0x34, 0x56], 0x8640, &[0x00, 0x80, 0x01, 0x01, 0x00, 0x00, 0x12, 0x34, 0x56, 0x40, 0x86]),
            (&[0x01, 0x21, 0x34, 0x12], 0xA70D, &[0x01, 0x21, 0x34, 0x12, 0x0D, 0xA7]),
        ];
        for (body, want, wire) in frames {
            assert_eq!(crc(body), want);
            assert_eq!(bitwise(0, body), want);
            assert_eq!(nibbles(0, body), want);
            assert_eq!(sealed(body), wire);
            assert!(checks(wire));
        }
        // One flipped CRC bit: residue 0x19D8, a NACK.
        let mut bad = sealed(&[0x01, 0x1A, 0x00, 0x00, 0x12, 0x50]);
        bad[6] ^= 0x01;
        assert_eq!(crc(&bad), 0x19D8);
        assert!(!checks(&bad));
    }

    #[test]
    fn a_seeded_crc_chains_as_the_rom_signature_does() {
        assert_eq!(seeded(0x1234, b"123456789"), 0x46D6);
        assert_eq!(bitwise(0x1234, b"123456789"), 0x46D6);
        let a = seeded(0x1234, b"IMAGE-A");
        assert_eq!(a, 0x3616);
        assert_eq!(seeded(a, b"IMAGE-B"), 0xC579);
        assert_eq!(seeded(0x1234, b"IMAGE-AIMAGE-B"), 0xC579);
        // Every seed and many inputs agree with the bitwise form.
        for seed in [0u16, 1, 0x8000, 0xFFFF, 0x1234] {
            for len in 0..40u8 {
                let bytes: Vec<u8> = (0..len).map(|i| i.wrapping_mul(37).wrapping_add(seed as u8)).collect();
                assert_eq!(seeded(seed, &bytes), bitwise(seed, &bytes));
            }
        }
    }
}
