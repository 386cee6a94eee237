//! A finished round as the player saw it, for the player's history to draw
//! with the game's own art (M-34; issue 45, defect 4: symbols, cards, the
//! pocket, the dice, the balls — never stop indices). Each kind makes its
//! picture from the committed round ([`crate::kind::GameKind::picture`]);
//! the cabinet only draws it.

use game_core::cards::Card;
use game_core::roulette::PocketColour;

/// What the history draws for one round, and a short caption beside it
/// (the hand's name, the chance decided, the prizes), in the session's
/// language.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundPicture {
    pub scene: Scene,
    pub caption: String,
}

/// The round's outcome as pictures.
#[derive(Clone, Debug, PartialEq)]
pub enum Scene {
    /// A reel game's window, row by row, each symbol by its id (the art
    /// kit's `games/<game>/symbols/<id>.svg`); the free games it gave are
    /// in the caption.
    Reels { rows: Vec<Vec<String>> },
    /// Hands of cards in the order they were dealt, each named (player,
    /// banker, dealer, hand 2…); the cards as they ended.
    Cards(Vec<Hand>),
    /// The pocket the ball came to rest in, as the wheel names it (0, 00,
    /// 1–36) and its colour.
    Pocket { name: String, colour: PocketColour },
    /// The place a wheel stopped at under its pointer (boule's
    /// compartment, the wheel of fortune's section) or a count's result
    /// (fantan's remainder), as the table names it, on its colour (sRGB).
    Section { name: String, fill: [u8; 3] },
    /// Every throw of the dice, the deciding throw last.
    Dice(Vec<Vec<u8>>),
    /// Bingo: the balls drawn in order (extra balls bought among them, at
    /// the end), and how many of them were bought.
    Balls { drawn: Vec<u8>, bought: usize },
}

/// One hand of cards and whose it was.
#[derive(Clone, Debug, PartialEq)]
pub struct Hand {
    pub label: String,
    pub cards: Vec<Card>,
}

impl Hand {
    pub fn new(label: impl Into<String>, cards: &[Card]) -> Hand {
        Hand { label: label.into(), cards: cards.to_vec() }
    }
}
