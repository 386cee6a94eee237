//! # peripherals — the cabinet's money hardware (issue 70)
//!
//! Owns the protocols of the devices money passes through, each behind a
//! trait per device kind so that a second protocol slots in beside the
//! first: the note and ticket acceptor ([`acceptor::NoteAcceptor`]; JCM's
//! ID-003 over a serial line, [`id003`]), the ticket printer
//! ([`printer::TicketPrinter`]; the TCL command language, [`tcl`]), and
//! the doors' switches, the attendant key, the button deck's lamps and the
//! tower light ([`panel::InputSource`], [`panel::Lamps`]; through Linux's
//! evdev and LED class). The host holds each driver as its trait, chosen
//! by the protocol the cabinet's configuration names. It also owns how
//! the cabinet opens a serial line ([`serial`]), the devices' and the SAS
//! port's alike.
//!
//! It must never: move money or decide a credit (it reports what a device
//! says, step by step; the host commits through the core, once, at the
//! protocol step the core's rules name), keep critical memory, depend on a
//! renderer, guess past a frame it cannot read (a bad frame is an error
//! that names it, and no step is taken on it), or contain `unsafe` code.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod acceptor;
mod far_end;
pub mod id003;
pub mod panel;
pub mod printer;
pub mod serial;
pub mod tcl;
