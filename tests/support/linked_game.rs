//! The reel game the linked-pool tests' cabinets play, as the controller
//! checks their claims (issue 35, attack 1): one reel of 1,000 stops in
//! one row and one line; stops 0 and 1 show G (the Grande, level 0), 2 to
//! 21 show M (the Mini, level 1), the rest a blank. A bet is one line of
//! `wager` one-cent credits.

#![allow(dead_code)]

use std::collections::BTreeMap;

use linked_controller::{ApprovedReelGame, ApprovedTrigger, ReelClaim};

pub const GAME: &str = "linked-game";

/// Awards above this wait for an attendant, in the tests that do not
/// test it: never.
pub const NEVER_CONFIRM: u64 = 1 << 40;

/// The symbol at `stop`.
pub fn symbol(stop: u32) -> &'static str {
    match stop {
        0..=1 => "G",
        2..=21 => "M",
        _ => "-",
    }
}

/// The level a stop hits, if any.
pub fn level_hit(stop: u32) -> Option<usize> {
    match symbol(stop) {
        "G" => Some(0),
        "M" => Some(1),
        _ => None,
    }
}

pub fn games() -> BTreeMap<String, ApprovedReelGame> {
    let strip = (0..1_000).map(|s| symbol(s).to_owned()).collect();
    let game = ApprovedReelGame { rows: 1, strips: vec![strip], lines: vec![vec![0]], wild: None, max_credits_per_line: 1_000_000_000 };
    BTreeMap::from([(GAME.to_owned(), game)])
}

pub fn triggers() -> Vec<ApprovedTrigger> {
    vec![
        ApprovedTrigger { level: 0, symbol: "G".into(), count: 1, max_bet_only: false },
        ApprovedTrigger { level: 1, symbol: "M".into(), count: 1, max_bet_only: false },
    ]
}

/// The claim of a round that stopped at `stop` with a wager of `wager` cents.
pub fn claim_at(stop: u32, wager: u64) -> String {
    serde_json::to_string(&ReelClaim { game: GAME.into(), stops: vec![stop], lines: 1, credits_per_line: wager, denom: 1 }).unwrap_or_default()
}

/// A claim that hits `level` (a stop showing its symbol; any level past
/// the Mini gets a blank).
pub fn hit(level: usize, wager: u64) -> String {
    claim_at(
        match level {
            0 => 0,
            1 => 2,
            _ => 500,
        },
        wager,
    )
}
