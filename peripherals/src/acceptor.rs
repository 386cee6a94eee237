//! The note and ticket acceptor, whatever protocol it speaks (issue 70):
//! what the cabinet's driver tells the host ([`Event`]) and what the host
//! tells the driver ([`NoteAcceptor`]). JCM's ID-003 ([`crate::id003`]) is
//! the first protocol; a second (MEI's EBDS, say) slots in beside it by
//! implementing [`NoteAcceptor`] with its own frames, and the host's
//! money path — the core's journal before the stack, the credit before the
//! ACK, the power-up settled before the reset — stays as it is.

use std::path::Path;

use crate::serial::{LineError, SerialLine};

/// What was escrowed: a note by its denomination code (the acceptor's
/// currency assignment names its value: configuration maps codes to
/// cents), or a ticket by its barcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Denomination {
    Note(u8),
    Ticket(String),
}

/// Why the acceptor gave a note back (the rejecting status's data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectReason {
    Insertion,
    Magnetic,
    ResidualAtHead,
    Calibration,
    Conveying,
    Discrimination,
    PhotoPattern,
    PhotoLevel,
    Inhibited,
    Operation,
    ResidualAtStacker,
    Length,
    PhotoPatternTwo,
    Feature,
    /// A code this table does not name.
    Other(u8),
}

/// Where the acceptor says a note was when power came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteAt {
    Nowhere,
    /// In the acceptor's path: it is given back.
    Acceptor,
    /// In the stacker's path: it is stacked.
    Stacker,
}

/// What the driver tells the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The acceptor powered up (at boot, or after a power cut).
    PoweredUp(NoteAt),
    /// A note or a ticket waits in escrow for the host's decision.
    Escrowed(Denomination),
    /// Past the point of return: its credit is due. `None`: a driver
    /// started afresh met it without seeing the escrow (the host's journal
    /// says what it was).
    VendValid(Option<Denomination>),
    Stacked(Option<Denomination>),
    /// Idle (or disabled) again, nothing in its path: the first such
    /// status since another, or since the driver started. A note the
    /// host's journal says is being stacked and that never reached its
    /// vend valid was given back.
    Idle,
    /// Given back to the player, by the host's decision.
    Returned(Denomination),
    /// The acceptor refused what it was fed.
    Rejected(RejectReason),
    /// A fault: jam, stacker full or open, cheat, failure, pause, the
    /// acceptor's own communication error, or the line lost.
    Fault(Fault),
    /// The fault stands no more.
    Cleared,
    /// An answer that did not read, or a command the acceptor refused:
    /// no step was taken on it.
    Unreadable(String),
}

/// A fault the acceptor reports, in the host's terms (each protocol maps
/// its own statuses onto these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    JamInAcceptor,
    JamInStacker,
    StackerFull,
    /// The stacker (cash box) is out of the acceptor.
    StackerOpen,
    /// A note pulled back out of the path (stringing) or another cheat.
    Cheated,
    /// A failure of its own, with the device's code.
    Failure(u8),
    /// A second note fed while one is handled: not a tilt.
    Pause,
    /// The acceptor's own communication error, or the line lost.
    CommunicationLost,
}

/// The cabinet's driver of a note and ticket acceptor: what the host's
/// poll thread asks of it, whatever the protocol. The driver decides
/// nothing about money: it reports each step as an [`Event`] and takes
/// the host's decisions as orders, each sent at the protocol's step.
pub trait NoteAcceptor: Send {
    /// The device's line at `port`, opened as the protocol wants it (an
    /// absent port, or one that is not a serial line, named).
    fn open(&self, port: &Path) -> Result<SerialLine, LineError>;
    /// One poll over `line`: the command due sent, the answer read; what
    /// it said.
    fn poll(&mut self, line: &mut SerialLine) -> std::io::Result<Vec<Event>>;
    /// The line itself failed: an answer that did not come, said as such.
    fn line_failed(&mut self, why: &str) -> Vec<Event>;
    /// Whether a command waits to be sent (the next poll need not wait
    /// for the poll period).
    fn has_commands(&self) -> bool;
    /// The note codes the host takes; the acceptor refuses every other.
    fn take_only(&mut self, codes: &[u8]);
    /// Notes taken (`true`) or none.
    fn enable(&mut self, on: bool);
    /// Keep what is in escrow (the floor is deciding on a ticket).
    fn hold(&mut self);
    /// The host's decision on the escrow: stack it (journaled first).
    fn stack(&mut self);
    /// The host's decision on the escrow: give it back.
    fn give_back(&mut self);
    /// The host committed the credit of the note past its point of return.
    fn credited(&mut self);
    /// The host committed where the acceptor said at power-up the note was.
    fn power_up_settled(&mut self);
    /// Start the acceptor over (the attendant cleared a fault).
    fn reset(&mut self);
}
