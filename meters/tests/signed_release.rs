//! Issue 68, "the manifest signed by the lab's key it names, and a release
//! moved to a new measurement only by a record the old key signs": a TPM
//! provisioned for a release-signing key takes its machine key on any
//! release that key signed (TPM2_PolicyAuthorize), never on one another
//! key signed, an unsigned one or a forged signature; the cabinet moves
//! to another signed release — forward or back — only with its logic door
//! open, journaled under the release that ran before. A real swtpm, the
//! production path (the launcher's measurement, provisioning, boots across
//! TPM power cycles).

#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;

use meters::keystore::KeyStoreError;
use meters::keystore::release::{self, ReleaseSignature};
use meters::{BootError, Door, KeyStoreConfig, Machine, MachineConfig, SeedChoice, StoreError};
use support::production::{PIN, config, hmac_with_the_machine_key};
use support::swtpm::SoftwareTpm;

const RELEASE_A: [u8; 32] = *b"egm release 2026.11 (build A)...";
const RELEASE_B: [u8; 32] = *b"egm release 2026.12 (build B)...";

/// The production configuration on `tpm`, running `release` with
/// `signature` as the host hands them to the core (read from the
/// manifest).
fn running(tpm: &SoftwareTpm, release: [u8; 32], signature: Option<ReleaseSignature>) -> MachineConfig {
    MachineConfig { release_read: Some(release), release_signature: signature, ..config(tpm) }
}

/// A power-up: the TPM's power cycled (its PCRs at their reset value, the
/// platform measured again), then the launcher's measurement of `release`.
fn power_up_and_launch(tpm: &mut SoftwareTpm, release: [u8; 32]) {
    tpm.power_cut();
    tpm.power_on();
    assert!(meters::keystore::measure_release(&config(tpm).key_store, &release).unwrap());
}

fn boot(db: &Path, tpm: &mut SoftwareTpm, release: [u8; 32], signature: Option<ReleaseSignature>) -> Result<Machine, BootError> {
    power_up_and_launch(tpm, release);
    Machine::open(db, running(tpm, release, signature), SeedChoice::Entropy)
}

fn tpm_refusal(r: Result<Machine, BootError>) -> String {
    match r {
        Err(BootError::Store(StoreError::KeyStore(KeyStoreError::Refused { detail, .. }))) => detail,
        Err(other) => panic!("expected the TPM's refusal, got {other}"),
        Ok(_) => panic!("the boot was accepted"),
    }
}

fn provisioned(dir: &Path, key: &[u8]) -> (SoftwareTpm, std::path::PathBuf) {
    let mut tpm = SoftwareTpm::start(dir);
    let db = dir.join("egm.sqlite");
    let signed_a = release::sign(key, &RELEASE_A).unwrap();
    power_up_and_launch(&mut tpm, RELEASE_A);
    Machine::provision(&db, running(&tpm, RELEASE_A, Some(signed_a)), PIN).unwrap();
    (tpm, db)
}

