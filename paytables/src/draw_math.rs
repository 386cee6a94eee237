//! Exact mathematics of draw poker under optimal strategy (decisions.md:
//! "where the player decides, RTP is computed under optimal strategy").
//!
//! For every deal and each of its 32 holds, the expected pay is a sum over
//! every final hand the draw can make. Instead of enumerating draws, the
//! analysis counts, once, how many paying hands of each paytable entry
//! contain every card subset of size 0 to 4. The hands a hold `H` of deal
//! `P` can end in are the hands that contain `H` and no other card of `P`;
//! by inclusion–exclusion their counts are
//!
//! `count(H) = Σ_{H ⊆ T ⊆ P} (−1)^{|T∖H|} · contains(T)`,
//!
//! a Möbius transform over the 32 subsets of the deal. Deals that differ
//! only by a permutation of suits have the same value, so only one deal of
//! each of the 134,459 suit classes is solved, weighted by its class size.
//! Every figure is an exact integer until the final rationals.

use game_core::cards::Card;
use game_core::draw_poker::{Classes, DrawPokerGame, Hold, NO_ENTRY};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use crate::draw_sequence::{Sequential, factorial, falling, orders, permutations, places, royal_completions, ways};
use crate::subsets::{SubsetIndex, each_hand, each_subset};

mod plain;

const NONE: u8 = u8::MAX;

/// For every card subset of size 0 to 4, how many hands of each paytable
/// entry contain it; for every hand, the entry it is paid as.
pub struct DrawTables {
    ix: SubsetIndex,
    entries: usize,
    /// `counts[subset index * entries + entry]`.
    counts: Vec<u32>,
    /// The entry each 5-card hand (by colex rank) is paid as, or `NONE`
    /// (a sequential royal as the entry its cards make as a set).
    hand_entry: Vec<u8>,
    /// The game's sequential royal flush, if it pays one.
    sequential: Option<Sequential>,
}

impl DrawTables {
    /// Count every hand of the deck into the tables, on `threads` threads.
    ///
    /// Each hand is evaluated once and counted into its five subsets of
    /// four cards; the smaller subsets' counts are summed from those
    /// ([`sum_down`], issue 73: five increments a hand, not 31, and each
    /// thread's own counts of four-card subsets fit in bytes — fresh pages
    /// cost more than the counting on these machines).
    pub fn build(game: &DrawPokerGame, threads: usize) -> DrawTables {
        let deck = game.deck_size();
        let entries = game.entries.len();
        let ix = SubsetIndex::new(deck);
        let small = ix.small();
        let fours = ix.binom(deck, 4) as usize;
        // Every hand is looked up by its class, evaluated once.
        let classes = &Classes::new(game);
        let sequential = Sequential::of(game, classes);
        let threads = threads.max(1);
        // The hands by their highest card (their ranks run from C(top, 5),
        // C(top, 4) of them); thread t takes the top cards e ≡ t (mod
        // threads), writing its hands' entries in place.
        let mut hand_entry = vec![NONE; ix.hands()];
        let mut mine: Vec<Vec<(u8, &mut [u8])>> = (0..threads).map(|_| Vec::new()).collect();
        let mut rest: &mut [u8] = &mut hand_entry;
        for top in 4..deck as u8 {
            let (now, later) = std::mem::take(&mut rest).split_at_mut(ix.binom(usize::from(top), 4) as usize);
            mine[usize::from(top) % threads].push((top, now));
            rest = later;
        }
        let ix_ref = &ix;
        // Each thread's counts of four-card subsets, by entry (a subset of
        // four is in at most 49 hands).
        let parts: Vec<Vec<u8>> = std::thread::scope(|s| {
            let handles: Vec<_> = mine
                .into_iter()
                .map(|tops| {
                    s.spawn(move || {
                        let mut four = vec![0u8; fours * entries];
                        let card = |i: u8| Card::from_index(i).unwrap_or(Card::JOKER);
                        for (top, block) in tops {
                            let mut slots = block.iter_mut();
                            ix_ref.each_hand_with_top_fours(top, |cards, subsets| {
                                let entry = match classes.entry(&cards.map(card)) {
                                    NO_ENTRY => NONE,
                                    entry => {
                                        for r in subsets {
                                            four[r * entries + usize::from(entry)] += 1;
                                        }
                                        entry
                                    }
                                };
                                if let Some(slot) = slots.next() {
                                    *slot = entry;
                                }
                            });
                        }
                        four
                    })
                })
                .collect();
            // A worker that fails fails the whole analysis, never a partial sum (issue 18).
            handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
        });
        let mut counts = vec![0u32; small * entries];
        let at_four = ix.offset(4) * entries;
        for part in parts {
            for (a, &b) in counts[at_four..].iter_mut().zip(&part) {
                *a += u32::from(b);
            }
        }
        sum_down(&ix, entries, &mut counts);
        DrawTables { ix, entries, counts, hand_entry, sequential }
    }

