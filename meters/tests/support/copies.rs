//! What an attacker with file access does to critical memory: take a copy
//! of every file (both copies and their write-ahead logs, the machine
//! running or not), put it back later, or delete it all.

use std::path::{Path, PathBuf};

/// The files of critical memory at `db` whose bytes make its state.
fn files(db: &Path) -> Vec<PathBuf> {
    ["", "-wal", ".second", ".second-wal"].iter().map(|s| PathBuf::from(format!("{}{s}", db.display()))).collect()
}

/// The shared-memory index files SQLite rebuilds from the logs.
fn shm(db: &Path) -> [PathBuf; 2] {
    [PathBuf::from(format!("{}-shm", db.display())), PathBuf::from(format!("{}.second-shm", db.display()))]
}

/// Critical memory as it stood on disk when taken.
pub struct Snapshot {
    files: Vec<(PathBuf, Option<Vec<u8>>)>,
}

impl Snapshot {
    pub fn take(db: &Path) -> Snapshot {
        Self::take_with(db, &[])
    }

    /// Critical memory and `more` files with it (the NVRAM mirror, a
    /// configuration): what an attacker with every file copies.
    pub fn take_with(db: &Path, more: &[&Path]) -> Snapshot {
        let all = files(db).into_iter().chain(more.iter().map(|p| p.to_path_buf()));
        Snapshot { files: all.map(|f| (f.clone(), std::fs::read(&f).ok())).collect() }
    }

    /// Put every file back as it was (one absent then is removed).
    pub fn restore(&self) {
        for (f, bytes) in &self.files {
            match bytes {
                Some(b) => std::fs::write(f, b).unwrap(),
                None => {
                    let _ = std::fs::remove_file(f);
                }
            }
        }
        if let Some((db, _)) = self.files.first() {
            for f in shm(db) {
                let _ = std::fs::remove_file(f);
            }
        }
    }
}

/// Delete critical memory (a wipe).
pub fn delete(db: &Path) {
    for f in files(db).iter().chain(shm(db).iter()) {
        let _ = std::fs::remove_file(f);
    }
}
