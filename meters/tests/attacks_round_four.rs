//! The certification lab's fourth audit of critical memory (issue 68), each
//! attack run on the production path: a real TPM 2.0 (Debian's swtpm, one
//! per test), production mode, both copies of critical memory and the NVRAM
//! mirror.
//!
//! | attack | here |
//! |---|---|
//! | 1 one credit, two tickets: two copies forked from one state, each cut between its pending cash-out and the anchor's write | `attack_1_*` |
//! | 2 the launcher measured one file and ran another, left the key open, passed `LD_PRELOAD` | `tools/tests/egm_lab_cli.rs` (`the_launcher_runs_the_file_it_hashed_cleanly_and_caps_the_boot_when_it_ends`) |
//! | 3 the key store is whatever the configuration names (a relay, another TPM) | `attack_3_*` (the TCTI); `host/tests/host/production.rs` |
//! | 3 a key-lost clear with a wrong PIN after a TPM clear | `attack_3_a_wrong_pin_clears_nothing_after_a_tpm_clear` |
//! | 4 the configuration edited while the cabinet was off | `attack_4_*` |
//! | 4 the manifest and paytables edited after the launcher's measurement | `host/tests/host/production.rs` (`the_host_plays_only_from_the_manifest_the_launcher_measured`) |
//! | 4 the manifest signed by the key it names; a release moved only by a record the old one makes | `meters/tests/signed_release.rs`, `tools/tests/egm_lab_release.rs` |

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use meters::config::ExcessiveIncrement;
use meters::{BootError, CoreError, Currency, Door, IntegrityError, KeyStoreConfig, Machine, MachineConfig};
use support::copies::Snapshot;
use support::production::PIN;
use support::production::{NV_INDEX, boot, boot_with, config, provision_and_boot_with, provisioned_cabinet, ram_error, snapshot};
use support::relay::Relay;
use support::swtpm::SoftwareTpm;

/// A cash-out cut by a power cut between its pending record and the
/// anchor's write: the TPM's bus is cut at the write (it never reaches the
/// TPM), the cabinet's process is gone, the TPM loses power. Returns every
/// file as the attacker copies it then.
fn cash_out_cut_before_the_anchor_write(mut m: Machine, relay: &Relay, tpm: &mut SoftwareTpm, db: &Path) -> Snapshot {
    relay.cut_after(false);
    relay.arm(true);
    let err = m.cash_out().unwrap_err();
    assert!(matches!(err, CoreError::CriticalMemory(ref d) if d.contains("the anchor could not be advanced")), "{err}");
    drop(m);
    tpm.power_cut();
    relay.arm(false);
    tpm.power_on();
    snapshot(db, tpm)
}

/// Attack 1, the lab's recipe: F0 is every file after a power-up with
/// 20,000 c of credit (the anchor at N); F1 the same machine's cash-out cut
/// before the anchor's write (pending N+1, the anchor at N). F0 restored
/// boots (its power-up writes N+1, by another history) and cuts a second
/// cash-out the same way (F2: pending N+2). F1 restored was confirmed at
/// N+1 and printed ticket 1; F2 then advanced to N+2 and printed ticket 2.
/// The anchor now holds the chain of the records each write was made for:
/// F1 names N+1 by a history the anchor never held and is refused, money
/// unchanged; F2, the branch the anchor follows, prints its ticket once;
/// F1 again after it is refused too. One credit, one ticket.
#[test]
fn attack_1_two_copies_forked_from_one_state_confirm_one_ticket_at_most() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = SoftwareTpm::start(dir.path());
    let relay = Relay::start(&tpm);
    let db = dir.path().join("egm.sqlite");
    let config = MachineConfig { key_store: KeyStoreConfig::Tpm { tcti: relay.tcti(), nv_index: NV_INDEX }, ..config(&tpm) };
    let mut m = provision_and_boot_with(&db, config.clone(), &tpm);
    m.insert_note(10_000).unwrap();
    m.insert_note(10_000).unwrap();
    let n = m.anchor_wear().counter;
    let f0 = snapshot(&db, &tpm);
    let f1 = cash_out_cut_before_the_anchor_write(m, &relay, &mut tpm, &db);

    f0.restore();
    let m = boot_with(&db, config.clone(), &tpm).unwrap();
    assert_eq!(m.anchor_wear().counter, n + 1, "F0's power-up moves the anchor to N+1");
    assert_eq!(m.credit(), 20_000);
    let f2 = cash_out_cut_before_the_anchor_write(m, &relay, &mut tpm, &db);

    // F1: the count N+1 is right, the history is not.
    f1.restore();
    assert_eq!(ram_error(boot_with(&db, config.clone(), &tpm)), IntegrityError::Forked { head: n + 1, counter: n + 1 });

    // F2: the branch the anchor follows finishes its advance; one ticket.
    f2.restore();
    let mut m = boot_with(&db, config.clone(), &tpm).unwrap();
    assert_eq!(m.anchor_wear().counter, n + 3, "F2's advance to N+2, then its power-up");
    assert_eq!(m.credit(), 0);
    let unprinted = m.unprinted_tickets();
    assert_eq!(unprinted.iter().map(|t| t.value).collect::<Vec<_>>(), [20_000]);
    m.ticket_printed(&unprinted[0].validation).unwrap();
    assert_eq!(m.state().totals.cancelamento_creditos, 20_000);
    m.shutdown().unwrap();

    // F1 again, after F2's: rolled back, never a second ticket.
    f1.restore();
    assert!(matches!(ram_error(boot_with(&db, config.clone(), &tpm)), IntegrityError::RolledBack { head, .. } if head == n + 1));
    f2.restore();
    assert!(matches!(ram_error(boot_with(&db, config, &tpm)), IntegrityError::RolledBack { head, .. } if head == n + 2));
}

