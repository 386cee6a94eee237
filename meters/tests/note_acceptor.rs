//! Issue 70: a note through the acceptor, its credit committed once. The
//! host journals the note it stacks before the stack command
//! (`stack_note`), commits the credit at the acceptor's vend valid before
//! its ACK (`note_vend_valid`), and at the acceptor's power-up learns where
//! the note was (`note_at_power_up`). Each power cut here is the cabinet's
//! process gone and critical memory opened again.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use meters::{CoreError, Machine, MachineConfig, Mode, MoneyRefusal, SeedChoice};

fn open(path: &Path) -> Machine {
    let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
    Machine::open(path, config, SeedChoice::Lab(70)).unwrap()
}

#[test]
fn a_note_is_credited_once_at_its_vend_valid_or_at_a_power_up_in_the_stacker() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = open(&path);
    let accepted = m.config().accepted_notes.clone();
    let (a, b, c) = (accepted[0], accepted[1], accepted[2]);

    // Vend valid: the credit, once; seen again after a restart, nothing.
    m.stack_note(a).unwrap();
    assert_eq!((m.credit(), m.note_stacking()), (0, Some(a)), "stacking credits nothing");
    assert!(matches!(m.stack_note(b), Err(CoreError::NoteStillStacking(v)) if v == a), "one note at a time");
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_stacking(), Some(a), "the stacking survives a power cut");
    assert_eq!(m.note_vend_valid().unwrap(), Some(a));
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_vend_valid().unwrap(), None, "a vend valid seen again after a restart credits nothing");
    assert_eq!(m.credit(), a);

    // Power-up with the note in the stacker before its vend valid: the
    // credit then, once.
    m.stack_note(b).unwrap();
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_at_power_up(true).unwrap(), Some(b));
    assert_eq!(m.note_at_power_up(true).unwrap(), None);
    assert_eq!(m.note_vend_valid().unwrap(), None);
    assert_eq!(m.credit(), a + b);

    // Power-up with the note in the acceptor's path: given back, no credit.
    m.stack_note(c).unwrap();
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_at_power_up(false).unwrap(), None);
    assert_eq!((m.credit(), m.note_stacking()), (a + b, None));

    // A note the machine does not take is refused before any stacking.
    let refused = m.stack_note(a + 1);
    assert!(matches!(refused, Err(CoreError::NoteRejected(MoneyRefusal::NoteNotAccepted(v))) if v == a + 1), "{refused:?}");
    assert_eq!(m.note_stacking(), None);

    // The meters count the two notes credited, by value.
    let s = m.state();
    assert_eq!(s.totals.dinheiro_entrado, a + b);
    assert_eq!(s.totals.notas_por_valor.values().sum::<u64>(), 2);
    // The event log, newest first.
    let kinds: Vec<String> = m.events(100).unwrap().iter().map(|r| r.entry.kind().to_owned()).filter(|k| k.starts_with("note")).collect();
    assert_eq!(kinds, ["note_rejected", "note_returned", "note_stacking", "note_in", "note_stacking", "note_in", "note_stacking"]);
}

/// M-25 f through the acceptor: this machine's own ticket, checked at
/// escrow (an unknown one refused and journaled), one at a time with
/// notes, credited once at its vend valid or a power-up in the stacker;
/// given back at a power-up in the acceptor's path, and still unredeemed.
#[test]
fn the_machines_own_ticket_is_credited_once_or_given_back_unredeemed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = open(&path);
    let note = m.config().accepted_notes[1];
    m.insert_note(note).unwrap();
    let meters::CashOut::Ticket(t) = m.cash_out().unwrap() else { panic!("a ticket, under the ticket-out limit") };
    m.ticket_printed(&t.validation).unwrap();
    assert_eq!(m.credit(), 0);

    // A number this machine never printed (its check digit wrong, too).
    let unknown = m.stack_ticket("001234567890123456");
    assert!(matches!(unknown, Err(CoreError::TicketRejected(MoneyRefusal::Malformed))), "{unknown:?}");
    assert_eq!(m.ticket_stacking(), None);

    // Power-up with the ticket in the acceptor's path: given back, no
    // credit, still redeemable.
    assert_eq!(m.stack_ticket(&t.validation).unwrap(), note);
    assert!(matches!(m.stack_note(note), Err(CoreError::TicketStillStacking(v)) if v == t.validation), "one at a time");
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.ticket_stacking(), Some(t.validation.as_str()), "the stacking survives a power cut");
    assert_eq!(m.note_at_power_up(false).unwrap(), None);
    assert_eq!((m.credit(), m.ticket_stacking()), (0, None));

    // Stacked: credited once at its vend valid, and never again.
    assert_eq!(m.stack_ticket(&t.validation).unwrap(), note);
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_vend_valid().unwrap(), Some(note));
    assert_eq!(m.note_vend_valid().unwrap(), None);
    assert_eq!(m.note_at_power_up(true).unwrap(), None);
    assert_eq!(m.credit(), note);
    let again = m.stack_ticket(&t.validation);
    assert!(matches!(again, Err(CoreError::TicketRejected(MoneyRefusal::AlreadyRedeemed))), "{again:?}");
}

