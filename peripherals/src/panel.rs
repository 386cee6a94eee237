//! The cabinet's wiring beside the money devices (issue 70): the doors'
//! switches and optics and the attendant key as inputs, the button deck's
//! lamps and the tower light as outputs.
//!
//! * [`contact`]: a contact as a Linux input device reports it, a change
//!   of one, and the [`InputSource`] trait every input board sits behind;
//! * [`evdev`]: the input boards Linux offers as evdev devices (GPIO
//!   switches through `gpio-keys`, USB I/O boards), read with the state at
//!   open first, so a door open at power-up is seen;
//! * [`doors`]: each door's switch and optic read together — open when
//!   either reads open or was never read (certification.md E-37: a
//!   disconnected sensor counts as open), and an alarm when the two
//!   disagree past the time a door takes to move;
//! * [`lamps`]: lamps through the kernel's LED class (steady, or flashing
//!   by the kernel's own timer), each named, each absent one an error that
//!   names it.
//!
//! The deck's buttons reach the cabinet as keys (a button deck is a
//! keyboard to it); what a lamp or the tower light shows is the host's
//! decision, never this module's.

pub mod contact;
pub mod doors;
pub mod evdev;
pub mod lamps;

pub use contact::{Change, Contact, InputError, InputSource};
pub use doors::{DoorWiring, Doors, WiringError};
pub use evdev::EvdevInputs;
pub use lamps::{LampError, LampState, Lamps, LedClass};