    /// How many final hands of each entry every hold of the deal can make
    /// (`sorted` ascending); `out[hold][entry]`.
    fn hold_counts(&self, sorted: &[u8; 5], out: &mut [[i64; 16]; 32]) {
        let idx = self.ix.subsets(sorted);
        for (m, row) in out.iter_mut().enumerate() {
            *row = [0; 16];
            if m == 31 {
                let e = self.hand_entry[idx[31]];
                if e != NONE {
                    row[e as usize] = 1;
                }
            } else {
                let base = idx[m] * self.entries;
                for (e, v) in row.iter_mut().enumerate().take(self.entries) {
                    *v = i64::from(self.counts[base + e]);
                }
            }
        }
        keep_held_only(out, |row, sup| {
            for (v, s) in row.iter_mut().zip(sup.iter()).take(self.entries) {
                *v -= s;
            }
        });
    }

    /// How many of the deck's 5-card hands are paid as entry `e`, as sets
    /// of cards: a sequential royal's are the royal flushes, one order of
    /// which it is.
    pub fn hands_paid_as(&self, e: usize) -> u64 {
        let e = match self.sequential {
            Some(s) if s.entry == e => match s.royal_entry {
                Some(r) => r,
                None => return 4,
            },
            _ => e,
        };
        self.hand_entry.iter().filter(|&&x| x as usize == e).count() as u64
    }

    /// How many draws, as sets of cards, a hold keeping `held` cards has.
    pub fn draws(&self, held: u32) -> u64 {
        self.ix.binom(self.ix.deck() - 5, 5 - held as usize)
    }

    /// How many ordered draws (the replacements in the order they fill the
    /// discarded places) a hold keeping `held` cards has.
    pub fn ordered_draws(&self, held: u32) -> u64 {
        falling(self.ix.deck() as u64 - 5, 5 - held)
    }

    /// The total pay (per coin, `pays[entry]`) of every hold of a deal over
    /// all its ordered draws ([`DrawTables::ordered_draws`]), by the
    /// tables; holds are bits of the deal as shown, whose order counts for
    /// a sequential royal flush.
    pub fn hold_totals(&self, deal: &[Card; 5], pays: &[u64]) -> [i128; 32] {
        let (sorted, to_sorted) = sort_deal(deal);
        let mut counts = [[0i64; 16]; 32];
        self.hold_counts(&sorted, &mut counts);
        let shown = deal.map(|c| c.index());
        let royals = royal_completions(&shown);
        let places = places(&shown);
        let mut out = [0i128; 32];
        for (h, o) in out.iter_mut().enumerate() {
            let m = remap(h as u8, &to_sorted) as usize;
            let drawn = 5 - h.count_ones();
            let set_total: i128 = counts[m].iter().zip(pays).map(|(&c, &p)| i128::from(c) * i128::from(p)).sum();
            *o = set_total * i128::from(factorial(drawn));
            if let Some(s) = self.sequential {
                let ways = ways(&places, h, &[0, 1, 2, 3, 4], s.directions);
                *o += i128::from(royals[h]) * i128::from(ways) * s.bonus(pays);
            }
        }
        out
    }

    /// The optimal hold of a deal as shown for a pay vector: the greatest
    /// expected pay (exactly compared); among equal ones, the first in
    /// hold order.
    pub fn best_hold(&self, deal: &[Card; 5], pays: &[u64]) -> Hold {
        let totals = self.hold_totals(deal, pays);
        let mut best = 0usize;
        for h in 1..32 {
            if better(totals[h], self.ordered_draws(h.count_ones()), totals[best], self.ordered_draws(best.count_ones())) {
                best = h;
            }
        }
        Hold(best as u8)
    }
}

