//! Exact mathematics of póquer sem descarte (Caribbean stud) under the
//! optimal raise/fold decision for every player hand and dealer up card,
//! and of its progressive side bet.
//!
//! For each of the 2,598,960 player hands and 47 up cards, the 163,185
//! dealer completions are not enumerated but counted: how many qualify
//! (PSD 15), and how many of those rank strictly below the player, come
//! from a sweep over all hands in rank order that keeps, for every card
//! subset of size 1 to 4, how many qualifying hands seen so far contain it;
//! inclusion–exclusion over the player's cards removes the dealer hands
//! that would share a card with the player. Those counts only depend on
//! ranks, so one deal per suit class (134,459) is counted and mapped to
//! the other members of its class by permuting suits. Hands of equal rank
//! (which the suit decides under SP-17, or which push under PSD 26) are
//! enumerated directly, per player hand. Every figure is an exact integer
//! until the final rationals.

use game_core::cards::Card;
use game_core::poker::{Category, at_least_ace_king, evaluate};
use game_core::stud_poker::{Decision, StudPokerGame, TieRule};
use meters::StreamRng;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::Serialize;

use crate::check::{Floor, f, pct};
use crate::draw_math::suit_classes;
use crate::simulate::across_threads;
use crate::subsets::{SubsetIndex, each_hand};

/// Dealer completions of a player hand and an up card: C(46, 4).
pub const COMPLETIONS: u64 = 163_185;
pub const HANDS: u64 = 2_598_960;

/// Per up card (by card index), counts over the dealer completions.
#[derive(Clone, Copy)]
struct RepCounts {
    /// Qualifying dealer hands.
    qualifying: [u32; 52],
    /// Qualifying dealer hands of strictly lower rank than the player's.
    below: [u32; 52],
}

/// The exact figures of one ante.
#[derive(Clone, Debug)]
pub struct StudConfigFigures {
    pub ante: u64,
    /// Expected net result per ante (negative: the house edge).
    pub net_per_ante: BigRational,
    /// Probability that the optimal player raises.
    pub raise_probability: BigRational,
    /// Returned ÷ wagered (ante and raise).
    pub rtp: BigRational,
    /// E[net²] per ante².
    pub second_moment: BigRational,
}

impl StudConfigFigures {
    pub fn standard_deviation_per_ante(&self) -> f64 {
        (&self.second_moment - &self.net_per_ante * &self.net_per_ante).to_f64().unwrap_or(f64::NAN).sqrt()
    }
}

pub struct StudAnalysis {
    pub configs: Vec<StudConfigFigures>,
    /// Probability of each player category as dealt (the side bet's odds).
    pub dealt: Vec<(Category, BigRational)>,
    /// Probability that the dealer qualifies.
    pub dealer_qualifies: BigRational,
    /// Per ante: for every player hand (colex rank), bit `u` set when the
    /// optimal play against up card `u` is to raise.
    decisions: Vec<Vec<u64>>,
    /// For each ante the game offers, its entry in `decisions`.
    group_of: Vec<usize>,
    /// Player hands' ranks, for [`StudAnalysis::decide`].
    ix: SubsetIndex,
    pub seconds: f64,
}

impl StudAnalysis {
    /// The optimal decision for a deal at an ante the analysis covers.
    pub fn decide(&self, game: &StudPokerGame, ante: u64, player: &[Card; 5], up: Card) -> Decision {
        let Some(k) = game.antes.iter().position(|&a| a == ante).and_then(|i| self.group_of.get(i).copied()) else { return Decision::Fold };
        let mut s = player.map(|c| c.index());
        s.sort_unstable();
        let idx = self.ix.of(&s);
        if self.decisions[k][idx] & (1 << up.index()) != 0 { Decision::Raise } else { Decision::Fold }
    }
}

fn permute(card: u8, perm: &[u8; 4]) -> u8 {
    card / 4 * 4 + perm[(card % 4) as usize]
}

