//! `egm-sas-host` as a lab runs it (issue 48): it creates a pty, the real
//! game host boots with that pty as its SAS port, and the reference host
//! prints the cabinet's meters, events and identity as the floor reads
//! them: equal to the core's own.
#![allow(clippy::unwrap_used)]

#[path = "../../tests/support/test_config.rs"]
mod test_config;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use game_host::boot::{BootOptions, boot};
use game_host::session::Session;

fn boot_at(dir: &Path, sas: Option<&str>) -> Session {
    boot_validating(dir, sas, "Cabinet")
}

fn boot_validating(dir: &Path, sas: Option<&str>, validation: &str) -> Session {
    let mut text = test_config::text(dir);
    if let Some(port) = sas {
        let line = format!("    sas: Some((port: {port:?}, address: 3, line: Pty, validation: {validation}, asset_number: 77)),\n    autoplay_max:");
        text = text.replacen("    autoplay_max:", &line, 1);
    }
    let config = test_config::write(dir, &text);
    boot(&BootOptions { config, db: dir.join("egm.sqlite"), lab_seed: None, demo: false }).unwrap()
}

/// The tool with `args`, its pty's path, once it has printed it (the
/// child is waited on in `run`).
#[allow(clippy::zombie_processes)]
fn start_host(dir: &Path, args: &[&str]) -> (Child, String) {
    let file = dir.join(format!("pty-{}", args.join("-")));
    let child = Command::new(env!("CARGO_BIN_EXE_egm-sas-host"))
        .args(["--pty", "--address", "3", "--wait", "30", "--path-file"])
        .arg(&file)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Ok(p) = std::fs::read_to_string(&file)
            && !p.is_empty()
        {
            return (child, p);
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the tool printed no pty");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One cabinet and one reference host at a time: each test is a floor
/// and its cabinet polled in real time, and three at once on a two-core
/// machine beside the rest of a test run miss SAS's timing (a reply later
/// than the host waits for), which is the line's load, not the cabinet's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Tends the cabinet's link until the tool is done; its output.
fn run(s: &mut Session, child: Child) -> String {
    let (ok, text) = finish(s, child);
    assert!(ok, "{text}");
    text
}

/// [`run`] for a command that must fail (exit status not 0).
fn run_failing(s: &mut Session, child: Child) -> String {
    let (ok, text) = finish(s, child);
    assert!(!ok, "the command succeeded: {text}");
    text
}

/// The tool run to its end beside the cabinet: whether it succeeded, and
/// what it printed (stdout, then stderr).
fn finish(s: &mut Session, mut child: Child) -> (bool, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        s.tend_floor();
        assert!(start.elapsed() < Duration::from_secs(60), "the tool did not finish");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.success(), format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The credit on the cabinet's meter now.
fn s_credit(dir: &Path) -> u64 {
    boot_at(dir, None).machine().credit()
}

#[test]
fn a_lab_reads_the_cabinet_through_the_reference_host() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    // Play first, on the cabinet without its SAS line: €20 in, two rounds.
    {
        let mut s = boot_at(dir.path(), None);
        s.insert_note(2_000);
        for _ in 0..2 {
            assert!(s.play());
            for _ in 0..20 {
                if !s.in_round() {
                    break;
                }
                s.revealed();
                s.collect();
            }
        }
        assert!(!s.in_round());
    }
    let (child, pty) = start_host(dir.path(), &["meters"]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    let t = s.machine().state().totals.clone();
    assert!(out.contains(&format!("coin in: {}\n", t.games.creditos_jogados)), "{out}");
    assert!(out.contains("drop: 2000\n"), "{out}");
    assert!(out.contains("games played: 2\n"), "{out}");
    assert!(out.contains(&format!("current credits: {}\n", s.machine().credit())), "{out}");
    assert!(out.contains("game   1: coin in"), "{out}");
    drop(s);

    let (child, pty) = start_host(dir.path(), &["identity"]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    assert!(out.contains(&format!("SAS version 602, serial {}", s.machine().state().machine_id)), "{out}");
    assert!(out.contains("game ID CS"), "classic-sevens, the first game: {out}");
    drop(s);

    // An AFT transfer of 12.50 to the cabinet, committed once by the core.
    let before = s_credit(dir.path());
    let (child, pty) = start_host(dir.path(), &["aft-in", "1250", "--id", "LAB-AFT-1"]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    assert!(out.contains("AFT LAB-AFT-1: status 00 (full transfer successful), 1250 cents"), "{out}");
    assert_eq!(s.machine().credit(), before + 1_250);
    drop(s);

    // Issue 71: the floor registers the cabinet (LP 73) under the asset
    // number it reports, then transfers with its key; another key is
    // refused (89) and nothing moves.
    let key = "00112233445566778899aabbccddeeff01234567";
    let (child, pty) = start_host(dir.path(), &["register", "--key", key, "--pos", "12"]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    assert!(out.contains("AFT registration of asset 77: status 01 (registered)"), "{out}");
    assert_eq!(s.machine().aft_registration().pos_id, 12);
    drop(s);
    let (child, pty) = start_host(dir.path(), &["aft-in", "500", "--id", "LAB-AFT-2", "--key", key]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    assert!(out.contains("AFT LAB-AFT-2: status 00 (full transfer successful), 500 cents"), "{out}");
    assert_eq!(s.machine().credit(), before + 1_750);
    drop(s);
    let (child, pty) = start_host(dir.path(), &["aft-in", "500", "--id", "LAB-AFT-3", "--key", &key.replace('0', "f")]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run_failing(&mut s, child);
    assert!(out.contains("AFT LAB-AFT-3: status 89 (not made), 0 cents"), "{out}");
    assert_eq!(s.machine().credit(), before + 1_750);
    drop(s);

    let (child, pty) = start_host(dir.path(), &["disable"]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    assert!(out.contains("play disabled (LP 01): acknowledged"), "{out}");
    std::thread::sleep(Duration::from_millis(20));
    s.tend_floor();
    assert!(!s.play(), "play is disabled");
    assert!(s.block_text().unwrap().contains("SAS"));
}

/// Tends the cabinet until `done` holds (the tool acting as the floor).
fn tend_until(s: &mut Session, what: &str, done: impl Fn(&Session) -> bool) {
    let start = Instant::now();
    while !done(s) {
        s.tend_floor();
        assert!(start.elapsed() < Duration::from_secs(30), "{what}: {:?}", s.message_text());
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_reference_host_numbers_and_redeems_tickets_as_a_floors_system() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let (mut child, pty) = start_host(dir.path(), &["watch", "--system-id", "42"]);
    let mut s = boot_validating(dir.path(), Some(&pty), "System");
    tend_until(&mut s, "the link comes up", |s| s.floor().unwrap().link_up());
    s.insert_note(2_000);
    // The cash-out: the tool numbers it (57, LP 57/58); the cabinet prints
    // the ticket under the floor's number, which the tool records (3D, 4D).
    s.cash_out();
    tend_until(&mut s, "the ticket is printed", |s| s.machine().credit() == 0);
    assert_eq!(s.last_ticket(), Some("420000000000000001"));
    let ticket = s.last_ticket().unwrap().to_owned();
    // Back in the reader: the tool redeems it once, then refuses it.
    std::thread::sleep(Duration::from_millis(300));
    s.tend_floor();
    s.insert_ticket(&ticket);
    tend_until(&mut s, "redeemed", |s| s.machine().credit() == 2_000);
    tend_until(&mut s, "the floor free", |s| !s.message_text().is_some_and(|m| m.contains("VALIDAÇÃO")));
    s.insert_ticket(&ticket);
    tend_until(&mut s, "refused", |s| s.message_text().is_some_and(|m| m.contains("recusado")));
    assert_eq!(s.machine().credit(), 2_000, "paid once");
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("numbered the cash-out of 2000 cents 420000000000000001 (LP 58 status Some(00))"), "{text}");
    assert!(text.contains("ticket printed: 420000000000000001, 2000 cents"), "{text}");
    assert!(text.contains("ticket 420000000000000001: redeem 2000 cents"), "{text}");
    assert!(text.contains("ticket 420000000000000001: unknown or paid: refused"), "{text}");
}

/// Issue 48, secure-enhanced validation: the tool gives the cabinet that
/// cannot number a ticket (3F) its validation ID (LP 4C), checks the
/// number of the ticket then printed against its own computation from the
/// ID and the sequence it reads back, and redeems it once.
#[test]
fn the_reference_host_sets_the_validation_id_and_checks_each_number() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let (mut child, pty) = start_host(dir.path(), &["watch", "--validation-id", "1193046"]);
    let mut s = boot_validating(dir.path(), Some(&pty), "SecureEnhanced");
    tend_until(&mut s, "the link comes up", |s| s.floor().unwrap().link_up());
    s.insert_note(2_000);
    s.cash_out();
    assert_eq!(s.machine().credit(), 2_000, "no ID yet: nothing moves");
    tend_until(&mut s, "the ID is set", |s| s.machine().state().secure_validation.is_some());
    s.cash_out();
    assert_eq!(s.last_ticket(), Some("007648465487018968"), "ID 123456, sequence 1");
    // The floor takes the ticket's 3D before the ticket comes back (a
    // ticket in, 67, would be told first: it is the higher priority).
    let told = s.machine().journal_head();
    tend_until(&mut s, "the floor took the ticket printed", |s| s.machine().floor_reported().is_some_and(|c| c.up_to >= told));
    s.insert_ticket("007648465487018968");
    tend_until(&mut s, "redeemed", |s| s.machine().credit() == 2_000);
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("set the secure-enhanced validation ID 123456, sequence 0"), "{text}");
    assert!(text.contains("ticket printed: 007648465487018968, 2000 cents"), "{text}");
    assert!(text.contains("secure-enhanced ID 123456 sequence 1: the number checks"), "{text}");
    assert!(text.contains("ticket 007648465487018968: redeem 2000 cents"), "{text}");
}
