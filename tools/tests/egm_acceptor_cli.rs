//! `egm-acceptor` as a lab runs it (issue 70): the emulated acceptor on a
//! pty behind the link it makes, driven by the commands it reads, spoken to
//! by the cabinet's own ID-003 driver over that link. A note fed is
//! escrowed, stacked at the driver's word and recorded; a bad command is
//! named and changes nothing; a power cut at vend valid powers up with the
//! note in the stacker's path.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[path = "../../tests/support/test_config.rs"]
mod test_config;

use peripherals::acceptor::NoteAcceptor;
use peripherals::id003::{Acceptor, Denomination, Event, NoteAt, port};
use peripherals::serial::SerialLine;

#[test]
fn a_note_fed_on_its_stdin_goes_the_drivers_whole_path() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("acceptor");
    let record = dir.path().join("acceptor.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_egm-acceptor"))
        .args(["--link", link.to_str().unwrap(), "--record", record.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines_out, lines) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = lines_out.send(l);
        }
    });
    let first = lines.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(first.starts_with(&format!("acceptor (ID-003) on {}", link.display())), "{first}");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "note 0x63\nnote\nbogus 1").unwrap();

    let mut line = SerialLine::open_9600_8e1(&link).unwrap();
    let mut driver = Acceptor::new();
    driver.enable(true);
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut cut = false;
    while !seen.contains(&Event::PoweredUp(NoteAt::Stacker)) {
        assert!(Instant::now() < deadline, "{seen:?}");
        for e in port::poll(&mut driver, &mut line).unwrap() {
            match &e {
                // Nothing journaled: the power-up settled at once.
                Event::PoweredUp(_) => driver.power_up_settled(),
                Event::Escrowed(_) => driver.stack(),
                // The emulator loses power at vend valid, before the ACK.
                Event::VendValid(_) if !cut => {
                    writeln!(stdin, "power-cut").unwrap();
                    cut = true;
                }
                _ => {}
            }
            seen.push(e);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(seen.contains(&Event::Escrowed(Denomination::Note(0x63))), "{seen:?}");
    let said: Vec<String> = std::iter::from_fn(|| lines.recv_timeout(Duration::from_secs(2)).ok()).take(3).collect();
    assert!(said.iter().any(|l| l == "\"note\": the escrow code is missing"), "{said:?}");
    assert!(said.iter().any(|l| l.starts_with("\"bogus 1\": unknown command \"bogus\"")), "{said:?}");
    assert!(said.iter().any(|l| l == "stacked Note(99)"), "{said:?}");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "stacked Note(99)\n");
}

/// Starts `egm-acceptor` on `link`, keeping its note in `state`: its
/// standard input, once the link is made.
fn start_keeping(link: &std::path::Path, state: &std::path::Path) -> (std::process::Child, std::process::ChildStdin) {
    start_with(&["--link", link.to_str().unwrap(), "--state", state.to_str().unwrap()])
}

/// Starts `egm-acceptor` with `args`: its standard input, once it says
/// its link is made.
fn start_with(args: &[&str]) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_egm-acceptor")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("acceptor (ID-003) on"), "{first}");
    // The rest of what it says is read and dropped: its standard output
    // stays open for as long as it runs.
    std::thread::spawn(move || out.lines().map_while(Result::ok).for_each(drop));
    let stdin = child.stdin.take().unwrap();
    (child, stdin)
}

