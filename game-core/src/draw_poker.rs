//! Draw poker (video poker): deal five from one deck (plus the joker where
//! the game uses it), the player holds any of them, the rest are replaced
//! from the same deck, and the final hand is paid by the paytable.
//!
//! The text has no draw-poker section (card-games.md A.4): the games are
//! paytables, not code. Hands are defined by PSD 6 and PSD 27 c) (the ace
//! is low only in A-2-3-4-5, no wrap-around); the paytable is displayed
//! (M-8) and only the highest prize of the hand is paid (M-13): a hand is
//! paid as the first entry of the paytable it makes, and the compiler
//! checks that pays never rise down the list.
//!
//! The whole round is drawn at the deal: ten distinct cards, the five dealt
//! and, in order, the five that replace discarded cards. It is committed
//! with the wager before anything is shown, so a round interrupted between
//! deal and draw resumes with the same cards.

use meters::GameRng;
use serde::{Deserialize, Serialize};

use crate::cards::{ACE, Card, DEUCE, RANKS, TEN};
use crate::double_up::DoubleUpRule;
use crate::poker::{all_broadway, straight_top};

/// A set of ranks, bit `r` for rank `r` (0 = deuce … 12 = ace).
pub type RankMask = u16;
pub const ALL_RANKS: RankMask = (1 << RANKS) - 1;

/// Which cards are wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wild {
    None,
    /// The four deuces (Deuces Wild).
    Deuces,
    /// A 53rd card, the joker (Joker Poker).
    Joker,
}

/// A hand the paytable can pay. With wild cards a hand makes every pattern
/// some choice of the wild cards' values makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pattern {
    /// A royal flush with no wild card whose cards are shown in sequence:
    /// T-J-Q-K-A from left to right, or also A-K-Q-J-T when `either_way`.
    /// The one pattern that depends on the order of the cards: replacements
    /// fill the discarded places from left to right ([`Dealt::draw`]), so
    /// where the held royal cards sit matters to the player's choice.
    SequentialRoyalFlush {
        either_way: bool,
    },
    /// T-J-Q-K-A of one suit with no wild card.
    RoyalFlush,
    /// Four wild cards (four deuces).
    FourWilds,
    /// Four wild cards and a fifth, natural card of a rank in `kickers`
    /// (Deuces Wild Bonus: four deuces with an ace).
    FourWildsWith {
        kickers: RankMask,
    },
    /// A royal flush made with at least one wild card.
    WildRoyalFlush,
    /// Five cards of one rank (only with wild cards).
    FiveOfAKind,
    /// Five cards of one rank in `ranks` (Deuces Wild Bonus: five aces;
    /// five 3s, 4s or 5s).
    FiveOfAKindOf {
        ranks: RankMask,
    },
    StraightFlush,
    /// Four of a rank in `ranks`, the fifth card (the kicker) of a rank in
    /// `kickers` (Double Double Bonus pays the kicker).
    FourOfAKind {
        ranks: RankMask,
        kickers: RankMask,
    },
    FullHouse,
    Flush,
    Straight,
    ThreeOfAKind,
    TwoPair,
    /// A pair of a rank in `ranks` (Jacks or Better: J, Q, K, A).
    Pair {
        ranks: RankMask,
    },
}

/// One line of the paytable: credits per coin bet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayEntry {
    pub name: String,
    /// The name in Portuguese, where the paytable gives one (M-10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_pt: Option<String>,
    pub pattern: Pattern,
    pub pays: u64,
    /// Pays per coin when the maximum coins are bet (the royal's bonus).
    pub max_coin_pays: Option<u64>,
}

