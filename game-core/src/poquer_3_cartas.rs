//! Póquer de 3 cartas (seed 000, P3-1…29) banked by the house, as the
//! text lets it join the bank (P3-20): the player's three cards against
//! the bank's, from one deck shuffled for every round (P3-11), ranked by
//! P3-4…P3-7 — the points of baccarat (pictures and tens count nothing,
//! the sum's last digit) and the pictures held, 31 combinations from
//! "three pictures" down to "zero without pictures" — the higher single
//! card deciding equal combinations (P3-5 K … A, then P3-6's suits) and
//! the bank winning when both hands are zero without pictures (P3-10). A
//! winning ante is paid 1:1 less the house's 5 % commission (P3-29), so an
//! ante is staked in whole steps of 20 cents and nothing is rounded
//! (decisions.md, Money). The reading is recorded in docs/poquer-3-cartas.md.

use meters::GameRng;
use serde::{Deserialize, Serialize};

use crate::cards::{ACE, Card, JACK, TEN};

/// Three cards.
pub type Hand3 = [Card; 3];

/// A card's points (P3-4 a): pictures and tens 0, the ace 1, the others
/// their face.
pub fn card_points(c: Card) -> u8 {
    match c.rank() {
        ACE => 1,
        r if r >= TEN => 0,
        r => r + 2,
    }
}

/// Whether the card is a picture (jack, queen, king).
pub fn is_picture(c: Card) -> bool {
    c.rank() >= JACK && c.rank() != ACE
}

/// The hand's points, 0–9 (P3-4 b, c).
pub fn points(h: &Hand3) -> u8 {
    h.iter().map(|&c| card_points(c)).sum::<u8>() % 10
}

/// How many pictures the hand holds.
pub fn pictures(h: &Hand3) -> u8 {
    h.iter().filter(|&&c| is_picture(c)).count() as u8
}

/// The hand's combination as P3-7 numbers it: 1 (three pictures) … 31
/// (zero without pictures); the lower, the better.
pub fn combination(h: &Hand3) -> u8 {
    match pictures(h) {
        3 => 1,
        p => 2 + 3 * (9 - points(h)) + (2 - p),
    }
}

/// A card's place in P3-5's order and P3-6's suits, higher for a better
/// card: the king highest, the ace lowest; spades, hearts, clubs,
/// diamonds.
pub fn card_order(c: Card) -> (u8, u8) {
    let rank = if c.rank() == ACE { 0 } else { c.rank() + 1 };
    (rank, c.suit())
}

/// The hand's best single card (P3-9).
pub fn best_card(h: &Hand3) -> Card {
    h.iter().copied().max_by_key(|&c| card_order(c)).unwrap_or(h[0])
}

/// Who wins a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Winner {
    Player,
    Bank,
}

/// P3-8…P3-10: the better combination wins; equal combinations, the
/// better single card; both zero without pictures, the bank.
pub fn winner(player: &Hand3, bank: &Hand3) -> Winner {
    let (p, b) = (combination(player), combination(bank));
    if p == 31 && b == 31 {
        return Winner::Bank;
    }
    let better = p < b || (p == b && card_order(best_card(player)) > card_order(best_card(bank)));
    if better { Winner::Player } else { Winner::Bank }
}

/// The combination's name (P3-7).
pub fn combination_name(n: u8, portuguese: bool) -> String {
    if n <= 1 {
        return if portuguese { "três figuras".into() } else { "three pictures".into() };
    }
    let points = 9 - (n - 2) / 3;
    let with = match ((n - 2) % 3, portuguese) {
        (0, true) => "com duas figuras",
        (1, true) => "com uma figura",
        (_, true) => "sem figura",
        (0, false) => "with two pictures",
        (1, false) => "with one picture",
        (_, false) => "without pictures",
    };
    format!("{points} {with}")
}

/// The cents an ante is staked in (P3-29: the 5 % of a win in whole cents).
pub const CENT_STEP: u64 = 20;

/// What an ante of `stake` cents returns: on a win the stake and the prize
/// less 5 % (39/20 of the stake), on a loss nothing; None for a stake off
/// its 20-cent step.
pub fn returned_cents(stake: u64, w: Winner) -> Option<u64> {
    if !stake.is_multiple_of(CENT_STEP) {
        return None;
    }
    match w {
        Winner::Player => (stake / CENT_STEP).checked_mul(39),
        Winner::Bank => Some(0),
    }
}

/// Every three-card hand of the deck, each with its cards as a bit mask.
pub fn every_hand() -> Vec<(u64, Hand3)> {
    let deck = crate::cards::deck(false);
    let mut out = Vec::with_capacity(22_100);
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                out.push(((1u64 << a) | (1u64 << b) | (1u64 << c), [deck[a], deck[b], deck[c]]));
            }
        }
    }
    out
}

/// Over every ordered pair of disjoint hands (22,100 × 18,424): how many
/// the player wins, and how many there are. Two disjoint hands never
/// share a card, so the combination and then the best single card always
/// decide between them, and each way round once: the player wins exactly
/// half of the pairs that P3-10 does not give the bank (both hands zero
/// without pictures).
///
/// Counted once and kept: the help page asks for it on every frame it is
/// shown.
pub fn player_wins_of_every_pair() -> (u64, u64) {
    static COUNT: std::sync::OnceLock<(u64, u64)> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| {
        let zero: Vec<u64> = every_hand().into_iter().filter(|(_, h)| combination(h) == 31).map(|(m, _)| m).collect();
        let both_zero: u64 = zero.iter().map(|&a| zero.iter().filter(|&&b| a & b == 0).count() as u64).sum();
        let pairs = 22_100u64 * 18_424;
        ((pairs - both_zero) / 2, pairs)
    })
}

