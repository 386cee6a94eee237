//! The TCL driver against the emulated printer (issue 70): every ticket of
//! a session printed once for its cash-out; a power cut of the printer, of
//! the cabinet, or of both, at every poll of the session, and after the
//! restart each ticket's validation number on paper exactly once — or,
//! where the printer lost power with the ticket on its way out, once more
//! marked DUPLICADO; each fault its own event, and no ticket sent while it
//! stands.
#![allow(clippy::unwrap_used)]

use peripherals::printer::TicketPrinter;
use peripherals::tcl::{Emulator, Event, Paper, PrintRefused, Printer, PrinterFault, Status, Ticket};

fn ticket(n: u64) -> Ticket {
    Ticket {
        validation: format!("{:018}", 1_000_000_000_000 + n),
        amount: format!("EUR {n},00"),
        amount_in_words: format!("{n} euros"),
        machine: "EGM-0001".into(),
        date: "2026-11-29".into(),
        time: "18:00:00".into(),
        expiry: "30 dias".into(),
    }
}

/// One poll: the driver's bytes through the emulator, its answer back.
fn poll(driver: &mut Printer, printer: &mut Emulator) -> Vec<Event> {
    let mut bytes = driver.next_bytes();
    let mut answer = Vec::new();
    while !bytes.is_empty() {
        let (reply, used) = printer.answer_bytes(&bytes).unwrap();
        answer.extend(reply);
        bytes.drain(..used);
    }
    driver.on_answer((!answer.is_empty()).then(|| Status::decode(&answer).map(|(s, _)| s)))
}

/// The core's side as the host keeps it: tickets issued (cash-outs
/// committed) and those journaled printed.
#[derive(Default)]
struct Journal {
    issued: Vec<Ticket>,
    printed: Vec<String>,
    faults: Vec<PrinterFault>,
}

impl Journal {
    fn unprinted(&self) -> Option<Ticket> {
        self.issued.iter().find(|t| !self.printed.contains(&t.validation)).cloned()
    }

    /// What the host does with the driver's events: journal each ticket
    /// printed; cash out the next when the printer is ready.
    fn react(&mut self, driver: &mut Printer, events: Vec<Event>, to_issue: &mut Vec<Ticket>) {
        for e in events {
            match e {
                Event::Printed(v) => {
                    assert!(!self.printed.contains(&v), "{v} journaled printed twice");
                    assert_eq!(self.unprinted().map(|t| t.validation), Some(v.clone()), "printed: not the ticket in hand");
                    self.printed.push(v.clone());
                    // Journaled: the driver may clear the printer's flags.
                    driver.journaled(&v);
                }
                Event::Fault(f) => self.faults.push(f),
                _ => {}
            }
        }
        if driver.ready() && self.unprinted().is_none() && !to_issue.is_empty() {
            let t = to_issue.remove(0);
            // The core commits the cash-out first; then the ticket goes out.
            self.issued.push(t.clone());
            driver.print(t).unwrap();
        }
    }
}

/// Papers that carry `validation`'s number.
fn papers<'a>(printer: &'a Emulator, validation: &str) -> Vec<&'a Paper> {
    printer.tickets.iter().filter(|p| p.validation() == validation && p.validation_printed).collect()
}

#[test]
fn a_session_prints_each_ticket_once() {
    let (mut driver, mut printer, mut journal) = (Printer::new(), Emulator::new(), Journal::default());
    let mut to_issue: Vec<Ticket> = (1..=5).map(ticket).collect();
    let mut events_seen = Vec::new();
    for _ in 0..60 {
        let events = poll(&mut driver, &mut printer);
        events_seen.extend(events.clone());
        journal.react(&mut driver, events, &mut to_issue);
    }
    let validations: Vec<String> = (1..=5).map(|n| ticket(n).validation).collect();
    assert_eq!(journal.printed, validations);
    assert_eq!(printer.tickets.len(), 5, "one paper per ticket");
    for (paper, v) in printer.tickets.iter().zip(&validations) {
        assert!(paper.whole && paper.validation_printed && !paper.duplicate(), "{paper:?}");
        assert_eq!(paper.validation(), v);
        assert_eq!(paper.fields[3], format!("EUR {},00", &v[v.len() - 1..]));
    }
    assert_eq!(printer.paper_left(), 495);
    assert_eq!(events_seen.iter().filter(|e| **e == Event::PoweredUp).count(), 1);
    assert!(journal.faults.is_empty());
}

