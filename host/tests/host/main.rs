//! The host's integration tests, headless on real SQLite files, in one test
//! binary (one link of the host, not four): commands, progressives, the
//! player's session rules, card rounds.
#![allow(clippy::unwrap_used)]

#[path = "../../../tests/support/swtpm.rs"]
mod swtpm;
#[path = "../../../tests/support/test_config.rs"]
mod test_config;

mod acceptor;
mod baccarat_rounds;
mod bingo_rounds;
mod blackjack_rounds;
mod card_rounds;
mod cascade_rounds;
mod commands;
mod craps_rounds;
mod desafio_rounds;
mod device_end;
mod dice_rounds;
mod hold_grand;
mod hold_rounds;
mod overlays;
mod panel;
mod poquer_3_rounds;
mod printer;
mod production;
mod progressives;
mod reel_rounds;
mod roulette_rounds;
mod session_rules;
mod software_log;
mod tables;
mod variants;
mod wheel_rounds;
