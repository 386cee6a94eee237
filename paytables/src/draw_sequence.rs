//! The sequential royal flush in the exact analysis: the one paid hand
//! whose pay depends on the order the cards are shown (issue 18).
//!
//! Replacements fill the discarded places from left to right
//! ([`game_core::draw_poker::Dealt::draw`]) and every order of the cards
//! drawn is equally likely. So when a hold `H` (keeping `|H|` cards,
//! drawing `k = 5 − |H|`) can end in a royal flush of suit `s` — every held
//! card is a royal card of `s`, and no royal card of `s` was discarded —
//! that royal is shown in sequence in `ways / k!` of its draws, where
//! `ways` counts the directions paid (left to right, and right to left for
//! `EitherWay`) in which every held card already sits in its place. Over
//! the `47·46·…·(48 − k)` ordered draws of the hold, the sequential royal
//! therefore replaces `ways` of the royal's draws:
//!
//! `total(H) = k!·Σ_e count_e(H)·pay_e + royals(H)·ways(H)·(pay_seq − pay_royal)`.
//!
//! A deal's value now depends on where its cards sit, so every one of its
//! 120 orders is solved where it can matter: the holds whose value depends
//! on the order are only those keeping royal cards of one suit, and an
//! order is solved one by one only when such a hold could beat the best
//! order-independent hold.

use game_core::cards::{Card, TEN};
use game_core::draw_poker::{Classes, DrawPokerGame, IN_REVERSE, IN_SEQUENCE, NO_ENTRY, Pattern, sequence_place};

/// The sequential royal of a game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sequential {
    /// Its paytable entry.
    pub entry: usize,
    /// `IN_SEQUENCE`, or `IN_SEQUENCE | IN_REVERSE`.
    pub directions: u8,
    /// The entry a royal flush is paid as when not in sequence (the class
    /// table's), if any.
    pub royal_entry: Option<usize>,
}

impl Sequential {
    pub fn of(game: &DrawPokerGame, classes: &Classes) -> Option<Sequential> {
        let entry = game.entries.iter().position(|e| matches!(e.pattern, Pattern::SequentialRoyalFlush { .. }))?;
        let Pattern::SequentialRoyalFlush { either_way } = game.entries[entry].pattern else { return None };
        let royal = [8, 9, 10, 11, 12].map(|r| Card::new(r, 0));
        let royal_entry = match classes.entry(&royal) {
            NO_ENTRY => None,
            e => Some(e as usize),
        };
        Some(Sequential { entry, directions: if either_way { IN_SEQUENCE | IN_REVERSE } else { IN_SEQUENCE }, royal_entry })
    }

    /// What a sequential royal pays per coin over the royal flush it also is.
    pub fn bonus(&self, pays: &[u64]) -> i128 {
        let royal = self.royal_entry.map_or(0, |e| pays[e]);
        i128::from(pays[self.entry]) - i128::from(royal)
    }

    /// How many directions are paid.
    pub fn direction_count(&self) -> u32 {
        self.directions.count_ones()
    }
}

/// For each card of a deal (card indices), its place in a sequential
/// royal read each way (`[IN_SEQUENCE, IN_REVERSE]`), if it is a royal card.
pub(crate) fn places(cards: &[u8; 5]) -> [[Option<u8>; 2]; 5] {
    cards.map(|x| {
        let c = royal_card(x);
        [IN_SEQUENCE, IN_REVERSE].map(|d| c.and_then(|c| sequence_place(c.rank(), d)).map(|p| p as u8))
    })
}

/// The card of index `x` if it can be part of a royal flush (T to A, not
/// the joker).
fn royal_card(x: u8) -> Option<Card> {
    Card::from_index(x).filter(|c| !c.is_joker() && c.rank() >= TEN)
}

