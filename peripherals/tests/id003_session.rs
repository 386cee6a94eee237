//! The ID-003 driver against the emulated acceptor (issue 70), frame by
//! frame through the real encoding, with a host that journals as the
//! cabinet's core does: a note's stack is recorded before the stack
//! command, its credit at vend valid before the ACK. Every note fed ends
//! stacked and credited exactly once, or given back and not credited, for
//! a power cut of the acceptor, a restart of the cabinet, or both, at
//! every poll of a session.
#![allow(clippy::unwrap_used)]

mod support;

use peripherals::acceptor::NoteAcceptor;
use peripherals::id003::{Acceptor, Denomination, Emulator, Event, NoteAt, Status};
use support::{Journal, react};

/// One poll: the driver's command through the wire encoding to the
/// emulator, its answer back the same way.
fn poll(driver: &mut Acceptor, acceptor: &mut Emulator, journal: &mut Journal) {
    let command = driver.next_command();
    let bytes = acceptor.answer(&command.frame().encode()).unwrap();
    let answer = (!bytes.is_empty()).then(|| {
        Status::decode(&bytes).map(|(s, n)| {
            assert_eq!(n, bytes.len());
            s
        })
    });
    let events = driver.on_answer(answer);
    react(driver, journal, events);
}

fn fed() -> Vec<Denomination> {
    vec![Denomination::Note(0x63), Denomination::Note(0x64), Denomination::Ticket("001234567890123456".into()), Denomination::Note(0x62)]
}

fn sorted(mut v: Vec<Denomination>) -> Vec<String> {
    let mut s: Vec<String> = v.drain(..).map(|d| format!("{d:?}")).collect();
    s.sort();
    s
}

#[test]
fn a_session_credits_each_note_once_and_gives_the_refused_ticket_back() {
    let (mut driver, mut acceptor, mut journal) = (Acceptor::new(), Emulator::new(), Journal::default());
    driver.enable(true);
    for d in fed() {
        acceptor.insert(d);
    }
    for _ in 0..200 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    let notes = vec![Denomination::Note(0x63), Denomination::Note(0x64), Denomination::Note(0x62)];
    assert_eq!(journal.credited, notes);
    assert_eq!(acceptor.stacked, notes);
    assert_eq!(acceptor.returned, [Denomination::Ticket("001234567890123456".into())]);
    assert!(journal.faults.is_empty(), "{:?}", journal.faults);
}

/// A note offered to an inhibited acceptor is not drawn in: back in the
/// player's hand at once, never credited, even once the acceptor is
/// enabled (a door open when the player tried); offered to the enabled
/// acceptor, it is credited once. Also for a jammed acceptor.
#[test]
fn an_inhibited_acceptor_does_not_draw_an_offered_note_in() {
    let (mut driver, mut acceptor, mut journal) = (Acceptor::new(), Emulator::new(), Journal::default());
    for _ in 0..5 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    assert!(acceptor.inhibited());
    assert!(!acceptor.offer(Denomination::Note(0x63)), "an inhibited acceptor drew the note in");
    assert_eq!(acceptor.returned, [Denomination::Note(0x63)]);
    driver.enable(true);
    for _ in 0..30 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    assert!(!acceptor.inhibited());
    assert!(journal.credited.is_empty() && acceptor.stacked.is_empty(), "the refused note was taken once enabled");
    assert!(acceptor.offer(Denomination::Note(0x64)));
    for _ in 0..30 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    assert_eq!(journal.credited, [Denomination::Note(0x64)]);
    assert_eq!(acceptor.stacked, [Denomination::Note(0x64)]);
    acceptor.jam();
    assert!(!acceptor.offer(Denomination::Note(0x62)), "a jammed acceptor drew a note in");
    assert_eq!(acceptor.returned, [Denomination::Note(0x63), Denomination::Note(0x62)]);
}

/// A disabled denomination and an inhibited acceptor take nothing; a jam
/// is a fault, no credit, and clears at the attendant's reset.
#[test]
fn inhibits_and_a_jam_take_no_money() {
    let (mut driver, mut acceptor, mut journal) = (Acceptor::new(), Emulator::new(), Journal::default());
    acceptor.insert(Denomination::Note(0x63));
    for _ in 0..20 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    assert!(acceptor.stacked.is_empty() && journal.credited.is_empty(), "an inhibited acceptor took a note");
    driver.enable(true);
    for _ in 0..3 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    assert!(matches!(driver_escrow(&mut driver, &mut acceptor, &mut journal), Some(Denomination::Note(0x63))));
    acceptor.jam();
    for _ in 0..10 {
        poll(&mut driver, &mut acceptor, &mut journal);
    }
    assert_eq!(journal.faults, [peripherals::acceptor::Fault::JamInAcceptor]);
    assert!(journal.credited.is_empty() && acceptor.stacked.is_empty());
    assert_eq!(acceptor.returned, [Denomination::Note(0x63)]);
}

/// Polls until the emulator holds an escrow or a stack is under way: what
/// the journal says is being stacked.
fn driver_escrow(driver: &mut Acceptor, acceptor: &mut Emulator, journal: &mut Journal) -> Option<Denomination> {
    for _ in 0..10 {
        if journal.stacking.is_some() {
            break;
        }
        poll(driver, acceptor, journal);
    }
    journal.stacking.clone()
}

