//! One hand of video blackjack as a state machine: dealt from the shoe the
//! core shuffled and committed at the start, moved on only by the
//! player's legal decisions (BJ 72: every legal option is listed at each
//! decision, nothing else is accepted), and settled in whole units of the
//! bet's money.
//!
//! The deal (BJ 20, BJ-T4): the player's first card, the dealer's up card,
//! the player's second, the dealer's hole card; every later card comes off
//! the shoe in the order play asks for it. The same shoe and the same
//! decisions always give the same round: this is how a killed round resumes
//! and how recall replays it.

use serde::{Deserialize, Serialize};

use super::hand::{Hand, best_total, value};
use super::rules::{DealerBlackjack, HoleCard, Rules};
use crate::cards::Card;

/// A player's decision (BJ 21–28, 47, 50).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Hit,
    Stand,
    Double,
    Split,
    Surrender,
    /// Insurance of half the bet, the most BJ 50 allows.
    Insurance,
    /// A blackjack against an ace paid 1:1 at once (BJ 47).
    EvenMoney,
    /// Insurance (or even money) declined.
    NoInsurance,
}

impl Action {
    pub const ALL: [Action; 8] =
        [Action::Hit, Action::Stand, Action::Double, Action::Split, Action::Surrender, Action::Insurance, Action::EvenMoney, Action::NoInsurance];

    pub fn name(self, portuguese: bool) -> &'static str {
        match (self, portuguese) {
            (Action::Hit, true) => "pedir carta",
            (Action::Hit, false) => "hit",
            (Action::Stand, true) => "ficar",
            (Action::Stand, false) => "stand",
            (Action::Double, true) => "duplicar",
            (Action::Double, false) => "double",
            (Action::Split, true) => "desdobrar",
            (Action::Split, false) => "split",
            (Action::Surrender, true) => "desistir",
            (Action::Surrender, false) => "surrender",
            (Action::Insurance, true) => "seguro",
            (Action::Insurance, false) => "insurance",
            (Action::EvenMoney, true) => "pagamento igual",
            (Action::EvenMoney, false) => "even money",
            (Action::NoInsurance, true) => "sem seguro",
            (Action::NoInsurance, false) => "no insurance",
        }
    }
}

/// Where the round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Insurance or even money offered against the dealer's ace.
    Insurance,
    /// The active hand awaits a decision.
    Player,
    /// Nothing more to decide: the dealer has played; settle.
    Done,
}

/// A decision the round does not offer now.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{action:?} is not offered now (offered: {offered:?})")]
pub struct Illegal {
    pub action: Action,
    pub offered: Vec<Action>,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Blackjack,
    Win,
    Push,
    Lose,
    Bust,
    Surrendered,
    EvenMoney,
    /// The round could not be finished (BJ 74): the stake is returned.
    Void,
}

impl Outcome {
    /// The outcome as the table and recall say it, in Portuguese or English.
    pub fn name(self, portuguese: bool) -> &'static str {
        match (self, portuguese) {
            (Outcome::Blackjack, _) => "blackjack",
            (Outcome::Win, true) => "ganha",
            (Outcome::Win, false) => "wins",
            (Outcome::Push, true) => "empate",
            (Outcome::Push, false) => "push",
            (Outcome::Lose, true) => "perde",
            (Outcome::Lose, false) => "loses",
            (Outcome::Bust, true) => "rebentou",
            (Outcome::Bust, false) => "bust",
            (Outcome::Surrendered, true) => "desistiu",
            (Outcome::Surrendered, false) => "surrendered",
            (Outcome::EvenMoney, true) => "pagamento igual",
            (Outcome::EvenMoney, false) => "even money",
            (Outcome::Void, true) => "anulada",
            (Outcome::Void, false) => "void",
        }
    }
}

/// A hand's settlement, in units of the bet's money.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub outcome: Outcome,
    pub staked: u64,
    pub returned: u64,
}

/// The round's settlement: each hand, the insurance, the bonus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    pub hands: Vec<HandResult>,
    /// Insurance staked and returned.
    pub insurance: Option<(u64, u64)>,
    /// The 6-7-8 / 7-7-7 bonus paid (BJ 48).
    pub bonus: u64,
}

impl Settlement {
    pub fn staked(&self) -> u64 {
        self.hands.iter().map(|h| h.staked).sum::<u64>() + self.insurance.map_or(0, |i| i.0)
    }

    pub fn returned(&self) -> u64 {
        self.hands.iter().map(|h| h.returned).sum::<u64>() + self.insurance.map_or(0, |i| i.1) + self.bonus
    }
}