/// Issue 70: the emulator killed (kill -9) with a note in its path keeps
/// it, as a real acceptor keeps one through a power cut: started again on
/// the same state file, it powers up saying where the note is — in its
/// own path (given back) when it was in escrow, in the stacker's when it
/// was past the point of return — and the cabinet's driver reads that.
#[test]
fn a_note_in_the_path_survives_the_emulators_kill_9() {
    for past_return in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (link, state) = (dir.path().join("acceptor"), dir.path().join("acceptor.state"));
        let (mut child, mut stdin) = start_keeping(&link, &state);
        writeln!(stdin, "note 0x63").unwrap();
        let mut line = SerialLine::open_9600_8e1(&link).unwrap();
        let mut driver = Acceptor::new();
        driver.enable(true);
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut there = false;
        while !there {
            assert!(Instant::now() < deadline, "the note never got there");
            for e in port::poll(&mut driver, &mut line).unwrap() {
                match e {
                    Event::PoweredUp(_) => driver.power_up_settled(),
                    Event::Escrowed(_) if past_return => driver.stack(),
                    Event::Escrowed(_) => there = true,
                    // Past the point of return, its ACK never sent.
                    Event::VendValid(_) => there = true,
                    _ => {}
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Written within 20 ms of the change.
        std::thread::sleep(Duration::from_millis(200));
        child.kill().unwrap();
        child.wait().unwrap();
        let kept = std::fs::read_to_string(&state).unwrap();
        assert_eq!(kept, if past_return { "note 0x63 stacking\n" } else { "note 0x63 escrow\n" });

        let (mut child, _stdin) = start_keeping(&link, &state);
        let mut line = SerialLine::open_9600_8e1(&link).unwrap();
        let mut driver = Acceptor::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        let at = loop {
            assert!(Instant::now() < deadline, "no power-up status");
            if let Some(at) = port::poll(&mut driver, &mut line).unwrap().into_iter().find_map(|e| match e {
                Event::PoweredUp(at) => Some(at),
                _ => None,
            }) {
                break at;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(at, if past_return { NoteAt::Stacker } else { NoteAt::Acceptor });
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

/// A state file that does not read is named, and nothing starts.
#[test]
fn a_state_file_that_does_not_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("acceptor.state");
    std::fs::write(&state, "note 0x63 somewhere\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_egm-acceptor"))
        .args(["--link", dir.path().join("acceptor").to_str().unwrap(), "--state", state.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("acceptor.state") && err.contains("is not a note in the path"), "{err}");
}

/// Issue 70: on a cabinet whose acceptor is `egm-acceptor`, the operator
/// panel's notes and tickets (and the lab build's keys) are fed to the
/// emulator through its control socket and go the whole driver path:
/// credited once at the acceptor's vend valid, stacked, recorded.
#[test]
fn the_operator_panels_note_goes_through_the_emulated_acceptor() {
    let dir = tempfile::tempdir().unwrap();
    let (link, socket, record) = (dir.path().join("acceptor"), dir.path().join("acceptor.sock"), dir.path().join("acceptor.log"));
    let (mut child, _stdin) = start_with(&["--link", link.to_str().unwrap(), "--control", socket.to_str().unwrap(), "--record", record.to_str().unwrap()]);
    let text = test_config::text(dir.path());
    let at = text.rfind(')').unwrap();
    let acceptor = format!(
        "    acceptor: Some((port: {:?}, notes: [(code: 0x63, cents: 1000)], poll_ms: 20, emulator: Some({:?}))),\n",
        link.display().to_string(),
        socket.display().to_string()
    );
    let config = test_config::write(dir.path(), &format!("{}{acceptor}{}", &text[..at], &text[at..]));
    let options = game_host::boot::BootOptions { config, db: dir.path().join("egm.sqlite"), lab_seed: Some(70), demo: false };
    let mut s = game_host::boot::boot(&options).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    s.insert_note(1_000);
    assert_eq!(s.machine().credit(), 0, "nothing credited before the acceptor's vend valid");
    while s.machine().credit() < 1_000 || s.machine().note_stacking().is_some() {
        assert!(Instant::now() < deadline, "the note never came through: {:?}", s.message_text());
        s.tend_acceptor();
        std::thread::sleep(Duration::from_millis(5));
    }
    // A value the acceptor has no escrow code for is named.
    s.insert_note(5_000);
    assert!(s.message_text().unwrap_or_default().contains("no escrow code is configured for 5000 cents"), "{:?}", s.message_text());
    let deadline = Instant::now() + Duration::from_secs(5);
    while std::fs::read_to_string(&record).unwrap_or_default().is_empty() {
        assert!(Instant::now() < deadline, "the emulator never recorded the stacking");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "stacked Note(99)\n");
    assert_eq!(s.machine().credit(), 1_000);
    child.kill().unwrap();
    child.wait().unwrap();
}
