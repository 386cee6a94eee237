//! How a journal record's body is written and read (C-23; issue 74): one
//! codec, both ways. The store writes every entry with [`encode`] and reads
//! it back with [`decode`], and nothing else turns an [`Entry`] into bytes
//! or bytes into an entry.
//!
//! An entry is JSON, internally tagged by its `kind`. To read such an enum,
//! serde first buffers the whole body into its own generic value, and that
//! value cannot hold everything JSON can: no 128-bit integer ("u128 is not
//! supported") and no map key but a string. A field of either shape encodes
//! without complaint and then never decodes — a journal the machine wrote
//! and cannot boot from (issue 74: the pools' `contributed_micro` carried
//! over by a RAM clear). So every field reachable from an entry is of a
//! shape the buffer holds:
//!
//! - a 128-bit meter is written as its decimal string ([`decimal_u128`]);
//! - a map keyed by numbers is written keyed by their decimal strings, as
//!   JSON writes it anyway, and read back through string keys
//!   ([`pools_of_number_keys`]).
//!
//! The test over every variant (`every_entry`) encodes each with its
//! containers filled and its numbers at their extremes, decodes it with
//! this codec and compares: a variant without a sample, or a field the
//! codec cannot round-trip, fails there, never at a cabinet's boot.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::journal::Entry;

/// The body of a record, as the journal stores it.
pub(crate) fn encode(entry: &Entry) -> Result<String, serde_json::Error> {
    serde_json::to_string(entry)
}

/// The entry a record's body holds.
pub(crate) fn decode(body: &str) -> Result<Entry, serde_json::Error> {
    serde_json::from_str(body)
}

/// A `u128` as its decimal string. Reads the string, and also a plain
/// non-negative JSON integer: the records of versions that wrote the
/// number (it fits in 64 bits on every such record, and reads exactly).
pub(crate) mod decimal_u128 {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(value: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        d.deserialize_any(Decimal)
    }

    struct Decimal;

    impl Visitor<'_> for Decimal {
        type Value = u128;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a non-negative integer below 2^128, as a decimal string")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u128, E> {
            // Digits only: no sign, no spaces, no exponent.
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(E::invalid_value(de::Unexpected::Str(v), &self));
            }
            v.parse().map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u128, E> {
            Ok(u128::from(v))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u128, E> {
            u128::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }
    }
}

/// A map keyed by `u64`, written with its keys as decimal strings.
mod number_keys {
    use super::*;

    pub(super) fn serialize<V: Serialize, S: Serializer>(map: &BTreeMap<u64, V>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k.to_string(), v)))
    }

    /// The map back from its string keys: each the decimal form of a u64,
    /// exactly (no sign, no leading zero).
    pub(super) fn parse_keys<V, E: de::Error>(by_string: BTreeMap<String, V>) -> Result<BTreeMap<u64, V>, E> {
        by_string
            .into_iter()
            .map(|(k, v)| match k.parse::<u64>() {
                Ok(n) if n.to_string() == k => Ok((n, v)),
                _ => Err(E::invalid_value(de::Unexpected::Str(&k), &"a map key that is a decimal u64")),
            })
            .collect()
    }
}

/// Maps by pool of maps keyed by `u64` (the linked outbox: round → wager).
pub(crate) mod pools_of_number_keys {
    use super::*;

    struct Keyed<'a, V>(&'a BTreeMap<u64, V>);

    impl<V: Serialize> Serialize for Keyed<'_, V> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            number_keys::serialize(self.0, s)
        }
    }

    pub(crate) fn serialize<V: Serialize, S: Serializer>(map: &BTreeMap<String, BTreeMap<u64, V>>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k, Keyed(v))))
    }

    pub(crate) fn deserialize<'de, V: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, BTreeMap<u64, V>>, D::Error> {
        BTreeMap::<String, BTreeMap<String, V>>::deserialize(d)?.into_iter().map(|(pool, inner)| number_keys::parse_keys(inner).map(|m| (pool, m))).collect()
    }
}

#[cfg(test)]
mod every_entry;
