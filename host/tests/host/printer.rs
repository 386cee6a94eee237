//! The ticket printer through the host (issue 70): the real TCL driver on
//! its own thread, over a real pty, against the emulated printer at the
//! other end, and the real core on a real SQLite file. Each cash-out's
//! ticket is printed once and journaled printed once — through a power cut
//! of the printer, of the cabinet, or of both, at each of its polls (a
//! ticket the printer may have printed before it lost power goes out again
//! marked DUPLICADO, the same number); a printer that cannot print keeps
//! the credit; each fault is its tilt, cleared by the attendant only once
//! the printer reports it gone.

use crate::test_config;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::notice::Notice;
use game_host::session::Session;
use meters::inspect::Inspection;
use meters::{Entry, PrinterFault, Tilt};
use peripherals::tcl::{Emulator, Paper};

use crate::device_end::PrinterEnd;

fn config(dir: &Path, port: &Path) -> PathBuf {
    let text = test_config::text(dir);
    let at = text.rfind(')').unwrap();
    let printer = format!("    printer: Some((port: {:?}, poll_ms: 10)),\n", port.display().to_string());
    test_config::write(dir, &format!("{}{printer}{}", &text[..at], &text[at..]))
}

fn start(dir: &Path, port: &Path) -> Session {
    boot(&BootOptions { config: config(dir, port), db: dir.join("egm.sqlite"), lab_seed: Some(7), demo: false }).unwrap()
}

/// Tends the session until `done` holds (20 s at most).
fn tend_until(s: &mut Session, end: &PrinterEnd, mut done: impl FnMut(&Session, &Emulator) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        s.tend_printer();
        if end.with(|e| done(s, e)) {
            return;
        }
        assert!(Instant::now() < deadline, "the printer never got there: {:?}", end.with(|e| format!("{e:?}")));
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn ready(s: &Session) -> bool {
    s.printer().is_some_and(|p| p.ready())
}

fn all_printed(s: &Session) -> bool {
    s.machine().unprinted_tickets().is_empty() && ready(s)
}

/// Puts `cents` in and cashes it out once the printer is ready: the
/// ticket's validation number.
fn cash_out(s: &mut Session, end: &PrinterEnd, cents: u64) -> String {
    tend_until(s, end, |s, _| ready(s));
    assert!(s.command(Command::InsertNote { cents }));
    assert!(s.command(Command::CashOut));
    assert_eq!(s.machine().credit(), 0);
    s.last_ticket().unwrap().to_owned()
}

/// The journal's events, oldest first.
fn events(dir: &Path) -> Vec<meters::Record> {
    let mut records = Inspection::open(&dir.join("egm.sqlite")).unwrap().events(100_000).unwrap();
    records.reverse();
    records
}

/// How many times the journal says `validation` was printed.
fn journaled_printed(dir: &Path, validation: &str) -> usize {
    events(dir).iter().filter(|r| matches!(&r.entry, Entry::TicketPrinted { validation: v } if v == validation)).count()
}

fn papers(e: &Emulator, validation: &str) -> Vec<Paper> {
    e.tickets.iter().filter(|p| p.validation() == validation && p.validation_printed).cloned().collect()
}

#[test]
fn each_cash_out_is_printed_once_with_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    let end = PrinterEnd::new();
    let mut s = start(dir.path(), &end.path);
    // Two tickets from paper low (50 left).
    end.with(|e| e.load_paper(52));
    let mut validations = Vec::new();
    for cents in [2_000, 500, 5_000] {
        validations.push(cash_out(&mut s, &end, cents));
        tend_until(&mut s, &end, |s, _| all_printed(s));
        assert!(matches!(s.message(), Some(Notice::TicketPrinted { value }) if *value == cents), "{:?}", s.message_text());
    }
    let machine = s.machine().config().machine_id.clone();
    drop(s);
    end.with(|e| {
        assert_eq!(e.tickets.iter().map(|p| p.validation().to_owned()).collect::<Vec<_>>(), validations, "one paper per ticket");
        assert!(e.tickets.iter().all(|p| p.whole && !p.duplicate()));
        let last = &e.tickets[2].fields;
        assert_eq!(last[3], "50.00 EUR", "{last:?}");
        assert_eq!(last[4], "cinquenta euros");
        assert_eq!(last[5], machine, "{last:?}");
        // Issued today (UTC), to the second; redeemable for 30 days.
        let (date, time) = (&last[6], &last[7]);
        assert!(date.len() == 10 && time.len() == 8 && time.as_bytes()[2] == b':', "{last:?}");
        let issued = time::Date::parse(date, time::macros::format_description!("[year]-[month]-[day]")).unwrap();
        assert_eq!(last[8], format!("VALIDO ATE {}", issued + time::Duration::days(30)));
    });
    for v in &validations {
        assert_eq!(journaled_printed(dir.path(), v), 1, "{v}");
    }
    // Paper low, journaled once (the floor is told: SAS 74), as the
    // second ticket leaves 50 in the box.
    let records = events(dir.path());
    let low: Vec<usize> = records.iter().enumerate().filter(|(_, r)| r.entry == Entry::PrinterPaper { low: true }).map(|(i, _)| i).collect();
    assert_eq!(low.len(), 1);
    let printed = |v: &str| records.iter().position(|r| matches!(&r.entry, Entry::TicketPrinted { validation } if validation == v)).unwrap();
    assert!(printed(&validations[0]) < low[0] && low[0] < printed(&validations[2]), "paper low out of its place");
}

