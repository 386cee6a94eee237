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