/// The counts of every subset of 0 to 3 cards, from those of the subsets
/// of four (issue 73): a hand holding a subset of `k` cards holds `5 − k`
/// of the subsets of `k + 1` cards that contain it, so the sum over those
/// subsets, divided by `5 − k`, counts each hand once.
fn sum_down(ix: &SubsetIndex, entries: usize, counts: &mut [u32]) {
    // Three cards from four, the most of the work: the subsets in the
    // order their ranks run, each row read and written where the last was.
    {
        let (low, high) = counts.split_at_mut(ix.offset(4) * entries);
        let threes = &mut low[ix.offset(3) * entries..];
        ix.each_four_with_threes(|four, three| {
            let row = &high[four * entries..(four + 1) * entries];
            for t in three {
                for (a, &b) in threes[t * entries..(t + 1) * entries].iter_mut().zip(row) {
                    *a += b;
                }
            }
        });
        for c in threes {
            *c /= 2;
        }
    }
    for k in (0..3usize).rev() {
        // The subsets of k cards and fewer, and those of k + 1 and more.
        let larger_at = ix.offset(k + 1);
        let (low, high) = counts.split_at_mut(larger_at * entries);
        each_subset(ix.deck() as u8, k + 1, |larger| {
            let from = (ix.of(larger) - larger_at) * entries;
            let row = &high[from..from + entries];
            let mut smaller = [0u8; 4];
            for j in 0..=k {
                let mut n = 0;
                for (i, &c) in larger.iter().enumerate() {
                    if i != j {
                        smaller[n] = c;
                        n += 1;
                    }
                }
                let to = ix.of(&smaller[..k]) * entries;
                for (a, &b) in low[to..to + entries].iter_mut().zip(row) {
                    *a += b;
                }
            }
        });
        let holds = (5 - k) as u32;
        for c in &mut low[ix.offset(k) * entries..] {
            *c /= holds;
        }
    }
}

/// The superset Möbius transform over a deal's 32 subsets (bits of the
/// sorted deal): each hold keeps the hands that contain it and no
/// discarded card. `less(x, y)` takes `y` from `x`.
fn keep_held_only<T: Copy>(x: &mut [T; 32], less: impl Fn(&mut T, &T)) {
    for bit in 0..5 {
        for m in 0..32 {
            if m & (1 << bit) == 0 {
                let sup = x[m | (1 << bit)];
                less(&mut x[m], &sup);
            }
        }
    }
}

/// `a / da > b / db`, exactly (`|a| < 2^63`, as pays under the compiler's
/// bound keep it).
fn better(a: i128, da: u64, b: i128, db: u64) -> bool {
    a * i128::from(db) > b * i128::from(da)
}

/// The deal's card indices ascending, and where each dealt position went.
fn sort_deal(deal: &[Card; 5]) -> ([u8; 5], [u8; 5]) {
    let mut order: [usize; 5] = [0, 1, 2, 3, 4];
    order.sort_by_key(|&i| deal[i].index());
    let sorted = order.map(|i| deal[i].index());
    let mut to_sorted = [0u8; 5];
    for (s, &i) in order.iter().enumerate() {
        to_sorted[i] = s as u8;
    }
    (sorted, to_sorted)
}

fn remap(hold: u8, to_sorted: &[u8; 5]) -> u8 {
    (0..5).filter(|&i| hold & (1 << i) != 0).fold(0, |m, i| m | (1 << to_sorted[i]))
}

/// The exact figures of one coin count.
#[derive(Clone, Debug)]
pub struct DrawConfigFigures {
    pub coins: u32,
    /// Pays per coin of each entry at this coin count.
    pub pays: Vec<u64>,
    pub rtp: BigRational,
    pub hit_frequency: BigRational,
    /// E[win²] in coins², for the variance.
    pub second_moment: BigRational,
    /// The probability of ending a round on each entry.
    pub entry_probability: Vec<BigRational>,
    /// E[v²], v the expected pay per coin of the optimal hold of the deal:
    /// the covariance of two hands drawn from one deal is E[v²] − RTP².
    pub hold_value_second_moment: BigRational,
}

impl DrawConfigFigures {
    pub fn variance(&self) -> BigRational {
        &self.second_moment - &self.rtp * &self.rtp
    }

