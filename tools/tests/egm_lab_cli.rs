//! `egm-lab` as a certification lab runs it, on a real critical-memory file.
#![allow(clippy::unwrap_used)]

use std::process::Command;

#[path = "../../tests/support/swtpm.rs"]
mod swtpm;
#[path = "../../tests/support/test_config.rs"]
mod test_config;

use meters::{Machine, MachineConfig, Mode, SeedChoice};

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_egm-lab")).args(args).output().unwrap()
}

/// `egm-lab` with `input` on its standard input (a PIN).
fn lab_with(input: &str, args: &[&str]) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_egm-lab"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A command that refuses its arguments exits before it reads the PIN:
    // the pipe is then closed, which is not the test's failure.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

#[test]
fn rng_dump_gives_raw_bytes_and_scaled_outcomes() {
    let out = lab(&["rng-dump", "--bytes", "100000", "--seed", "4"]);
    assert!(out.status.success());
    assert_eq!(out.stdout.len(), 100_000);
    assert_eq!(lab(&["rng-dump", "--bytes", "100000", "--seed", "4"]).stdout, out.stdout, "a lab seed reproduces the dump");
    assert_ne!(lab(&["rng-dump", "--bytes", "64"]).stdout, lab(&["rng-dump", "--bytes", "64"]).stdout, "entropy dumps differ");
    let out = lab(&["rng-dump", "--uniform", "37", "--count", "5000", "--seed", "1"]);
    let values: Vec<u64> = String::from_utf8(out.stdout).unwrap().lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(values.len(), 5000);
    assert!(values.iter().all(|&v| v < 37));
    assert_eq!(values.iter().collect::<std::collections::BTreeSet<_>>().len(), 37);
}

#[test]
fn meters_recall_events_and_verify_read_critical_memory() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    {
        let mut m = Machine::open(&db, MachineConfig { mode: Mode::Lab, ..MachineConfig::default() }, SeedChoice::Lab(1)).unwrap();
        m.insert_note(2_000).unwrap();
        let r = m.play_round("ocean-treasure", 5, 100, "spin", |_| Ok::<_, String>(serde_json::json!({"stops": [1, 2, 3, 4, 5]}))).map(|(r, _)| r).unwrap();
        m.settle_round(r, 250, vec![]).unwrap();
        m.shutdown().unwrap();
    }
    let db_s = db.to_str().unwrap();
    let before = std::fs::read(&db).unwrap();

    let out = lab(&["meters", db_s, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["m25"]["creditos_jogados"]["value"], 100);
    assert_eq!(v["m25"]["creditos_ganhos"]["value"], 250);
    assert_eq!(v["m25"]["receita_bruta"]["value"], "-150");
    assert_eq!(v["m25"]["dinheiro_entrado"]["displayed"], 2_000);
    assert_eq!(v["per_game"]["ocean-treasure"]["jogadas_efectuadas"], 1);
    assert_eq!(v["credit"], 2_150);
    let text = String::from_utf8(lab(&["meters", db_s]).stdout).unwrap();
    let line = text.lines().find(|l| l.contains("a) créditos jogados")).unwrap();
    assert!(line.trim_end().ends_with(" 100"), "{line}");

    let v: serde_json::Value = serde_json::from_slice(&lab(&["recall", db_s, "--json"]).stdout).unwrap();
    assert_eq!(v[0]["steps"][0]["step"]["data"]["stops"][4], 5);
    let v: serde_json::Value = serde_json::from_slice(&lab(&["events", db_s, "--json"]).stdout).unwrap();
    let events = v["events"].as_array().unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e["event"]["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"note_in") && kinds.contains(&"power_up") && kinds.contains(&"power_down"), "{kinds:?}");
    let note_seq = events.iter().find(|e| e["event"]["kind"] == "note_in").unwrap()["seq"].as_u64().unwrap();

    let out = lab(&["verify", db_s]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("OK"));
    assert_eq!(std::fs::read(&db).unwrap(), before, "readers never write to critical memory");

    // Tamper: 2000 → 9000 cents in the note record. The first bad record is
    // named and the exit code is non-zero.
    let c = rusqlite::Connection::open(&db).unwrap();
    let body: String = c.query_row("SELECT body FROM journal WHERE seq = ?1", [note_seq as i64], |r| r.get(0)).unwrap();
    c.execute("UPDATE journal SET body = ?1 WHERE seq = ?2", rusqlite::params![body.replace("2000", "9000"), note_seq as i64]).unwrap();
    drop(c);
    let out = lab(&["verify", db_s]);
    assert_eq!(out.status.code(), Some(2));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains(&format!("record {note_seq} (note_in): MAC mismatch")), "{s}");
}

