//! # linked-controller — linked progressive pools (M-19: machines of one or several casinos) on a
//! progressive controller: a PostgreSQL database behind the controller's
//! service, which every cabinet of the pool talks to and which trusts no
//! cabinet (issues 13, 35, 46).
//!
//! - **No cabinet inside the database** (issue 46): cabinets connect to
//!   the service ([`service`], `egm-progressive serve`) with their
//!   certificates over rustls; the service, bounded per certificate, is
//!   the only client that makes the cabinets' calls, naming the cabinet
//!   its certificate authenticated. A cabinet is a row of the books, not a
//!   login, and plays only the pools an operator assigned it.
//!
//! - **Least privilege**: the books are tables no login may read or
//!   write; the service and operators execute only their own `SECURITY
//!   DEFINER` functions (`schema.sql`).
//! - **Authenticated links**: a cabinet's to the service (`cabinet`), an
//!   operator's and the service's to the database (`tls`), each TLS with a
//!   client certificate whose CN is who it is.
//! - **Exactly once, with keys that never repeat**: a contribution is keyed
//!   by (machine, journal epoch, round, pool), the epoch a random
//!   identifier the cabinet makes at genesis and at each RAM clear
//!   ([`meters::Machine::epoch_id`]); the cabinet journals it with its
//!   wager (the outbox) and sends it until the controller answers; a repeat
//!   with the same wager is acknowledged once, with another wager refused
//!   and logged. A wager outside the pool's bounds (G-46) is refused per
//!   row and never blocks the rest of the outbox.
//! - **Awards only for real rounds and real hits**: (machine, epoch, round,
//!   pool, level), only for a round that contributed to the pool and whose
//!   committed outcome, carried by the claim, hits the level's trigger in a
//!   game the operator approved for the pool (`claim`; issue 35); above the
//!   pool's confirmation amount an award waits for an attendant (M-12); at
//!   most once per level
//!   per round, never more than the level holds; the controller takes the
//!   level's whole value under a row lock and restarts it at its reset
//!   value in one transaction, so simultaneous hits are served in the
//!   controller's order (G-49); asking again returns the same amount. A
//!   round voided after its award returns the award to the level.
//! - **Awards the controller draws again** (issue 46, `commit`): a reel
//!   round is committed (its key's SHA-256, its bet) before it is drawn;
//!   the commitment is its contribution, made with the nonce, at a bet the
//!   approved game offers and a denomination the cabinet offers; such a
//!   round is finished, never voided. A claim reveals the key.
//! - **Reconciled with each cabinet's journal** (`reconcile`): cabinets
//!   report their own meter of what they owed; a difference from the
//!   controller's books is an alarm in the operator's report.
//!
//! Values are kept in millionths of a cent, like the standalone pools. A
//! level may keep a hidden reserve share of each wager and a ceiling whose
//! overflow goes to the reserve; after an award the level restarts at its
//! reset value, from the reserve first, then from the operator.
//!
//! M-22: every award's transaction notifies the channel [`CHANNEL`] with
//! the pool's id; the service passes it on, and a cabinet's [`Listener`]
//! wakes on it and fetches the award and the new values, so every machine
//! of the pool shows them at once. Contributions do not notify (a NOTIFY per wager cost a third of
//! the controller's throughput); the growing values come with the
//! cabinet's heartbeat (it asks for the levels every second). After 5
//! seconds without an answer the link is unavailable and
//! progressive-eligible bets stop ([`Link::available`]) until it answers.
//!
//! It owns the controller's schema and calls, its service, a cabinet's link
//! to it and the M-22 listener. It must never: write a cabinet's critical
//! memory other than through `meters::Machine`, let a cabinet reach the
//! database, connect over the network without TLS and a certificate, or be
//! linked into the certified core.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod cabinet;
mod claim;
mod commit;
mod controller;
mod link;
mod listener;
mod reconcile;
pub mod service;
mod tls;

pub use cabinet::{CabinetClient, Listener};
pub use claim::{ApprovedReelGame, ApprovedTrigger, Claimed, PendingAward, ReelClaim};
pub use commit::ReelBet;
pub use controller::{
    CABINET_CONNECTIONS, CHANNEL, Controller, LINK_TIMEOUT, LinkError, LinkedAward, LinkedBooks, LinkedLevel, MachineAccount, OPERATOR_CONNECTIONS, Outcome,
    Refusal, Role, SCHEMA, SERVICE_CONNECTIONS,
};
pub use link::{Link, Outbox, deliver_outbox, journal_answer, outbox};
pub use reconcile::{CabinetMeter, FloorReconciliation, Reconciliation};
