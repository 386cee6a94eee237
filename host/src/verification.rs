//! Start-up self-tests (certification.md H-51, E-35): the SHA-256 of every
//! file that can affect play, against the approved manifest, before any
//! play. A failure names the file, the expected and the actual digest.
//! And the external verification a lab runs while the cabinet plays
//! (H-52): HMAC-SHA256 under the lab's seed over every component.

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

    /// Whether every check passed: the self-tests' verdict (H-55), the one
    /// predicate the journal's record, the floor's line and the linked
    /// pools are each decided by.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(FileCheck::ok)
    }

    /// What the journal records of this verification: whether it passed,
    /// and each failure by file, expected and actual digest, or the count
    /// verified (`context` says against what).
    pub fn detail(&self, context: &str) -> (bool, String) {
        if self.passed() {
            return (true, format!("{} paytables verified {context}", self.checks.len()));
        }
        let failures: Vec<String> = self.failures().iter().map(|c| format!("{}: expected {}, found {}", c.file.display(), c.expected, c.actual)).collect();
        (false, failures.join("; "))
    }
}

impl Report {
    /// H-53: what this verification found of each component, as the core's
    /// download/verification log takes it: (component, file, digest,
    /// approved). A lab build's program that the manifest does not list is
    /// reported, not logged.
    pub fn software_found(&self) -> Vec<(String, String, String, bool)> {
        self.checks
            .iter()
            .map(|c| {
                let is_paytable = c.file.extension().is_some_and(|e| e == "json");
                let stem = c.file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                let component = if is_paytable { format!("paytable {stem}") } else { "program".to_owned() };
                (component, c.file.display().to_string(), c.actual.clone(), c.ok())
            })
            .collect()
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

/// H-52: a component a lab verifies while the cabinet runs — the program
/// (its art is compiled into it), the configuration, the approved
/// manifest, each enabled game's compiled paytable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    pub name: String,
    pub file: PathBuf,
}

/// The cabinet's components, in the order the answer lists them.
pub fn components(program: &Path, config: &Path, manifest: &Path, games: &[String], paytable_dir: &Path) -> Vec<Component> {
    let mut list = vec![
        Component { name: "program".into(), file: program.to_owned() },
        Component { name: "configuration".into(), file: config.to_owned() },
        Component { name: "manifest".into(), file: manifest.to_owned() },
    ];
    list.extend(games.iter().map(|id| Component { name: format!("paytable {id}"), file: paytable_dir.join(format!("{id}.json")) }));
    list
}

/// H-52's seed: 1 to 64 bytes, in hexadecimal.
pub fn parse_seed(text: &str) -> Result<Vec<u8>, String> {
    let seed = hex::decode(text.trim()).map_err(|e| format!("the seed {text:?} is not hexadecimal: {e}"))?;
    if seed.is_empty() || seed.len() > 64 {
        return Err(format!("the seed is 1 to 64 bytes, not {}", seed.len()));
    }
    Ok(seed)
}

/// One component's answer: HMAC-SHA256 keyed by the lab's seed over the
/// file from `offset` to its end, in hexadecimal, or why it has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeded {
    pub component: Component,
    pub hmac: Result<String, String>,
}

/// H-52 (SAS 6.02 §17, GAT): the seeded verification of every component,
/// read from the files as they are now, while the cabinet plays on (it
/// reads only; the caller runs it beside the game).
pub fn seeded(seed: &[u8], offset: u64, components: &[Component]) -> Vec<Seeded> {
    components.iter().map(|c| Seeded { component: c.clone(), hmac: hmac_file(seed, offset, &c.file) }).collect()
}

fn hmac_file(seed: &[u8], offset: u64, path: &Path) -> Result<String, String> {
    use hmac::Mac;
    use std::io::{Read, Seek, SeekFrom};
    let unreadable = |e: std::io::Error| format!("{} unreadable: {e}", path.display());
    let mut f = std::fs::File::open(path).map_err(unreadable)?;
    let len = f.metadata().map_err(unreadable)?.len();
    if offset > len {
        return Err(format!("offset {offset} is beyond the file's {len} bytes"));
    }
    f.seek(SeekFrom::Start(offset)).map_err(unreadable)?;
    let mut mac = hmac::Hmac::<Sha256>::new_from_slice(seed).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(unreadable)?;
        if n == 0 {
            break;
        }
        mac.update(&buf[..n]);
    }
    Ok(hex::encode(mac.finalize().into_bytes()))
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
        let listed = Manifest {
            approved: vec![],
            programs: vec![ManifestEntry { id: "cabinet".into(), file: "cabinet".into(), sha256: digest.clone() }],
            signature: None,
        };

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

    /// H-52's HMAC against RFC 4231's published vectors (test cases 2 and
    /// 6: a short key, and a key longer than a block), and the offset: the
    /// answer covers the file from it to its end.
    #[test]
    fn the_seeded_digest_is_rfc_4231_s_hmac_from_the_offset() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("component");
        std::fs::write(&file, b"skipwhat do ya want for nothing?").unwrap();
        let c = [Component { name: "paytable".into(), file: file.clone() }];
        let jefe = seeded(b"Jefe", 4, &c);
        assert_eq!(jefe[0].hmac.as_deref(), Ok("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
        std::fs::write(&file, b"Test Using Larger Than Block-Size Key - Hash Key First").unwrap();
        let long = seeded(&[0xaa; 131], 0, &c);
        assert_eq!(long[0].hmac.as_deref(), Ok("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"));
        let past = seeded(b"Jefe", 1_000, &c);
        assert_eq!(past[0].hmac, Err("offset 1000 is beyond the file's 54 bytes".into()));
        let gone = seeded(b"Jefe", 0, &[Component { name: "x".into(), file: dir.path().join("missing") }]);
        assert!(gone[0].hmac.as_ref().is_err_and(|e| e.contains("missing unreadable")));
        assert_eq!(parse_seed("0aFF").unwrap(), vec![0x0a, 0xff]);
        assert!(parse_seed("").is_err() && parse_seed("abc").is_err() && parse_seed(&"00".repeat(65)).is_err());
    }
}
