//! The testable statements of card-games.md A.1 (BJ-T1 … BJ-T18), each on
//! a shoe written out card by card: the player's first card, the dealer's
//! up card, the player's second, the hole card, then the cards play draws.

use super::round::{Action::*, Outcome, Phase, Round};
use super::rules::{DealerBlackjack, DoubleOn, HoleCard, Payout, Rules, Surrender};
use super::*;
use crate::cards::Card;

fn shoe(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn round(rules: Rules, s: &str) -> Round {
    Round::deal(rules, 10, shoe(s))
}

fn seed(s: &str) -> Round {
    round(Rules::seed(), s)
}

/// The standard casino game of issue 32's published check (6D S17 peek,
/// double any two, DAS, split to 4, no surrender, 3:2), for every test
/// module of blackjack.
pub(super) fn standard() -> Rules {
    Rules {
        decks: 6,
        dealer_hits_soft_17: false,
        hole_card: HoleCard::Peek,
        double_on: DoubleOn::AnyTwo,
        double_soft_as_hard: false,
        double_after_split: true,
        split_hands: Some(4),
        resplit_aces: false,
        hit_split_aces: false,
        split_unequal_tens: false,
        surrender: None,
        blackjack_pays: Payout { win: 3, per: 2 },
        stand_from: 0,
        bonus_678_777: 0,
        insurance: true,
        even_money: true,
    }
}

fn outcomes(r: &Round) -> Vec<(Outcome, u64, u64)> {
    r.settlement().unwrap().hands.iter().map(|h| (h.outcome, h.staked, h.returned)).collect()
}

/// BJ-T2, BJ-T1: every round's shoe is a fresh shuffle of the whole shoe:
/// each of the 52 faces exactly `decks` times.
#[test]
fn bj_t1_t2_the_shoe_is_whole_and_reshuffled() {
    let game = BlackjackGame { id: "b".into(), name: "B".into(), rules: Rules { decks: 4, ..Rules::seed() }, minimum: 2, maximum_ratio: 30 };
    let mut rng = meters::rng::StreamRng::from_seed(3);
    let a = game.shuffle(&mut rng);
    let b = game.shuffle(&mut rng);
    assert_eq!(a.len(), 208);
    assert_ne!(a, b);
    let mut seen = [0u8; 52];
    a.iter().for_each(|c| seen[usize::from(c.index())] += 1);
    assert!(seen.iter().all(|&n| n == 4), "{seen:?}");
}

/// BJ-T4: player, dealer up, player, hole.
#[test]
fn bj_t4_the_deal_order() {
    let r = seed("5s 9d 6c Th 2h");
    assert_eq!(r.hands[0].cards, shoe("5s 6c"));
    assert_eq!(r.dealer, shoe("9d Th"));
    assert!(!r.hole_shown);
}

/// BJ-T5: no standing on 11 or less; no hit at 21, which stands itself.
#[test]
fn bj_t5_stand_only_above_11_and_21_stands() {
    assert_eq!(seed("5s 9d 6c Th").legal(), vec![Hit, Double, Surrender], "11: no stand");
    let mut r = seed("Ts 9d 2c 7h 3h");
    assert_eq!(r.legal(), vec![Hit, Stand, Surrender]);
    r.act(Stand).unwrap();
    assert_eq!((r.phase, r.dealer.len()), (Phase::Done, 3), "the dealer's 16 drew to 19");
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 10, 0)]);
    // 6+5 hits a ten: 21 stands at once and the dealer plays.
    let mut r = seed("6s 9d 5c 8h Th");
    r.act(Hit).unwrap();
    assert_eq!((r.hands[0].total(), r.phase), (21, Phase::Done));
    assert_eq!(outcomes(&r), vec![(Outcome::Win, 10, 20)]);
    // Any total stands under the standard rules.
    assert_eq!(round(standard(), "5s 9d 4c Th").legal(), vec![Hit, Stand, Double]);
}

