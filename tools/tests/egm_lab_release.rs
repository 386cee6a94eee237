//! Issue 68: the release-signing key and a signed release, as
//! `tools/run-cabinet.sh` uses them: `egm-lab release-key`, `egm-lab
//! sign-release`, and the launcher, which launches only a release whose
//! signature holds, on a real software TPM provisioned through it.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/support/swtpm.rs"]
mod swtpm;
#[path = "../../tests/support/test_config.rs"]
mod test_config;

use meters::{BootError, Machine, MachineConfig, Mode, SeedChoice};

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_egm-lab")).args(args).output().unwrap()
}

fn said(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The shipped manifest with this build of `egm-lab` approved in it.
fn manifest(dir: &Path) -> PathBuf {
    let manifest = dir.join("approved.ron");
    std::fs::copy(test_config::workspace().join("assets/paytables/approved.ron"), &manifest).unwrap();
    let out = lab(&["approve-program", env!("CARGO_BIN_EXE_egm-lab"), "--manifest", manifest.to_str().unwrap()]);
    assert!(out.status.success(), "{}", said(&out));
    manifest
}

fn new_key(dir: &Path, name: &str) -> PathBuf {
    let key = dir.join(name);
    let out = lab(&["release-key", "--out", key.to_str().unwrap()]);
    assert!(out.status.success(), "{}", said(&out));
    key
}

fn sign(key: &Path, manifest: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["sign-release", "--key", key.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()];
    args.extend_from_slice(extra);
    lab(&args)
}

#[test]
fn a_release_is_signed_once_per_release_by_the_key_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("release.pk8");
    let out = lab(&["release-key", "--out", key.to_str().unwrap()]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("its public key: 04"), "{}", said(&out));
    assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600, "the key is its owner's alone");
    let before = std::fs::read(&key).unwrap();
    let out = lab(&["release-key", "--out", key.to_str().unwrap()]);
    assert!(!out.status.success() && said(&out).contains("never replaced"), "{}", said(&out));
    assert_eq!(std::fs::read(&key).unwrap(), before);

    let manifest = manifest(dir.path());
    let out = sign(&key, &manifest, &[]);
    assert!(out.status.success(), "{}", said(&out));
    let m = paytables::artifact::read_manifest(&manifest).unwrap();
    let signature = m.signature.clone().expect("the manifest carries its signature");
    assert_eq!(signature.verify(&m.release_digest()), Ok(()));
    // A new build approved: a new release, whose earlier signature is gone.
    let out = lab(&["approve-program", "/bin/true", "--manifest", manifest.to_str().unwrap()]);
    assert!(out.status.success() && said(&out).contains("earlier signature is removed"), "{}", said(&out));
    assert_eq!(paytables::artifact::read_manifest(&manifest).unwrap().signature, None);
    assert!(sign(&key, &manifest, &[]).status.success());
    // Another key over a manifest the first one signed: refused unless said.
    let other = new_key(dir.path(), "other.pk8");
    let out = sign(&other, &manifest, &[]);
    assert!(!out.status.success() && said(&out).contains("--new-signer"), "{}", said(&out));
    assert_eq!(paytables::artifact::read_manifest(&manifest).unwrap().signature.unwrap().signer, signature.signer);
    assert!(sign(&other, &manifest, &["--new-signer"]).status.success());
    assert_ne!(paytables::artifact::read_manifest(&manifest).unwrap().signature.unwrap().signer, signature.signer);
    // Not a key.
    let out = sign(&manifest, &manifest, &["--new-signer"]);
    assert!(!out.status.success() && said(&out).contains("not a P-256 PKCS#8 key"), "{}", said(&out));
}

/// A cabinet configuration as the host reads it: the machine and the
/// manifest it plays from.
fn cabinet_config(dir: &Path, machine: &MachineConfig, manifest: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("(machine: {}, manifest: {:?})", ron::ser::to_string(machine).unwrap(), manifest)).unwrap();
    path
}

