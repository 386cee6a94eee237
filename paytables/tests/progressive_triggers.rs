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

/// Issue 69: the odds an approval weighs a level by, at every bet, equal
/// an independent walk of the whole cycle judged by game-core's own
/// `spin_hits` (what the controller's service judges a claim by): one
/// cherry anywhere on the line (any bet) and three sevens at the largest
/// bet only.
#[test]
fn trigger_odds_equal_the_cycle_walked_with_spin_hits_at_every_bet() {
    use game_core::progressive::spin_hits;
    use num_bigint::BigInt;
    use num_rational::BigRational;
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables/classic-sevens.ron");
    let game = paytables::load(&p).unwrap();
    let cherry = Trigger::ReelCombination { symbol: "CH".into(), count: 1, max_bet_only: false };
    let sevens = Trigger::ReelCombination { symbol: "7".into(), count: 3, max_bet_only: true };
    for trigger in [cherry, sevens] {
        let odds = paytables::trigger_odds::trigger_odds(&game, &trigger).unwrap();
        assert_eq!(odds.len(), game.bet.lines.len() * game.bet.credits_per_line.len());
        for o in &odds {
            let bet = Bet { lines: o.lines, credits_per_line: o.credits_per_line };
            let (mut hits, mut cycle) = (0u128, 0u128);
            for a in 0..game.reels[0].len() {
                for b in 0..game.reels[1].len() {
                    for c in 0..game.reels[2].len() {
                        let w = u128::from(game.reels[0].weight(a)) * u128::from(game.reels[1].weight(b)) * u128::from(game.reels[2].weight(c));
                        cycle += w;
                        if w > 0 && spin_hits(&game, bet, &game.evaluate(&[a as u32, b as u32, c as u32], bet, false), &trigger) {
                            hits += w;
                        }
                    }
                }
            }
            let walked = BigRational::new(BigInt::from(hits), BigInt::from(cycle));
            assert_eq!(o.probability, walked, "{trigger:?} at {bet:?}");
            assert!(o.exact);
        }
        // The cherry comes about once in 10.6 rounds at every bet; the
        // sevens only at the largest bet.
        let first = &odds[0].probability;
        if matches!(trigger, Trigger::ReelCombination { max_bet_only: false, .. }) {
            let one_in = (BigRational::from_integer(BigInt::from(1)) / first).to_integer();
            assert_eq!(one_in, BigInt::from(10));
            assert!(odds.iter().all(|o| &o.probability == first));
        } else {
            assert!(odds.iter().filter(|o| o.credits_per_line < 3).all(|o| o.probability == BigRational::from_integer(BigInt::from(0))));
            assert!(odds.iter().any(|o| o.probability > BigRational::from_integer(BigInt::from(0))));
        }
    }
}
