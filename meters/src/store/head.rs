//! The head: the journal's end (the last record's sequence number and MAC)
//! and the anchor it is bound to, under the machine key's MAC, rewritten
//! in every transaction; and the anchor's chain (issue 68, attack 1): each
//! link derived from the mark before it and the journal's end it anchors.

use rusqlite::{Connection, OptionalExtension, params};

use super::{IntegrityError, StoreError, to32};
use crate::keystore::AnchorMark;
use crate::mac::{mac_of, same};

/// Where the head stands in the anchor protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// The counter stands at the head's anchor.
    None,
    /// The head is bound to the anchor value the counter is being advanced
    /// to: the counter stands one below it until the increment is made.
    Advance,
    /// A new machine's first records: the counter is being written for the
    /// first time (its first value is the TPM's, not known before).
    Genesis,
}

impl Pending {
    pub(super) fn code(self) -> i64 {
        match self {
            Pending::None => 0,
            Pending::Advance => 1,
            Pending::Genesis => 2,
        }
    }

    pub(super) fn from_code(c: i64) -> Option<Pending> {
        match c {
            0 => Some(Pending::None),
            1 => Some(Pending::Advance),
            2 => Some(Pending::Genesis),
            _ => None,
        }
    }
}

/// The anchor the head is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Anchor {
    pub(crate) value: u64,
    pub(crate) pending: Pending,
    /// The chain digest the key store's anchor holds at `value` (pending:
    /// the one being written there).
    pub(crate) chain: [u8; 32],
    /// A pending advance's starting chain: the anchor reads `value − 1`
    /// and this until the write is made.
    pub(crate) previous: [u8; 32],
}

impl Anchor {
    /// What the key store's anchor holds once this anchor is confirmed.
    pub(crate) fn mark(&self) -> AnchorMark {
        AnchorMark { value: self.value, chain: self.chain }
    }

    /// What the key store's anchor reads before this anchor's write: the
    /// mark it advances from, `None` for a genesis (never written).
    pub(crate) fn before(&self) -> Option<AnchorMark> {
        match self.pending {
            Pending::None => Some(self.mark()),
            Pending::Advance => self.value.checked_sub(1).map(|value| AnchorMark { value, chain: self.previous }),
            Pending::Genesis => None,
        }
    }
}

/// What a write does to the head's anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AnchorStep {
    /// The head stays bound to its anchor.
    Keep,
    /// Bind the head, pending, to the next link after its confirmed anchor,
    /// derived from the records this write appends.
    Begin,
    /// Bind the head, pending, to a new machine's first link.
    Genesis,
    /// The key store's anchor now holds `mark`, the pending link: the head
    /// is no longer pending.
    Confirmed(AnchorMark),
}

/// The link after `from` (`None`: the first), for the journal's end
/// `(epoch, seq, end)` (the last record's MAC, or a RAM clear's record):
/// under the machine key, so no one without it can name a link, and
/// different for every branch of history (issue 68, attack 1).
pub(super) fn link(key: &[u8; 32], from: Option<AnchorMark>, value: u64, epoch: u64, seq: u64, end: &[u8; 32]) -> [u8; 32] {
    let from = from.map_or([0u8; AnchorMark::LEN], AnchorMark::to_bytes);
    mac_of(key, &[b"egm anchor chain v1", &from, &value.to_le_bytes(), &epoch.to_le_bytes(), &seq.to_le_bytes(), end])
}

/// The pending anchor after `from` (`None`: a genesis, at 1).
pub(super) fn pending_after(key: &[u8; 32], from: Option<AnchorMark>, epoch: u64, seq: u64, end: &[u8; 32]) -> Result<Anchor, StoreError> {
    let (value, pending, previous) = match from {
        Some(m) => (m.value.checked_add(1).ok_or_else(|| StoreError::Io(std::io::Error::other("the anchor's count is exhausted")))?, Pending::Advance, m.chain),
        None => (1, Pending::Genesis, [0; 32]),
    };
    Ok(Anchor { value, pending, chain: link(key, from, value, epoch, seq, end), previous })
}