/// A certified build's digest goes into the manifest by file name, next to
/// the paytables, which stay as they were; approving again replaces it.
#[test]
fn approve_program_records_the_build_digest_in_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("approved.ron");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/paytables/approved.ron"), &manifest).unwrap();
    let program = dir.path().join("cabinet");
    for build in [&b"build one"[..], &b"build two"[..]] {
        std::fs::write(&program, build).unwrap();
        let out = lab(&["approve-program", program.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let m = paytables::artifact::read_manifest(&manifest).unwrap();
    let want = paytables::artifact::sha256_hex(b"build two");
    assert_eq!(m.programs.len(), 1);
    assert_eq!((m.programs[0].file.as_str(), m.programs[0].sha256.as_str()), ("cabinet", want.as_str()));
    let shipped = paytables::artifact::read_manifest(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/paytables/approved.ron"))).unwrap();
    assert!(!shipped.approved.is_empty());
    assert_eq!(m.approved, shipped.approved, "the paytables stay approved");
    let out = lab(&["approve-program", dir.path().join("missing").to_str().unwrap(), "--manifest", manifest.to_str().unwrap()]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("missing"));
}

/// Issue 21: a credential is made from a PIN on standard input (argon2id,
/// never echoed), and a cabinet is provisioned once with its configuration.
#[test]
fn credential_and_provision_set_a_cabinet_up_once() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_egm-lab"))
        .args(["credential", "--operator", "ana"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"7391046285\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.starts_with("operator: (operator_id: \"ana\", pin_argon2: \"$argon2id$v=19$"), "{line}");
    assert!(!line.contains("7391046285"));
    let credential: meters::OperatorCredential = ron::from_str(line.trim().trim_start_matches("operator: ").trim_end_matches(',')).unwrap();
    assert!(credential.accepts("ana", "7391046285"));

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let cfg = dir.path().join("machine.ron");
    let config = MachineConfig { machine_id: "EGM-0042".into(), mode: Mode::Lab, operator: credential, ..MachineConfig::default() };
    std::fs::write(&cfg, ron::to_string(&config).unwrap()).unwrap();
    let (db_s, cfg_s) = (db.to_str().unwrap(), cfg.to_str().unwrap());
    let out = lab_with("7391046286\n", &["provision", db_s, "--config", cfg_s]);
    assert!(!out.status.success(), "provisioned with a wrong PIN");
    assert!(String::from_utf8_lossy(&out.stderr).contains("operator authentication failed"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = lab_with("7391046285\n", &["provision", db_s, "--config", cfg_s]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("machine EGM-0042 provisioned"));
    let again = lab_with("7391046285\n", &["provision", db_s, "--config", cfg_s]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already provisioned (machine EGM-0042)"), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(Machine::open(&db, config, SeedChoice::Lab(1)).unwrap().state().machine_id, "EGM-0042");
}

/// `provision --config` takes the cabinet's whole configuration too (the
/// site's `cabinet.ron`, as `tools/run-cabinet.sh` installs it), and a file
/// that is neither is refused with both reasons.
#[test]
fn provision_reads_a_whole_cabinet_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = test_config::write(dir.path(), &test_config::text(dir.path()));
    let db = dir.path().join("egm.sqlite");
    let out = lab_with("0000\n", &["provision", db.to_str().unwrap(), "--config", cfg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("machine EGM-0001 provisioned"));

    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "CabinetConfig(language: \"pt\")").unwrap();
    let out = lab_with("0000\n", &["provision", dir.path().join("other.sqlite").to_str().unwrap(), "--config", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("neither a machine configuration") && err.contains("machine"), "{err}");
    assert!(!dir.path().join("other.sqlite").exists(), "nothing is created for a bad configuration");
}

/// Issue 21: `ram-clear --key-lost` after the machine key was lost (here the
/// stand-in's key file): `verify` names the lost key, the plain clear fails,
/// the key-lost clear archives the file and the machine boots again.
#[test]
fn ram_clear_key_lost_recovers_a_machine_whose_key_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let cfg = test_config::write(dir.path(), &test_config::text(dir.path()));
    let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
    let mut m = Machine::open(&db, config.clone(), SeedChoice::Lab(2)).unwrap();
    m.insert_note(1_000).unwrap();
    m.shutdown().unwrap();
    std::fs::remove_file(dir.path().join("egm.sqlite.key")).unwrap();
    let (db_s, cfg_s) = (db.to_str().unwrap(), cfg.to_str().unwrap());

    let out = lab(&["verify", db_s]);
    assert_ne!(out.status.code(), Some(0));
    let args = ["ram-clear", db_s, "--operator", "operator", "--pin", "0000", "--reason", "key file lost", "--config", cfg_s];
    let plain = lab(&args);
    assert!(!plain.status.success(), "{}", String::from_utf8_lossy(&plain.stdout));
    let out = lab(&[&args[..], &["--key-lost"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("RAM clear 1 recorded (key lost)") && said.contains(".key-lost-"), "{said}");
    let m = Machine::open(&db, config, SeedChoice::Lab(2)).unwrap();
    assert_eq!(m.ram_clears().unwrap()[0].reason, "key lost: key file lost");
    assert_eq!(lab(&["verify", db_s]).status.code(), Some(0));
}

/// A production cabinet on the software TPM `tpm`, as `tools/run-cabinet.sh`
/// sets one up: its configuration (TPM key store, the PIN held by the TPM,
/// the NVRAM mirror, the evaluation mark a software TPM needs) and the
/// release, egm-lab approved in the manifest (the script approves the
/// cabinet and egm-lab the same way).
/// `egm-lab endorsement`, as a technician checks a cabinet's TPM before
/// provisioning (issue 68, attack 3): a software TPM manufactured with its
/// EK certificate, as `tools/run-cabinet.sh` makes one, is not a
/// manufacturer's chip (exit status 1, its issuer named); against the
/// lab's own CA root it is (the issuer stored at the TCG's chain index, as
/// a manufacturer stores it). `--list` names the 22 carried roots.
#[test]
fn endorsement_tells_a_manufacturers_tpm_from_a_software_one() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = swtpm::SoftwareTpm::manufacture(dir.path());
    let tcti = tpm.tcti();
    let out = lab(&["endorsement", "--tpm", &tcti]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("issued by CN=swtpm-localca") && said.contains("does not chain to a TPM manufacturer's root this program carries"), "{said}");

    let issuer = dir.path().join("issuer.der");
    std::fs::write(&issuer, swtpm::SoftwareTpm::manufacturer_issuer(dir.path())).unwrap();
    let size = std::fs::metadata(&issuer).unwrap().len().to_string();
    for args in [
        vec!["tpm2_nvdefine", "0x1c00100", "-C", "p", "-s", &size, "-a", "ppwrite|ppread|ownerread|authread|no_da|platformcreate"],
        vec!["tpm2_nvwrite", "0x1c00100", "-C", "p", "-i", issuer.to_str().unwrap()],
    ] {
        let done = tpm.tools(&args);
        assert!(done.status.success(), "{args:?}: {}", String::from_utf8_lossy(&done.stderr));
    }
    let root = dir.path().join("root.der");
    std::fs::write(&root, swtpm::SoftwareTpm::manufacturer_root(dir.path())).unwrap();
    let out = lab(&["endorsement", "--tpm", &tcti, "--root", root.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "endorsed: the EK certificate issued by CN=swtpm-localca chains to CN=swtpm-localca-rootca, and the TPM holds its key"
    );

    let out = lab(&["endorsement", "--list"]);
    let names = String::from_utf8_lossy(&out.stdout);
    assert_eq!(names.lines().count(), 22, "{names}");
    assert!(names.lines().any(|l| l == "infineon-optiga-rsa-root-ca") && names.lines().any(|l| l == "stm-tpm-ek-root-ca"), "{names}");
}

fn production_cabinet(dir: &std::path::Path, tpm: &swtpm::SoftwareTpm) -> (MachineConfig, std::path::PathBuf, std::path::PathBuf) {
    let config = MachineConfig {
        mode: Mode::Production,
        key_store: meters::KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: 0x0150_0020 },
        operator: meters::OperatorCredential::held_by_tpm("ana").unwrap(),
        nvram_mirror: Some(tpm.nvram()),
        evaluation: true,
        ..MachineConfig::default()
    };
    let cfg = dir.join("machine.ron");
    std::fs::write(&cfg, ron::ser::to_string(&config).unwrap()).unwrap();
    let manifest = dir.join("approved.ron");
    std::fs::copy(test_config::workspace().join("assets/paytables/approved.ron"), &manifest).unwrap();
    let approved = lab(&["approve-program", env!("CARGO_BIN_EXE_egm-lab"), "--manifest", manifest.to_str().unwrap()]);
    assert!(approved.status.success());
    (config, cfg, manifest)
}

/// Issue 68, attack 3: after a TPM clear (`tpm2_clear -c p`, as a chip's
/// firmware menu does), `ram-clear --key-lost` with a wrong PIN once erased
/// 15,000 c. Nothing can check the PIN the TPM held: the CLI refuses the
/// clear, saying so, and changes nothing; `archive-lost` keeps the files
/// for the lab, and the cabinet is provisioned again.
#[test]
fn a_key_lost_clear_after_a_tpm_clear_is_refused_and_the_files_archived() {
    let dir = tempfile::tempdir().unwrap();
    let tpm = swtpm::SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let (config, cfg, manifest) = production_cabinet(dir.path(), &tpm);
    let release = paytables::artifact::read_manifest(&manifest).unwrap().release_digest();
    assert!(meters::keystore::measure_release(&config.key_store, &release).unwrap());
    Machine::provision(&db, config.clone(), "7391046285").unwrap();
    let mut m = Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap();
    m.insert_note(10_000).unwrap();
    m.insert_note(5_000).unwrap();
    m.open_door(meters::Door::Logic).unwrap();
    drop(m);
    assert!(tpm.tools(&["tpm2_clear", "-c", "p"]).status.success());
    let before = std::fs::read(&db).unwrap();
    let (db_s, cfg_s) = (db.to_str().unwrap(), cfg.to_str().unwrap());
    let out = lab(&["ram-clear", db_s, "--operator", "ana", "--pin", "1111111111", "--reason", "attack", "--config", cfg_s, "--key-lost"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && said.contains("PIN cannot be checked") && said.contains("egm-lab archive-lost"), "{said}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "critical memory changed");
    let out = lab(&["archive-lost", db_s, "--config", cfg_s]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(".key-lost-") && said.contains("provision the cabinet again"), "{said}");
    assert!(!db.exists());
}

/// Issue 34, hole 9: `verify` checks a file as a boot does. On a production
/// cabinet's real TPM and NVRAM mirror, a copy restored from before a
/// cash-out verified OK by its MACs alone; now the anchor names it rolled
/// back, and a deleted mirror is named too.
///
/// Issue 47, hole 1: every certified program runs through the launcher
/// (`egm-lab launch`), which measures the approved release once per boot;
/// whichever program takes the key caps that state at once, so `verify`
/// runs in a boot of its own, launched as the cabinet is.
#[test]
fn verify_checks_the_anchor_and_the_mirror_as_a_boot_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = swtpm::SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let (config, cfg, manifest) = production_cabinet(dir.path(), &tpm);
    let (db_s, cfg_s, manifest_s) = (db.to_str().unwrap(), cfg.to_str().unwrap(), manifest.to_str().unwrap());
    let egm_lab = env!("CARGO_BIN_EXE_egm-lab");
    let launched = |input: &str, args: &[&str]| {
        let mut all = vec!["launch", "--config", cfg_s, "--manifest", manifest_s, "--", egm_lab];
        all.extend_from_slice(args);
        lab_with(input, &all)
    };
    // A program the manifest does not approve is not launched.
    let out = lab(&["launch", "--config", cfg_s, "--manifest", manifest_s, "--", "/bin/true"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("not an approved program"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = launched("7391046285\n", &["provision", db_s, "--config", cfg_s]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("measured into PCR 15"), "{}", String::from_utf8_lossy(&out.stderr));
    // Provisioning took the key in this boot: no other program can now,
    // the cabinet included, until the next power-up.
    assert!(Machine::open(&db, config.clone(), SeedChoice::Entropy).is_err(), "the key was taken twice in one boot");
    // The cabinet's boot (this test's process stands for it, launched by
    // the same step: the release's digest measured once).
    let release = paytables::artifact::read_manifest(&manifest).unwrap().release_digest();
    let reboot = |tpm: &mut swtpm::SoftwareTpm, launch: bool| {
        tpm.power_cut();
        tpm.power_on();
        if launch {
            assert!(meters::keystore::measure_release(&config.key_store, &release).unwrap());
        }
    };
    reboot(&mut tpm, true);
    let mut m = Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap();
    m.insert_note(10_000).unwrap();
    m.shutdown().unwrap();
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("egm.sqlite") || *p == tpm.nvram())
        .collect();
    let copy: Vec<(std::path::PathBuf, Vec<u8>)> = files.iter().map(|f| (f.clone(), std::fs::read(f).unwrap())).collect();
    // In the cabinet's boot another program gets no key.
    let out = launched("", &["verify", db_s, "--config", cfg_s]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already measured"), "{}", String::from_utf8_lossy(&out.stderr));
    // A boot of its own: verified.
    reboot(&mut tpm, false);
    let out = launched("", &["verify", db_s, "--config", cfg_s]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("NVRAM mirror, anchor"));

    reboot(&mut tpm, true);
    let mut m = Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap();
    assert!(matches!(m.cash_out().unwrap(), meters::CashOut::Ticket(t) if t.value == 10_000));
    m.shutdown().unwrap();
    for (f, bytes) in &copy {
        std::fs::write(f, bytes).unwrap();
    }
    reboot(&mut tpm, false);
    let out = launched("", &["verify", db_s, "--config", cfg_s]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("FAILED") && said.contains("rolled back"), "{said}");
    std::fs::remove_file(tpm.nvram()).unwrap();
    reboot(&mut tpm, false);
    let said = String::from_utf8_lossy(&launched("", &["verify", db_s, "--config", cfg_s]).stdout).into_owned();
    assert!(said.contains("missing or blank"), "{said}");
}

/// HMAC-SHA256 written here from the RFC 2104 construction over SHA-256
/// alone (64-byte blocks; a key longer than a block hashed first), the
/// lab's independent computation for H-52.
fn rfc2104_hmac_sha256(key: &[u8], message: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |b: u8| block.iter().map(|k| k ^ b).collect::<Vec<u8>>();
    let inner = Sha256::digest([pad(0x36), message.to_vec()].concat());
    hex::encode(Sha256::digest([pad(0x5c), inner.to_vec()].concat()))
}

/// H-52: `egm-lab verify-program` answers a lab's seed and offset with
/// HMAC-SHA256 over each component — the program, the configuration, the
/// manifest, every enabled paytable — which the lab's own computation
/// matches file by file; a changed paytable changes its answer alone; a
/// bad seed, and an offset past a file, are named.
#[test]
fn verify_program_answers_a_seed_with_each_component_s_hmac() {
    assert_eq!(
        rfc2104_hmac_sha256(b"Jefe", b"what do ya want for nothing?"),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        "RFC 4231, test case 2"
    );
    let dir = tempfile::tempdir().unwrap();
    let config = test_config::config(dir.path(), "");
    let program = dir.path().join("cabinet");
    std::fs::write(&program, b"a cabinet build, its art compiled in").unwrap();
    let seed = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    let ask = |offset: &str| {
        let out = lab(&[
            "verify-program",
            "--config",
            config.to_str().unwrap(),
            "--seed",
            seed,
            "--offset",
            offset,
            "--program",
            program.to_str().unwrap(),
            "--json",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["components"].as_array().unwrap().clone()
    };
    let c = game_host::config::CabinetConfig::load(&config).unwrap();
    let answers = ask("3");
    assert_eq!(answers.len(), 3 + c.games.len(), "the program, the configuration, the manifest and each game");
    let key = hex::decode(seed).unwrap();
    for a in &answers {
        let file = std::path::PathBuf::from(a["file"].as_str().unwrap());
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(a["hmac_sha256"].as_str().unwrap(), rfc2104_hmac_sha256(&key, &bytes[3..]), "{file:?}");
    }
    let names: Vec<&str> = answers.iter().map(|a| a["component"].as_str().unwrap()).collect();
    assert_eq!(&names[..4], ["program", "configuration", "manifest", "paytable classic-sevens"]);

    // A paytable changed on disk: its answer changes, no other.
    let compiled = dir.path().join("compiled");
    std::fs::create_dir_all(&compiled).unwrap();
    for id in &c.games {
        std::fs::copy(c.paytable_dir.join(format!("{id}.json")), compiled.join(format!("{id}.json"))).unwrap();
    }
    let moved = std::fs::read_to_string(&config)
        .unwrap()
        .replace(&format!("{:?}", c.paytable_dir.display().to_string()), &format!("{:?}", compiled.display().to_string()));
    std::fs::write(&config, moved).unwrap();
    let mut tampered = std::fs::read(compiled.join("bingo-75.json")).unwrap();
    tampered.push(b' ');
    std::fs::write(compiled.join("bingo-75.json"), tampered).unwrap();
    let after = ask("3");
    for (a, b) in answers.iter().zip(&after) {
        let same = a["hmac_sha256"] == b["hmac_sha256"];
        let name = a["component"].as_str().unwrap();
        assert_eq!(same, name != "paytable bingo-75" && name != "configuration", "{name}");
    }

    // Refusals name their cause.
    let out = lab(&["verify-program", "--config", config.to_str().unwrap(), "--seed", "xyz", "--program", program.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not hexadecimal"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = lab(&["verify-program", "--config", config.to_str().unwrap(), "--seed", seed, "--offset", "1000", "--program", program.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "the program is shorter than the offset");
    assert!(String::from_utf8_lossy(&out.stdout).contains("offset 1000 is beyond the file's 36 bytes"), "{}", String::from_utf8_lossy(&out.stdout));
}

/// Issue 51: `egm-lab outcomes` collects the outcomes as the games draw
/// them — every scaled draw of the production round, in order — and
/// judges them: French roulette draws one pocket a round from 37, every
/// value seen; a shoe of cards draws without replacement (52, 51, 50…);
/// the manifest's digest is the dump's; the verdicts pass and both
/// negative controls (a modulo-biased source, a naive shuffle) fail, or
/// the command says the test is broken.
#[cfg(feature = "lab")]
#[test]
fn outcomes_are_collected_through_the_production_draw_and_judged() {
    use sha2::Digest;
    let dir = tempfile::tempdir().unwrap();
    let config = test_config::config(dir.path(), "");
    let outcomes = |game: &str, rounds: &str, out: &std::path::Path| {
        lab(&["outcomes", "--config", config.to_str().unwrap(), "--game", game, "--rounds", rounds, "--seed", "11", "--out", out.to_str().unwrap()])
    };
    let out = dir.path().join("roleta");
    let run = outcomes("roleta-francesa", "2000", &out);
    assert!(run.status.success(), "{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(out.join("outcomes.txt")).unwrap();
    let pockets: Vec<u64> = text
        .lines()
        .map(|l| {
            let (range, value) = l.split_once(':').unwrap();
            assert_eq!(range, "37", "{l}");
            value.parse().unwrap()
        })
        .collect();
    assert_eq!(pockets.len(), 2000);
    assert!((0..37).all(|p| pockets.contains(&p)), "every pocket in 2,000 spins");
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["outcomes_sha256"].as_str().unwrap(), hex::encode(sha2::Sha256::digest(text.as_bytes())));
    assert_eq!(m["without_replacement"], false);
    assert_eq!(m["assessment"]["pass"], true);
    let controls = m["negative_controls"].as_array().unwrap();
    assert_eq!(controls.len(), 2);
    assert!(controls.iter().all(|c| c["pass"] == false && c["p_value"].as_f64().unwrap() < 1e-6), "{controls:?}");
    // Same seed, same outcomes: reproducible.
    let again = dir.path().join("again");
    outcomes("roleta-francesa", "2000", &again);
    assert_eq!(std::fs::read_to_string(again.join("outcomes.txt")).unwrap(), text);

    // Issue 77, defect 4: one seed, two games, two streams — the American
    // wheel's pockets are not the French wheel's shifted by the odd one.
    let american = dir.path().join("americana");
    assert!(outcomes("roleta-americana", "2000", &american).status.success());
    let other: Vec<u64> =
        std::fs::read_to_string(american.join("outcomes.txt")).unwrap().lines().map(|l| l.split_once(':').unwrap().1.parse().unwrap()).collect();
    let close = pockets.iter().zip(&other).filter(|(a, b)| a.abs_diff(**b) <= 1).count();
    assert!(close < 300, "{close} of 2,000 spins within one pocket of the other wheel's: one stream");
    let m2: serde_json::Value = serde_json::from_slice(&std::fs::read(american.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m2["seed"], 11);
    assert_ne!(m2["stream_seed"], m["stream_seed"]);
    // A deck dealt from a shuffle: without replacement.
    let cards = dir.path().join("jacks");
    let run = outcomes("jacks-or-better-9-6", "300", &cards);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stdout));
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(cards.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["without_replacement"], true);
    let first = std::fs::read_to_string(cards.join("outcomes.txt")).unwrap().lines().next().unwrap().to_owned();
    assert!(first.starts_with("52:") && first.contains(" 51:") && first.contains(" 50:"), "{first}");
    // A game the cabinet does not have is named.
    let run = outcomes("no-such-game", "10", &cards);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("game no-such-game"), "{}", String::from_utf8_lossy(&run.stderr));
}

/// Issue 51: the battery with verdicts. At a small size (the tests'
/// budget; the quick and full levels' figures are in docs/rng.md): NIST
/// SP 800-22 on the production generator's raw words, sub-test by
/// sub-test; every outcome test on a reel game (stops and symbols against
/// the strip), a draw poker game (the poker test on the dealt cards) and a
/// roulette (pockets), each through the game's own draw; the
/// bet-conditioned test of A-10 where the panel offers a second bet; and
/// the negative controls, which must fail.
#[test]
fn the_battery_judges_the_generator_and_every_game_and_its_controls_fail() {
    let dir = tempfile::tempdir().unwrap();
    let config = test_config::config(dir.path(), "");
    let out = dir.path().join("battery");
    let mut args = vec!["battery", "--quick", "--config", config.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend(["--sequences", "12", "--bits", "400000", "--rounds", "4000", "--seed", "3", "--no-external"]);
    args.extend(["--game", "classic-sevens", "--game", "jacks-or-better-9-6", "--game", "roleta-francesa"]);
    let run = lab(&args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    // Issue 77, defect 3: the external batteries left out, nothing failed:
    // INCOMPLETE, exit 4 — never a pass.
    assert_eq!(run.status.code(), Some(4), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("battery.json")).unwrap()).unwrap();
    assert_eq!(std::fs::read_to_string(out.join("battery.txt")).unwrap(), stdout);
    assert_eq!((&r["verdict"], &r["pass"]), (&serde_json::json!("Incomplete"), &serde_json::json!(false)));

    // NIST SP 800-22: the fifteen tests, their sub-tests judged over the
    // twelve sequences.
    let subs = r["words"]["sub_tests"].as_array().unwrap();
    let names: std::collections::BTreeSet<&str> = subs.iter().map(|s| s["test"].as_str().unwrap().split(" #").next().unwrap()).collect();
    for test in [
        "frequency",
        "block_frequency",
        "runs",
        "longest_run",
        "matrix_rank",
        "spectral",
        "non_overlapping_template",
        "overlapping_template",
        "universal",
        "linear_complexity",
        "serial_delta1",
        "approximate_entropy",
        "cumulative_sums_forward",
        "random_excursions",
        "random_excursions_variant",
    ] {
        assert!(names.contains(test), "{test} in {names:?}");
    }
    assert_eq!(subs.iter().filter(|s| s["test"].as_str().unwrap().starts_with("non_overlapping_template")).count(), 148);
    assert!(subs.iter().all(|s| s["pass"] == true), "{subs:?}");
    assert!(subs.iter().filter(|s| !s["test"].as_str().unwrap().starts_with("random_excursions")).all(|s| s["sequences"] == 12));
    assert_eq!(r["words"]["pass"], true);

    // Each game's tests, by family.
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    let families = |g: &serde_json::Value| -> Vec<String> {
        g["attempts"][0]["verdicts"].as_array().unwrap().iter().map(|v| v["test"].as_str().unwrap().to_owned()).collect()
    };
    let reels = families(&games[0]);
    for family in ["uniform(", "runs uniform(", "serial pairs", "lag 1 ", "lag 10 ", "gap uniform(", "position 1 ", "bet-conditioned"] {
        assert!(reels.iter().any(|t| t.contains(family)), "{family} in {reels:?}");
    }
    // Issue 77, defect 1: what the player saw, read from each round's
    // journaled deal: every reel's stop and its first row's symbol, each card
    // at its place, the pocket.
    for shown in ["shown: reel 1 stop,", "shown: reel 3 stop,", "shown: reel 2 row 1 symbol,", "shown: reel 3 row 1 symbol,"] {
        assert!(reels.iter().any(|t| t.starts_with(shown)), "{shown} in {reels:?}");
    }
    let poker = families(&games[1]);
    for place in 1..=10 {
        assert!(poker.iter().any(|t| *t == format!("shown: card {place}, 52 cells")), "card {place} in {poker:?}");
    }
    assert!(poker.iter().any(|t| t.starts_with("poker test, 4000 five-card hands")), "{poker:?}");
    // Each datum is tested once (issue 77's rule takes a set's tests as
    // apart): the first card dealt is the first card shown, so its
    // position is judged by the shown test alone; and a roulette's pocket
    // is its one draw, judged as shown, not again as its range.
    assert!(poker.iter().all(|t| t != "position 1 uniform(52) values"), "{poker:?}");
    let roulette = families(&games[2]);
    assert!(roulette.iter().any(|t| t == "shown: pocket, 37 cells"), "{roulette:?}");
    assert!(roulette.iter().all(|t| t != "uniform(37) values" && !t.starts_with("position 1 ")), "{roulette:?}");
    for g in games {
        assert_eq!(g["pass"], true, "{g}");
        assert_eq!(g["rounds"], 4000);
        // Issue 77, defect 2: judged once, never re-run.
        assert_eq!(g["attempts"].as_array().unwrap().len(), 1, "{g}");
    }
    // The rule of the run: its sets are the NIST sub-tests and the games,
    // the battery's 1 % shared evenly over them and three criteria each;
    // every set's thresholds are that rule's.
    let sets = subs.len() + games.len();
    assert_eq!(r["rule"]["sets"], sets);
    let alpha = r["rule"]["alpha"].as_f64().unwrap();
    assert!((alpha - 0.01 / (3.0 * sets as f64)).abs() < 1e-15, "{alpha}");
    for s in subs {
        let m = s["sequences"].as_u64().unwrap() as f64;
        let floor = s["smallest_p_floor"].as_f64().unwrap();
        assert!(((1.0 - floor).powf(m) - (1.0 - alpha)).abs() < 1e-12, "{s}");
        assert!(s.get("runs").is_none(), "no sub-test is re-run: {s}");
    }
    // The reel game's second bet is another bet, and the outcomes are the same law.
    assert_ne!(games[0]["bet"], games[0]["other_bet"]);
    // Issue 77, defect 4: a cloth opens empty, so the roulette is drawn at
    // one single bet and tested against another.
    assert_ne!(games[2]["bet"], games[2]["other_bet"]);
    assert!(!games[2]["other_bet"].as_str().unwrap().starts_with("none:"), "{}", games[2]);
    assert!(roulette.iter().any(|t| t.starts_with("bet-conditioned")), "{roulette:?}");

    // The controls failed, as they must; the external batteries were left
    // out and the report says so.
    let controls = r["controls"].as_array().unwrap();
    assert_eq!(controls.len(), 6);
    assert!(controls.iter().all(|c| c["failed_as_it_must"] == true), "{controls:?}");
    for fault in ["a biased deal", "a naive shuffle", "a modulo map"] {
        assert!(controls.iter().any(|c| c["control"].as_str().unwrap().starts_with(&format!("what a player is shown, {fault}"))), "{fault} in {controls:?}");
    }
    assert!(stdout.contains("dieharder, PractRand: SKIPPED (--no-external)"), "{stdout}");
    assert!(stdout.contains("rule: each test passes at 99%"), "{stdout}");
    assert!(stdout.trim_end().ends_with("BATTERY: INCOMPLETE — nothing failed, but not run: dieharder, PractRand: left out (--no-external)"), "{stdout}");

    // Neither --quick nor --full: refused, the cause named.
    let run = lab(&["battery", "--config", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--quick"), "{}", String::from_utf8_lossy(&run.stderr));
}

/// Issue 74: on the shipped configuration (its standalone progressives),
/// after a round and a RAM clear made as the audit menu makes it, `egm-lab
/// verify` reads the new epoch OK and the machine boots again from its files
/// (the carried pools' meter once made record 2 undecodable).
#[test]
fn verify_reads_a_ram_clear_on_the_shipped_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egm.sqlite");
    let cfg = test_config::write(dir.path(), &test_config::text(dir.path()));
    let options = game_host::boot::BootOptions { config: cfg.clone(), db: db.clone(), lab_seed: Some(74), demo: false };
    let mut s = game_host::boot::boot(&options).unwrap();
    s.insert_note(2_000);
    assert!(s.play());
    s.revealed();
    s.collect();
    let pools = s.machine().state().pools.clone();
    assert!(!pools.is_empty() && pools.values().any(|p| p.levels.iter().any(|l| l.contributed_micro > 0)), "the shipped pools took the wager");
    s.toggle_door(meters::Door::Logic);
    assert_eq!(s.ram_clear("0000", "lab reset").unwrap(), 1);
    drop(s);
    let (db_s, cfg_s) = (db.to_str().unwrap(), cfg.to_str().unwrap());
    let out = lab(&["verify", db_s, "--config", cfg_s]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.starts_with("OK") && said.contains("1 RAM clears"), "{said}");
    // And the cabinet's own boot, twice (the second reads record 2 back).
    for _ in 0..2 {
        let s = game_host::boot::boot(&options).unwrap();
        assert_eq!(s.machine().state().pools, pools, "the pools carried whole (M-20)");
        assert!(s.machine().state().doors_open.contains(&meters::Door::Logic), "the logic door still open");
    }
}

/// Issue 68, attack 2: the launcher stays in charge, on a software TPM
/// provisioned through it as `tools/run-cabinet.sh` provisions one.
/// * A program that ends before it takes the key (`--version`, a bad
///   configuration) once left PCR 15 at the release's measurement: any
///   program in the same boot derived the journal key. The launcher caps it
///   when its program ends.
/// * PROGRAM without a slash: the launcher hashed `./egm-lab` and `exec`
///   ran the first `egm-lab` on `$PATH`. It runs the file it hashed.
/// * `LD_PRELOAD` passed through to the program. Its environment is clean.
#[test]
fn the_launcher_runs_the_file_it_hashed_cleanly_and_caps_the_boot_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let mut tpm = swtpm::SoftwareTpm::start(dir.path());
    let db = dir.path().join("egm.sqlite");
    let (config, cfg, manifest) = production_cabinet(dir.path(), &tpm);
    let (db_s, cfg_s, manifest_s) = (db.to_str().unwrap(), cfg.to_str().unwrap(), manifest.to_str().unwrap());
    let egm_lab = env!("CARGO_BIN_EXE_egm-lab");
    let launcher = |program: &str| {
        let mut c = Command::new(egm_lab);
        c.args(["launch", "--config", cfg_s, "--manifest", manifest_s, "--", program]);
        c
    };
    let out = lab_with("7391046285\n", &["launch", "--config", cfg_s, "--manifest", manifest_s, "--", egm_lab, "provision", db_s, "--config", cfg_s]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let new_boot = |tpm: &mut swtpm::SoftwareTpm| {
        tpm.power_cut();
        tpm.power_on();
    };
    // Whether a program of its own (standing for the attacker's
    // `tpm2_hmac`: any process in this boot) gets the journal key: `egm-lab
    // verify`, run outside the launcher. (Not this test's process: a
    // process keeps what it derived, and the capped PCR reads the same in
    // every boot.)
    let key_open = || lab(&["verify", db_s, "--config", cfg_s]).status.code() == Some(0);
    // The control: the launcher's measurement alone leaves the key to the
    // first program that asks (without it the refusals below prove nothing).
    new_boot(&mut tpm);
    let release = paytables::artifact::read_manifest(&manifest).unwrap().release_digest();
    assert!(meters::keystore::measure_release(&config.key_store, &release).unwrap());
    assert!(key_open(), "the measured boot does not open critical memory");

    // An approved program that ends at once: the boot is capped.
    for early in [vec!["--version"], vec!["verify", db_s, "--config", "/nonexistent.ron"]] {
        new_boot(&mut tpm);
        let out = launcher(egm_lab).args(&early).output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("measured into PCR 15"), "{said}");
        assert!(!key_open(), "the key was open after `egm-lab {}` ended", early.join(" "));
    }

    // PROGRAM by name: the approved copy in the working folder is hashed,
    // an attacker's `egm-lab` is first on the PATH.
    let work = dir.path().join("work");
    let bin = dir.path().join("attacker");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(egm_lab, work.join("egm-lab")).unwrap();
    let marker = dir.path().join("the attacker ran");
    let script = format!("#!/bin/sh\ntouch '{}'\necho attacker\n", marker.display());
    std::fs::write(bin.join("egm-lab"), script).unwrap();
    std::fs::set_permissions(bin.join("egm-lab"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    new_boot(&mut tpm);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = launcher("egm-lab").arg("--version").current_dir(&work).env("PATH", path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!marker.exists(), "the launcher hashed ./egm-lab and ran the PATH's");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("egm-lab "), "{}", String::from_utf8_lossy(&out.stdout));

    // LD_PRELOAD: the dynamic loader names a preload it cannot open in each
    // process it starts: the launcher's own, never the program's.
    new_boot(&mut tpm);
    let out = launcher(egm_lab).arg("--version").env("LD_PRELOAD", "/nonexistent/preload.so").output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert_eq!(said.matches("/nonexistent/preload.so").count(), 1, "LD_PRELOAD reached the launched program:\n{said}");
}
