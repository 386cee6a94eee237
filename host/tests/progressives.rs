//! The host's progressives for every kind of game (issue 11): a standalone
//! pool on draw poker, won by the final hand the round committed (M-18),
//! paid with the round's settlement (M-21), headless on a real SQLite file.
#![allow(clippy::unwrap_used)]

#[path = "../../tests/support/test_config.rs"]
mod test_config;

use game_core::poker::{Category, evaluate};
use game_host::boot::{BootOptions, boot};
use game_host::kinds::draw_poker::DrawRecord;
use meters::RecallOutcome;

/// The embedded configuration with a pool on Jacks or Better whose level
/// is won by two pair (common enough to hit in a short run).
fn config(dir: &std::path::Path) -> std::path::PathBuf {
    test_config::config(
        dir,
        "        (
            pool: (id: \"poker\", games: [\"jacks-or-better-9-6\"], min_wager: 1,
                   levels: [(name: \"Póquer\", start_value: 2000, reset_value: 1500, increment_ppm: 20000,
                             reserve_ppm: 0, ceiling: None, mystery: false)]),
            triggers: [(0, PokerHand(pattern: TwoPair, max_coins_only: false))],
        ),
",
    )
}

#[test]
fn a_draw_poker_hand_wins_its_progressive_level_with_the_round() {
    let dir = tempfile::tempdir().unwrap();
    let options = BootOptions { config: config(dir.path()), db: dir.path().join("egm.sqlite"), lab_seed: Some(5), demo: false };
    let mut s = boot(&options).unwrap();
    let jacks = s.games().iter().position(|g| g.id() == "jacks-or-better-9-6").unwrap();
    s.choose_game(jacks);
    s.insert_note(5_000);
    const ROUNDS: u64 = 120;
    for _ in 0..ROUNDS {
        assert!(s.play(), "deal refused: {:?}", s.message_text());
        s.play(); // draw, holding nothing
        if s.in_round() {
            s.collect(); // a win offered the double-up: take it
        }
        assert!(!s.in_round());
    }
    let rounds = s.machine().recall(ROUNDS).unwrap();
    assert_eq!(rounds.len() as u64, ROUNDS);
    let (mut hits, mut awarded) = (0u64, 0u64);
    for r in &rounds {
        let draw: DrawRecord = serde_json::from_value(r.steps[1].step.data.clone()).unwrap();
        // An independent reading of the final hand: the plain evaluator.
        let two_pair = evaluate(&draw.hand).category() == Category::TwoPair;
        let RecallOutcome::Settled { win, components, .. } = &r.outcome else { panic!("round {} not settled", r.round) };
        let award: u64 = components.iter().filter(|c| c.label.starts_with("progressive poker")).map(|c| c.amount).sum();
        assert_eq!(award > 0, two_pair, "round {}: {:?} → {:?}", r.round, draw.hand, components);
        assert_eq!(*win, draw.win * r.denom + award, "round {}", r.round);
        hits += u64::from(two_pair);
        awarded += award;
    }
    assert!(hits >= 2, "the run must exercise the award ({hits} hits)");
    // The pool's own meters agree with the rounds, award for award.
    let level = &s.machine().pools()["poker"].levels[0];
    assert_eq!((level.hits, level.won), (hits, awarded));
    // Every wager contributed 2% (5 coins of 1 cent each round).
    assert_eq!(level.contributed_micro, u128::from(ROUNDS) * 5 * 20_000);
}