/// Attack 4: of 19 settings edited while the cabinet was off, the currency,
/// a 1,000,000 c note, every limit and the largest win, the C-26
/// increments, the tick, the write budget and the denominations were
/// accepted at the next boot. Every setting is now the machine's own once
/// journaled: each edit is refused by name while the logic door is shut,
/// the money where it was; with the door open the change is made and
/// journaled.
#[test]
fn attack_4_every_setting_changes_only_with_the_logic_door_open() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(5_000).unwrap();
    m.shutdown().unwrap();
    let own = config(&tpm);
    let edits: Vec<(&str, MachineConfig)> = vec![
        ("currency", MachineConfig { currency: Currency { code: "USD".into(), minor_digits: 2 }, ..own.clone() }),
        ("accepted_notes", MachineConfig { accepted_notes: vec![500, 1_000, 2_000, 5_000, 10_000, 1_000_000], ..own.clone() }),
        ("credit_limit", MachineConfig { credit_limit: own.credit_limit * 10, ..own.clone() }),
        ("ticket_in_limit", MachineConfig { ticket_in_limit: own.ticket_in_limit * 10, ..own.clone() }),
        ("ticket_out_limit", MachineConfig { ticket_out_limit: own.ticket_out_limit * 10, ..own.clone() }),
        ("handpay_limit", MachineConfig { handpay_limit: own.handpay_limit * 10, ..own.clone() }),
        ("jackpot_threshold", MachineConfig { jackpot_threshold: own.jackpot_threshold * 2, ..own.clone() }),
        ("max_win", MachineConfig { max_win: own.max_win * 10, ..own.clone() }),
        ("excessive_increment", MachineConfig { excessive_increment: ExcessiveIncrement { coin_in: 10_000_000, bills_in: 100_000_000 }, ..own.clone() }),
        ("anchor_tick_wagered", MachineConfig { anchor_tick_wagered: own.anchor_tick_wagered / 2, ..own.clone() }),
        ("anchor_tick_minutes", MachineConfig { anchor_tick_minutes: 1, ..own.clone() }),
        ("anchor_write_budget", MachineConfig { anchor_write_budget: own.anchor_write_budget * 2, ..own.clone() }),
        ("denominations", MachineConfig { denominations: vec![1, 2, 5, 10, 20, 50, 100, 200, 500], ..own.clone() }),
        ("meter_digits", MachineConfig { meter_digits: 12, ..own.clone() }),
    ];
    for (field, edited) in &edits {
        assert!(edited.validate().is_ok(), "{field}: the edit must be a valid configuration, or it proves nothing");
        match boot_with(&db, edited.clone(), &tpm) {
            Err(BootError::ConfigChangeRefused(f)) => assert_eq!(&f, field),
            Err(other) => panic!("{field}: refused for another reason: {other}"),
            Ok(_) => panic!("{field}: the edited configuration was accepted with the logic door shut"),
        }
    }
    // The money where it was, and the note the edit would have accepted
    // still refused.
    let mut m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 15_000);
    assert!(m.insert_note(1_000_000).is_err());
    // With the logic door open, the operator's change is made, journaled.
    m.open_door(Door::Logic).unwrap();
    m.shutdown().unwrap();
    let usd = &edits[0].1;
    let m = boot_with(&db, usd.clone(), &tpm).unwrap();
    assert_eq!(m.config().currency.code, "USD");
    assert_eq!(m.credit(), 15_000);
}

