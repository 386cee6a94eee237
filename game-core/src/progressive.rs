//! Progressive triggers (M-18, issue 6): which outcomes of which games win
//! a progressive level. The pools themselves (values, contributions,
//! awards) belong to the core (`meters::progressive`, `linked_controller`);
//! a game only says "this committed outcome hits level N", and the core
//! pays the level's value in the round's settlement.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::draw_poker::{DrawPokerGame, Pattern};
use crate::poker::Category;
use crate::reels::{Bet, HoldAndSpin, ReelGame, ReelRound, Spin, SymbolId};
use crate::stud_poker::JackpotRule;

/// What wins a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// `count` of `symbol` in a row from the first reel on a played line,
    /// with wilds substituting (the line's own pay), in the base game, at
    /// the largest bet per line the game offers when `max_bet_only`.
    ReelCombination { symbol: String, count: u8, max_bet_only: bool },
    /// The final hand is paid as this draw-poker pattern, at the most
    /// coins when `max_coins_only` (the classic "royal flush on max bet").
    PokerHand { pattern: Pattern, max_coins_only: bool },
    /// Póquer sem descarte's side bet: the royal flush takes 100% of the
    /// pool, the straight flush 10% (SP-18), when greater than the fixed sum.
    StudSideBet,
    /// Bingo: a full card within this many balls (B-9 to B-13).
    BingoWithin { balls: u8 },
    /// The hold-and-spin's grand (issue 50): a grand pearl held or a full
    /// screen, in a game whose paytable pays its grand from a progressive
    /// (`grand_progressive`), at the largest bet per line the game offers
    /// when `max_bet_only`. The paytable counts the grand at its fixed
    /// value; whatever pays it pays at least that ([`Trigger::pays_at_least_fixed`]).
    HoldAndSpinGrand { max_bet_only: bool },
}

impl Trigger {
    /// Whether a level this trigger wins pays at least the fixed sum the
    /// paytable counts for the win (the hold-and-spin's progressive grand:
    /// the game's exact RTP counts it at its fixed value, so no pool, or
    /// no pool's share, may pay less; the host tops a smaller award up).
    pub fn pays_at_least_fixed(&self) -> bool {
        matches!(self, Trigger::HoldAndSpinGrand { .. })
    }
}

/// Whether a reel round hits the trigger.
pub fn reels_hit(game: &ReelGame, round: &ReelRound, trigger: &Trigger) -> bool {
    spin_hits(game, round.bet, &round.base, trigger) || hold_grand_hits(game, round.bet, round.hold.as_ref(), trigger)
}

/// Whether a base spin at `bet` hits the trigger: a line (or ways, issue
/// 50) win of the trigger's symbol, as the game itself pays it (a line of wilds alone is
/// the wild's own win, never the trigger's symbol), at least `count` long.
/// The linked controller's service judges a claim by this same call.
pub fn spin_hits(game: &ReelGame, bet: Bet, spin: &Spin, trigger: &Trigger) -> bool {
    let Trigger::ReelCombination { symbol, count, .. } = trigger else { return false };
    if !reels_eligible(game, bet, trigger) {
        return false;
    }
    let Some(sym) = game.symbols.iter().position(|s| &s.id == symbol).map(|i| i as SymbolId) else { return false };
    spin.line_wins.iter().any(|w| w.symbol == sym && w.count >= *count) || spin.way_wins.iter().any(|w| w.symbol == sym && w.count >= *count)
}

/// Whether a reel round at `bet` can win what `trigger` wins (G-50): the
/// largest bet per line where the trigger asks for it, and a grand only in
/// a game whose paytable pays its grand from a progressive. The HUD marks a
/// level the bet standing cannot win by this call; [`spin_hits`] and
/// [`hold_grand_hits`] judge every round by it.
pub fn reels_eligible(game: &ReelGame, bet: Bet, trigger: &Trigger) -> bool {
    match trigger {
        Trigger::ReelCombination { max_bet_only, .. } => !max_bet_only || at_max_bet(game, bet),
        Trigger::HoldAndSpinGrand { max_bet_only } => {
            game.hold_and_spin.as_ref().is_some_and(|h| h.grand_progressive) && (!max_bet_only || at_max_bet(game, bet))
        }
        Trigger::PokerHand { .. } | Trigger::StudSideBet | Trigger::BingoWithin { .. } => false,
    }
}

/// Whether a draw-poker round of `coins` per hand can win what `trigger`
/// wins (G-50): the most coins where the trigger asks for them. The HUD
/// marks a level by this call; [`draw_hit`] judges every hand by it.
pub fn draw_eligible(game: &DrawPokerGame, coins: u32, trigger: &Trigger) -> bool {
    matches!(trigger, Trigger::PokerHand { max_coins_only, .. } if !max_coins_only || coins >= game.max_coins())
}

/// Whether `bet` is at the largest credits per line the game offers.
fn at_max_bet(game: &ReelGame, bet: Bet) -> bool {
    bet.credits_per_line >= game.bet.credits_per_line.iter().copied().max().unwrap_or(0)
}

/// Whether a round's hold-and-spin won the grand in a game whose grand is
/// a progressive (issue 50): a grand pearl held, or a full screen. The
/// linked controller's service judges a claim by this same call, on the
/// round it draws again from the revealed key.
pub fn hold_grand_hits(game: &ReelGame, bet: Bet, hold: Option<&HoldAndSpin>, trigger: &Trigger) -> bool {
    matches!(trigger, Trigger::HoldAndSpinGrand { .. }) && reels_eligible(game, bet, trigger) && hold.is_some_and(|h| h.grands() > 0)
}

