//! Reel rules checked by hand (M-13, M-14, M-5) and the simulation fast
//! path checked against the production round, draw for draw.
#![allow(clippy::unwrap_used)]

use game_core::reels::{Bet, BetRules, FastReels, FreeGamesRule, ReelGame, ScatterRule, StopTables, Strip, Symbol, SymbolKind};
use meters::StreamRng;

/// Symbols: 0 A, 1 B, 2 W (wild ×2), 3 S (scatter).
fn game() -> ReelGame {
    let sym = |id: &str, kind| Symbol { id: id.into(), name: id.into(), kind };
    let strip = |v: Vec<u8>| Strip { symbols: v, weights: None };
    let mut pays = vec![vec![0u64; 6]; 4];
    pays[0][3] = 5;
    pays[0][4] = 20;
    pays[0][5] = 100;
    pays[1][2] = 1;
    pays[1][3] = 10;
    pays[2][3] = 50; // three wilds on their own
    pays[2][5] = 1000;
    ReelGame {
        id: "t".into(),
        name: "t".into(),
        symbols: vec![
            sym("A", SymbolKind::Regular),
            sym("B", SymbolKind::Regular),
            sym("W", SymbolKind::Wild { multiplier: 2, expanding: false, substitutes: None, sticky: false }),
            sym("S", SymbolKind::Scatter),
        ],
        rows: 3,
        reel_rows: vec![],
        reels: vec![
            strip(vec![0, 1, 2, 3, 0, 1, 0, 1]),
            strip(vec![1, 0, 2, 0, 1, 3, 0, 1]),
            strip(vec![0, 2, 1, 0, 3, 1, 1, 0]),
            strip(vec![2, 0, 1, 3, 0, 1, 0, 1]),
            strip(vec![0, 1, 0, 2, 1, 3, 0, 1]),
        ],
        lines: vec![vec![1; 5], vec![0; 5], vec![2; 5], vec![0, 1, 2, 1, 0]],
        pays,
        scatter: Some(ScatterRule {
            symbol: 3,
            pays: vec![0, 0, 0, 2, 10, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            free_games: Some(FreeGamesRule { awards: vec![0, 0, 0, 3, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], multiplier: 2, retrigger: true, reels: None }),
        }),
        bet: BetRules { lines: vec![1, 4], credits_per_line: vec![1, 5] },
        double_up: None,
        wild_only_multiplied: false,
        ways: false,
        wild_multipliers: game_core::reels::WildMultipliers::Multiply,
        variant_of: None,
        hold_and_spin: None,
        cascade: None,
    }
}

#[test]
fn the_highest_win_per_line_is_paid_m13() {
    let g = game();
    // Three wilds then A A: 5 × A with a wild (100 × 2 = 200) beats 3 wilds (50).
    let p = g.line_pay(&[2, 2, 2, 0, 0]).unwrap();
    assert_eq!((p.symbol, p.count, p.wild, p.pay), (0, 5, true, 200));
    // Three wilds then B: 4 × B pays nothing (no 4-B pay), 3 wilds pay 50.
    let p = g.line_pay(&[2, 2, 2, 1, 0]).unwrap();
    assert_eq!((p.symbol, p.count, p.pay), (2, 3, 50));
    // No wild: plain run, no multiplier.
    let p = g.line_pay(&[0, 0, 0, 1, 0]).unwrap();
    assert_eq!((p.symbol, p.count, p.wild, p.pay), (0, 3, false, 5));
    // A wild inside the run doubles it.
    let p = g.line_pay(&[0, 2, 0, 0, 1]).unwrap();
    assert_eq!((p.count, p.wild, p.pay), (4, true, 40));
    // A scatter breaks a line; runs never start after the first reel.
    assert_eq!(g.line_pay(&[3, 0, 0, 0, 0]), None);
    assert_eq!(g.line_pay(&[0, 3, 0, 0, 0]), None);
    assert_eq!(g.line_pay(&[1, 0, 0, 0, 0]), None);
    // Two B pay 1.
    assert_eq!(g.line_pay(&[1, 1, 0, 0, 0]).unwrap().pay, 1);
    // Five wilds pay their own top award.
    assert_eq!(g.line_pay(&[2, 2, 2, 2, 2]).unwrap().pay, 1000);
}

#[test]
fn line_wins_are_summed_and_scatters_pay_on_the_total_bet_m14() {
    let g = game();
    // Stops chosen so that the middle row reads A A A A A? Find one by search.
    let bet = Bet { lines: 4, credits_per_line: 5 };
    let mut found = false;
    for a in 0..8u32 {
        for b in 0..8u32 {
            let stops = [a, b, 0, 4, 0];
            let spin = g.evaluate(&stops, bet, false);
            let lines: u64 = spin.line_wins.iter().map(|w| w.win).sum();
            let expect_lines: u64 = (0..4).map(|l| g.line_pay(&g.line_symbols(&stops, l, false)).map_or(0, |p| p.pay * 5)).sum();
            assert_eq!(lines, expect_lines);
            let expect_scatter = g.scatter.as_ref().unwrap().pays[spin.scatter_count as usize] * bet.total_credits();
            assert_eq!(spin.scatter_win, expect_scatter);
            assert_eq!(spin.win, lines + expect_scatter);
            found |= spin.line_wins.len() >= 2;
        }
    }
    assert!(found, "no stop combination with two winning lines was tried");
}

#[test]
fn bets_outside_the_paytable_are_refused() {
    let g = game();
    let tables = StopTables::new(&g).unwrap();
    let mut rng = StreamRng::from_seed(1);
    assert!(g.play(&tables, &mut rng, Bet { lines: 3, credits_per_line: 1 }).is_err());
    assert!(g.play(&tables, &mut rng, Bet { lines: 4, credits_per_line: 2 }).is_err());
}

/// The simulation path gives, for the same stream, exactly the win of
/// every round the production path gives — free games and retriggers included.
fn fast_equals_play(g: &ReelGame, lines: u32, rounds: usize) {
    let tables = StopTables::new(g).unwrap();
    let fast = FastReels::new(g, &tables);
    let mut a = StreamRng::from_seed(11);
    let mut b = StreamRng::from_seed(11);
    let mut free_rounds = 0;
    for i in 0..rounds {
        let round = g.play(&tables, &mut a, Bet { lines, credits_per_line: 1 }).unwrap();
        free_rounds += usize::from(!round.free_spins.is_empty());
        assert_eq!(fast.round(&mut b, lines as usize), round.win, "round {i}");
    }
    assert!(free_rounds > 0, "no free games in {rounds} rounds");
}

#[test]
fn the_fast_path_equals_the_production_round() {
    let g = game();
    fast_equals_play(&g, 4, 200_000);
    fast_equals_play(&g, 1, 50_000);
}
