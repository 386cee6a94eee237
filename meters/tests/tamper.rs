//! Tamper tests on a real SQLite file (certification.md D-28, D-29, D-32):
//! change one byte of a meter record, delete a record, swap two records —
//! each is detected at boot and names the first bad record; nothing is
//! repaired silently; a RAM clear is authenticated and survives itself.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use meters::IntegrityError;
use meters::{BootError, Machine, MachineConfig, Mode, SeedChoice};
use rusqlite::Connection;
use serde_json::json;

/// One copy of critical memory: these tests are about what the MAC chain
/// detects in a copy (the second copy's repair is tests/second_copy.rs).
fn lab_config() -> MachineConfig {
    MachineConfig { mode: Mode::Lab, second_copy: meters::config::SecondCopy::Off, ..MachineConfig::default() }
}

/// A machine with some history, cleanly shut down. Returns the file.
fn machine_with_history(dir: &tempfile::TempDir) -> PathBuf {
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(5)).unwrap();
    m.insert_note(2_000).unwrap();
    m.insert_note(1_000).unwrap();
    for win in [0, 40, 0, 120] {
        let r = m.play_round("g", 10, 50, "outcome", |_| Ok::<_, String>(json!({"win": win}))).map(|(r, _)| r).unwrap();
        m.settle_round(r, win, vec![]).unwrap();
    }
    m.shutdown().unwrap();
    path
}

fn seq_of(path: &Path, kind: &str) -> i64 {
    let c = Connection::open(path).unwrap();
    c.query_row("SELECT min(seq) FROM journal WHERE kind = ?1", [kind], |r| r.get(0)).unwrap()
}

fn boot_error(path: &Path) -> IntegrityError {
    match Machine::open(path, lab_config(), SeedChoice::Lab(5)) {
        Err(BootError::RamError(e)) => e,
        Err(other) => panic!("expected a RAM error, got {other}"),
        Ok(_) => panic!("tampering was not detected"),
    }
}

#[test]
fn an_untouched_file_boots_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let m = Machine::open(&path, lab_config(), SeedChoice::Lab(5)).unwrap();
    assert_eq!(m.credit(), 3_000 - 200 + 160);
}

#[test]
fn changing_one_byte_of_a_meter_record_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let seq = seq_of(&path, "note_in");
    let c = Connection::open(&path).unwrap();
    // 2000 → 9000 cents: one byte of the record's body.
    let body: String = c.query_row("SELECT body FROM journal WHERE seq = ?1", [seq], |r| r.get(0)).unwrap();
    let forged = body.replacen("2000", "9000", 1);
    assert_ne!(body, forged);
    c.execute("UPDATE journal SET body = ?1 WHERE seq = ?2", rusqlite::params![forged, seq]).unwrap();
    drop(c);
    let e = boot_error(&path);
    assert_eq!(e, IntegrityError::MacMismatch { seq: seq as u64, kind: "note_in".into() });
    assert!(e.to_string().contains(&format!("record {seq}")), "{e}");
}

#[test]
fn changing_one_byte_of_a_mac_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let seq = seq_of(&path, "round_settled");
    let c = Connection::open(&path).unwrap();
    let mut mac: Vec<u8> = c.query_row("SELECT mac FROM journal WHERE seq = ?1", [seq], |r| r.get(0)).unwrap();
    mac[0] ^= 1;
    c.execute("UPDATE journal SET mac = ?1 WHERE seq = ?2", rusqlite::params![mac, seq]).unwrap();
    drop(c);
    assert!(matches!(boot_error(&path), IntegrityError::MacMismatch { seq: s, .. } if s == seq as u64));
}

#[test]
fn deleting_a_record_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let seq = seq_of(&path, "round_begun");
    Connection::open(&path).unwrap().execute("DELETE FROM journal WHERE seq = ?1", [seq]).unwrap();
    let e = boot_error(&path);
    assert_eq!(e, IntegrityError::Sequence { expected_prev: seq as u64 - 1, found: seq as u64 + 1 });
}

#[test]
fn deleting_the_newest_records_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    Connection::open(&path).unwrap().execute("DELETE FROM journal WHERE seq = (SELECT max(seq) FROM journal)", []).unwrap();
    assert!(matches!(boot_error(&path), IntegrityError::Head { .. }));
}

#[test]
fn swapping_two_records_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let a = seq_of(&path, "round_begun");
    let b = a + 1;
    let c = Connection::open(&path).unwrap();
    // Swap the records' positions in the chain.
    c.execute_batch(&format!(
        "UPDATE journal SET seq = -1 WHERE seq = {a};
         UPDATE journal SET seq = {a} WHERE seq = {b};
         UPDATE journal SET seq = {b} WHERE seq = -1;"
    ))
    .unwrap();
    drop(c);
    assert!(matches!(boot_error(&path), IntegrityError::MacMismatch { seq, .. } if seq == a as u64));
}