impl PayEntry {
    /// The hand's name in Portuguese when `portuguese` and the paytable
    /// gives one, else as written.
    pub fn name_in(&self, portuguese: bool) -> &str {
        match &self.name_pt {
            Some(pt) if portuguese => pt,
            _ => &self.name,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawPokerGame {
    pub id: String,
    pub name: String,
    pub wild: Wild,
    /// Highest first; a hand is paid as the first entry it makes.
    pub entries: Vec<PayEntry>,
    /// The coin counts the player may bet, ascending.
    pub coins: Vec<u32>,
    pub double_up: Option<DoubleUpRule>,
    /// Multi-hand play: the hand counts offered (one deal; each further
    /// hand draws from its own copy of the cards not dealt). `[1]` when the
    /// game is single-hand.
    #[serde(default = "single_hand", skip_serializing_if = "is_single_hand")]
    pub hands: Vec<u32>,
}

fn single_hand() -> Vec<u32> {
    vec![1]
}

fn is_single_hand(h: &[u32]) -> bool {
    h == [1]
}

/// A multi-hand round: the deal, and for every hand the five cards that
/// replace its discards in order, each hand from its own copy of the deck
/// less the five dealt (the first hand's are [`Dealt`]'s).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MultiDealt {
    pub dealt: [Card; 5],
    pub replacements: Vec<[Card; 5]>,
}

impl MultiDealt {
    /// Every hand's final cards under one hold.
    pub fn draw(&self, hold: Hold) -> Vec<[Card; 5]> {
        self.replacements
            .iter()
            .map(|r| {
                let mut cards = [Card::JOKER; 10];
                cards[..5].copy_from_slice(&self.dealt);
                cards[5..].copy_from_slice(r);
                Dealt { cards }.draw(hold)
            })
            .collect()
    }
}

/// The cards held: bit `i` for the `i`-th card dealt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hold(pub u8);

impl Hold {
    pub fn holds(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }

    pub fn toggle(self, i: usize) -> Hold {
        Hold(self.0 ^ (1 << i))
    }

    pub fn count(self) -> u32 {
        (self.0 & 0x1F).count_ones()
    }

    /// "H-H--" style description: which of the five are held.
    pub fn describe(self, hand: &[Card; 5]) -> String {
        let held: Vec<String> = (0..5).filter(|&i| self.holds(i)).map(|i| hand[i].to_string()).collect();
        if held.is_empty() { "discard all".into() } else { format!("hold {}", held.join(" ")) }
    }
}

/// What the cards make, computed once per hand; every pattern is tested
/// against it in constant time.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// Wild cards in the hand.
    pub wilds: u8,
    /// Natural cards per rank.
    pub count: [u8; RANKS],
    /// Ranks of the natural cards.
    pub mask: RankMask,
    pub naturals: u8,
    /// All natural cards share one suit (wild cards take any).
    pub suited: bool,
    /// The hand's order, for [`Pattern::SequentialRoyalFlush`]: bit
    /// [`IN_SEQUENCE`] when its five cards are T, J, Q, K, A from left to
    /// right, bit [`IN_REVERSE`] when A, K, Q, J, T. Only [`Facts::of`] on
    /// a hand in the order shown sets them; a class has no order (0).
    pub sequence: u8,
}

/// [`Facts::sequence`]: T-J-Q-K-A from left to right.
pub const IN_SEQUENCE: u8 = 1;
/// [`Facts::sequence`]: A-K-Q-J-T from left to right.
pub const IN_REVERSE: u8 = 2;

/// Where rank `rank` sits in a sequential royal read `IN_SEQUENCE` or
/// `IN_REVERSE`; None for a rank below the ten.
pub fn sequence_place(rank: u8, direction: u8) -> Option<usize> {
    let i = rank.checked_sub(TEN)? as usize;
    match direction {
        IN_SEQUENCE => Some(i),
        IN_REVERSE => Some(4 - i),
        _ => None,
    }
}

impl Facts {
    pub fn of(hand: &[Card; 5], wild: Wild) -> Facts {
        let mut f = Facts { wilds: 0, count: [0; RANKS], mask: 0, naturals: 0, suited: true, sequence: 0 };
        let mut suit = None;
        for &c in hand {
            if is_wild(c, wild) {
                f.wilds += 1;
                continue;
            }
            f.naturals += 1;
            f.count[c.rank() as usize] += 1;
            f.mask |= 1 << c.rank();
            match suit {
                None => suit = Some(c.suit()),
                Some(s) if s != c.suit() => f.suited = false,
                Some(_) => {}
            }
        }
        // Only five natural cards T to A can be in sequence: every other
        // hand skips the look at the order.
        if f.wilds == 0 && f.mask == 0b11111 << TEN {
            for direction in [IN_SEQUENCE, IN_REVERSE] {
                if hand.iter().enumerate().all(|(i, &c)| sequence_place(c.rank(), direction) == Some(i)) {
                    f.sequence |= direction;
                }
            }
        }
        f
    }

    fn distinct(&self) -> bool {
        self.mask.count_ones() == u32::from(self.naturals)
    }

    /// The natural ranks fit inside five ranks in a row (the wheel counts,
    /// with the ace low), all different: the wild cards fill the gaps.
    fn straight_possible(&self) -> bool {
        if !self.distinct() {
            return false;
        }
        const WHEEL: RankMask = 0b1_0000_0000_1111;
        if self.mask & !WHEEL == 0 {
            return true;
        }
        (0..=8).any(|low| self.mask & !(0b11111 << low) == 0)
    }

