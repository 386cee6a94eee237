//! JCM's ID-003 protocol for note and ticket acceptors (issue 70): a
//! serial line at 9600 baud, 8 data bits, even parity, one stop bit; the
//! cabinet (the controller) polls, the acceptor answers each frame with a
//! status or an echo.
//!
//! * [`frame`]: the frame on the wire (SYNC 0xFC, length, command or
//!   status, data, CRC-16/KERMIT) and its checked reading;
//! * [`message`]: what the frames say — the controller's commands and
//!   settings, the acceptor's statuses with their data (the escrowed
//!   denomination or ticket, the reason a note was rejected, the fault);
//! * [`driver`]: the cabinet's side, poll by poll, as events for the host
//!   (which alone decides stack or return and commits the credit);
//! * [`emulator`]: an acceptor in software, for the driver's tests and the
//!   pty emulator;
//! * [`port`]: one poll over the serial line ([`crate::serial`]).
//!
//! The table of codes is written here in the project's own words from the
//! protocol's public descriptions; nothing is copied from an
//! implementation.

pub mod driver;
pub mod emulator;
pub mod frame;
pub mod message;
pub mod port;

pub use driver::{Acceptor, Event, NoteAt};
pub use emulator::Emulator;
pub use frame::{Frame, FrameError, SYNC};
pub use message::{Command, Denomination, MessageError, RejectReason, Status};