/// The move the issue asks for: release B, signed by the same key, takes
/// the key without the TPM being cleared — once the logic door was opened
/// under release A; back to A only the same way. The money stays.
#[test]
fn a_signed_release_moves_to_another_signed_release_only_with_the_logic_door_open() {
    let dir = tempfile::tempdir().unwrap();
    let key = release::new_signing_key().unwrap();
    let (mut tpm, db) = provisioned(dir.path(), &key);
    let signed_a = release::sign(&key, &RELEASE_A).unwrap();
    let signed_b = release::sign(&key, &RELEASE_B).unwrap();
    let mut m = boot(&db, &mut tpm, RELEASE_A, Some(signed_a.clone())).unwrap();
    assert_eq!(m.config().release, Some(hex::encode(RELEASE_A)), "the release this machine runs is journaled");
    m.insert_note(10_000).unwrap();
    m.shutdown().unwrap();
    // The key answers the signed release, not PolicyPCR over the measured
    // state as an unsigned key did: an attacker's tpm2-tools in the same
    // measured boot get no HMAC either way.
    power_up_and_launch(&mut tpm, RELEASE_A);
    assert!(!hmac_with_the_machine_key(&tpm, dir.path()), "the machine key answered PolicyPCR alone");

    // B, with the logic door shut: the key is B's too, but the move is
    // refused by name, nothing added to critical memory.
    match boot(&db, &mut tpm, RELEASE_B, Some(signed_b.clone())) {
        Err(BootError::ConfigChangeRefused(changed)) => assert_eq!(changed, "release"),
        Err(other) => panic!("B was refused for another reason: {other}"),
        Ok(_) => panic!("B was accepted with the logic door shut"),
    }
    // The operator opens the logic door under A: the record of the move.
    let mut m = boot(&db, &mut tpm, RELEASE_A, Some(signed_a.clone())).unwrap();
    assert_eq!(m.credit(), 10_000);
    m.open_door(Door::Logic).unwrap();
    m.shutdown().unwrap();
    let mut m = boot(&db, &mut tpm, RELEASE_B, Some(signed_b.clone())).unwrap();
    assert_eq!(m.credit(), 10_000, "the money moved with the release");
    assert_eq!(m.config().release, Some(hex::encode(RELEASE_B)));
    m.close_door(Door::Logic).unwrap();
    m.shutdown().unwrap();
    // Back to A (an older signed release) with the door shut: refused.
    match boot(&db, &mut tpm, RELEASE_A, Some(signed_a)) {
        Err(BootError::ConfigChangeRefused(changed)) => assert_eq!(changed, "release"),
        Err(other) => panic!("A was refused for another reason: {other}"),
        Ok(_) => panic!("the older release was accepted with the logic door shut"),
    }
    let m = boot(&db, &mut tpm, RELEASE_B, Some(signed_b)).unwrap();
    assert_eq!(m.credit(), 10_000);
}

/// A release another key signed, the same release unsigned, and a
/// signature copied from another release: no key, nothing changed.
#[test]
fn the_key_answers_no_release_its_signer_did_not_sign() {
    let dir = tempfile::tempdir().unwrap();
    let key = release::new_signing_key().unwrap();
    let (mut tpm, db) = provisioned(dir.path(), &key);
    let mut m = boot(&db, &mut tpm, RELEASE_A, Some(release::sign(&key, &RELEASE_A).unwrap())).unwrap();
    m.insert_note(5_000).unwrap();
    m.shutdown().unwrap();

    // The attacker's own key signs B: the TPM verifies that signature, but
    // the machine key names another signer.
    let attacker = release::new_signing_key().unwrap();
    let detail = tpm_refusal(boot(&db, &mut tpm, RELEASE_B, Some(release::sign(&attacker, &RELEASE_B).unwrap())));
    assert!(detail.contains("another release-signing key"), "{detail}");
    // A itself, its signature left out: the key answers signed releases only.
    let detail = tpm_refusal(boot(&db, &mut tpm, RELEASE_A, None));
    assert!(detail.contains("refuses to use the machine key"), "{detail}");
    // B with A's signature: refused before the TPM is asked.
    let copied = release::sign(&key, &RELEASE_A).unwrap();
    match boot(&db, &mut tpm, RELEASE_B, Some(copied)) {
        Err(BootError::Store(StoreError::KeyStore(KeyStoreError::Release(release::ReleaseError::Refused { .. })))) => {}
        Err(other) => panic!("expected the signature refused, got {other}"),
        Ok(_) => panic!("B was accepted with A's signature"),
    }
    let m = boot(&db, &mut tpm, RELEASE_A, Some(release::sign(&key, &RELEASE_A).unwrap())).unwrap();
    assert_eq!(m.credit(), 5_000, "nothing moved");
}

/// A floor cabinet (not an evaluation one) runs no unsigned release,
/// refused before any TPM is spoken to.
#[test]
fn a_floor_cabinet_runs_no_unsigned_release() {
    let dir = tempfile::tempdir().unwrap();
    let floor = MachineConfig {
        key_store: KeyStoreConfig::Tpm { tcti: meters::keystore::CABINET_TCTI.into(), nv_index: support::production::NV_INDEX },
        evaluation: false,
        release_read: Some(RELEASE_A),
        ..config(&SoftwareTpm::start(dir.path()))
    };
    assert!(matches!(Machine::open(&dir.path().join("egm.sqlite"), floor.clone(), SeedChoice::Entropy), Err(BootError::UnsignedRelease)));
    assert!(matches!(Machine::provision(&dir.path().join("egm.sqlite"), floor, PIN), Err(BootError::UnsignedRelease)));
}
