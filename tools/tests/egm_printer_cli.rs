//! `egm-printer` as a lab runs it (issue 70): the emulated TCL printer on a
//! pty behind the link it makes, driven by the commands it reads on its
//! standard input and its control socket, spoken to by the cabinet's own
//! TCL driver over that link. A ticket given is printed and recorded once;
//! a bad command is named and changes nothing; the cover opened through
//! the socket is the driver's fault.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use peripherals::printer::TicketPrinter;
use peripherals::serial::SerialLine;
use peripherals::tcl::{Event, Printer, PrinterFault, Ticket, port};

#[test]
fn a_ticket_given_by_the_driver_is_printed_and_recorded_once() {
    let dir = tempfile::tempdir().unwrap();
    let (link, record, socket) = (dir.path().join("printer"), dir.path().join("printer.log"), dir.path().join("printer.sock"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_egm-printer"))
        .args(["--link", link.to_str().unwrap(), "--record", record.to_str().unwrap(), "--control", socket.to_str().unwrap()])
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
    assert!(first.starts_with(&format!("printer (TCL) on {}", link.display())), "{first}");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "jam-at 4\nbogus 1").unwrap();

    let mut line = SerialLine::open_9600_8n1(&link).unwrap();
    let mut driver = Printer::new();
    let ticket = Ticket {
        validation: "001234567890123456".into(),
        amount: "20.00 EUR".into(),
        amount_in_words: "vinte euros".into(),
        machine: "EGM-0001".into(),
        date: "2026-11-29".into(),
        time: "18:30:00".into(),
        expiry: "VALIDO ATE 2026-12-29".into(),
    };
    let mut given = false;
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !seen.contains(&Event::Fault(PrinterFault::Open)) {
        assert!(Instant::now() < deadline, "{seen:?}");
        let events = port::poll(&mut driver, &mut line).unwrap();
        if driver.ready() && !given {
            driver.print(ticket.clone()).unwrap();
            given = true;
        }
        if let Some(Event::Printed(v)) = events.iter().find(|e| matches!(e, Event::Printed(_))) {
            driver.journaled(v);
            // The cover opened by the lab, through the control socket.
            let sent = Command::new(env!("CARGO_BIN_EXE_egm-printer")).args(["send", socket.to_str().unwrap(), "open"]).status().unwrap();
            assert!(sent.success());
        }
        seen.extend(events);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(seen.iter().filter(|e| **e == Event::Printed(ticket.validation.clone())).count(), 1, "{seen:?}");
    let said: Vec<String> = std::iter::from_fn(|| lines.recv_timeout(Duration::from_secs(2)).ok()).take(3).collect();
    assert!(said.iter().any(|l| l == "\"jam-at 4\": step 4: a ticket is printed in steps 1 to 3"), "{said:?}");
    assert!(said.iter().any(|l| l.starts_with("\"bogus 1\": unknown command \"bogus\"")), "{said:?}");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "ticket 00-1234-5678-9012-3456 20.00 EUR 18:30:00: whole\n");
}
