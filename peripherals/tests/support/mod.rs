//! The host's side of the acceptor in the driver's tests: a journal kept
//! as the cabinet's core keeps it (the note being stacked before the stack
//! command, its credit at vend valid before the ACK).
#![allow(dead_code)]

use peripherals::acceptor::Fault;
use peripherals::acceptor::NoteAcceptor;
use peripherals::id003::{Acceptor, Denomination, Event, NoteAt};

/// What the cabinet's journal keeps across a restart.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    pub credited: Vec<Denomination>,
    /// A note the host decided to stack and has not credited yet.
    pub stacking: Option<Denomination>,
    pub faults: Vec<Fault>,
}

/// The host's side: tickets are refused by the floor (given back), notes
/// stacked; the credit at vend valid, then the ACK.
pub fn react(driver: &mut Acceptor, journal: &mut Journal, events: Vec<Event>) {
    for event in events {
        match event {
            Event::Escrowed(Denomination::Ticket(_)) => driver.give_back(),
            Event::Escrowed(d) => {
                journal.stacking = Some(d);
                driver.stack();
            }
            Event::VendValid(_) => {
                if let Some(d) = journal.stacking.take() {
                    journal.credited.push(d);
                }
                driver.credited();
            }
            // Power came back with the note in the stacker's path: it is
            // stacked, and credited now if it was not at its vend valid.
            Event::PoweredUp(NoteAt::Stacker) => {
                if let Some(d) = journal.stacking.take() {
                    journal.credited.push(d);
                }
                driver.power_up_settled();
            }
            Event::PoweredUp(_) => {
                journal.stacking = None;
                driver.power_up_settled();
            }
            Event::Fault(s) => journal.faults.push(s),
            _ => {}
        }
    }
}