/// Whether a draw-poker final hand hits the trigger.
pub fn draw_hit(game: &DrawPokerGame, hand: &[Card; 5], coins: u32, trigger: &Trigger) -> bool {
    let Trigger::PokerHand { pattern, .. } = trigger else { return false };
    if !draw_eligible(game, coins, trigger) {
        return false;
    }
    game.evaluate(hand).is_some_and(|e| game.entries[e].pattern == *pattern)
}

/// Whether a bingo card hits the "within N balls" trigger (B-9 to B-13):
/// `covered_at` is the number of balls drawn when the card's last number
/// came (None: the card was not covered by the end of the draw).
pub fn bingo_hit(covered_at: Option<u8>, trigger: &Trigger) -> bool {
    let Trigger::BingoWithin { balls } = trigger else { return false };
    covered_at.is_some_and(|n| n <= *balls)
}

/// The share of the pool a stud side bet takes for the player's hand, in
/// cents of a pool holding `pool` (the rest of the award, if any, is the
/// fixed sum the game pays).
pub fn stud_pool_share(rule: &JackpotRule, category: Category, pool: u64) -> u64 {
    rule.award(category, pool).from_pool
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_hand;
    use crate::draw_poker::tests::jacks_or_better;

    #[test]
    fn royal_flush_on_max_coins_triggers() {
        let g = jacks_or_better();
        let t = Trigger::PokerHand { pattern: Pattern::RoyalFlush, max_coins_only: true };
        let royal = parse_hand(&["Ts Js Qs Ks As".to_owned()]).unwrap();
        let sf = parse_hand(&["9s Ts Js Qs Ks".to_owned()]).unwrap();
        assert!(draw_hit(&g, &royal, 5, &t));
        assert!(!draw_hit(&g, &royal, 4, &t), "only on the maximum bet");
        assert!(!draw_hit(&g, &sf, 5, &t));
        assert!(!draw_hit(&g, &royal, 5, &Trigger::StudSideBet));
    }

    /// G-50: a level asking for the most coins is marked out of reach at
    /// any fewer, and the hand that would win it at the most does not win
    /// it there (one call decides both).
    #[test]
    fn a_draw_level_is_in_reach_only_at_the_coins_it_asks() {
        let g = jacks_or_better();
        let royal = parse_hand(&["Ts Js Qs Ks As".to_owned()]).unwrap();
        let at_max = Trigger::PokerHand { pattern: Pattern::RoyalFlush, max_coins_only: true };
        let any = Trigger::PokerHand { pattern: Pattern::RoyalFlush, max_coins_only: false };
        assert_eq!(g.max_coins(), 5);
        for coins in 1..=5 {
            assert_eq!(draw_eligible(&g, coins, &at_max), coins == 5, "{coins} coins");
            assert_eq!(draw_hit(&g, &royal, coins, &at_max), coins == 5, "{coins} coins");
            assert!(draw_eligible(&g, coins, &any), "{coins} coins");
        }
        assert!(!draw_eligible(&g, 5, &Trigger::BingoWithin { balls: 40 }), "a bingo trigger is never a draw game's");
    }

    /// G-50 for reels: the largest credits per line, and a hold-and-spin
    /// grand only where the paytable pools it.
    #[test]
    fn a_reel_level_is_in_reach_only_at_the_bet_it_asks() {
        let mut g = crate::reels::ways::tests::game();
        g.bet.credits_per_line = vec![1, 2, 5];
        let max = Trigger::ReelCombination { symbol: "A".into(), count: 3, max_bet_only: true };
        let any = Trigger::ReelCombination { symbol: "A".into(), count: 3, max_bet_only: false };
        for (cpl, reach) in [(1, false), (2, false), (5, true)] {
            let bet = Bet { lines: 10, credits_per_line: cpl };
            assert_eq!(reels_eligible(&g, bet, &max), reach, "{cpl} per line");
            assert!(reels_eligible(&g, bet, &any), "{cpl} per line");
            assert!(!reels_eligible(&g, bet, &Trigger::HoldAndSpinGrand { max_bet_only: false }), "no hold-and-spin, no grand");
            assert!(!reels_eligible(&g, bet, &Trigger::StudSideBet));
        }
    }

    #[test]
    fn bingo_within_n_balls_counts_the_nth_ball_in() {
        let t = Trigger::BingoWithin { balls: 40 };
        assert!(bingo_hit(Some(24), &t));
        assert!(bingo_hit(Some(40), &t), "the 40th ball is within 40");
        assert!(!bingo_hit(Some(41), &t));
        assert!(!bingo_hit(None, &t), "a card never covered wins nothing");
        assert!(!bingo_hit(Some(24), &Trigger::StudSideBet));
    }

    #[test]
    fn stud_side_bet_takes_the_whole_pool_or_a_tenth() {
        let j = JackpotRule {
            bet_credits: 1,
            royal_fixed: 0,
            straight_flush_fixed: 500,
            four_of_a_kind: 100,
            full_house: 75,
            flush: 50,
            start_value_credits: 10_000,
            pays_on_fold: true,
        };
        assert_eq!(stud_pool_share(&j, Category::RoyalFlush, 12_345), 12_345);
        assert_eq!(stud_pool_share(&j, Category::StraightFlush, 12_345), 1_234);
        assert_eq!(stud_pool_share(&j, Category::StraightFlush, 4_000), 0, "the fixed sum is greater");
        assert_eq!(stud_pool_share(&j, Category::FourOfAKind, 12_345), 0);
    }
}
