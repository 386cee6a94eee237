//! The odds of a progressive trigger at every bet a reel game offers
//! (issue 69): what a linked pool's approval weighs each level's award
//! by. A trigger that comes once in 10.6 rounds at any bet makes a 1,000 c
//! level cost 9,400 % of a 1 c wager; the approval refuses it with this
//! figure.
//!
//! A reel combination's probability at `L` lines is the exact analysis
//! ([`reel_math::analyse`]) of the game with only its first `L` paylines,
//! read from the base spins that pay the trigger's symbol `count` or more
//! long on at least one played line — the same line evaluation the
//! controller's service judges a claim by (game-core's `spin_hits`):
//!
//! * over the full cycle (`Method::FullCycle`), exact when one length of
//!   the run can pay (a spin paying the symbol at two lengths on two lines
//!   is counted once per length, so with several lengths the sum is an
//!   upper bound);
//! * from symbol counts, the expected number of paying lines: an upper
//!   bound;
//! * ways and cascade games are not weighed here (the approval refuses
//!   what it cannot weigh).
//!
//! The hold-and-spin's progressive grand is bounded by the feature's own
//! probability (the grand needs the feature): an upper bound.
//! A trigger that needs the largest bet per line has probability zero at
//! every smaller bet, as `spin_hits` judges it.

use game_core::progressive::Trigger;
use game_core::reels::ReelGame;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use crate::reel_math::{self, MathError, Method};

/// A trigger's probability per round at one bet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetOdds {
    pub lines: u32,
    pub credits_per_line: u64,
    pub probability: BigRational,
    /// Exact, or an upper bound.
    pub exact: bool,
}

/// Why a trigger's odds could not be weighed.
#[derive(Debug, thiserror::Error)]
pub enum OddsError {
    #[error("game {game}: {what}; a pool whose trigger cannot be weighed is not approved")]
    NotWeighed { game: String, what: String },
    #[error("game {game}: {source}")]
    Math { game: String, source: MathError },
}

/// The probability per round of `trigger` at every bet `game` offers
/// (every line count × every credits per line), in the game's order.
pub fn trigger_odds(game: &ReelGame, trigger: &Trigger) -> Result<Vec<BetOdds>, OddsError> {
    let not_weighed = |what: String| OddsError::NotWeighed { game: game.id.clone(), what };
    let max_cpl = game.bet.credits_per_line.iter().copied().max().unwrap_or(0);
    let per_lines: Vec<(u32, BigRational, bool)> = match trigger {
        Trigger::ReelCombination { symbol, count, .. } => {
            if game.ways || game.cascade.is_some() {
                return Err(not_weighed("the odds of a reel combination are weighed for line games (this one is a ways or cascade game)".into()));
            }
            let sym = game.symbols.iter().position(|s| &s.id == symbol).ok_or_else(|| not_weighed(format!("no symbol {symbol}")))?;
            let mut out = Vec::new();
            for &lines in &game.bet.lines {
                let (p, exact) = combination_at(game, lines, sym, *count)?;
                out.push((lines, p, exact));
            }
            out
        }
        Trigger::HoldAndSpinGrand { .. } => {
            let pooled = game.hold_and_spin.as_ref().is_some_and(|h| h.grand_progressive);
            let p = if pooled {
                let figures = reel_math::analyse(game).map_err(|source| OddsError::Math { game: game.id.clone(), source })?;
                figures.hold.map(|h| h.trigger_probability).ok_or_else(|| not_weighed("its hold-and-spin feature has no figures".into()))?
            } else {
                BigRational::zero()
            };
            game.bet.lines.iter().map(|&l| (l, p.clone(), !pooled)).collect()
        }
        other => return Err(not_weighed(format!("the trigger {other:?} is not a reel game's"))),
    };
    let needs_max = matches!(trigger, Trigger::ReelCombination { max_bet_only: true, .. } | Trigger::HoldAndSpinGrand { max_bet_only: true });
    let mut odds = Vec::new();
    for (lines, p, exact) in per_lines {
        for &credits_per_line in &game.bet.credits_per_line {
            let below_max = needs_max && credits_per_line < max_cpl;
            let probability = if below_max { BigRational::zero() } else { p.clone() };
            odds.push(BetOdds { lines, credits_per_line, probability, exact: exact || below_max });
        }
    }
    Ok(odds)
}

/// The probability that a base spin at `lines` lines pays symbol `sym`
/// `count` or more long on a played line, and whether it is exact.
fn combination_at(game: &ReelGame, lines: u32, sym: usize, count: u8) -> Result<(BigRational, bool), OddsError> {
    let mut played = game.clone();
    let n = usize::try_from(lines).unwrap_or(usize::MAX).min(game.lines.len());
    played.lines.truncate(n);
    played.bet.lines = vec![lines];
    let figures = reel_math::analyse(&played).map_err(|source| OddsError::Math { game: game.id.clone(), source })?;
    let cycle = BigRational::from_integer(BigInt::from(figures.cycle));
    if figures.cycle == 0 {
        return Err(OddsError::NotWeighed { game: game.id.clone(), what: "its cycle is empty".into() });
    }
    match figures.method {
        Method::FullCycle => {
            let lengths: Vec<u128> = figures.combo_any.iter().filter(|((s, c), _)| usize::from(*s) == sym && *c >= count).map(|(_, w)| *w).collect();
            let weight: u128 = lengths.iter().sum();
            Ok((BigRational::from_integer(BigInt::from(weight)) / cycle, lengths.len() <= 1 || n == 1))
        }
        Method::SymbolCounts => {
            let weight: u128 = figures.combo_hits.iter().filter(|((s, c, _), _)| usize::from(*s) == sym && *c >= count).map(|(_, w)| *w).sum();
            Ok((BigRational::from_integer(BigInt::from(weight)) / cycle, false))
        }
        Method::Ways | Method::Cascade => Err(OddsError::NotWeighed { game: game.id.clone(), what: "its analysis gives no line combinations".into() }),
    }
}
