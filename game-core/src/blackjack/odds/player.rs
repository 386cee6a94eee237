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

use super::dealer::{BLACKJACK, BUST, CLASSES, DealerGraph, Dist, OUTCOMES};
use super::hands::{BUSTED, Hands};
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
    hands: &'a Hands,
    t: Tables,
    /// Whether the hand hits at its best, in the main context (no split
    /// cards out): the strategy's multi-card decisions.
    pub hits: KeyMap<bool>,
    mass: Scratch,
    /// [`Solver::walk_context`]'s list of the shoes to walk.
    pending: Vec<(u32, [u16; CLASSES])>,
    /// A dealer blackjack is an outcome of the recursion (it takes all).
    bj_in_recursion: bool,
}

/// The solver's tables, by context and hand: kept from one up card to
/// the next by the thread that solves them (issue 73: a fresh 2 MB a
/// solver was paid in page faults, a tenth of the analysis).
#[derive(Default)]
pub struct Tables {
    /// The dealer's totals, each shoe once.
    dists: Vec<Dist>,
    /// Each shoe's index in `dists`, or [`UNKNOWN`], at its place
    /// ([`Solver::shoe_slot`]).
    dist_at: Vec<u32>,
    /// Hit-or-stand values by context and hand (NaN: not yet valued).
    values: Vec<f64>,
    /// The contexts whose hands have had their shoes walked.
    walked: Vec<bool>,
}

impl Tables {
    /// Every entry unknown again, for `slots` places.
    fn clear(&mut self, slots: usize) {
        self.dists.clear();
        self.dists.reserve(1 << 15);
        self.dist_at.clear();
        self.dist_at.resize(slots, UNKNOWN);
        self.values.clear();
        self.values.resize(slots, f64::NAN);
        self.walked.clear();
        self.walked.resize(CLASSES * LEVELS, false);
    }
}

/// A hand's dealer totals not yet looked up.
const UNKNOWN: u32 = u32::MAX;

/// The levels of a context: 0 to [`super::MAX_LEVEL`] pair cards out.
const LEVELS: usize = super::MAX_LEVEL as usize + 1;

/// The dealer's walks' scratch buffers, one per number of shoes walked
/// together.
type Scratch = (Vec<[f64; 1]>, Vec<[f64; 2]>, Vec<[f64; 4]>, Vec<[f64; 8]>);

/// Cards dealt out of the shoe beyond the hand: `k` more of class `pair`
/// (`k` at most [`super::MAX_LEVEL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    pub pair: u8,
    pub k: u8,
}

impl Context {
    pub const MAIN: Context = Context { pair: 0, k: 0 };

    /// The context's place among the `CLASSES × LEVELS` contexts.
    fn index(self) -> usize {
        usize::from(self.pair) * LEVELS + usize::from(self.k)
    }
}

