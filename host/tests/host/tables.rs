//! What the round tests share: a session booted in lab mode on a
//! configuration, and a game chosen by its id through the player's command.

use crate::test_config;

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::session::Session;

/// A session on the shipped configuration (no progressives), its database
/// in `dir`, the lab RNG seeded with `seed`.
pub fn open(dir: &std::path::Path, seed: u64) -> Session {
    let config = test_config::config(dir, "");
    open_with(dir, &config, seed)
}

/// A session on the configuration file `config`.
pub fn open_with(dir: &std::path::Path, config: &std::path::Path, seed: u64) -> Session {
    boot(&BootOptions { config: config.to_owned(), db: dir.join("egm.sqlite"), lab_seed: Some(seed), demo: false }).unwrap()
}

/// Chooses the game `id`, as the game menu does.
pub fn select(s: &mut Session, id: &str) {
    let index = s.games().iter().position(|g| g.id() == id).unwrap_or_else(|| panic!("{id} is not hosted"));
    assert!(s.command(Command::SelectGame { index }), "{id} could not be chosen");
}