/// A ticket's cash-out the instant the last ticket is journaled printed:
/// the printer's validation-done flag still says the last ticket is on
/// paper until the cabinet clears it, and a cabinet cut then would read
/// it, at its restart, as the new ticket's (journaled printed with no
/// paper: the player's money lost). So no ticket cash-out is taken until
/// the printer reads its flags clear; each check holds the printer still
/// (its lock) from the flag's reading to the cash-out. After the last one
/// the cabinet is cut: every ticket on paper once, whole, journaled once.
#[test]
fn no_ticket_is_taken_while_the_last_one_s_flag_stands() {
    let dir = tempfile::tempdir().unwrap();
    let end = PrinterEnd::new();
    let mut s = start(dir.path(), &end.path);
    let mut validations = vec![cash_out(&mut s, &end, 1_000)];
    let mut refused_on_the_flag = 0;
    for _ in 0..12 {
        assert!(s.command(Command::InsertNote { cents: 500 }));
        // The printer held still from the tend that journals the last
        // ticket to the cash-out: what the flag says then is what a cut
        // would leave.
        let deadline = Instant::now() + Duration::from_secs(20);
        let (flag, taken) = loop {
            let tried = end.with(|e| {
                s.tend_printer();
                s.machine().unprinted_tickets().is_empty().then(|| {
                    let flag = e.validation_done();
                    s.command(Command::CashOut);
                    (flag, s.machine().credit() == 0)
                })
            });
            if let Some(t) = tried {
                break t;
            }
            assert!(Instant::now() < deadline, "the last ticket was never journaled printed");
            std::thread::sleep(Duration::from_millis(2));
        };
        assert!(!(flag && taken), "a ticket was issued while the printer's flag still said the last one was on paper");
        if !taken {
            refused_on_the_flag += usize::from(flag);
            assert!(matches!(s.message(), Some(Notice::PrinterNotReady)), "{:?}", s.message_text());
            tend_until(&mut s, &end, |s, _| ready(s));
            assert!(s.command(Command::CashOut));
            assert_eq!(s.machine().credit(), 0, "{:?}", s.message_text());
        }
        validations.push(s.last_ticket().unwrap().to_owned());
    }
    // The flag did stand when the host first heard the print (else the
    // check proved nothing).
    assert!(refused_on_the_flag > 0, "the flag never stood at a print's journal");
    s.power_cut();
    let mut s = start(dir.path(), &end.path);
    tend_until(&mut s, &end, |s, _| all_printed(s));
    drop(s);
    end.with(|e| {
        assert_eq!(e.tickets.iter().map(|p| p.validation().to_owned()).collect::<Vec<_>>(), validations, "one paper per ticket, in order");
        assert!(e.tickets.iter().all(|p| p.whole && !p.duplicate()), "{:?}", e.tickets);
    });
    for v in &validations {
        assert_eq!(journaled_printed(dir.path(), v), 1, "{v}");
    }
}

