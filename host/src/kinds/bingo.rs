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

use crate::kind::{BetControl, Decided, GameKind, NoEdit, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

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
        lang.t("bingo")
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

    /// C-26: the cards' stake; an extra ball, priced from the draw, is
    /// judged when it is offered (the host refuses one that would take the
    /// round to the limit).
    fn most_staked(&self, bet: &BingoBet) -> u64 {
        self.stake(bet)
    }

    fn bet_text(&self, bet: &BingoBet, lang: Lang) -> String {
        format!("{} {} × {} {}", bet.cards, lang.t("cartões"), bet.bet, lang.t("créd."))
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

    /// The balls in the order drawn, each of the variant's balls alike.
    fn shown(&self, deal: &BingoDeal) -> Vec<Shown> {
        let n = u64::from(self.0.variant.balls());
        deal.balls.iter().enumerate().map(|(i, &b)| Shown::uniform(format!("ball {}", i + 1), u64::from(b.saturating_sub(1)), n)).collect()
    }

    fn describe(&self, round: &Round, lang: Lang) -> String {
        let prizes: Vec<String> = round
            .prizes()
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {}: {}", lang.t("cartão"), i + 1, p.and_then(|p| round.patterns().get(p)).map_or("—", |p| lang.term(&p.name))))
            .collect();
        let balls: Vec<String> = round.balls_shown().iter().map(|&b| self.0.call(b)).collect();
        format!(
            "{} {}: {} — {}{}",
            round.shown(),
            lang.t("bolas"),
            balls.join(" "),
            prizes.join(", "),
            if round.bought.is_empty() { String::new() } else { format!(" — {}", lang.count(round.bought.len() as u64, "bola extra", "bolas extra")) }
        )
    }

    /// The balls drawn and each card's prize.
    fn picture(&self, round: &Round, lang: Lang) -> RoundPicture {
        let prizes: Vec<String> = round
            .prizes()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.and_then(|p| round.patterns().get(p)).map(|p| format!("{} {}: {}", lang.t("cartão"), i + 1, lang.term(&p.name))))
            .collect();
        let caption = if prizes.is_empty() { lang.t("sem prémio").to_owned() } else { prizes.join(", ") };
        RoundPicture { scene: Scene::Balls { drawn: round.balls_shown().to_vec(), bought: round.bought.len() }, caption }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use game_core::bingo::{ExtraBalls, Pattern, Shape, Variant};

    use super::*;

    fn game() -> BingoGame {
        let v = Variant::Thirty;
        BingoGame {
            id: "b30".into(),
            name: "B30".into(),
            variant: v,
            balls: 15,
            most_cards: 4,
            patterns: vec![Pattern { name: "bingo".into(), masks: Shape::FullCard.masks(v).unwrap(), pays: 100 }],
            extra: Some(ExtraBalls { most: 2, margin_bp: 0, offer_floor_bp: 8000 }),
            minimum: 1,
            maximum: 10,
            symbols: Vec::new(),
        }
    }

    /// B-9 to B-13: the "bingo within N balls" trigger counts the balls
    /// shown when a card's last number fell, extra balls included.
    #[test]
    fn bingo_within_n_balls_counts_the_ball_that_covered_the_card() {
        let k = Bingo(game());
        let card = Card { cells: vec![1, 11, 21, 2, 12, 22, 3, 13, 23] };
        // The card's nine numbers are balls 7 to 15 of the draw.
        let mut balls: Vec<u8> = vec![4, 5, 6, 7, 8, 9, 1, 11, 21, 2, 12, 22, 3, 13, 23];
        balls.extend([24, 25]);
        let r = k.open(&BingoBet { cards: 1, bet: 1 }, &BingoDeal { cards: vec![card.clone()], balls });
        assert_eq!(r.covered_at(0), Some(15));
        assert!(k.hits(&r, &Trigger::BingoWithin { balls: 15 }));
        assert!(!k.hits(&r, &Trigger::BingoWithin { balls: 14 }));
        // Covered by the first extra ball bought: the 16th ball.
        let mut balls: Vec<u8> = vec![4, 5, 6, 7, 8, 9, 10, 1, 11, 21, 2, 12, 22, 3, 13, 23, 24];
        balls.truncate(17);
        let mut r = k.open(&BingoBet { cards: 1, bet: 5 }, &BingoDeal { cards: vec![card], balls });
        assert!(!k.hits(&r, &Trigger::BingoWithin { balls: 16 }), "not before the extra ball is shown");
        let Ok(Decided::Commit { step, extra_stake }) = k.decide(&mut r, &BingoDecision::Buy) else { panic!("no offer") };
        // One number missing, 15 balls left, 100 × 5 credits: value 500/15.
        assert_eq!(extra_stake, 500_u64.div_ceil(15));
        k.apply(&mut r, &step);
        assert_eq!(r.covered_at(0), Some(16));
        assert!(k.hits(&r, &Trigger::BingoWithin { balls: 16 }));
        assert_eq!(k.win(&r), 500);
        assert_eq!(k.staked(&r), 5 + 34);
    }

    /// The bet: cards 1 to the most, credits per card from the least to the
    /// most; anything else refused by name.
    #[test]
    fn the_bet_is_cards_and_credits_per_card() {
        let k = Bingo(game());
        let b = k.opening_bet();
        assert_eq!((b.cards, b.bet), (4, 1));
        assert_eq!(k.stake(&k.adjust_bet(&b, BetControl::Amount, 3)), 16);
        assert_eq!(k.adjust_bet(&b, BetControl::Lines, -2).cards, 2);
        assert!(k.check_bet(&BingoBet { cards: 5, bet: 1 }).unwrap_err().en.contains("1 to 4 cards"));
    }
}
