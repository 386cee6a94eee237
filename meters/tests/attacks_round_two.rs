//! The certification lab's second audit of critical memory (issue 34), each
//! hole run as an attack on the production path: a real TPM 2.0 (Debian's
//! swtpm, one per test), production mode, both copies of critical memory
//! and the NVRAM mirror in every snapshot. Each attack is refused or
//! detected and recorded, no cent leaves that did not come in, and each
//! detection has its way out (hole 7).
//!
//! | hole | here |
//! |---|---|
//! | 1 a counter not bound to critical memory | `hole_1_*` (the binding); `attacks_on_the_tpm.rs` (ownership) |
//! | 3 a RAM clear ignores the anchor | `hole_3_*` |
//! | 4 a ticket before its anchor | `hole_4_*` |
//! | 7 detected attacks are dead ends | `hole_3_*` (a rolled-back copy), `hole_7_*` (both copies damaged), `hole_8_*` (a deleted mirror) |
//! | 8 the window open by default | `hole_8_*`; `meters::config` (production without NVRAM bounds the window) |
//! | 9 `egm-lab verify` on a rolled-back file | `tools/tests/egm_lab_cli.rs` (`verify_checks_the_anchor_and_the_mirror_as_a_boot_does`) |
//! | 10 a TPM that does not answer taken for a lost key | `hole_10_*` |
//! | 11 unverified reads for screens | `hole_11_*` |
//! | 12 live voids | `hole_12_*` |
#![allow(clippy::unwrap_used)]

mod support;

use meters::{BootError, CashOut, CoreError, Door, IntegrityError, Machine, MachineConfig, RamClearRecord, SeedChoice, Tilt};
use rusqlite::Connection;
use serde_json::{Value, json};
use support::production::{boot, boot_with, config, provisioned_cabinet, ram_error, snapshot};
use support::swtpm::SoftwareTpm;

/// A round staking `stake` cents that loses.
fn lose(m: &mut Machine, stake: u64) {
    let (r, _) = m.play_round("g", 1, stake, "outcome", |_| Ok::<_, String>(json!({}))).unwrap();
    m.settle_round(r, 0, vec![]).unwrap();
}

/// The last clear's record and what it says of the meters before it.
fn last_clear(m: &Machine) -> (RamClearRecord, Value) {
    let clear = m.ram_clears().unwrap().pop().unwrap();
    let before = serde_json::from_str(&clear.meters_before).unwrap();
    (clear, before)
}

/// Hole 3 (and 7 for a rolled-back copy): a copy taken with the logic door
/// open, restored after a 20,000-cent cash-out, is `RolledBack`; the RAM
/// clear verifies the anchor as a boot does, so it is a tamper clear that
/// carries nothing (40,000 out for 20,000 in, before), records the
/// detection and the unverified liabilities, and keeps the evidence.
#[test]
fn hole_3_a_clear_of_a_rolled_back_copy_carries_nothing_and_records_the_tampering() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    let copy = snapshot(&db, &tpm);
    m.close_door(Door::Logic).unwrap();
    m.clear_tilt(Tilt::LogicDoorAccess, "attendant").unwrap();
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    assert_eq!(t.value, 20_000);
    m.ticket_printed(&t.validation).unwrap();
    m.shutdown().unwrap();
    let counter_before = boot(&db, &tpm).unwrap().anchor_wear().counter;

    copy.restore();
    assert!(matches!(ram_error(boot(&db, &tpm)), IntegrityError::RolledBack { .. }));
    // The way out: the operator's clear, the logic door open. A wrong PIN
    // is still refused.
    assert!(matches!(Machine::ram_clear(&db, &config(&tpm), "ana", "000000", "guess", true), Err(BootError::AuthenticationFailed)));
    Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "restored copy found", true).unwrap();
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 0, "the restored copy's credit was carried");
    assert!(m.state().handpays.is_empty(), "the restored copy's credit became a hand-pay");
    assert!(m.state().tickets.is_empty());
    // Money: 20,000 in, 20,000 out (the one ticket); nothing more to pay.
    assert!(m.anchor_wear().counter > counter_before, "the counter moved forward");
    let (clear, before) = last_clear(&m);
    assert_eq!(clear.reason, "tamper: restored copy found");
    assert_eq!(before["verified"], json!(false));
    assert!(before["tamper"].as_str().unwrap().contains("rolled back"), "{}", before["tamper"]);
    assert_eq!(before["credit"], json!(20_000), "the liability the copy reads is reported for reconciliation");
    assert!(before.get("carried").is_none());
    let archive = std::path::PathBuf::from(before["archived_as"].as_str().unwrap());
    let evidence = Connection::open(&archive).unwrap();
    let notes: i64 = evidence.query_row("SELECT count(*) FROM journal WHERE kind = 'note_in'", [], |r| r.get(0)).unwrap();
    assert_eq!(notes, 2, "the evidence keeps the restored journal");
}