/// For every hold of a deal (bits of `cards`), how many royal flushes it
/// can end in: every held card a royal card of one suit, no royal card of
/// that suit discarded. Each is one draw of the hold's cards.
pub(crate) fn royal_completions(cards: &[u8; 5]) -> [u32; 32] {
    let royal_suit = |x: u8| royal_card(x).map(|c| c.suit());
    let mut out = [0u32; 32];
    for (m, o) in out.iter_mut().enumerate() {
        *o = (0..4u8)
            .filter(|&s| {
                (0..5).all(|i| {
                    let royal_of_s = royal_suit(cards[i]) == Some(s);
                    // A held card must be one of this royal; a discarded one must not.
                    if m & (1 << i) != 0 { royal_of_s } else { !royal_of_s }
                })
            })
            .count() as u32;
    }
    out
}

/// How many paid directions have every held card (bit `i` of `held`) in
/// its place, card `i` sitting at position `at[i]`.
#[inline]
pub(crate) fn ways(places: &[[Option<u8>; 2]; 5], held: usize, at: &[u8; 5], directions: u8) -> u32 {
    [IN_SEQUENCE, IN_REVERSE]
        .iter()
        .enumerate()
        .filter(|&(d, &dir)| directions & dir != 0 && (0..5).all(|i| held & (1 << i) == 0 || places[i][d] == Some(at[i])))
        .count() as u32
}

/// Every order of `0..n`.
pub(crate) fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..n {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// The 120 ways five cards can sit in five places: `at[i]` is where card
/// `i` sits.
pub(crate) fn orders() -> Vec<[u8; 5]> {
    permutations(5).into_iter().map(|p| std::array::from_fn(|i| p[i] as u8)).collect()
}

/// `n·(n − 1)·…·(n − k + 1)`: the ordered draws of `k` cards from `n`.
pub(crate) fn falling(n: u64, k: u32) -> u64 {
    (0..u64::from(k)).map(|i| n - i).product()
}

/// `k!`.
pub(crate) fn factorial(k: u32) -> u64 {
    (1..=u64::from(k)).product()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> [u8; 5] {
        let h = game_core::cards::parse_hand(&[s.to_owned()]).unwrap();
        h.map(|c| c.index())
    }

    #[test]
    fn royal_completions_need_every_held_card_and_no_discarded_one() {
        let c = cards("Th Jh 3c Kh 9s");
        let r = royal_completions(&c);
        assert_eq!(r[0b01011], 1, "T J K of hearts held, nothing of it discarded");
        assert_eq!(r[0b00011], 0, "K of hearts discarded");
        assert_eq!(r[0b00111], 0, "the 3 held");
        // Discard all: the three suits with no royal card dealt… and hearts
        // has three dealt, so only the other three.
        assert_eq!(r[0], 3);
        assert_eq!(orders().len(), 120);
        assert_eq!(falling(47, 5), 184_072_680);
        assert_eq!(factorial(5), 120);
    }

    #[test]
    fn ways_count_the_directions_whose_places_the_held_cards_fill() {
        let c = cards("4d Ts Qs Ks 5c");
        let p = places(&c);
        let shown = [0, 1, 2, 3, 4];
        // Q in the middle is in place both ways.
        assert_eq!(ways(&p, 0b00100, &shown, IN_SEQUENCE | IN_REVERSE), 2);
        assert_eq!(ways(&p, 0b00100, &shown, IN_SEQUENCE), 1, "one way paid");
        // K next to it: in sequence (K fourth), not in reverse (K second).
        assert_eq!(ways(&p, 0b01100, &shown, IN_SEQUENCE | IN_REVERSE), 1);
        assert_eq!(ways(&p, 0b01100, &shown, IN_REVERSE), 0);
        assert_eq!(ways(&p, 0b00010, &shown, IN_SEQUENCE | IN_REVERSE), 0, "T is in the J's place");
        // Shown as 5c Ks Qs 4d Ts (card i at place at[i]): T Q K in reverse.
        assert_eq!(ways(&p, 0b01110, &[3, 4, 2, 1, 0], IN_SEQUENCE | IN_REVERSE), 1);
        assert_eq!(ways(&p, 0b01110, &[3, 4, 2, 1, 0], IN_SEQUENCE), 0);
        assert_eq!(ways(&p, 0b00001, &shown, IN_SEQUENCE | IN_REVERSE), 0, "the 4 has no place");
        assert_eq!(ways(&p, 0, &shown, IN_SEQUENCE | IN_REVERSE), 2, "nothing held: both ways open");
    }
}
