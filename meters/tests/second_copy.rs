//! The second copy of critical memory (D-28; issue 21): one valid copy
//! rebuilds the other with a logged recoverable event; a copy left behind
//! (a cut between the two writes, a deleted file) is brought up to date;
//! neither valid is a RAM error.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use meters::{BootError, Entry, IntegrityError, Machine, MachineConfig, Mode, SeedChoice};
use rusqlite::Connection;
use serde_json::json;

fn config() -> MachineConfig {
    MachineConfig { mode: Mode::Lab, ..MachineConfig::default() }
}

fn second(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}.second", db.display()))
}

/// A machine with some play, shut down. Returns its credit.
fn history(db: &Path) -> u64 {
    let mut m = Machine::open(db, config(), SeedChoice::Lab(8)).unwrap();
    m.insert_note(2_000).unwrap();
    for win in [0, 300, 0] {
        let r = m.play_round("g", 1, 100, "outcome", |_| Ok::<_, String>(json!({ "win": win }))).map(|(r, _)| r).unwrap();
        m.settle_round(r, win, vec![]).unwrap();
    }
    let credit = m.credit();
    m.shutdown().unwrap();
    credit
}

fn rebuilt(m: &Machine) -> Vec<String> {
    m.events(100).unwrap().into_iter().filter_map(|r| if let Entry::CopyRebuilt { detail } = r.entry { Some(detail) } else { None }).collect()
}

fn corrupt_a_meter(db: &Path) {
    let c = Connection::open(db).unwrap();
    c.execute("UPDATE journal SET body = replace(body, '2000', '9000') WHERE kind = 'note_in'", []).unwrap();
}

#[test]
fn both_copies_are_written_and_verified_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let credit = history(&db);
    let rows = |p: &Path| -> i64 { Connection::open(p).unwrap().query_row("SELECT count(*) FROM journal", [], |r| r.get(0)).unwrap() };
    assert!(rows(&db) > 10);
    assert_eq!(rows(&db), rows(&second(&db)));
    let m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    assert_eq!(m.credit(), credit);
    assert!(rebuilt(&m).is_empty());
}

#[test]
fn a_damaged_first_copy_is_rebuilt_from_the_second_and_logged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let credit = history(&db);
    corrupt_a_meter(&db);
    let m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    assert_eq!(m.credit(), credit);
    assert_eq!(m.state().totals.dinheiro_entrado, 2_000);
    let r = rebuilt(&m);
    assert_eq!(r.len(), 1);
    assert!(r[0].contains("first copy") && r[0].contains("MAC mismatch") && r[0].contains("rebuilt from the second"), "{}", r[0]);
}

#[test]
fn a_damaged_or_deleted_second_copy_is_rebuilt_from_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let credit = history(&db);
    corrupt_a_meter(&second(&db));
    let m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    assert_eq!(m.credit(), credit);
    assert!(rebuilt(&m)[0].contains("second copy") && rebuilt(&m)[0].contains("failed verification"), "{:?}", rebuilt(&m));
    m.shutdown().unwrap();
    // Deleted: it is behind (empty), and brought up to date.
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", second(&db).display()));
    }
    let m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    assert_eq!(m.credit(), credit);
    assert!(rebuilt(&m).iter().any(|d| d.contains("second copy") && d.contains("was behind")), "{:?}", rebuilt(&m));
}

#[test]
fn a_copy_left_behind_by_a_cut_between_the_two_writes_catches_up() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    m.insert_note(2_000).unwrap();
    m.shutdown().unwrap();
    // The second copy as it stood before the last commits.
    let aside = dir.path().join("aside");
    std::fs::copy(second(&db), &aside).unwrap();
    let mut m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    m.insert_note(1_000).unwrap();
    m.shutdown().unwrap();
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", second(&db).display()));
    }
    std::fs::copy(&aside, second(&db)).unwrap();
    let m = Machine::open(&db, config(), SeedChoice::Lab(8)).unwrap();
    assert_eq!(m.credit(), 3_000);
    assert!(rebuilt(&m).iter().any(|d| d.contains("was behind")), "{:?}", rebuilt(&m));
}