/// A round in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub rules: Rules,
    /// The bet on the first hand, in units of money (a multiple of
    /// [`Rules::bet_step`]).
    pub bet: u64,
    shoe: Vec<Card>,
    next: usize,
    /// The dealer's up card, hole card, then the cards drawn.
    pub dealer: Vec<Card>,
    pub hands: Vec<Hand>,
    pub active: usize,
    pub phase: Phase,
    /// The insurance staked (half the bet), when taken.
    pub insurance: Option<u64>,
    pub even_money: bool,
    /// Whether the hole card has been turned.
    pub hole_shown: bool,
    /// The shoe ran out (never in practice with a whole shoe): void.
    pub void: bool,
    /// The decisions, in order.
    pub decisions: Vec<Action>,
}

fn is_ace(c: Card) -> bool {
    value(c) == 1
}

/// Whether two cards may be split: of one value (BJ 23), of one rank
/// where unequal tens are not split.
fn pair(rules: &Rules, a: Card, b: Card) -> bool {
    value(a) == value(b) && (rules.split_unequal_tens || a.rank() == b.rank())
}

/// The 6-7-8 of one suit or 7-7-7 (BJ 48).
pub fn bonus_cards(cards: &[Card]) -> bool {
    let [a, b, c] = cards else { return false };
    let mut v = [value(*a), value(*b), value(*c)];
    v.sort_unstable();
    v == [7, 7, 7] || (v == [6, 7, 8] && a.suit() == b.suit() && b.suit() == c.suit())
}

impl Round {
    /// Deal a round from the shoe's order.
    pub fn deal(rules: Rules, bet: u64, shoe: Vec<Card>) -> Round {
        let mut r = Round {
            rules,
            bet,
            shoe,
            next: 0,
            dealer: Vec::new(),
            hands: Vec::new(),
            active: 0,
            phase: Phase::Done,
            insurance: None,
            even_money: false,
            hole_shown: false,
            void: false,
            decisions: Vec::new(),
        };
        let cards: Option<Vec<Card>> = (0..4).map(|_| r.card()).collect();
        let Some(cards) = cards else { return r };
        r.hands.push(Hand::new(vec![cards[0], cards[2]], false));
        r.dealer = vec![cards[1], cards[3]];
        if rules.insurance && is_ace(cards[1]) {
            r.phase = Phase::Insurance;
        } else {
            r.after_insurance();
        }
        r
    }

    /// Deal and replay decisions, as resume and recall do.
    pub fn replay(rules: Rules, bet: u64, shoe: Vec<Card>, decisions: &[Action]) -> Result<Round, Illegal> {
        let mut r = Round::deal(rules, bet, shoe);
        for &a in decisions {
            r.act(a)?;
        }
        Ok(r)
    }

    fn card(&mut self) -> Option<Card> {
        let c = self.shoe.get(self.next).copied();
        if c.is_some() {
            self.next += 1;
        } else {
            self.void = true;
            self.phase = Phase::Done;
        }
        c
    }

    /// What the round has staked so far, in units: every hand's stake and
    /// the insurance.
    pub fn staked(&self) -> u64 {
        self.hands.iter().map(|h| self.bet * h.stake()).sum::<u64>() + self.insurance.unwrap_or(0)
    }

    /// The extra stake a decision takes: the bet again for a double or a
    /// split, half of it for insurance (BJ 23, 25, 50).
    pub fn extra_stake(&self, action: Action) -> u64 {
        match action {
            Action::Double | Action::Split => self.bet,
            Action::Insurance => self.bet / 2,
            _ => 0,
        }
    }

    /// The cards the round has taken from the shoe.
    pub fn cards_used(&self) -> usize {
        self.next
    }

    pub fn up_card(&self) -> Option<Card> {
        self.dealer.first().copied()
    }

    pub fn dealer_blackjack(&self) -> bool {
        self.dealer.len() == 2 && self.dealer.iter().map(|&c| value(c)).sum::<u8>() == 11 && self.dealer.iter().any(|&c| is_ace(c))
    }

    /// The dealer's best total and softness.
    pub fn dealer_total(&self) -> (u8, bool) {
        let hard: u8 = self.dealer.iter().map(|&c| value(c)).sum();
        best_total(hard, u8::from(self.dealer.iter().any(|&c| is_ace(c))))
    }

