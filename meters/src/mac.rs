//! HMAC-SHA256 with length-prefixed parts, and constant-time comparison of
//! MACs: the one primitive critical memory's records, head and clears use.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// HMAC-SHA256 of the parts, each prefixed by its length so that no two
/// different lists of parts give the same input.
pub(crate) fn mac_of(key: &[u8; 32], parts: &[&[u8]]) -> [u8; 32] {
    // HMAC accepts keys of any length; a 32-byte key cannot fail.
    let mut m = match HmacSha256::new_from_slice(key) {
        Ok(m) => m,
        Err(_) => unreachable!("HMAC-SHA256 takes keys of any length"),
    };
    for p in parts {
        m.update(&(p.len() as u64).to_le_bytes());
        m.update(p);
    }
    m.finalize().into_bytes().into()
}

/// Whether a stored MAC equals the expected one, in time that does not
/// depend on where they differ.
pub(crate) fn same(stored: &[u8], expected: &[u8; 32]) -> bool {
    if stored.len() != expected.len() {
        return false;
    }
    stored.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_delimited_and_comparison_is_exact() {
        let k = [7u8; 32];
        assert_ne!(mac_of(&k, &[b"ab", b"c"]), mac_of(&k, &[b"a", b"bc"]));
        let m = mac_of(&k, &[b"x"]);
        assert!(same(&m, &m));
        let mut other = m;
        other[31] ^= 1;
        assert!(!same(&other, &m));
        assert!(!same(&m[..31], &m));
    }
}
