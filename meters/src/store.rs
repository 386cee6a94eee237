//! Critical memory: the journal in a real SQLite file (certification.md §D).
//!
//! * WAL with `synchronous=FULL`: a committed transaction survives a power cut.
//! * Every row carries `HMAC-SHA256(key, epoch ‖ seq ‖ previous MAC ‖ time ‖
//!   kind ‖ round ‖ body)`, chaining each record to the one before: an edited,
//!   removed, inserted or reordered row breaks the chain. A `head` row, itself
//!   MAC'd and rewritten in every transaction, anchors the end, so removing
//!   the newest rows is detected too.
//! * The key comes from the cabinet's key store ([`crate::keystore`]): a
//!   TPM derives it and it is held in memory only (a file stand-in exists
//!   for development and labs). Without it no MAC can be forged.
//! * The head also names the **anchor**: the mark (count and chain digest)
//!   the key store's anchor holds for this journal, and whether an advance
//!   of it is pending (the anchor protocol is the machine's, see
//!   `Machine::anchor`). Each link of the chain is derived here, under the
//!   machine key, from the mark before it and the journal's end it anchors
//!   ([`link`]; issue 68, attack 1): a copy of the file restored from
//!   before the last anchor names an older mark and is refused, and a copy
//!   from another branch of history names a chain the key store never
//!   held.
//! * A RAM clear ([`Store::ram_clear`]) keeps its own chained record in
//!   `ram_clears`, with the meters before it, and archives the cleared
//!   journal: the record of the clear survives the clear (D-32).

mod copies;
mod head;
pub(crate) mod key_lost;
pub(crate) mod media;
mod nvram;

pub(crate) use head::{Anchor, AnchorStep, Pending};
use head::{Head, UNANCHORED, check_head_row, head_row, head_tag, pending_after, write_head};

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use crate::credential::{CredentialRecord, OperatorCredential};
use crate::journal::Entry;
use crate::keystore::{AnchorMark, KeyStore, KeyStoreError};
use crate::mac::{mac_of, same};

/// What the key store derives the journal key from.
const KEY_LABEL: &[u8] = b"egm critical memory journal key v1";