/// A verified clear still carries what is owed (the contrast to hole 3).
#[test]
fn hole_3_a_verified_clear_carries_what_is_owed() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(5_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    drop(m);
    Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "service", true).unwrap();
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.state().handpays.values().map(|h| h.amount).collect::<Vec<_>>(), vec![5_000]);
    let (clear, before) = last_clear(&m);
    assert_eq!((clear.reason.as_str(), &before["verified"]), ("service", &json!(true)));
}

/// Hole 4: with the TPM cut during a cash-out, the core faults and no
/// ticket is handed out (the attendant's reprint finds none); restoring the
/// copy from before the cash-out then pays the credit once, not twice.
#[test]
fn hole_4_no_ticket_leaves_before_its_anchor() {
    let (_dir, mut tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(5_000).unwrap();
    let copy = snapshot(&db, &tpm);
    tpm.power_cut();
    assert!(matches!(m.cash_out(), Err(CoreError::CriticalMemory(_))));
    assert!(m.unprinted_tickets().is_empty(), "a ticket was handed out before its anchor");
    drop(m);
    tpm.power_on();
    // The attacker puts the copy back: it names the counter's value (the
    // increment never happened), so it boots, with the 5,000 once.
    copy.restore();
    let mut m = boot(&db, &tpm).unwrap();
    assert!(m.unprinted_tickets().is_empty());
    assert_eq!(m.credit(), 5_000);
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    assert_eq!(t.value, 5_000);
    assert_eq!(m.state().totals.cancelamento_creditos, 5_000, "5,000 in, 5,000 out");
}

/// Hole 7: both copies damaged. The RAM error's way out is the clear,
/// authenticated against the credential record the machine key verifies;
/// the files are archived as evidence, nothing is carried, the counter
/// moves forward.
#[test]
fn hole_7_both_copies_damaged_are_cleared_as_tampering() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    let counter = m.anchor_wear().counter;
    m.shutdown().unwrap();
    for copy in [db.clone(), db.with_file_name("egm.sqlite.second")] {
        let c = Connection::open(&copy).unwrap();
        let n = c.execute("UPDATE journal SET body = replace(body, '10000', '90000') WHERE kind = 'note_in'", []).unwrap();
        assert_eq!(n, 1);
    }
    assert!(matches!(ram_error(boot(&db, &tpm)), IntegrityError::MacMismatch { .. }));
    // Not with the door shut, nor with a wrong PIN.
    assert!(matches!(Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "x", false), Err(BootError::LogicDoorClosed)));
    assert!(matches!(Machine::ram_clear(&db, &config(&tpm), "ana", "123456", "x", true), Err(BootError::AuthenticationFailed)));
    Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "both copies edited", true).unwrap();
    let m = boot(&db, &tpm).unwrap();
    assert_eq!((m.credit(), m.state().handpays.len()), (0, 0));
    assert!(m.anchor_wear().counter > counter);
    let (clear, before) = last_clear(&m);
    assert_eq!(clear.reason, "tamper: both copies edited");
    assert!(before["tamper"].as_str().unwrap().contains("MAC mismatch"), "{}", before["tamper"]);
    assert_eq!(before["credit"], json!(90_000), "what the edited files read is reported, unverified");
    assert!(std::path::Path::new(before["archived_as"].as_str().unwrap()).exists());
}

