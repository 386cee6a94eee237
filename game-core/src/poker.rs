//! Five-card poker hands without wild cards: the ranks of PSD 6 and the
//! tie-breaks of PSD 27–28 and SP-17, for games played against a dealer.
//! (Draw poker, with its wild cards, evaluates through its paytable:
//! [`crate::draw_poker`].)

use serde::{Deserialize, Serialize};

use crate::cards::{ACE, Card, TEN};

/// Hand ranks of PSD 6, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Category {
    /// "Cartas maiores".
    HighCard,
    /// "Um par".
    Pair,
    /// "Dois pares".
    TwoPair,
    /// "Trio".
    ThreeOfAKind,
    /// "Sequência".
    Straight,
    /// "Cor".
    Flush,
    /// "Full".
    FullHouse,
    /// "Póquer".
    FourOfAKind,
    /// "Sequência de cor".
    StraightFlush,
    /// "Sequência real de cor".
    RoyalFlush,
}

impl Category {
    pub const ALL: [Category; 10] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
        Category::RoyalFlush,
    ];

    /// The Portuguese name of PSD 6.
    pub fn name_pt(self) -> &'static str {
        match self {
            Category::HighCard => "Cartas maiores",
            Category::Pair => "Um par",
            Category::TwoPair => "Dois pares",
            Category::ThreeOfAKind => "Trio",
            Category::Straight => "Sequência",
            Category::Flush => "Cor",
            Category::FullHouse => "Full",
            Category::FourOfAKind => "Póquer",
            Category::StraightFlush => "Sequência de cor",
            Category::RoyalFlush => "Sequência real de cor",
        }
    }

    pub fn name_en(self) -> &'static str {
        match self {
            Category::HighCard => "High card",
            Category::Pair => "One pair",
            Category::TwoPair => "Two pair",
            Category::ThreeOfAKind => "Three of a kind",
            Category::Straight => "Straight",
            Category::Flush => "Flush",
            Category::FullHouse => "Full house",
            Category::FourOfAKind => "Four of a kind",
            Category::StraightFlush => "Straight flush",
            Category::RoyalFlush => "Royal flush",
        }
    }
}

/// The value of five distinct natural cards: higher is better. Two hands
/// with the same value tie on ranks (PSD 27–28).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct HandValue(u32);

impl HandValue {
    pub fn category(self) -> Category {
        Category::ALL[(self.0 >> 20) as usize]
    }

    pub fn raw(self) -> u32 {
        self.0
    }

    /// The highest rank that decides ties first (the quads' rank, the
    /// triple's, the top pair's, a straight's top card — 5 in A-2-3-4-5).
    pub fn principal_rank(self) -> u8 {
        ((self.0 >> 16) & 0xF) as u8
    }
}

/// Whether a 13-bit rank mask is five ranks in a row; returns the top rank
/// (3, the five, for the wheel A-2-3-4-5: PSD 27 c), no wrap-around).
pub fn straight_top(mask: u16) -> Option<u8> {
    const WHEEL: u16 = 0b1_0000_0000_1111;
    if mask == WHEEL {
        return Some(3);
    }
    if mask.count_ones() == 5 {
        let low = mask.trailing_zeros();
        if mask >> low == 0b11111 {
            return Some(low as u8 + 4);
        }
    }
    None
}

/// Evaluate five distinct natural cards (no joker).
pub fn evaluate(cards: &[Card; 5]) -> HandValue {
    let mut count = [0u8; 13];
    let mut mask = 0u16;
    for c in cards {
        count[c.rank() as usize] += 1;
        mask |= 1 << c.rank();
    }
    let s0 = cards[0].suit();
    let flush = cards.iter().all(|c| c.suit() == s0);
    if let Some(top) = straight_top(mask) {
        let cat = match (flush, top) {
            (true, ACE) => Category::RoyalFlush,
            (true, _) => Category::StraightFlush,
            (false, _) => Category::Straight,
        };
        return HandValue(((cat as u32) << 20) | (u32::from(top) << 16));
    }
    // Ranks ordered by (count, rank) descending: the tie-break order.
    let mut order = [0u8; 5];
    let mut n = 0;
    for want in (1..=4u8).rev() {
        for r in (0..13u8).rev() {
            if count[r as usize] == want {
                order[n] = r;
                n += 1;
            }
        }
    }
    let mut key = 0u32;
    for (i, &r) in order.iter().enumerate().take(n) {
        key |= u32::from(r) << (16 - 4 * i);
    }
    let counts_top = count[order[0] as usize];
    let cat = if flush {
        Category::Flush
    } else {
        match (counts_top, n) {
            (4, _) => Category::FourOfAKind,
            (3, 2) => Category::FullHouse,
            (3, _) => Category::ThreeOfAKind,
            (2, 3) => Category::TwoPair,
            (2, _) => Category::Pair,
            _ => Category::HighCard,
        }
    };
    HandValue(((cat as u32) << 20) | key)
}

/// The value with SP-17's suit tie-break appended: among hands of equal
/// rank, the one whose deciding card has the higher suit wins (spades >
/// hearts > clubs > diamonds; the pair's or triple's highest suit, a
/// straight's top card, a flush's suit, the highest card of a high-card
/// hand). Two disjoint hands (one deck) never tie on this key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SuitedValue(u32);

impl SuitedValue {
    pub fn value(self) -> HandValue {
        HandValue(self.0 >> 2)
    }

    pub fn raw(self) -> u32 {
        self.0
    }
}

