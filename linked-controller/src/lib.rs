//! # linked-controller — linked progressive pools (M-19: machines of one or several casinos) on a
//! progressive controller: a PostgreSQL database every cabinet of the pool
//! talks to.
//!
//! Exactly once, by construction:
//! - a contribution is keyed by (machine, round, pool): the cabinet journals
//!   it with its wager (the outbox, [`meters::Machine::linked_pending`]) and
//!   sends it until the controller acknowledges it; a repeat is ignored;
//! - an award is keyed by (machine, round, pool, level, nth): the controller
//!   takes the level's whole value under a row lock and restarts it at its
//!   reset value, in one transaction; asking again returns the same amount,
//!   so a cabinet killed before it journaled the award gets it on restart;
//!   two cabinets hitting one level at once serialise on the lock: one gets
//!   the full value, the next the reset value (plus what came in between).
//!
//! Values are kept in millionths of a cent, like the standalone pools. A
//! level may keep a hidden reserve share of each wager and a ceiling whose
//! overflow goes to the reserve; after an award the level restarts at its
//! reset value, from the reserve first, then from the operator.
//!
//! M-22: every award's transaction notifies the channel [`CHANNEL`] with
//! the pool's id; a cabinet's [`Listener`] wakes on it and fetches the
//! award and the new values, so every machine of the pool shows them at
//! once. Contributions do not notify (a NOTIFY per wager cost a third of
//! the controller's throughput); the growing values come with the
//! cabinet's heartbeat (it asks for the levels every second). After 5
//! seconds without an answer the link is unavailable and
//! progressive-eligible bets stop ([`Link::available`]) until it answers.
//!
//! It owns the controller's schema and calls, a cabinet's link to it and
//! the M-22 listener. It must never: write a cabinet's critical memory other
//! than through `meters::Machine`, or be linked into the certified core.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod controller;
mod link;
mod listener;

pub use controller::{CHANNEL, Controller, LINK_TIMEOUT, LinkError, LinkedAward, LinkedBooks, LinkedLevel, MachineAccount, SCHEMA};
pub use link::{Link, deliver_outbox};
pub use listener::Listener;