/// The machine key, derived by the key store. A key store that does not
/// answer (issue 34, hole 10), or a boot that measured nothing (issue 47,
/// hole 1), is said as such, never taken for a missing key: the files are
/// not at fault.
pub(crate) fn machine_key(keys: &mut dyn KeyStore) -> Result<[u8; 32], StoreError> {
    keys.derive_key(KEY_LABEL).map_err(|e| match e {
        e @ (KeyStoreError::Unreachable { .. } | KeyStoreError::Unmeasured { .. } | KeyStoreError::NotEndorsed { .. } | KeyStoreError::Refused { .. }) => {
            StoreError::KeyStore(e)
        }
        e => IntegrityError::KeyMissing(e.to_string()).into(),
    })
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS journal (
    seq      INTEGER PRIMARY KEY,
    at_utc   TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    round_id INTEGER,
    body     TEXT    NOT NULL,
    mac      BLOB    NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_round ON journal(round_id) WHERE round_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS head (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    epoch INTEGER NOT NULL,
    seq   INTEGER NOT NULL,
    mac   BLOB    NOT NULL,
    anchor  INTEGER NOT NULL,
    pending INTEGER NOT NULL,
    chain    BLOB NOT NULL,
    previous BLOB NOT NULL,
    tag   BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS ram_clears (
    n             INTEGER PRIMARY KEY,
    at_utc        TEXT NOT NULL,
    operator      TEXT NOT NULL,
    reason        TEXT NOT NULL,
    meters_before TEXT NOT NULL,
    mac           BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_archive (
    clear_n  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    at_utc   TEXT,
    kind     TEXT,
    round_id INTEGER,
    body     TEXT,
    mac      BLOB
);
CREATE TABLE IF NOT EXISTS credential (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    operator_id TEXT    NOT NULL,
    pin_argon2  TEXT    NOT NULL,
    failures    INTEGER NOT NULL,
    locked_until INTEGER NOT NULL,
    mac         BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS counter_binding (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    name BLOB NOT NULL,
    mac  BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS rng_carry (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    carry BLOB NOT NULL
);
";

/// A journal row as SQLite returns it: seq, time, kind, round, body, MAC.
type StoredRow = (i64, String, String, Option<i64>, String, Vec<u8>);

/// A stored journal record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub seq: u64,
    pub at_utc: String,
    pub entry: Entry,
}

/// A RAM clear as recorded in its own chain.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RamClearRecord {
    pub n: u64,
    pub at_utc: String,
    pub operator: String,
    pub reason: String,
    /// JSON of the meters before the clear (as far as they could be read).
    pub meters_before: String,
}

/// What is wrong with critical memory. Names the first bad record.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IntegrityError {
    #[error("record {seq} ({kind}): MAC mismatch, the record was edited, forged or moved")]
    MacMismatch { seq: u64, kind: String },
    #[error("record {found} follows record {expected_prev}: records were removed or reordered")]
    Sequence { expected_prev: u64, found: u64 },
    #[error("record {seq}: the body cannot be decoded ({detail})")]
    Undecodable { seq: u64, detail: String },
    #[error("record {seq} ({kind}): {detail}")]
    Inconsistent { seq: u64, kind: String, detail: String },
    #[error("the head record does not match the last record ({detail}): records were removed or added")]
    Head { detail: String },
    #[error("RAM clear record {n}: MAC mismatch")]
    ClearRecord { n: u64 },
    #[error("the operator credential record: MAC mismatch, it was edited or copied from another machine")]
    CredentialRecord,
    #[error("the machine key is missing while critical memory holds records: {0}")]
    KeyMissing(String),
    #[error(
        "critical memory was rolled back: its head is bound to anchor {head}, the key store's anchor stands at {counter} (a copy restored from before the last anchor); a RAM clear with the logic door open records the tampering and starts anew (`egm-lab ram-clear`)"
    )]
    RolledBack { head: u64, counter: u64 },
    #[error("critical memory names anchor {head}, ahead of the key store's anchor {counter}: a database from another machine, or a reset key store")]
    AheadOfCounter { head: u64, counter: String },
    #[error("critical memory is empty but the key store's anchor stands at {counter}: the database was deleted, emptied or replaced")]
    Wiped { counter: u64 },
    /// Issue 68, attack 1: the head and the key store's anchor agree on
    /// the count (or the head pends the next one) but not on the history:
    /// the anchor was moved for another branch of critical memory.
    #[error(
        "critical memory names anchor {head}, but the key store's anchor stands at {counter} by another history: a copy of critical memory from a branch that was restored beside another (each advance is confirmed only by the write made for it); a RAM clear with the logic door open records the tampering and starts anew (`egm-lab ram-clear`)"
    )]
    Forked { head: u64, counter: u64 },
    /// Issue 47, hole 5: a head still pending its genesis is confirmed
    /// only by the anchor's first write made for it.
    #[error(
        "critical memory's first anchor is still pending while the key store's anchor stands at {counter}: a copy taken while the machine was being provisioned (or a provisioning cut short after the counter was written); a RAM clear with the logic door open records it and starts anew (`egm-lab ram-clear`)"
    )]
    GenesisUnconfirmed { counter: u64 },
    #[error("critical memory was written by an older version (its head has no anchor, or no anchor chain): {0}")]
    OldFormat(String),
    #[error("NVRAM mirror: {0}; a RAM clear with the logic door open records the tampering and starts anew (`egm-lab ram-clear`)")]
    Nvram(String),
    #[error("{0}; only a RAM clear that records the key as lost gets out (`egm-lab ram-clear --key-lost`)")]
    KeyLost(String),
    /// The TPM holds this cabinet's key and it verifies nothing in the
    /// files (issue 34, hole 6): they are another machine's or forged.
    #[error(
        "{0}; a RAM clear with the logic door open and the operator's PIN (checked by the TPM) records the tampering and starts anew (`egm-lab ram-clear`)"
    )]
    NotThisMachines(String),
    #[error("the anchor counter is not the one critical memory was provisioned with ({0}): an edited configuration or a counter another program defined")]
    CounterNotBound(String),
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("critical memory (SQLite) error: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("critical memory file error: {0}")]
    Io(#[from] std::io::Error),
    #[error("critical memory encoding error: {0}")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Integrity(#[from] IntegrityError),
    #[error("critical memory {0} is in use by another process: one cabinet process at a time")]
    Busy(String),
    #[error("key store: {0}")]
    KeyStore(#[from] KeyStoreError),
}

pub(crate) struct Store {
    conn: Connection,
    /// The second copy (D-28): every write goes to both.
    second: Option<Connection>,
    /// The head mirrored into battery-backed NVRAM after every write.
    nvram: Option<nvram::NvramMirror>,
    key: [u8; 32],
    head: Head,
    /// `<db>.lock`, held exclusively for the store's life (writers only):
    /// one process at a time writes critical memory (issue 21, attack 7).
    lock: Option<fs::File>,
}

/// How long a lock held elsewhere is waited for before the file is busy:
/// a lock is held by the open file, and a process forking a child (any
/// thread of it, for any reason) holds a copy of every descriptor until
/// the child's exec closes it — a released lock can stay held that long.
/// A second writer holds it for good, and is refused after the wait.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Take the exclusive lock on `<db>.lock`, or say which file is busy.
pub(crate) fn lock(db: &Path) -> Result<fs::File, StoreError> {
    let mut s = db.as_os_str().to_owned();
    s.push(".lock");
    let path = PathBuf::from(s);
    let f = fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path)?;
    let deadline = std::time::Instant::now() + LOCK_WAIT;
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(f),
            Err(fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => std::thread::sleep(std::time::Duration::from_millis(20)),
            Err(fs::TryLockError::WouldBlock) => return Err(StoreError::Busy(db.display().to_string())),
            Err(fs::TryLockError::Error(e)) => return Err(e.into()),
        }
    }
}

fn now_utc() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_else(|_| "1970-01-01T00:00:00Z".into())
}

/// The MAC of one journal record, chained to the previous record's MAC.
#[allow(clippy::too_many_arguments)]
fn record_mac(key: &[u8; 32], epoch: u64, seq: u64, prev: &[u8; 32], at: &str, kind: &str, round: Option<u64>, body: &str) -> [u8; 32] {
    let round = round.unwrap_or(u64::MAX).to_le_bytes();
    mac_of(key, &[b"egm journal v1", &epoch.to_le_bytes(), &seq.to_le_bytes(), prev, at.as_bytes(), kind.as_bytes(), &round, body.as_bytes()])
}

fn credential_mac(key: &[u8; 32], r: &CredentialRecord) -> [u8; 32] {
    mac_of(
        key,
        &[
            b"egm operator credential v1",
            r.credential.operator_id.as_bytes(),
            r.credential.pin_argon2.as_bytes(),
            &r.failures.to_le_bytes(),
            &r.locked_until.to_le_bytes(),
        ],
    )
}

fn binding_mac(key: &[u8; 32], name: &[u8]) -> [u8; 32] {
    mac_of(key, &[b"egm counter binding v1", name])
}