#[test]
fn neither_copy_valid_is_a_ram_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    history(&db);
    corrupt_a_meter(&db);
    corrupt_a_meter(&second(&db));
    match Machine::open(&db, config(), SeedChoice::Lab(8)) {
        Err(BootError::RamError(IntegrityError::MacMismatch { .. })) => {}
        other => panic!("expected a RAM error, got {:?}", other.map(|_| ())),
    }
}

/// D-28, "≥ 2 physical devices": a floor cabinet keeps its two copies on
/// two disks, which the core reads from the kernel (the device each
/// copy's folder stands on, through partitions and volumes to the disks),
/// never from the configuration's word. The embedded default — the second
/// copy beside the first — is refused before anything is written or any
/// TPM is asked for a key; so are no second copy and a copy in memory
/// (tmpfs). An evaluation cabinet may keep both side by side (its every
/// screen says what it is). The disks of a real two-disk cabinet are in
/// `store::media`'s tests; this machine has one.
#[test]
fn a_floor_cabinet_keeps_its_second_copy_on_another_disk() {
    use meters::config::SecondCopy;
    use meters::keystore::release;
    use meters::{KeyStoreConfig, MediaError, OperatorCredential};
    const RELEASE: [u8; 32] = *b"egm release 2026.12 (D-28 build)";
    const PIN: &str = "7391046285";
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let key = release::new_signing_key().unwrap();
    let floor = MachineConfig {
        mode: Mode::Production,
        key_store: KeyStoreConfig::Tpm { tcti: meters::keystore::CABINET_TCTI.into(), nv_index: 0x0150_0020 },
        operator: OperatorCredential::held_by_tpm("ana").unwrap(),
        release_read: Some(RELEASE),
        release_signature: Some(release::sign(&key, &RELEASE).unwrap()),
        evaluation: false,
        ..MachineConfig::default()
    };
    assert_eq!(floor.second_copy, SecondCopy::Beside, "the embedded default");
    let beside = |r: Result<(), BootError>| match r {
        Err(BootError::Media(MediaError::SameMedium { first, second: copy, disk })) => {
            assert_eq!((first, copy), (db.clone(), second(&db)));
            assert!(!disk.is_empty());
        }
        // A temporary folder in memory (a container's tmpfs): no disk.
        Err(BootError::Media(MediaError::NotADisk { path, .. })) => assert_eq!(path, db),
        Err(other) => panic!("expected the copies refused on one disk, got {other}"),
        Ok(_) => panic!("a floor cabinet booted with both copies on one disk"),
    };
    beside(Machine::provision(&db, floor.clone(), PIN).map(|_| ()));
    beside(Machine::open(&db, floor.clone(), SeedChoice::Entropy).map(|_| ()));
    beside(Machine::ram_clear(&db, &floor, "ana", PIN, "D-28", true).map(|_| ()));
    assert!(!db.exists() && !second(&db).exists(), "critical memory was written");
    let off = MachineConfig { second_copy: SecondCopy::Off, ..floor.clone() };
    assert!(matches!(Machine::provision(&db, off, PIN), Err(BootError::Media(MediaError::NoSecondCopy))));
    let shm = Path::new("/dev/shm/egm-d28-second.sqlite");
    if Path::new("/dev/shm").is_dir() {
        let memory = MachineConfig { second_copy: SecondCopy::At(shm.into()), ..floor.clone() };
        match Machine::provision(&db, memory, PIN) {
            Err(BootError::Media(MediaError::NotADisk { path, .. })) => assert!(path == shm || path == db, "{}", path.display()),
            Err(other) => panic!("expected a copy in memory refused, got {other}"),
            Ok(_) => panic!("a floor cabinet kept a copy in memory"),
        }
        assert!(!shm.exists());
    }
    // An evaluation cabinet passes this check (and goes on to its TPM,
    // which this test does not start).
    let evaluation = MachineConfig { evaluation: true, ..floor };
    match Machine::provision(&db, evaluation, PIN) {
        Err(BootError::Media(e)) => panic!("an evaluation cabinet refused for its media: {e}"),
        Err(_) => {}
        Ok(_) => panic!("provisioned without a TPM"),
    }
}