/// Issue 70 with a floor (SAS LP 70/71): a ticket the floor authorised,
/// stacked through the acceptor: checked and journaled before the stack
/// command with no credit, credited once at its vend valid or a power-up in
/// the stacker at the floor's amount, given back (journaled refused, the
/// floor told) at a power-up in the acceptor's path — and then redeemable
/// again, where one credited never is.
#[test]
fn a_floor_ticket_is_credited_once_at_the_floors_amount_or_given_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("egm.sqlite");
    let mut m = open(&path);
    let note = m.config().accepted_notes[0];
    let (v1, v2) = ("001111111111111111", "002222222222222222");

    // Given back at a power-up in the acceptor's path: nothing credited.
    m.stack_floor_ticket(v1, 2_500).unwrap();
    assert_eq!((m.credit(), m.floor_ticket_stacking()), (0, Some((v1, 2_500))), "stacking credits nothing");
    assert!(matches!(m.stack_note(note), Err(CoreError::TicketStillStacking(v)) if v == v1), "one at a time");
    assert!(matches!(m.stack_floor_ticket(v2, 100), Err(CoreError::TicketStillStacking(v)) if v == v1));
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.floor_ticket_stacking(), Some((v1, 2_500)), "the stacking survives a power cut");
    assert_eq!(m.note_at_power_up(false).unwrap(), None);
    assert_eq!((m.credit(), m.floor_ticket_stacking()), (0, None));

    // The same ticket again: stacked, credited once at its vend valid.
    m.stack_floor_ticket(v1, 2_500).unwrap();
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_vend_valid().unwrap(), Some(2_500));
    assert_eq!(m.note_vend_valid().unwrap(), None, "a vend valid seen again credits nothing");
    assert_eq!(m.note_at_power_up(true).unwrap(), None);
    assert_eq!(m.credit(), 2_500);
    let again = m.stack_floor_ticket(v1, 2_500);
    assert!(matches!(again, Err(CoreError::TicketRejected(MoneyRefusal::AlreadyRedeemed))), "{again:?}");
    let again = m.redeem_floor_ticket(v1, 2_500);
    assert!(matches!(again, Err(CoreError::TicketRejected(MoneyRefusal::AlreadyRedeemed))), "{again:?}");

    // Credited at a power-up with it in the stacker.
    m.stack_floor_ticket(v2, 700).unwrap();
    drop(m);
    let mut m = open(&path);
    assert_eq!(m.note_at_power_up(true).unwrap(), Some(700));
    assert_eq!(m.credit(), 3_200);

    // The limits hold on the floor's amount, before any stacking.
    let over = m.config().ticket_in_limit + 1;
    let refused = m.stack_floor_ticket("003333333333333333", over);
    assert!(matches!(refused, Err(CoreError::TicketRejected(MoneyRefusal::AboveTicketLimit(_)))), "{refused:?}");
    assert_eq!(m.floor_ticket_stacking(), None);

    // The meters count two tickets in, 3,200 cents; the event log says it all.
    let s = m.state();
    assert_eq!((s.totals.bilhetes_codificados_entrados, s.totals.bilhetes_entrados_contagem), (3_200, 2));
    let kinds: Vec<String> = m.events(100).unwrap().iter().map(|r| r.entry.kind().to_owned()).filter(|k| k.starts_with("floor_ticket")).collect();
    assert_eq!(
        kinds,
        [
            "floor_ticket_refused",
            "floor_ticket_in",
            "floor_ticket_stacking",
            "floor_ticket_refused",
            "floor_ticket_refused",
            "floor_ticket_in",
            "floor_ticket_stacking",
            "floor_ticket_refused",
            "floor_ticket_stacking"
        ]
    );
}