impl Store {
    /// Open (or create) critical memory at `path`, with the journal key
    /// derived by `keys`. Does not verify it: call [`Store::replay`] before
    /// trusting anything in it.
    ///
    /// With a second copy, both are verified and made one first: the events
    /// returned say what was rebuilt and why (the machine logs them).
    pub(crate) fn open(path: &Path, second: Option<&Path>, nvram: Option<&Path>, keys: &mut dyn KeyStore) -> Result<(Store, Vec<String>), StoreError> {
        let lock = lock(path)?;
        let conn = copies::open_copy(path)?;
        let second_conn = second.map(copies::open_copy).transpose()?;
        let virgin = is_virgin(&conn)? && second_conn.as_ref().map(is_virgin).transpose()?.unwrap_or(true);
        if virgin {
            // A new machine: its secret is made now (the file stand-in's; a
            // TPM's key is made by the chip). Nothing was ever signed before.
            keys.make_secret_if_missing()?;
        }
        let key = machine_key(keys)?;
        let (conn, second_conn, events) = match (second, second_conn) {
            (Some(p), Some(c)) => {
                let (a, b, events) = copies::reconcile(path, conn, p, c, &key)?;
                (a, Some(b), events)
            }
            _ => (conn, None, Vec::new()),
        };
        let epoch: i64 = conn.query_row("SELECT count(*) FROM ram_clears", [], |r| r.get(0))?;
        let head = Head { epoch: epoch as u64, seq: 0, mac: [0; 32], anchor: UNANCHORED };
        let nvram = nvram.map(nvram::NvramMirror::new);
        Ok((Store { conn, second: second_conn, nvram, key, head, lock: Some(lock) }, events))
    }