    /// Whether some value of the wild cards makes `p`.
    pub fn makes(&self, p: Pattern) -> bool {
        let w = self.wilds;
        match p {
            Pattern::SequentialRoyalFlush { either_way } => {
                let directions = if either_way { IN_SEQUENCE | IN_REVERSE } else { IN_SEQUENCE };
                self.makes(Pattern::RoyalFlush) && self.sequence & directions != 0
            }
            Pattern::RoyalFlush => w == 0 && self.suited && straight_top(self.mask) == Some(ACE),
            Pattern::FourWilds => w == 4,
            Pattern::FourWildsWith { kickers } => w == 4 && self.naturals == 1 && self.mask & kickers != 0,
            Pattern::WildRoyalFlush => w > 0 && self.suited && self.distinct() && all_broadway(self.mask),
            Pattern::FiveOfAKind => w > 0 && self.mask.count_ones() <= 1,
            // Every natural card of one rank in `ranks` (or none: the wild
            // cards take any rank of the set).
            Pattern::FiveOfAKindOf { ranks } => w > 0 && ranks != 0 && self.mask.count_ones() <= 1 && self.mask & !ranks == 0,
            Pattern::StraightFlush => self.suited && self.straight_possible(),
            Pattern::FourOfAKind { ranks, kickers } => (0..RANKS).any(|r| {
                if ranks & (1 << r) == 0 {
                    return false;
                }
                let have = self.count[r];
                let need = 4u8.saturating_sub(have);
                if need > w {
                    return false;
                }
                // The fifth card: a natural of another rank, or a wild card
                // that may be any rank.
                if self.naturals - have == 1 {
                    let other = self.mask & !(1 << r);
                    other & kickers != 0
                } else {
                    kickers != 0
                }
            }),
            Pattern::FullHouse => {
                // At most two natural ranks, one of them held at most 3
                // times and the other at most twice (wild cards fill both).
                let mut held = self.count.iter().copied().filter(|&c| c > 0);
                match (held.next(), held.next(), held.next()) {
                    (None, _, _) => w >= 5,
                    (Some(c), None, _) => c <= 3,
                    (Some(a), Some(b), None) => (a <= 3 && b <= 2) || (b <= 3 && a <= 2),
                    _ => false,
                }
            }
            Pattern::Flush => self.suited,
            Pattern::Straight => self.straight_possible(),
            Pattern::ThreeOfAKind => self.count.iter().any(|&c| c + w >= 3) || w >= 3,
            Pattern::TwoPair => {
                let (mut c1, mut c2) = (0u8, 0u8);
                for &c in &self.count {
                    if c > c1 {
                        c2 = c1;
                        c1 = c;
                    } else if c > c2 {
                        c2 = c;
                    }
                }
                2u8.saturating_sub(c1) + 2u8.saturating_sub(c2) <= w
            }
            Pattern::Pair { ranks } => (0..RANKS).any(|r| ranks & (1 << r) != 0 && self.count[r] + w >= 2),
        }
    }
}

/// What a hand is paid as depends only on its ranks (the joker counted as
/// a fourteenth rank) and on whether its natural (not wild) cards share a
/// suit: the hand's *class* (exactly what [`Facts`] sees). `Classes`
/// evaluates every class of a game once, so that the exact analyses look a
/// hand up instead of testing every pattern.
pub struct Classes {
    wild: Wild,
    /// `entry[key]`: the entry the class is paid as, `NO_ENTRY` for none.
    entry: Vec<u8>,
}

/// No paytable entry.
pub const NO_ENTRY: u8 = u8::MAX;

/// Ranks of a class: the thirteen, and the joker.
const CLASS_RANKS: usize = RANKS + 1;
const CLASS_KEYS: usize = CLASS_RANKS * CLASS_RANKS * CLASS_RANKS * CLASS_RANKS * CLASS_RANKS * 2;

impl Classes {
    pub fn new(game: &DrawPokerGame) -> Classes {
        let mut entry = vec![NO_ENTRY; CLASS_KEYS];
        each_class(game, |key, facts, _| {
            entry[key] = game.entries.iter().position(|e| facts.makes(e.pattern)).map_or(NO_ENTRY, |e| e as u8);
        });
        Classes { wild: game.wild, entry }
    }

    /// The entry `hand` is paid as, or `NO_ENTRY` (the same as
    /// [`DrawPokerGame::evaluate`], looked up), order aside: a sequential
    /// royal is looked up as the entry its cards make as a set.
    #[inline]
    pub fn entry(&self, hand: &[Card; 5]) -> u8 {
        self.entry[class_key(hand, self.wild)]
    }
}

/// Whether `c` is a wild card of a game whose wild cards are `wild`.
#[inline]
pub(crate) fn is_wild(c: Card, wild: Wild) -> bool {
    match wild {
        Wild::None => false,
        Wild::Deuces => !c.is_joker() && c.rank() == DEUCE,
        Wild::Joker => c.is_joker(),
    }
}

/// The class of a hand: its ranks in order, and whether its natural cards
/// share a suit.
#[inline]
fn class_key(hand: &[Card; 5], wild: Wild) -> usize {
    let mut r = hand.map(|c| if c.is_joker() { RANKS } else { c.rank() as usize });
    // A sorting network for five.
    for (a, b) in [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)] {
        if r[a] > r[b] {
            r.swap(a, b);
        }
    }
    let mut suit = None;
    let suited = hand.iter().filter(|c| !is_wild(**c, wild)).all(|c| *suit.get_or_insert(c.suit()) == c.suit());
    r.iter().fold(0, |k, &x| k * CLASS_RANKS + x) * 2 + usize::from(suited)
}

