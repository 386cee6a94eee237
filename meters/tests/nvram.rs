//! The head mirrored into battery-backed NVRAM (issue 21; a file stands in
//! for the device): with the mirror on, a copy restored inside the anchor's
//! window (which boots without it, tests/anchor.rs) is detected too.
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use meters::{BootError, Door, IntegrityError, Machine, MachineConfig, Mode, SeedChoice};
use serde_json::json;
use support::copies::Snapshot;

fn config(dir: &Path) -> MachineConfig {
    MachineConfig { mode: Mode::Lab, nvram_mirror: Some(dir.join("nvram.bin")), ..MachineConfig::default() }
}

fn lose(m: &mut Machine) {
    let r = m.play_round("g", 1, 100, "outcome", |_| Ok::<_, String>(json!({}))).map(|(r, _)| r).unwrap();
    m.settle_round(r, 0, vec![]).unwrap();
}

#[test]
fn a_copy_restored_inside_the_window_is_detected_by_the_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&db, config(dir.path()), SeedChoice::Lab(2)).unwrap();
    m.insert_note(5_000).unwrap();
    lose(&mut m);
    let copy = Snapshot::take(&db);
    lose(&mut m);
    lose(&mut m);
    drop(m);
    // A clean reboot agrees with the mirror.
    let m = Machine::open(&db, config(dir.path()), SeedChoice::Lab(2)).unwrap();
    assert_eq!(m.credit(), 4_700);
    drop(m);
    copy.restore();
    match Machine::open(&db, config(dir.path()), SeedChoice::Lab(2)) {
        Err(BootError::RamError(IntegrityError::Nvram(d))) => assert!(d.contains("restored"), "{d}"),
        other => panic!("expected the mirror to refuse the copy, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn the_mirror_follows_a_ram_clear_and_refuses_to_be_edited() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&db, config(dir.path()), SeedChoice::Lab(2)).unwrap();
    m.insert_note(5_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    drop(m);
    Machine::ram_clear(&db, &config(dir.path()), "operator", "0000", "mirror", true).unwrap();
    let m = Machine::open(&db, config(dir.path()), SeedChoice::Lab(2)).unwrap();
    assert_eq!(m.state().clears, 1);
    drop(m);
    // One byte of the mirrored sequence changed: its MAC no longer verifies.
    let nv = dir.path().join("nvram.bin");
    let mut bytes = std::fs::read(&nv).unwrap();
    bytes[8] ^= 1;
    std::fs::write(&nv, bytes).unwrap();
    match Machine::open(&db, config(dir.path()), SeedChoice::Lab(2)) {
        Err(BootError::RamError(IntegrityError::Nvram(d))) => assert!(d.contains("MAC"), "{d}"),
        other => panic!("expected the edited mirror to be refused, got {:?}", other.map(|_| ())),
    }
}