    /// Open critical memory for reading only (meter readers, lab tools):
    /// nothing is created or written, and a missing key is an error.
    pub(crate) fn open_read_only(path: &Path, keys: &mut dyn KeyStore) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(std::io::Error::new(std::io::ErrorKind::NotFound, format!("{} does not exist", path.display())).into());
        }
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        check_format(&conn, path)?;
        // A machine cut off during its first boot may have no key yet: with
        // nothing ever signed there is nothing to verify, and no key is used.
        let key = if is_virgin(&conn)? { [0; 32] } else { machine_key(keys)? };
        let epoch: i64 = conn.query_row("SELECT count(*) FROM ram_clears", [], |r| r.get(0))?;
        let head = Head { epoch: epoch as u64, seq: 0, mac: [0; 32], anchor: UNANCHORED };
        Ok(Store { conn, second: None, nvram: None, key, head, lock: None })
    }

    /// This read-only store checked against the NVRAM mirror at `path`
    /// (read, never written).
    pub(crate) fn with_nvram(mut self, path: Option<&Path>) -> Store {
        self.nvram = path.map(nvram::NvramMirror::new);
        self
    }

    /// Verify the whole chain (RAM clears, every record, the head) and hand
    /// each decoded record to `visit` in order. The first bad record stops
    /// the walk and is named in the error. On success the store is ready to
    /// append after the last record.
    pub(crate) fn replay(&mut self, visit: impl FnMut(&Record) -> Result<(), String>) -> Result<(), StoreError> {
        self.head = walk(&self.conn, &self.key, visit)?;
        Ok(())
    }

    /// The cheap check before each game (D-29): the last record and the head
    /// on disk are still the ones this process wrote.
    pub(crate) fn check_end(&self) -> Result<(), StoreError> {
        let last: Option<StoredRow> = self
            .conn
            .query_row("SELECT seq, at_utc, kind, round_id, body, mac FROM journal ORDER BY seq DESC LIMIT 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
            })
            .optional()?;
        match last {
            None if self.head.seq == 0 => {}
            None => return Err(IntegrityError::Head { detail: "the journal is empty".into() }.into()),
            Some((seq, ..)) if seq as u64 != self.head.seq => {
                return Err(IntegrityError::Sequence { expected_prev: self.head.seq, found: seq as u64 }.into());
            }
            Some((seq, _, kind, _, _, mac)) => {
                if !same(&mac, &self.head.mac) {
                    return Err(IntegrityError::MacMismatch { seq: seq as u64, kind }.into());
                }
            }
        }
        // The epoch and the anchor too: a RAM clear or a restored copy made
        // beside this process is noticed before the next game.
        if check_head_row(&self.conn, &self.key, &self.head)? != self.head.anchor {
            return Err(IntegrityError::Head { detail: "the head on disk names another anchor than this process wrote".into() }.into());
        }
        Ok(())
    }

    /// Append entries and take the head's anchor one `step`, in one
    /// durable transaction, all or none (C-23): returns the anchor the head
    /// is bound to afterwards. With no entries, only the head is
    /// rewritten.
    pub(crate) fn append_anchored(&mut self, entries: &[Entry], step: AnchorStep) -> Result<Anchor, StoreError> {
        // Only the process holding the writer's lock appends.
        if self.lock.is_none() {
            return Err(StoreError::Busy("this handle (read-only or released)".into()));
        }
        let at = now_utc();
        let mut head = self.head;
        let mut rows = Vec::with_capacity(entries.len());
        for e in entries {
            let body = crate::wire::encode(e)?;
            let seq = head.seq + 1;
            let round = e.round();
            let mac = record_mac(&self.key, head.epoch, seq, &head.mac, &at, e.kind(), round, &body);
            rows.push((seq as i64, e.kind(), round.map(|r| r as i64), body, mac));
            head = Head { seq, mac, ..head };
        }
        let current = self.head.anchor;
        head.anchor = match step {
            AnchorStep::Keep => current,
            AnchorStep::Begin if current.pending == Pending::None => pending_after(&self.key, Some(current.mark()), head.epoch, head.seq, &head.mac)?,
            AnchorStep::Genesis => pending_after(&self.key, None, head.epoch, head.seq, &head.mac)?,
            AnchorStep::Confirmed(mark) if current.pending != Pending::None && mark == current.mark() => {
                Anchor { pending: Pending::None, previous: [0; 32], ..current }
            }
            AnchorStep::Begin | AnchorStep::Confirmed(_) => {
                return Err(IntegrityError::Head { detail: format!("the anchor step {step:?} does not follow the head's anchor {}", current.value) }.into());
            }
        };
        let key = self.key;
        self.each_copy(|conn| {
            let tx = conn.transaction()?;
            {
                let mut insert = tx.prepare_cached("INSERT INTO journal (seq, at_utc, kind, round_id, body, mac) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?;
                for (seq, kind, round, body, mac) in &rows {
                    insert.execute(params![seq, at, kind, round, body, mac.as_slice()])?;
                }
            }
            write_head(&tx, &key, &head)?;
            tx.commit()?;
            Ok(())
        })?;
        self.head = head;
        self.mirror_head()?;
        Ok(head.anchor)
    }

    /// Write the head into the NVRAM mirror, when there is one.
    fn mirror_head(&self) -> Result<(), StoreError> {
        match &self.nvram {
            Some(n) => n.write(&self.head, &self.key),
            None => Ok(()),
        }
    }

    /// After a replay: the journal reaches at least the end the NVRAM
    /// mirror names, with the same record there (a copy restored from
    /// before the last write is refused). A missing or blank mirror beside
    /// written critical memory is a RAM error (issue 34, hole 8: a deleted
    /// mirror was accepted silently and reopened the window); only a new
    /// machine's mirror starts blank.
    pub(crate) fn check_nvram(&self) -> Result<(), StoreError> {
        let Some(n) = &self.nvram else { return Ok(()) };
        // A new machine's file: a mirror already written beside it means
        // the file was deleted, which the anchor names (`Wiped`).
        if self.is_virgin()? {
            return Ok(());
        }
        let Some(m) = n.read(&self.key)? else {
            return Err(IntegrityError::Nvram(
                "the NVRAM mirror is missing or blank beside written critical memory (erased, or its battery failed): the journal cannot be shown to be the latest"
                    .into(),
            )
            .into());
        };
        let h = self.head;
        let restored =
            |why: String| -> Result<(), StoreError> { Err(IntegrityError::Nvram(format!("{why}: a copy from before the last write was restored")).into()) };
        if (m.epoch, m.seq) > (h.epoch, h.seq) {
            return restored(format!("critical memory ends at record {} of epoch {}, the mirror names record {} of epoch {}", h.seq, h.epoch, m.seq, m.epoch));
        }
        if m.epoch == h.epoch && m.seq > 0 {
            let mac: Option<Vec<u8>> = self.conn.query_row("SELECT mac FROM journal WHERE seq = ?1", [m.seq as i64], |r| r.get(0)).optional()?;
            if !mac.is_some_and(|mac| same(&mac, &m.mac)) {
                return restored(format!("record {} is not the one the mirror names", m.seq));
            }
        }
        if (m.epoch, m.seq) == (h.epoch, h.seq) && h.anchor.value < m.anchor.value {
            return restored(format!("the head names anchor {}, the mirror anchor {}", h.anchor.value, m.anchor.value));
        }
        Ok(())
    }

    /// Apply one write to each copy in turn, the first copy first.
    fn each_copy(&mut self, mut write: impl FnMut(&mut Connection) -> Result<(), StoreError>) -> Result<(), StoreError> {
        write(&mut self.conn)?;
        if let Some(second) = self.second.as_mut() {
            write(second)?;
        }
        Ok(())
    }

    /// The anchor the head is bound to.
    pub(crate) fn anchor(&self) -> Anchor {
        self.head.anchor
    }

    /// Records belonging to the last `n` rounds, oldest first (recall,
    /// M-15).
    ///
    /// Read back from the head along the journal itself (its rowid order:
    /// the rows the boot verified as one chain), never through an index: an
    /// index is not chained, and an offline edit of one could thin what
    /// recall shows. One round is open at a time and its records all come
    /// between its `round_begun` and the next round's (a jackpot's hand-pay
    /// locks the machine before the next round; a resumed or voided round
    /// is still its own round, M-36), so the walk ends at the begin record
    /// of the oldest round asked for: it reads the rounds shown and the
    /// events among them, never the whole journal. (The whole journal per
    /// recall — `max(round_id)` and a range the planner scanned the table
    /// for — made a collection of 20,000 rounds quadratic: 220 s, and a
    /// cabinet's recall slower with every year on the floor.)
    pub(crate) fn last_rounds(&self, n: u64) -> Result<Vec<Record>, StoreError> {
        let mut stmt = self.conn.prepare_cached("SELECT seq, at_utc, kind, round_id, body, mac FROM journal ORDER BY seq DESC")?;
        let mut rows = stmt.query([])?;
        let mut from: Option<i64> = None;
        let mut newest_first: Vec<StoredRow> = Vec::new();
        while let Some(r) = rows.next()? {
            let Some(round) = r.get::<_, Option<i64>>(3)? else { continue };
            // The newest round is the first met: rounds are numbered as they begin.
            let from = *from.get_or_insert_with(|| i64::try_from(n).map_or(0, |n| round.saturating_sub(n).saturating_add(1).max(0)));
            if round < from {
                break;
            }
            let kind: String = r.get(2)?;
            let begun_first = round == from && kind == crate::journal::ROUND_BEGUN;
            newest_first.push((r.get(0)?, r.get(1)?, kind, Some(round), r.get(4)?, r.get(5)?));
            if begun_first {
                break;
            }
        }
        newest_first.reverse();
        self.verified(newest_first)
    }

    /// The last `n` event-log records (everything but round steps), newest first.
    /// The records after `seq`, oldest first, at most `limit`: every kind,
    /// rounds included (issue 48: what the floor is told of).
    pub(crate) fn records_after(&self, seq: u64, limit: u16) -> Result<Vec<Record>, StoreError> {
        self.select(&format!("WHERE seq > ?1 ORDER BY seq LIMIT {limit}"), seq as i64)
    }

    /// The last record's sequence number.
    pub(crate) fn head_seq(&self) -> u64 {
        self.head.seq
    }

    pub(crate) fn last_events(&self, n: u64) -> Result<Vec<Record>, StoreError> {
        self.select("WHERE kind NOT IN ('round_begun', 'round_step', 'round_settled') ORDER BY seq DESC LIMIT ?1", n as i64)
    }

    /// H-53: the download/verification log, every record of it this
    /// epoch, newest first (the event list's last thousand records would
    /// lose it behind years of doors and notes).
    pub(crate) fn software_log(&self) -> Result<Vec<Record>, StoreError> {
        self.select("WHERE kind = 'software_changed' AND seq > ?1 ORDER BY seq DESC", 0)
    }

    /// Journal records for a screen or a report, each verified (issue 34,
    /// hole 11: recall and the event list once showed an edited row until
    /// the next boot): its MAC against the MAC of the record before it, so
    /// an edited, inserted or moved row is a RAM error, never shown.
    fn select(&self, tail: &str, arg: i64) -> Result<Vec<Record>, StoreError> {
        let mut stmt = self.conn.prepare(&format!("SELECT seq, at_utc, kind, round_id, body, mac FROM journal {tail}"))?;
        let rows = stmt.query_map([arg], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<i64>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Vec<u8>>(5)?,
            ))
        })?;
        self.verified(rows.collect::<Result<Vec<StoredRow>, _>>()?)
    }

    /// Rows read for a screen or a report, each verified as [`Self::select`] says.
    fn verified(&self, rows: Vec<StoredRow>) -> Result<Vec<Record>, StoreError> {
        let mut previous = self.conn.prepare_cached("SELECT mac FROM journal WHERE seq = ?1")?;
        let mut out = Vec::new();
        for (seq, at_utc, kind, round, body, mac) in rows {
            let seq = seq as u64;
            let prev = match seq.checked_sub(1) {
                None => return Err(IntegrityError::Sequence { expected_prev: 0, found: 0 }.into()),
                Some(0) => [0; 32],
                Some(p) => match previous.query_row([p as i64], |r| r.get::<_, Vec<u8>>(0)).optional()? {
                    Some(m) => to32(&m),
                    None => return Err(IntegrityError::Sequence { expected_prev: p, found: seq }.into()),
                },
            };
            if seq > self.head.seq || !same(&mac, &record_mac(&self.key, self.head.epoch, seq, &prev, &at_utc, &kind, round.map(|r| r as u64), &body)) {
                return Err(IntegrityError::MacMismatch { seq, kind }.into());
            }
            let entry = crate::wire::decode(&body).map_err(|e| IntegrityError::Undecodable { seq, detail: e.to_string() })?;
            out.push(Record { seq, at_utc, entry });
        }
        Ok(out)
    }

    /// Every RAM clear ever made on this file, oldest first.
    pub(crate) fn ram_clears(&self) -> Result<Vec<RamClearRecord>, StoreError> {
        ram_clears(&self.conn)
    }

    /// Clear critical memory (D-32): record the clear in its own chain with
    /// the meters before it, archive the journal, and start a new epoch,
    /// its head pending the link after `from` (what the key store's anchor
    /// reads now; `None`: never written) for the clear's record. The caller
    /// has authenticated the operator. Returns the epoch and the pending
    /// anchor.
    pub(crate) fn ram_clear(&mut self, operator: &str, reason: &str, meters_before: &str, from: Option<AnchorMark>) -> Result<(u64, Anchor), StoreError> {
        // A clear is the cure for a broken journal, but never for a broken
        // record of earlier clears: those must stay verifiable.
        let prev = verify_clears(&self.conn, &self.key)?;
        let n = self.head.epoch + 1;
        let rec = RamClearRecord { n, at_utc: now_utc(), operator: operator.into(), reason: reason.into(), meters_before: meters_before.into() };
        let mac = clear_mac(&self.key, &rec, &prev);
        // The new epoch's head: no record yet, bound to the clear's anchor.
        let anchor = pending_after(&self.key, from, n, 0, &mac)?;
        let head = Head { epoch: n, seq: 0, mac: [0; 32], anchor };
        let key = self.key;
        self.each_copy(|conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO ram_clears (n, at_utc, operator, reason, meters_before, mac) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![n as i64, rec.at_utc, rec.operator, rec.reason, rec.meters_before, mac.as_slice()],
            )?;
            tx.execute("INSERT INTO journal_archive SELECT ?1, seq, at_utc, kind, round_id, body, mac FROM journal", [n as i64])?;
            tx.execute("DELETE FROM journal", [])?;
            write_head(&tx, &key, &head)?;
            tx.commit()?;
            Ok(())
        })?;
        self.head = head;
        self.mirror_head()?;
        Ok((n, anchor))
    }

    /// The TPM name of the anchor counter critical memory is bound to,
    /// verified (issue 34, hole 1); `None` when none was recorded.
    pub(crate) fn counter_binding(&self) -> Result<Option<Vec<u8>>, StoreError> {
        let row: Option<(Vec<u8>, Vec<u8>)> =
            self.conn.query_row("SELECT name, mac FROM counter_binding WHERE id = 1", [], |r| Ok((r.get(0)?, r.get(1)?))).optional()?;
        let Some((name, mac)) = row else { return Ok(None) };
        if !same(&mac, &binding_mac(&self.key, &name)) {
            return Err(IntegrityError::CounterNotBound("the binding record's MAC does not verify".into()).into());
        }
        Ok(Some(name))
    }

    /// Bind critical memory to the anchor counter named `name`.
    pub(crate) fn set_counter_binding(&mut self, name: &[u8]) -> Result<(), StoreError> {
        if self.lock.is_none() {
            return Err(StoreError::Busy("this handle (read-only or released)".into()));
        }
        let mac = binding_mac(&self.key, name);
        self.each_copy(|conn| {
            conn.execute(
                "INSERT INTO counter_binding (id, name, mac) VALUES (1, ?1, ?2) ON CONFLICT(id) DO UPDATE SET name = ?1, mac = ?2",
                params![name, mac.as_slice()],
            )?;
            Ok(())
        })
    }

    /// The binding checked against the key store's counter `name` (`None`:
    /// not defined, or the stand-in): a recorded binding must name it; a
    /// store with none is accepted only before its first anchor is
    /// confirmed (a new machine, an interrupted genesis), when the caller
    /// records it.
    pub(crate) fn check_counter_binding(&self, name: Option<&[u8]>) -> Result<(), StoreError> {
        let Some(name) = name else { return Ok(()) };
        match self.counter_binding()? {
            Some(bound) if bound == name => Ok(()),
            Some(_) => Err(IntegrityError::CounterNotBound("the key store names another NV index than critical memory was bound to".into()).into()),
            None if self.is_virgin()? || self.head.anchor.pending == Pending::Genesis => Ok(()),
            None => Err(IntegrityError::CounterNotBound("critical memory has no record of its anchor counter".into()).into()),
        }
    }

    /// The machine's own record of its operator credential, verified.
    pub(crate) fn credential(&self) -> Result<Option<CredentialRecord>, StoreError> {
        let Some((record, mac)) = credential_row(&self.conn)? else { return Ok(None) };
        if !same(&mac, &self.credential_mac(&record)) {
            return Err(IntegrityError::CredentialRecord.into());
        }
        Ok(Some(record))
    }

    pub(crate) fn set_credential(&mut self, record: &CredentialRecord) -> Result<(), StoreError> {
        if self.lock.is_none() {
            return Err(StoreError::Busy("this handle (read-only or released)".into()));
        }
        let mac = self.credential_mac(record);
        self.each_copy(|conn| {
            conn.execute(
                "INSERT INTO credential (id, operator_id, pin_argon2, failures, locked_until, mac) VALUES (1, ?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(id) DO UPDATE SET operator_id = ?1, pin_argon2 = ?2, failures = ?3, locked_until = ?4, mac = ?5",
                params![record.credential.operator_id, record.credential.pin_argon2, i64::from(record.failures), record.locked_until, mac.as_slice()],
            )?;
            Ok(())
        })
    }

    fn credential_mac(&self, r: &CredentialRecord) -> [u8; 32] {
        credential_mac(&self.key, r)
    }

    /// The RNG carry persisted by the previous boot.
    pub(crate) fn rng_carry(&self) -> Result<Vec<u8>, StoreError> {
        Ok(self.conn.query_row("SELECT carry FROM rng_carry WHERE id = 1", [], |r| r.get(0)).optional()?.unwrap_or_default())
    }

    pub(crate) fn set_rng_carry(&mut self, carry: &[u8]) -> Result<(), StoreError> {
        self.each_copy(|conn| {
            conn.execute("INSERT INTO rng_carry (id, carry) VALUES (1, ?1) ON CONFLICT(id) DO UPDATE SET carry = ?1", [carry])?;
            Ok(())
        })
    }

    /// Give the writer's lock up: nothing may be appended afterwards.
    pub(crate) fn release(&mut self) {
        self.lock = None;
    }

    /// RAM clears so far: the journal's epoch.
    pub(crate) fn epoch(&self) -> u64 {
        self.head.epoch
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.head.seq == 0
    }

    /// No record and no RAM clear: a machine's first boot.
    pub(crate) fn is_virgin(&self) -> Result<bool, StoreError> {
        is_virgin(&self.conn)
    }
}

