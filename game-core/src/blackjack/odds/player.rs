//! The player's expected values against one up card, composition by
//! composition: every hand is valued on the shoe its own cards (and the
//! up card, and any pair cards a split has dealt out) leave.
//!
//! Values are expectations per unit of the original bet. Where the dealer
//! peeks, or a dealer blackjack takes the original bet only, the
//! recursion values a hand on the event that the dealer has no blackjack
//! (E[X·1{no blackjack}]); the blackjack's loss of the original bet is
//! added once, at the deal ([`super::analyse`]). Where a blackjack takes
//! every stake, it is an outcome of the dealer like any other.

use std::collections::{BTreeMap, HashMap};

use super::dealer::{BLACKJACK, BUST, CLASSES, DealerGraph, Dist};
use crate::blackjack::rules::{DealerBlackjack, HoleCard, Rules};

/// Cards by class (index 0 the ace, 9 the ten-values).
pub type Counts = [u8; CLASSES];

/// A multiset of cards as one key: five bits a class (a hand holds at
/// most 21 aces; the cards out at most 31 of a class, [`super::MAX_LEVEL`]
/// pair cards included).
pub(crate) fn pack(c: &Counts) -> u64 {
    c.iter().enumerate().fold(0u64, |k, (i, &n)| k | (u64::from(n) << (5 * i)))
}

/// A fast hasher for the solver's keys, which are already well spread
/// small integers (the standard SipHash costs more than the lookups save).
#[derive(Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    /// The high bits folded into the low ones (murmur3's finaliser): the
    /// table picks a bucket by the low bits, and a product's low bits see
    /// only the key's low bits (the aces and twos), so without it every
    /// hand alike in its low cards probed one chain (issue 73).
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
}

pub type KeyMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// A hand's hard total (aces 1) and whether it holds an ace.
pub(crate) fn hard_aces(c: &Counts) -> (u8, u8) {
    (c.iter().enumerate().map(|(i, &n)| (i as u8 + 1) * n).sum(), c[0])
}

/// The best total of a hand whose `free` aces may count 11.
pub(crate) fn total(hard: u8, free: u8) -> u8 {
    if free > 0 && hard + 10 <= 21 { hard + 10 } else { hard }
}

/// The solver for one up card.
pub struct Solver<'a> {
    pub rules: &'a Rules,
    pub up: usize,
    /// The shoe with the up card out.
    pub full: [u16; CLASSES],
    pub full_total: u16,
    dealer: &'a DealerGraph,
    dists: KeyMap<Dist>,
    /// Hit-or-stand values by context and hand.
    values: KeyMap<f64>,
    /// Whether the hand hits at its best, in the main context (no split
    /// cards out): the strategy's multi-card decisions.
    pub hits: KeyMap<bool>,
    mass: Vec<f64>,
    /// A dealer blackjack is an outcome of the recursion (it takes all).
    bj_in_recursion: bool,
}

/// Cards dealt out of the shoe beyond the hand: `k` more of class `pair`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    pub pair: u8,
    pub k: u8,
}

impl Context {
    pub const MAIN: Context = Context { pair: 0, k: 0 };
}

