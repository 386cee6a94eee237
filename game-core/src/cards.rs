//! Playing cards: one 52-card deck (PSD 2), optionally with a joker.
//!
//! A card is one byte: `rank * 4 + suit` for the 52 natural cards, and 52
//! for the joker. Ranks run 2 (0) to ace (12), the order of PSD 2 read
//! upwards; suits run diamonds (0), clubs (1), hearts (2), spades (3), the
//! order of SP-5 read upwards (spades highest).

use serde::{Deserialize, Serialize};

pub const RANKS: usize = 13;
pub const SUITS: usize = 4;
/// Index of the ace among ranks.
pub const ACE: u8 = 12;
pub const KING: u8 = 11;
pub const QUEEN: u8 = 10;
pub const JACK: u8 = 9;
pub const TEN: u8 = 8;
/// Index of the deuce among ranks.
pub const DEUCE: u8 = 0;

/// A card of a 52-card deck, or the joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Card(u8);

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"dchs";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CardError {
    #[error("{0:?} is not a card: write rank then suit, like As, Td, 10h, 2c, or Jk for the joker")]
    NotACard(String),
    #[error("the card {0} is given twice")]
    Duplicate(Card),
    #[error("{0} cards given, a hand has 5")]
    Count(usize),
}

impl Card {
    pub const JOKER: Card = Card(52);

    #[inline]
    pub const fn new(rank: u8, suit: u8) -> Card {
        Card(rank * 4 + suit)
    }

    /// The card with this index (0..52 natural, 52 the joker).
    #[inline]
    pub fn from_index(i: u8) -> Option<Card> {
        (i <= 52).then_some(Card(i))
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// 0 (deuce) to 12 (ace). Meaningless for the joker.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// 0 diamonds, 1 clubs, 2 hearts, 3 spades (SP-5 order).
    #[inline]
    pub const fn suit(self) -> u8 {
        self.0 % 4
    }

    /// The rank's character: 2…9, T, J, Q, K, A.
    pub fn rank_char(rank: u8) -> char {
        RANK_CHARS.get(rank as usize).map_or('?', |&c| c as char)
    }

    pub fn suit_symbol(self) -> char {
        ['♦', '♣', '♥', '♠'][self.suit() as usize]
    }

    /// Whether the suit is red (diamonds, hearts).
    pub fn is_red(self) -> bool {
        !self.is_joker() && (self.suit() == 0 || self.suit() == 2)
    }

    /// "A♠", "T♦", or "Jk".
    pub fn pretty(self) -> String {
        if self.is_joker() { "Jk".into() } else { format!("{}{}", Card::rank_char(self.rank()), self.suit_symbol()) }
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_joker() { f.write_str("Jk") } else { write!(f, "{}{}", Card::rank_char(self.rank()), SUIT_CHARS[self.suit() as usize] as char) }
    }
}

impl std::str::FromStr for Card {
    type Err = CardError;

