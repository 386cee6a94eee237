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

use crate::subsets::{SubsetIndex, each_hand};

const NONE: u8 = u8::MAX;

/// For every card subset of size 0 to 4, how many hands of each paytable
/// entry contain it; for every hand, the entry it is paid as.
pub struct DrawTables {
    ix: SubsetIndex,
    entries: usize,
    /// `counts[subset index * entries + entry]`.
    counts: Vec<u32>,
    /// The entry each 5-card hand (by colex rank) is paid as, or `NONE`.
    hand_entry: Vec<u8>,
}

impl DrawTables {
    /// Count every hand of the deck into the tables, on `threads` threads.
    pub fn build(game: &DrawPokerGame, threads: usize) -> DrawTables {
        let deck = game.deck_size();
        let entries = game.entries.len();
        let ix = SubsetIndex::new(deck);
        let small = ix.small();
        let hands = ix.hands();
        let mut tables = DrawTables { ix, entries, counts: Vec::new(), hand_entry: Vec::new() };
        let threads = threads.max(1);
        // Every hand is looked up by its class, evaluated once.
        let classes = &Classes::new(game);
        // Thread t takes the top cards e ≡ t (mod threads); each keeps its
        // own counts, summed at the end.
        // Per thread: its counts, and its blocks of hand entries by start.
        type Part = (Vec<u32>, Vec<(usize, Vec<u8>)>);
        let parts: Vec<Part> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let tables = &tables;
                    s.spawn(move || {
                        let mut counts = vec![0u32; small * entries];
                        let mut blocks = Vec::new();
                        for e in (4..deck as u8).filter(|e| *e as usize % threads == t) {
                            let start = tables.ix.binom(e as usize, 5) as usize;
                            let mut block = Vec::with_capacity(tables.ix.binom(e as usize, 4) as usize);
                            let card = |i: u8| Card::from_index(i).unwrap_or(Card::JOKER);
                            tables.ix.each_hand_with_top_indexed(e, |cards, idx| match classes.entry(&cards.map(card)) {
                                NO_ENTRY => block.push(NONE),
                                entry => {
                                    block.push(entry);
                                    for &i in idx {
                                        counts[i * entries + entry as usize] += 1;
                                    }
                                }
                            });
                            blocks.push((start, block));
                        }
                        (counts, blocks)
                    })
                })
                .collect();
            // A worker that fails fails the whole analysis, never a partial sum (issue 18).
            handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
        });
        let mut counts = vec![0u32; small * entries];
        let mut hand_entry = vec![NONE; hands];
        for (c, blocks) in parts {
            for (a, b) in counts.iter_mut().zip(&c) {
                *a += *b;
            }
            for (start, block) in blocks {
                hand_entry[start..start + block.len()].copy_from_slice(&block);
            }
        }
        tables.counts = counts;
        tables.hand_entry = hand_entry;
        tables
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
        // Superset Möbius transform: keep the hands with no discarded card.
        for bit in 0..5 {
            for m in 0..32 {
                if m & (1 << bit) == 0 {
                    let sup = out[m | (1 << bit)];
                    for (v, s) in out[m].iter_mut().zip(sup.iter()).take(self.entries) {
                        *v -= s;
                    }
                }
            }
        }
    }

    /// How many of the deck's 5-card hands are paid as entry `e`.
    pub fn hands_paid_as(&self, e: usize) -> u64 {
        self.hand_entry.iter().filter(|&&x| x as usize == e).count() as u64
    }

    /// How many draws a hold keeping `held` cards has.
    pub fn draws(&self, held: u32) -> u64 {
        self.ix.binom(self.ix.deck() - 5, 5 - held as usize)
    }

    /// The total pay (per coin, `pays[entry]`) of every hold of a deal, over
    /// all its draws, by the tables; holds are bits of the deal as given.
    pub fn hold_totals(&self, deal: &[Card; 5], pays: &[u64]) -> [i64; 32] {
        let (sorted, to_sorted) = sort_deal(deal);
        let mut counts = [[0i64; 16]; 32];
        self.hold_counts(&sorted, &mut counts);
        let mut out = [0i64; 32];
        for (h, o) in out.iter_mut().enumerate() {
            let m = remap(h as u8, &to_sorted);
            *o = counts[m as usize].iter().zip(pays).map(|(c, &p)| c * p as i64).sum();
        }
        out
    }

    /// The optimal hold of a deal for a pay vector: the greatest expected
    /// pay (exactly compared); among equal ones, the first in hold order.
    pub fn best_hold(&self, deal: &[Card; 5], pays: &[u64]) -> Hold {
        let totals = self.hold_totals(deal, pays);
        let mut best = 0usize;
        for h in 1..32 {
            if better(totals[h], self.draws(h.count_ones()), totals[best], self.draws(best.count_ones())) {
                best = h;
            }
        }
        Hold(best as u8)
    }
}