const PERMS: [[u8; 4]; 24] = {
    let mut out = [[0u8; 4]; 24];
    let mut n = 0;
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 4 {
            let mut c = 0;
            while c < 4 {
                if a != b && a != c && b != c {
                    let d = 6 - a - b - c;
                    out[n] = [a, b, c, d];
                    n += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
};

/// Optimal-strategy figures for every ante the game offers.
pub fn analyse(game: &StudPokerGame, threads: usize) -> StudAnalysis {
    analyse_probed(game, threads, &[]).0
}

/// Dealer completions of a probed player hand and up card, as counted:
/// (dealer does not qualify, player wins, player loses).
pub type Probe = ([u8; 5], u8, (u64, u64, u64));

/// [`analyse`], also returning the counts of the probed (sorted player
/// hand, up card) pairs, for tests against brute force.
pub fn analyse_probed(game: &StudPokerGame, threads: usize, probes: &[([u8; 5], u8)]) -> (StudAnalysis, Vec<Probe>) {
    let started = std::time::Instant::now();
    let ix = SubsetIndex::new(52);
    let small = ix.small();
    // Every hand, by its colex rank: its rank value (suits ignored); the
    // qualifying ones also in rank order for the sweep.
    let mut value = Vec::with_capacity(HANDS as usize);
    let mut hands: Vec<(u32, [u8; 5])> = Vec::with_capacity(1_500_000);
    let mut dealt_counts = [0u64; 10];
    each_hand(52, |s| {
        let v = evaluate(&s.map(|i| Card::from_index(i).unwrap_or(Card::JOKER)));
        value.push(v.raw());
        dealt_counts[v.category() as usize] += 1;
        if at_least_ace_king(v) {
            hands.push((v.raw(), s));
        }
    });
    hands.sort_unstable_by_key(|h| h.0);
    let qualifies = |v: u32| v >= hands.first().map_or(u32::MAX, |h| h.0);
    let classes = suit_classes(52);
    let mut reps: Vec<(u32, usize)> = classes.iter().enumerate().map(|(i, (s, _))| (value[ix.of(s)], i)).collect();
    reps.sort_unstable_by_key(|r| r.0);

    // Inclusion–exclusion: dealer hands containing `u` and none of the
    // player's cards, counted by `count(subset)`.
    let count_for = |p: &[u8; 5], u: u8, count: &dyn Fn(&[u8]) -> u32| -> u32 {
        let mut total: i64 = 0;
        for m in 0..32u32 {
            let mut x = [0u8; 6];
            let mut n = 0;
            let mut placed = false;
            for (i, &c) in p.iter().enumerate() {
                if m & (1 << i) != 0 {
                    if !placed && u < c {
                        x[n] = u;
                        n += 1;
                        placed = true;
                    }
                    x[n] = c;
                    n += 1;
                }
            }
            if !placed {
                x[n] = u;
                n += 1;
            }
            if n > 5 {
                continue;
            }
            let v = i64::from(count(&x[..n]));
            if m.count_ones() % 2 == 0 { total += v } else { total -= v }
        }
        total as u32
    };

    // The sweep: ascending rank; before adding the hands of a rank, answer
    // the representatives of that rank.
    let mut running = vec![0u32; small];
    let mut added = vec![false; HANDS as usize];
    let mut rep_counts = vec![RepCounts { qualifying: [0; 52], below: [0; 52] }; classes.len()];
    let mut hi = 0usize;
    let mut ri = 0usize;
    while ri < reps.len() {
        let key = reps[ri].0;
        while hi < hands.len() && hands[hi].0 < key {
            let idx = ix.subsets(&hands[hi].1);
            for &i in &idx[1..31] {
                running[i] += 1;
            }
            added[idx[31]] = true;
            hi += 1;
        }
        while ri < reps.len() && reps[ri].0 == key {
            let rep = reps[ri].1;
            if qualifies(key) {
                let p = classes[rep].0;
                let count = |x: &[u8]| if x.len() == 5 { u32::from(added[ix.of(x)]) } else { running[ix.of(x)] };
                for u in (0..52u8).filter(|u| !p.contains(u)) {
                    rep_counts[rep].below[u as usize] = count_for(&p, u, &count);
                }
            }
            ri += 1;
        }
    }
    // Add the rest: `running` then counts every qualifying hand.
    while hi < hands.len() {
        let idx = ix.subsets(&hands[hi].1);
        for &i in &idx[1..31] {
            running[i] += 1;
        }
        hi += 1;
    }
    let threads = threads.max(1);
    let chunk = classes.len().div_ceil(threads);
    std::thread::scope(|s| {
        for (part, counts) in classes.chunks(chunk).zip(rep_counts.chunks_mut(chunk)) {
            let (running, value, ix) = (&running, &value, &ix);
            s.spawn(move || {
                let count = |x: &[u8]| if x.len() == 5 { u32::from(qualifies(value[ix.of(x)])) } else { running[ix.of(x)] };
                for ((p, _), rc) in part.iter().zip(counts.iter_mut()) {
                    for u in (0..52u8).filter(|u| !p.contains(u)) {
                        rc.qualifying[u as usize] = count_for(p, u, &count);
                    }
                }
            });
        }
    });

    // Expand every class to its members, add the equal-rank dealer hands,
    // and decide.
    // Antes whose every outcome pays the same multiple of the ante (the
    // cap does not bind differently) have the same strategy and figures:
    // solve one of each group.
    let scaled = |a: u64| -> Vec<u64> {
        let mut v: Vec<u64> = Category::ALL.iter().map(|&c| game.winnings(a, c)).collect();
        v.push(game.max_win_credits.map_or(a, |cap| a.min(cap)));
        v
    };
    let mut group_of = Vec::with_capacity(game.antes.len());
    let mut antes: Vec<u64> = Vec::new();
    for &a in &game.antes {
        let va = scaled(a);
        let same = antes.iter().position(|&b| scaled(b).iter().zip(&va).all(|(&wb, &wa)| u128::from(wb) * u128::from(a) == u128::from(wa) * u128::from(b)));
        match same {
            Some(g) => group_of.push(g),
            None => {
                group_of.push(antes.len());
                antes.push(a);
            }
        }
    }
    let nconf = antes.len();
    struct Acc {
        net: Vec<i128>,
        sq: Vec<u128>,
        raises: Vec<u64>,
        decisions: Vec<Vec<(usize, u64)>>,
        probed: Vec<Probe>,
    }
    let results: Vec<Acc> = std::thread::scope(|s| {
        let handles: Vec<_> = classes
            .chunks(chunk)
            .zip(rep_counts.chunks(chunk))
            .map(|(part, counts)| {
                let (antes, ix, probes) = (&antes, &ix, probes);
                s.spawn(move || {
                    let mut acc =
                        Acc { net: vec![0; nconf], sq: vec![0; nconf], raises: vec![0; nconf], decisions: vec![Vec::new(); nconf], probed: Vec::new() };
                    let mut members: Vec<[u8; 5]> = Vec::with_capacity(24);
                    for ((rep, _), rc) in part.iter().zip(counts) {
                        members.clear();
                        for perm in PERMS.iter() {
                            let mut p = rep.map(|c| permute(c, perm));
                            p.sort_unstable();
                            // Each member of the class once.
                            if members.contains(&p) {
                                continue;
                            }
                            members.push(p);
                            let cards = p.map(|i| Card::from_index(i).unwrap_or(Card::JOKER));
                            let v = evaluate(&cards);
                            let category = v.category();
                            let (tie_win, _tie_loss) = if at_least_ace_king(v) { ties(&p, game.tie_rule) } else { ([0; 52], [0; 52]) };
                            let player_qualifies = at_least_ace_king(v);
                            let mut bits = vec![0u64; nconf];
                            for u0 in (0..52u8).filter(|u| !rep.contains(u)) {
                                let u = permute(u0, perm) as usize;
                                let q = u64::from(rc.qualifying[u0 as usize]);
                                let nq = COMPLETIONS - q;
                                let (w, l) = if player_qualifies {
                                    let below = u64::from(rc.below[u0 as usize]);
                                    // Under PSD 26 the equal hands push: neither won nor lost.
                                    let tw = u64::from(tie_win[u]);
                                    match game.tie_rule {
                                        TieRule::SuitOrder => (below + tw, q - below - tw),
                                        TieRule::Push => (below, q - below - tw),
                                    }
                                } else {
                                    (0, q)
                                };
                                if probes.contains(&(p, u as u8)) {
                                    acc.probed.push((p, u as u8, (nq, w, l)));
                                }
                                for (k, &a) in antes.iter().enumerate() {
                                    let win_nq = game.max_win_credits.map_or(a, |cap| a.min(cap));
                                    let win = game.winnings(a, category);
                                    let raise = i128::from(nq * win_nq) + i128::from(w * win) - i128::from(l * 3 * a);
                                    let fold = -i128::from(COMPLETIONS * a);
                                    if raise > fold {
                                        acc.net[k] += raise;
                                        acc.raises[k] += 1;
                                        acc.sq[k] += u128::from(nq) * u128::from(win_nq * win_nq)
                                            + u128::from(w) * u128::from(win * win)
                                            + u128::from(l) * u128::from(9 * a * a);
                                        bits[k] |= 1 << u;
                                    } else {
                                        acc.net[k] += fold;
                                        acc.sq[k] += u128::from(COMPLETIONS) * u128::from(a * a);
                                    }
                                }
                            }
                            let idx = ix.of(&p);
                            for (d, &b) in acc.decisions.iter_mut().zip(&bits) {
                                d.push((idx, b));
                            }
                        }
                    }
                    acc
                })
            })
            .collect();
        // A worker that fails fails the whole analysis, never a partial sum (issue 18).
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut decisions = vec![vec![0u64; HANDS as usize]; nconf];
    let mut net = vec![0i128; nconf];
    let mut sq = vec![0u128; nconf];
    let mut raises = vec![0u64; nconf];
    let mut probed = Vec::new();
    for r in results {
        probed.extend(r.probed);
        for k in 0..nconf {
            net[k] += r.net[k];
            sq[k] += r.sq[k];
            raises[k] += r.raises[k];
            for &(i, b) in &r.decisions[k] {
                decisions[k][i] = b;
            }
        }
    }
    let pairs = BigInt::from(HANDS) * BigInt::from(47u32);
    let configs = game
        .antes
        .iter()
        .zip(&group_of)
        .map(|(&ante, &k)| {
            let a = antes[k];
            let denom = &pairs * BigInt::from(COMPLETIONS) * BigInt::from(a);
            let net_per_ante = BigRational::new(BigInt::from(net[k]), denom.clone());
            let raise_probability = BigRational::new(BigInt::from(raises[k]), pairs.clone());
            let wagered = BigRational::from_integer(1.into()) + BigRational::from_integer(2.into()) * &raise_probability;
            let rtp = (&wagered + &net_per_ante) / &wagered;
            let second_moment = BigRational::new(BigInt::from(sq[k]), denom * BigInt::from(a));
            StudConfigFigures { ante, net_per_ante, raise_probability, rtp, second_moment }
        })
        .collect();
    let dealt = Category::ALL.iter().map(|&c| (c, BigRational::new(BigInt::from(dealt_counts[c as usize]), BigInt::from(HANDS)))).collect();
    // P(dealer qualifies) for a random deal: qualifying hands / all hands.
    let dealer_qualifies = BigRational::new(BigInt::from(hands.len() as u64), BigInt::from(HANDS));
    (StudAnalysis { configs, dealt, dealer_qualifies, decisions, group_of, ix, seconds: started.elapsed().as_secs_f64() }, probed)
}

/// Dealer hands of the same ranks and category as the player's (sorted
/// cards `p`, which qualify), disjoint from them, counted per card they
/// contain: (player wins by suit, player loses by suit), or under PSD 26
/// (pushes, 0).
fn ties(p: &[u8; 5], rule: TieRule) -> ([u32; 52], [u32; 52]) {
    let mut win = [0u32; 52];
    let mut loss = [0u32; 52];
    let cards = p.map(|i| Card::from_index(i).unwrap_or(Card::JOKER));
    let v = evaluate(&cards);
    let flush = matches!(v.category(), Category::Flush | Category::StraightFlush | Category::RoyalFlush);
    // Ranks with multiplicity; a rank held 3 or 4 times cannot be matched.
    let mut count = [0u8; 13];
    let mut held = [0u8; 13];
    for c in &cards {
        count[c.rank() as usize] += 1;
        held[c.rank() as usize] |= 1 << c.suit();
    }
    if count.iter().any(|&c| c > 2) {
        return (win, loss);
    }
    let principal = v.principal_rank();
    let player_suit = cards.iter().filter(|c| c.rank() == principal).map(|c| c.suit()).max().unwrap_or(0);
    // Per rank, the dealer's options: a pair rank takes both suits the
    // player lacks (one option); a single rank one of the three others.
    let mut ranks = [0u8; 5];
    let mut options = [[0u8; 3]; 5]; // suit masks
    let mut n_opts = [0usize; 5];
    let mut n = 0;
    for r in 0..13u8 {
        let free = !held[r as usize] & 0xF;
        match count[r as usize] {
            2 => {
                ranks[n] = r;
                options[n][0] = free;
                n_opts[n] = 1;
                n += 1;
            }
            1 => {
                ranks[n] = r;
                let mut k = 0;
                for sbit in 0..4 {
                    if free & (1 << sbit) != 0 {
                        options[n][k] = 1 << sbit;
                        k += 1;
                    }
                }
                n_opts[n] = k;
                n += 1;
            }
            _ => {}
        }
    }
    let mut pick = [0usize; 5];
    loop {
        let mut hand = [0u8; 5];
        let mut h = 0;
        let mut suits_seen = 0u8;
        let mut dealer_suit = 0u8;
        for i in 0..n {
            let m = options[i][pick[i]];
            for sbit in 0..4u8 {
                if m & (1 << sbit) != 0 {
                    hand[h] = ranks[i] * 4 + sbit;
                    h += 1;
                    suits_seen |= 1 << sbit;
                    if ranks[i] == principal {
                        dealer_suit = dealer_suit.max(sbit);
                    }
                }
            }
        }
        if (suits_seen.count_ones() == 1) == flush {
            let target = if rule == TieRule::Push || player_suit > dealer_suit { &mut win } else { &mut loss };
            for &c in &hand[..h] {
                target[c as usize] += 1;
            }
        }
        // Next choice.
        let mut i = 0;
        loop {
            if i == n {
                return (win, loss);
            }
            pick[i] += 1;
            if pick[i] < n_opts[i] {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
    }
}

/// The side bet's return at a pool value: Σ P(hand) × award ÷ bet.
pub fn side_bet_rtp(game: &StudPokerGame, dealt: &[(Category, BigRational)], pool: u64) -> Option<BigRational> {
    let j = game.jackpot.as_ref()?;
    let mut r = BigRational::zero();
    for (c, p) in dealt {
        r += p * BigRational::from_integer(BigInt::from(j.award(*c, pool).amount));
    }
    Some(r / BigRational::from_integer(BigInt::from(j.bet_credits)))
}

#[derive(Clone, Debug, Serialize)]
pub struct StudConfigReport {
    pub ante: u64,
    pub rtp_exact: String,
    /// Returned ÷ wagered (ante and raise).
    pub rtp_percent: String,
    /// The expected loss per ante (the house edge).
    pub house_edge_per_ante_percent: String,
    pub raise_probability_percent: String,
    pub standard_deviation_per_ante: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct SideBetReport {
    pub bet_credits: u64,
    pub start_value_credits: u64,
    pub rtp_at_start_percent: String,
    /// The return at a few pool values, as (pool, RTP %).
    pub rtp_by_pool: Vec<(u64, String)>,
    pub royal_one_in: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct StudReport {
    pub game: String,
    pub name: String,
    pub tie_rule: String,
    pub royal_flush_pays: u64,
    pub floor_percent: String,
    pub dealer_qualifies_percent: String,
    pub configs: Vec<StudConfigReport>,
    pub side_bet: Option<SideBetReport>,
    pub seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum StudRefusal {
    #[error("{game} at an ante of {ante} returns {rtp}% of the amount wagered under optimal play, under the floor of {floor}% (M-17)")]
    UnderFloor { game: String, ante: u64, rtp: String, floor: String },
    #[error("{game} at an ante of {ante} returns {rtp}%, over 100% (certification.md B-12)")]
    Over100 { game: String, ante: u64, rtp: String },
    #[error(
        "{game}: the jackpot side bet returns {rtp}% with the pool at its start value, under the floor of {floor}% (decisions.md: each side bet on its own)"
    )]
    SideBetUnderFloor { game: String, rtp: String, floor: String },
}

pub struct StudChecked {
    pub report: StudReport,
    pub analysis: StudAnalysis,
    pub refusals: Vec<StudRefusal>,
}

pub fn check(game: &StudPokerGame, floor: &Floor, _odds_disclosure: Option<&str>, threads: usize) -> StudChecked {
    let analysis = analyse(game, threads);
    let mut refusals = Vec::new();
    let one = BigRational::from_integer(1.into());
    let mut configs = Vec::new();
    for c in &analysis.configs {
        if c.rtp < *floor.value() {
            refusals.push(StudRefusal::UnderFloor { game: game.id.clone(), ante: c.ante, rtp: pct(&c.rtp), floor: pct(floor.value()) });
        }
        if c.rtp > one {
            refusals.push(StudRefusal::Over100 { game: game.id.clone(), ante: c.ante, rtp: pct(&c.rtp) });
        }
        configs.push(StudConfigReport {
            ante: c.ante,
            rtp_exact: format!("{}/{}", c.rtp.numer(), c.rtp.denom()),
            rtp_percent: pct(&c.rtp),
            house_edge_per_ante_percent: pct(&-c.net_per_ante.clone()),
            raise_probability_percent: pct(&c.raise_probability),
            standard_deviation_per_ante: c.standard_deviation_per_ante(),
        });
    }
    let side_bet = game.jackpot.as_ref().map(|j| {
        let at = |pool| side_bet_rtp(game, &analysis.dealt, pool).unwrap_or_else(BigRational::zero);
        let start = at(j.start_value_credits);
        if start < *floor.value() {
            refusals.push(StudRefusal::SideBetUnderFloor { game: game.id.clone(), rtp: pct(&start), floor: pct(floor.value()) });
        }
        let royal = analysis.dealt.iter().find(|d| d.0 == Category::RoyalFlush).map_or(f64::NAN, |d| 1.0 / f(&d.1));
        SideBetReport {
            bet_credits: j.bet_credits,
            start_value_credits: j.start_value_credits,
            rtp_at_start_percent: pct(&start),
            rtp_by_pool: [1u64, 2, 5, 10].iter().map(|&m| (j.start_value_credits * m, pct(&at(j.start_value_credits * m)))).collect(),
            royal_one_in: royal,
        }
    });
    let report = StudReport {
        game: game.id.clone(),
        name: game.name.clone(),
        tie_rule: match game.tie_rule {
            TieRule::SuitOrder => "equal ranks: the suit decides (SP-17)".into(),
            TieRule::Push => "equal ranks: push (PSD 26)".into(),
        },
        royal_flush_pays: game.raise_pays[9],
        floor_percent: pct(floor.value()),
        dealer_qualifies_percent: pct(&analysis.dealer_qualifies),
        configs,
        side_bet,
        seconds: analysis.seconds,
    };
    StudChecked { report, analysis, refusals }
}

impl std::fmt::Display for StudReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} ({}) — optimal raise/fold over 2,598,960 hands × 47 up cards × 163,185 dealer hands; royal {}:1; {}; floor {}%",
            self.name, self.game, self.royal_flush_pays, self.tie_rule, self.floor_percent
        )?;
        writeln!(f, "dealer qualifies (A-K or better) on {}% of hands", self.dealer_qualifies_percent)?;
        writeln!(f, "{:>6} {:>10} {:>16} {:>10} {:>10}", "ante", "RTP %", "edge/ante %", "raise %", "SD/ante")?;
        for c in &self.configs {
            writeln!(
                f,
                "{:>6} {:>10} {:>16} {:>10} {:>10.4}",
                c.ante, c.rtp_percent, c.house_edge_per_ante_percent, c.raise_probability_percent, c.standard_deviation_per_ante
            )?;
        }
        if let Some(s) = &self.side_bet {
            writeln!(
                f,
                "jackpot side bet of {} credit(s): {}% at the start value {} (royal 1 in {:.0})",
                s.bet_credits, s.rtp_at_start_percent, s.start_value_credits, s.royal_one_in
            )?;
            for (pool, r) in &s.rtp_by_pool {
                writeln!(f, "  pool {pool:>10}: {r}%")?;
            }
        }
        writeln!(f, "exact analysis: {:.2} s", self.seconds)
    }
}

/// A simulation measured per unit wagered (stakes vary with the
/// decision): the ratio Σ returned ÷ Σ staked, with its interval by the
/// delta method.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RatioSim {
    pub games: u64,
    pub returned: u128,
    pub staked: u128,
    pub returned_sq: u128,
    pub staked_sq: u128,
    pub cross: u128,
}

impl RatioSim {
    pub fn rtp(&self) -> f64 {
        self.returned as f64 / self.staked as f64
    }

    /// Standard deviation of a round's (returned − RTP × staked), in mean stakes.
    pub fn standard_deviation(&self) -> f64 {
        let n = self.games as f64;
        let r = self.rtp();
        let ss = self.returned_sq as f64 - 2.0 * r * self.cross as f64 + r * r * self.staked_sq as f64;
        let mean_stake = self.staked as f64 / n;
        (ss / (n - 1.0).max(1.0)).max(0.0).sqrt() / mean_stake
    }

    pub fn ci99(&self) -> (f64, f64) {
        let half = 2.575_829_3 * self.standard_deviation() / (self.games as f64).sqrt();
        (self.rtp() - half, self.rtp() + half)
    }

    fn add(&mut self, staked: u64, returned: u64) {
        let (s, r) = (u128::from(staked), u128::from(returned));
        self.games += 1;
        self.returned += r;
        self.staked += s;
        self.returned_sq += r * r;
        self.staked_sq += s * s;
        self.cross += r * s;
    }

    fn merge(&mut self, o: &RatioSim) {
        self.games += o.games;
        self.returned += o.returned;
        self.staked += o.staked;
        self.returned_sq += o.returned_sq;
        self.staked_sq += o.staked_sq;
        self.cross += o.cross;
    }
}

/// Play `games` rounds at `ante` with the optimal decision, on `threads`
/// threads from `seed`, through game-core's deal and settlement.
pub fn simulate(game: &StudPokerGame, analysis: &StudAnalysis, ante: u64, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> RatioSim {
    let parts = across_threads(games, threads, |t, n| {
        let mut rng = StreamRng::from_seed(seed ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut r = RatioSim::default();
        for i in 0..n {
            let deal = game.deal(&mut rng);
            let d = analysis.decide(game, ante, &deal.player, deal.dealer_up_card());
            let st = game.settle(&deal, ante, d);
            r.add(st.staked, st.returned);
            if i % 65_536 == 65_535 {
                progress(65_536);
            }
        }
        r
    });
    let mut total = RatioSim::default();
    for p in &parts {
        total.merge(p);
    }
    total
}