    fn from_str(s: &str) -> Result<Card, CardError> {
        let t = s.trim();
        let bad = || CardError::NotACard(s.to_owned());
        if t.eq_ignore_ascii_case("jk") || t.eq_ignore_ascii_case("joker") {
            return Ok(Card::JOKER);
        }
        let last = t.char_indices().last().map(|(i, _)| i).ok_or_else(bad)?;
        let (rank_part, suit_part) = t.split_at(last);
        let rank = match rank_part.to_ascii_uppercase().as_str() {
            "10" | "T" => 8,
            r if r.len() == 1 => RANK_CHARS.iter().position(|&c| c as char == r.chars().next().unwrap_or(' ')).ok_or_else(bad)? as u8,
            _ => return Err(bad()),
        };
        let suit = match suit_part {
            "d" | "D" | "♦" => 0,
            "c" | "C" | "♣" => 1,
            "h" | "H" | "♥" => 2,
            "s" | "S" | "♠" => 3,
            _ => return Err(bad()),
        };
        Ok(Card::new(rank, suit))
    }
}

impl TryFrom<String> for Card {
    type Error = CardError;
    fn try_from(s: String) -> Result<Card, CardError> {
        s.parse()
    }
}

impl From<Card> for String {
    fn from(c: Card) -> String {
        c.to_string()
    }
}

/// Parse five distinct cards ("As Kd 10h 2c Jk").
pub fn parse_hand(words: &[String]) -> Result<[Card; 5], CardError> {
    let cards: Vec<Card> = words.iter().flat_map(|w| w.split([' ', ','])).filter(|w| !w.is_empty()).map(str::parse).collect::<Result<_, _>>()?;
    let hand: [Card; 5] = cards.clone().try_into().map_err(|_| CardError::Count(cards.len()))?;
    for i in 0..5 {
        if hand[..i].contains(&hand[i]) {
            return Err(CardError::Duplicate(hand[i]));
        }
    }
    Ok(hand)
}

/// The cards a round is dealt from (B-18): whole 52-card decks, or one
/// deck with its joker. Every deal draws distinct indices into the pack
/// uniformly (the core's draw without replacement) and reads each card by
/// [`Pack::card`]; the paytable compiler counts each card's chance through
/// these same calls against the live game's shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pack {
    decks: u8,
    joker: bool,
}

impl Pack {
    /// `decks` whole decks (at least one).
    pub const fn decks(decks: u8) -> Pack {
        Pack { decks: if decks == 0 { 1 } else { decks }, joker: false }
    }

    /// One deck, with the joker (a 53rd card) when `joker`.
    pub const fn deck(joker: bool) -> Pack {
        Pack { decks: 1, joker }
    }

    /// How many cards the pack holds.
    pub const fn size(self) -> usize {
        52 * self.decks as usize + self.joker as usize
    }

    /// The card at `index` (0 to `size() - 1`): the decks one after the
    /// other in card order, then the joker.
    pub fn card(self, index: usize) -> Card {
        if self.joker && index == 52 * self.decks as usize { Card::JOKER } else { Card((index % 52) as u8) }
    }
}

/// The cards of a deck: 52, plus the joker when `joker`.
pub fn deck(joker: bool) -> Vec<Card> {
    (0..if joker { 53 } else { 52 }).map(Card).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A journal's indices read the same cards as before the pack existed
    /// (a shoe's index modulo 52; a joker deck's index as the card), so
    /// that every round already journaled replays unchanged.
    #[test]
    fn a_pack_reads_every_index_as_the_deals_always_did() {
        for decks in 1..=8u8 {
            let pack = Pack::decks(decks);
            assert_eq!(pack.size(), 52 * usize::from(decks));
            for i in 0..pack.size() {
                assert_eq!(Some(pack.card(i)), Card::from_index((i % 52) as u8), "{decks} decks, index {i}");
            }
        }
        for joker in [false, true] {
            let pack = Pack::deck(joker);
            assert_eq!(pack.size(), 52 + usize::from(joker));
            assert_eq!((0..pack.size()).map(|i| pack.card(i)).collect::<Vec<_>>(), deck(joker));
        }
        assert_eq!(Pack::decks(0), Pack::decks(1), "a shoe has at least one deck");
    }

    #[test]
    fn cards_round_trip_through_text() {
        for c in deck(true) {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
        }
        assert_eq!("10h".parse::<Card>(), Ok(Card::new(TEN, 2)));
        assert_eq!("A♠".parse::<Card>(), Ok(Card::new(ACE, 3)));
        assert!(matches!("1x".parse::<Card>(), Err(CardError::NotACard(_))));
        assert!(matches!("".parse::<Card>(), Err(CardError::NotACard(_))));
        let words = vec!["As Ks".to_owned(), "Qs".to_owned(), "Js,Ts".to_owned()];
        assert_eq!(parse_hand(&words).map(|h| h[4]), Ok(Card::new(TEN, 3)));
        assert_eq!(parse_hand(&["As As Kd Qd Jd".to_owned()]), Err(CardError::Duplicate(Card::new(ACE, 3))));
        assert_eq!(parse_hand(&["As Kd".to_owned()]), Err(CardError::Count(2)));
    }
}
