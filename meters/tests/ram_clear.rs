//! The RAM clear's credential (issue 21, attack 4; D-32): checked against
//! the machine's own record, never the caller's configuration; an argon2id
//! hash with no plaintext or fast hash in the journal; a lockout after
//! failed tries; the logic door open; a credential changed only with the
//! logic door open.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::sync::OnceLock;

use meters::{BootError, Door, IntegrityError, Machine, MachineConfig, Mode, OperatorCredential, SeedChoice};
use serde_json::json;

fn credential() -> OperatorCredential {
    static C: OnceLock<OperatorCredential> = OnceLock::new();
    C.get_or_init(|| OperatorCredential::new("ana", "7391046285").unwrap()).clone()
}

fn config() -> MachineConfig {
    MachineConfig { mode: Mode::Lab, operator: credential(), ..MachineConfig::default() }
}

fn machine_with_logic_door(path: &Path, open: bool) {
    let mut m = Machine::open(path, config(), SeedChoice::Lab(4)).unwrap();
    m.insert_note(2_000).unwrap();
    if open {
        m.open_door(Door::Logic).unwrap();
    }
    m.shutdown().unwrap();
}

#[test]
fn the_pin_is_the_machines_own_not_the_callers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    machine_with_logic_door(&path, true);
    // Attack 4: the default configuration and PIN 0000 against a machine
    // set up with PIN 7391046285.
    let r = Machine::ram_clear(&path, &MachineConfig::default(), "operator", "0000", "attack", true);
    assert!(matches!(r, Err(BootError::AuthenticationFailed)), "{r:?}");
    // A configuration naming the attacker's own credential changes nothing.
    let mine = MachineConfig { operator: OperatorCredential::new("eve", "1111111111").unwrap(), ..config() };
    let r = Machine::ram_clear(&path, &mine, "eve", "1111111111", "attack", true);
    assert!(matches!(r, Err(BootError::AuthenticationFailed)), "{r:?}");
    assert_eq!(Machine::ram_clear(&path, &MachineConfig::default(), "ana", "7391046285", "journal check", true).unwrap(), 1);
}

#[test]
fn the_journal_holds_no_plaintext_or_fast_hash_of_the_pin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    machine_with_logic_door(&path, false);
    let c = rusqlite::Connection::open(&path).unwrap();
    let bodies: Vec<String> = c.prepare("SELECT body FROM journal").unwrap().query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert!(!bodies.is_empty());
    let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b"7391046285"));
    for b in &bodies {
        assert!(!b.contains("7391046285") && !b.contains(&sha), "the PIN or its SHA-256 is in the journal: {b}");
    }
    let configured = bodies.iter().find(|b| b.contains("config_changed")).unwrap();
    assert!(configured.contains("$argon2id$v=19$m=19456,t=2,p=1$"), "{configured}");
}

#[test]
fn five_failed_tries_lock_clears_out_even_for_the_right_pin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    machine_with_logic_door(&path, true);
    for _ in 0..4 {
        assert!(matches!(Machine::ram_clear(&path, &config(), "ana", "000000", "guess", true), Err(BootError::AuthenticationFailed)));
    }
    assert!(matches!(Machine::ram_clear(&path, &config(), "ana", "111111", "guess", true), Err(BootError::AuthenticationFailed)));
    match Machine::ram_clear(&path, &config(), "ana", "7391046285", "right pin", true) {
        Err(BootError::LockedOut { seconds }) => assert!(seconds > 14 * 60 && seconds <= 15 * 60, "{seconds}"),
        other => panic!("expected a lockout, got {other:?}"),
    }
    // The machine still boots: nothing was cleared.
    assert_eq!(Machine::open(&path, config(), SeedChoice::Lab(4)).unwrap().credit(), 2_000);
}