/// How many of the 22,100 hands make each combination (indexed by P3-7's
/// number, 1–31; 0 unused), counted once and kept.
pub fn hands_of_each_combination() -> &'static [u32; 32] {
    static COUNTS: std::sync::OnceLock<[u32; 32]> = std::sync::OnceLock::new();
    COUNTS.get_or_init(|| {
        let mut dealt = [0u32; 32];
        for (_, h) in every_hand() {
            dealt[usize::from(combination(&h))] += 1;
        }
        dealt
    })
}

/// The two hands of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal3 {
    pub player: Hand3,
    pub bank: Hand3,
}

/// A póquer de 3 cartas table (an approved paytable): the antes offered,
/// in credits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poquer3CartasGame {
    pub id: String,
    pub name: String,
    pub antes: Vec<u64>,
}

impl Poquer3CartasGame {
    /// The one deck the round is dealt from (B-18).
    pub const fn pack() -> crate::cards::Pack {
        crate::cards::Pack::deck(false)
    }

    /// Six cards of one deck shuffled for the round (P3-2 a, P3-11): three
    /// to the player, three to the bank.
    pub fn deal(&self, rng: &mut impl GameRng) -> Deal3 {
        let pack = Self::pack();
        let idx = rng.draw_without_replacement(pack.size(), 6);
        let card = |i: usize| pack.card(idx.get(i).copied().unwrap_or(0));
        Deal3 { player: std::array::from_fn(card), bank: std::array::from_fn(|i| card(i + 3)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> Hand3 {
        let cards: Vec<Card> = s.split_whitespace().map(|w| w.parse().unwrap()).collect();
        [cards[0], cards[1], cards[2]]
    }

    /// P3-4 and P3-7 on the text's own examples of each kind.
    #[test]
    fn the_combinations_are_p3_7s() {
        assert_eq!(combination(&hand("Ks Qh Jd")), 1, "three pictures");
        assert_eq!(combination(&hand("Ks Qh 9d")), 2, "nine with two pictures");
        assert_eq!(combination(&hand("Ks 4h 5d")), 3, "nine with one picture");
        assert_eq!(combination(&hand("2s 3h 4d")), 4, "nine without: 2+3+4");
        assert_eq!(combination(&hand("9s 9h 10d")), 7, "18 counts 8, the ten nothing");
        assert_eq!(combination(&hand("Ks Qh 10d")), 29, "zero with two pictures");
        assert_eq!(combination(&hand("As 9h 10d")), 31, "zero without pictures");
        assert_eq!(points(&hand("9s 9h 9d")), 7, "27 less 20");
        assert_eq!(combination_name(2, false), "9 with two pictures");
        assert_eq!(combination_name(31, true), "0 sem figura");
        // Every combination number is reached by some hand.
        let deck = crate::cards::deck(false);
        let mut seen = [false; 32];
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    seen[usize::from(combination(&[deck[a], deck[b], deck[c]]))] = true;
                }
            }
        }
        assert!(seen[1..].iter().all(|&s| s) && !seen[0]);
        let counts = hands_of_each_combination();
        assert_eq!(counts.iter().sum::<u32>(), 22_100);
        assert!(counts.iter().zip(seen).all(|(&n, s)| (n > 0) == s), "the kept counts are the hands dealt: {counts:?}");
    }

    /// P3-8…P3-10: the combination, then the best card by P3-5 and P3-6
    /// (the king the best, the ace the worst; spades over hearts); zero
    /// without pictures on both sides goes to the bank whatever the cards.
    #[test]
    fn the_winner_is_p3_8_to_10s() {
        assert_eq!(winner(&hand("Ks Qh Jd"), &hand("Kh Qs 9d")), Winner::Player);
        assert_eq!(winner(&hand("Kh 4h 5d"), &hand("Ks 3s 6d")), Winner::Bank, "both 9 with one picture: K♠ beats K♥");
        assert_eq!(winner(&hand("2s 3h 4d"), &hand("As 4c 4s")), Winner::Bank, "both 9 without pictures: the bank's 4♠ beats the player's 4♦");
        assert_eq!(winner(&hand("2d 3h 4s"), &hand("As 4c 4d")), Winner::Player, "the player's 4♠ beats the bank's 4♣");
        assert_eq!(winner(&hand("As 9h 10d"), &hand("2c 8d 10c")), Winner::Bank, "both zero without pictures");
        assert_eq!(winner(&hand("2c 8d 10s"), &hand("As 9h 10d")), Winner::Bank, "both zero without pictures, the player's ten♠ notwithstanding");
        assert_eq!(best_card(&hand("As 2d 3c")), "3c".parse().unwrap(), "the ace is the lowest card");
    }

    #[test]
    fn a_win_returns_the_ante_and_95_percent_of_it_in_whole_cents() {
        assert_eq!(returned_cents(20, Winner::Player), Some(39));
        assert_eq!(returned_cents(100, Winner::Player), Some(195));
        assert_eq!(returned_cents(100, Winner::Bank), Some(0));
        assert_eq!(returned_cents(30, Winner::Player), None, "off the 20-cent step");
    }
}
