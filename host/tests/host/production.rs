//! The shipped configuration is production (issue 21, attack 11), and the
//! host runs on it as a floor does: on a real TPM 2.0 (Debian's swtpm),
//! provisioned once, with the operator's own credential and its program
//! approved in the manifest.

use crate::swtpm::SoftwareTpm;
use crate::test_config;

use game_host::boot::{BootOptions, boot};
use game_host::config::CabinetConfig;
use meters::{KeyStoreConfig, Machine, Mode};
use paytables::artifact::{ManifestEntry, read_manifest, sha256_hex};

#[test]
fn the_shipped_configuration_is_production_on_the_cabinets_tpm_with_the_pin_in_the_tpm_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_config::write(dir.path(), &test_config::production_text(dir.path()));
    let config = CabinetConfig::load(&path).unwrap();
    assert_eq!(config.machine.mode, Mode::Production);
    assert_eq!(config.machine.key_store, KeyStoreConfig::Tpm { tcti: "device:/dev/tpmrm0".into(), nv_index: 0x0150_0020 });
    // Issue 47, hole 7: no hash of the PIN in the file.
    assert!(config.machine.operator.is_held_by_tpm() && !config.machine.operator.is_default());
    // The default credential (PIN 0000 as a hash) is refused in
    // production, by name, before critical memory is created.
    let shipped = test_config::production_text(dir.path());
    let with_default = shipped
        .replace(test_config::SHIPPED_OPERATOR, &format!("operator: (operator_id: \"operator\", pin_argon2: {:?}),", meters::config::DEFAULT_OPERATOR_ARGON2));
    assert_ne!(with_default, shipped);
    let edited = test_config::write(dir.path(), &with_default);
    let db = dir.path().join("egm.sqlite");
    let e = boot(&BootOptions { config: edited, db: db.clone(), lab_seed: None, demo: false }).err().expect("the default PIN was accepted in production");
    assert!(e.contains("default"), "{e}");
    assert!(!db.exists());
}

/// The shipped configuration installed on a cabinet with this TPM (an
/// evaluation cabinet: a software TPM), and a manifest that approves
/// `program`.
fn installed(dir: &std::path::Path, tpm: &SoftwareTpm, program: &std::path::Path) -> std::path::PathBuf {
    let mut manifest = read_manifest(&test_config::workspace().join("assets/paytables/approved.ron")).unwrap();
    let name = program.file_name().unwrap().to_string_lossy().into_owned();
    manifest.programs.push(ManifestEntry { id: name.clone(), file: name, sha256: sha256_hex(&std::fs::read(program).unwrap()) });
    let manifest_path = dir.join("approved.ron");
    std::fs::write(&manifest_path, ron::ser::to_string_pretty(&manifest, ron::ser::PrettyConfig::default()).unwrap()).unwrap();
    let shipped = test_config::production_text(dir);
    let text = shipped
        .replace(test_config::SHIPPED_KEY_STORE, &format!("        key_store: Tpm(tcti: {:?}, nv_index: 0x01500020),\n        evaluation: true,\n", tpm.tcti()))
        .replace(
            &format!("{:?}", test_config::workspace().join("assets/paytables/approved.ron").display().to_string()),
            &format!("{:?}", manifest_path.display().to_string()),
        );
    assert_ne!(text, shipped);
    test_config::write(dir, &text)
}

#[test]
fn the_host_runs_in_production_on_a_tpm_provisioned_once() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = SoftwareTpm::start(dir.path());
    let program = std::env::current_exe().unwrap();
    let path = installed(dir.path(), &tpm, &program);
    let config = CabinetConfig::load(&path).unwrap();
    let db = dir.path().join("egm.sqlite");
    let options = BootOptions { config: path, db: db.clone(), lab_seed: None, demo: false };

    // Not provisioned yet: refused by name, never a silent new machine.
    let e = boot(&options).err().expect("an unprovisioned cabinet booted");
    assert!(e.contains("provision"), "{e}");
    // A lab seed is refused in production.
    let e = boot(&BootOptions { lab_seed: Some(1), ..options.clone() }).err().expect("a lab seed was accepted in production");
    assert!(e.contains("seed"), "{e}");

    // The launcher's step of this boot (issue 47, hole 1): the approved
    // release measured before a certified program takes the key.
    let manifest = read_manifest(&dir.path().join("approved.ron")).unwrap();
    assert!(meters::keystore::measure_release(&config.machine.key_store, &manifest.release_digest()).unwrap());
    let first = Machine::provision(&db, config.machine.clone(), "4829137560").unwrap();
    let mut s = boot(&options).unwrap();
    assert!(s.verification().failures().is_empty(), "{:?}", s.verification().failures());
    // A software TPM: an evaluation cabinet, marked on every screen and
    // told in full in the audit menu (issue 47, holes 2 and 8).
    assert_eq!(s.evaluation_mark(), Some("AVALIAÇÃO: TPM DE SOFTWARE"));
    assert!(s.evaluation_limits().is_some_and(|l| l.contains("ficheiro")));
    assert_eq!(s.machine().play_block(), None);
    let wear = s.machine().anchor_wear();
    assert!(!wear.stand_in && wear.key_store.contains(&tpm.tcti()), "{}", wear.key_store);
    assert_eq!(wear.counter, first + 1, "power-up after verification is an anchor event");

    s.insert_note(2_000);
    assert!(s.play());
    s.revealed();
    s.collect();
    let credit = s.machine().credit();
    assert!(credit > 0);
    s.cash_out();
    let ticket = s.last_ticket().expect("a ticket was printed").to_owned();
    assert_eq!(s.machine().credit(), 0);
    assert_eq!(s.machine().anchor_wear().counter, first + 2, "the cash-out anchored before the money left");
    drop(s);

    // The next boot on the same TPM continues; the ticket is owed once.
    let s = boot(&options).unwrap();
    assert_eq!(s.machine().credit(), 0);
    assert_eq!(s.machine().anchor_wear().counter, first + 3);
    let t = s.machine().state().tickets.get(&ticket).expect("the ticket is on record");
    assert_eq!((t.value, t.printed, t.redeemed), (credit, true, false));
}