#[test]
fn the_logic_door_must_be_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    machine_with_logic_door(&path, false);
    // Its sensor says closed; and a sensor saying open is not believed
    // over a journal that records it closed.
    assert!(matches!(Machine::ram_clear(&path, &config(), "ana", "7391046285", "x", false), Err(BootError::LogicDoorClosed)));
    assert!(matches!(Machine::ram_clear(&path, &config(), "ana", "7391046285", "x", true), Err(BootError::LogicDoorClosed)));
}

#[test]
fn the_credential_changes_only_with_the_logic_door_open_and_its_record_is_protected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    machine_with_logic_door(&path, false);
    let other = MachineConfig { operator: OperatorCredential::new("rui", "2468101214").unwrap(), ..config() };
    assert!(matches!(Machine::open(&path, other.clone(), SeedChoice::Lab(4)), Err(BootError::CredentialChangeRefused)));
    // With the logic door open the new credential is the machine's.
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(4)).unwrap();
    m.open_door(Door::Logic).unwrap();
    m.shutdown().unwrap();
    Machine::open(&path, other.clone(), SeedChoice::Lab(4)).unwrap().shutdown().unwrap();
    assert!(matches!(Machine::ram_clear(&path, &other, "ana", "7391046285", "x", true), Err(BootError::AuthenticationFailed)));
    // A record edited by file access (the attacker's own hash) is refused.
    let eve = OperatorCredential::new("eve", "1111111111").unwrap();
    rusqlite::Connection::open(&path).unwrap().execute("UPDATE credential SET operator_id = ?1, pin_argon2 = ?2", [&eve.operator_id, &eve.pin_argon2]).unwrap();
    match Machine::ram_clear(&path, &other, "eve", "1111111111", "x", true) {
        Err(BootError::RamError(IntegrityError::CredentialRecord)) => {}
        r => panic!("expected the edited record to be refused, got {r:?}"),
    }
}

#[test]
fn production_refuses_the_default_credential() {
    let c = MachineConfig { mode: Mode::Production, ..MachineConfig::default() };
    assert_eq!(c.validate(), Err(meters::config::ConfigError::DefaultCredential));
    // Issue 47, hole 7: nor any hash of a PIN: the TPM alone holds it.
    let c = MachineConfig { mode: Mode::Production, operator: credential(), nvram_mirror: Some("nvram.bin".into()), ..MachineConfig::default() };
    assert_eq!(c.validate(), Err(meters::config::ConfigError::Credential(meters::credential::CredentialError::HashInFiles)));
    let held = meters::OperatorCredential::held_by_tpm("ana").unwrap();
    let c = MachineConfig { mode: Mode::Production, operator: held, nvram_mirror: Some("nvram.bin".into()), ..MachineConfig::default() };
    assert_eq!(c.validate(), Ok(()));
}

/// A machine with a standalone pool `p` on game `g` (500 € start, 1% of
/// every wager).
fn with_a_pool(path: &Path) -> Machine {
    use meters::{LevelConfig, PoolConfig};
    let mut m = Machine::open(path, config(), SeedChoice::Lab(4)).unwrap();
    let level =
        LevelConfig { name: "Grande".into(), start_value: 50_000, reset_value: 50_000, increment_ppm: 10_000, reserve_ppm: 0, ceiling: None, mystery: false };
    m.configure_pool(PoolConfig { id: "p".into(), games: vec!["g".into()], min_wager: 1, side_bet: false, levels: vec![level] }).unwrap();
    m
}

