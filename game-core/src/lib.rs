//! # game-core — the rules of every game
//!
//! Owns the rules of the games the cabinet hosts, as pure, deterministic
//! functions and state machines: given the draws of the core's RNG
//! ([`meters::GameRng`]) and the player's decisions, they say what happened
//! and what it pays. Reel slots live in [`reels`]; cards, poker hands,
//! draw poker, póquer sem descarte and póquer de 3 cartas in [`cards`],
//! [`poker`], [`draw_poker`], [`stud_poker`] and [`poquer_3_cartas`];
//! video roulette in [`roulette`] and
//! boule in [`boule`]; the wheel of fortune in [`roda_da_sorte`]; fantan
//! in [`fantan`];
//! banca francesa, sic bo and peixe-camarão-caranguejo in [`dice`]; punto banco in [`baccarat`];
//! blackjack in [`blackjack`]; video bingo in [`bingo`]; the fair double-up
//! in [`double_up`].
//!
//! It must never: draw randomness other than through `meters::GameRng`,
//! touch money meters or critical memory, do I/O, render, or use a float
//! in a game outcome.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod baccarat;
pub mod bingo;
pub mod blackjack;
pub mod boule;
pub mod cards;
pub mod desafio_ao_casino;
pub mod dice;
pub mod double_up;
pub mod draw_poker;
pub mod fantan;
pub mod poker;
pub mod poquer_3_cartas;
pub mod progressive;
pub mod ratio;
pub mod reels;
pub mod roda_da_sorte;
pub mod roulette;
pub mod stud_poker;