/// Attack 3, the TCTI: the configuration's `key_store.tcti` was read
/// before anything checked it, so a relay in front of the real TPM read
/// the key's HMAC answers, and a relay reporting a chip's manufacturer
/// passed the software-TPM check. A floor cabinet (not an evaluation
/// cabinet) now speaks to no TPM but its platform's
/// (`keystore::CABINET_TCTI`): any other — a relay in front of this
/// cabinet's TPM, an address where nothing answers — is refused by name
/// before anything is asked of it, for provisioning, boot and both
/// clears; the money stays where it was.
#[test]
fn attack_3_a_floor_cabinet_speaks_to_no_tpm_but_its_platforms() {
    let (dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    drop(m);
    let relay = Relay::start(&tpm);
    for tcti in [relay.tcti(), "swtpm:host=127.0.0.1,port=1".to_owned(), "device:/dev/tpm0".to_owned()] {
        // As the host runs it: with the release it read, which is checked
        // against the TPM only after the TPM is the platform's.
        let floor = MachineConfig {
            evaluation: false,
            key_store: KeyStoreConfig::Tpm { tcti: tcti.clone(), nv_index: NV_INDEX },
            release_read: Some(support::production::RELEASE),
            ..config(&tpm)
        };
        let refused = |r: Result<(), BootError>| match r {
            Err(BootError::TctiRefused(named)) => assert_eq!(named, tcti),
            Err(other) => panic!("expected {tcti} refused by name, got {other}"),
            Ok(()) => panic!("{tcti} was used by a floor cabinet"),
        };
        refused(boot_with(&db, floor.clone(), &tpm).map(|_| ()));
        refused(Machine::ram_clear(&db, &floor, "ana", PIN, "attack", true).map(|_| ()));
        refused(Machine::ram_clear_key_lost(&db, &floor, "ana", PIN, "attack", true).map(|_| ()));
        let fresh = dir.path().join("fresh.sqlite");
        refused(Machine::provision(&fresh, floor, PIN).map(|_| ()));
        assert!(!fresh.exists());
    }
    let m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 10_000);
    assert!(m.ram_clears().unwrap().is_empty());
}

/// Attack 3, the PIN: after a TPM clear (`tpm2_clear -c p`, as a chip's
/// firmware menu does), `egm-lab ram-clear --key-lost` with a wrong PIN
/// was accepted and erased 15,000 c (the record said "not checked"). The
/// TPM that held the PIN is gone and nothing else can check one: no
/// key-lost clear goes on, with a wrong PIN or the right one, and
/// critical memory is as it was, for the lab to archive.
#[test]
fn attack_3_a_wrong_pin_clears_nothing_after_a_tpm_clear() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(5_000).unwrap();
    m.open_door(Door::Logic).unwrap();
    drop(m);
    let cleared = tpm.tools(&["tpm2_clear", "-c", "p"]);
    assert!(cleared.status.success(), "tpm2_clear -c p: {}", String::from_utf8_lossy(&cleared.stderr));
    let files = [std::fs::read(&db).unwrap(), std::fs::read(db.with_file_name("egm.sqlite.second")).unwrap()];
    for pin in ["1111111111", PIN] {
        let r = Machine::ram_clear_key_lost(&db, &config(&tpm), "ana", pin, "attack", true);
        assert!(matches!(r, Err(BootError::PinUnchecked)), "{pin}: {r:?}");
    }
    assert_eq!([std::fs::read(&db).unwrap(), std::fs::read(db.with_file_name("egm.sqlite.second")).unwrap()], files, "critical memory changed");
    // Nor does the ordinary clear, nor a boot: the key is lost.
    assert!(Machine::ram_clear(&db, &config(&tpm), "ana", PIN, "attack", true).is_err());
    assert!(boot(&db, &tpm).is_err());
    // The evidence, 15,000 c of credit in it, goes to the lab.
    let archive = Machine::archive_lost(&db, &config(&tpm), true).unwrap();
    let notes: i64 = rusqlite::Connection::open(&archive).unwrap().query_row("SELECT count(*) FROM journal WHERE kind = 'note_in'", [], |r| r.get(0)).unwrap();
    assert_eq!(notes, 2);
}

