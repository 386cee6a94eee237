//! The certification lab's third audit of critical memory (issue 47), each
//! hole run as an attack on the production path: a real TPM 2.0 (Debian's
//! swtpm, one per test), production mode, both copies of critical memory
//! and the NVRAM mirror. Each attack is refused or detected and recorded,
//! and no cent leaves that did not come in.
//!
//! | hole | here |
//! |---|---|
//! | 1 no measured state: the key's HMAC for anyone after a power cycle | `hole_1_*` (the lab's recipe and its neighbours: beside the running cabinet, the attacker's own boot with the launcher's step replayed, a boot without the launcher; provisioning refused where nothing is measured); `attacks_on_the_tpm.rs` (`hole_2_*`); `tools/tests/egm_lab_cli.rs` (`egm-lab launch`, the key taken once per boot) |
//! | 2 the key-lost clear with the credential records deleted | `hole_2_*` |
//! | 3 the mirror restored with the copy: the tick bounds every window | `hole_4_*` (a longer tick refused); `meters::config` (`MAX_WINDOW`, mirror or not); `hole_3_*` (every power-up reports its window since the last anchor) |
//! | 4 a setting that widens the window, edited while off | `hole_4_*` |
//! | 5 a copy from provisioning confirmed at any counter value | `hole_5_*` (the counter's first write cut by a relay on the TPM's bus); `meters::anchor` (`every_head_and_counter_pair_has_one_named_outcome`) |
//! | 7 a 4-digit PIN, and its hash in the files | `hole_7_*` (a PIN held by the TPM alone; a key-lost clear after the TPM is gone says the PIN went unchecked) |
//! | 6 voids of committed outcomes | `attacks_round_two.rs` (`hole_12_no_round_is_ever_voided`); `host/tests/host/roulette_rounds.rs`, `tests/linked_progressive.rs` (a configuration without an open round's game) |
//! | 2 and 8 a software TPM (its state a file) in production | `holes_2_and_8_*` |

#![allow(clippy::unwrap_used)]

mod support;

#[cfg(feature = "lab")]
use meters::Mode;
use meters::config::SecondCopy;
use meters::{BootError, KeyStoreConfig, Machine, MachineConfig, OperatorCredential};
use rusqlite::Connection;
use serde_json::json;
use support::production::{PIN, boot, boot_with, config, provisioned_cabinet};
use support::relay::Relay;
use support::swtpm::SoftwareTpm;

/// A round staking `stake` cents that loses.
fn lose(m: &mut Machine, stake: u64) {
    let (r, _) = m.play_round("g", 1, stake, "outcome", |_| Ok::<_, String>(json!({}))).unwrap();
    m.settle_round(r, 0, vec![]).unwrap();
}

/// Hole 4: with the cabinet off, the attacker edits a setting that widens
/// the window a restored copy can undo (the anchor write budget from
/// 400,000 to 1 once stopped every tick, and one window undid 90,000 c) or
/// that moves what holds the key (the mode, the key store). Each is a
/// protection change, refused while the logic door is shut; the cabinet
/// boots on its own configuration with every cent where it was.
#[test]
fn hole_4_every_setting_that_widens_the_window_is_a_protection_change() {
    let (dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    lose(&mut m, 2_500);
    m.shutdown().unwrap();
    let own = config(&tpm);
    #[allow(unused_mut)]
    let mut edits: Vec<(&str, MachineConfig)> = vec![
        ("anchor_write_budget", MachineConfig { anchor_write_budget: 1, ..own.clone() }),
        ("anchor_tick_minutes", MachineConfig { anchor_tick_minutes: own.anchor_tick_minutes * 100, ..own.clone() }),
        ("second_copy", MachineConfig { second_copy: SecondCopy::Off, ..own.clone() }),
    ];
    // The retail build has production alone: there, `mode: Lab` does not
    // even parse.
    #[cfg(feature = "lab")]
    edits.push(("mode", MachineConfig { mode: Mode::Lab, ..own.clone() }));
    for (field, edited) in edits {
        match boot_with(&db, edited, &tpm) {
            Err(BootError::ConfigChangeRefused(f)) => assert_eq!(f, field),
            Err(other) => panic!("{field}: refused for another reason: {other}"),
            Ok(_) => panic!("{field}: the edited configuration was accepted"),
        }
    }
    // A longer tick is refused before anything is opened (issue 47, hole
    // 3: production bounds every window, mirror or not).
    let longer = MachineConfig { anchor_tick_wagered: own.anchor_tick_wagered * 4, ..own.clone() };
    assert!(matches!(boot_with(&db, longer, &tpm), Err(BootError::Config(meters::config::ConfigError::WindowUnbounded { .. }))));
    // Another TPM named in the configuration: its key verifies nothing.
    let other = SoftwareTpm::start(&dir.path().join("other"));
    let moved = MachineConfig { key_store: KeyStoreConfig::Tpm { tcti: other.tcti(), nv_index: support::production::NV_INDEX }, ..own.clone() };
    assert!(boot_with(&db, moved, &tpm).is_err(), "critical memory opened under another TPM");
    // Its own configuration: every cent where it was.
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 7_500);
    assert_eq!(m.state().totals.games.creditos_jogados, 2_500);
    assert_eq!(m.config().anchor_write_budget, own.anchor_write_budget);
}