/// Verify one copy's whole chain (RAM clears, every record, the head),
/// handing each decoded record to `visit`: returns its head.
fn walk(conn: &Connection, key: &[u8; 32], visit: impl FnMut(&Record) -> Result<(), String>) -> Result<Head, StoreError> {
    // One read transaction: the RAM clears, the journal and the head are
    // read from one snapshot of the file (WAL), so a reader beside a
    // running cabinet (a lab's inspection, a meter reader) never pairs a
    // journal with a head the cabinet wrote after it ("head names record
    // 81 of epoch 0, the journal ends at record 80", a window test's
    // inspection mid-commit). A read: rolled back when dropped, nothing to
    // undo. Inside a caller's transaction, that transaction is the snapshot.
    let snapshot = if conn.is_autocommit() { Some(conn.unchecked_transaction()?) } else { None };
    let head = walk_snapshot(conn, key, visit);
    drop(snapshot);
    head
}

fn walk_snapshot(conn: &Connection, key: &[u8; 32], mut visit: impl FnMut(&Record) -> Result<(), String>) -> Result<Head, StoreError> {
    verify_clears(conn, key)?;
    let epoch: i64 = conn.query_row("SELECT count(*) FROM ram_clears", [], |r| r.get(0))?;
    let epoch = epoch as u64;
    let mut prev = Head { epoch, seq: 0, mac: [0; 32], anchor: UNANCHORED };
    {
        let mut stmt = conn.prepare("SELECT seq, at_utc, kind, round_id, body, mac FROM journal ORDER BY seq")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let seq: i64 = row.get(0)?;
            let seq = seq as u64;
            let at: String = row.get(1)?;
            let kind: String = row.get(2)?;
            let round: Option<i64> = row.get(3)?;
            let body: String = row.get(4)?;
            let mac: Vec<u8> = row.get(5)?;
            if seq != prev.seq + 1 {
                return Err(IntegrityError::Sequence { expected_prev: prev.seq, found: seq }.into());
            }
            let expect = record_mac(key, epoch, seq, &prev.mac, &at, &kind, round.map(|r| r as u64), &body);
            if !same(&mac, &expect) {
                return Err(IntegrityError::MacMismatch { seq, kind }.into());
            }
            let entry: Entry = crate::wire::decode(&body).map_err(|e| IntegrityError::Undecodable { seq, detail: e.to_string() })?;
            let record = Record { seq, at_utc: at, entry };
            visit(&record).map_err(|detail| IntegrityError::Inconsistent { seq, kind: kind.clone(), detail })?;
            prev = Head { epoch, seq, mac: expect, anchor: UNANCHORED };
        }
    }
    prev.anchor = check_head_row(conn, key, &prev)?;
    Ok(prev)
}

