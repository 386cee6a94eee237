//! Live-game fidelity (certification.md B-18): for roulette, blackjack,
//! poker, baccarat and bingo, the chance the game gives each symbol — a
//! pocket, a card, a ball — counted through the very calls its draw reads
//! outcomes by (`Wheel::sequence` indexed uniformly, `Pack::card`,
//! `Variant::ball`), set against the live game's, built here apart from
//! game-core's draw: every number of the wheel once, every card of every
//! deck once (and the joker of a joker deck), every ball of the drum once.
//!
//! A symbol whose chance differs from the live game's by more than 0.001
//! percentage points, or one only one side has, refuses the paytable at
//! compile time. The formats give a designer no way to weight a pocket, a
//! card or a ball, so no deviation can be disclosed: one can only come
//! from the game's own draw code, and this check is what catches it.

use std::collections::BTreeMap;

use game_core::bingo::Variant;
use game_core::cards::{Card, Pack, RANKS, SUITS};
use game_core::roulette::{Wheel, pocket_name};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;

use crate::artifact::CompiledGame;
use crate::floor::decimal;

/// How far a symbol's chance may stand from the live game's: 0.001
/// percentage points (B-18).
pub fn tolerance() -> BigRational {
    BigRational::new(BigInt::from(1), BigInt::from(100_000))
}

/// The symbols a game draws from, as its draw reads them, and the live
/// game's, each symbol by its name with its weight.
pub struct Symbols {
    /// What a symbol is ("pocket", "card", "ball").
    pub kind: &'static str,
    pub game: Vec<String>,
    pub live: Vec<String>,
}

/// A game's symbols checked against the live game.
#[derive(Debug)]
pub struct Fidelity {
    pub kind: &'static str,
    /// The distinct symbols of the live game.
    pub symbols: usize,
    /// The largest difference of chance found, over every symbol.
    pub largest_difference: BigRational,
    /// Each symbol whose chance differs by more than [`tolerance`], with
    /// the game's chance and the live game's.
    pub deviations: Vec<(String, BigRational, BigRational)>,
}

impl Fidelity {
    pub fn holds(&self) -> bool {
        self.deviations.is_empty()
    }

    /// One line for `paytable fidelity` and the refusal's context.
    pub fn summary(&self) -> String {
        format!(
            "{} {}s, each within {} percentage points of the live game's chance (largest difference {} points; certification.md B-18)",
            self.symbols,
            self.kind,
            decimal(&(tolerance() * BigRational::from_integer(100.into())), 3),
            percent(&self.largest_difference),
        )
    }
}

/// A chance as a percentage, to eight places.
fn percent(x: &BigRational) -> String {
    decimal(&(x * BigRational::from_integer(100.into())), 8)
}

/// The symbols of a compiled game that B-18 covers; None for the kinds it
/// does not name (reels, dice, wheels of fortune: their chances are the
/// paytable's own).
pub fn symbols(game: &CompiledGame) -> Option<Symbols> {
    let cards = |pack: Pack, live_decks: u8, joker: bool| Symbols {
        kind: "card",
        game: (0..pack.size()).map(|i| pack.card(i).to_string()).collect(),
        live: live_shoe(live_decks, joker),
    };
    Some(match game {
        CompiledGame::Roulette(g) => Symbols { kind: "pocket", game: wheel_draw(g.wheel), live: live_wheel(g.wheel) },
        CompiledGame::Blackjack(g) => cards(g.pack(), g.rules.decks, false),
        CompiledGame::Baccarat(g) => cards(g.pack(), g.decks, false),
        CompiledGame::DesafioAoCasino(g) => cards(g.pack(), g.decks.max(1), false),
        CompiledGame::DrawPoker(g) => cards(g.pack(), 1, g.wild == game_core::draw_poker::Wild::Joker),
        CompiledGame::StudPoker(_) => cards(game_core::stud_poker::StudPokerGame::pack(), 1, false),
        CompiledGame::Poquer3Cartas(_) => cards(game_core::poquer_3_cartas::Poquer3CartasGame::pack(), 1, false),
        CompiledGame::Bingo(g) => Symbols { kind: "ball", game: ball_draw(g.variant), live: live_drum(g.variant) },
        _ => return None,
    })
}

