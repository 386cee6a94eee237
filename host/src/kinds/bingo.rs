//! Video bingo (issue 33; machines-and-bingo.md §2, decisions.md "Bingo"):
//! the deal draws the cards (all different, no line repeated: B-14, B-38 c)
//! and the whole ball sequence, the fixed draw and every extra ball the
//! round could buy, and commits them before a ball is shown. Marking and
//! paying are automatic (B-96, B-97). Each extra ball bought is a committed
//! step whose extra stake is the host's price, computed by game-core from
//! the journaled cards and the balls shown, never from the front end and
//! never from a hidden ball (design/host.md idea 7); a resumed round
//! rebuilds the same offers from the journal and never debits a purchase
//! twice.

use game_core::bingo::{BingoGame, Card, Phase, Round};
use game_core::progressive::{Trigger, bingo_hit};
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use crate::kind::{BetControl, Decided, GameKind, NoEdit, Refusal};
use crate::names::Lang;

/// The bet: how many cards (1 to the paytable's most), and the credits
/// on each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BingoBet {
    pub cards: u8,
    pub bet: u64,
}

/// The cards and the whole ball sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BingoDeal {
    pub cards: Vec<Card>,
    pub balls: Vec<u8>,
}

/// The player's answer to an extra-ball offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BingoDecision {
    Buy,
    Stop,
}

/// A committed answer, with the price the host charged for a purchase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BingoStep {
    pub decision: BingoDecision,
    pub price: u64,
}

/// A bingo game (its approved paytable).
pub struct Bingo(pub BingoGame);

impl Bingo {
    fn bets(&self) -> Vec<u64> {
        (self.0.minimum..=self.0.maximum).collect()
    }
}

impl GameKind for Bingo {
    const OPENING: &'static str = "bingo-deal";
    type Bet = BingoBet;
    type Deal = BingoDeal;
    type Decision = BingoDecision;
    type Edit = NoEdit;
    type Step = BingoStep;
    type Round = Round;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.pick("bingo", "bingo")
    }

    fn opening_bet(&self) -> BingoBet {
        BingoBet { cards: self.0.most_cards, bet: self.0.minimum }
    }

    /// Lines: the number of cards; the amount: the credits on each.
    fn adjust_bet(&self, bet: &BingoBet, control: BetControl, delta: i32) -> BingoBet {
        match control {
            BetControl::Lines => {
                let counts: Vec<u8> = (1..=self.0.most_cards).collect();
                BingoBet { cards: super::step(&counts, bet.cards, delta), ..*bet }
            }
            BetControl::Amount => BingoBet { bet: super::step(&self.bets(), bet.bet, delta), ..*bet },
            _ => *bet,
        }
    }

    fn offers(&self, bet: &BingoBet) -> bool {
        (1..=self.0.most_cards).contains(&bet.cards) && (self.0.minimum..=self.0.maximum).contains(&bet.bet)
    }

    fn check_bet(&self, bet: &BingoBet) -> Result<(), Refusal> {
        if self.offers(bet) {
            return Ok(());
        }
        let (most, min, max) = (self.0.most_cards, self.0.minimum, self.0.maximum);
        Err(Refusal::new(
            format!("{} cartões a {} créditos: o jogo aceita 1 a {most} cartões, de {min} a {max} créditos cada", bet.cards, bet.bet),
            format!("{} cards at {} credits: the game takes 1 to {most} cards, {min} to {max} credits each", bet.cards, bet.bet),
        ))
    }

    fn stake(&self, bet: &BingoBet) -> u64 {
        bet.bet.saturating_mul(u64::from(bet.cards))
    }

    fn bet_text(&self, bet: &BingoBet, lang: Lang) -> String {
        format!("{} {} × {} {}", bet.cards, lang.pick("cartões", "cards"), bet.bet, lang.pick("créd.", "cr"))
    }

    fn draw(&self, bet: &BingoBet, rng: &mut Draw<'_>) -> Result<BingoDeal, String> {
        let (cards, balls) = self.0.deal(usize::from(bet.cards), rng);
        Ok(BingoDeal { cards, balls })
    }

    fn open(&self, bet: &BingoBet, deal: &BingoDeal) -> Round {
        Round::new(&self.0, bet.bet, deal.cards.clone(), deal.balls.clone())
    }

    /// Buy the ball on offer at the host's price, or stop; with no offer,
    /// either is refused.
    fn decide(&self, round: &mut Round, decision: &BingoDecision) -> Result<Decided<BingoStep>, Refusal> {
        let Some(offer) = round.offer() else {
            return Err(Refusal::new("Nenhuma bola extra está em oferta", "No extra ball is on offer"));
        };
        let price = if *decision == BingoDecision::Buy { offer.price } else { 0 };
        Ok(Decided::Commit { step: BingoStep { decision: *decision, price }, extra_stake: price })
    }

    fn step_name(&self, step: &BingoStep) -> &'static str {
        match step.decision {
            BingoDecision::Buy => "extra ball",
            BingoDecision::Stop => "stop",
        }
    }

    fn apply(&self, round: &mut Round, step: &BingoStep) {
        // The journaled price is the one the round computes again from the
        // same cards and balls: a refusal here changes nothing.
        let _ = match step.decision {
            BingoDecision::Buy => round.buy().map(|_| ()),
            BingoDecision::Stop => round.stop(),
        };
    }

    fn decided(&self, round: &Round) -> bool {
        round.phase() == Phase::Done
    }

    fn win(&self, round: &Round) -> u64 {
        round.win()
    }

    fn staked(&self, round: &Round) -> u64 {
        round.staked()
    }

    fn components(&self, round: &Round, denom: Cents) -> Vec<WinComponent> {
        round
            .prizes()
            .into_iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let p = round.patterns().get(p?)?;
                Some(WinComponent { label: format!("card {} {} ({}×)", i + 1, p.name, p.pays), amount: p.pays * round.bet * denom })
            })
            .collect()
    }

    /// "Bingo within N balls" (B-9 to B-13): a card covered whole by the
    /// N-th ball shown.
    fn hits(&self, round: &Round, trigger: &Trigger) -> bool {
        (0..round.cards.len()).any(|i| bingo_hit(round.covered_at(i).and_then(|n| u8::try_from(n).ok()), trigger))
    }

    fn describe(&self, round: &Round, lang: Lang) -> String {
        let prizes: Vec<String> = round
            .prizes()
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {}: {}", lang.pick("cartão", "card"), i + 1, p.and_then(|p| round.patterns().get(p)).map_or("—", |p| p.name.as_str())))
            .collect();
        let balls: Vec<String> = round.balls_shown().iter().map(|&b| self.0.call(b)).collect();
        format!(
            "{} {}: {} — {}{}",
            round.shown(),
            lang.pick("bolas", "balls"),
            balls.join(" "),
            prizes.join(", "),
            if round.bought.is_empty() { String::new() } else { format!(" — {} {}", round.bought.len(), lang.pick("bolas extra", "extra balls")) }
        )
    }
}