/// Every class a hand of `game`'s deck can be in: its key, its facts, and
/// one hand of it. The facts have no order (`sequence` 0): a class never
/// makes [`Pattern::SequentialRoyalFlush`], and a sequential royal's class
/// is paid as the entry its cards make as a set.
pub fn each_class(game: &DrawPokerGame, mut f: impl FnMut(usize, &Facts, [Card; 5])) {
    let top = if game.wild == Wild::Joker { CLASS_RANKS } else { RANKS };
    let mut r = [0usize; 5];
    loop {
        let mut count = [0usize; CLASS_RANKS];
        for &x in &r {
            count[x] += 1;
        }
        if count[..RANKS].iter().all(|&c| c <= 4) && count[RANKS] <= 1 {
            for suited in [false, true] {
                if let Some(hand) = class_hand(&r, suited, game.wild) {
                    // A class has no order: its hand is only one of them.
                    let facts = Facts { sequence: 0, ..Facts::of(&hand, game.wild) };
                    f(class_key(&hand, game.wild), &facts, hand);
                }
            }
        }
        // The next non-decreasing rank tuple.
        let Some(i) = (0..5).rev().find(|&i| r[i] + 1 < top) else { return };
        r[i] += 1;
        for j in i + 1..5 {
            r[j] = r[i];
        }
    }
}

/// A hand of the class (ranks non-decreasing), or None when no hand is:
/// suited needs distinct natural ranks; unsuited needs two natural cards.
fn class_hand(ranks: &[usize; 5], suited: bool, wild: Wild) -> Option<[Card; 5]> {
    let natural = |x: usize| x < RANKS && !(wild == Wild::Deuces && x == DEUCE as usize);
    let naturals: Vec<usize> = ranks.iter().copied().filter(|&x| natural(x)).collect();
    if suited && naturals.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    if !suited && naturals.len() < 2 {
        return None;
    }
    let mut seen = [0u8; RANKS];
    let mut hand = [Card::JOKER; 5];
    for (i, &x) in ranks.iter().enumerate() {
        if x == RANKS {
            continue;
        }
        let suit = if suited && natural(x) { 0 } else { seen[x] };
        seen[x] += 1;
        hand[i] = Card::new(x as u8, suit);
    }
    let mut suit = None;
    let all_one = hand.iter().filter(|c| !is_wild(**c, wild)).all(|c| *suit.get_or_insert(c.suit()) == c.suit());
    if !suited && all_one {
        // Distinct natural ranks, all given suit 0: move one to another suit.
        let i = hand.iter().position(|c| !is_wild(*c, wild))?;
        hand[i] = Card::new(hand[i].rank(), 1);
    }
    Some(hand)
}

/// A dealt round: the five cards dealt, then the replacements in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dealt {
    pub cards: [Card; 10],
}

impl Dealt {
    pub fn hand(&self) -> [Card; 5] {
        std::array::from_fn(|i| self.cards[i])
    }

    /// The final hand: held cards stay, the others are replaced in order
    /// by the next cards of the deck.
    pub fn draw(&self, hold: Hold) -> [Card; 5] {
        let mut next = 5;
        std::array::from_fn(|i| {
            if hold.holds(i) {
                self.cards[i]
            } else {
                let c = self.cards[next];
                next += 1;
                c
            }
        })
    }
}

impl DrawPokerGame {
    pub fn deck_size(&self) -> usize {
        self.pack().size()
    }

    /// The deck the round is dealt from: with the joker in Joker Poker (B-18).
    pub fn pack(&self) -> crate::cards::Pack {
        crate::cards::Pack::deck(self.wild == Wild::Joker)
    }

    pub fn max_coins(&self) -> u32 {
        self.coins.iter().copied().max().unwrap_or(1)
    }

    /// The paytable entry the hand is paid as, if any (the first it makes).
    pub fn evaluate(&self, hand: &[Card; 5]) -> Option<usize> {
        let f = Facts::of(hand, self.wild);
        self.entries.iter().position(|e| f.makes(e.pattern))
    }

    /// Credits per coin an entry pays at `coins` coins.
    pub fn pays_per_coin(&self, entry: usize, coins: u32) -> u64 {
        self.entries.get(entry).map_or(0, |e| match e.max_coin_pays {
            Some(m) if coins == self.max_coins() => m,
            _ => e.pays,
        })
    }

    /// Credits won by a final hand at `coins` coins.
    pub fn win(&self, hand: &[Card; 5], coins: u32) -> u64 {
        self.evaluate(hand).map_or(0, |e| self.pays_per_coin(e, coins) * u64::from(coins))
    }

