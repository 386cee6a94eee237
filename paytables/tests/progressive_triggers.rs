//! Issue 6: a reel-combination progressive trigger fires exactly as often
//! as the exact analysis says that combination comes (an independent,
//! pruned enumeration of the whole cycle).
#![allow(clippy::unwrap_used)]

use game_core::progressive::{Trigger, reels_hit};
use game_core::reels::{Bet, ReelRound};

#[test]
fn three_sevens_trigger_with_the_exact_frequency() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables/classic-sevens.ron");
    let game = paytables::load(&p).unwrap();
    let fig = paytables::reel_math::analyse(&game).unwrap();
    let seven = game.symbols.iter().position(|s| s.id == "7").unwrap() as u8;
    let expected = fig.combo_any.get(&(seven, 3)).copied().unwrap();
    let max_cpl = *game.bet.credits_per_line.iter().max().unwrap();
    let any_bet = Trigger::ReelCombination { symbol: "7".into(), count: 3, max_bet_only: false };
    let max_only = Trigger::ReelCombination { symbol: "7".into(), count: 3, max_bet_only: true };
    let (n0, n1, n2) = (game.reels[0].len(), game.reels[1].len(), game.reels[2].len());
    let mut hits: u128 = 0;
    for a in 0..n0 {
        for b in 0..n1 {
            for c in 0..n2 {
                let w = u128::from(game.reels[0].weight(a)) * u128::from(game.reels[1].weight(b)) * u128::from(game.reels[2].weight(c));
                if w == 0 {
                    continue;
                }
                let stops = [a as u32, b as u32, c as u32];
                let low = Bet { lines: 1, credits_per_line: 1 };
                let spin = game.evaluate(&stops, low, false);
                let round = ReelRound { bet: low, base: spin.clone(), free_spins: vec![], hold: None, win: 0 };
                if reels_hit(&game, &round, &any_bet) {
                    hits += w;
                    // Not at a lower bet when the trigger needs the maximum …
                    assert!(max_cpl == 1 || !reels_hit(&game, &round, &max_only));
                    // … and at the maximum bet it fires.
                    let max = Bet { lines: 1, credits_per_line: max_cpl };
                    let round = ReelRound { bet: max, base: game.evaluate(&stops, max, false), free_spins: vec![], hold: None, win: 0 };
                    assert!(reels_hit(&game, &round, &max_only));
                }
            }
        }
    }
    assert_eq!(hits, expected);
    assert!(hits > 0);
}