/// Attack 4's other half: a clear once kept only the credit and the meters.
/// Now everything owed is carried into the new epoch: pending hand-pays,
/// the credit with an interrupted round's stake (as a hand-pay), tickets not
/// yet redeemed, the pools' money (M-20) and the linked outbox.
#[test]
fn a_clear_carries_everything_owed_into_the_new_epoch() {
    use meters::CashOut;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = with_a_pool(&path);
    m.join_linked_pool("l", vec!["g".into()], 1).unwrap();
    // A ticket out, not redeemed.
    m.insert_note(5_000).unwrap();
    let CashOut::Ticket(ticket) = m.cash_out().unwrap() else { panic!("expected a ticket") };
    m.ticket_printed(&ticket.validation).unwrap();
    // Credit, and a settled round that fed both pools.
    m.insert_note(5_000).unwrap();
    let (r, _) = m.play_round("g", 1, 1_000, "outcome", |_| Ok::<_, String>(json!({}))).unwrap();
    m.settle_round(r, 0, vec![]).unwrap();
    assert_eq!(m.pools()["p"].levels[0].current, 50_010);
    assert_eq!(m.linked_pending(), vec![("l".to_owned(), r, 1_000)]);
    // A jackpot at the hand-pay limit, waiting for the attendant.
    let (j, _) = m.play_round("g", 1, 1_000, "outcome", |_| Ok::<_, String>(json!({}))).unwrap();
    m.settle_round(j, 120_000, vec![]).unwrap();
    assert_eq!(m.state().handpays.len(), 1);
    assert_eq!(m.credit(), 3_000);
    let pool_before = m.pools()["p"].levels[0].current;
    let pending_before = m.linked_pending();
    m.open_door(Door::Logic).unwrap();
    drop(m);

    Machine::ram_clear(&path, &config(), "ana", "7391046285", "carry test", true).unwrap();
    let m = Machine::open(&path, config(), SeedChoice::Lab(4)).unwrap();
    let st = m.state();
    assert_eq!(st.credit, 0);
    assert_eq!(st.totals.dinheiro_entrado, 0, "the meters start again");
    let owed: Vec<u64> = st.handpays.values().map(|h| h.amount).collect();
    assert_eq!(owed, vec![120_000, 3_000], "the jackpot hand-pay, and the credit");
    assert_eq!(m.pools()["p"].levels[0].current, pool_before, "the pool keeps its money (M-20)");
    assert_eq!(m.linked_pending(), pending_before, "the outbox keeps what the controller has not taken");
    assert!(m.state().self_audit().is_ok());
    // The clear was made with the logic door open, and the new epoch says
    // so: play stays stopped until it is closed and cleared (issue 74).
    assert!(m.state().doors_open.contains(&Door::Logic));
    assert!(m.play_block().is_some());
    // Issue 74: and it boots again from its files, with everything carried.
    let carried = (m.state().pools.clone(), m.linked_pending(), m.state().handpays.clone());
    drop(m);
    let mut m = Machine::open(&path, config(), SeedChoice::Lab(4)).unwrap();
    assert_eq!((m.state().pools.clone(), m.linked_pending(), m.state().handpays.clone()), carried);
    m.close_door(Door::Logic).unwrap();
    m.clear_tilt(meters::Tilt::LogicDoorAccess, "attendant").unwrap();
    // Paid by the attendant, redeemed once.
    let ids: Vec<u64> = m.state().handpays.keys().copied().collect();
    for id in ids {
        m.pay_handpay(id, "attendant").unwrap();
    }
    assert_eq!(m.state().totals.cancelamento_creditos_manual, 123_000);
    assert_eq!(m.insert_ticket(&ticket.validation).unwrap(), 5_000);
    assert!(m.insert_ticket(&ticket.validation).is_err(), "a carried ticket redeems once");
    assert!(m.state().self_audit().is_ok());
}

/// A round interrupted by the RAM error is voided by the clear: its stake
/// is owed with the credit, and its share leaves the pool.
#[test]
fn a_clear_voids_an_open_round_into_what_is_owed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = with_a_pool(&path);
    m.insert_note(5_000).unwrap();
    m.play_round("g", 1, 1_000, "outcome", |_| Ok::<_, String>(json!({}))).unwrap();
    assert_eq!(m.pools()["p"].levels[0].current, 50_010);
    m.open_door(Door::Logic).unwrap();
    drop(m);
    Machine::ram_clear(&path, &config(), "ana", "7391046285", "open round", true).unwrap();
    let m = Machine::open(&path, config(), SeedChoice::Lab(4)).unwrap();
    assert!(m.open_round().is_none());
    let owed: Vec<u64> = m.state().handpays.values().map(|h| h.amount).collect();
    assert_eq!(owed, vec![5_000]);
    assert_eq!(m.pools()["p"].levels[0].current, 50_000);
    assert!(m.state().self_audit().is_ok());
}