/// Hole 2: with the cabinet off, the attacker points the key store at a
/// TPM of their own, deletes the machine's credential record from both
/// copies (an absent record once counted as accepted) and puts their own
/// credential in the configuration: the key-lost clear, which would have
/// erased 15,000 c of credit and provisioned the attacker's TPM, is
/// refused. The cabinet boots on its own TPM with the credit intact.
#[test]
fn hole_2_a_key_lost_clear_needs_the_machines_own_credential_record() {
    let (dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(5_000).unwrap();
    m.shutdown().unwrap();
    for copy in [db.clone(), db.with_extension("sqlite.second")] {
        if copy.exists() {
            let removed = Connection::open(&copy).unwrap().execute("DELETE FROM credential", []).unwrap();
            assert_eq!(removed, 1, "{}: the credential record", copy.display());
        }
    }
    let theirs = SoftwareTpm::start(&dir.path().join("attacker"));
    let attacker = OperatorCredential::held_by_tpm("mallory").unwrap();
    let config = MachineConfig {
        key_store: KeyStoreConfig::Tpm { tcti: theirs.tcti(), nv_index: support::production::NV_INDEX },
        operator: attacker,
        nvram_mirror: Some(theirs.nvram()),
        ..config(&tpm)
    };
    let r = Machine::ram_clear_key_lost(&db, &config, "mallory", "5820496173", "attack", true);
    assert!(matches!(r, Err(BootError::NoCredential)), "{r:?}");
    // Not with the machine's own PIN either: the record is gone.
    let r = Machine::ram_clear_key_lost(&db, &config, "ana", PIN, "attack", true);
    assert!(r.is_err(), "{r:?}");
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 15_000, "the credit left");
    assert!(m.ram_clears().unwrap().is_empty(), "a clear was recorded");
}

/// An argon2id hash of `pin` made outside the product, at `memory_kib` and
/// `passes` (what an operator could paste into the configuration).
fn hash_made_outside(pin: &str, memory_kib: u32, passes: u32) -> String {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let params = argon2::Params::new(memory_kib, passes, 1, Some(32)).unwrap();
    let argon = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let salt = SaltString::encode_b64(b"made-outside-16b").unwrap();
    argon.hash_password(pin.as_bytes(), &salt).unwrap().to_string()
}