/// Run a session of three tickets with the printer losing power before
/// its `printer_cut`-th answer and the cabinet cut (its driver started
/// afresh from the journal) after its `cabinet_cut`-th poll. The core
/// hears each poll's events `lag` polls late, as the host does (the
/// driver polls on a thread of its own and the host reads its events
/// when it next tends the printer): a cut loses what it had not heard yet.
fn cut_session(printer_cut: Option<u64>, cabinet_cut: Option<u32>, lag: usize) -> (Journal, Emulator) {
    let (mut driver, mut printer, mut journal) = (Printer::new(), Emulator::new(), Journal::default());
    if let Some(p) = printer_cut {
        printer.power_cut_at(p);
    }
    let mut to_issue: Vec<Ticket> = (1..=3).map(ticket).collect();
    let mut unheard: std::collections::VecDeque<Vec<Event>> = std::collections::VecDeque::new();
    for n in 0..80 {
        if cabinet_cut == Some(n) {
            // The cabinet's power cut: the driver's state and the events
            // the core had not heard are lost; the core's journal says
            // which ticket, if any, is unprinted.
            unheard.clear();
            driver = journal.unprinted().map_or_else(Printer::new, Printer::resuming);
        }
        unheard.push_back(poll(&mut driver, &mut printer));
        let heard = if unheard.len() > lag { unheard.pop_front().unwrap_or_default() } else { Vec::new() };
        journal.react(&mut driver, heard, &mut to_issue);
    }
    assert!(to_issue.is_empty(), "cuts {printer_cut:?}/{cabinet_cut:?}: tickets never issued");
    (journal, printer)
}

#[test]
fn a_power_cut_at_any_poll_prints_each_ticket_once() {
    let validations: Vec<String> = (1..=3).map(|n| ticket(n).validation).collect();
    let mut duplicates = 0;
    let cuts: Vec<u64> = (1..=30).collect();
    for printer_cut in cuts.iter().map(|&p| Some(p)).chain([None]) {
        for (cabinet_cut, lag) in (1..=30u32).map(Some).chain([None]).flat_map(|c| [0, 2].map(|lag| (c, lag))) {
            let (journal, printer) = cut_session(printer_cut, cabinet_cut, lag);
            let at = format!("printer cut {printer_cut:?}, cabinet cut {cabinet_cut:?}, events heard {lag} polls late");
            assert_eq!(journal.printed, validations, "{at}: journaled printed");
            for v in &validations {
                let on_paper = papers(&printer, v);
                let originals = on_paper.iter().filter(|p| !p.duplicate()).count();
                assert!(originals <= 1, "{at}: {v} printed {originals} times unmarked");
                assert!(on_paper.iter().any(|p| p.whole), "{at}: {v} never came out whole: {:?}", printer.tickets);
                if printer_cut.is_none() {
                    assert_eq!(on_paper.len(), 1, "{at}: {v} on paper {} times", on_paper.len());
                }
                duplicates += on_paper.iter().filter(|p| p.duplicate()).count();
                // A duplicate only where the original may be on paper.
                if on_paper.iter().any(|p| p.duplicate()) {
                    assert!(printer_cut.is_some(), "{at}: a duplicate without the printer's power cut");
                }
            }
        }
    }
    // The cuts that fall after a ticket's validation number went on paper
    // and before it was read make duplicates: the sweep meets them.
    assert!(duplicates > 0, "no cut fell while a ticket was on its way out");
}