/// What the key's two HMACs derive, as `tpm2_hmac` gets them under a PCR
/// policy session in a boot the launcher measured, before any cabinet
/// takes the key: the lab's own way to the journal key (`KEY_LABEL`) and
/// the anchor's authorisation (`COUNTER_AUTH_LABEL`), both in hex.
fn derived_by_the_lab(tpm: &SoftwareTpm, dir: &Path) -> [Vec<u8>; 2] {
    let session = dir.join("policy.session");
    let session_arg = format!("session:{}", session.display());
    let run = |args: &[&str]| {
        let out = tpm.tools(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    [b"egm critical memory journal key v1".as_slice(), b"egm anchor counter authorisation v1".as_slice()].map(|label| {
        let input = dir.join("label.bin");
        std::fs::write(&input, label).unwrap();
        run(&["tpm2_startauthsession", "--policy-session", "-S", session.to_str().unwrap()]);
        run(&["tpm2_policypcr", "-S", session.to_str().unwrap(), "-l", "sha256:0,2,4,7,15"]);
        let mac = run(&["tpm2_hmac", "-c", &format!("{:#x}", meters::keystore::KEY_HANDLE), "-p", &session_arg, "--hex", input.to_str().unwrap()]);
        run(&["tpm2_flushcontext", session.to_str().unwrap()]);
        let mac = hex::decode(String::from_utf8_lossy(&mac).trim()).unwrap();
        assert_eq!(mac.len(), 32);
        mac
    })
}

/// Attack 3, the relay on the bus: pointed at a relay in front of the real
/// TPM, the lab read both TPM2_HMAC answers in clear — the journal key and
/// the anchor's authorisation — and paid a forged note. Every session that
/// carries a secret is now salted to the TPM's endorsement key and
/// encrypts its answer: the bus carries provisioning, a boot, play, a
/// cash-out and a RAM clear, and neither secret appears anywhere in what
/// crossed it, while the lab's own `tpm2_hmac` in a measured boot shows
/// what they are.
#[test]
fn attack_3_a_relay_on_the_bus_reads_neither_the_key_nor_the_anchors_authorisation() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = SoftwareTpm::manufacture(dir.path());
    let relay = Relay::start(&tpm);
    let db = dir.path().join("egm.sqlite");
    // An evaluation cabinet names its software TPM's address: the relay's.
    let config = MachineConfig { key_store: KeyStoreConfig::Tpm { tcti: relay.tcti(), nv_index: NV_INDEX }, ..config(&tpm) };
    let mut m = provision_and_boot_with(&db, config.clone(), &tpm);
    m.insert_note(10_000).unwrap();
    m.cash_out().unwrap();
    m.open_door(Door::Logic).unwrap();
    drop(m);
    Machine::ram_clear(&db, &config, "ana", PIN, "audit", true).unwrap();
    let heard = relay.heard();
    const TPM2_CC_HMAC: [u8; 4] = 0x0000_0155u32.to_be_bytes();
    let hmacs = heard.windows(4).filter(|w| *w == TPM2_CC_HMAC).count();
    // Provisioning derives the anchor's authorisation; the first boot both
    // secrets (the process keeps them after: later boots ask nothing).
    assert!(hmacs >= 3, "the key's HMACs did not cross the relay ({hmacs} HMAC command codes heard)");

    // The secrets, as the lab takes them in a measured boot of its own.
    tpm.power_cut();
    tpm.power_on();
    support::production::launch(&tpm);
    let [journal_key, counter_auth] = derived_by_the_lab(&tpm, dir.path());
    for (what, secret) in [("the journal key", &journal_key), ("the anchor's authorisation", &counter_auth)] {
        assert!(!heard.windows(32).any(|w| w == secret.as_slice()), "{what} crossed the bus in clear");
    }
}

/// Attack 3, the TPM the configuration names: the attacker's own software
/// TPM, or a relay saying "IFX", passed the software-TPM check, which
/// asked the TPM what it was. A floor cabinet's TPM is now the one whose
/// endorsement key a manufacturer's root this program carries certifies:
/// a software TPM manufactured with its EK certificate, exactly as
/// `tools/run-cabinet.sh` makes the evaluation cabinet's, is refused by the
/// program's own roots, naming its issuer. The same chain is accepted when
/// a lab names its CA's root (the chain check is real: the issuer stored
/// beside the certificate as a manufacturer stores it, TCG EK chain index
/// 0x01C00100), and a chip's certificate copied into another TPM is
/// refused: that TPM does not hold the certificate's key.
#[test]
fn attack_3_a_tpm_is_the_platforms_only_when_a_manufacturer_certifies_its_endorsement_key() {
    use meters::keystore::{Trust, endorsement};
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::manufacture(dir.path());
    let key_store = KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: NV_INDEX };
    let refused = endorsement(&key_store, Trust::Manufacturers).unwrap_err();
    let text = refused.to_string();
    assert!(matches!(refused, meters::KeyStoreError::NotEndorsed { .. }), "{refused:?}");
    assert!(text.contains("CN=swtpm-localca") && text.contains("does not chain to a TPM manufacturer's root this program carries"), "{text}");

    // The issuer in the chain's first index, as a manufacturer stores it.
    let store = |tpm: &SoftwareTpm, index: &str, der: &[u8]| {
        let file = dir.path().join(format!("{index}.der"));
        std::fs::write(&file, der).unwrap();
        let size = der.len().to_string();
        let define = tpm.tools(&["tpm2_nvdefine", index, "-C", "p", "-s", &size, "-a", "ppwrite|ppread|ownerread|authread|no_da|platformcreate"]);
        assert!(define.status.success(), "tpm2_nvdefine {index}: {}", String::from_utf8_lossy(&define.stderr));
        let write = tpm.tools(&["tpm2_nvwrite", index, "-C", "p", "-i", file.to_str().unwrap()]);
        assert!(write.status.success(), "tpm2_nvwrite {index}: {}", String::from_utf8_lossy(&write.stderr));
    };
    store(&tpm, "0x1c00100", &SoftwareTpm::manufacturer_issuer(dir.path()));
    let root = SoftwareTpm::manufacturer_root(dir.path());
    let endorsed = endorsement(&key_store, Trust::Roots(vec![root.clone()])).unwrap().unwrap();
    assert_eq!((endorsed.issuer.as_str(), endorsed.root.as_str()), ("CN=swtpm-localca", "CN=swtpm-localca-rootca"));
    // Without the issuer the chain does not reach the root.
    let other = tempfile::tempdir().unwrap();
    let copy = SoftwareTpm::start(other.path());
    let copy_store = KeyStoreConfig::Tpm { tcti: copy.tcti(), nv_index: NV_INDEX };
    // A TPM that holds no EK yet is refused before anything is read.
    let none = endorsement(&copy_store, Trust::Roots(vec![root.clone()])).unwrap_err().to_string();
    assert!(none.contains("holds no endorsement key at 0x81010001"), "{none}");
    // Provisioned (an evaluation cabinet makes its EK), then given the
    // first TPM's certificate and chain: refused, not its key.
    drop(provision_and_boot_with(&other.path().join("egm.sqlite"), config(&copy), &copy));
    let cert = tpm.tools(&["tpm2_nvread", "0x1c00002", "-C", "o"]);
    let cert = if cert.status.success() { cert.stdout } else { tpm.tools(&["tpm2_nvread", "0x1c00002"]).stdout };
    assert!(cert.len() > 500, "the first TPM's EK certificate did not read ({} bytes)", cert.len());
    store(&copy, "0x1c00002", &cert);
    store(&copy, "0x1c00100", &SoftwareTpm::manufacturer_issuer(dir.path()));
    let copied = endorsement(&copy_store, Trust::Roots(vec![root])).unwrap_err().to_string();
    assert!(copied.contains("is not the key its certificate (issued by CN=swtpm-localca) certifies"), "{copied}");
}