/// Hole 7: a 4-digit PIN's hash, made outside at full cost, once passed
/// validation and provisioned a production cabinet (the TPM's owner,
/// endorsement and lockout secrets derived from it; 10^4 PINs searched
/// offline in 256 s), and the hash sat in the configuration and the
/// database. Production now provisions only a PIN of 10 to 12 digits, and
/// holds no hash of it in any file, however costly: the configuration names
/// the operator (`held-by-tpm`), the TPM alone holds the PIN. Nothing is
/// written to the TPM or the files before a refusal; after provisioning no
/// file of the cabinet holds the PIN or an argon2 hash.
#[test]
fn hole_7_production_holds_no_searchable_hash_and_only_a_long_pin() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    support::production::launch(&tpm);
    // A hash in the configuration, at full cost or a tenth of it.
    for hash in [hash_made_outside("1234", 19 * 1024, 2), hash_made_outside(PIN, 1_024, 1), OperatorCredential::new("ana", PIN).unwrap().pin_argon2] {
        let hashed = MachineConfig { operator: OperatorCredential { operator_id: "ana".into(), pin_argon2: hash }, ..config(&tpm) };
        let r = Machine::provision(&db, hashed, PIN);
        assert!(matches!(r, Err(BootError::Config(meters::config::ConfigError::Credential(meters::credential::CredentialError::HashInFiles)))), "{r:?}");
        assert!(!db.exists(), "critical memory was written before the refusal");
    }
    // A short PIN, the PIN held by the TPM: refused before the TPM is taken.
    let r = Machine::provision(&db, config(&tpm), "1234");
    assert!(matches!(r, Err(BootError::Credential(meters::credential::CredentialError::BadPin))), "{r:?}");
    assert!(!db.exists());
    Machine::provision(&db, config(&tpm), PIN).unwrap();
    let mut m = boot(&db, &tpm).unwrap();
    m.insert_note(5_000).unwrap();
    m.shutdown().unwrap();
    // No file of the cabinet holds the PIN or any argon2 hash.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            for needle in [PIN.as_bytes(), b"$argon2".as_slice()] {
                assert!(!bytes.windows(needle.len()).any(|w| w == needle), "{} holds {:?}", path.display(), String::from_utf8_lossy(needle));
            }
        }
    }
    // The TPM checks the PIN: a wrong one is refused, the right one clears.
    let mut m = boot(&db, &tpm).unwrap();
    m.open_door(meters::Door::Logic).unwrap();
    drop(m);
    assert!(matches!(Machine::ram_clear(&db, &config(&tpm), "ana", "7391046286", "guess", true), Err(BootError::AuthenticationFailed)));
    Machine::ram_clear(&db, &config(&tpm), "ana", PIN, "service", true).unwrap();
}

