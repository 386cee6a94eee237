//! A lost machine key (issue 21): the TPM was cleared or replaced, or the
//! stand-in's key file is gone, so the key store's key verifies nothing in
//! critical memory. The files may as well be another machine's: the two
//! cannot be told apart, and both are a RAM error that says so.
//!
//! The only way out is the authenticated RAM clear that records "key lost"
//! (`Machine::ram_clear_key_lost`). This module tells a lost key from a
//! damaged journal (a key that verifies anything in the file is not lost:
//! the ordinary clear is the cure), reads what the journal says without
//! being able to verify it, and archives the file aside for the lab.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension};

use super::{KEY_LABEL, StoreError, clear_mac, copies, credential_mac, credential_row, head_row, head_tag, ram_clears, record_mac, to32};
use crate::credential::OperatorCredential;
use crate::journal::Entry;
use crate::keystore::{KeyStore, KeyStoreError};
use crate::mac::same;

/// What the key store's key makes of critical memory.
pub(crate) enum KeyCheck {
    /// Nothing was ever written: there is nothing to verify or clear.
    Empty,
    /// The key verifies at least one record: the key is the machine's.
    Verifies,
    /// The key verifies nothing at all, and the key store keeps no key of
    /// its own to tell a lost key from foreign files (the file stand-in),
    /// or it holds no key any more (a TPM cleared or replaced).
    Lost(LostKey),
    /// The TPM holds this cabinet's key and it verifies nothing: the files
    /// are another machine's or forged, not a lost key (issue 34, hole 6).
    Foreign(LostKey),
}

/// Critical memory whose key is lost, as far as it can be read.
pub(crate) struct LostKey {
    /// Why the key is taken for lost: what the clear records.
    pub(crate) detail: String,
    /// The journal's entries as they read, unverified, in order.
    pub(crate) entries: Vec<Entry>,
    /// Journal rows whose body did not decode.
    pub(crate) undecodable: u64,
    /// The machine's own credential as the file holds it (its MAC can no
    /// longer be checked).
    pub(crate) credential: Option<OperatorCredential>,
}

/// Examine critical memory at `path` (and its second copy) under the key
/// store's key. Every MAC is checked on its own, against the MAC stored
/// before it, so one edited record does not make a lost key: the key is
/// lost only when it verifies no RAM clear record, no journal record, no
/// head and no credential record in either copy.
pub(crate) fn examine(path: &Path, second: Option<&Path>, keys: &mut dyn KeyStore) -> Result<KeyCheck, StoreError> {
    let copies = open_copies(path, second)?;
    let mut written = None;
    for conn in &copies {
        if written.is_none() && !super::is_virgin(conn)? {
            written = Some(conn);
        }
    }
    let Some(first) = written else { return Ok(KeyCheck::Empty) };
    let mut foreign = false;
    let detail = match keys.derive_key(KEY_LABEL) {
        // A TPM that does not answer has not lost its key (hole 10), nor
        // has one that refuses it in another measured state (hole 2), or
        // in a boot that measured nothing (issue 47, hole 1).
        // Nor one that is not the platform's certified TPM (issue 68,
        // attack 3).
        Err(
            e @ (KeyStoreError::Unreachable { .. }
            | KeyStoreError::Tpm { .. }
            | KeyStoreError::Refused { .. }
            | KeyStoreError::Unmeasured { .. }
            | KeyStoreError::NotEndorsed { .. }),
        ) => {
            return Err(e.into());
        }
        Err(e) => format!("the key store holds no key ({e})"),
        Ok(key) => {
            let mut checked = 0;
            for conn in &copies {
                let (n, verified) = count_verified(conn, &key)?;
                if verified > 0 {
                    return Ok(KeyCheck::Verifies);
                }
                checked += n;
            }
            foreign = keys.keeps_operator();
            if foreign {
                format!(
                    "none of the {checked} MACs in critical memory verifies under this cabinet's TPM key, which the TPM still holds: the files are another machine's or forged"
                )
            } else {
                format!(
                    "none of the {checked} MACs in critical memory verifies under the key store's key: the key was lost (a TPM cleared or replaced) or the files are another machine's"
                )
            }
        }
    };
    let (entries, undecodable) = read_unverified(first)?;
    let credential = first
        .query_row("SELECT operator_id, pin_argon2 FROM credential WHERE id = 1", [], |r| {
            Ok(OperatorCredential { operator_id: r.get(0)?, pin_argon2: r.get(1)? })
        })
        .optional()?;
    let lost = LostKey { detail, entries, undecodable, credential };
    Ok(if foreign { KeyCheck::Foreign(lost) } else { KeyCheck::Lost(lost) })
}

/// Both copies of critical memory that exist, opened read-only.
fn open_copies(path: &Path, second: Option<&Path>) -> Result<Vec<Connection>, StoreError> {
    Ok([Some(path), second]
        .into_iter()
        .flatten()
        .filter(|p| p.exists())
        .map(|p| Connection::open_with_flags(p, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY))
        .collect::<Result<_, _>>()?)
}

