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
    /// The running program's digest when the manifest does not list it and
    /// the cabinet is in lab mode (reported for the lab to record, not checked).
    pub program: Option<FileCheck>,
}

impl Report {
    pub fn failures(&self) -> Vec<&FileCheck> {
        self.checks.iter().filter(|c| !c.ok()).collect()
    }

    /// What the journal records of this verification: whether it passed,
    /// and each failure by file, expected and actual digest, or the count
    /// verified (`context` says against what).
    pub fn detail(&self, context: &str) -> (bool, String) {
        let failures: Vec<String> = self.failures().iter().map(|c| format!("{}: expected {}, found {}", c.file.display(), c.expected, c.actual)).collect();
        if failures.is_empty() { (true, format!("{} paytables verified {context}", self.checks.len())) } else { (false, failures.join("; ")) }
    }
}

pub fn sha256_file(path: &Path) -> String {
    match std::fs::read(path) {
        Ok(bytes) => hex::encode(Sha256::digest(bytes)),
        Err(e) => format!("unreadable: {e}"),
    }
}

/// Verify every enabled game's compiled paytable, and the program itself,
/// against the manifest.
pub fn verify(games: &[String], paytable_dir: &Path, manifest: &Manifest, production: bool) -> Report {
    let mut report = Report::default();
    for id in games {
        let file = paytable_dir.join(format!("{id}.json"));
        let expected = manifest.approved.iter().find(|e| &e.id == id).map_or_else(|| "not in the approved manifest".to_owned(), |e| e.sha256.clone());
        report.checks.push(FileCheck { actual: sha256_file(&file), file, expected });
    }
    if let Ok(exe) = std::env::current_exe() {
        check_program(&mut report, &exe, manifest, production);
    }
    report
}

/// The program file: checked when the manifest lists it, or in production
/// (where an unlisted program fails); in lab mode an unlisted program's
/// digest is only reported.
pub fn check_program(report: &mut Report, exe: &Path, manifest: &Manifest, production: bool) {
    let name = exe.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let actual = sha256_file(exe);
    match manifest.programs.iter().find(|e| e.file == name) {
        Some(e) => report.checks.push(FileCheck { file: exe.to_owned(), expected: e.sha256.clone(), actual }),
        None if production => report.checks.push(FileCheck { file: exe.to_owned(), expected: "not in the approved manifest".to_owned(), actual }),
        None => report.program = Some(FileCheck { file: exe.to_owned(), expected: "not in the approved manifest (lab mode)".to_owned(), actual }),
    }
}

pub fn read_manifest(path: &Path) -> Result<Manifest, artifact::ArtifactError> {
    artifact::read_manifest(path)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use paytables::artifact::ManifestEntry;

    #[test]
    fn the_program_is_checked_when_listed_and_required_in_production() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("cabinet");
        std::fs::write(&exe, b"a certified build").unwrap();
        let digest = hex::encode(Sha256::digest(b"a certified build"));
        let listed = Manifest { approved: vec![], programs: vec![ManifestEntry { id: "cabinet".into(), file: "cabinet".into(), sha256: digest.clone() }] };

        let mut r = Report::default();
        check_program(&mut r, &exe, &listed, true);
        assert!(r.failures().is_empty() && r.checks.len() == 1);

        std::fs::write(&exe, b"a patched build").unwrap();
        let mut r = Report::default();
        check_program(&mut r, &exe, &listed, false);
        assert_eq!(r.failures().len(), 1, "a listed program that changed fails, even in lab mode");
        assert_eq!(r.failures()[0].expected, digest);

        let mut r = Report::default();
        check_program(&mut r, &exe, &Manifest::default(), true);
        assert_eq!(r.failures().len(), 1, "production: an unlisted program fails");

        let mut r = Report::default();
        check_program(&mut r, &exe, &Manifest::default(), false);
        assert!(r.failures().is_empty() && r.program.is_some(), "lab mode: reported only");
    }
}
