//! A round of video bingo: the cards and the committed ball sequence, the
//! balls shown so far, the extra balls bought and their prices.

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::pattern::{Pattern, best};
use super::{BingoGame, ExtraBalls};

/// Where the round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// An extra ball is offered: buy it, or stop.
    Offer,
    /// Nothing more to decide: settle.
    Done,
}

/// An extra ball on offer, priced from what the player sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// The price in credits.
    pub price: u64,
    /// The ball's expected value in credits, as the fraction
    /// `value.0 / value.1`: the prize gained by each ball still in the
    /// drum, summed over the cards, over the balls still in the drum.
    pub value: (u64, u64),
    /// What the ball could complete: (ball, card, pattern), for the screen
    /// (M-11: the foreseeable results before the purchase).
    pub completes: Vec<(u8, usize, usize)>,
}

/// A decision the round does not offer now.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("no extra ball is offered now")]
pub struct NotOffered;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub cards: Vec<Card>,
    /// The bet on each card, in credits.
    pub bet: u64,
    /// The committed ball sequence: the fixed draw, then the extra balls.
    pub sequence: Vec<u8>,
    /// The balls of the fixed draw.
    pub base: usize,
    /// The price of each extra ball bought, in order.
    pub bought: Vec<u64>,
    /// The player stopped buying.
    pub stopped: bool,
    patterns: Vec<Pattern>,
    extra: Option<ExtraBalls>,
    drum: u8,
}

impl Round {
    pub fn new(game: &BingoGame, bet: u64, cards: Vec<Card>, sequence: Vec<u8>) -> Round {
        let base = usize::from(game.balls).min(sequence.len());
        Round { cards, bet, sequence, base, bought: Vec::new(), stopped: false, patterns: game.patterns.clone(), extra: game.extra, drum: game.variant.balls() }
    }

    /// The round rebuilt from its deal and its committed decisions (true:
    /// buy, false: stop).
    pub fn replay(game: &BingoGame, bet: u64, cards: Vec<Card>, sequence: Vec<u8>, decisions: &[bool]) -> Result<Round, NotOffered> {
        let mut r = Round::new(game, bet, cards, sequence);
        for &buy in decisions {
            if buy {
                r.buy()?;
            } else {
                r.stop()?;
            }
        }
        Ok(r)
    }

    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// How many balls are shown: the fixed draw and the extras bought.
    pub fn shown(&self) -> usize {
        (self.base + self.bought.len()).min(self.sequence.len())
    }

    pub fn balls_shown(&self) -> &[u8] {
        &self.sequence[..self.shown()]
    }

    fn drawn_bits(&self, upto: usize) -> u128 {
        self.sequence[..upto].iter().fold(0u128, |m, &b| m | 1u128 << b)
    }

    /// The cells of card `i` marked after the first `upto` balls.
    pub fn marked_after(&self, i: usize, upto: usize) -> u32 {
        self.cards.get(i).map_or(0, |c| c.marked(self.drawn_bits(upto.min(self.sequence.len()))))
    }

    /// The pattern each card pays after `upto` balls (M-13).
    pub fn prizes_after(&self, upto: usize) -> Vec<Option<usize>> {
        (0..self.cards.len()).map(|i| best(&self.patterns, self.marked_after(i, upto))).collect()
    }

    /// The pattern each card pays now.
    pub fn prizes(&self) -> Vec<Option<usize>> {
        self.prizes_after(self.shown())
    }

    fn pays(&self, p: Option<usize>) -> u64 {
        p.and_then(|p| self.patterns.get(p)).map_or(0, |p| p.pays)
    }

    /// The win in credits after `upto` balls: each card's highest pattern
    /// times the bet on it, summed over the cards (M-13, M-14).
    pub fn win_after(&self, upto: usize) -> u64 {
        self.prizes_after(upto).into_iter().map(|p| self.pays(p).saturating_mul(self.bet)).fold(0, u64::saturating_add)
    }

    /// The win now.
    pub fn win(&self) -> u64 {
        self.win_after(self.shown())
    }

    /// Every stake: the bet on each card and each extra ball's price.
    pub fn staked(&self) -> u64 {
        self.bet.saturating_mul(self.cards.len() as u64).saturating_add(self.bought.iter().sum())
    }

    /// The extra ball on offer now, if any: while extra balls remain, a
    /// prize is within one ball on some card, and the ball returns at
    /// least the paytable's floor of its price. Its price depends only on
    /// the cards and the balls shown.
    pub fn offer(&self) -> Option<Offer> {
        let extra = self.extra?;
        if self.stopped || self.bought.len() >= usize::from(extra.most) || self.shown() >= self.sequence.len() {
            return None;
        }
        let drawn = self.drawn_bits(self.shown());
        let now: Vec<u32> = self.cards.iter().map(|c| c.marked(drawn)).collect();
        let current: Vec<u64> = now.iter().map(|&m| self.pays(best(&self.patterns, m))).collect();
        let mut total = 0u64;
        let mut completes = Vec::new();
        for ball in 1..=self.drum {
            if drawn >> ball & 1 == 1 {
                continue;
            }
            for (i, card) in self.cards.iter().enumerate() {
                let Some(cell) = card.cell_of(ball) else { continue };
                let p = best(&self.patterns, now[i] | 1 << cell);
                let gain = self.pays(p).saturating_sub(current[i]);
                if gain > 0 {
                    total = total.saturating_add(gain);
                    completes.extend(p.map(|p| (ball, i, p)));
                }
            }
        }
        let remaining = u64::from(self.drum) - self.shown() as u64;
        let value = total.checked_mul(self.bet)?;
        let price = extra.price(value, remaining)?;
        Some(Offer { price, value: (value, remaining), completes })
    }

    pub fn phase(&self) -> Phase {
        if self.offer().is_some() { Phase::Offer } else { Phase::Done }
    }

    /// Buys the extra ball on offer: its price, now part of the stakes.
    pub fn buy(&mut self) -> Result<u64, NotOffered> {
        let offer = self.offer().ok_or(NotOffered)?;
        self.bought.push(offer.price);
        Ok(offer.price)
    }

    /// Declines the extra ball on offer, ending the round.
    pub fn stop(&mut self) -> Result<(), NotOffered> {
        self.offer().ok_or(NotOffered)?;
        self.stopped = true;
        Ok(())
    }

    /// The patterns better than what card `i` pays that one more number
    /// would complete, and the cells that would (B-95).
    pub fn one_to_go(&self, i: usize) -> Vec<(usize, u32)> {
        let marked = self.marked_after(i, self.shown());
        let now = self.pays(best(&self.patterns, marked));
        self.patterns.iter().enumerate().filter(|(_, p)| p.pays > now).map(|(k, p)| (k, p.one_to_go(marked))).filter(|(_, cells)| *cells != 0).collect()
    }

    /// How many balls had been shown when card `i` was covered whole, if it
    /// is (the "bingo within N balls" progressive, B-9).
    pub fn covered_at(&self, i: usize) -> Option<usize> {
        let card = self.cards.get(i)?;
        let shown = self.balls_shown();
        card.numbers().map(|n| shown.iter().position(|&b| b == n).map(|at| at + 1)).try_fold(0, |m, at| at.map(|a| a.max(m)))
    }
}