/// How many MACs one copy holds, and how many of them `key` verifies.
fn count_verified(conn: &Connection, key: &[u8; 32]) -> Result<(u64, u64), StoreError> {
    let (mut checked, mut verified) = (0u64, 0u64);
    let mut tally = |ok: bool| {
        checked += 1;
        verified += u64::from(ok);
    };
    let mut stmt = conn.prepare("SELECT mac FROM ram_clears ORDER BY n")?;
    let macs: Vec<Vec<u8>> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
    let clears = ram_clears(conn)?;
    let epoch = clears.len() as u64;
    let mut prev = [0u8; 32];
    for (c, mac) in clears.iter().zip(macs) {
        tally(same(&mac, &clear_mac(key, c, &prev)));
        prev = to32(&mac);
    }
    let mut stmt = conn.prepare("SELECT seq, at_utc, kind, round_id, body, mac FROM journal ORDER BY seq")?;
    let mut rows = stmt.query([])?;
    let mut prev = [0u8; 32];
    while let Some(row) = rows.next()? {
        let (seq, at, kind, round, body, mac): (i64, String, String, Option<i64>, String, Vec<u8>) =
            (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?);
        tally(same(&mac, &record_mac(key, epoch, seq as u64, &prev, &at, &kind, round.map(|r| r as u64), &body)));
        prev = to32(&mac);
    }
    // The head and the credential read as the store reads them; a row
    // that cannot even be read back counts as a MAC that does not verify.
    match head_row(conn) {
        Ok(Some((h, tag))) => tally(same(&tag, &head_tag(key, &h))),
        Ok(None) => {}
        Err(StoreError::Integrity(_)) => tally(false),
        Err(e) => return Err(e),
    }
    match credential_row(conn) {
        Ok(Some((record, mac))) => tally(same(&mac, &credential_mac(key, &record))),
        Ok(None) => {}
        Err(StoreError::Integrity(_)) => tally(false),
        Err(e) => return Err(e),
    }
    Ok((checked, verified))
}

/// The journal's entries as they read, without verification.
fn read_unverified(conn: &Connection) -> Result<(Vec<Entry>, u64), StoreError> {
    let mut stmt = conn.prepare("SELECT body FROM journal ORDER BY seq")?;
    let bodies: Vec<String> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
    let mut entries = Vec::with_capacity(bodies.len());
    let mut undecodable = 0;
    for body in bodies {
        match crate::wire::decode(&body) {
            Ok(e) => entries.push(e),
            Err(_) => undecodable += 1,
        }
    }
    Ok((entries, undecodable))
}

/// Archive critical memory of a lost key as `<db>.key-lost-<stamp>` (a
/// consistent copy, `VACUUM INTO`), then remove both copies: the machine
/// starts anew under its key store's key. Returns the archive's path.
pub(crate) fn archive(path: &Path, second: Option<&Path>, stamp: &str) -> Result<PathBuf, StoreError> {
    archive_as(path, second, "key-lost", stamp, true)
}

/// Keep critical memory as evidence, `<db>.<label>-<stamp>[-n]` (a consistent
/// copy of the first copy that exists, `VACUUM INTO`); with `remove`, both
/// copies are then removed. Returns the archive's path.
pub(crate) fn archive_as(path: &Path, second: Option<&Path>, label: &str, stamp: &str, remove: bool) -> Result<PathBuf, StoreError> {
    let source = [Some(path), second].into_iter().flatten().find(|p| p.exists()).unwrap_or(path);
    // Evidence is never overwritten: a second archive in the same second
    // (two clears in a row) takes the next free suffix (issue 74).
    let base = format!("{}.{label}-{stamp}", path.display());
    let archive = std::iter::once(PathBuf::from(&base))
        .chain((2u32..).map(|n| PathBuf::from(format!("{base}-{n}"))))
        .find(|p| !p.exists())
        .unwrap_or_else(|| PathBuf::from(&base));
    {
        let conn = Connection::open_with_flags(source, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        conn.execute("VACUUM INTO ?1", [archive.display().to_string()])?;
    }
    std::fs::File::open(&archive)?.sync_all()?;
    if remove {
        copies::remove_database(path)?;
        if let Some(s) = second {
            copies::remove_database(s)?;
        }
    }
    Ok(archive)
}

/// Critical memory whose copies are both damaged, read under the
/// machine's own key (issue 34, hole 7): what the journal says, unverified,
/// and the operator credential from a copy whose record the key verifies.
pub(crate) struct Damaged {
    pub(crate) entries: Vec<Entry>,
    pub(crate) undecodable: u64,
    /// The machine's credential, its MAC verified; `None` when no copy
    /// holds a record the key verifies.
    pub(crate) credential: Option<OperatorCredential>,
}

/// Read damaged critical memory (see [`Damaged`]); `None` when the key
/// verifies nothing in it (a lost key: that clear is another).
pub(crate) fn read_damaged(path: &Path, second: Option<&Path>, key: &[u8; 32]) -> Result<Option<Damaged>, StoreError> {
    let copies = open_copies(path, second)?;
    let mut verified = 0;
    let mut credential = None;
    let mut first = None;
    for conn in &copies {
        verified += count_verified(conn, key)?.1;
        if credential.is_none()
            && let Ok(Some((record, mac))) = credential_row(conn)
            && same(&mac, &credential_mac(key, &record))
        {
            credential = Some(record.credential);
        }
        if first.is_none() && !super::is_virgin(conn)? {
            first = Some(conn);
        }
    }
    let Some(first) = first else { return Ok(None) };
    if verified == 0 {
        return Ok(None);
    }
    let (entries, undecodable) = read_unverified(first)?;
    Ok(Some(Damaged { entries, undecodable, credential }))
}