/// BJ-T6: double only on a two-card hard 9–11, A-8/A-9 as hard 9/10 with
/// the ace then counting 1; a doubled hand takes one card and twice the
/// bet; doubling after a split.
#[test]
fn bj_t6_double() {
    assert_eq!(seed("5s 9d 3c Th").legal(), vec![Hit, Surrender], "8: no double");
    assert_eq!(seed("As 9d 7c Th").legal(), vec![Hit, Stand, Surrender], "A-7 is a hard 8");
    let mut r = seed("As 9d 8c Th 2h");
    assert_eq!(r.legal(), vec![Hit, Stand, Double, Surrender]);
    r.act(Double).unwrap();
    assert_eq!((r.hands[0].total(), r.hands[0].cards.len()), (11, 3), "A-8 doubled as 9, then a 2: 11, not 21 (BJ 27)");
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 20, 0)]);
    // Doubling any two: a soft double keeps its ace.
    let mut r = round(standard(), "As 9d 7c Th 3h");
    r.act(Double).unwrap();
    assert_eq!(r.hands[0].total(), 21);
    assert_eq!(outcomes(&r), vec![(Outcome::Win, 20, 40)]);
    // After a split (BJ 26): 5-4 doubles, 5-K does not.
    let mut r = seed("5s 9d 5c Th 4h 6d Kc");
    assert_eq!(r.legal(), vec![Hit, Double, Split, Surrender]);
    r.act(Split).unwrap();
    assert_eq!(r.legal(), vec![Hit, Double], "no surrender after a split");
    r.act(Double).unwrap();
    assert_eq!((r.active, r.hands[0].total(), r.hands[1].cards.len()), (1, 15, 2));
    assert_eq!(r.legal(), vec![Hit, Stand]);
    r.act(Stand).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 20, 0), (Outcome::Lose, 10, 0)]);
    assert!(r.act(Hit).is_err());
}

/// BJ-T7: split by value, resplit without limit (or to the variant's
/// limit), split aces one card each, and ace-ten after a split is 21.
#[test]
fn bj_t7_split() {
    assert!(seed("Ks 9d Tc 7h").legal().contains(&Split), "K-10: one value (BJ 23)");
    assert!(!round(standard(), "Ks 9d Tc 7h").legal().contains(&Split));
    let shoe_8s = "8s 9d 8c Th 8h 8d 8s 3c 9c 2d 4c 6h";
    let mut r = seed(shoe_8s);
    for _ in 0..4 {
        r.act(Split).unwrap();
    }
    assert_eq!(r.hands.len(), 5, "unlimited resplits");
    let mut r = round(standard(), shoe_8s);
    for _ in 0..3 {
        r.act(Split).unwrap();
    }
    assert_eq!(r.hands.len(), 4);
    assert!(!r.legal().contains(&Split), "split to four hands at most");
    assert_eq!(r.hands[0].cards, shoe("8s 8s"));
    // Aces: one card each; a split ace and a ten are 21, not blackjack.
    let r = seed("As 9d Ac Th 5h Kd");
    let mut r2 = r.clone();
    r2.act(Split).unwrap();
    assert_eq!(r2.phase, Phase::Done);
    assert_eq!((r2.hands[0].total(), r2.hands[1].total()), (16, 21));
    assert!(!r2.hands[1].blackjack());
    assert_eq!(outcomes(&r2), vec![(Outcome::Lose, 10, 0), (Outcome::Win, 10, 20)]);
    // An ace on a split ace resplits (the seed), or stands (no RSA).
    let mut r = seed("As 9d Ac Th Ah 5c 6c 7c");
    r.act(Split).unwrap();
    assert_eq!(r.legal(), vec![Stand, Split]);
    let mut r = round(standard(), "As 9d Ac Th Ah 5c 6c 7c");
    r.act(Split).unwrap();
    assert_eq!(r.active, 1, "A-A after a split stands without resplitting aces");
}

/// BJ-T8: surrender on the first two cards only, never against an ace,
/// half back, and early: a later dealer blackjack takes no more.
#[test]
fn bj_t8_surrender() {
    let mut r = seed("Ts Td 6c Ah");
    assert_eq!(r.legal(), vec![Hit, Stand, Surrender]);
    r.act(Surrender).unwrap();
    assert!(r.dealer_blackjack() && r.hole_shown);
    assert_eq!(outcomes(&r), vec![(Outcome::Surrendered, 10, 5)]);
    let mut r = seed("Ts As 6c 7h");
    r.act(NoInsurance).unwrap();
    assert_eq!(r.legal(), vec![Hit, Stand], "no surrender against an ace");
    let mut r = seed("Ts 9d 2c 7h 3h");
    r.act(Hit).unwrap();
    assert_eq!(r.legal(), vec![Hit, Stand], "only as the first decision");
    // Late surrender without a peek: a dealer blackjack takes it all.
    let late = Rules { surrender: Some(Surrender { early: false, against_ace: true }), ..Rules::seed() };
    let mut r = round(late, "Ts Td 6c Ah");
    r.act(Surrender).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 10, 0)]);
}