impl<'a> Solver<'a> {
    pub fn new(rules: &'a Rules, up: usize, dealer: &'a DealerGraph) -> Solver<'a> {
        let d = u16::from(rules.decks);
        let mut full = [4 * d; CLASSES];
        full[9] = 16 * d;
        full[up] -= 1;
        Solver {
            rules,
            up,
            full,
            full_total: full.iter().sum(),
            dealer,
            dists: KeyMap::default(),
            values: KeyMap::default(),
            hits: KeyMap::default(),
            mass: Vec::new(),
            bj_in_recursion: rules.hole_card == HoleCard::NoPeek(DealerBlackjack::TakesAll),
        }
    }

    /// The cards out of the shoe for a hand in a context.
    pub(crate) fn removed(hand: &Counts, ctx: Context) -> Counts {
        let mut r = *hand;
        r[usize::from(ctx.pair)] += ctx.k;
        r
    }

    /// The probability of each class as the next card, cards `removed` out.
    pub fn probs(&self, removed: &Counts) -> [f64; CLASSES] {
        let out: u16 = removed.iter().map(|&n| u16::from(n)).sum();
        let per = 1.0 / f64::from(self.full_total.saturating_sub(out).max(1));
        std::array::from_fn(|c| f64::from(self.full[c].saturating_sub(u16::from(removed[c]))) * per)
    }

    /// The probability that the hole card makes the dealer a blackjack.
    pub fn p_blackjack(&self, removed: &Counts) -> f64 {
        let p = self.probs(removed);
        match self.up {
            0 => p[9],
            9 => p[0],
            _ => 0.0,
        }
    }

    /// The weight of the event the recursion values: no dealer blackjack,
    /// or everything where a blackjack is an outcome of the recursion.
    fn weight(&self, removed: &Counts) -> f64 {
        if self.bj_in_recursion { 1.0 } else { 1.0 - self.p_blackjack(removed) }
    }

    pub fn dist(&mut self, removed: &Counts) -> Dist {
        let key = pack(removed);
        if let Some(d) = self.dists.get(&key) {
            return *d;
        }
        let shoe: [u16; CLASSES] = std::array::from_fn(|c| self.full[c].saturating_sub(u16::from(removed[c])));
        let d = self.dealer.dist(&shoe, &mut self.mass);
        self.dists.insert(key, d);
        d
    }

    /// The value of standing on `total` with `removed` out, per unit staked.
    pub fn stand(&mut self, removed: &Counts, total: u8) -> f64 {
        if total > 21 {
            return -self.weight(removed);
        }
        let d = self.dist(removed);
        let mut v = d[BUST];
        for (i, &p) in d[..BUST].iter().enumerate() {
            let dealer = 17 + i as u8;
            v += match total.cmp(&dealer) {
                std::cmp::Ordering::Greater => p,
                std::cmp::Ordering::Less => -p,
                std::cmp::Ordering::Equal => 0.0,
            };
        }
        if self.bj_in_recursion {
            v -= d[BLACKJACK];
        }
        v
    }

    /// The best of hitting and standing, cards after the first two drawn as
    /// the hand needs them (BJ 21: no stand below `stand_from`, no hit at 21).
    pub fn hit_stand(&mut self, hand: &Counts, ctx: Context) -> f64 {
        let key = pack(hand) | (u64::from(ctx.pair) << 50) | (u64::from(ctx.k) << 54);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let removed = Self::removed(hand, ctx);
        let (hard, aces) = hard_aces(hand);
        let t = total(hard, aces);
        // A hand no card can bust, on 16 or less, hits (issue 73: the
        // dealer's totals on its shoe are not needed). Standing on 16 or
        // less is worth 2·P(bust) + P(blackjack) − 1, a linear function of
        // the dealer's outcomes; a card drawn at random from the shoe
        // leaves their law as it was, so the mean over the next card of
        // that same value is the stand's value, and after the card the hand
        // stands on more (17–21, worth at least as much), may stand again
        // (every total it reaches is 12 or more, or more than now, and
        // `stand_from` is at most 12) or plays on at its best.
        let dominated = hard <= 11 && t <= 16;
        let stand = (!dominated && (t >= self.rules.stand_from || t == 21)).then(|| self.stand(&removed, t));
        let v = if t == 21 {
            stand.unwrap_or(0.0)
        } else {
            let hit = self.hit(hand, ctx);
            let best = stand.map_or(hit, |s| s.max(hit));
            if ctx == Context::MAIN {
                self.hits.insert(pack(hand), stand.is_none_or(|s| hit > s));
            }
            best
        };
        self.values.insert(key, v);
        v
    }

    /// The value of taking one card and playing on at the best.
    pub fn hit(&mut self, hand: &Counts, ctx: Context) -> f64 {
        let (hard, _) = hard_aces(hand);
        self.each_next_card(hand, ctx, |s, c, next, removed| if hard + c as u8 + 1 > 21 { -s.weight(removed) } else { s.hit_stand(next, ctx) })
    }

    /// Σ over the class `c` of the next card, weighted by its probability
    /// from the shoe less `hand` and `ctx`'s cards, of `f(self, c, the hand
    /// with it, the cards removed with it)`.
    fn each_next_card(&mut self, hand: &Counts, ctx: Context, mut f: impl FnMut(&mut Self, usize, &Counts, &Counts) -> f64) -> f64 {
        let removed = Self::removed(hand, ctx);
        let p = self.probs(&removed);
        let mut v = 0.0;
        for c in 0..CLASSES {
            if p[c] == 0.0 {
                continue;
            }
            let mut next = *hand;
            next[c] += 1;
            let mut r = removed;
            r[c] += 1;
            v += p[c] * f(self, c, &next, &r);
        }
        v
    }

    /// The value of doubling: one card, twice the stake; `locked`: the
    /// hand's first ace counts 1 to the end (BJ 27).
    pub fn double(&mut self, hand: &Counts, ctx: Context, locked: bool) -> f64 {
        2.0 * self.each_next_card(hand, ctx, |s, _, next, removed| {
            let (hard, aces) = hard_aces(next);
            s.stand(removed, total(hard, aces - u8::from(locked && aces > 0)))
        })
    }

    /// Whether a two-card hand may be doubled, and as a locked hard hand.
    pub fn may_double(&self, hand: &Counts, after_split: bool) -> Option<bool> {
        let r = self.rules;
        if after_split && !r.double_after_split {
            return None;
        }
        let (hard, aces) = hard_aces(hand);
        let soft = aces > 0 && hard + 10 <= 21;
        match (soft, r.double_on) {
            (_, crate::blackjack::rules::DoubleOn::AnyTwo) => Some(false),
            (false, on) => on.hard(hard).then_some(false),
            (true, on) => (r.double_soft_as_hard && on.hard(hard)).then_some(true),
        }
    }

    /// The best value of a two-card hand made by a split (no surrender, no
    /// further split here: the split's process counts resplits).
    pub fn split_hand(&mut self, hand: &Counts, ctx: Context) -> f64 {
        let split_aces = ctx.pair == 0 && !self.rules.hit_split_aces;
        if split_aces {
            let (hard, aces) = hard_aces(hand);
            let removed = Self::removed(hand, ctx);
            return self.stand(&removed, total(hard, aces));
        }
        let mut v = self.hit_stand(hand, ctx);
        if let Some(locked) = self.may_double(hand, true) {
            v = v.max(self.double(hand, ctx, locked));
        }
        v
    }

    /// The value of splitting the pair of class `pair` (BJ 23), up to
    /// `hands` hands, per unit of the original bet.
    ///
    /// Each split hand is valued on the shoe with the pair cards the split
    /// has dealt out removed (the other hands' other cards are not:
    /// the approximation every analyser makes, documented in
    /// docs/blackjack.md). The number of hands is the exact law of the
    /// pair cards drawn as second cards, each with the chance the shoe gives
    /// it once the pair cards and the second cards seen are out.
    pub fn split(&mut self, pair: usize, hands: usize, max_level: u8) -> f64 {
        let p0 = f64::from(self.full[pair].saturating_sub(2));
        let n0 = f64::from(self.full_total.saturating_sub(2));
        // Values by level: a hand whose second card is not a pair card,
        // with `k` pair cards out beyond it (its own first card aside); a
        // capped hand of two pair cards with `k` more out.
        let mut non_pair: HashMap<u8, f64> = HashMap::new();
        let mut capped: HashMap<u8, f64> = HashMap::new();
        // The process: (resplits, second cards not pairs, capped hands), in
        // a fixed order, so that the sums (and the artifact's figures) are
        // the same on every run and machine.
        let mut states: BTreeMap<(u16, u16, u16), f64> = BTreeMap::new();
        states.insert((0, 0, 0), 1.0);
        let mut ev = 0.0;
        while !states.is_empty() {
            let mut next: BTreeMap<(u16, u16, u16), f64> = BTreeMap::new();
            for ((r, m, c), prob) in states {
                let total_hands = 2 + r;
                let pending = total_hands - m - c;
                let j = r + c;
                if pending == 0 {
                    let k_np = (j + 1).min(u16::from(max_level)) as u8;
                    let k_c = j.min(u16::from(max_level)) as u8;
                    let v_np = match non_pair.get(&k_np) {
                        Some(&v) => v,
                        None => {
                            let v = self.non_pair_value(pair, k_np);
                            non_pair.insert(k_np, v);
                            v
                        }
                    };
                    let mut v = f64::from(m) * v_np;
                    if c > 0 {
                        let v_c = match capped.get(&k_c) {
                            Some(&v) => v,
                            None => {
                                let mut hand = [0u8; CLASSES];
                                hand[pair] = 2;
                                let v = self.split_hand(&hand, Context { pair: pair as u8, k: k_c });
                                capped.insert(k_c, v);
                                v
                            }
                        };
                        v += f64::from(c) * v_c;
                    }
                    ev += prob * v;
                    continue;
                }
                let left = n0 - f64::from(j) - f64::from(m);
                let pp = if left > 0.0 { ((p0 - f64::from(j)) / left).max(0.0) } else { 0.0 };
                if pp > 0.0 {
                    let key = if usize::from(total_hands) < hands { (r + 1, m, c) } else { (r, m, c + 1) };
                    *next.entry(key).or_insert(0.0) += prob * pp;
                }
                if pp < 1.0 {
                    *next.entry((r, m + 1, c)).or_insert(0.0) += prob * (1.0 - pp);
                }
            }
            states = next;
        }
        ev
    }

    /// A split hand's value given its second card is not a pair card,
    /// `k` pair cards out beyond its own.
    fn non_pair_value(&mut self, pair: usize, k: u8) -> f64 {
        let ctx = Context { pair: pair as u8, k };
        let mut first = [0u8; CLASSES];
        first[pair] = 1;
        let p = self.probs(&Self::removed(&first, ctx));
        let mut v = 0.0;
        for c in (0..CLASSES).filter(|&c| c != pair) {
            if p[c] == 0.0 {
                continue;
            }
            let mut hand = first;
            hand[c] += 1;
            v += p[c] * self.split_hand(&hand, ctx);
        }
        let q = 1.0 - p[pair];
        if q > 0.0 { v / q } else { 0.0 }
    }
}