/// Issue 21: a lost key (here the stand-in's key file deleted) is a RAM
/// error that says so, which only the authenticated key-lost clear gets
/// out of: it needs the door and the PIN, carries nothing it cannot
/// verify, records the meters it read as unverified, and archives the file.
#[test]
fn a_lost_key_is_cleared_only_by_an_authenticated_key_lost_clear() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    // Nothing to clear yet.
    let r = Machine::ram_clear_key_lost(&path, &config(), "ana", "7391046285", "first", true);
    assert!(matches!(r, Err(BootError::KeyNotLost(ref why)) if why.contains("empty")), "{r:?}");
    machine_with_logic_door(&path, true);
    // The key verifies the journal: the key-lost clear is refused.
    let r = Machine::ram_clear_key_lost(&path, &config(), "ana", "7391046285", "not lost", true);
    assert!(matches!(r, Err(BootError::KeyNotLost(ref why)) if why.contains("ordinary")), "{r:?}");

    let mut key = path.as_os_str().to_owned();
    key.push(".key");
    std::fs::remove_file(&key).unwrap();
    match Machine::open(&path, config(), SeedChoice::Lab(4)) {
        Err(BootError::RamError(IntegrityError::KeyLost(why))) => assert!(why.contains("holds no key"), "{why}"),
        other => panic!("expected a key-lost RAM error, got {:?}", other.map(|_| ())),
    }
    // The ordinary clear cannot verify the machine's credential record.
    assert!(Machine::ram_clear(&path, &config(), "ana", "7391046285", "ordinary", true).is_err());
    // The door, then the PIN: both the file's record and the configuration's.
    let r = Machine::ram_clear_key_lost(&path, &config(), "ana", "7391046285", "lost", false);
    assert!(matches!(r, Err(BootError::LogicDoorClosed)), "{r:?}");
    let r = Machine::ram_clear_key_lost(&path, &config(), "ana", "000000", "lost", true);
    assert!(matches!(r, Err(BootError::AuthenticationFailed)), "{r:?}");
    let eve = MachineConfig { operator: OperatorCredential::new("eve", "1111111111").unwrap(), ..config() };
    let r = Machine::ram_clear_key_lost(&path, &eve, "eve", "1111111111", "lost", true);
    assert!(matches!(r, Err(BootError::AuthenticationFailed)), "the file's own record refuses another credential: {r:?}");

    let clear = Machine::ram_clear_key_lost(&path, &config(), "ana", "7391046285", "key file lost", true).unwrap();
    assert_eq!(clear.n, 1);
    assert!(clear.archive.exists());
    let m = Machine::open(&path, config(), SeedChoice::Lab(4)).unwrap();
    assert_eq!(m.credit(), 0, "nothing unverified is carried");
    let clears = m.ram_clears().unwrap();
    assert_eq!(clears.len(), 1);
    assert_eq!(clears[0].reason, "key lost: key file lost");
    let before: serde_json::Value = serde_json::from_str(&clears[0].meters_before).unwrap();
    assert_eq!(before["verified"], json!(false));
    assert_eq!(before["credit"], json!(2_000), "the credit read, unverified, for the operator to settle");
    assert_eq!(before["archived_as"], json!(clear.archive.display().to_string()));
    assert!(before["key_lost"].as_str().unwrap().contains("holds no key"));
    // The archive is the old journal, whole.
    let archived = rusqlite::Connection::open(&clear.archive).unwrap();
    let rows: i64 = archived.query_row("SELECT count(*) FROM journal", [], |r| r.get(0)).unwrap();
    assert!(rows > 3, "{rows}");
}
