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
    let mut text = test_config::text(dir);
    if let Some(port) = sas {
        text = text.replacen("    autoplay_max:", &format!("    sas: Some((port: {port:?}, address: 3, line: Pty)),\n    autoplay_max:"), 1);
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

/// Tends the cabinet's link until the tool is done; its output.
fn run(s: &mut Session, mut child: Child) -> String {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        s.tend_floor();
        assert!(start.elapsed() < Duration::from_secs(60), "the tool did not finish");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    text
}

/// The credit on the cabinet's meter now.
fn s_credit(dir: &Path) -> u64 {
    boot_at(dir, None).machine().credit()
}

#[test]
fn a_lab_reads_the_cabinet_through_the_reference_host() {
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

    let (child, pty) = start_host(dir.path(), &["disable"]);
    let mut s = boot_at(dir.path(), Some(&pty));
    let out = run(&mut s, child);
    assert!(out.contains("play disabled (LP 01): acknowledged"), "{out}");
    std::thread::sleep(Duration::from_millis(20));
    s.tend_floor();
    assert!(!s.play(), "play is disabled");
    assert!(s.block_text().unwrap().contains("SAS"));
}