    /// Draw a multi-hand round of `hands` hands: the deal and the first
    /// hand's replacements as [`DrawPokerGame::deal`], then five
    /// replacements for each further hand from its own copy of the cards
    /// not dealt.
    pub fn deal_hands(&self, rng: &mut impl GameRng, hands: usize) -> MultiDealt {
        let first = self.deal(rng);
        let dealt = first.hand();
        let rest: Vec<Card> = crate::cards::deck(self.deck_size() == 53).into_iter().filter(|c| !dealt.contains(c)).collect();
        let mut replacements = vec![std::array::from_fn(|i| first.cards[5 + i])];
        for _ in 1..hands.max(1) {
            let idx = rng.draw_without_replacement(rest.len(), 5);
            replacements.push(std::array::from_fn(|i| rest[idx[i]]));
        }
        MultiDealt { dealt, replacements }
    }

    /// Credits won by every hand of a multi-hand round at `coins` coins a hand.
    pub fn win_hands(&self, finals: &[[Card; 5]], coins: u32) -> u64 {
        finals.iter().map(|h| self.win(h, coins)).sum()
    }

    /// Draw the round's ten cards (five dealt, five replacements).
    pub fn deal(&self, rng: &mut impl GameRng) -> Dealt {
        let pack = self.pack();
        let idx = rng.draw_without_replacement(pack.size(), 10);
        Dealt { cards: std::array::from_fn(|i| pack.card(idx[i])) }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::cards::{JACK, KING};

    fn e(name: &str, pattern: Pattern, pays: u64) -> PayEntry {
        PayEntry { name: name.into(), name_pt: None, pattern, pays, max_coin_pays: None }
    }

    pub fn jacks_or_better() -> DrawPokerGame {
        let high = (1 << JACK) | (1 << 10) | (1 << KING) | (1 << ACE);
        DrawPokerGame {
            id: "job".into(),
            name: "Jacks or Better".into(),
            wild: Wild::None,
            entries: vec![
                PayEntry { max_coin_pays: Some(800), ..e("Royal Flush", Pattern::RoyalFlush, 250) },
                e("Straight Flush", Pattern::StraightFlush, 50),
                e("Four of a Kind", Pattern::FourOfAKind { ranks: ALL_RANKS, kickers: ALL_RANKS }, 25),
                e("Full House", Pattern::FullHouse, 9),
                e("Flush", Pattern::Flush, 6),
                e("Straight", Pattern::Straight, 4),
                e("Three of a Kind", Pattern::ThreeOfAKind, 3),
                e("Two Pair", Pattern::TwoPair, 2),
                e("Jacks or Better", Pattern::Pair { ranks: high }, 1),
            ],
            coins: vec![1, 2, 3, 4, 5],
            double_up: None,
            hands: vec![1],
        }
    }

    /// Every pattern a brute-force reference needs, for the wild games.
    pub fn every_pattern(wild: Wild) -> DrawPokerGame {
        let low = 0b1110; // 3, 4, 5
        let aces = 1 << ACE;
        let entries = vec![
            e("Royal", Pattern::RoyalFlush, 800),
            e("Four wilds with an ace", Pattern::FourWildsWith { kickers: 1 << ACE }, 400),
            e("Four wilds", Pattern::FourWilds, 200),
            e("Wild royal", Pattern::WildRoyalFlush, 100),
            e("Five aces", Pattern::FiveOfAKindOf { ranks: 1 << ACE }, 95),
            e("Five 3s, 4s or 5s", Pattern::FiveOfAKindOf { ranks: 0b1110 }, 92),
            e("Five of a kind", Pattern::FiveOfAKind, 90),
            e("Straight flush", Pattern::StraightFlush, 50),
            e("Four aces, kicker 3-5", Pattern::FourOfAKind { ranks: aces, kickers: low }, 45),
            e("Four 3-5, kicker A", Pattern::FourOfAKind { ranks: low, kickers: aces | low }, 40),
            e("Four of a kind", Pattern::FourOfAKind { ranks: ALL_RANKS, kickers: ALL_RANKS }, 25),
            e("Full house", Pattern::FullHouse, 9),
            e("Flush", Pattern::Flush, 6),
            e("Straight", Pattern::Straight, 4),
            e("Three of a kind", Pattern::ThreeOfAKind, 3),
            e("Two pair", Pattern::TwoPair, 2),
            e("Kings or better", Pattern::Pair { ranks: (1 << KING) | aces }, 1),
            e("Low pair", Pattern::Pair { ranks: ALL_RANKS }, 1),
        ];
        DrawPokerGame { id: "every".into(), name: "every pattern".into(), wild, entries, coins: vec![1], double_up: None, hands: vec![1] }
    }

    /// The plain definitions, for a hand of natural cards (duplicates
    /// allowed: wild cards stand for any card).
    struct Natural {
        count: [u8; 13],
        sorted: [u8; 13],
        flush: bool,
        straight: bool,
        royal: bool,
    }

    impl Natural {
        fn of(cards: &[Card; 5]) -> Natural {
            let mut count = [0u8; 13];
            for c in cards {
                count[c.rank() as usize] += 1;
            }
            let mask: u16 = cards.iter().fold(0, |m, c| m | 1 << c.rank());
            let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
            let straight = mask.count_ones() == 5 && straight_top(mask).is_some();
            let royal = flush && straight && straight_top(mask) == Some(ACE);
            let mut sorted = count;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            Natural { count, sorted, flush, straight, royal }
        }

        /// `wilds`: how many wild cards the original hand had; `naturals`:
        /// the ranks of its natural cards; `shown`: its ranks in the order
        /// shown.
        fn makes(&self, p: Pattern, wilds: u8, naturals: RankMask, shown: [u8; 5]) -> bool {
            let (count, sorted) = (&self.count, &self.sorted);
            match p {
                Pattern::SequentialRoyalFlush { either_way } => {
                    let reversed = [shown[4], shown[3], shown[2], shown[1], shown[0]];
                    wilds == 0 && self.royal && (shown == [8, 9, 10, 11, 12] || (either_way && reversed == [8, 9, 10, 11, 12]))
                }
                Pattern::RoyalFlush => wilds == 0 && self.royal,
                Pattern::FourWilds => wilds == 4,
                Pattern::FourWildsWith { kickers } => wilds == 4 && naturals & kickers != 0,
                Pattern::WildRoyalFlush => wilds > 0 && self.royal,
                Pattern::FiveOfAKind => sorted[0] == 5,
                Pattern::FiveOfAKindOf { ranks } => (0..13).any(|r| count[r] == 5 && ranks & (1 << r) != 0),
                Pattern::StraightFlush => self.flush && self.straight,
                Pattern::FourOfAKind { ranks, kickers } => (0..13).any(|r| {
                    if ranks & (1 << r) == 0 || count[r] < 4 {
                        return false;
                    }
                    // The kicker: the card left once four of rank r are set aside.
                    let mut left = *count;
                    left[r] -= 4;
                    let k = (0..13).find(|&k| left[k] > 0).unwrap_or(r);
                    kickers & (1 << k) != 0
                }),
                Pattern::FullHouse => sorted[0] == 3 && sorted[1] == 2,
                Pattern::Flush => self.flush,
                Pattern::Straight => self.straight,
                Pattern::ThreeOfAKind => sorted[0] >= 3,
                Pattern::TwoPair => sorted[0] >= 2 && sorted[1] >= 2,
                Pattern::Pair { ranks } => (0..13).any(|r| ranks & (1 << r) != 0 && count[r] >= 2),
            }
        }
    }

    /// The reference: every wild card takes every one of the 52 cards
    /// (duplicates included), and the best-paying entry any choice makes.
    pub fn brute_force(game: &DrawPokerGame, hand: &[Card; 5]) -> Option<usize> {
        let is_wild = |c: &Card| match game.wild {
            Wild::None => false,
            Wild::Deuces => !c.is_joker() && c.rank() == DEUCE,
            Wild::Joker => c.is_joker(),
        };
        let mut cards: [Card; 5] = *hand;
        cards.sort_by_key(|c| is_wild(c));
        let n = hand.iter().filter(|c| !is_wild(c)).count();
        let w = 5 - n;
        let naturals: RankMask = hand.iter().filter(|c| !is_wild(c)).fold(0, |m, c| m | 1 << c.rank());
        let shown = hand.map(|c| if c.is_joker() { 13 } else { c.rank() });
        let mut best: Option<usize> = None;
        // Wild cards are interchangeable: choose their values as a multiset.
        let mut choice = vec![0u8; w];
        loop {
            for (i, &c) in choice.iter().enumerate() {
                cards[n + i] = Card::from_index(c).unwrap();
            }
            let nat = Natural::of(&cards);
            let limit = best.unwrap_or(game.entries.len());
            if let Some(e) = game.entries[..limit].iter().position(|e| nat.makes(e.pattern, w as u8, naturals, shown)) {
                best = Some(e);
            }
            // Next multiset (non-decreasing sequence) of card indices.
            let mut i = w;
            loop {
                if i == 0 {
                    return best;
                }
                i -= 1;
                if choice[i] < 51 {
                    choice[i] += 1;
                    for j in i + 1..w {
                        choice[j] = choice[i];
                    }
                    break;
                }
            }
        }
    }

    /// Every hand of the deck against the brute-force reference, split
    /// over the machine's cores.
    fn exhaustive(game: &DrawPokerGame) -> u64 {
        let n = game.deck_size() as u8;
        let threads = std::thread::available_parallelism().map_or(2, |t| t.get()).max(2);
        let checked = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..threads {
                let checked = &checked;
                s.spawn(move || {
                    for a in (0..n).filter(|a| *a as usize % threads == t) {
                        for b in a + 1..n {
                            for c in b + 1..n {
                                for d in c + 1..n {
                                    for e in d + 1..n {
                                        let h = [a, b, c, d, e].map(|i| Card::from_index(i).unwrap());
                                        assert_eq!(game.evaluate(&h), brute_force(game, &h), "{h:?}");
                                        checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                    }
                                }
                            }
                        }
                    }
                });
            }
        });
        checked.into_inner()
    }

    /// Jacks or Better topped by a sequential royal flush.
    pub fn sequential(wild: Wild, either_way: bool) -> DrawPokerGame {
        let mut g = if wild == Wild::None { jacks_or_better() } else { every_pattern(wild) };
        g.entries.insert(0, e("Sequential Royal", Pattern::SequentialRoyalFlush { either_way }, 10_000));
        g
    }

    /// Every order of every hand of one suit's five broadway cards, and of
    /// hands with one of them replaced by a wild card or another card,
    /// against the reference; then shuffled random hands.
    #[test]
    fn sequential_royal_depends_on_the_order_shown() {
        let royal = |s: u8| [8u8, 9, 10, 11, 12].map(|r| Card::new(r, s));
        let perms = permutations();
        assert_eq!(perms.len(), 120);
        for (wild, either_way) in [(Wild::None, false), (Wild::None, true), (Wild::Deuces, true), (Wild::Joker, false)] {
            let g = sequential(wild, either_way);
            let mut sequential_orders = 0;
            for suit in 0..4 {
                for swap in 0..6usize {
                    let mut base = royal(suit);
                    // 0: the royal itself; 1–5: one card replaced by a
                    // wild card (deuce or joker) or, without one, a nine.
                    if swap > 0 {
                        base[swap - 1] = match wild {
                            Wild::Deuces => Card::new(DEUCE, (suit + 1) % 4),
                            Wild::Joker => Card::JOKER,
                            Wild::None => Card::new(7, suit),
                        };
                    }
                    for p in &perms {
                        let hand = p.map(|i| base[i]);
                        let got = g.evaluate(&hand);
                        assert_eq!(got, brute_force(&g, &hand), "{hand:?}");
                        sequential_orders += usize::from(got == Some(0));
                    }
                }
            }
            // Four suits, one order each (two with either_way).
            assert_eq!(sequential_orders, if either_way { 8 } else { 4 }, "{wild:?}");
            let classes = Classes::new(&g);
            assert_eq!(classes.entry(&royal(2)), 1, "a class has no order: the set is a royal flush");
        }
        let mut rng = meters::StreamRng::from_seed(31);
        let g = sequential(Wild::Deuces, true);
        for _ in 0..50_000 {
            let hand = g.deal(&mut rng).hand();
            assert_eq!(g.evaluate(&hand), brute_force(&g, &hand), "{hand:?}");
        }
    }

    #[test]
    fn evaluator_equals_brute_force_on_every_hand_of_a_sequential_game() {
        assert_eq!(exhaustive(&sequential(Wild::None, false)), 2_598_960);
    }

    /// The 120 orders of five places.
    pub fn permutations() -> Vec<[usize; 5]> {
        let mut out = Vec::new();
        for a in 0..5 {
            for b in (0..5).filter(|&b| b != a) {
                for c in (0..5).filter(|&c| c != a && c != b) {
                    for d in (0..5).filter(|&d| d != a && d != b && d != c) {
                        let e = 10 - a - b - c - d;
                        out.push([a, b, c, d, e]);
                    }
                }
            }
        }
        out
    }

    /// The class table gives, for every hand of every deck, the entry the
    /// evaluator gives.
    #[test]
    fn class_lookup_equals_the_evaluator_on_every_hand() {
        for game in [jacks_or_better(), every_pattern(Wild::None), every_pattern(Wild::Deuces), every_pattern(Wild::Joker)] {
            let classes = Classes::new(&game);
            let n = game.deck_size() as u8;
            let mut hands = 0u64;
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        for d in c + 1..n {
                            for e in d + 1..n {
                                let h = [a, b, c, d, e].map(|i| Card::from_index(i).unwrap());
                                // Any order: the lookup sorts.
                                let shuffled = [h[3], h[0], h[4], h[2], h[1]];
                                let want = game.evaluate(&h).map_or(NO_ENTRY, |e| e as u8);
                                assert_eq!(classes.entry(&shuffled), want, "{} {h:?}", game.id);
                                hands += 1;
                            }
                        }
                    }
                }
            }
            assert_eq!(hands, if game.wild == Wild::Joker { 2_869_685 } else { 2_598_960 });
        }
    }

    #[test]
    fn evaluator_equals_brute_force_on_every_natural_hand() {
        assert_eq!(exhaustive(&jacks_or_better()), 2_598_960);
        assert_eq!(exhaustive(&every_pattern(Wild::None)), 2_598_960);
    }

    #[test]
    fn evaluator_equals_brute_force_on_every_deuces_wild_hand() {
        assert_eq!(exhaustive(&every_pattern(Wild::Deuces)), 2_598_960);
    }

    #[test]
    fn evaluator_equals_brute_force_on_every_joker_hand() {
        assert_eq!(exhaustive(&every_pattern(Wild::Joker)), 2_869_685);
    }

    #[test]
    fn examples() {
        let g = jacks_or_better();
        let h = |s: &str| crate::cards::parse_hand(&[s.to_owned()]).unwrap();
        assert_eq!(g.evaluate(&h("Ts Js Qs Ks As")), Some(0));
        assert_eq!(g.win(&h("Ts Js Qs Ks As"), 5), 4000);
        assert_eq!(g.win(&h("Ts Js Qs Ks As"), 4), 1000);
        assert_eq!(g.evaluate(&h("Jd Jc 9h 7s 3d")), Some(8));
        assert_eq!(g.evaluate(&h("Td Tc 9h 7s 3d")), None);
        assert_eq!(g.evaluate(&h("Ad 2c 3h 4s 5d")), Some(5));
        assert_eq!(g.evaluate(&h("Qd Kc Ah 2s 3d")), None, "no wrap-around");
        let d = every_pattern(Wild::Deuces);
        assert_eq!(d.evaluate(&h("2d 2c 2h 2s 5d")), Some(2));
        assert_eq!(d.evaluate(&h("2d 2c 2h 2s Ad")), Some(1), "four deuces with an ace");
        assert_eq!(d.evaluate(&h("2d Jh Qh Kh Ah")), Some(3));
        assert_eq!(d.evaluate(&h("2d Ah Ac As Ad")), Some(4), "five aces");
        assert_eq!(d.evaluate(&h("2d 2h 4c 4s 4d")), Some(5), "five 4s");
        assert_eq!(d.evaluate(&h("2d 7h 7c 7s 7d")), Some(6));
        assert_eq!(d.evaluate(&h("2d Ah Ac As 4d")), Some(8), "four aces with a 4 kicker");
        let s = sequential(Wild::None, false);
        assert_eq!(s.evaluate(&h("Ts Js Qs Ks As")), Some(0), "T-J-Q-K-A left to right");
        assert_eq!(s.evaluate(&h("As Ks Qs Js Ts")), Some(1), "right to left is only a royal here");
        assert_eq!(s.evaluate(&h("Js Ts Qs Ks As")), Some(1));
        assert_eq!(sequential(Wild::None, true).evaluate(&h("As Ks Qs Js Ts")), Some(0), "either way");
        assert_eq!(sequential(Wild::Deuces, true).evaluate(&h("Ts Js 2s Ks As")), Some(4), "a deuce makes a wild royal, never a sequential one");
        let dealt = Dealt { cards: h("As Kd Qh Jc Tc").into_iter().chain(h("2d 3d 4d 5d 6d")).collect::<Vec<_>>().try_into().unwrap() };
        assert_eq!(dealt.draw(Hold(0b10101)), h("As 2d Qh 3d Tc"));
        assert_eq!(Hold(0b10101).describe(&dealt.hand()), "hold As Qh Tc");
    }

    /// Each hand of a multi-hand round draws five distinct cards, none of
    /// them dealt, from its own copy of the deck: over many rounds two hands
    /// share a replacement card as often as independent copies would.
    #[test]
    fn multi_hand_rounds_draw_each_hand_from_its_own_deck() {
        let mut rng = meters::StreamRng::from_seed(9);
        let g = jacks_or_better();
        let mut shared = 0u64;
        let rounds = 20_000u64;
        for _ in 0..rounds {
            let m = g.deal_hands(&mut rng, 3);
            assert_eq!(m.replacements.len(), 3);
            for r in &m.replacements {
                let mut all: Vec<Card> = m.dealt.iter().chain(r.iter()).copied().collect();
                all.sort();
                all.dedup();
                assert_eq!(all.len(), 10, "a hand's replacements repeat or were dealt");
            }
            shared += u64::from(m.replacements[1][0] == m.replacements[2][0]);
            let finals = m.draw(Hold(0b00011));
            assert!(finals.iter().all(|f| f[0] == m.dealt[0] && f[1] == m.dealt[1]), "held cards stay in every hand");
        }
        // P(two independent hands' first replacement agree) = 1/47.
        let expected = rounds as f64 / 47.0;
        assert!((shared as f64 - expected).abs() < 4.0 * expected.sqrt(), "{shared} shared, expected about {expected:.0}");
    }

    #[test]
    fn deal_draws_ten_distinct_cards() {
        let mut rng = meters::StreamRng::from_seed(4);
        let g = every_pattern(Wild::Joker);
        let mut seen_joker = false;
        for _ in 0..2_000 {
            let d = g.deal(&mut rng);
            let mut s = d.cards.to_vec();
            s.sort();
            s.dedup();
            assert_eq!(s.len(), 10);
            seen_joker |= d.cards.contains(&Card::JOKER);
        }
        assert!(seen_joker);
    }
}
