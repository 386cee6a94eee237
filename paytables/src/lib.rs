//! # paytables — the paytable format and compiler
//!
//! Owns what a game designer writes (RON paytables, [`format`]), its
//! validation with errors that name the file and line ([`compile`]), the
//! exact mathematics over the full game cycle ([`reel_math`]), the PAR
//! sheet (`par`, feature `par`), the simulation cross-check ([`simulate`]) and the
//! canonical signed artifact with its approved manifest ([`artifact`]).
//!
//! It must never: use a float for a figure it certifies (RTP, hit frequency
//! and variance are exact rationals; floats only format them), accept a
//! paytable under the RTP floor, or let game rules differ from game-core's:
//! every pay is evaluated by game-core itself.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod artifact;
pub mod check;
pub mod compile;
pub mod draw_check;
pub mod draw_math;
pub mod error;
pub mod format;
pub mod locate;
#[cfg(feature = "par")]
pub mod par;
pub mod poker_compile;
pub mod reel_math;
pub mod simulate;
pub mod stud_math;
pub mod subsets;

pub use compile::{Source, compile, load, load_source};
pub use error::PaytableError;