#[test]
fn each_fault_is_told_and_holds_the_ticket_until_it_clears() {
    let (mut driver, mut printer, mut journal) = (Printer::new(), Emulator::new(), Journal::default());
    let mut none = Vec::new();
    let mut run = |driver: &mut Printer, printer: &mut Emulator, journal: &mut Journal, polls: usize| {
        let mut seen = Vec::new();
        for _ in 0..polls {
            let events = poll(driver, printer);
            seen.extend(events.clone());
            journal.react(driver, events, &mut none);
        }
        seen
    };
    run(&mut driver, &mut printer, &mut journal, 3);
    assert!(driver.ready());

    // The paper ends before the validation number: the ticket waits, and
    // goes out whole, unmarked, once paper is loaded.
    printer.paper_ends_at_step(1);
    journal.issued.push(ticket(1));
    driver.print(ticket(1)).unwrap();
    let seen = run(&mut driver, &mut printer, &mut journal, 6);
    assert!(seen.contains(&Event::Fault(PrinterFault::PaperOut)), "{seen:?}");
    assert!(journal.printed.is_empty());
    assert_eq!(driver.print(ticket(2)), Err(PrintRefused::Busy(ticket(1).validation)));
    printer.load_paper(51);
    let seen = run(&mut driver, &mut printer, &mut journal, 8);
    assert!(seen.contains(&Event::Cleared), "{seen:?}");
    assert_eq!(journal.printed, [ticket(1).validation]);
    let on_paper = papers(&printer, &ticket(1).validation);
    assert_eq!(on_paper.len(), 1);
    assert!(on_paper[0].whole && !on_paper[0].duplicate());
    // 50 tickets left: paper low, told once.
    assert_eq!(seen.iter().filter(|e| **e == Event::PaperLow(true)).count(), 1, "{seen:?}");

    // A jam before the validation number: the same; after it, the ticket
    // is printed (its number is on paper) and the jam told.
    printer.jam_at_step(1);
    journal.issued.push(ticket(2));
    driver.print(ticket(2)).unwrap();
    let seen = run(&mut driver, &mut printer, &mut journal, 6);
    assert!(seen.contains(&Event::Fault(PrinterFault::PaperJam)), "{seen:?}");
    assert_eq!(journal.printed.len(), 1);
    printer.unjam();
    run(&mut driver, &mut printer, &mut journal, 8);
    assert_eq!(journal.printed.len(), 2);
    printer.jam_at_step(3);
    journal.issued.push(ticket(3));
    driver.print(ticket(3)).unwrap();
    let seen = run(&mut driver, &mut printer, &mut journal, 6);
    assert!(seen.contains(&Event::Printed(ticket(3).validation)) && seen.contains(&Event::Fault(PrinterFault::PaperJam)), "{seen:?}");
    assert_eq!(driver.print(ticket(4)), Err(PrintRefused::Fault(PrinterFault::PaperJam)));
    printer.unjam();
    run(&mut driver, &mut printer, &mut journal, 3);

    // The cover opened, then shut.
    printer.set_open(true);
    let seen = run(&mut driver, &mut printer, &mut journal, 2);
    assert_eq!(seen, [Event::Fault(PrinterFault::Open)]);
    assert!(!driver.ready());
    printer.set_open(false);
    let seen = run(&mut driver, &mut printer, &mut journal, 2);
    assert_eq!(seen, [Event::Cleared, Event::Ready]);

    // It stops answering: lost after three polls, back when it answers.
    printer.silent = true;
    let seen = run(&mut driver, &mut printer, &mut journal, 4);
    assert_eq!(seen, [Event::Fault(PrinterFault::CommunicationLost)]);
    printer.silent = false;
    let seen = run(&mut driver, &mut printer, &mut journal, 1);
    assert_eq!(seen, [Event::Cleared, Event::Ready]);

    // Paper loaded again: no longer low.
    printer.load_paper(500);
    let seen = run(&mut driver, &mut printer, &mut journal, 1);
    assert_eq!(seen, [Event::PaperLow(false)]);
    assert_eq!(journal.printed, [1, 2, 3].map(|n| ticket(n).validation));
    assert!(printer.tickets.iter().all(|p| !p.duplicate()));
}
