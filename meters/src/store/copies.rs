//! The second copy of critical memory (D-28; issue 21): every write goes
//! to two SQLite files (configurable; by default the second beside the
//! first, `<db>.second`), each verified in full at boot. One valid copy
//! rebuilds the other, and the machine logs it as a recoverable event;
//! when both are valid but one is behind (a cut between the two writes, a
//! copy restored or deleted), the one further on rebuilds the other;
//! neither valid is a RAM error naming the first copy's problem.

use std::path::Path;

use rusqlite::Connection;

use super::{Head, StoreError, walk};

/// Open one copy: WAL, `synchronous=FULL`, the schema, the format check.
/// A new copy is made whole under a temporary name and only then given its
/// own: a cut at any moment leaves no file or a file with its whole schema.
pub(super) fn open_copy(path: &Path) -> Result<Connection, StoreError> {
    if !path.exists() {
        let tmp = std::path::PathBuf::from(format!("{}.new", path.display()));
        remove_database(&tmp)?;
        {
            let conn = Connection::open(&tmp)?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            conn.execute_batch(super::SCHEMA)?;
        }
        std::fs::File::open(&tmp)?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::File::open(dir)?.sync_all()?;
        }
    }
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.execute_batch(super::SCHEMA)?;
    super::check_format(&conn, path)?;
    Ok(conn)
}

/// Remove an SQLite file with its write-ahead log and shared memory,
/// whichever of them exist.
pub(super) fn remove_database(path: &Path) -> Result<(), StoreError> {
    for suffix in ["", "-wal", "-shm"] {
        match std::fs::remove_file(format!("{}{suffix}", path.display())) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Where a copy stands: its head, or why it failed verification.
fn position(conn: &Connection, key: &[u8; 32]) -> Result<Head, StoreError> {
    walk(conn, key, |_| Ok(()))
}

/// Verify both copies and make them one. Returns both connections and the
/// events to log (what was rebuilt, and why).
pub(super) fn reconcile(
    first_path: &Path,
    first: Connection,
    second_path: &Path,
    second: Connection,
    key: &[u8; 32],
) -> Result<(Connection, Connection, Vec<String>), StoreError> {
    let a = position(&first, key);
    let b = position(&second, key);
    match (a, b) {
        (Ok(ha), Ok(hb)) if ha == hb => Ok((first, second, Vec::new())),
        (Ok(ha), Ok(hb)) => {
            // The first copy is written first: at the same place it is the
            // newer (a cut between the two writes of a head-only update).
            if (hb.epoch, hb.seq) > (ha.epoch, ha.seq) {
                let detail = format!(
                    "the first copy {} ended at record {} of epoch {}, the second at record {} of epoch {}: the first was rebuilt from the second",
                    first_path.display(),
                    ha.seq,
                    ha.epoch,
                    hb.seq,
                    hb.epoch
                );
                let first = rebuild(&second, first_path, first)?;
                Ok((first, second, vec![detail]))
            } else {
                let detail = format!(
                    "the second copy {} was behind the first (record {} of epoch {} against {} of epoch {}): rebuilt",
                    second_path.display(),
                    hb.seq,
                    hb.epoch,
                    ha.seq,
                    ha.epoch
                );
                let second = rebuild(&first, second_path, second)?;
                Ok((first, second, vec![detail]))
            }
        }
        (Ok(_), Err(e)) => {
            let detail = format!("the second copy {} failed verification ({e}): rebuilt from the first", second_path.display());
            let second = rebuild(&first, second_path, second)?;
            Ok((first, second, vec![detail]))
        }
        (Err(e), Ok(_)) => {
            let detail = format!("the first copy {} failed verification ({e}): rebuilt from the second", first_path.display());
            let first = rebuild(&second, first_path, first)?;
            Ok((first, second, vec![detail]))
        }
        (Err(e), Err(_)) => Err(e),
    }
}

/// Replace the copy at `path` (whose connection is `stale`) by a copy of
/// `good`, written whole by SQLite (`VACUUM INTO`).
fn rebuild(good: &Connection, path: &Path, stale: Connection) -> Result<Connection, StoreError> {
    drop(stale);
    remove_database(path)?;
    let target = path.to_str().ok_or_else(|| std::io::Error::other(format!("{} is not a UTF-8 path", path.display())))?;
    good.execute("VACUUM INTO ?1", [target])?;
    open_copy(path)
}
