//! Issue 68: the command line's RAM clear asks the logic door's sensors
//! (the configuration's `panel`) instead of assuming the door open; a
//! floor cabinet with no sensor wired is refused, and a sensor that cannot
//! be read authorises nothing.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use meters::{Machine, MachineConfig, Mode, SeedChoice};

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_egm-lab")).args(args).output().unwrap()
}

fn said(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A cabinet configuration of `machine` with `panel` (RON, or empty).
fn cabinet(dir: &Path, name: &str, machine: &MachineConfig, panel: &str) -> PathBuf {
    let path = dir.join(name);
    let panel = if panel.is_empty() { String::new() } else { format!(", panel: Some({panel})") };
    std::fs::write(&path, format!("(machine: {}{panel})", ron::ser::to_string(machine).unwrap())).unwrap();
    path
}

/// A lab machine's critical memory with money on it, its logic door
/// journaled open (a clear of a journal that verifies needs it to say so
/// too).
fn lab_machine(dir: &Path) -> (PathBuf, MachineConfig) {
    let db = dir.join("egm.sqlite");
    let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
    let mut m = Machine::open(&db, config.clone(), SeedChoice::Lab(3)).unwrap();
    m.insert_note(5_000).unwrap();
    m.open_door(meters::Door::Logic).unwrap();
    m.shutdown().unwrap();
    (db, config)
}

fn clear(db: &Path, config: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["ram-clear", db.to_str().unwrap(), "--operator", "operator", "--pin", "0000", "--reason", "test", "--config", config.to_str().unwrap()];
    args.extend_from_slice(extra);
    lab(&args)
}

#[test]
fn a_floor_cabinet_with_no_logic_door_sensor_is_not_cleared_on_the_operators_word() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = lab_machine(dir.path());
    let before = std::fs::read(&db).unwrap();
    let floor = MachineConfig {
        mode: Mode::Production,
        key_store: meters::KeyStoreConfig::Tpm { tcti: meters::keystore::CABINET_TCTI.into(), nv_index: 0x0150_0020 },
        operator: meters::OperatorCredential::held_by_tpm("ana").unwrap(),
        evaluation: false,
        ..MachineConfig::default()
    };
    // Neither a machine configuration nor a cabinet one without a panel.
    let machine_only = dir.path().join("floor-machine.ron");
    std::fs::write(&machine_only, ron::ser::to_string(&floor).unwrap()).unwrap();
    for config in [machine_only, cabinet(dir.path(), "floor.ron", &floor, "")] {
        for extra in [&[][..], &["--key-lost"][..]] {
            let out = clear(&db, &config, extra);
            assert!(!out.status.success() && said(&out).contains("wires no logic door sensor"), "{}", said(&out));
        }
        let out = lab(&["archive-lost", db.to_str().unwrap(), "--config", config.to_str().unwrap()]);
        assert!(!out.status.success() && said(&out).contains("wires no logic door sensor"), "{}", said(&out));
    }
    assert_eq!(std::fs::read(&db).unwrap(), before, "critical memory changed");
}

#[test]
fn a_logic_door_sensor_that_cannot_be_read_authorises_no_clear() {
    let dir = tempfile::tempdir().unwrap();
    let (db, config) = lab_machine(dir.path());
    let before = std::fs::read(&db).unwrap();
    let absent = dir.path().join("event9");
    let wired = cabinet(dir.path(), "wired.ron", &config, &format!("(inputs: [{absent:?}], doors: [(door: Logic, switch: Key(256))])"));
    let out = clear(&db, &wired, &[]);
    assert!(!out.status.success() && said(&out).contains("Logic door's sensors cannot be read") && said(&out).contains("event9"), "{}", said(&out));
    assert_eq!(std::fs::read(&db).unwrap(), before, "critical memory changed");
    // A panel that wires other doors only: a lab cabinet takes the
    // operator's word for its logic door, and says so; the clear is made.
    let other = cabinet(dir.path(), "main-only.ron", &config, &format!("(inputs: [{absent:?}], doors: [(door: Main, switch: Key(257))])"));
    let out = clear(&db, &other, &[]);
    assert!(out.status.success() && said(&out).contains("takes the operator's word") && said(&out).contains("RAM clear 1 recorded"), "{}", said(&out));
}