/// At every poll of the session, the acceptor loses power, the cabinet
/// restarts (a new driver, the journal kept), or both: every note fed ends
/// either stacked and credited exactly once, or given back and never
/// credited; the refused ticket is never credited. Every cut point, every
/// kind of cut.
#[test]
fn a_cut_at_any_poll_credits_each_stacked_note_once() {
    for cut in 0..120 {
        for (acceptor_cut, cabinet_restart) in [(true, false), (false, true), (true, true)] {
            let (mut driver, mut acceptor, mut journal) = (Acceptor::new(), Emulator::new(), Journal::default());
            driver.enable(true);
            for d in fed() {
                acceptor.insert(d);
            }
            for i in 0..400 {
                if i == cut {
                    if acceptor_cut {
                        acceptor.power_cut();
                    }
                    if cabinet_restart {
                        driver = Acceptor::new();
                        driver.enable(true);
                    }
                }
                poll(&mut driver, &mut acceptor, &mut journal);
            }
            let what = format!("cut at poll {cut} (acceptor {acceptor_cut}, cabinet {cabinet_restart})");
            assert_eq!(sorted(journal.credited.clone()), sorted(acceptor.stacked.clone()), "{what}");
            assert_eq!(sorted([acceptor.stacked.clone(), acceptor.returned.clone()].concat()), sorted(fed()), "{what}");
            assert!(!journal.credited.iter().any(|d| matches!(d, Denomination::Ticket(_))), "{what}");
        }
    }
}

/// One poll with a host that journals nothing: it settles the power-up
/// status at once, and takes no other step. The driver's events.
fn poll_alone(driver: &mut Acceptor, acceptor: &mut Emulator) -> Vec<Event> {
    let command = driver.next_command();
    let bytes = acceptor.answer(&command.frame().encode()).unwrap();
    let answer = (!bytes.is_empty()).then(|| Status::decode(&bytes).map(|(s, _)| s));
    let events = driver.on_answer(answer);
    if events.iter().any(|e| matches!(e, Event::PoweredUp(_))) {
        driver.power_up_settled();
    }
    events
}

/// Issue 70: a ticket held in escrow while the floor decides (LP 70/71),
/// and the cabinet restarts: the new driver finds the acceptor holding
/// what it never saw in escrow — the holding status does not say what it
/// is — and has it given back; the acceptor's idle then tells the host to
/// end what it had journaled.
#[test]
fn a_holding_the_driver_never_saw_in_escrow_is_given_back() {
    let (mut driver, mut acceptor) = (Acceptor::new(), Emulator::new());
    driver.enable(true);
    let t = Denomination::Ticket("001234567890123456".into());
    acceptor.insert(t.clone());
    let escrowed = (0..20).any(|_| poll_alone(&mut driver, &mut acceptor).contains(&Event::Escrowed(t.clone())));
    assert!(escrowed, "{acceptor:?}");
    driver.hold();
    for _ in 0..5 {
        poll_alone(&mut driver, &mut acceptor);
    }
    assert!(format!("{acceptor:?}").contains("Holding"), "{acceptor:?}");
    let mut restarted = Acceptor::new();
    let events: Vec<Event> = (0..20).flat_map(|_| poll_alone(&mut restarted, &mut acceptor)).collect();
    assert_eq!(acceptor.returned, [t]);
    assert!(acceptor.stacked.is_empty());
    assert!(events.contains(&Event::Idle), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::Escrowed(_) | Event::VendValid(_))), "{events:?}");
}

/// The acceptor lost power with a note past its point of return: it says
/// "in the stacker" at every status request until it is reset, and the
/// driver resets it only once the host has committed that — polled any
/// number of times unsettled, and by a driver started afresh (a cabinet
/// cut meanwhile), it still says where the note is.
#[test]
fn the_power_up_status_stands_until_the_host_settles_it() {
    let (mut driver, mut acceptor) = (Acceptor::new(), Emulator::new());
    let bare = |driver: &mut Acceptor, acceptor: &mut Emulator| {
        let command = driver.next_command();
        let bytes = acceptor.answer(&command.frame().encode()).unwrap();
        driver.on_answer((!bytes.is_empty()).then(|| Status::decode(&bytes).map(|(s, _)| s)))
    };
    // Powered on, settled, enabled; a note fed and stacked.
    assert_eq!(bare(&mut driver, &mut acceptor), [Event::PoweredUp(NoteAt::Nowhere)]);
    driver.power_up_settled();
    driver.enable(true);
    let note = Denomination::Note(0x63);
    acceptor.insert(note.clone());
    let escrowed = (0..20).any(|_| bare(&mut driver, &mut acceptor).contains(&Event::Escrowed(note.clone())));
    assert!(escrowed, "{acceptor:?}");
    driver.stack();
    bare(&mut driver, &mut acceptor);
    assert_eq!(acceptor.in_path(), Some((note.clone(), true)));
    acceptor.power_cut();
    assert_eq!(acceptor.stacked, std::slice::from_ref(&note));
    let events: Vec<Event> = (0..30).flat_map(|_| bare(&mut driver, &mut acceptor)).collect();
    assert_eq!(events, [Event::PoweredUp(NoteAt::Stacker)], "once, and nothing more while unsettled");
    let mut restarted = Acceptor::new();
    let events: Vec<Event> = (0..30).flat_map(|_| bare(&mut restarted, &mut acceptor)).collect();
    assert_eq!(events, [Event::PoweredUp(NoteAt::Stacker)], "the cabinet's next start hears it again");
    restarted.power_up_settled();
    restarted.power_up_settled();
    let events: Vec<Event> = (0..30).flat_map(|_| bare(&mut restarted, &mut acceptor)).collect();
    assert_eq!(events, [Event::Idle], "reset once, then idle");
    assert!(acceptor.settled());
    assert_eq!((acceptor.stacked.len(), acceptor.returned.len()), (1, 0));
}