/// Hole 8: a deleted or blanked mirror beside written critical memory is a
/// RAM error, a configuration that drops the mirror is refused with the
/// logic door shut, and a copy restored inside the anchor's window is
/// detected by the mirror. The way out is the tamper clear.
#[test]
fn hole_8_the_mirror_cannot_be_deleted_blanked_or_configured_away() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    // Inside the window (no anchor since): a hot copy of the database alone.
    let hot = support::copies::Snapshot::take(&db);
    lose(&mut m, 5_000);
    drop(m);
    let latest = support::copies::Snapshot::take(&db);
    hot.restore();
    assert!(matches!(ram_error(boot(&db, &tpm)), IntegrityError::Nvram(ref d) if d.contains("restored")));
    // The latest files put back: the player's loss stands.
    latest.restore();

    // Deleted, or blanked.
    let nv = tpm.nvram();
    let saved = std::fs::read(&nv).unwrap();
    std::fs::remove_file(&nv).unwrap();
    assert!(matches!(ram_error(boot(&db, &tpm)), IntegrityError::Nvram(ref d) if d.contains("missing or blank")));
    std::fs::write(&nv, b"").unwrap();
    assert!(matches!(ram_error(boot(&db, &tpm)), IntegrityError::Nvram(ref d) if d.contains("missing or blank")));
    std::fs::write(&nv, &saved).unwrap();
    // Configured away: refused while the logic door is shut.
    let without = MachineConfig { nvram_mirror: None, anchor_tick_wagered: 5_000, ..config(&tpm) };
    assert!(matches!(boot_with(&db, without, &tpm), Err(BootError::ConfigChangeRefused(f)) if f.split(", ").any(|x| x == "nvram_mirror")));
    let mut m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 5_000);

    // The way out of a lost mirror: the tamper clear.
    m.open_door(Door::Logic).unwrap();
    drop(m);
    std::fs::remove_file(&nv).unwrap();
    Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "mirror lost", true).unwrap();
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 0);
    let (_, before) = last_clear(&m);
    assert_eq!((&before["verified"], &before["credit"]), (&json!(false), &json!(5_000)));
}

/// Hole 11: recall and the event list verify every record they show: an
/// edited outcome or event is a RAM error while the cabinet runs, never
/// shown.
#[test]
fn hole_11_an_edited_record_is_never_shown() {
    let (_dir, _tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(5_000).unwrap();
    let (r, _) = m.play_round("g", 1, 100, "outcome", |_| Ok::<_, String>(json!({"stops": [1, 2, 3]}))).unwrap();
    m.settle_round(r, 0, vec![]).unwrap();
    assert_eq!(m.recall(1).unwrap().len(), 1);
    assert!(!m.events(5).unwrap().is_empty());
    let c = Connection::open(&db).unwrap();
    assert_eq!(c.execute("UPDATE journal SET body = replace(body, '[1,2,3]', '[7,7,7]') WHERE kind = 'round_begun'", []).unwrap(), 1);
    assert!(matches!(m.recall(1), Err(meters::StoreError::Integrity(IntegrityError::MacMismatch { .. }))));
    assert_eq!(c.execute("UPDATE journal SET body = replace(body, '5000', '9000') WHERE kind = 'note_in'", []).unwrap(), 1);
    assert!(matches!(m.events(100), Err(meters::StoreError::Integrity(IntegrityError::MacMismatch { .. }))));
}

/// Hole 12, and issue 47's hole 6: no round is ever voided. A live one
/// (190 voids out of 200 rounds once turned 5,000 into 14,000) has no void
/// to ask for; one a power cut left open (a losing outcome seen, then the
/// power cut before its settlement: 21 of 40 once refunded) is found open
/// at the next boot, its stake taken, and is finished with its outcome.
#[test]
fn hole_12_no_round_is_ever_voided() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(5_000).unwrap();
    for _ in 0..20 {
        lose(&mut m, 100);
    }
    assert_eq!(m.credit(), 3_000);
    for cut in 1..=3u64 {
        let (r, _) = m.play_round("g", 1, 100, "outcome", |_| Ok::<_, String>(json!({"lost": true}))).unwrap();
        drop(m);
        m = boot(&db, &tpm).unwrap();
        assert_eq!(m.open_round().map(|o| (o.round, o.stake)), Some((r, 100)), "cut {cut}: the round is open after the boot");
        assert_eq!(m.credit(), 3_000 - 100 * cut, "cut {cut}: the stake stays taken");
        assert!(m.play_round("g", 1, 100, "outcome", |_| Ok::<_, String>(json!({}))).is_err(), "another round over the open one");
        m.settle_round(r, 0, vec![]).unwrap();
    }
    assert_eq!(m.credit(), 2_700);
    assert_eq!(m.state().totals.games.jogadas_anuladas, 0);
}