/// The operator credential row as stored, with its MAC, not verified; a
/// failure count out of range is an integrity error.
fn credential_row(conn: &Connection) -> Result<Option<(CredentialRecord, Vec<u8>)>, StoreError> {
    type Row = (String, String, i64, i64, Vec<u8>);
    let row: Option<Row> = conn
        .query_row("SELECT operator_id, pin_argon2, failures, locked_until, mac FROM credential WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .optional()?;
    let Some((operator_id, pin_argon2, failures, locked_until, mac)) = row else { return Ok(None) };
    let failures = u32::try_from(failures).map_err(|_| IntegrityError::CredentialRecord)?;
    Ok(Some((CredentialRecord { credential: OperatorCredential { operator_id, pin_argon2 }, failures, locked_until }, mac)))
}

fn clear_mac(key: &[u8; 32], c: &RamClearRecord, prev: &[u8; 32]) -> [u8; 32] {
    mac_of(key, &[b"egm ram clear v1", &c.n.to_le_bytes(), prev, c.at_utc.as_bytes(), c.operator.as_bytes(), c.reason.as_bytes(), c.meters_before.as_bytes()])
}

fn ram_clears(conn: &Connection) -> Result<Vec<RamClearRecord>, StoreError> {
    let mut stmt = conn.prepare("SELECT n, at_utc, operator, reason, meters_before FROM ram_clears ORDER BY n")?;
    let rows = stmt.query_map([], |r| {
        Ok(RamClearRecord { n: r.get::<_, i64>(0)? as u64, at_utc: r.get(1)?, operator: r.get(2)?, reason: r.get(3)?, meters_before: r.get(4)? })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn verify_clears(conn: &Connection, key: &[u8; 32]) -> Result<[u8; 32], StoreError> {
    let mut stmt = conn.prepare("SELECT mac FROM ram_clears ORDER BY n")?;
    let macs: Vec<Vec<u8>> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
    let mut prev = [0u8; 32];
    for (i, (c, mac)) in ram_clears(conn)?.iter().zip(macs).enumerate() {
        if c.n != i as u64 + 1 || !same(&mac, &clear_mac(key, c, &prev)) {
            return Err(IntegrityError::ClearRecord { n: c.n }.into());
        }
        prev = to32(&mac);
    }
    Ok(prev)
}

fn is_virgin(conn: &Connection) -> Result<bool, StoreError> {
    let rows: i64 = conn.query_row("SELECT count(*) FROM journal", [], |r| r.get(0))?;
    let clears: i64 = conn.query_row("SELECT count(*) FROM ram_clears", [], |r| r.get(0))?;
    Ok(rows == 0 && clears == 0)
}

/// A file whose head has no anchor columns, or no anchor chain (issue 68),
/// was written by an earlier version: named, never misread.
fn check_format(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info('head')")?;
    let columns: Vec<String> = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
    if !["anchor", "chain", "previous"].iter().all(|want| columns.iter().any(|c| c == want)) {
        return Err(IntegrityError::OldFormat(path.display().to_string()).into());
    }
    Ok(())
}

fn to32(v: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let n = v.len().min(32);
    out[..n].copy_from_slice(&v[..n]);
    out
}

#[cfg(all(test, feature = "lab"))]
#[allow(clippy::unwrap_used)]
mod snapshot_tests {
    use super::*;

    /// A reader beside a running cabinet walks one snapshot: the cabinet
    /// commits a note while the reader is half way through its journal,
    /// and the reader ends at its snapshot's head, not at a head written
    /// after the journal it read ("head names record 81 of epoch 0, the
    /// journal ends at record 80"); a later reader sees the commit.
    #[test]
    fn a_reader_walks_one_snapshot_while_the_cabinet_commits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("egm.sqlite");
        let config = crate::MachineConfig { mode: crate::Mode::Lab, second_copy: crate::config::SecondCopy::Off, ..Default::default() };
        let mut m = crate::Machine::open(&path, config, crate::SeedChoice::Lab(1)).unwrap();
        m.insert_note(500).unwrap();
        let mut keys = crate::keystore::file::FileStandIn::new(&path);
        let mut reader = Store::open_read_only(&path, &mut keys).unwrap();
        let (mut seen, mut wrote) = (0u64, false);
        reader
            .replay(|r| {
                seen = r.seq;
                if !wrote {
                    wrote = true;
                    m.insert_note(1_000).map_err(|e| e.to_string())?;
                }
                Ok(())
            })
            .unwrap();
        assert!(wrote);
        assert_eq!(reader.head.seq, seen, "the head of the snapshot walked");
        let mut later = Store::open_read_only(&path, &mut keys).unwrap();
        let mut after = 0u64;
        later
            .replay(|r| {
                after = r.seq;
                Ok(())
            })
            .unwrap();
        assert!(after > seen, "the note committed during the walk is after it: {after} against {seen}");
    }
}

#[cfg(all(test, feature = "lab"))]
#[allow(clippy::unwrap_used)]
mod recall_tests {
    use super::*;
    use crate::Door;
    use serde_json::json;

    /// Recall's walk back along the journal (M-15, E-33) gives, for every
    /// `n`, exactly the records the whole-journal query gives (every record
    /// of the rounds numbered from the newest less `n` − 1, in journal
    /// order): on a journal with notes and doors between and inside rounds,
    /// a round resumed after a power cut (M-36), and a round locked into a
    /// hand-pay and paid (its `handpay_locked` record carries the round).
    #[test]
    fn recall_walks_back_to_exactly_the_records_of_the_last_rounds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("egm.sqlite");
        let config = crate::MachineConfig { mode: crate::Mode::Lab, ..Default::default() };
        let open = || crate::Machine::open(&path, config.clone(), crate::SeedChoice::Lab(1)).unwrap();
        let mut m = open();
        assert!(m.recall(5).unwrap().is_empty(), "no round yet");
        m.insert_note(10_000).unwrap();
        for i in 0..6u64 {
            let r = m.play_round("g", 1, 10, "draw", |_| Ok::<_, String>(json!({"i": i}))).map(|(r, _)| r).unwrap();
            if i % 2 == 0 {
                m.open_door(Door::Main).unwrap();
                m.close_door(Door::Main).unwrap();
            }
            m.record_step(r, crate::Step::new("double-up", json!({"i": i})), 0).unwrap();
            m.settle_round(r, i, vec![]).unwrap();
            m.insert_note(500).unwrap();
        }
        // A power cut inside a round, and the round resumed and finished.
        let r = m.play_round("g", 1, 10, "draw", |_| Ok::<_, String>(json!({"cut": true}))).map(|(r, _)| r).unwrap();
        drop(m);
        let mut m = open();
        m.resume_round(r).unwrap();
        m.settle_round(r, 0, vec![]).unwrap();
        // A win at the hand-pay limit, paid by an attendant.
        let r = m.play_round("g", 100, 100, "draw", |_| Ok::<_, String>(json!({"big": true}))).map(|(r, _)| r).unwrap();
        let crate::WinPayment::Handpay { id } = m.settle_round(r, 120_000, vec![]).unwrap().payment else { panic!("expected a hand-pay") };
        m.pay_handpay(id, "attendant 7").unwrap();
        for i in 0..3u64 {
            let r = m.play_round("g", 1, 10, "draw", |_| Ok::<_, String>(json!({"late": i}))).map(|(r, _)| r).unwrap();
            m.settle_round(r, 0, vec![]).unwrap();
        }
        // And one round still open.
        m.play_round("g", 1, 10, "draw", |_| Ok::<_, String>(json!({"open": true}))).unwrap();
        assert_eq!(m.recall(1).unwrap().len(), 1);

        let mut keys = crate::keystore::file::FileStandIn::new(&path);
        let mut store = Store::open_read_only(&path, &mut keys).unwrap();
        store.replay(|_| Ok(())).unwrap();
        let store = &store;
        let newest: i64 = store.conn.query_row("SELECT max(round_id) FROM journal", [], |r| r.get(0)).unwrap();
        assert_eq!(newest, 12);
        for n in (0..=14).chain([u64::MAX]) {
            let from = i64::try_from(n).map_or(0, |n| newest.saturating_sub(n).saturating_add(1).max(0));
            let whole = store.select("WHERE round_id >= ?1 ORDER BY seq", from).unwrap();
            let walked = store.last_rounds(n).unwrap();
            assert_eq!(walked, whole, "the last {n} rounds");
            let rounds: std::collections::BTreeSet<u64> = walked.iter().filter_map(|r| r.entry.round()).collect();
            assert_eq!(rounds.len() as u64, n.min(12), "the last {n} rounds: {rounds:?}");
        }
        let last_three = store.last_rounds(3).unwrap();
        let kinds: Vec<&str> = last_three.iter().map(|r| r.entry.kind()).collect();
        assert_eq!(kinds, ["round_begun", "round_settled", "round_begun", "round_settled", "round_begun"]);
        let big = store.last_rounds(6).unwrap();
        assert!(big.iter().any(|r| matches!(r.entry, Entry::HandpayLocked { .. })), "the hand-pay's lock is its round's");
        assert!(big.iter().any(|r| matches!(r.entry, Entry::RoundResumed { .. })), "the resumed round is recalled with its resumption");
        assert!(big.iter().all(|r| r.entry.round().is_some()), "no event outside a round is recall's");
    }
}
