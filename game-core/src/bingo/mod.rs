//! Video bingo (machines-and-bingo.md §2, decisions.md "Bingo"): one
//! player plays 1 to 4 cards of one of the text's four layouts at a bet
//! per card; a fixed number of balls is drawn without replacement and
//! shown one at a time; marking and paying are automatic (B-96, B-97);
//! each card pays only its highest pattern (M-13) and the cards' prizes
//! are summed (M-14). Extra balls may then be bought one at a time, each
//! priced from what the player can see (the cards and the balls shown),
//! never from the balls still hidden, and offered only when a prize is in
//! reach and the ball returns at least the paytable's floor of its price
//! (M-11, M-17).
//!
//! The whole ball sequence (the fixed draw and every extra ball that could
//! be bought) is drawn by the core at the deal and committed before
//! anything is shown, as a blackjack shoe is: an extra ball only reveals
//! the next ball of it.

pub mod card;
pub mod extra;
pub mod odds;
pub mod pattern;
mod round;
pub mod variant;

#[cfg(test)]
mod tests;

use meters::GameRng;
use serde::{Deserialize, Serialize};

pub use card::Card;
pub use pattern::{Pattern, Shape};
pub use round::{Offer, Phase, Round};
pub use variant::Variant;

/// The extra balls a paytable offers after the draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraBalls {
    /// The most extra balls one round may buy.
    pub most: u8,
    /// The house margin on the expected value, in basis points (1000 is
    /// 10 %): the price is the expected value times (1 + margin), rounded
    /// up to whole credits.
    pub margin_bp: u32,
    /// An offer is made only when the ball returns at least this share of
    /// its price, in basis points (at least the 80 % floor, M-17): every
    /// purchase then returns at least this, whatever the player's policy.
    pub offer_floor_bp: u32,
}

impl ExtraBalls {
    /// The price of an extra ball whose prizes, summed over every ball
    /// still in the drum and over the cards, come to `value` credits, with
    /// `remaining` balls in the drum: ⌈value × (1 + margin) / remaining⌉,
    /// at least 1 credit. None when no ball is offered: nothing to gain, an
    /// empty drum, a price beyond `u64`, or a ball returning less than the
    /// offer floor of its price (value / remaining < floor × price, M-17).
    /// The one pricing rule: the round and the paytable's figures both use
    /// it.
    pub fn price(&self, value: u64, remaining: u64) -> Option<u64> {
        if value == 0 || remaining == 0 {
            return None;
        }
        // In u128: value < 2^64 and margin < 2^32, so nothing overflows.
        let num = u128::from(value) * (10_000 + u128::from(self.margin_bp));
        let den = u128::from(remaining) * 10_000;
        let price = u64::try_from(num.div_ceil(den)).ok()?.max(1);
        if u128::from(value) * 10_000 < u128::from(self.offer_floor_bp) * u128::from(price) * u128::from(remaining) {
            return None;
        }
        Some(price)
    }
}

/// An approved bingo paytable, as the cabinet plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BingoGame {
    pub id: String,
    pub name: String,
    pub variant: Variant,
    /// The balls drawn in every round (a paytable parameter; the text is
    /// silent, §2.12).
    pub balls: u8,
    /// The most cards a round may play (1 to 4).
    pub most_cards: u8,
    /// The patterns, each paying per credit bet on the card.
    pub patterns: Vec<Pattern>,
    pub extra: Option<ExtraBalls>,
    /// The bet per card: the least, and the most, in credits.
    pub minimum: u64,
    pub maximum: u64,
    /// The 30-ball symbols in place of the numbers 1–30 (B-80), if any.
    #[serde(default)]
    pub symbols: Vec<String>,
}

impl BingoGame {
    /// The line masks of the variant, for the no-repeated-line rule.
    pub fn lines(&self) -> Vec<u32> {
        Card::line_masks(self.variant)
    }

    /// The balls the deal draws: the fixed draw, then every extra ball a
    /// round could buy.
    pub fn sequence_len(&self) -> usize {
        usize::from(self.balls) + usize::from(self.extra.map_or(0, |e| e.most))
    }

    /// The deal: `cards` different cards and the ball sequence, drawn by
    /// the core.
    pub fn deal(&self, cards: usize, rng: &mut impl GameRng) -> (Vec<Card>, Vec<u8>) {
        let set = Card::generate_set(self.variant, cards, &self.lines(), rng);
        let balls = rng.draw_without_replacement(usize::from(self.variant.balls()), self.sequence_len()).into_iter().map(|b| self.variant.ball(b)).collect();
        (set, balls)
    }

    /// What a ball is called on screen: its number (with its column letter
    /// on 75-ball, B-77), or its symbol (B-80).
    pub fn call(&self, ball: u8) -> String {
        if let Some(s) = self.symbols.get(usize::from(ball).wrapping_sub(1)) {
            return s.clone();
        }
        match self.variant.letter(ball) {
            Some(l) => format!("{l}-{ball}"),
            None => ball.to_string(),
        }
    }
}