    /// Standard deviation of a round's win, in bets.
    pub fn standard_deviation(&self) -> f64 {
        self.variance().to_f64().unwrap_or(f64::NAN).sqrt()
    }

    /// Variance of a multi-hand round's win in total bets, `hands` hands
    /// drawn from one deal (each from its own deck): the hands are
    /// independent given the deal, so Var = (Var₁ + (n − 1)·Cov) / n with
    /// Cov = E[v²] − RTP². The RTP itself does not depend on `hands`.
    pub fn variance_hands(&self, hands: u32) -> BigRational {
        let n = BigRational::from_integer(BigInt::from(hands.max(1)));
        let cov = &self.hold_value_second_moment - &self.rtp * &self.rtp;
        (self.variance() + (&n - BigRational::from_integer(BigInt::from(1))) * cov) / n
    }

    /// Standard deviation of a multi-hand round's win, in total bets.
    pub fn standard_deviation_hands(&self, hands: u32) -> f64 {
        self.variance_hands(hands).to_f64().unwrap_or(f64::NAN).sqrt()
    }
}

#[derive(Clone, Debug)]
pub struct DrawFigures {
    pub deals: u64,
    pub suit_classes: usize,
    pub configs: Vec<DrawConfigFigures>,
}

/// One deal of every suit class and the class's size: a deal is its class's
/// representative when its per-suit rank masks are in descending order.
pub fn suit_classes(deck: usize) -> Vec<([u8; 5], u32)> {
    let mut out = Vec::with_capacity(140_000);
    each_hand(deck, |cards| {
        let mut masks = [0u16; 4];
        for &x in &cards {
            if x < 52 {
                masks[(x % 4) as usize] |= 1 << (x / 4);
            }
        }
        if masks.windows(2).all(|w| w[0] >= w[1]) {
            // 24 / ∏ (multiplicity of each equal mask)!
            let mut size = 24u32;
            let mut i = 0;
            while i < 4 {
                let mut j = i;
                while j < 4 && masks[j] == masks[i] {
                    j += 1;
                }
                size /= (1..=(j - i) as u32).product::<u32>();
                i = j;
            }
            out.push((cards, size));
        }
    });
    out
}

/// The pay vectors of the game's coin counts (coins sharing one are solved once).
fn pay_vectors(game: &DrawPokerGame) -> Vec<(Vec<u32>, Vec<u64>)> {
    let mut out: Vec<(Vec<u32>, Vec<u64>)> = Vec::new();
    for &coins in &game.coins {
        let pays: Vec<u64> = (0..game.entries.len()).map(|e| game.pays_per_coin(e, coins)).collect();
        match out.iter_mut().find(|(_, p)| *p == pays) {
            Some((c, _)) => c.push(coins),
            None => out.push((vec![coins], pays)),
        }
    }
    out
}

/// Optimal-strategy exact figures of every coin count.
pub fn analyse(game: &DrawPokerGame, threads: usize) -> DrawFigures {
    let tables = DrawTables::build(game, threads);
    analyse_with(game, &tables, threads)
}

pub fn analyse_with(game: &DrawPokerGame, tables: &DrawTables, threads: usize) -> DrawFigures {
    analyse_deals(game, tables, &suit_classes(tables.ix.deck()), threads)
}

