//! The fair double-up (gamble) after a win (M-11, decisions.md "Optional
//! bets"): the player picks one of two equally likely colours; right doubles
//! the amount at stake, wrong loses it. Exactly 50%, so the gamble step
//! returns exactly 100%. At most `max_doubles` doubles, and no double that
//! could take the amount past `max_win`.

use meters::GameRng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoubleUpRule {
    /// At most 5 by decisions.md.
    pub max_doubles: u8,
    /// The largest amount a double may reach, in credits.
    pub max_win_credits: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Black,
}

/// One gamble: what was at stake, the player's pick, the card, the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gamble {
    pub stake: u64,
    pub pick: Colour,
    pub drawn: Colour,
    pub result: u64,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DoubleUpError {
    #[error("no double-up: nothing at stake")]
    NothingAtStake,
    #[error("no double-up: the limit of {0} doubles is reached")]
    TooManyDoubles(u8),
    #[error("no double-up: doubling {0} credits would pass the maximum win of {1}")]
    OverMaximum(u64, u64),
}

impl DoubleUpRule {
    /// Whether another double is offered for `amount` after `done` doubles
    /// (shown to the player before they choose, M-11).
    pub fn check(&self, amount: u64, done: u8) -> Result<(), DoubleUpError> {
        if amount == 0 {
            return Err(DoubleUpError::NothingAtStake);
        }
        if done >= self.max_doubles {
            return Err(DoubleUpError::TooManyDoubles(self.max_doubles));
        }
        match amount.checked_mul(2) {
            Some(d) if d <= self.max_win_credits => Ok(()),
            _ => Err(DoubleUpError::OverMaximum(amount, self.max_win_credits)),
        }
    }

    /// Play one double: a uniform draw of two colours.
    pub fn gamble(&self, rng: &mut impl GameRng, amount: u64, done: u8, pick: Colour) -> Result<Gamble, DoubleUpError> {
        self.check(amount, done)?;
        let drawn = if rng.uniform(2) == 0 { Colour::Red } else { Colour::Black };
        let result = if drawn == pick { amount * 2 } else { 0 };
        Ok(Gamble { stake: amount, pick, drawn, result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use meters::StreamRng;

    #[test]
    fn the_gamble_is_fair_and_bounded() {
        let rule = DoubleUpRule { max_doubles: 5, max_win_credits: 1_000 };
        assert_eq!(rule.check(0, 0), Err(DoubleUpError::NothingAtStake));
        assert_eq!(rule.check(10, 5), Err(DoubleUpError::TooManyDoubles(5)));
        assert_eq!(rule.check(501, 0), Err(DoubleUpError::OverMaximum(501, 1_000)));
        let mut rng = StreamRng::from_seed(3);
        let n = 1_000_000u64;
        let mut back = 0u64;
        for _ in 0..n {
            back += rule.gamble(&mut rng, 10, 0, Colour::Red).unwrap().result;
        }
        // Exactly fair in expectation: 99% interval of the mean of ±10.
        let mean = back as f64 / n as f64;
        assert!((mean - 10.0).abs() < 2.58 * 10.0 / (n as f64).sqrt(), "mean {mean}");
    }
}