/// BJ-T9: insurance against an ace, half the bet, 2:1 on a dealer
/// blackjack, lost otherwise; settled when the hole card is turned.
#[test]
fn bj_t9_insurance() {
    let mut r = seed("Ts As 9c Kh");
    assert_eq!((r.phase, r.legal()), (Phase::Insurance, vec![Insurance, NoInsurance]));
    r.act(Insurance).unwrap();
    assert_eq!(r.legal(), vec![Hit, Stand]);
    r.act(Stand).unwrap();
    let s = r.settlement().unwrap();
    assert_eq!((s.insurance, s.staked(), s.returned()), (Some((5, 15)), 15, 15));
    let mut r = seed("Ts As 9c 7h");
    r.act(Insurance).unwrap();
    r.act(Stand).unwrap();
    let s = r.settlement().unwrap();
    assert_eq!((s.insurance, s.hands[0].outcome, s.returned()), (Some((5, 0)), Outcome::Win, 20), "the dealer's soft 18 stands");
    assert!(seed("Ts 9d 9c Ah").legal().iter().all(|a| *a != Insurance));
}

/// BJ-T10: even money only to a blackjack against an ace; a blackjack
/// against 2–9 is paid 3:2 at once.
#[test]
fn bj_t10_even_money_and_blackjack_paid_at_once() {
    let mut r = seed("As Ad Kc 7h");
    assert_eq!(r.legal(), vec![EvenMoney, NoInsurance]);
    r.act(EvenMoney).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::EvenMoney, 10, 20)]);
    let r = seed("As 9d Kc 7h");
    assert_eq!((r.phase, r.dealer.len()), (Phase::Done, 2));
    assert_eq!(outcomes(&r), vec![(Outcome::Blackjack, 10, 25)]);
    // Against a ten (no peek) the blackjack waits for the hole card:
    // a push against the dealer's blackjack, 3:2 otherwise, no draw.
    assert_eq!(outcomes(&seed("As Td Kc Ah")), vec![(Outcome::Push, 10, 10)]);
    let r = seed("As Td Kc 5h 9c");
    assert_eq!((outcomes(&r), r.dealer.len()), (vec![(Outcome::Blackjack, 10, 25)], 2));
    let six_five = Rules { blackjack_pays: Payout { win: 6, per: 5 }, ..Rules::seed() };
    assert_eq!(outcomes(&round(six_five, "As 9d Kc 7h")), vec![(Outcome::Blackjack, 10, 22)]);
    // Issue 49: a table without even money offers its blackjack insurance
    // like any hand. At 6:5: the dealer's blackjack pushes the hand and
    // pays the insurance 2:1; else 6:5, the insurance lost.
    let no_even = Rules { even_money: false, ..six_five };
    let mut r = round(no_even, "As Ad Kc Th");
    assert_eq!(r.legal(), vec![Insurance, NoInsurance]);
    r.act(Insurance).unwrap();
    let s = r.settlement().unwrap();
    assert_eq!((s.insurance, s.hands[0].outcome, s.returned()), (Some((5, 15)), Outcome::Push, 25));
    let mut r = round(no_even, "As Ad Kc 7h");
    assert_eq!(r.act(EvenMoney).unwrap_err().to_string(), "EvenMoney is not offered now (offered: [Insurance, NoInsurance])");
    r.act(Insurance).unwrap();
    let s = r.settlement().unwrap();
    assert_eq!((s.insurance, s.hands[0].outcome, s.returned()), (Some((5, 0)), Outcome::Blackjack, 22));
}

/// BJ-T11: the dealer stands on every 17, soft too (S17), hits 16, and
/// draws nothing when every hand is bust.
#[test]
fn bj_t11_dealer_play() {
    let mut r = seed("Ts 6d 9c Ah 5c 6h");
    r.act(Stand).unwrap();
    assert_eq!(r.dealer.len(), 2, "soft 17 stands");
    assert_eq!(outcomes(&r), vec![(Outcome::Win, 10, 20)]);
    let mut r = round(Rules { dealer_hits_soft_17: true, ..Rules::seed() }, "Ts 6d 9c Ah 5c 6h");
    r.act(Stand).unwrap();
    assert_eq!((r.dealer.len(), r.dealer_total()), (4, (18, false)), "H17: soft 17 hits");
    let mut r = seed("Ts 9d 9c 7h 5c");
    r.act(Stand).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 10, 0)], "16 drew a 5");
    let mut r = seed("Ts 6d 6c Th Kh");
    r.act(Hit).unwrap();
    assert_eq!((r.dealer.len(), outcomes(&r)), (2, vec![(Outcome::Bust, 10, 0)]));
}