/// Hole 7 with the TPM gone (cleared or replaced): nothing on the files can
/// check the PIN it held. Round three let the key-lost clear go on for the
/// operator the machine's record names, the PIN unchecked; since issue 68
/// (attack 3: a wrong PIN erased 15,000 c and took the new TPM) nothing is
/// cleared on an unchecked PIN, whatever name or PIN is given. The files
/// are archived for the lab, and the cabinet is provisioned again on the
/// new TPM, with the operator's PIN set there.
#[test]
fn hole_7_after_the_tpm_is_gone_nothing_is_cleared_on_an_unchecked_pin() {
    let (_dir, old_tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.open_door(meters::Door::Logic).unwrap();
    drop(m);
    let new_dir = tempfile::tempdir().unwrap();
    let new_tpm = SoftwareTpm::start(new_dir.path());
    support::production::launch(&new_tpm);
    let on_new = MachineConfig { key_store: config(&new_tpm).key_store, ..config(&old_tpm) };
    let before = std::fs::read(&db).unwrap();
    for (who, pin) in [("mallory", PIN), ("ana", "5820496173"), ("ana", PIN)] {
        let r = Machine::ram_clear_key_lost(&db, &on_new, who, pin, "attack", true);
        assert!(matches!(r, Err(BootError::PinUnchecked)), "{who}: {r:?}");
    }
    assert_eq!(std::fs::read(&db).unwrap(), before, "critical memory changed");
    // The lab's way out: the evidence archived, the cabinet provisioned again.
    let archive = Machine::archive_lost(&db, &on_new, true).unwrap();
    assert!(!db.exists());
    let rows: i64 = rusqlite::Connection::open(&archive).unwrap().query_row("SELECT count(*) FROM journal", [], |r| r.get(0)).unwrap();
    assert!(rows > 0, "the archive holds the lost journal");
    Machine::provision(&db, on_new.clone(), "5820496173").unwrap();
    let mut m = boot_with(&db, on_new.clone(), &new_tpm).unwrap();
    assert_eq!(m.credit(), 0, "nothing unverified carried");
    m.open_door(meters::Door::Logic).unwrap();
    drop(m);
    // The new TPM holds the PIN given at provisioning.
    assert!(matches!(Machine::ram_clear(&db, &on_new, "ana", PIN, "old PIN", true), Err(BootError::AuthenticationFailed)));
    Machine::ram_clear(&db, &on_new, "ana", "5820496173", "service", true).unwrap();
}

/// Hole 5, end to end: the cabinet is provisioned on its TPM (through a
/// relay that stands for the bus) and the power goes between the pending
/// first anchor and the counter's first write; the attacker copies the
/// files then. The cabinet boots, finishes its first anchor and plays
/// (20,000 c in, a cash-out). The copy restored — once confirmed at
/// whatever the counter read, booting as a new machine with every meter
/// and liability gone — is refused, and the tamper clear records it.
#[test]
fn hole_5_a_copy_from_provisioning_is_never_confirmed_later() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let relay = Relay::start(&tpm);
    let db = dir.path().join("egm.sqlite");
    let config = MachineConfig { key_store: KeyStoreConfig::Tpm { tcti: relay.tcti(), nv_index: support::production::NV_INDEX }, ..config(&tpm) };
    support::production::launch(&tpm);
    relay.arm(true);
    let r = Machine::provision(&db, config.clone(), PIN);
    assert!(r.as_ref().is_err_and(|e| e.to_string().contains("could not be advanced")), "the first write of the counter was not cut: {:?}", r.err());
    relay.arm(false);
    let copy = support::production::snapshot(&db, &tpm);
    // The cabinet comes back: its first anchor is finished, and it plays.
    let mut m = boot_with(&db, config.clone(), &tpm).unwrap();
    let first = m.anchor_wear().counter;
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    lose(&mut m, 2_000);
    assert!(matches!(m.cash_out().unwrap(), meters::CashOut::Ticket(t) if t.value == 18_000));
    assert!(m.anchor_wear().counter > first);
    drop(m);
    // The copy from provisioning, restored with the mirror.
    copy.restore();
    let r = boot_with(&db, config.clone(), &tpm);
    assert!(matches!(r, Err(BootError::RamError(meters::IntegrityError::GenesisUnconfirmed { .. }))), "{:?}", r.err());
    // The way out records it.
    Machine::ram_clear(&db, &config, "ana", PIN, "copy from provisioning", true).unwrap();
    let m = boot_with(&db, config, &tpm).unwrap();
    let clear = m.ram_clears().unwrap().pop().unwrap();
    assert!(clear.reason.starts_with("tamper:"), "{}", clear.reason);
}

