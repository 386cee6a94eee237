//! The ticket printer, whatever language it speaks (issue 70): what the
//! cabinet's driver tells the host ([`Event`]), the ticket it is given
//! ([`Ticket`]) and what the host asks of it ([`TicketPrinter`]). TCL
//! ([`crate::tcl`]) is the first language; a second slots in beside it by
//! implementing [`TicketPrinter`], and the host's rule — a ticket printed
//! once for each cash-out the core committed, journaled printed when the
//! driver says so — stays as it is.

use std::path::Path;

use crate::serial::{LineError, SerialLine};

/// What a ticket prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    /// The 18 digits.
    pub validation: String,
    /// In figures, with its currency (`EUR 20,00`).
    pub amount: String,
    pub amount_in_words: String,
    pub machine: String,
    pub date: String,
    pub time: String,
    pub expiry: String,
}

/// A printer fault: each its own tilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrinterFault {
    PaperOut,
    PaperJam,
    /// Its cover or print head opened.
    Open,
    /// Head, voltage, temperature or system error.
    Failure,
    Offline,
    /// It stopped answering, or answers nothing that reads.
    CommunicationLost,
}

/// What the driver tells the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The printer powered up (at boot, or it lost power).
    PoweredUp,
    /// Nothing to print, no fault, its flags clear: a cash-out may be
    /// made by ticket.
    Ready,
    /// The ticket of this validation number is on paper and out of the
    /// printer (or held in it by a jam the attendant clears): its
    /// validation number printed, the printer done with it. The host
    /// answers with [`TicketPrinter::journaled`] once the core has
    /// journaled it; the printer takes no other ticket before.
    Printed(String),
    Fault(PrinterFault),
    /// The fault stands no more.
    Cleared,
    /// Paper low (`true`), or loaded again.
    PaperLow(bool),
    /// An answer that did not read: no step was taken on it.
    Unreadable(String),
}

/// Why a ticket cannot be given to the printer now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PrintRefused {
    #[error("the printer is still printing ticket {0}")]
    Busy(String),
    #[error("the printer cannot print: {0:?}")]
    Fault(PrinterFault),
    /// A field the printer's template cannot print, named.
    #[error("{0}")]
    Ticket(String),
}

/// The cabinet's driver of a ticket printer: what the host's poll thread
/// asks of it, whatever the language. How a ticket is printed exactly once
/// through power cuts is each driver's to keep (TCL's: its flags, read
/// before anything is sent after a restart).
pub trait TicketPrinter: Send {
    /// The device's line at `port`, opened as the language wants it.
    fn open(&self, port: &Path) -> Result<SerialLine, LineError>;
    /// One poll over `line`: what waits sent, the status read; what it
    /// said.
    fn poll(&mut self, line: &mut SerialLine) -> std::io::Result<Vec<Event>>;
    /// The line failed or nothing came: an answer that did not come.
    fn no_answer(&mut self) -> Vec<Event>;
    /// Print `ticket` (the core has committed its cash-out).
    fn print(&mut self, ticket: Ticket) -> Result<(), PrintRefused>;
    /// The core has journaled the ticket of `validation` printed, after the
    /// driver's [`Event::Printed`]: until then the driver keeps whatever
    /// on the device says that ticket is on paper, so that a cabinet cut
    /// between the two reads it again at its restart.
    fn journaled(&mut self, validation: &str);
}