/// The pockets as `RouletteGame::spin` reads them: the wheel's sequence,
/// one index drawn uniformly.
fn wheel_draw(wheel: Wheel) -> Vec<String> {
    wheel.sequence().iter().map(|&p| pocket_name(p)).collect()
}

/// The live wheel: every number 0 to 36 once, and 00 on the 38-pocket
/// wheel (FR 4, AR 3, AR 4).
fn live_wheel(wheel: Wheel) -> Vec<String> {
    let mut out: Vec<String> = (0..=36).map(|n: u8| n.to_string()).collect();
    if wheel == Wheel::American38 {
        out.push("00".to_owned());
    }
    out
}

/// The balls as a draw reads them from the drum's indices.
fn ball_draw(variant: Variant) -> Vec<String> {
    (0..usize::from(variant.balls())).map(|i| variant.ball(i).to_string()).collect()
}

/// The live drum: every number from 1 to the variant's count once.
fn live_drum(variant: Variant) -> Vec<String> {
    (1..=variant.balls()).map(|n| n.to_string()).collect()
}

/// The live shoe: every rank of every suit once a deck, and the joker.
fn live_shoe(decks: u8, joker: bool) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..decks {
        for rank in 0..RANKS as u8 {
            for suit in 0..SUITS as u8 {
                out.push(Card::new(rank, suit).to_string());
            }
        }
    }
    if joker {
        out.push(Card::JOKER.to_string());
    }
    out
}

/// Each symbol's chance in the game's draw set against the live game's.
pub fn compare(symbols: &Symbols) -> Fidelity {
    let chances = |list: &[String]| -> BTreeMap<String, BigRational> {
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        for s in list {
            *counts.entry(s.clone()).or_default() += 1;
        }
        let total = BigInt::from(list.len().max(1));
        counts.into_iter().map(|(s, c)| (s, BigRational::new(BigInt::from(c), total.clone()))).collect()
    };
    let (game, live) = (chances(&symbols.game), chances(&symbols.live));
    let zero = BigRational::from_integer(0.into());
    let mut names: Vec<&String> = game.keys().chain(live.keys()).collect();
    names.sort();
    names.dedup();
    let mut largest = zero.clone();
    let mut deviations = Vec::new();
    for name in names {
        let g = game.get(name).cloned().unwrap_or_else(|| zero.clone());
        let l = live.get(name).cloned().unwrap_or_else(|| zero.clone());
        let difference = (&g - &l).abs();
        if difference > tolerance() {
            deviations.push((name.clone(), g, l));
        }
        if difference > largest {
            largest = difference;
        }
    }
    Fidelity { kind: symbols.kind, symbols: live.len(), largest_difference: largest, deviations }
}

/// The compiled game checked against its live game; None where B-18 names
/// no live game.
pub fn check(game: &CompiledGame) -> Option<Fidelity> {
    symbols(game).map(|s| compare(&s))
}