    fn after_insurance(&mut self) {
        let up_ten_or_ace = self.up_card().is_some_and(|c| value(c) == 1 || value(c) == 10);
        if self.rules.peeks() && up_ten_or_ace && self.dealer_blackjack() {
            // The peek finds a blackjack: the round ends now.
            self.hole_shown = true;
            self.phase = Phase::Done;
            return;
        }
        self.phase = Phase::Player;
        self.active = 0;
        self.settle_state(0);
        self.advance();
    }

    /// Mark a hand done where the rules give it no further decision.
    fn settle_state(&mut self, i: usize) {
        let limit_reached = self.rules.split_hands.is_some_and(|n| self.hands.len() >= usize::from(n));
        let rules = self.rules;
        let Some(h) = self.hands.get_mut(i) else { return };
        let split_ace = h.split && h.cards.first().is_some_and(|&c| is_ace(c));
        if h.bust() || h.total() == 21 || (h.doubled && h.cards.len() >= 3) || h.blackjack() {
            h.done = true;
        } else if split_ace && !rules.hit_split_aces && h.cards.len() == 2 {
            let may_resplit = rules.resplit_aces && !limit_reached && is_ace(h.cards[1]);
            h.done = !may_resplit;
        }
    }

    /// Move to the next hand that awaits a decision, dealing a split hand
    /// its second card; when none remains, the dealer plays.
    fn advance(&mut self) {
        while self.phase == Phase::Player {
            let Some(h) = self.hands.get(self.active) else { return };
            if !h.done {
                if h.cards.len() == 1 {
                    let Some(c) = self.card() else { return };
                    self.hands[self.active].cards.push(c);
                    self.settle_state(self.active);
                    continue;
                }
                return;
            }
            if self.active + 1 < self.hands.len() {
                self.active += 1;
            } else {
                self.dealer_turn();
            }
        }
    }

    /// The dealer's turn (BJ 22, 43): the hole card is turned; the dealer
    /// draws to 17 (hitting a soft 17 under H17) while any hand still
    /// stands to be beaten, and draws nothing otherwise (BJ-T11).
    fn dealer_turn(&mut self) {
        self.hole_shown = true;
        let live = !self.even_money && self.hands.iter().any(|h| !h.bust() && !h.surrendered && !h.blackjack());
        if live && !self.dealer_blackjack() {
            loop {
                let (t, soft) = self.dealer_total();
                let hits = t < 17 || (t == 17 && soft && self.rules.dealer_hits_soft_17);
                if !hits {
                    break;
                }
                let Some(c) = self.card() else { return };
                self.dealer.push(c);
            }
        }
        self.phase = Phase::Done;
    }

    /// Every decision offered now, in a fixed order (BJ 72, BJ-T18).
    pub fn legal(&self) -> Vec<Action> {
        match self.phase {
            Phase::Done => Vec::new(),
            // Even money where the table offers it (BJ 47, issue 49);
            // else the blackjack is offered insurance as any hand.
            Phase::Insurance if self.hands[0].blackjack() && self.rules.even_money => vec![Action::EvenMoney, Action::NoInsurance],
            Phase::Insurance => vec![Action::Insurance, Action::NoInsurance],
            Phase::Player => self.hand_actions(),
        }
    }

    fn hand_actions(&self) -> Vec<Action> {
        let r = &self.rules;
        let Some(h) = self.hands.get(self.active) else { return Vec::new() };
        if h.done {
            return Vec::new();
        }
        let split_ace = h.split && is_ace(h.cards[0]);
        let one_card_aces = split_ace && !r.hit_split_aces;
        let two = h.cards.len() == 2;
        let mut out = Vec::new();
        if h.total() < 21 && !one_card_aces {
            out.push(Action::Hit);
        }
        // BJ 21: no standing on 11 or less.
        if h.total() >= r.stand_from {
            out.push(Action::Stand);
        }
        let double_ok = if h.soft() {
            match r.double_on {
                super::rules::DoubleOn::AnyTwo => true,
                on => r.double_soft_as_hard && on.hard(h.hard()),
            }
        } else {
            r.double_on.hard(h.total())
        };
        if two && !one_card_aces && (!h.split || r.double_after_split) && double_ok {
            out.push(Action::Double);
        }
        let under_limit = r.split_hands.is_none_or(|n| self.hands.len() < usize::from(n));
        if two && under_limit && pair(r, h.cards[0], h.cards[1]) && (!split_ace || r.resplit_aces) {
            out.push(Action::Split);
        }
        let up_ace = self.up_card().is_some_and(is_ace);
        if let Some(s) = r.surrender
            && two
            && self.hands.len() == 1
            && !h.split
            && (!up_ace || s.against_ace)
        {
            out.push(Action::Surrender);
        }
        out
    }

