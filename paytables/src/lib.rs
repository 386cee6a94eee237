//! # paytables — the paytable format and compiler
//!
//! Owns what a game designer writes (RON paytables, [`format`]), its
//! validation with errors that name the file and line ([`compile`]), the
//! exact mathematics over the full game cycle ([`reel_math`]; poker and
//! roulette, the dice, baccarat and blackjack in their own modules), the PAR
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
pub mod floor;

// The compiler (feature `compiler`, on by default): the designers' tools
// and the tests use it; the host and the cabinet link only the artifact
// loader and the floor.
#[cfg(feature = "compiler")]
pub mod baccarat;
#[cfg(feature = "compiler")]
pub mod bingo;
#[cfg(feature = "compiler")]
pub mod blackjack;
#[cfg(feature = "compiler")]
pub mod boule;
/// The checks of a cascade rule (issue 50).
#[cfg(feature = "compiler")]
mod cascade_check;
/// The exact mathematics of a cascade game: its full cycle walked (issue 50).
#[cfg(feature = "compiler")]
pub mod cascade_math;
#[cfg(feature = "compiler")]
pub mod check;
#[cfg(feature = "compiler")]
pub mod compile;
#[cfg(feature = "compiler")]
pub mod craps;
#[cfg(feature = "compiler")]
pub mod desafio_ao_casino;
#[cfg(feature = "compiler")]
pub mod dice;
#[cfg(feature = "compiler")]
pub mod draw_check;
#[cfg(feature = "compiler")]
pub mod draw_math;
#[cfg(feature = "compiler")]
mod draw_sequence;
#[cfg(feature = "compiler")]
pub mod error;
#[cfg(feature = "compiler")]
pub mod fantan;
/// Live-game fidelity of the symbols drawn (certification.md B-18).
#[cfg(feature = "compiler")]
pub mod fidelity;
#[cfg(feature = "compiler")]
pub mod fish_prawn_crab;
#[cfg(feature = "compiler")]
pub mod format;
/// The strip generator: strips to an RTP, hit-frequency and SD target (issue 50).
#[cfg(feature = "compiler")]
pub mod generate;
/// The checks of a hold-and-spin feature (issue 50).
#[cfg(feature = "compiler")]
mod hold_check;
/// The exact mathematics of the hold-and-spin feature: a Markov chain (issue 50).
#[cfg(feature = "compiler")]
pub mod hold_math;
#[cfg(feature = "compiler")]
pub mod locate;
#[cfg(feature = "compiler")]
pub mod math_refusal;
#[cfg(feature = "par")]
pub mod par;
#[cfg(feature = "compiler")]
pub mod poker_compile;
#[cfg(feature = "compiler")]
pub mod poker_warnings;
#[cfg(feature = "compiler")]
pub mod poquer_3_cartas;
#[cfg(feature = "compiler")]
pub mod reel_counts;
#[cfg(feature = "compiler")]
pub mod reel_math;
#[cfg(feature = "compiler")]
mod reel_windows;
#[cfg(feature = "compiler")]
pub mod roda_da_sorte;
#[cfg(feature = "compiler")]
pub mod roulette;
#[cfg(feature = "compiler")]
pub mod simulate;
/// Free games with a sticky wild: a Markov chain over the filled reels (issue 50).
#[cfg(feature = "compiler")]
pub mod sticky_math;
#[cfg(feature = "compiler")]
pub mod stud_math;
#[cfg(feature = "compiler")]
pub mod subsets;
#[cfg(feature = "compiler")]
pub mod table_bet;
/// The odds of a progressive trigger at every bet (issue 69).
#[cfg(feature = "compiler")]
pub mod trigger_odds;
/// Ways games' exact mathematics by generating functions (issue 50).
#[cfg(feature = "compiler")]
pub mod ways_math;

#[cfg(feature = "compiler")]
pub use compile::{Source, compile, load, load_source};
#[cfg(feature = "compiler")]
pub use error::PaytableError;