pub fn evaluate_suited(cards: &[Card; 5]) -> SuitedValue {
    let v = evaluate(cards);
    let r = v.principal_rank();
    let suit = cards.iter().filter(|c| c.rank() == r).map(|c| c.suit()).max().unwrap_or(0);
    SuitedValue((v.0 << 2) | u32::from(suit))
}

/// Whether the ranks are at least ace-king high (PSD 15: "um ás e um rei
/// ou combinação superior").
pub fn at_least_ace_king(v: HandValue) -> bool {
    v.category() > Category::HighCard || (v.principal_rank() == ACE && ((v.0 >> 12) & 0xF) as u8 == ACE - 1)
}

/// Whether every rank is ten or higher (a royal needs T-J-Q-K-A).
pub fn all_broadway(mask: u16) -> bool {
    mask >> TEN << TEN == mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> [Card; 5] {
        crate::cards::parse_hand(&[s.to_owned()]).unwrap()
    }

    #[test]
    fn categories_and_order_follow_psd_6() {
        let hands = [
            ("Ad Kc 9h 7s 3d", Category::HighCard),
            ("2d 2c 9h 7s 3d", Category::Pair),
            ("2d 2c 9h 9s 3d", Category::TwoPair),
            ("2d 2c 2h 9s 3d", Category::ThreeOfAKind),
            ("Ad 2c 3h 4s 5d", Category::Straight),
            ("Td Jc Qh Ks Ad", Category::Straight),
            ("2d 9d Jd Kd 4d", Category::Flush),
            ("2d 2c 2h 9s 9d", Category::FullHouse),
            ("2d 2c 2h 2s 9d", Category::FourOfAKind),
            ("Ah 2h 3h 4h 5h", Category::StraightFlush),
            ("Ts Js Qs Ks As", Category::RoyalFlush),
        ];
        for (h, c) in hands {
            assert_eq!(evaluate(&hand(h)).category(), c, "{h}");
        }
        // No wrap-around (PSD 5.2): Q-K-A-2-3 is ace high.
        assert_eq!(evaluate(&hand("Qd Kc Ah 2s 3d")).category(), Category::HighCard);
        // The wheel is the lowest straight (PSD 27 c).
        assert!(evaluate(&hand("Ad 2c 3h 4s 5d")) < evaluate(&hand("2d 3c 4h 5s 6d")));
        // Kickers downwards (PSD 27 g).
        assert!(evaluate(&hand("9d 9c Ah 7s 3d")) > evaluate(&hand("9h 9s Kh 7d 3c")));
        assert_eq!(evaluate(&hand("9d 9c Ah 7s 3d")), evaluate(&hand("9h 9s Ad 7d 3c")));
        // Full house: the triple decides (004 §7 b).
        assert!(evaluate(&hand("3d 3c 3h 2s 2d")) > evaluate(&hand("2c 2h 2s Ad Ac")));
    }

    #[test]
    fn suit_breaks_every_tie_between_disjoint_hands_sp_17() {
        // Same ranks: spades beat hearts beat clubs beat diamonds.
        let a = evaluate_suited(&hand("As Kd 9h 7s 3d"));
        let b = evaluate_suited(&hand("Ah Ks 9d 7d 3c"));
        assert!(a > b);
        // The pair's highest suit decides.
        assert!(evaluate_suited(&hand("9d 9s Ad 7d 3c")) > evaluate_suited(&hand("9h 9c Ah 7s 3d")));
        // The wheel's top card is the five.
        assert!(evaluate_suited(&hand("Ad 2c 3h 4s 5h")) > evaluate_suited(&hand("As 2s 3d 4d 5d")));
    }

    #[test]
    fn ace_king_qualifies() {
        assert!(at_least_ace_king(evaluate(&hand("Ad Kc 4h 3s 2d"))));
        assert!(!at_least_ace_king(evaluate(&hand("Ad Qc Jh 3s 2d"))));
        assert!(at_least_ace_king(evaluate(&hand("2d 2c 4h 3s 7d"))));
        assert!(!at_least_ace_king(evaluate(&hand("Kd Qc Jh 9s 7d"))));
    }
}

#[cfg(test)]
mod exhaustive {
    use super::*;
    use std::collections::HashSet;

    /// Every one of the 2,598,960 hands: the published count of each rank
    /// and the 7,462 distinct rank classes.
    #[test]
    fn all_hands_have_the_published_counts() {
        let mut by_cat = [0u64; 10];
        let mut classes = HashSet::new();
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let h = [a, b, c, d, e].map(|i| Card::from_index(i).unwrap());
                            let v = evaluate(&h);
                            by_cat[v.category() as usize] += 1;
                            classes.insert(v);
                        }
                    }
                }
            }
        }
        assert_eq!(by_cat, [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]);
        assert_eq!(classes.len(), 7_462);
    }

    /// SP-17: no two disjoint hands tie once suits are compared, and the
    /// suit only decides between hands of equal ranks.
    #[test]
    fn disjoint_hands_never_tie_on_the_suited_value() {
        use meters::{GameRng, StreamRng};
        let mut rng = StreamRng::from_seed(17);
        for _ in 0..500_000 {
            let d = rng.draw_without_replacement(52, 10);
            let p: [Card; 5] = std::array::from_fn(|i| Card::from_index(d[i] as u8).unwrap());
            let q: [Card; 5] = std::array::from_fn(|i| Card::from_index(d[i + 5] as u8).unwrap());
            let (sp, sq) = (evaluate_suited(&p), evaluate_suited(&q));
            assert_ne!(sp, sq, "{p:?} {q:?}");
            if evaluate(&p) != evaluate(&q) {
                assert_eq!(sp > sq, evaluate(&p) > evaluate(&q));
            }
        }
    }
}