impl<'a> Solver<'a> {
    /// The solver for `up`, its tables `t` (any a solver left, or new)
    /// cleared.
    pub fn new(rules: &'a Rules, up: usize, dealer: &'a DealerGraph, hands: &'a Hands, mut t: Tables) -> Solver<'a> {
        let d = u16::from(rules.decks);
        let mut full = [4 * d; CLASSES];
        full[9] = 16 * d;
        full[up] -= 1;
        t.clear(CLASSES * LEVELS * hands.len());
        Solver {
            rules,
            up,
            full,
            full_total: full.iter().sum(),
            dealer,
            hands,
            t,
            hits: KeyMap::default(),
            mass: Default::default(),
            pending: Default::default(),
            bj_in_recursion: rules.hole_card == HoleCard::NoPeek(DealerBlackjack::TakesAll),
        }
    }

    /// The solver's tables, for the next up card.
    pub fn into_tables(self) -> Tables {
        self.t
    }

    /// The hand of two cards of the classes `a` and `b`.
    pub fn two(&self, a: usize, b: usize) -> u32 {
        self.hands.two(a, b)
    }

    /// The cards out of the shoe for a hand in a context.
    pub(crate) fn removed(hand: &Counts, ctx: Context) -> Counts {
        let mut r = *hand;
        r[usize::from(ctx.pair)] += ctx.k;
        r
    }

    /// A hand's place in the tables of values and dealer totals.
    fn slot(&self, id: u32, ctx: Context) -> usize {
        ctx.index() * self.hands.len() + id as usize
    }

    /// The probability of each class as the next card, cards `removed` out.
    pub fn probs(&self, removed: &Counts) -> [f64; CLASSES] {
        let out: u16 = removed.iter().map(|&n| u16::from(n)).sum();
        self.chances(&std::array::from_fn(|c| self.full[c].saturating_sub(u16::from(removed[c]))), out)
    }

    /// The probability of each class as the next card from `shoe`, `out`
    /// cards out of the full shoe.
    fn chances(&self, shoe: &[u16; CLASSES], out: u16) -> [f64; CLASSES] {
        let per = 1.0 / f64::from(self.full_total.saturating_sub(out).max(1));
        std::array::from_fn(|c| f64::from(shoe[c]) * per)
    }

    /// The probability that the hole card makes the dealer a blackjack:
    /// [`Solver::probs`]'s figure for the one class that does.
    pub fn p_blackjack(&self, removed: &Counts) -> f64 {
        let class = match self.up {
            0 => 9,
            9 => 0,
            _ => return 0.0,
        };
        let out: u16 = removed.iter().map(|&n| u16::from(n)).sum();
        let per = 1.0 / f64::from(self.full_total.saturating_sub(out).max(1));
        f64::from(self.full[class].saturating_sub(u16::from(removed[class]))) * per
    }

    /// The weight of the event the recursion values: no dealer blackjack,
    /// or everything where a blackjack is an outcome of the recursion.
    fn weight(&self, removed: &Counts) -> f64 {
        if self.bj_in_recursion { 1.0 } else { 1.0 - self.p_blackjack(removed) }
    }

    /// The shoe hand `id` leaves in `ctx`, and the cards out of it:
    /// the full shoe less [`Solver::removed`], computed without
    /// the array of cards out (issue 73: a byte written into it and the
    /// whole read back at once stalled the processor).
    fn shoe_of(&self, id: u32, ctx: Context) -> ([u16; CLASSES], u16) {
        let hand = self.hands.counts(id);
        let shoe = std::array::from_fn(|c| {
            let extra = if c == usize::from(ctx.pair) { u16::from(ctx.k) } else { 0 };
            self.full[c].saturating_sub(u16::from(hand[c]) + extra)
        });
        (shoe, u16::from(self.hands.size(id)) + u16::from(ctx.k))
    }

    /// The place of the shoe hand `id` leaves in `ctx` in the table of
    /// dealer totals: the same for every hand and context that leave the
    /// same shoe — the context's pair cards moved into the hand while it
    /// stays 21 or less (a hand of the split's pair with `k` more out
    /// leaves what the hand with one more pair card and `k − 1` out does,
    /// and with none out is in the main context).
    fn shoe_slot(&self, id: u32, ctx: Context) -> usize {
        let (mut hand, mut k) = (id, ctx.k);
        while k > 0 {
            let next = self.hands.next(hand, usize::from(ctx.pair));
            if next == BUSTED {
                break;
            }
            hand = next;
            k -= 1;
        }
        self.slot(hand, if k == 0 { Context::MAIN } else { Context { pair: ctx.pair, k } })
    }

    /// The dealer's totals on the shoe hand `id` leaves in `ctx`.
    fn dist_at(&mut self, id: u32, ctx: Context) -> Dist {
        let slot = self.shoe_slot(id, ctx);
        let at = self.t.dist_at[slot];
        if at != UNKNOWN {
            return self.t.dists[at as usize];
        }
        let (shoe, _) = self.shoe_of(id, ctx);
        let d = self.dealer.dist(&shoe, &mut self.mass.0);
        self.t.dist_at[slot] = self.t.dists.len() as u32;
        self.t.dists.push(d);
        d
    }

    /// The dealer's totals for every shoe the play in `ctx` can stand on,
    /// found in walks of eight shoes at once (issue 73: a state's place in
    /// the dealer's graph is read once for all eight, and their arithmetic
    /// runs side by side): every hand the context's play can reach
    /// ([`Hands::reach`]: the hands of two cards, or a split's hands, and
    /// every hand a card drawn under 21 makes of them, by number), each
    /// shoe once in the solver's life, the first time the context is
    /// played. Where this walked hand by hand as the play reached each
    /// hand, following the cards, a tenth of the analysis was that search.
    fn walk_context(&mut self, ctx: Context) {
        let at = ctx.index();
        if self.t.walked.get(at).is_none_or(|&w| w) {
            return;
        }
        self.t.walked[at] = true;
        let hands = self.hands;
        let mut walk = std::mem::take(&mut self.pending);
        walk.clear();
        for &h in hands.reach(if ctx == Context::MAIN { None } else { Some(usize::from(ctx.pair)) }) {
            let (hard, aces) = hands.hard_aces(h);
            if !self.weighs_standing(hard, total(hard, aces)) {
                continue;
            }
            let shoe_slot = self.shoe_slot(h, ctx);
            if self.t.dist_at[shoe_slot] == UNKNOWN {
                // Its place now, its figures once walked.
                let at = self.t.dists.len() as u32;
                self.t.dists.push([0.0; OUTCOMES]);
                self.t.dist_at[shoe_slot] = at;
                walk.push((at, self.shoe_of(h, ctx).0));
            }
        }
        for chunk in walk.chunks(8) {
            match chunk.len() {
                0 => {}
                1 => self.walk::<1>(chunk, |m| &mut m.0),
                2 => self.walk::<2>(chunk, |m| &mut m.1),
                3 | 4 => self.walk::<4>(chunk, |m| &mut m.2),
                _ => self.walk::<8>(chunk, |m| &mut m.3),
            }
        }
        self.pending = walk;
    }

    /// One walk of the dealer's graph for up to `L` shoes (the last
    /// repeated to fill the lanes), each shoe's totals kept in its place.
    fn walk<const L: usize>(&mut self, chunk: &[(u32, [u16; CLASSES])], buffer: impl Fn(&mut Scratch) -> &mut Vec<[f64; L]>) {
        let Some(&(_, last)) = chunk.last() else { return };
        let shoes: [[u16; CLASSES]; L] = std::array::from_fn(|l| chunk.get(l).map_or(last, |&(_, shoe)| shoe));
        let dists = self.dealer.dists(&shoes, buffer(&mut self.mass));
        for (&(at, _), d) in chunk.iter().zip(dists) {
            self.t.dists[at as usize] = d;
        }
    }

    /// Whether a hand of `hard` (aces 1) and best `total` weighs standing.
    /// A hand no card can bust, on 16 or less, hits (issue 73: the
    /// dealer's totals on its shoe are not needed). Standing on 16 or
    /// less is worth 2·P(bust) + P(blackjack) − 1, a linear function of
    /// the dealer's outcomes; a card drawn at random from the shoe leaves
    /// their law as it was, so the mean over the next card of that same
    /// value is the stand's value, and after the card the hand stands on
    /// more (17–21, worth at least as much), may stand again (every total
    /// it reaches is 12 or more, or more than now, and `stand_from` is at
    /// most 12) or plays on at its best.
    fn weighs_standing(&self, hard: u8, total: u8) -> bool {
        let dominated = hard <= 11 && total <= 16;
        !dominated && (total >= self.rules.stand_from || total == 21)
    }

    /// The value of standing on `total` against the dealer's totals `d`,
    /// per unit staked.
    fn against(&self, d: &Dist, total: u8) -> f64 {
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

    /// The value of standing on `total` with hand `id` in `ctx`.
    pub fn stand_at(&mut self, id: u32, ctx: Context, total: u8) -> f64 {
        if total > 21 {
            return -self.weight(&Self::removed(self.hands.counts(id), ctx));
        }
        let d = self.dist_at(id, ctx);
        self.against(&d, total)
    }

    /// The best of hitting and standing, cards after the first two drawn as
    /// the hand needs them (BJ 21: no stand below `stand_from`, no hit at 21).
    pub fn hit_stand(&mut self, id: u32, ctx: Context) -> f64 {
        let slot = self.slot(id, ctx);
        let known = self.t.values[slot];
        if !known.is_nan() {
            return known;
        }
        self.walk_context(ctx);
        let (hard, aces) = self.hands.hard_aces(id);
        let t = total(hard, aces);
        let stand = self.weighs_standing(hard, t).then(|| self.stand_at(id, ctx, t));
        let v = if t == 21 {
            stand.unwrap_or(0.0)
        } else {
            let hit = self.hit(id, ctx);
            let best = stand.map_or(hit, |s| s.max(hit));
            if ctx == Context::MAIN {
                self.hits.insert(pack(self.hands.counts(id)), stand.is_none_or(|s| hit > s));
            }
            best
        };
        self.t.values[slot] = v;
        v
    }

    /// The weight of the event the recursion values once one more card of
    /// each class is out of `shoe` (`out` cards out of the full shoe), as
    /// [`Solver::weight`] gives it for those cards and that one: every
    /// such shoe has one card fewer, so one reciprocal
    /// serves them all (issue 73: a hand that can bust divided again for
    /// each card that busts it).
    fn weights_after_one_more(&self, shoe: &[u16; CLASSES], out: u16) -> [f64; CLASSES] {
        let class = match self.up {
            _ if self.bj_in_recursion => return [1.0; CLASSES],
            0 => 9,
            9 => 0,
            _ => return [1.0; CLASSES],
        };
        let per = 1.0 / f64::from(self.full_total.saturating_sub(out + 1).max(1));
        std::array::from_fn(|c| 1.0 - f64::from(shoe[class].saturating_sub(u16::from(c == class))) * per)
    }

    /// The value of taking one card and playing on at the best.
    pub fn hit(&mut self, id: u32, ctx: Context) -> f64 {
        self.each_next_hand(id, ctx, |s, next| s.hit_stand(next, ctx))
    }

    /// The value of doubling: one card, twice the stake; `locked`: the
    /// hand's first ace counts 1 to the end (BJ 27).
    pub fn double(&mut self, id: u32, ctx: Context, locked: bool) -> f64 {
        2.0 * self.each_next_hand(id, ctx, |s, next| {
            let (hard, aces) = s.hands.hard_aces(next);
            s.stand_at(next, ctx, total(hard, aces - u8::from(locked && aces > 0)))
        })
    }

    /// Σ over the class of the next card, weighted by its chance from the
    /// shoe hand `id` leaves in `ctx`, of the weight lost where the card
    /// busts the hand, else `value(self, the hand it makes)`; every shoe
    /// those hands can stand on walked first ([`Solver::walk_context`]).
    fn each_next_hand(&mut self, id: u32, ctx: Context, mut value: impl FnMut(&mut Self, u32) -> f64) -> f64 {
        let (shoe, out) = self.shoe_of(id, ctx);
        self.walk_context(ctx);
        let p = self.chances(&shoe, out);
        let busts = self.weights_after_one_more(&shoe, out);
        let mut v = 0.0;
        for (c, &pc) in p.iter().enumerate() {
            if pc == 0.0 {
                continue;
            }
            let next = self.hands.next(id, c);
            let x = if next == BUSTED { -busts[c] } else { value(self, next) };
            v += pc * x;
        }
        v
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
    pub fn split_hand(&mut self, id: u32, ctx: Context) -> f64 {
        let split_aces = ctx.pair == 0 && !self.rules.hit_split_aces;
        if split_aces {
            let (hard, aces) = self.hands.hard_aces(id);
            return self.stand_at(id, ctx, total(hard, aces));
        }
        let mut v = self.hit_stand(id, ctx);
        if let Some(locked) = self.may_double(self.hands.counts(id), true) {
            v = v.max(self.double(id, ctx, locked));
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
    pub fn split(&mut self, pair: usize, hands: usize) -> f64 {
        let max_level = super::MAX_LEVEL;
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
                                let v = self.split_hand(self.hands.two(pair, pair), Context { pair: pair as u8, k: k_c });
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
            v += p[c] * self.split_hand(self.hands.two(pair, c), ctx);
        }
        let q = 1.0 - p[pair];
        if q > 0.0 { v / q } else { 0.0 }
    }
}