#[test]
fn the_launcher_launches_only_a_signed_release_whose_signature_holds_and_the_key_answers_its_signer() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = swtpm::SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let machine = MachineConfig {
        mode: Mode::Production,
        key_store: meters::KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: 0x0150_0020 },
        operator: meters::OperatorCredential::held_by_tpm("ana").unwrap(),
        nvram_mirror: Some(tpm.nvram()),
        evaluation: true,
        ..MachineConfig::default()
    };
    let manifest = manifest(dir.path());
    let key = new_key(dir.path(), "release.pk8");
    let cfg = cabinet_config(dir.path(), &machine, &manifest, "cabinet.ron");
    let floor = cabinet_config(dir.path(), &MachineConfig { evaluation: false, ..machine.clone() }, &manifest, "floor.ron");
    let egm_lab = env!("CARGO_BIN_EXE_egm-lab");
    let launch = |config: &Path, args: &[&str]| {
        let mut all = vec!["launch", "--config", config.to_str().unwrap(), "--manifest", manifest.to_str().unwrap(), "--", egm_lab];
        all.extend_from_slice(args);
        let mut child = Command::new(egm_lab)
            .args(&all)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        let _ = child.stdin.take().unwrap().write_all(b"7391046285\n");
        child.wait_with_output().unwrap()
    };
    // A floor cabinet launches no unsigned release; nothing is measured.
    let out = launch(&floor, &["--version"]);
    assert!(!out.status.success() && said(&out).contains("not signed"), "{}", said(&out));
    assert_eq!(tpm.pcr(15), "0".repeat(64), "an unsigned release was measured");
    assert!(sign(&key, &manifest, &[]).status.success());
    // The manifest edited after it was signed (a paytable's digest): its
    // signature no longer holds and nothing is launched or measured.
    let signed_text = std::fs::read_to_string(&manifest).unwrap();
    let mut edited = paytables::artifact::read_manifest(&manifest).unwrap();
    edited.approved[0].sha256 = "0".repeat(64);
    std::fs::write(&manifest, ron::ser::to_string(&edited).unwrap()).unwrap();
    let out = launch(&cfg, &["--version"]);
    assert!(!out.status.success() && said(&out).contains("does not verify") && said(&out).contains("not launched"), "{}", said(&out));
    assert_eq!(tpm.pcr(15), "0".repeat(64), "a release whose signature fails was measured");
    std::fs::write(&manifest, signed_text).unwrap();

    // Provisioned through the launcher, the key bound to the manifest's
    // signer (the cabinet configuration names the manifest).
    let out = launch(&cfg, &["provision", db.to_str().unwrap(), "--config", cfg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", said(&out));
    let m = paytables::artifact::read_manifest(&manifest).unwrap();
    let release = m.release_digest();
    let power_up = |tpm: &mut swtpm::SoftwareTpm| {
        tpm.power_cut();
        tpm.power_on();
        assert!(meters::keystore::measure_release(&machine.key_store, &release).unwrap());
    };
    // The cabinet, as the host hands it the manifest's release: unsigned,
    // the key refuses; signed, it answers.
    power_up(&mut tpm);
    let unsigned = MachineConfig { release_read: Some(release), ..machine.clone() };
    match Machine::open(&db, unsigned.clone(), SeedChoice::Entropy) {
        Err(BootError::Store(meters::StoreError::KeyStore(meters::KeyStoreError::Refused { detail, .. }))) => {
            assert!(detail.contains("this release is unsigned"), "{detail}")
        }
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("an unsigned release took the key of a cabinet provisioned for signed ones"),
    }
    power_up(&mut tpm);
    let mut cabinet = Machine::open(&db, MachineConfig { release_signature: m.signature.clone(), ..unsigned }, SeedChoice::Entropy).unwrap();
    assert_eq!(cabinet.config().release, Some(hex::encode(release)));
    cabinet.insert_note(2_000).unwrap();
    cabinet.shutdown().unwrap();
    // The lab's reading commands, launched in a boot of their own, take
    // the key under the release the manifest names (`--release-manifest`),
    // and get none without it.
    let tcti = tpm.tcti();
    let read = |tpm: &mut swtpm::SoftwareTpm, with: bool| {
        tpm.power_cut();
        tpm.power_on();
        let mut args = vec!["--tpm", tcti.as_str()];
        if with {
            args.extend(["--release-manifest", manifest.to_str().unwrap()]);
        }
        args.extend(["meters", db.to_str().unwrap(), "--json"]);
        launch(&cfg, &args)
    };
    let out = read(&mut tpm, false);
    assert!(!out.status.success() && said(&out).contains("this release is unsigned"), "{}", said(&out));
    let out = read(&mut tpm, true);
    assert!(out.status.success(), "{}", said(&out));
    let meters: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(meters.pointer("/m25/dinheiro_entrado/value").and_then(serde_json::Value::as_u64), Some(2_000), "{meters}");
}

/// Issue 77: the lab package's checklist (tools/lib/checklist.sh) counts a
/// test as evidence of an item where it, its doc comment or its file's
/// module doc cites the item's number — not a card range written like one
/// (the wheel straight "A-2-3-4-5", a quoted rank range "A-8": section A
/// only, whose letter is a rank's), nor a longer number (A-10 is not A-1).
#[test]
fn the_checklist_counts_a_rule_cited_not_a_card_range_written_like_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cites.rs");
    std::fs::write(
        &file,
        "/// The wheel straight A-2-3-4-5 is the lowest.\n#[test]\nfn wheel() {\n    let ranks = \"A-2\";\n}\n\n\
         /// A-2: the scaling is exact.\n#[test]\nfn scaling() {}\n\n\
         #[test]\nfn body_cites() {\n    // (A-2, and A-10)\n    let x = 1;\n}\n",
    )
    .unwrap();
    let run = |script: &str| {
        let out =
            Command::new("bash").arg("-c").arg(format!("source tools/lib/checklist.sh; {script}")).current_dir(test_config::workspace()).output().unwrap();
        assert!(out.status.success(), "{}", said(&out));
        String::from_utf8_lossy(&out.stdout).lines().map(|l| l.rsplit("::").next().unwrap_or_default().to_owned()).collect::<Vec<_>>()
    };
    let f = file.display();
    assert_eq!(run(&format!("tests_citing A-2 {f}")), ["body_cites", "scaling"]);
    assert_eq!(run(&format!("tests_citing A-10 {f}")), ["body_cites"]);
    assert!(run(&format!("tests_citing A-1 {f}")).is_empty(), "A-10 is not a citation of A-1");
    // A module doc that cites an item says what every test of its file
    // proves.
    let module = dir.path().join("module.rs");
    std::fs::write(&module, "//! Tamper tests (D-29).\n\nfn helper() {}\n\n#[test]\nfn one() {}\n\n#[test]\nfn two() {\n}\n").unwrap();
    assert_eq!(run(&format!("tests_citing D-29 {}", module.display())), ["one", "two"]);
    assert!(run(&format!("tests_citing D-2 {}", module.display())).is_empty());
    // Outside section A no card range looks like an item: an assertion
    // that a refusal names "G-46" cites it.
    let message = dir.path().join("message.rs");
    std::fs::write(&message, "#[test]\nfn bounded() {\n    assert!(refusal.contains(\"G-46\"));\n}\n").unwrap();
    assert_eq!(run(&format!("tests_citing G-46 {}", message.display())), ["bounded"]);
    // The documents' count uses the same pattern.
    let lines = |id: &str| run(&format!("grep -cE \"$(cites {id})\" {f} || true"));
    assert_eq!(lines("A-2"), ["2"], "the doc comment of scaling and the body of body_cites");
    assert_eq!(lines("A-3"), ["0"], "\"A-2-3-4-5\" cites no A-3");
}