    /// Take a decision: refused unless offered now.
    pub fn act(&mut self, action: Action) -> Result<(), Illegal> {
        let offered = self.legal();
        if !offered.contains(&action) {
            return Err(Illegal { action, offered });
        }
        self.decisions.push(action);
        match action {
            Action::Insurance => {
                self.insurance = Some(self.bet / 2);
                self.after_insurance();
            }
            Action::EvenMoney => {
                self.even_money = true;
                self.hands[0].done = true;
                self.hole_shown = true;
                self.phase = Phase::Done;
            }
            Action::NoInsurance => self.after_insurance(),
            Action::Hit => {
                if let Some(c) = self.card() {
                    self.hands[self.active].cards.push(c);
                    self.settle_state(self.active);
                }
            }
            Action::Stand => self.hands[self.active].done = true,
            Action::Double => {
                let h = &mut self.hands[self.active];
                h.doubled = true;
                // BJ 27: a soft doubled under a range rule is a hard
                // 9/10, its ace counting 1 from now on.
                h.ace_locked = h.soft() && self.rules.double_on != super::rules::DoubleOn::AnyTwo;
                if let Some(c) = self.card() {
                    let h = &mut self.hands[self.active];
                    h.cards.push(c);
                    h.done = true;
                }
            }
            Action::Split => {
                let i = self.active;
                let second = self.hands[i].cards.pop();
                self.hands[i].split = true;
                if let Some(c) = second {
                    self.hands.insert(i + 1, Hand::new(vec![c], true));
                }
                if let Some(c) = self.card() {
                    self.hands[i].cards.push(c);
                    self.settle_state(i);
                }
            }
            Action::Surrender => {
                let h = &mut self.hands[self.active];
                h.surrendered = true;
                h.done = true;
            }
        }
        self.advance();
        Ok(())
    }

    /// The round's settlement (BJ 39–50, BJ-T12, BJ-T13); None until the
    /// round is done.
    pub fn settlement(&self) -> Option<Settlement> {
        if self.phase != Phase::Done {
            return None;
        }
        let bet = self.bet;
        let insurance_staked = self.insurance;
        if self.void {
            let hands = self.hands.iter().map(|h| HandResult { outcome: Outcome::Void, staked: bet * h.stake(), returned: bet * h.stake() }).collect();
            return Some(Settlement { hands, insurance: insurance_staked.map(|s| (s, s)), bonus: 0 });
        }
        let dealer_bj = self.dealer_blackjack();
        let (dealer_total, _) = self.dealer_total();
        let dealer_bust = dealer_total > 21;
        let pays = self.rules.blackjack_pays;
        let mut hands = Vec::new();
        for (i, h) in self.hands.iter().enumerate() {
            let staked = bet * h.stake();
            let (outcome, returned) = if self.even_money {
                (Outcome::EvenMoney, 2 * bet)
            } else if h.surrendered {
                let early = self.rules.surrender.is_some_and(|s| s.early);
                if dealer_bj && !early { (Outcome::Lose, 0) } else { (Outcome::Surrendered, bet / 2) }
            } else if h.blackjack() {
                if dealer_bj { (Outcome::Push, bet) } else { (Outcome::Blackjack, bet + bet * pays.win / pays.per) }
            } else if h.bust() {
                (Outcome::Bust, 0)
            } else if dealer_bj {
                let lost = match self.rules.hole_card {
                    HoleCard::NoPeek(DealerBlackjack::OriginalBetOnly) => {
                        if i == 0 {
                            bet
                        } else {
                            0
                        }
                    }
                    _ => staked,
                };
                (Outcome::Lose, staked - lost)
            } else if dealer_bust || h.total() > dealer_total {
                (Outcome::Win, 2 * staked)
            } else if h.total() == dealer_total {
                (Outcome::Push, staked)
            } else {
                (Outcome::Lose, 0)
            };
            hands.push(HandResult { outcome, staked, returned });
        }
        let insurance = insurance_staked.map(|s| (s, if dealer_bj { 3 * s } else { 0 }));
        let h0 = &self.hands[0];
        let bonus = if self.hands.len() == 1 && !h0.split && h0.cards.len() >= 3 && bonus_cards(&h0.cards[..3]) { self.rules.bonus_678_777 * bet } else { 0 };
        Some(Settlement { hands, insurance, bonus })
    }
}