/// Issue 68, attack 4: the release digest covered the programs only, and
/// 29 approved paytable entries edited left it unchanged. The release is
/// now the manifest's programs and every approved paytable, and the host
/// plays only from the manifest the launcher measured: a manifest edited
/// after the launcher's measurement, or a configuration naming another
/// manifest than the launcher's, is refused by name before the key is
/// taken (the cabinet then boots on what was measured, in the same boot);
/// an edited manifest the launcher measures is another release, to which
/// the key does not answer.
#[test]
fn the_host_plays_only_from_the_manifest_the_launcher_measured() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = SoftwareTpm::start(dir.path());
    let program = std::env::current_exe().unwrap();
    let path = installed(dir.path(), &tpm, &program);
    let config = CabinetConfig::load(&path).unwrap();
    let db = dir.path().join("egm.sqlite");
    let options = BootOptions { config: path.clone(), db: db.clone(), lab_seed: None, demo: false };
    let manifest_path = dir.path().join("approved.ron");
    let approved = std::fs::read_to_string(&manifest_path).unwrap();
    let manifest = read_manifest(&manifest_path).unwrap();
    assert!(meters::keystore::measure_release(&config.machine.key_store, &manifest.release_digest()).unwrap());
    Machine::provision(&db, config.machine.clone(), "4829137560").unwrap();
    // A power-up of its own for the cabinet, measured as provisioning was.
    tpm.power_cut();
    tpm.power_on();
    assert!(meters::keystore::measure_release(&config.machine.key_store, &manifest.release_digest()).unwrap());

    // One approved paytable's digest replaced after the measurement.
    let mut edited = manifest.clone();
    edited.approved[0].sha256 = "0".repeat(64);
    let edited_text = ron::ser::to_string_pretty(&edited, ron::ser::PrettyConfig::default()).unwrap();
    std::fs::write(&manifest_path, &edited_text).unwrap();
    let e = boot(&options).err().expect("a manifest edited after the launcher's measurement was played from");
    assert!(e.contains("not the release") && e.contains(&hex::encode(edited.release_digest())), "{e}");
    std::fs::write(&manifest_path, &approved).unwrap();
    // The configuration naming another manifest than the launcher's.
    let other = dir.path().join("other.ron");
    std::fs::write(&other, &edited_text).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let folder = dir.path().join("elsewhere");
    std::fs::create_dir(&folder).unwrap();
    let elsewhere =
        test_config::write(&folder, &text.replace(&format!("{:?}", manifest_path.display().to_string()), &format!("{:?}", other.display().to_string())));
    let e = boot(&BootOptions { config: elsewhere, ..options.clone() }).err().expect("another manifest than the launcher's was played from");
    assert!(e.contains("not the release"), "{e}");
    // Nothing was taken: the cabinet boots on what was measured.
    let mut s = boot(&options).unwrap();
    s.insert_note(2_000);
    assert_eq!(s.machine().credit(), 2_000);
    drop(s);

    // The edited manifest measured by the launcher at the next power-up:
    // another release, and the key does not answer to it.
    tpm.power_cut();
    tpm.power_on();
    std::fs::write(&manifest_path, &edited_text).unwrap();
    assert!(meters::keystore::measure_release(&config.machine.key_store, &edited.release_digest()).unwrap());
    let e = boot(&options).err().expect("the key answered to another release");
    assert!(e.contains("measured state"), "{e}");
    // The approved manifest again, at a power-up of its own: the credit is where it was.
    tpm.power_cut();
    tpm.power_on();
    std::fs::write(&manifest_path, &approved).unwrap();
    assert!(meters::keystore::measure_release(&config.machine.key_store, &manifest.release_digest()).unwrap());
    assert_eq!(boot(&options).unwrap().machine().credit(), 2_000);
}
