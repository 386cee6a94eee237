//! # sas — the EGM side of SAS 6.02 (issue 48; certification item H-54)
//!
//! Owns what a floor's slot management system reads from the cabinet over
//! its serial line: the wire's byte grammar with the wake-up bit
//! ([`wire`]), the CRC every long poll carries ([`crc`]), the packed BCD
//! of meters and amounts ([`bcd`]) and the frames a host sends
//! ([`frame`]), the implied acknowledgements and the resend of a repeated
//! poll's reply ([`link`]), the general poll's exceptions
//! ([`exceptions`]), the meter long polls ([`meters`]) and the identity,
//! game, clock and denomination polls ([`identity`], [`codes`]) from the
//! host's [`snapshot`], LP 21's ROM [`signature`], tickets in
//! ([`tickets`]) and the floor's ticket settings ([`ticket_data`]) and out ([`cashout`], system [`validation`]), AFT
//! ([`aft`]) and its [`registration`], progressive broadcasts ([`progressive`]), put together as one port's EGM end ([`egm`]), run on a
//! thread of its own ([`port`], raised to real time where allowed:
//! [`scheduling`]) over a UART or a pty ([`transport`], opened by `peripherals::serial`).
//! `../shared/spec/sas.md` is the digest it follows; a point
//! the digest marks [R] is named where it is decided.
//!
//! It must never: decide or move money by itself (money moves only
//! through the host's `Session`, committed in critical memory first),
//! read critical memory or wait on a round, the renderer or a lock the
//! game holds while it answers a poll (it answers from a snapshot the host
//! publishes after every commit), or reply to a poll that is not its own.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod aft;
pub mod bcd;
pub mod cashout;
pub mod codes;
pub mod crc;
pub mod egm;
pub mod exceptions;
pub mod frame;
pub mod host;
pub mod identity;
pub mod link;
pub mod meters;
pub mod port;
pub mod progressive;
pub mod registration;
pub mod scheduling;
pub mod signature;
pub mod snapshot;
pub mod ticket_data;
pub mod tickets;
pub mod transport;
pub mod validation;
pub mod wire;