/// The journal's end: the last record's sequence number and MAC, and the
/// anchor the journal is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Head {
    pub(super) epoch: u64,
    pub(super) seq: u64,
    pub(super) mac: [u8; 32],
    pub(super) anchor: Anchor,
}

pub(super) const UNANCHORED: Anchor = Anchor { value: 0, pending: Pending::None, chain: [0; 32], previous: [0; 32] };

pub(super) fn head_tag(key: &[u8; 32], h: &Head) -> [u8; 32] {
    mac_of(
        key,
        &[
            b"egm head v3",
            &h.epoch.to_le_bytes(),
            &h.seq.to_le_bytes(),
            &h.mac,
            &h.anchor.value.to_le_bytes(),
            &h.anchor.pending.code().to_le_bytes(),
            &h.anchor.chain,
            &h.anchor.previous,
        ],
    )
}

/// The head row as stored, with its tag, not verified; an anchor state no
/// build writes is an integrity error.
pub(super) fn head_row(conn: &Connection) -> Result<Option<(Head, Vec<u8>)>, StoreError> {
    type Row = (i64, i64, Vec<u8>, i64, i64, Vec<u8>, Vec<u8>, Vec<u8>);
    let row: Option<Row> = conn
        .query_row("SELECT epoch, seq, mac, anchor, pending, chain, previous, tag FROM head WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?))
        })
        .optional()?;
    let Some((epoch, seq, mac, anchor, pending, chain, previous, tag)) = row else { return Ok(None) };
    let pending = Pending::from_code(pending).ok_or_else(|| IntegrityError::Head { detail: format!("unknown anchor state {pending}") })?;
    let anchor = Anchor { value: anchor as u64, pending, chain: to32(&chain), previous: to32(&previous) };
    Ok(Some((Head { epoch: epoch as u64, seq: seq as u64, mac: to32(&mac), anchor }, tag)))
}

/// The head row on disk, verified against its tag and against the end of
/// the journal (`expected`, whose anchor is not compared): returns the
/// anchor it names.
pub(super) fn check_head_row(conn: &Connection, key: &[u8; 32], expected: &Head) -> Result<Anchor, StoreError> {
    match head_row(conn)? {
        None if expected.seq == 0 => Ok(UNANCHORED),
        None => Err(IntegrityError::Head { detail: "head record missing".into() }.into()),
        Some((stored, tag)) => {
            if !same(&tag, &head_tag(key, &stored)) {
                return Err(IntegrityError::Head { detail: "head MAC mismatch".into() }.into());
            }
            if (stored.epoch, stored.seq, stored.mac) != (expected.epoch, expected.seq, expected.mac) {
                return Err(IntegrityError::Head {
                    detail: format!("head names record {} of epoch {}, the journal ends at record {}", stored.seq, stored.epoch, expected.seq),
                }
                .into());
            }
            Ok(stored.anchor)
        }
    }
}

pub(super) fn write_head(tx: &rusqlite::Transaction<'_>, key: &[u8; 32], head: &Head) -> Result<(), StoreError> {
    let tag = head_tag(key, head);
    tx.execute(
        "INSERT INTO head (id, epoch, seq, mac, anchor, pending, chain, previous, tag) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT(id) DO UPDATE SET epoch = ?1, seq = ?2, mac = ?3, anchor = ?4, pending = ?5, chain = ?6, previous = ?7, tag = ?8",
        params![
            head.epoch as i64,
            head.seq as i64,
            head.mac.as_slice(),
            head.anchor.value as i64,
            head.anchor.pending.code(),
            head.anchor.chain.as_slice(),
            head.anchor.previous.as_slice(),
            tag.as_slice()
        ],
    )?;
    Ok(())
}
