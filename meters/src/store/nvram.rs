//! The head mirrored into battery-backed NVRAM (issue 21), as gaming
//! boards have: after every write to critical memory, the journal's end
//! (epoch, sequence, MAC, anchor with its chain) is written there under the machine key's
//! MAC. At boot the journal must reach at least that end, with the same
//! record there: any copy restored from before the last write is detected,
//! inside the anchor's window too. The mirror is written after the journal
//! commits, so the journal may be one write ahead of it, never behind.
//!
//! [`NvramMirror`] is the interface; this implementation keeps the 160 bytes
//! in a file (a stand-in for development; a cabinet maps its NVRAM device
//! at the same place).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::head::{Anchor, Head, Pending, head_tag};
use super::{IntegrityError, StoreError, to32};
use crate::mac::same;

const LEN: usize = 8 + 8 + 32 + 8 + 8 + 32 + 32 + 32;

pub(crate) struct NvramMirror {
    path: PathBuf,
}

impl NvramMirror {
    pub(crate) fn new(path: &Path) -> Self {
        Self { path: path.to_owned() }
    }

    /// Mirror `head`.
    pub(crate) fn write(&self, head: &Head, key: &[u8; 32]) -> Result<(), StoreError> {
        let mut bytes = Vec::with_capacity(LEN);
        bytes.extend_from_slice(&head.epoch.to_le_bytes());
        bytes.extend_from_slice(&head.seq.to_le_bytes());
        bytes.extend_from_slice(&head.mac);
        bytes.extend_from_slice(&head.anchor.value.to_le_bytes());
        bytes.extend_from_slice(&head.anchor.pending.code().to_le_bytes());
        bytes.extend_from_slice(&head.anchor.chain);
        bytes.extend_from_slice(&head.anchor.previous);
        bytes.extend_from_slice(&head_tag(key, head));
        let mut f = fs::OpenOptions::new().write(true).create(true).truncate(false).open(&self.path)?;
        f.write_all(&bytes)?;
        f.sync_data()?;
        Ok(())
    }

    /// The mirrored head, verified; `None` before the first write.
    pub(crate) fn read(&self, key: &[u8; 32]) -> Result<Option<Head>, StoreError> {
        let bytes = match fs::read(&self.path) {
            Ok(b) if b.is_empty() => return Ok(None),
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let bad = |detail: &str| StoreError::from(IntegrityError::Nvram(detail.to_owned()));
        if bytes.len() != LEN {
            return Err(bad("the NVRAM mirror is not a mirrored head"));
        }
        let u = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(b)
        };
        let pending = Pending::from_code(u(56) as i64).ok_or_else(|| bad("unknown anchor state in the NVRAM mirror"))?;
        let anchor = Anchor { value: u(48), pending, chain: to32(&bytes[64..96]), previous: to32(&bytes[96..128]) };
        let head = Head { epoch: u(0), seq: u(8), mac: to32(&bytes[16..48]), anchor };
        if !same(&bytes[128..160], &head_tag(key, &head)) {
            return Err(bad("the NVRAM mirror's MAC does not verify: it was edited or comes from another machine"));
        }
        Ok(Some(head))
    }
}