/// Hole 1, end to end: the key and the counter answer to the platform's
/// measured boot and the launcher's measurement of the release, and the
/// cabinet caps that state once it holds its key. The lab's recipe (a TPM
/// power cycle, a PolicyPCR session over PCR 15 at its reset value,
/// TPM2_HMAC on the key) and its neighbours (the full selection at its
/// current values; from a program beside the running cabinet; from the
/// attacker's own system with the launcher's step replayed) give no HMAC
/// and move no counter, so the copy from before a 20,000 c cash-out cannot
/// be re-tagged, nor a note forged: it is refused, and the cabinet's own
/// files pay nothing twice.
#[test]
fn hole_1_the_key_answers_only_to_the_measured_platform_and_launcher_before_the_cap() {
    use support::production::{NV_INDEX, hmac_with_the_machine_key, increment_the_counter, launch};
    use support::swtpm::{ATTACKER_BOOT, PLATFORM_BOOT};
    let (dir, mut tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    let copy = support::production::snapshot(&db, &tpm);
    assert!(matches!(m.cash_out().unwrap(), meters::CashOut::Ticket(t) if t.value == 20_000));
    let counter = m.anchor_wear().counter;
    // Beside the running cabinet, in the certified boot: capped.
    assert!(!hmac_with_the_machine_key(&tpm, dir.path()), "the key was used beside the running cabinet");
    assert!(!increment_the_counter(&tpm, dir.path()), "the counter moved beside the running cabinet");
    m.shutdown().unwrap();
    let ours = support::production::snapshot(&db, &tpm);

    // The lab's recipe: a TPM power cycle, PCR 15 at its reset value.
    tpm.power_cut();
    tpm.power_on();
    // (PolicyPCR over PCR 15 alone, TPM2_HMAC on the key's handle.)
    let recipe = |tpm: &support::swtpm::SoftwareTpm| support::production::hmac_under_policy_pcr(tpm, dir.path(), "sha256:15");
    assert!(!recipe(&tpm), "the lab's recipe gave the journal key");
    assert!(!hmac_with_the_machine_key(&tpm, dir.path()));
    assert!(!increment_the_counter(&tpm, dir.path()));
    // The cabinet refuses that boot by name (the launcher did not run).
    let r = Machine::open(&db, config(&tpm), meters::SeedChoice::Entropy);
    assert!(
        matches!(&r, Err(BootError::Store(meters::StoreError::KeyStore(meters::KeyStoreError::Unmeasured { pcrs, .. }))) if pcrs == &[15]),
        "{:?}",
        r.err()
    );

    // The attacker's own system, the launcher's step replayed with the
    // release's public digest.
    tpm.boot_next(ATTACKER_BOOT);
    tpm.power_cut();
    tpm.power_on();
    launch(&tpm);
    assert!(!recipe(&tpm));
    assert!(!hmac_with_the_machine_key(&tpm, dir.path()));
    assert!(!increment_the_counter(&tpm, dir.path()));

    // The copy from before the cash-out, in the certified boot: refused.
    tpm.boot_next(PLATFORM_BOOT);
    tpm.power_cut();
    tpm.power_on();
    copy.restore();
    assert!(matches!(support::production::ram_error(boot(&db, &tpm)), meters::IntegrityError::RolledBack { .. }));
    // And with nothing of the key outside the cabinet's process, the
    // cabinet's own files boot, the cash-out paid once.
    ours.restore();
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 0);
    assert_eq!((m.state().totals.dinheiro_entrado, m.state().totals.cancelamento_creditos), (20_000, 20_000));
    assert_eq!(m.anchor_wear().counter, counter + 1, "only the cabinet's own power-up moved the counter");
    // The counter is the one provisioning made: written only with the
    // key's derived authorisation, outside dictionary-attack protection.
    let public = tpm.tools(&["tpm2_nvreadpublic", &format!("{NV_INDEX:#010x}")]);
    let attributes = String::from_utf8_lossy(&public.stdout).to_string();
    assert!(attributes.contains("authwrite") && attributes.contains("policyread") && attributes.contains("no_da"), "{attributes}");
    assert!(!attributes.contains("policywrite") && !attributes.contains("ownerwrite"), "{attributes}");
}

/// Hole 1: nothing is provisioned on a platform that measured no boot, nor
/// in a boot the launcher did not measure; each refusal names the PCRs.
#[test]
fn hole_1_provisioning_refuses_a_state_that_measured_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start_unmeasured(dir.path());
    let db = dir.path().join("egm.sqlite");
    support::production::launch(&tpm);
    let r = Machine::provision(&db, config(&tpm), PIN);
    assert!(
        matches!(&r, Err(BootError::Store(meters::StoreError::KeyStore(meters::KeyStoreError::Unmeasured { pcrs, .. }))) if pcrs == &[0, 2, 4, 7]),
        "{r:?}"
    );
    assert!(!db.exists(), "critical memory was written for an unmeasured platform");

    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let r = Machine::provision(&db, config(&tpm), PIN);
    assert!(matches!(&r, Err(BootError::Store(meters::StoreError::KeyStore(meters::KeyStoreError::Unmeasured { pcrs, .. }))) if pcrs == &[15]), "{r:?}");
    assert!(!db.exists());
    // The TPM was not taken: launched, it is provisioned as always.
    support::production::launch(&tpm);
    Machine::provision(&db, config(&tpm), PIN).unwrap();
    assert_eq!(boot(&db, &tpm).unwrap().credit(), 0);
}

