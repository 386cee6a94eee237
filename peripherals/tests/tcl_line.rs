//! The TCL driver over a real serial line (issue 70): a pty carrying what
//! the UART carries, the cabinet's end opened as the printer's port is
//! (9,600 baud, 8N1, raw), the emulated printer serving the far end
//! (`tcl::emulator::serve`) — with garbage before one answer and the
//! printer silent for a while. Every ticket printed once, nothing done on
//! what did not read, the silence told as the line lost and then cleared.
#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use peripherals::printer::TicketPrinter;
use peripherals::serial::SerialLine;
use peripherals::tcl::{Emulator, Event, PrinterFault, Ticket, emulator, port};

fn ticket(n: u64) -> Ticket {
    Ticket {
        validation: format!("{:018}", 7_000_000 + n),
        amount: format!("EUR {n},00"),
        amount_in_words: format!("{n} euros"),
        machine: "EGM-0001".into(),
        date: "2026-11-29".into(),
        time: "18:10:00".into(),
        expiry: "30 dias".into(),
    }
}

#[test]
fn a_session_over_a_serial_line_prints_each_ticket_once() {
    let pty = peripherals::serial::Pty::open().unwrap();
    let printer = Arc::new(Mutex::new(Emulator::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let end = {
        let (master, printer, stop) = (pty.master.try_clone().unwrap(), printer.clone(), stop.clone());
        std::thread::spawn(move || emulator::serve(master, &printer, &stop))
    };
    let mut line = SerialLine::open_9600_8n1(&pty.path).unwrap();
    let mut driver = peripherals::tcl::Printer::new();
    let (mut printed, mut seen) = (Vec::new(), Vec::new());
    let mut to_print: Vec<Ticket> = (1..=3).map(ticket).collect();
    for n in 0..60 {
        match n {
            5 => printer.lock().unwrap().garbage_next(),
            20 => printer.lock().unwrap().silent = true,
            25 => printer.lock().unwrap().silent = false,
            _ => {}
        }
        let events = port::poll(&mut driver, &mut line).unwrap();
        for e in &events {
            if let Event::Printed(v) = e {
                printed.push(v.clone());
                driver.journaled(v);
            }
        }
        seen.extend(events);
        if driver.ready() && !to_print.is_empty() {
            driver.print(to_print.remove(0)).unwrap();
        }
    }
    stop.store(true, Ordering::SeqCst);
    end.join().unwrap().unwrap();
    let p = printer.lock().unwrap();
    let expected: Vec<String> = (1..=3).map(|n| ticket(n).validation).collect();
    assert_eq!(printed, expected);
    assert_eq!(p.tickets.iter().map(|t| t.validation().to_owned()).collect::<Vec<_>>(), expected, "one paper each");
    assert!(p.tickets.iter().all(|t| t.whole && !t.duplicate()));
    assert_eq!(seen.iter().filter(|e| matches!(e, Event::Unreadable(_))).count(), 1, "the garbage, said once: {seen:?}");
    let lost = seen.iter().position(|e| *e == Event::Fault(PrinterFault::CommunicationLost)).expect("the silence told");
    assert_eq!(seen[lost + 1..].iter().filter(|e| **e == Event::Cleared).count(), 1);
}

#[test]
fn a_printer_port_that_is_not_a_serial_line_is_named() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let refused = SerialLine::open_9600_8n1(file.path()).unwrap_err().to_string();
    assert!(refused.contains("not a serial line"), "{refused}");
}