#[test]
fn inserting_a_forged_record_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let c = Connection::open(&path).unwrap();
    let max: i64 = c.query_row("SELECT max(seq) FROM journal", [], |r| r.get(0)).unwrap();
    c.execute(
        "INSERT INTO journal (seq, at_utc, kind, body, mac) VALUES (?1, '2026-01-01T00:00:00Z', 'note_in', '{\"kind\":\"note_in\",\"value\":10000}', x'00')",
        [max + 1],
    )
    .unwrap();
    drop(c);
    assert!(matches!(boot_error(&path), IntegrityError::MacMismatch { seq, .. } if seq == max as u64 + 1));
}

#[test]
fn a_missing_machine_key_is_a_ram_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    std::fs::remove_file(dir.path().join("egm.sqlite.key")).unwrap();
    // The RAM error says the key is lost (issue 21), and how to get out.
    assert!(matches!(boot_error(&path), IntegrityError::KeyLost(ref why) if why.contains("holds no key")));
}

/// A kill during genesis may leave a torn key beside an empty journal (as
/// the host's kill -9 test once found): nothing was ever signed with it, so
/// the next boot makes the key anew. With records, a torn key stays a RAM
/// error.
#[test]
fn a_torn_key_is_made_anew_only_before_anything_was_journaled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let key = dir.path().join("egm.sqlite.key");
    std::fs::write(&key, b"").unwrap();
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(5)).unwrap();
    m.insert_note(500).unwrap();
    m.shutdown().unwrap();
    assert_eq!(std::fs::read(&key).unwrap().len(), 32, "a whole key was made");
    assert!(!dir.path().join("egm.sqlite.key.new").exists(), "no temporary key is left");
    assert_eq!(Machine::open(&path, lab_config(), SeedChoice::Lab(5)).unwrap().credit(), 500);

    let other = tempfile::tempdir().unwrap();
    let path = machine_with_history(&other);
    let key = {
        let mut k = path.as_os_str().to_owned();
        k.push(".key");
        PathBuf::from(k)
    };
    std::fs::write(&key, b"torn").unwrap();
    assert!(matches!(boot_error(&path), IntegrityError::KeyLost(ref why) if why.contains("holds no key")));
}

#[test]
fn tampering_while_running_is_caught_before_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = Machine::open(&path, lab_config(), SeedChoice::Lab(5)).unwrap();
    m.insert_note(1_000).unwrap();
    Connection::open(&path).unwrap().execute("DELETE FROM journal WHERE seq = (SELECT max(seq) FROM journal)", []).unwrap();
    let err = m.play_round("g", 10, 10, "s", |_| Ok::<_, String>(json!(null))).map(|(r, _)| r).unwrap_err();
    assert!(matches!(err, meters::CoreError::CriticalMemory(_)), "{err}");
    assert!(matches!(m.play_block(), Some(meters::PlayBlock::CriticalMemory(_))));
    assert!(m.cash_out().is_err(), "no cash-out on a critical-memory fault");
}

#[test]
fn ram_clear_is_authenticated_records_the_meters_and_survives_itself() {
    let dir = tempfile::tempdir().unwrap();
    let path = machine_with_history(&dir);
    let seq = seq_of(&path, "round_settled");
    Connection::open(&path).unwrap().execute("DELETE FROM journal WHERE seq = ?1", [seq]).unwrap();
    boot_error(&path);

    let config = lab_config();
    let refused = Machine::ram_clear(&path, &config, "operator", "9999", "test", true);
    assert!(matches!(refused, Err(BootError::AuthenticationFailed)));
    boot_error(&path); // still tilted: nothing was cleared

    let n = Machine::ram_clear(&path, &config, "operator", "0000", "journal damaged", true).unwrap();
    assert_eq!(n, 1);
    let m = Machine::open(&path, config.clone(), SeedChoice::Lab(5)).unwrap();
    assert_eq!(m.credit(), 0);
    assert_eq!(m.state().clears, 1);
    let clears = m.ram_clears().unwrap();
    assert_eq!(clears.len(), 1);
    assert_eq!(clears[0].operator, "operator");
    let before: serde_json::Value = serde_json::from_str(&clears[0].meters_before).unwrap();
    assert_eq!(before["verified"], json!(false));
    assert_eq!(before["meters"]["dinheiro_entrado"], json!(3_000), "meters before the clear are kept");
    drop(m);

    // The record of the clear is itself protected.
    Connection::open(&path).unwrap().execute("UPDATE ram_clears SET operator = 'nobody'", []).unwrap();
    assert_eq!(boot_error(&path), IntegrityError::ClearRecord { n: 1 });
}
