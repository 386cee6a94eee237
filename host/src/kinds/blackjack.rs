//! Blackjack/21 (issue 32; card-games.md §1, A.1): the deal draws and
//! commits the whole shoe, shuffled afresh for the hand (BJ-T2 (i)), before
//! the first card is shown; every decision is a committed step, journaled
//! with the extra stake a double, a split or insurance takes, and applied
//! to game-core's round, which offers only what the rules allow (BJ 72).
//! A round killed at any decision resumes there with the same cards: the
//! shoe and the steps rebuild it.

use game_core::blackjack::{Action, BlackjackGame, Phase, Round};
use game_core::cards::Card;
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::cards;
use crate::kind::{BetControl, Decided, GameKind, NoEdit, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{Hand, RoundPicture, Scene};

/// The bet on the hand, in credits: a multiple of the table minimum, up
/// to the maximum (BJ 8, 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlackjackBet {
    pub bet: u64,
}

/// The shoe's cards the lab tests at their places (issue 77).
const SHOWN_CARDS: usize = 16;

/// The whole shoe in the order it deals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlackjackShoe {
    pub cards: Vec<Card>,
}

/// A committed decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlackjackStep {
    pub action: Action,
}

/// A blackjack table (its approved paytable).
pub struct Blackjack(pub BlackjackGame);

impl Blackjack {
    /// The bets the table takes: every multiple of the minimum up to the
    /// maximum.
    fn bets(&self) -> Vec<u64> {
        (1..=self.0.maximum_ratio).map(|k| k * self.0.minimum).collect()
    }
}

/// C-26: the most a round of `bet` credits can stake (BJ 23, 26, 29):
/// split into the most hands the rules allow (without a cap, no more
/// hands than the shoe has cards that pair: of one rank, or every
/// ten-value card where unequal tens split), each hand doubled where the
/// rules let a split hand double (an unsplit hand doubles once), and
/// insurance at half the bet.
pub fn most_staked(game: &BlackjackGame, bet: u64) -> u64 {
    let r = &game.rules;
    let pairing = if r.split_unequal_tens { 16 } else { 4 };
    let hands = r.split_hands.map_or(pairing * u64::from(r.decks), u64::from).max(1);
    let per_hand = if r.double_after_split { 2 } else { 1 };
    let play = bet.saturating_mul(hands.saturating_mul(per_hand).max(2));
    let insurance = if r.insurance { bet.div_ceil(2) } else { 0 };
    play.saturating_add(insurance)
}