/// The figures of play restricted to `classes` (each a deal, cards
/// ascending, and how many deals it stands for): over every suit class,
/// the game's; over a few, what a test can check by brute force.
pub fn analyse_deals(game: &DrawPokerGame, tables: &DrawTables, classes: &[([u8; 5], u32)], threads: usize) -> DrawFigures {
    let entries = game.entries.len();
    let rest = tables.ix.deck() as u64 - 5;
    // Every hold's value in one unit: per coin, over the `lcm` ordered
    // draws of five cards (each smaller draw's count divides it).
    let lcm = falling(rest, 5);
    let unit: Vec<i128> = (0..=5).map(|drawn| i128::from(lcm / falling(rest, drawn))).collect();
    let set_unit: Vec<i128> = (0..=5u32).map(|drawn| unit[drawn as usize] * i128::from(factorial(drawn))).collect();
    let deals: u64 = classes.iter().map(|c| u64::from(c.1)).sum();
    // With a sequential royal a deal is solved in each of its orders where
    // one can matter, each weighing 1/120 of the deal.
    let all_orders = orders();
    let per_deal: u128 = if tables.sequential.is_some() { 120 } else { 1 };
    let mut configs = Vec::new();
    // Every pay vector is solved in the same pass: a deal's hold counts are
    // made once and read for each.
    let vectors = pay_vectors(game);
    let threads = threads.max(1);
    let chunk = classes.len().div_ceil(threads).max(1);
    // Without a sequential royal, the pays folded into the tables (`plain`).
    let folded: Vec<Vec<i64>> = if tables.sequential.is_none() { vectors.iter().map(|(_, pays)| tables.folded(pays)).collect() } else { Vec::new() };
    let plain: Vec<plain::Folded<'_>> = vectors.iter().zip(&folded).map(|((_, pays), folded)| plain::Folded { pays, folded }).collect();
    let sums: Vec<Vec<Sums>> = std::thread::scope(|s| {
        let handles: Vec<_> = classes
            .chunks(chunk)
            .map(|part| {
                let (vectors, unit, set_unit, all_orders, plain) = (&vectors, &unit, &set_unit, &all_orders, &plain);
                s.spawn(move || {
                    let mut sums: Vec<Sums> = vectors.iter().map(|_| Sums::new(entries)).collect();
                    if !plain.is_empty() {
                        for &(cards, weight) in part {
                            plain::solve(tables, &cards, plain, set_unit, u128::from(weight), &mut sums);
                        }
                        return sums;
                    }
                    let mut counts = [[0i64; 16]; 32];
                    for &(cards, weight) in part {
                        tables.hold_counts(&cards, &mut counts);
                        let deal =
                            Deal { counts: &counts, royals: royal_completions(&cards), places: places(&cards), unit, set_unit, sequential: tables.sequential };
                        for ((_, pays), sums) in vectors.iter().zip(sums.iter_mut()) {
                            deal.solve(pays, u128::from(weight), per_deal, all_orders, sums);
                        }
                    }
                    sums
                })
            })
            .collect();
        // A worker that fails fails the whole analysis, never a partial sum (issue 18).
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    for (v, (coin_counts, pays)) in vectors.into_iter().enumerate() {
        let mut total = Sums::new(entries);
        for part in &sums {
            total.add(&part[v]);
        }
        let denom = BigInt::from(lcm) * BigInt::from(per_deal) * BigInt::from(deals);
        let prob: Vec<BigRational> = total.entries.iter().map(|a| BigRational::new(BigInt::from(*a), denom.clone())).collect();
        let hold_value_second_moment = BigRational::new(total.squares.total(), &denom * BigInt::from(lcm));
        let mut rtp = BigRational::zero();
        let mut second = BigRational::zero();
        let mut hit = BigRational::zero();
        for (p, &pay) in prob.iter().zip(&pays) {
            let pay = BigRational::from_integer(BigInt::from(pay));
            rtp += p * &pay;
            second += p * &pay * &pay;
            hit += p;
        }
        for coins in coin_counts {
            configs.push(DrawConfigFigures {
                coins,
                pays: pays.clone(),
                rtp: rtp.clone(),
                hit_frequency: hit.clone(),
                second_moment: second.clone(),
                entry_probability: prob.clone(),
                hold_value_second_moment: hold_value_second_moment.clone(),
            });
        }
    }
    configs.sort_by_key(|c| c.coins);
    DrawFigures { deals, suit_classes: classes.len(), configs }
}

/// A worker's sums for one pay vector, in units of 1 / (`lcm` · orders
/// per deal · deals): how often each entry ends a round, and Σ v² of the
/// optimal hold's value v.
struct Sums {
    entries: Vec<i128>,
    squares: Wide,
}

impl Sums {
    fn new(entries: usize) -> Sums {
        Sums { entries: vec![0; entries], squares: Wide::default() }
    }

    /// A hold chosen `times` times: its final hands by entry (as sets, each
    /// worth `set_unit`) and its value squared.
    fn add_hold(&mut self, counts: &[i64], set_unit: i128, value: i128, times: u128) {
        let per_set = set_unit * times as i128;
        for (a, &c) in self.entries.iter_mut().zip(counts) {
            *a += i128::from(c) * per_set;
        }
        let v = value.unsigned_abs();
        self.squares.add(v * v * times);
    }

    fn add(&mut self, other: &Sums) {
        for (a, b) in self.entries.iter_mut().zip(&other.entries) {
            *a += b;
        }
        self.squares.add_big(&other.squares.total());
    }
}

/// A sum that never wraps: a u128 that spills into a big integer.
#[derive(Default)]
struct Wide {
    small: u128,
    big: BigInt,
}

impl Wide {
    fn add(&mut self, x: u128) {
        match self.small.checked_add(x) {
            Some(s) => self.small = s,
            None => {
                self.big += BigInt::from(self.small) + BigInt::from(x);
                self.small = 0;
            }
        }
    }

    fn add_big(&mut self, x: &BigInt) {
        self.big += x;
    }

    fn total(&self) -> BigInt {
        &self.big + BigInt::from(self.small)
    }
}

/// One deal (a suit class's representative, cards ascending) being solved.
struct Deal<'a> {
    /// `counts[hold][entry]`: final hands as sets, by the tables.
    counts: &'a [[i64; 16]; 32],
    /// Royal flushes each hold can end in.
    royals: [u32; 32],
    places: [[Option<u8>; 2]; 5],
    /// Per cards drawn, the common unit's multiple of one ordered draw …
    unit: &'a [i128],
    /// … and of one draw as a set (`unit · drawn!`).
    set_unit: &'a [i128],
    sequential: Option<Sequential>,
}

impl Deal<'_> {
    /// Add the deal's optimal play to `sums`, `weight` deals of its class,
    /// each counted `per_deal` times (once per order).
    fn solve(&self, pays: &[u64], weight: u128, per_deal: u128, all_orders: &[[u8; 5]], sums: &mut Sums) {
        // Every hold's value without its sequential bonus.
        let mut value = [0i128; 32];
        for (m, v) in value.iter_mut().enumerate() {
            let drawn = 5 - m.count_ones() as usize;
            // Within i64: counts ≤ C(48, 5), pays ≤ the compiler's 10^9, 16 entries.
            let set_total: i64 = self.counts[m].iter().zip(pays).map(|(&c, &p)| c * p as i64).sum();
            *v = i128::from(set_total) * self.set_unit[drawn];
        }
        let Some(seq) = self.sequential else {
            // Without a sequential royal the order never counts.
            let best = (1..32).fold(0, |b, m| if value[m] > value[b] { m } else { b });
            self.record(best, 0, value[best], weight, per_deal, sums);
            return;
        };
        let bonus = seq.bonus(pays);
        // Discarding all five, the bonus is the same in every order.
        value[0] += i128::from(self.royals[0]) * i128::from(seq.direction_count()) * bonus * self.unit[5];
        let order_counts = |m: usize| bonus != 0 && m != 0 && self.royals[m] > 0;
        // The best hold whose value is the same in every order: the first
        // of the greatest.
        let mut best = 0;
        for m in 1..32 {
            if !order_counts(m) && value[m] > value[best] {
                best = m;
            }
        }
        // The holds whose value depends on the order, where some order
        // could make one the choice.
        let open: Vec<usize> = (1..32)
            .filter(|&m| {
                order_counts(m) && {
                    // The bonus is linear in the directions open: its
                    // greatest is with none or with all.
                    let top = value[m].max(value[m] + self.bonus_value(m, seq.direction_count(), bonus));
                    top > value[best] || (top == value[best] && m < best)
                }
            })
            .collect();
        let ways_at = |m: usize, at: &[u8; 5]| if m == 0 { seq.direction_count() } else { ways(&self.places, m, at, seq.directions) };
        if open.is_empty() {
            // One choice in every order; which of its royals come in
            // sequence still depends on the order (the bonus may be 0).
            let in_sequence: u32 = if self.royals[best] > 0 { all_orders.iter().map(|at| ways_at(best, at)).sum() } else { 0 };
            self.record(best, in_sequence, value[best], weight, per_deal, sums);
            return;
        }
        for at in all_orders {
            let (mut choice, mut choice_value) = (best, value[best]);
            for &m in &open {
                let v = value[m] + self.bonus_value(m, ways_at(m, at), bonus);
                if v > choice_value || (v == choice_value && m < choice) {
                    (choice, choice_value) = (m, v);
                }
            }
            self.record(choice, ways_at(choice, at), choice_value, weight, 1, sums);
        }
    }

    /// The sequential bonus of hold `m` in an order with `ways` directions
    /// open, in the common unit.
    fn bonus_value(&self, m: usize, ways: u32, bonus: i128) -> i128 {
        i128::from(self.royals[m]) * i128::from(ways) * bonus * self.unit[5 - m.count_ones() as usize]
    }

    /// Count hold `m`'s final hands in `orders` orders of `weight` deals,
    /// of which, summed over those orders, `in_sequence` directions of
    /// each of its royals come in sequence.
    fn record(&self, m: usize, in_sequence: u32, value: i128, weight: u128, orders: u128, sums: &mut Sums) {
        let drawn = 5 - m.count_ones();
        sums.add_hold(&self.counts[m], self.set_unit[drawn as usize], value, weight * orders);
        if let Some(s) = self.sequential {
            let moved = i128::from(self.royals[m]) * i128::from(in_sequence) * self.unit[drawn as usize] * weight as i128;
            sums.entries[s.entry] += moved;
            if let Some(r) = s.royal_entry {
                sums.entries[r] -= moved;
            }
        }
    }
}