/// Hole 10: a TPM that does not answer is not a lost key: the boot says
/// the TPM does not answer (the cabinet waits), neither clear erases
/// anything, and once the TPM answers the cabinet boots with its credit.
#[test]
fn hole_10_a_tpm_that_does_not_answer_is_not_a_lost_key() {
    let (_dir, mut tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    drop(m);
    tpm.power_cut();
    let unreachable = |r: Result<(), BootError>| match r {
        Err(BootError::Store(meters::StoreError::KeyStore(meters::KeyStoreError::Unreachable { .. }))) => {}
        Err(other) => panic!("expected the TPM named as not answering, got {other}"),
        Ok(()) => panic!("accepted without the TPM"),
    };
    unreachable(Machine::open(&db, config(&tpm), SeedChoice::Entropy).map(|_| ()));
    unreachable(Machine::ram_clear_key_lost(&db, &config(&tpm), "ana", "7391046285", "key lost?", true).map(|_| ()));
    unreachable(Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "clear?", true).map(|_| ()));
    tpm.power_on();
    let m = boot(&db, &tpm).unwrap();
    assert_eq!((m.credit(), m.state().clears), (10_000, 0));
}

/// The TPM's endurance (issue 34, "Also"): no NV write per round, one per
/// anchor event, counted on the real TPM's counter.
#[test]
fn nv_writes_none_per_round_one_per_anchor_event() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(5_000).unwrap();
    let before = m.anchor_wear();
    // 1,000 rounds of 1 cent: 1,000 cents wagered, under the tick.
    for _ in 0..1_000 {
        lose(&mut m, 1);
    }
    let after = m.anchor_wear();
    assert_eq!((after.counter, after.writes), (before.counter, before.writes), "an NV write in 1,000 rounds");
    // One cash-out, one write; one door close, one write.
    m.cash_out().unwrap();
    assert_eq!(m.anchor_wear().counter, before.counter + 1);
    m.open_door(Door::Main).unwrap();
    m.close_door(Door::Main).unwrap();
    assert_eq!(m.anchor_wear().counter, before.counter + 2);
    assert_eq!(m.anchor_wear().writes, before.writes + 2);
    drop(m);
    // The counter on the TPM itself says the same.
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.anchor_wear().counter, before.counter + 3, "the power-up's write");
}