/// Every symbol that refuses the game, named with both chances.
pub fn refusals(game: &CompiledGame) -> Vec<String> {
    let Some(f) = check(game) else { return Vec::new() };
    f.deviations
        .iter()
        .map(|(name, g, l)| {
            format!(
                "{}: the {} {name} is drawn with a chance of {}% where the live game gives {}% (more than 0.001 percentage points apart; certification.md B-18)",
                game.id(),
                f.kind,
                percent(g),
                percent(l)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wheel_drum_and_pack_of_game_core_is_the_live_games() {
        for wheel in [Wheel::French, Wheel::American37, Wheel::American38] {
            let f = compare(&Symbols { kind: "pocket", game: wheel_draw(wheel), live: live_wheel(wheel) });
            assert!(f.holds(), "{wheel:?}: {:?}", f.deviations);
            assert_eq!(f.symbols, if wheel == Wheel::American38 { 38 } else { 37 });
            assert_eq!(f.largest_difference, BigRational::from_integer(0.into()));
        }
        for variant in Variant::ALL {
            let f = compare(&Symbols { kind: "ball", game: ball_draw(variant), live: live_drum(variant) });
            assert!(f.holds() && f.symbols == usize::from(variant.balls()), "{variant:?}: {:?}", f.deviations);
        }
        for decks in 1..=8 {
            let pack = Pack::decks(decks);
            let game = (0..pack.size()).map(|i| pack.card(i).to_string()).collect();
            let f = compare(&Symbols { kind: "card", game, live: live_shoe(decks, false) });
            assert!(f.holds() && f.symbols == 52, "{decks} decks: {:?}", f.deviations);
        }
        let joker = Pack::deck(true);
        let f = compare(&Symbols { kind: "card", game: (0..53).map(|i| joker.card(i).to_string()).collect(), live: live_shoe(1, true) });
        assert!(f.holds() && f.symbols == 53, "{:?}", f.deviations);
    }

    /// The negative controls: a wheel with one number twice and one
    /// missing, a shoe read modulo 51, a deck without its joker: each
    /// refused, the symbols named with both chances.
    #[test]
    fn a_draw_that_is_not_the_live_games_is_refused_by_symbol() {
        let mut wheel = wheel_draw(Wheel::French);
        let at = wheel.iter().position(|p| p == "32").unwrap();
        wheel[at] = "0".to_owned();
        let f = compare(&Symbols { kind: "pocket", game: wheel, live: live_wheel(Wheel::French) });
        let ratio = |n: i64, d: i64| BigRational::new(BigInt::from(n), BigInt::from(d));
        assert_eq!(f.deviations, vec![("0".to_owned(), ratio(2, 37), ratio(1, 37)), ("32".to_owned(), ratio(0, 1), ratio(1, 37))]);
        assert_eq!(f.largest_difference, ratio(1, 37));

        let shoe: Vec<String> = (0..312).map(|i| Card::from_index((i % 51) as u8).unwrap().to_string()).collect();
        let f = compare(&Symbols { kind: "card", game: shoe, live: live_shoe(6, false) });
        // 312 = 51 × 6 + 6: the first six cards come 7 times in 312, the
        // next 45 as live (6 in 312), the ace of spades never.
        let seven = BigRational::new(BigInt::from(7), BigInt::from(312));
        assert_eq!(f.deviations.len(), 7, "{:?}", f.deviations);
        assert!(f.deviations[..].iter().filter(|(_, g, _)| *g == seven).count() == 6, "{:?}", f.deviations);
        assert!(f.deviations.iter().any(|(n, g, l)| n == "As" && *g == ratio(0, 1) && *l == ratio(1, 52)), "{:?}", f.deviations);

        let f = compare(&Symbols { kind: "card", game: live_shoe(1, false), live: live_shoe(1, true) });
        assert_eq!(f.deviations.len(), 53, "the joker missing changes every chance: 1/52 against 1/53");
        assert_eq!(f.deviations.iter().find(|d| d.0 == "Jk").map(|d| (d.1.clone(), d.2.clone())), Some((ratio(0, 1), ratio(1, 53))));
    }

    /// 0.001 percentage points is the line: one extra zero on a wheel of
    /// `copies` French wheels moves the zero's chance by 36 / (37 × (37 ×
    /// copies + 1)): 1.00024e-5 at 2,629 copies (refused), 0.99986e-5 at
    /// 2,630 (accepted).
    #[test]
    fn the_tolerance_is_a_thousandth_of_a_percentage_point() {
        let wheel = |copies: usize| {
            let mut w: Vec<String> = (0..copies).flat_map(|_| wheel_draw(Wheel::French)).collect();
            w.push("0".to_owned());
            compare(&Symbols { kind: "pocket", game: w, live: live_wheel(Wheel::French) })
        };
        let zero_moves = |copies: i64| BigRational::new(BigInt::from(36), BigInt::from(37 * (37 * copies + 1)));
        let inside = wheel(2_630);
        assert!(inside.holds(), "{:?}", inside.deviations);
        assert_eq!(inside.largest_difference, zero_moves(2_630));
        let outside = wheel(2_629);
        assert_eq!(outside.deviations.iter().map(|d| d.0.as_str()).collect::<Vec<_>>(), ["0"]);
        assert_eq!(outside.largest_difference, zero_moves(2_629));
    }
}
