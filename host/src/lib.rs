//! # game-host — everything between a button and the core
//!
//! Owns the catalogue of hosted games and denominations, the player session,
//! every kind of round (the whole outcome drawn and committed through
//! `meters::Machine::play_round` before anything is shown, decisions as
//! committed steps, settlement with its win components from `game-core`,
//! resume or void after a restart), double-up, standalone and linked
//! progressives, the session rules (M-35, M-38, M-39), cash-in and
//! cash-out, attendant actions, boot with verification and demo, and each
//! game's help page as text (M-40: the help screen and `paytable rules`).
//!
//! It must never: depend on a renderer (the cabinet draws what it reports),
//! draw randomness other than inside the core's draw, compute a win from
//! anything but the committed outcome and decisions, or move money other
//! than through `meters::Machine`.
#![forbid(unsafe_code)]

pub mod acceptor;
pub mod boot;
pub mod catalogue;
pub mod command;
pub mod config;
pub mod event_text;
pub mod floor;
pub mod help;
pub mod kind;
pub mod kinds;
pub mod link_worker;
pub mod linked;
pub mod names;
pub mod notice;
pub mod panel;
pub mod picture;
pub mod printer;
pub mod round;
pub mod session;
pub mod texts;
pub mod ticket_printer;
pub mod verification;
pub mod wake;