#[test]
fn a_printer_that_cannot_print_keeps_the_credit_and_its_fault_is_a_tilt() {
    let dir = tempfile::tempdir().unwrap();
    let end = PrinterEnd::new();
    let mut s = start(dir.path(), &end.path);
    tend_until(&mut s, &end, |s, _| ready(s));

    // The cover open: the cash-out does not happen, the credit stays.
    assert!(s.command(Command::InsertNote { cents: 1_000 }));
    end.with(|e| e.set_open(true));
    tend_until(&mut s, &end, |s, _| s.machine().state().tilts.contains(&Tilt::Printer(PrinterFault::Open)));
    s.command(Command::CashOut);
    assert_eq!(s.machine().credit(), 1_000, "nothing moved");
    assert!(matches!(s.message(), Some(Notice::PrinterNotReady)), "{:?}", s.message_text());
    assert!(s.machine().unprinted_tickets().is_empty());
    // The attendant's key does not clear it while the cover is open.
    s.command(Command::AttendantClear);
    tend_until(&mut s, &end, |s, e| e.answered() > 3 && s.printer().is_some_and(|p| p.fault().is_some()));
    assert!(s.machine().state().tilts.contains(&Tilt::Printer(PrinterFault::Open)));
    end.with(|e| e.set_open(false));
    tend_until(&mut s, &end, |s, _| !s.machine().state().tilts.contains(&Tilt::Printer(PrinterFault::Open)));

    // The paper ends before the validation number: the ticket stays
    // unprinted in the core, the tilt names it, and it is printed once,
    // unmarked, when paper is loaded and the attendant clears the tilt.
    let validation = cash_out(&mut s, &end, 2_000);
    end.with(|e| e.paper_ends_at_step(1));
    tend_until(&mut s, &end, |s, _| s.machine().state().tilts.contains(&Tilt::Printer(PrinterFault::PaperOut)));
    assert_eq!(s.machine().unprinted_tickets().iter().map(|t| t.validation.as_str()).collect::<Vec<_>>(), [validation.as_str()]);
    let block = s.block_text().unwrap();
    assert!(block.contains("impressora sem papel") && block.contains(&validation), "{block}");
    end.with(|e| e.load_paper(500));
    tend_until(&mut s, &end, |s, _| s.machine().unprinted_tickets().is_empty());
    s.command(Command::AttendantClear);
    tend_until(&mut s, &end, |s, _| s.machine().state().tilts.is_empty());
    drop(s);
    end.with(|e| {
        let on_paper = papers(e, &validation);
        assert_eq!(on_paper.len(), 1);
        assert!(on_paper[0].whole && !on_paper[0].duplicate());
    });
    assert_eq!(journaled_printed(dir.path(), &validation), 1);
    let set: Vec<Tilt> = events(dir.path()).iter().filter_map(|r| if let Entry::TiltSet { tilt, .. } = r.entry { Some(tilt) } else { None }).collect();
    assert_eq!(set, [Tilt::Printer(PrinterFault::Open), Tilt::Printer(PrinterFault::PaperOut)]);
}

/// E-35 (mid-ticket-print): at each poll of a cash-out's print: the printer loses power, the
/// cabinet is cut (no power-down, a new host on the same critical
/// memory), or both. The ticket is journaled printed once; its number is
/// on paper unmarked at most once, whole at least once, and marked
/// DUPLICADO only where the printer lost power.
#[test]
fn a_cut_at_any_poll_prints_the_ticket_once() {
    for cut in 1..=8u64 {
        for (printer_cut, cabinet_cut) in [(true, false), (false, true), (true, true)] {
            let what = format!("cut at poll {cut} (printer {printer_cut}, cabinet {cabinet_cut})");
            let dir = tempfile::tempdir().unwrap();
            let end = PrinterEnd::new();
            let mut s = start(dir.path(), &end.path);
            tend_until(&mut s, &end, |s, _| ready(s));
            let from = end.with(|e| {
                if printer_cut {
                    e.power_cut_at(cut);
                }
                e.answered()
            });
            let validation = cash_out(&mut s, &end, 2_000);
            if cabinet_cut {
                tend_until(&mut s, &end, |_, e| e.answered() >= from + cut);
                s.power_cut();
                s = start(dir.path(), &end.path);
            }
            tend_until(&mut s, &end, |s, e| all_printed(s) && e.answered() > from + cut);
            drop(s);
            assert_eq!(journaled_printed(dir.path(), &validation), 1, "{what}");
            end.with(|e| {
                let on_paper = papers(e, &validation);
                assert!(on_paper.iter().filter(|p| !p.duplicate()).count() <= 1, "{what}: {on_paper:?}");
                assert!(on_paper.iter().any(|p| p.whole), "{what}: {on_paper:?}");
                if !printer_cut {
                    assert_eq!(on_paper.len(), 1, "{what}: {on_paper:?}");
                }
            });
        }
    }
}
