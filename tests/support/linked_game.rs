//! The reel game the linked-pool tests' cabinets play, as the controller
//! checks their claims (issue 35, attack 1; issue 46: on its paytable):
//! one reel of 1,000 stops in one row and one line; stops 0 and 1 show G
//! (the Grande, level 0), 2 to 21 show M (the Mini, level 1), the rest a
//! blank; G and M each pay 1 for one. A bet is one line of one credit at
//! a denomination of `wager` cents.

#![allow(dead_code)]

use std::collections::BTreeMap;

use game_core::reels::{BetRules, ReelGame, Strip, Symbol, SymbolKind};
use linked_controller::{ApprovedReelGame, ApprovedTrigger, ReelClaim};

pub const GAME: &str = "linked-game";

/// Awards above this wait for an attendant, in the tests that do not
/// test it: never.
pub const NEVER_CONFIRM: u64 = 1 << 40;

/// The denominations the tests' cabinets offer (the embedded defaults',
/// `assets/config/cabinet.ron`), which the operator sets at the controller
/// (issue 46: a committed round at any other is refused).
pub const CABINET_DENOMINATIONS: &[u64] = &[1, 2, 5, 10, 20, 50, 100, 200];

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

/// The game's paytable.
pub fn paytable() -> ReelGame {
    let ids = ["G", "M", "-"];
    let symbols = ids.iter().map(|id| Symbol { id: (*id).into(), name: (*id).into(), kind: SymbolKind::Regular }).collect();
    let strip = (0..1_000).map(|s| ids.iter().position(|id| *id == symbol(s)).unwrap_or(2) as game_core::reels::SymbolId).collect();
    ReelGame {
        id: GAME.into(),
        name: GAME.into(),
        symbols,
        rows: 1,
        reel_rows: vec![],
        reels: vec![Strip { symbols: strip, weights: None }],
        lines: vec![vec![0]],
        pays: vec![vec![0, 1], vec![0, 1], vec![0, 0]],
        scatter: None,
        bet: BetRules { lines: vec![1], credits_per_line: vec![1] },
        double_up: None,
        wild_only_multiplied: false,
        ways: false,
        wild_multipliers: game_core::reels::WildMultipliers::Multiply,
        variant_of: None,
        hold_and_spin: None,
        cascade: None,
    }
}

pub fn games() -> BTreeMap<String, ApprovedReelGame> {
    BTreeMap::from([(GAME.to_owned(), ApprovedReelGame::of(&paytable()))])
}

pub fn triggers() -> Vec<ApprovedTrigger> {
    vec![
        ApprovedTrigger { level: 0, symbol: "G".into(), count: 1, max_bet_only: false, hold_and_spin_grand: false },
        ApprovedTrigger { level: 1, symbol: "M".into(), count: 1, max_bet_only: false, hold_and_spin_grand: false },
    ]
}

/// The claim of a round that stopped at `stop` with a wager of `wager` cents.
pub fn claim_at(stop: u32, wager: u64) -> String {
    serde_json::to_string(&ReelClaim { game: GAME.into(), stops: vec![stop], lines: 1, credits_per_line: 1, denom: wager, hold: None }).unwrap_or_default()
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