/// The expected pay per coin of each of the 32 holds, by enumerating every
/// draw (the `paytable strategy` command, and the reference the tables are
/// tested against). Holds are bits of the deal as shown: the replacements
/// fill the discarded places from left to right, and a draw that makes a
/// royal flush is evaluated in every order of its replacement cards, each
/// equally likely (the sequential royal flush).
pub fn hold_values(game: &DrawPokerGame, deal: &[Card; 5], coins: u32) -> Vec<(Hold, BigRational)> {
    let rest: Vec<Card> = game_core::cards::deck(game.deck_size() == 53).into_iter().filter(|c| !deal.contains(c)).collect();
    let ordered = game.entries.iter().any(|e| matches!(e.pattern, game_core::draw_poker::Pattern::SequentialRoyalFlush { .. }));
    let royal =
        |hand: &[Card; 5]| hand.iter().all(|c| !c.is_joker() && c.suit() == hand[0].suit()) && hand.iter().fold(0u16, |m, c| m | 1 << c.rank()) == 0b11111 << 8;
    let mut out = Vec::with_capacity(32);
    for h in 0..32u8 {
        let hold = Hold(h);
        let need = 5 - hold.count() as usize;
        let orders = if ordered { permutations(need) } else { vec![(0..need).collect()] };
        let mut total = 0u64;
        let mut n = 0u64;
        let mut pick: Vec<usize> = (0..need).collect();
        loop {
            let place = |order: &[usize]| {
                let mut next = order.iter().map(|&o| rest[pick[o]]);
                std::array::from_fn(|i| if hold.holds(i) { deal[i] } else { next.next().unwrap_or(Card::JOKER) })
            };
            let first: [Card; 5] = place(&orders[0]);
            if ordered && royal(&first) {
                // Every order of the replacements, each its own draw.
                for order in &orders {
                    total += game.evaluate(&place(order)).map_or(0, |e| game.pays_per_coin(e, coins));
                }
            } else {
                // The same pay in every order.
                total += game.evaluate(&first).map_or(0, |e| game.pays_per_coin(e, coins)) * orders.len() as u64;
            }
            n += orders.len() as u64;
            if !next_combination(&mut pick, rest.len()) {
                break;
            }
        }
        out.push((hold, BigRational::new(BigInt::from(total), BigInt::from(n))));
    }
    out
}

/// Advance `pick` (ascending indices below `n`) to the next combination;
/// false after the last.
pub fn next_combination(pick: &mut [usize], n: usize) -> bool {
    let k = pick.len();
    for i in (0..k).rev() {
        if pick[i] < n - k + i {
            pick[i] += 1;
            for j in i + 1..k {
                pick[j] = pick[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suit_classes_cover_every_deal() {
        let c = suit_classes(52);
        assert_eq!(c.len(), 134_459);
        assert_eq!(c.iter().map(|x| u64::from(x.1)).sum::<u64>(), 2_598_960);
        let j = suit_classes(53);
        assert_eq!(j.iter().map(|x| u64::from(x.1)).sum::<u64>(), 2_869_685);
    }
}