/// BJ-T12: a push returns the stake; a dealer bust pays every hand
/// standing.
#[test]
fn bj_t12_settlement() {
    let mut r = seed("Ts 9d 9c Th");
    r.act(Stand).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Push, 10, 10)]);
    let mut r = seed("Ts 6d 2c Th 9h");
    r.act(Stand).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Win, 10, 20)], "12 wins on the dealer's 25");
}

/// BJ-T13: a dealer blackjack found at the dealer's turn takes every
/// stake (the default), or the original bet only.
#[test]
fn bj_t13_dealer_blackjack_against_doubles_and_splits() {
    let obo = Rules { hole_card: HoleCard::NoPeek(DealerBlackjack::OriginalBetOnly), ..Rules::seed() };
    let mut r = seed("5s Td 5c Ah 6h");
    r.act(Double).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 20, 0)]);
    let mut r = round(obo, "5s Td 5c Ah 6h");
    r.act(Double).unwrap();
    assert_eq!(outcomes(&r), vec![(Outcome::Lose, 20, 10)]);
    for (rules, want) in [(Rules::seed(), [0, 0]), (obo, [0, 10])] {
        let mut r = round(rules, "8s Td 8c Ah 2h 3h 9c");
        r.act(Split).unwrap();
        r.act(Hit).unwrap();
        r.act(Stand).unwrap();
        r.act(Stand).unwrap();
        assert_eq!(outcomes(&r).iter().map(|o| o.2).collect::<Vec<_>>(), want);
    }
    // With a peek the blackjack ends the round at the deal: the original
    // bet only, insurance settled.
    let mut r = round(standard(), "Ts Ad 9c Kh");
    r.act(Insurance).unwrap();
    assert_eq!(r.phase, Phase::Done);
    let s = r.settlement().unwrap();
    assert_eq!((s.hands[0].outcome, s.staked(), s.returned()), (Outcome::Lose, 15, 15));
    assert_eq!(round(standard(), "Ts Td 9c Ah").phase, Phase::Done);
}

/// BJ-T14: 6-7-8 of one suit or 7-7-7 as the first three cards pays 3×
/// the bet on top of the hand; not offsuit, not on a split hand.
#[test]
fn bj_t14_bonus() {
    let mut r = seed("6h 9d 7h Th 8h");
    r.act(Hit).unwrap();
    let s = r.settlement().unwrap();
    assert_eq!((s.bonus, s.returned()), (30, 50));
    let mut r = seed("7s 9d 7c Th 7d");
    r.act(Hit).unwrap();
    assert_eq!(r.settlement().unwrap().bonus, 30);
    let mut r = seed("6h 9d 7c Th 8h");
    r.act(Hit).unwrap();
    assert_eq!(r.settlement().unwrap().bonus, 0, "offsuit");
    let mut r = seed("7h 9d 7c Th 6h 8h 9s");
    r.act(Split).unwrap();
    r.act(Hit).unwrap();
    assert_eq!(r.hands[0].total(), 21);
    r.act(Stand).unwrap();
    assert_eq!(r.settlement().unwrap().bonus, 0, "a split hand");
}

/// BJ-T15: each bet a multiple of the minimum, up to 30 times it.
#[test]
fn bj_t15_bet_limits() {
    let game = BlackjackGame { id: "b".into(), name: "B".into(), rules: Rules::seed(), minimum: 2, maximum_ratio: 30 };
    assert!(game.offers(2) && game.offers(60) && game.offers(32));
    assert!(!game.offers(0) && !game.offers(3) && !game.offers(62));
}

/// BJ-T17: a round the shoe cannot finish is void, every stake returned.
#[test]
fn bj_t17_a_round_that_cannot_finish_is_void() {
    let mut r = seed("Ts 9d 2c 7h");
    r.act(Hit).unwrap();
    assert!(r.void);
    let s = r.settlement().unwrap();
    assert_eq!((s.hands[0].outcome, s.staked(), s.returned()), (Outcome::Void, 10, 10));
}

/// BJ-T18: every legal decision is listed; anything else is refused and
/// changes nothing; a replay of the decisions gives the same round.
#[test]
fn bj_t18_only_legal_decisions() {
    let mut r = seed("Ts 9d 2c 7h 3h");
    let before = r.clone();
    let e = r.act(Double).unwrap_err();
    assert_eq!((e.action, e.offered), (Double, vec![Hit, Stand, Surrender]));
    assert_eq!(r, before);
    r.act(Hit).unwrap();
    r.act(Stand).unwrap();
    assert_eq!(Round::replay(Rules::seed(), 10, shoe("Ts 9d 2c 7h 3h"), &[Hit, Stand]).unwrap(), r);
    assert!(r.legal().is_empty());
}