/// tpm2-tools on this TPM, as any program on the cabinet may run them.
fn tpm2(tpm: &SoftwareTpm, args: &[&str]) -> String {
    let out = tpm.tools(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Hole 1: another program defines a second counter, brings it to a
/// restored copy's anchor, and an edited configuration names it.
/// Provisioning took ownership of the TPM: the owner hierarchy defines no
/// counter for anyone else (`attacks_on_the_tpm.rs` tries the rest). A
/// firmware that leaves the platform hierarchy open (swtpm's) still lets a
/// counter be made, with a policy anyone satisfies; critical memory is
/// bound to its own counter's TPM name at provisioning (a MAC'd record
/// checked at every boot): the copy is refused, and the files with the
/// real counter are still `RolledBack`.
#[test]
fn hole_1_a_counter_another_program_defined_is_not_critical_memorys() {
    let (dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    let stale = m.anchor_wear().counter;
    let copy = snapshot(&db, &tpm);
    let CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    assert_eq!(t.value, 20_000);
    m.shutdown().unwrap();
    copy.restore();
    assert!(matches!(ram_error(boot(&db, &tpm)), IntegrityError::RolledBack { .. }));

    // The owner hierarchy refuses the attacker (its authorisation is the
    // operator's now).
    let refused = tpm.tools(&["tpm2_nvdefine", "0x01500021", "-C", "o", "-s", "8", "-a", "ownerread|ownerwrite|nt=counter"]);
    assert!(!refused.status.success(), "the owner hierarchy defined the attacker's counter");
    // The platform hierarchy, left open: a counter whose write policy is
    // the empty one (a fresh policy session satisfies it).
    let empty_policy = dir.path().join("empty.policy");
    std::fs::write(&empty_policy, [0u8; 32]).unwrap();
    tpm2(
        &tpm,
        &[
            "tpm2_nvdefine",
            "0x01500021",
            "-C",
            "p",
            "-s",
            "8",
            "-a",
            "ppread|authread|policywrite|platformcreate|nt=counter",
            "-L",
            empty_policy.to_str().unwrap(),
        ],
    );
    let session = dir.path().join("attacker.ctx");
    let s = session.to_str().unwrap();
    let increment = |tpm: &SoftwareTpm| {
        tpm2(tpm, &["tpm2_startauthsession", "--policy-session", "-S", s]);
        tpm2(tpm, &["tpm2_nvincrement", "-C", "0x01500021", "-P", &format!("session:{s}"), "0x01500021"]);
        tpm2(tpm, &["tpm2_flushcontext", s]);
    };
    let read = |tpm: &SoftwareTpm| {
        let out = tpm.tools(&["tpm2_nvread", "0x01500021", "-C", "0x01500021", "-s", "8"]);
        out.stdout.as_slice().try_into().map(u64::from_be_bytes).unwrap_or(0)
    };
    increment(&tpm);
    while read(&tpm) < stale {
        increment(&tpm);
    }
    assert_eq!(read(&tpm), stale, "the attacker's counter names the copy's anchor");
    let edited = MachineConfig { key_store: meters::KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: 0x0150_0021 }, ..config(&tpm) };
    // Refused by name: since issue 47 the counter's attributes (written
    // only with the key's derived authorisation, made by the owner) are
    // checked before its binding.
    let not_critical_memorys = |r: Result<(), BootError>| match r {
        Err(BootError::RamError(IntegrityError::CounterNotBound(_))) => {}
        Err(BootError::Store(meters::StoreError::KeyStore(meters::KeyStoreError::Tpm { detail, .. }))) if detail.contains("cannot anchor critical memory") => {}
        Err(other) => panic!("expected the attacker's counter refused, got {other}"),
        Ok(_) => panic!("booted on the attacker's counter"),
    };
    not_critical_memorys(boot_with(&db, edited.clone(), &tpm).map(|_| ()));
    // Nor can the binding record be removed.
    let bound = snapshot(&db, &tpm);
    for copy in [db.clone(), db.with_file_name("egm.sqlite.second")] {
        Connection::open(copy).unwrap().execute("DELETE FROM counter_binding", []).unwrap();
    }
    not_critical_memorys(boot_with(&db, edited.clone(), &tpm).map(|_| ()));
    bound.restore();
    // A clear on the edited configuration is refused before anything is
    // written: a clear never moves another counter than critical memory's.
    let before_clear = std::fs::read(&db).unwrap();
    let r = Machine::ram_clear(&db, &edited, "ana", "7391046285", "edited configuration", true);
    not_critical_memorys(r.map(|_| ()));
    assert_eq!(std::fs::read(&db).unwrap(), before_clear, "the refused clear wrote nothing");
    // The way out, on the configuration it was provisioned with: the
    // tampering recorded, nothing of the copy's 20,000 carried.
    Machine::ram_clear(&db, &config(&tpm), "ana", "7391046285", "restored copy", true).unwrap();
    let cleared = boot(&db, &tpm).unwrap();
    assert_eq!((cleared.credit(), cleared.state().handpays.len()), (0, 0));
    let (clear, before) = last_clear(&cleared);
    assert!(clear.reason.starts_with("tamper:") && before["tamper"].as_str().unwrap().contains("rolled back"), "{before}");
}
