//! The file stand-in for the key store: a random key in `<db>.key` (mode
//! 0600) and the anchor's mark in `<db>.anchor` (40 bytes, as a TPM's
//! index holds it). Anyone who can copy the
//! folder can copy both, so it protects nothing against file access: it is
//! for development and labs only, and production mode refuses it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{AnchorMark, KeyStore, KeyStoreError, OperatorCheck, OwnerSecrets, expect_at};
use crate::mac::mac_of;

pub(crate) struct FileStandIn {
    key_path: PathBuf,
    counter_path: PathBuf,
}

fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

impl FileStandIn {
    pub(crate) fn new(db: &Path) -> Self {
        Self { key_path: beside(db, ".key"), counter_path: beside(db, ".anchor") }
    }

    fn err(path: &Path, detail: impl ToString) -> KeyStoreError {
        KeyStoreError::File { path: path.display().to_string(), detail: detail.to_string() }
    }

    /// The secret, or `None` when there is none (or only a torn one).
    fn secret(&self) -> Result<Option<[u8; 32]>, KeyStoreError> {
        match fs::read(&self.key_path) {
            Ok(bytes) if bytes.len() == 32 => {
                let mut k = [0u8; 32];
                k.copy_from_slice(&bytes);
                Ok(Some(k))
            }
            Ok(_) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Self::err(&self.key_path, e)),
        }
    }

    /// Make the secret, all or nothing (a torn one is replaced).
    fn create_secret(&self) -> Result<[u8; 32], KeyStoreError> {
        if fs::metadata(&self.key_path).is_ok() {
            fs::remove_file(&self.key_path).map_err(|e| Self::err(&self.key_path, e))?;
        }
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| Self::err(&self.key_path, e))?;
        write_atomically(&self.key_path, &key, false).map_err(|e| Self::err(&self.key_path, e))?;
        Ok(key)
    }
}

impl KeyStore for FileStandIn {
    fn derive_key(&mut self, label: &[u8]) -> Result<[u8; 32], KeyStoreError> {
        let secret = self.secret()?.ok_or_else(|| Self::err(&self.key_path, "missing"))?;
        Ok(mac_of(&secret, &[b"egm key derivation v1", label]))
    }

    fn make_secret_if_missing(&mut self) -> Result<(), KeyStoreError> {
        if self.secret()?.is_none() {
            self.create_secret()?;
        }
        Ok(())
    }

    fn counter(&mut self) -> Result<Option<AnchorMark>, KeyStoreError> {
        match fs::read(&self.counter_path) {
            Ok(bytes) => AnchorMark::from_bytes(&bytes).map(Some).ok_or_else(|| {
                Self::err(&self.counter_path, format!("not an anchor mark ({} bytes, not {}; an earlier version's counter is 8)", bytes.len(), AnchorMark::LEN))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Self::err(&self.counter_path, e)),
        }
    }

    fn counter_name(&mut self) -> Result<Option<Vec<u8>>, KeyStoreError> {
        Ok(None)
    }

    fn advance(&mut self, from: Option<AnchorMark>, to: AnchorMark) -> Result<AnchorMark, KeyStoreError> {
        expect_at(self.counter()?, from)?;
        write_atomically(&self.counter_path, &to.to_bytes(), true).map_err(|e| Self::err(&self.counter_path, e))?;
        self.counter()?.ok_or_else(|| Self::err(&self.counter_path, "vanished after a write"))
    }

    fn take_ownership(&mut self, _secrets: &OwnerSecrets) -> Result<(), KeyStoreError> {
        Ok(())
    }

    fn check_operator(&mut self, _credential: &[u8; 32]) -> Result<OperatorCheck, KeyStoreError> {
        Ok(OperatorCheck::NotKept)
    }

    fn keeps_operator(&self) -> bool {
        false
    }

    fn endorse(&mut self) -> Result<Option<super::Endorsed>, KeyStoreError> {
        Ok(None)
    }
}

/// Write `bytes` at `path` all or nothing: a temporary file, synced, then
/// given the name (renamed over an old one when `replace`, else linked so a
/// name that appeared meanwhile is never replaced), then the folder synced.
fn write_atomically(path: &Path, bytes: &[u8], replace: bool) -> std::io::Result<()> {
    let tmp = beside(path, ".new");
    let _ = fs::remove_file(&tmp);
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    if replace {
        fs::rename(&tmp, path)?;
    } else {
        fs::hard_link(&tmp, path)?;
        fs::remove_file(&tmp)?;
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}
