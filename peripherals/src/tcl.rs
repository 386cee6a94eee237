//! The TCL command language of casino ticket printers (issue 70; the
//! FutureLogic/JCM GEN2 to GEN5 and Nanoptix printers): ASCII commands
//! over a serial line (9,600 baud, 8N1 as shipped), the cabinet asking,
//! the printer answering each status request with its flags.
//!
//! * [`message`]: the commands and the status answer with its flags;
//! * [`ticket`]: the cash-out ticket as the printer's template lays it out;
//! * [`driver`]: the cabinet's side, poll by poll: one ticket printed once
//!   for each cash-out the core committed, through power cuts of either
//!   side (how: the driver's own documentation);
//! * [`emulator`]: a printer in software, for the driver's tests and the
//!   pty emulator;
//! * [`port`]: one poll over the serial line ([`crate::serial`]).
//!
//! Written in the project's own words from the language's public
//! descriptions; nothing is copied from an implementation.

pub mod driver;
pub mod emulator;
pub mod message;
pub mod port;
pub mod ticket;

pub use driver::{Event, PrintRefused, Printer, PrinterFault};
pub use emulator::{Emulator, Paper};
pub use message::{Command, Flag, MessageError, Print, Status};
pub use ticket::Ticket;
