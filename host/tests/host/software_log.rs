//! H-53: the download/verification log in critical memory, across
//! restarts on a real SQLite file. Each boot verifies every enabled
//! paytable against the approved manifest and logs, against the digests it
//! last accepted, what is new (installed), changed and approved
//! (replaced), not approved (refused: the cabinet tilts), or gone
//! (removed), with the digests and the verification's authority — once
//! each, never again for what did not change.

use crate::tables::open_with;
use crate::test_config;

use meters::{Entry, SoftwareOutcome, Tilt};
use paytables::artifact::{Manifest, ManifestEntry, sha256_hex};

const GAMES: [&str; 2] = ["bingo-75", "roleta-francesa"];

/// The shipped artifacts of [`GAMES`] copied into `dir`, a manifest
/// approving them, and the embedded configuration offering `games`.
fn install(dir: &std::path::Path, games: &[&str]) -> std::path::PathBuf {
    let ws = test_config::workspace();
    let compiled = dir.join("compiled");
    std::fs::create_dir_all(&compiled).unwrap();
    let text = test_config::text(dir);
    let games_line = text.lines().find(|l| l.trim_start().starts_with("games: [\"classic-sevens\"")).unwrap().to_owned();
    let list: Vec<String> = games.iter().map(|g| format!("{g:?}")).collect();
    let text = text
        .replace(&games_line, &format!("    games: [{}],", list.join(", ")))
        .replace(&format!("{:?}", ws.join("assets/paytables/compiled").display().to_string()), &format!("{:?}", compiled.display().to_string()))
        .replace(
            &format!("{:?}", ws.join("assets/paytables/approved.ron").display().to_string()),
            &format!("{:?}", dir.join("approved.ron").display().to_string()),
        );
    test_config::write(dir, &text)
}

/// Write `bytes` as `id`'s artifact, approved in the manifest or not.
fn put(dir: &std::path::Path, id: &str, bytes: &[u8], approve: bool) {
    std::fs::write(dir.join("compiled").join(format!("{id}.json")), bytes).unwrap();
    let path = dir.join("approved.ron");
    let mut m = paytables::artifact::read_manifest(&path).unwrap_or_else(|_| Manifest::default());
    if approve {
        m.approved.retain(|e| e.id != id);
        m.approved.push(ManifestEntry { id: id.into(), file: format!("{id}.json"), sha256: sha256_hex(bytes) });
        std::fs::write(&path, ron::ser::to_string_pretty(&m, ron::ser::PrettyConfig::default()).unwrap()).unwrap();
    }
}

fn shipped(id: &str) -> Vec<u8> {
    std::fs::read(test_config::workspace().join(format!("assets/paytables/compiled/{id}.json"))).unwrap()
}

/// The log, oldest first: (component, outcome, digest, previous).
fn log(s: &game_host::session::Session) -> Vec<(String, SoftwareOutcome, String, Option<String>)> {
    let mut out: Vec<_> = s
        .machine()
        .software_log()
        .unwrap()
        .into_iter()
        .map(|r| match r.entry {
            Entry::SoftwareChanged { component, outcome, sha256, previous, by, .. } => {
                assert!(by.starts_with("boot verification against ") && by.contains("approved.ron (release "), "{by}");
                (component, outcome, sha256, previous)
            }
            other => panic!("not a software record: {other:?}"),
        })
        .collect();
    out.reverse();
    out
}

#[test]
fn every_paytable_installed_replaced_refused_or_removed_is_logged_once_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let config = install(d, &GAMES);
    let (bingo, roleta) = (shipped(GAMES[0]), shipped(GAMES[1]));
    put(d, GAMES[0], &bingo, true);
    put(d, GAMES[1], &roleta, true);
    let boot = || open_with(d, &config, 3);

    // First boot: both installed.
    let s = boot();
    let first = log(&s);
    assert_eq!(first.len(), 2, "{first:?}");
    assert_eq!(
        (first[0].0.as_str(), first[0].1, first[0].2.as_str(), &first[0].3),
        ("paytable bingo-75", SoftwareOutcome::Installed, sha256_hex(&bingo).as_str(), &None)
    );
    assert_eq!((first[1].0.as_str(), first[1].1), ("paytable roleta-francesa", SoftwareOutcome::Installed));
    drop(s);
    // Nothing changed: nothing logged.
    assert_eq!(log(&boot()).len(), 2);

    // A new approved bingo-75 (the same game, its bytes changed): replaced.
    let mut newer = bingo.clone();
    newer.push(b'\n');
    put(d, GAMES[0], &newer, true);
    let s = boot();
    let l = log(&s);
    assert_eq!(l.len(), 3);
    assert_eq!(l[2], ("paytable bingo-75".into(), SoftwareOutcome::Replaced, sha256_hex(&newer), Some(sha256_hex(&bingo))));
    assert!(s.machine().state().tilts.is_empty());
    drop(s);

    // roleta-francesa changed on disk without an approval: refused, tilted,
    // logged once however often the cabinet boots on it.
    let mut tampered = roleta.clone();
    tampered.push(b' ');
    put(d, GAMES[1], &tampered, false);
    let s = boot();
    assert!(s.machine().state().tilts.contains(&Tilt::ProgramVerification));
    let l = log(&s);
    assert_eq!(l.len(), 4);
    assert_eq!(l[3], ("paytable roleta-francesa".into(), SoftwareOutcome::Refused, sha256_hex(&tampered), Some(sha256_hex(&roleta))));
    drop(s);
    assert_eq!(log(&boot()).len(), 4, "a refusal already logged is not logged again");

    // roleta-francesa taken out of the configuration: removed, from the
    // digest last accepted.
    let config = install(d, &GAMES[..1]);
    let s = open_with(d, &config, 3);
    let l = log(&s);
    assert_eq!(l.len(), 5);
    assert_eq!(l[4], ("paytable roleta-francesa".into(), SoftwareOutcome::Removed, String::new(), Some(sha256_hex(&roleta))));
    assert!(s.machine().state().tilts.contains(&Tilt::ProgramVerification), "the refused file's tilt waits for the attendant");
}