/// `a / da > b / db`, exactly.
fn better(a: i64, da: u64, b: i64, db: u64) -> bool {
    i128::from(a) * i128::from(db) > i128::from(b) * i128::from(da)
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

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Optimal-strategy exact figures of every coin count.
pub fn analyse(game: &DrawPokerGame, threads: usize) -> DrawFigures {
    let tables = DrawTables::build(game, threads);
    analyse_with(game, &tables, threads)
}

pub fn analyse_with(game: &DrawPokerGame, tables: &DrawTables, threads: usize) -> DrawFigures {
    let classes = suit_classes(tables.ix.deck());
    let entries = game.entries.len();
    // A common denominator for every hold size.
    let draws: Vec<u128> = (0..=5).map(|h| u128::from(tables.draws(h))).collect();
    let lcm = draws.iter().fold(1u128, |l, &d| l / gcd(l, d) * d);
    let scale: Vec<u128> = draws.iter().map(|&d| lcm / d).collect();
    let deals = tables.ix.hands() as u64;
    let mut configs = Vec::new();
    // Every pay vector is solved in the same pass: a deal's hold counts are
    // made once and read for each.
    let vectors = pay_vectors(game);
    let threads = threads.max(1);
    let chunk = classes.len().div_ceil(threads);
    // Per worker, per pay vector: Σ entry counts (scaled), and per hold size
    // Σ weight · (the optimal hold's total pay)².
    type Sums = (Vec<Vec<u128>>, Vec<[u128; 6]>);
    let sums: Vec<Sums> = std::thread::scope(|s| {
        let handles: Vec<_> = classes
            .chunks(chunk)
            .map(|part| {
                let vectors = &vectors;
                let scale = &scale;
                s.spawn(move || {
                    let mut acc = vec![vec![0u128; entries]; vectors.len()];
                    let mut squares = vec![[0u128; 6]; vectors.len()];
                    let mut counts = [[0i64; 16]; 32];
                    for &(cards, weight) in part {
                        tables.hold_counts(&cards, &mut counts);
                        for (((_, pays), acc), sq) in vectors.iter().zip(acc.iter_mut()).zip(squares.iter_mut()) {
                            let mut best = 0usize;
                            let mut best_total = i64::MIN;
                            for (h, row) in counts.iter().enumerate() {
                                let total: i64 = row.iter().zip(pays.iter()).map(|(c, &p)| c * p as i64).sum();
                                if h == 0 || better(total, tables.draws(h.count_ones()), best_total, tables.draws(best.count_ones())) {
                                    best = h;
                                    best_total = total;
                                }
                            }
                            let f = u128::from(weight) * scale[best.count_ones() as usize];
                            for (a, &c) in acc.iter_mut().zip(counts[best].iter()) {
                                *a += c as u128 * f;
                            }
                            let t = best_total.unsigned_abs() as u128;
                            sq[best.count_ones() as usize] += u128::from(weight) * t * t;
                        }
                    }
                    (acc, squares)
                })
            })
            .collect();
        // A worker that fails fails the whole analysis, never a partial sum (issue 18).
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    for (v, (coin_counts, pays)) in vectors.into_iter().enumerate() {
        let mut acc = vec![0u128; entries];
        let mut hold_value_second_moment = BigRational::zero();
        for (part, squares) in &sums {
            for (a, b) in acc.iter_mut().zip(&part[v]) {
                *a += b;
            }
            for (k, &sq) in squares[v].iter().enumerate() {
                let d = BigInt::from(draws[k]);
                hold_value_second_moment += BigRational::new(BigInt::from(sq), &d * &d * BigInt::from(deals));
            }
        }
        let denom = BigInt::from(lcm) * BigInt::from(deals);
        let prob: Vec<BigRational> = acc.iter().map(|&a| BigRational::new(BigInt::from(a), denom.clone())).collect();
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

/// The expected pay per coin of each of the 32 holds, by enumerating every
/// draw (the `paytable strategy` command, and the reference the tables are
/// tested against). Holds are bits of the deal as given.
pub fn hold_values(game: &DrawPokerGame, deal: &[Card; 5], coins: u32) -> Vec<(Hold, BigRational)> {
    let rest: Vec<Card> = game_core::cards::deck(game.deck_size() == 53).into_iter().filter(|c| !deal.contains(c)).collect();
    let mut out = Vec::with_capacity(32);
    for h in 0..32u8 {
        let hold = Hold(h);
        let held: Vec<Card> = (0..5).filter(|&i| hold.holds(i)).map(|i| deal[i]).collect();
        let need = 5 - held.len();
        let mut total = 0u64;
        let mut n = 0u64;
        let mut pick: Vec<usize> = (0..need).collect();
        loop {
            let mut hand = [Card::JOKER; 5];
            for (i, c) in held.iter().copied().chain(pick.iter().map(|&p| rest[p])).enumerate() {
                hand[i] = c;
            }
            total += game.evaluate(&hand).map_or(0, |e| game.pays_per_coin(e, coins));
            n += 1;
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
