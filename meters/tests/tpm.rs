//! Critical memory keyed and anchored by a real TPM 2.0 (Debian's swtpm;
//! issue 21): the key never reaches the disk, a copy restored from before a
//! cash-out is refused, another TPM cannot read or forge the journal, and a
//! TPM power cut at each step of the anchor protocol never makes the genuine
//! database look rolled back and never pays twice.
#![allow(clippy::unwrap_used)]

mod support;

use std::path::{Path, PathBuf};

use meters::{BootError, CashOut, CoreError, IntegrityError, KeyStoreConfig, Machine, MachineConfig, Mode, SeedChoice};
use support::swtpm::SoftwareTpm;

/// The production configuration on this TPM.
fn config(tpm: &SoftwareTpm) -> MachineConfig {
    MachineConfig { mode: Mode::Production, key_store: KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: 0x0150_0020 }, ..MachineConfig::default() }
}

fn boot(path: &Path, tpm: &SoftwareTpm) -> Result<Machine, BootError> {
    Machine::open(path, config(tpm), SeedChoice::Entropy)
}

fn ram_error(r: Result<Machine, BootError>) -> IntegrityError {
    match r {
        Err(BootError::RamError(e)) => e,
        Err(other) => panic!("expected a RAM error, got {other}"),
        Ok(_) => panic!("the boot was accepted"),
    }
}

/// The database file and its WAL, copied aside (the machine is shut down).
fn copy_aside(db: &Path, to: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut copies = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", db.display()));
        if from.exists() {
            let dest = to.join(format!("copy{suffix}"));
            std::fs::copy(&from, &dest).unwrap();
            copies.push((dest, from));
        }
    }
    copies
}

fn put_back(db: &Path, copies: &[(PathBuf, PathBuf)]) {
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    for (copy, original) in copies {
        std::fs::copy(copy, original).unwrap();
    }
}

#[test]
fn the_key_lives_in_the_tpm_and_another_tpm_can_neither_read_nor_replace_it() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let mut m = boot(&db, &tpm).unwrap();
    m.insert_note(5_000).unwrap();
    assert!(!m.anchor_wear().stand_in);
    m.shutdown().unwrap();
    // Nothing of the key is on disk: no key file, and the same TPM boots
    // the same file again.
    let names: Vec<String> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(!names.iter().any(|n| n.ends_with(".key")), "a key file was written: {names:?}");
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 5_000);
    drop(m);

    // The same files on another cabinet's TPM (attack 3, swap): its key
    // does not verify the first record.
    let other_dir = tempfile::tempdir().unwrap();
    let other = SoftwareTpm::start(other_dir.path());
    let e = ram_error(boot(&db, &other));
    assert!(matches!(e, IntegrityError::MacMismatch { seq: 1, .. }), "{e}");
    // And the stand-in key cannot read it either (a forger with the file
    // stand-in's tools).
    let lab = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
    assert!(matches!(Machine::open(&db, lab, SeedChoice::Entropy), Err(BootError::RamError(_))));
}

#[test]
fn a_copy_restored_from_before_a_cash_out_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let mut m = boot(&db, &tpm).unwrap();
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    m.shutdown().unwrap();
    let aside = tempfile::tempdir().unwrap();
    let copies = copy_aside(&db, aside.path());

    let mut m = boot(&db, &tpm).unwrap();
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    assert_eq!(t.value, 20_000);
    m.ticket_printed(&t.validation).unwrap();
    m.shutdown().unwrap();

    // Attack 1: the copy from before the 200 € cash-out is put back.
    put_back(&db, &copies);
    let e = ram_error(boot(&db, &tpm));
    assert!(matches!(e, IntegrityError::RolledBack { .. }), "{e}");
    // Deleting the database (attack 3, wipe) is no way out either.
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let e = ram_error(boot(&db, &tpm));
    assert!(matches!(e, IntegrityError::Wiped { .. }), "{e}");
}

#[test]
fn a_tpm_power_cut_during_a_cash_out_is_finished_at_boot_and_pays_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let mut m = boot(&db, &tpm).unwrap();
    m.insert_note(5_000).unwrap();
    let before = m.anchor_wear();

    // The TPM loses power after the cash-out's pending commit and before
    // its increment: no ticket is handed out, everything stops.
    tpm.power_cut();
    let err = m.cash_out().unwrap_err();
    assert!(matches!(err, CoreError::CriticalMemory(ref d) if d.contains("anchor counter could not be advanced")), "{err}");
    assert!(m.insert_note(500).is_err(), "the machine went on after a failed anchor");
    drop(m);
    let aside = tempfile::tempdir().unwrap();
    let pending_copy = copy_aside(&db, aside.path());

    // Power back: the boot makes the increment the cut prevented (a
    // non-orderly counter did not jump), and the committed cash-out's
    // ticket is waiting to be printed, once.
    tpm.power_on();
    let mut m = boot(&db, &tpm).unwrap();
    let after = m.anchor_wear();
    // One write finished the cash-out's anchor, one is this power-up's.
    assert_eq!(after.counter, before.counter + 2);
    assert_eq!(after.writes, before.writes + 2);
    assert_eq!(m.credit(), 0);
    let unprinted = m.unprinted_tickets();
    assert_eq!(unprinted.len(), 1);
    assert_eq!(unprinted[0].value, 5_000);
    let validation = unprinted[0].validation.clone();
    m.ticket_printed(&validation).unwrap();
    assert!(m.unprinted_tickets().is_empty());
    m.shutdown().unwrap();

    // The pending copy (taken between the cut and the boot) now finds the
    // counter past its head: it is refused, not confirmed.
    put_back(&db, &pending_copy);
    let e = ram_error(boot(&db, &tpm));
    assert!(matches!(e, IntegrityError::RolledBack { .. }), "{e}");
}

#[test]
fn a_cut_after_the_increment_and_before_its_record_is_confirmed_at_boot() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let mut m = boot(&db, &tpm).unwrap();
    m.insert_note(5_000).unwrap();
    let before = m.anchor_wear();
    tpm.power_cut();
    assert!(m.cash_out().is_err());
    drop(m);
    // The increment lands and the cabinet dies before recording it: made
    // here with tpm2-tools on the same NV index, through the same TCTI.
    tpm.power_on();
    let out = std::process::Command::new("tpm2_nvincrement").args(["-C", "o", "0x01500020"]).env("TPM2TOOLS_TCTI", tpm.tcti()).output().unwrap();
    assert!(out.status.success(), "tpm2_nvincrement: {}", String::from_utf8_lossy(&out.stderr));
    // The boot confirms it (no second increment for the cash-out), then
    // anchors its own power-up; the ticket is printed once.
    let mut m = boot(&db, &tpm).unwrap();
    assert_eq!(m.anchor_wear().counter, before.counter + 2);
    assert_eq!(m.unprinted_tickets().len(), 1);
    let v = m.unprinted_tickets()[0].validation.clone();
    m.ticket_printed(&v).unwrap();
    m.shutdown().unwrap();
    let m = boot(&db, &tpm).unwrap();
    assert!(m.unprinted_tickets().is_empty());
    assert_eq!(m.state().totals.cancelamento_creditos, 5_000);
}

#[test]
fn production_refuses_the_file_stand_in() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = MachineConfig { mode: Mode::Production, key_store: KeyStoreConfig::FileStandIn, ..MachineConfig::default() };
    assert!(matches!(Machine::open(&dir.path().join("egm.sqlite"), cfg, SeedChoice::Entropy), Err(BootError::StandInRefused)));
    assert!(!dir.path().join("egm.sqlite").exists(), "a refused boot created critical memory");
}
