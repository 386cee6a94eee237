//! Card values and hand totals (BJ 4, BJ-T3): an ace counts 1 or 11, ten
//! and the court cards 10, every other card its face; a hand's total is
//! its best total of 21 or less where it has one.

use serde::{Deserialize, Serialize};

use crate::cards::{ACE, Card, TEN};

/// A card's value, 1 (ace) to 10 (T, J, Q, K).
pub fn value(card: Card) -> u8 {
    match card.rank() {
        ACE => 1,
        r if r >= TEN => 10,
        r => r + 2,
    }
}

/// The best total of a hand whose cards add to `hard` with aces as 1, of
/// which `free_aces` may count 11: (total, soft). One ace at 11 is all a
/// hand of 21 or less can hold.
pub fn best_total(hard: u8, free_aces: u8) -> (u8, bool) {
    if free_aces > 0 && hard + 10 <= 21 { (hard + 10, true) } else { (hard, false) }
}

/// One of the player's hands: its cards, its stake in bets, how it came
/// and how it ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    pub cards: Vec<Card>,
    /// Doubled (BJ 25): twice the bet on it, one card more and no other.
    pub doubled: bool,
    /// Made by a split (BJ 23): its 21 is never a blackjack (BJ 42).
    pub split: bool,
    /// A soft doubled as a hard 9 or 10: its first ace counts 1
    /// to the end (BJ 27).
    pub ace_locked: bool,
    pub surrendered: bool,
    /// No further card: stood, doubled, 21, bust, or a split ace's one card.
    pub done: bool,
}

impl Hand {
    pub fn new(cards: Vec<Card>, split: bool) -> Hand {
        Hand { cards, doubled: false, split, ace_locked: false, surrendered: false, done: false }
    }

    /// The total with aces as 1.
    pub fn hard(&self) -> u8 {
        self.cards.iter().map(|&c| value(c)).sum()
    }

    fn aces(&self) -> u8 {
        self.cards.iter().filter(|&&c| value(c) == 1).count() as u8
    }

    /// The best total and whether an ace counts 11 in it (BJ 4, BJ 27).
    pub fn total_soft(&self) -> (u8, bool) {
        best_total(self.hard(), self.aces().saturating_sub(u8::from(self.ace_locked)))
    }

    pub fn total(&self) -> u8 {
        self.total_soft().0
    }

    pub fn soft(&self) -> bool {
        self.total_soft().1
    }

    pub fn bust(&self) -> bool {
        self.hard() > 21
    }

    /// An ace and a ten-value card as the first two cards of a hand that
    /// is no split's (BJ 7, BJ 42).
    pub fn blackjack(&self) -> bool {
        !self.split && self.cards.len() == 2 && self.hard() == 11 && self.aces() == 1
    }

    /// The stake on the hand, in bets.
    pub fn stake(&self) -> u64 {
        if self.doubled { 2 } else { 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> Hand {
        Hand::new(s.split(' ').map(|c| c.parse().unwrap()).collect(), false)
    }

    /// BJ-T3: values and best totals.
    #[test]
    fn values_and_totals() {
        assert_eq!(["As", "2d", "9c", "Th", "Jd", "Qs", "Kc"].map(|c| value(c.parse().unwrap())), [1, 2, 9, 10, 10, 10, 10]);
        assert_eq!(hand("As 6d").total_soft(), (17, true));
        assert_eq!(hand("As 6d Kc").total_soft(), (17, false));
        assert_eq!(hand("As Ad 9c").total_soft(), (21, true));
        assert_eq!(hand("Kd Qs 5c").total(), 25);
        assert!(hand("Kd Qs 5c").bust());
        assert!(hand("As Kd").blackjack() && !hand("As 5d 5c").blackjack());
        let mut split = hand("As Kd");
        split.split = true;
        assert!(!split.blackjack(), "21 after a split is not blackjack (BJ 42)");
        // BJ 27: A-8 doubled as 9 takes a 2: 11, not 21.
        let mut locked = hand("As 8d 2c");
        locked.ace_locked = true;
        assert_eq!(locked.total(), 11);
        // The drawn card's ace may still count 11.
        let mut locked = hand("As 8d Ac");
        locked.ace_locked = true;
        assert_eq!(locked.total_soft(), (20, true));
    }
}
