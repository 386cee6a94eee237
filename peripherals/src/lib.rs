//! # peripherals — the cabinet's money hardware (issue 70)
//!
//! Owns the protocols of the devices money passes through, each behind a
//! trait per device kind so that a second protocol slots in beside the
//! first: the note and ticket acceptor ([`id003`], JCM's ID-003 over a
//! serial line), the ticket printer ([`tcl`], the TCL command language),
//! and the doors' switches, the attendant key, the button deck's lamps and
//! the tower light ([`panel`], through Linux's evdev and LED class).
//!
//! It must never: move money or decide a credit (it reports what a device
//! says, step by step; the host commits through the core, once, at the
//! protocol step the core's rules name), keep critical memory, depend on a
//! renderer, guess past a frame it cannot read (a bad frame is an error
//! that names it, and no step is taken on it), or contain `unsafe` code.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod far_end;
pub mod id003;
pub mod panel;
pub mod serial;
pub mod tcl;