impl GameKind for Blackjack {
    const OPENING: &'static str = "blackjack-deal";
    type Bet = BlackjackBet;
    type Deal = BlackjackShoe;
    type Decision = Action;
    type Edit = NoEdit;
    type Step = BlackjackStep;
    type Round = Round;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("blackjack")
    }

    fn opening_bet(&self) -> BlackjackBet {
        BlackjackBet { bet: self.0.minimum }
    }

    fn adjust_bet(&self, bet: &BlackjackBet, control: BetControl, delta: i32) -> BlackjackBet {
        match control {
            BetControl::Amount => BlackjackBet { bet: super::step(&self.bets(), bet.bet, delta) },
            _ => *bet,
        }
    }

    fn offers(&self, bet: &BlackjackBet) -> bool {
        self.0.offers(bet.bet)
    }

    fn check_bet(&self, bet: &BlackjackBet) -> Result<(), Refusal> {
        if self.offers(bet) {
            return Ok(());
        }
        // BJ 8, 17: the table's minimum, its multiples and maximum.
        let (min, max) = (self.0.minimum, self.0.maximum());
        Err(Refusal::new(
            format!("Uma aposta de {} créditos: a mesa aceita múltiplos de {min} até {max}", bet.bet),
            format!("A bet of {} credits: the table takes multiples of {min} up to {max}", bet.bet),
        ))
    }

    fn stake(&self, bet: &BlackjackBet) -> u64 {
        bet.bet
    }

    /// C-26: every hand a split can make, each doubled where the rules
    /// allow it, and insurance (BJ 23, 26, 29).
    fn most_staked(&self, bet: &BlackjackBet) -> u64 {
        most_staked(&self.0, bet.bet)
    }

    fn bet_text(&self, bet: &BlackjackBet, lang: Lang) -> String {
        format!("{} {} {}", lang.t("aposta"), bet.bet, lang.t("créd."))
    }

    fn draw(&self, _bet: &BlackjackBet, rng: &mut Draw<'_>) -> Result<BlackjackShoe, String> {
        Ok(BlackjackShoe { cards: self.0.shuffle(rng) })
    }

    fn open(&self, bet: &BlackjackBet, deal: &BlackjackShoe) -> Round {
        Round::deal(self.0.rules, bet.bet, deal.cards.clone())
    }

    /// A decision the round offers now, committed with its extra stake;
    /// anything else is refused with what is offered (BJ 72).
    fn decide(&self, round: &mut Round, decision: &Action) -> Result<Decided<BlackjackStep>, Refusal> {
        let offered = round.legal();
        if !offered.contains(decision) {
            let list = |pt: bool| offered.iter().map(|a| a.name(pt)).collect::<Vec<_>>().join(", ");
            return Err(Refusal::new(
                format!("«{}» não é possível agora; pode: {}", decision.name(true), list(true)),
                format!("\"{}\" is not possible now; you may: {}", decision.name(false), list(false)),
            ));
        }
        Ok(Decided::Commit { step: BlackjackStep { action: *decision }, extra_stake: round.extra_stake(*decision) })
    }

    fn step_name(&self, step: &BlackjackStep) -> &'static str {
        step.action.name(false)
    }

    /// B-16 (issue 77): the hand's bet, doubles and splits included, at
    /// the game's return under optimal play (its artifact's first line,
    /// the bonus included: `paytables::blackjack::lines`).
    fn main_wager(&self) -> Option<(u64, &'static str)> {
        Some((0, "jogo / game"))
    }

    /// B-16 (issue 77): insurance is a bet of its own (BJ 50), at its own
    /// return: the artifact's third line, where the table offers it.
    fn step_wager(&self, step: &BlackjackStep) -> Option<(u64, &'static str)> {
        (step.action == Action::Insurance && self.0.rules.insurance).then_some((2, "seguro / insurance"))
    }

    fn apply(&self, round: &mut Round, step: &BlackjackStep) {
        // Committed steps were legal when taken, and the same shoe and
        // steps rebuild the same round: a refusal here changes nothing.
        let _ = round.act(step.action);
    }

    fn decided(&self, round: &Round) -> bool {
        round.phase == Phase::Done
    }

    /// Every stake's return, the insurance's and the bonus (credits: every
    /// return of a bet on the table's step is whole).
    fn win(&self, round: &Round) -> u64 {
        round.settlement().map_or(0, |s| s.returned())
    }

    fn staked(&self, round: &Round) -> u64 {
        round.staked()
    }

    fn components(&self, round: &Round, denom: Cents) -> Vec<WinComponent> {
        let Some(s) = round.settlement() else { return Vec::new() };
        let mut c: Vec<WinComponent> = s
            .hands
            .iter()
            .enumerate()
            .filter(|(_, h)| h.returned > 0)
            .map(|(i, h)| WinComponent { label: format!("hand {} {} ({} staked)", i + 1, h.outcome.name(false), h.staked), amount: h.returned * denom })
            .collect();
        if let Some((staked, returned)) = s.insurance.filter(|i| i.1 > 0) {
            c.push(WinComponent { label: format!("insurance 2:1 ({staked} staked)"), amount: returned * denom });
        }
        if s.bonus > 0 {
            c.push(WinComponent { label: "6-7-8 / 7-7-7 bonus (BJ 48)".into(), amount: s.bonus * denom });
        }
        c
    }

    fn hits(&self, _round: &Round, _trigger: &Trigger) -> bool {
        false
    }

    /// The shoe's first cards at their places (more than a round of four
    /// split hands shows), each card of the deck alike.
    fn shown(&self, deal: &BlackjackShoe) -> Vec<Shown> {
        Shown::cards("card", &deal.cards[..deal.cards.len().min(SHOWN_CARDS)], 52)
    }

    fn describe(&self, round: &Round, lang: Lang) -> String {
        let results = round.settlement().map(|s| s.hands).unwrap_or_default();
        let hands: Vec<String> = round
            .hands
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let result = results.get(i).map_or(String::new(), |r| format!(" {}", r.outcome.name(lang == Lang::Pt)));
                format!("{} ({}){result}", cards(&h.cards), h.total())
            })
            .collect();
        let shown = if round.hole_shown { round.dealer.clone() } else { round.dealer.iter().take(1).copied().collect() };
        format!("{}: {} — {}: {}", lang.t("jogador"), hands.join(" / "), lang.t("banca|dealer"), cards(&shown))
    }

    /// Each of the player's hands with its total and result, then the
    /// dealer's cards as far as they were shown.
    fn picture(&self, round: &Round, lang: Lang) -> RoundPicture {
        let results = round.settlement().map(|s| s.hands).unwrap_or_default();
        let many = round.hands.len() > 1;
        let mut hands: Vec<Hand> = round
            .hands
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let who = if many { format!("{} {}", lang.t("MÃO"), i + 1) } else { lang.t("JOGADOR").to_owned() };
                let result = results.get(i).map_or(String::new(), |r| format!(" {}", r.outcome.name(lang == Lang::Pt)));
                Hand::new(format!("{who} {}{result}", h.total()), &h.cards)
            })
            .collect();
        let shown: Vec<Card> = if round.hole_shown { round.dealer.clone() } else { round.dealer.iter().take(1).copied().collect() };
        hands.push(Hand::new(lang.t("BANCA|dealer"), &shown));
        RoundPicture { scene: Scene::Cards(hands), caption: String::new() }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use game_core::blackjack::Rules;

    use super::*;

    fn table() -> Blackjack {
        Blackjack(BlackjackGame { id: "bj".into(), name: "BJ".into(), rules: Rules::seed(), minimum: 2, maximum_ratio: 30 })
    }

    fn shoe(s: &str) -> BlackjackShoe {
        BlackjackShoe { cards: s.split_whitespace().map(|c| c.parse().unwrap()).collect() }
    }

    /// C-26: the most a round can stake, rule by rule: four hands each
    /// doubled and insurance (8 × 10 + 5); without doubles after a split,
    /// four hands or one doubled; without a cap on splits, a hand for each
    /// card of the pair's rank in the shoe (4 × 6 decks), or of every
    /// ten-value card where unequal tens split (16 × 6); no insurance.
    #[test]
    fn the_most_a_round_can_stake_counts_every_split_double_and_insurance() {
        let mut g = table().0;
        g.rules.decks = 6;
        g.rules.insurance = true;
        g.rules.double_after_split = true;
        g.rules.split_hands = Some(4);
        assert_eq!(most_staked(&g, 10), 85);
        assert_eq!(most_staked(&g, 11), 94, "insurance is half the bet, rounded up");
        g.rules.double_after_split = false;
        assert_eq!(most_staked(&g, 10), 45);
        g.rules.split_hands = Some(1);
        assert_eq!(most_staked(&g, 10), 25, "one hand, doubled");
        g.rules.split_hands = None;
        g.rules.split_unequal_tens = false;
        g.rules.double_after_split = true;
        assert_eq!(most_staked(&g, 10), 10 * 24 * 2 + 5);
        g.rules.split_unequal_tens = true;
        g.rules.insurance = false;
        assert_eq!(most_staked(&g, 10), 10 * 96 * 2);
        assert_eq!(Blackjack(g.clone()).most_staked(&BlackjackBet { bet: 10 }), most_staked(&g, 10));
    }

    /// The bet buttons walk the multiples of the minimum (BJ 17); a bet off
    /// them is refused by name.
    #[test]
    fn bets_are_multiples_of_the_minimum_up_to_30_times_it() {
        let t = table();
        let b = t.adjust_bet(&t.opening_bet(), BetControl::Amount, 1);
        assert_eq!(b.bet, 4);
        assert_eq!(t.adjust_bet(&b, BetControl::Amount, 100).bet, 60);
        assert!(t.check_bet(&BlackjackBet { bet: 3 }).unwrap_err().en.contains("multiples of 2 up to 60"));
    }

    /// Each decision commits its extra stake: a split and a double the bet
    /// again, insurance half of it; an illegal one is refused with what is
    /// offered.
    #[test]
    fn decisions_commit_their_extra_stakes() {
        let t = table();
        let mut r = t.open(&BlackjackBet { bet: 10 }, &shoe("5s 9d 5c Th 4h 6d Kc"));
        let e = t.decide(&mut r.clone(), &Action::Stand).unwrap_err();
        assert!(e.en.contains("you may: hit, double, split, surrender"), "{}", e.en);
        let Decided::Commit { step, extra_stake } = t.decide(&mut r, &Action::Split).unwrap() else { panic!() };
        assert_eq!(extra_stake, 10);
        t.apply(&mut r, &step);
        let Decided::Commit { step, extra_stake } = t.decide(&mut r, &Action::Double).unwrap() else { panic!() };
        assert_eq!(extra_stake, 10);
        t.apply(&mut r, &step);
        assert_eq!(t.staked(&r), 30);
        let mut ins = t.open(&BlackjackBet { bet: 10 }, &shoe("Ts As 9c Kh"));
        let Decided::Commit { extra_stake, .. } = t.decide(&mut ins, &Action::Insurance).unwrap() else { panic!() };
        assert_eq!(extra_stake, 5);
    }
}