/// Holes 2 and 8: a software TPM's state is a file (restored with the
/// cabinet's files it pays a cash-out twice and resets the PIN lockout;
/// its open platform hierarchy clears what is owed), and the attacker's
/// own swtpm named in an edited configuration took a key-lost clear. A
/// production cabinet refuses a software TPM outright — to provision, to
/// boot, to clear — unless its configuration says it is an evaluation
/// cabinet, which every screen then says (the host's
/// `evaluation_mark`), and which a running machine only turns on with the
/// logic door open (`MachineConfig::changes_from`).
#[test]
fn holes_2_and_8_production_refuses_a_software_tpm_unless_it_is_an_evaluation_cabinet() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let floor = MachineConfig { evaluation: false, ..config(&tpm) };
    support::production::launch(&tpm);
    // Since issue 68 (attack 3) a floor cabinet speaks to no TPM but its
    // platform's: a software TPM on the network is refused by its TCTI
    // before it is asked anything.
    let software = |r: Result<(), BootError>| match r {
        Err(BootError::TctiRefused(tcti)) => assert_eq!(tcti, tpm.tcti()),
        Err(other) => panic!("expected the software TPM refused, got {other}"),
        Ok(()) => panic!("accepted a software TPM in production"),
    };
    software(Machine::provision(&db, floor.clone(), PIN).map(|_| ()));
    assert!(!db.exists(), "critical memory was written");
    // Nothing was taken: the TPM's hierarchies are still unowned.
    let variable = tpm.tools(&["tpm2_getcap", "properties-variable"]);
    let owner_set = String::from_utf8_lossy(&variable.stdout)
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim() == "ownerAuthSet")
        .map(|(_, v)| v.trim().to_owned());
    assert_eq!(owner_set.as_deref(), Some("0"), "the TPM was taken");

    // The evaluation cabinet runs there, and the protections it has are
    // the product's own (measured boot, the cap, the counter's auth).
    let mut m = support::production::provision_and_boot(&db, &tpm);
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    m.open_door(meters::Door::Logic).unwrap();
    drop(m);
    // Its files under a floor configuration: refused before anything.
    software(boot_with(&db, floor.clone(), &tpm).map(|_| ()));
    software(Machine::ram_clear(&db, &floor, "ana", PIN, "attack", true).map(|_| ()));
    software(Machine::ram_clear_key_lost(&db, &floor, "ana", PIN, "attack", true).map(|_| ()));
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 20_000);
    assert!(m.ram_clears().unwrap().is_empty());
}

/// Hole 3, the report: a copy of every file restored inside a window is
/// undetectable by design (the tick bounds it at 50.00 wagered in
/// production), so every power-up records what it finds since the last
/// anchor — the credit and the money meters there and now — in the event
/// log, for the floor to compare with its own systems; the audit menu
/// shows the last one. Played for real: 10,000 in, three losing rounds of
/// 1,000 (under the tick), the power cut, the boot; then the attacker's
/// copy from right after that boot, restored after two more rounds: its
/// power-up reports the window it claims, not the one that was played.
#[test]
fn hole_3_every_power_up_reports_its_window_since_the_last_anchor() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    let anchor = m.anchor_wear().counter;
    for _ in 0..3 {
        lose(&mut m, 1_000);
    }
    drop(m); // the power goes: no power-down record
    let m = boot(&db, &tpm).unwrap();
    let w = m.state().last_window.expect("the power-up reported its window");
    assert_eq!(w.anchor, anchor);
    assert_eq!((w.at_anchor.credit, w.at_anchor.wagered, w.at_anchor.money_in), (0, 0, 0), "the anchor before the note");
    assert_eq!((w.at_power_up.credit, w.at_power_up.wagered, w.at_power_up.won, w.at_power_up.money_in), (7_000, 3_000, 0, 10_000));
    let logged = m.events(20).unwrap().into_iter().find(|r| matches!(r.entry, meters::Entry::PowerUp { .. })).expect("a power-up in the log");
    assert!(matches!(logged.entry, meters::Entry::PowerUp { unclean_shutdown: true, window: Some(ref lw) } if *lw == w));
    let after_boot = m.anchor_wear().counter;
    let copy = support::production::snapshot(&db, &tpm);
    let mut m = m;
    lose(&mut m, 1_000);
    lose(&mut m, 1_000);
    drop(m);
    copy.restore();
    let m = boot(&db, &tpm).unwrap();
    let w = m.state().last_window.unwrap();
    assert_eq!(w.anchor, after_boot);
    assert_eq!((w.at_anchor.credit, w.at_power_up.credit, w.at_power_up.wagered - w.at_anchor.wagered), (7_000, 7_000, 0), "the copy's own window");
}
