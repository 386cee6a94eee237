//! The game's return under optimal play, computed by enumeration of the
//! shoe as dealt (no simulation): composition-dependent decisions for
//! every hand the player can hold against every up card.
//!
//! What is exact, and what is not (docs/blackjack.md says the same):
//! - every probability is that of the finite shoe without replacement,
//!   reshuffled before every hand; the dealer's totals are enumerated for
//!   the shoe each hand leaves ([`dealer`]);
//! - each decision of an unsplit hand (hit, stand, double, surrender, and
//!   whether to split) is the best for the exact cards it holds against
//!   the up card;
//! - a split is valued as analysers do: each split hand is played at its
//!   best on the shoe with the split's pair cards out, but not the other
//!   split hands' other cards; the number of hands (resplits) follows the
//!   law of the pair cards drawn as second cards; beyond
//!   [`MAX_LEVEL`] pair cards out, a hand is valued as at that level;
//! - the dealer's blackjack: with a peek, or when it takes the original
//!   bet only, decisions are valued on the event that the dealer has none,
//!   and the loss of the original bet added at the deal, which is exact;
//! - arithmetic is in f64: every figure is a sum of well under 10^8 terms
//!   of probabilities, so rounding stays below 10^-12.

pub mod dealer;
pub mod hands;
pub mod player;

use std::collections::HashMap;

use dealer::{CLASSES, DealerGraph};
use hands::Hands;
use player::{Context, Counts, Solver, hard_aces, pack, total};

use super::hand::value;
use super::round::{Action, Phase, Round};
use super::rules::{DealerBlackjack, HoleCard, Rules};
use crate::cards::Card;

/// Pair cards out of the shoe beyond which a split hand is valued as at
/// this many.
pub const MAX_LEVEL: u8 = 4;
const _: () = assert!(MAX_LEVEL <= 8, "keys hold 31 cards of a class");

/// The figures of a rule set under optimal play.
#[derive(Clone, Debug)]
pub struct Figures {
    /// Return per unit of the original bet, the bonus included.
    pub rtp: f64,
    /// The 6-7-8 / 7-7-7 bonus's share of `rtp`.
    pub bonus: f64,
    /// The insurance bet's return per unit insured, when offered.
    pub insurance: Option<f64>,
    /// The player's expectation given each up card (ace first).
    pub by_up_card: [f64; CLASSES],
    pub strategy: Strategy,
}

/// The optimal decisions, as the analysis found them.
#[derive(Clone, Debug, Default)]
pub struct Strategy {
    /// Two-card decisions: (up class, lower class, higher class, suited).
    pub first: HashMap<(u8, u8, u8, bool), Action>,
    /// A split hand's first decision: (up class, pair class, other class).
    pub after_split: HashMap<(u8, u8, u8), Action>,
    /// Hit (true) or stand for a hand of three cards or more, by up class
    /// and the hand's cards by class ([`player::pack`]).
    pub hits: Vec<player::KeyMap<bool>>,
    /// The total-dependent decision of a hard two-card total (no ace, no
    /// pair), by (up class, total): the decision whose value, summed over
    /// the total's hands weighted by their chances, is the highest. Where
    /// a hand's own best differs (T-2 hits a 4 while 12 stands), that hand
    /// is a composition-dependent exception (issue 49).
    pub hard_totals: HashMap<(u8, u8), Action>,
}

/// A card's class: 0 the ace, 1–8 the values 2–9, 9 the ten-values.
pub fn class(card: Card) -> usize {
    usize::from(value(card)) - 1
}

/// A hand's cards by class.
pub fn counts(cards: &[Card]) -> Counts {
    let mut c = [0u8; CLASSES];
    for &card in cards {
        c[class(card)] += 1;
    }
    c
}

impl Strategy {
    /// The strategy's decision for the round as it stands: always one
    /// the round offers (a simulation plays the analysis's strategy
    /// through the production round with it).
    pub fn decide(&self, round: &Round) -> Action {
        let legal = round.legal();
        let pick = |want: Action| if legal.contains(&want) { Some(want) } else { None };
        let up = round.up_card().map_or(0, class);
        let want = match round.phase {
            Phase::Insurance => {
                let h = &round.hands[0];
                let c = counts(&h.cards);
                let (a, b) = two(&c);
                if self.first.get(&(up as u8, a, b, false)) == Some(&Action::EvenMoney) { Action::EvenMoney } else { Action::NoInsurance }
            }
            _ => match round.hands.get(round.active) {
                Some(h) => {
                    let c = counts(&h.cards);
                    let (a, b) = two(&c);
                    if h.cards.len() == 2 && !h.split {
                        let suited = h.cards[0].suit() == h.cards[1].suit();
                        self.first.get(&(up as u8, a, b, suited)).copied().unwrap_or(Action::Stand)
                    } else if h.cards.len() == 2 && a == b && legal.contains(&Action::Split) && self.first.get(&(up as u8, a, b, false)) == Some(&Action::Split)
                    {
                        Action::Split
                    } else if h.cards.len() == 2 {
                        let pair = class(h.cards[0]) as u8;
                        let other = class(h.cards[1]) as u8;
                        self.after_split.get(&(up as u8, pair, other)).copied().unwrap_or(Action::Stand)
                    } else if self.hits(up, &c) {
                        Action::Hit
                    } else {
                        Action::Stand
                    }
                }
                None => Action::Stand,
            },
        };
        pick(want).or_else(|| pick(Action::Stand)).or_else(|| pick(Action::Hit)).or_else(|| legal.first().copied()).unwrap_or(Action::Stand)
    }

    /// Whether a hand of several cards (by class) hits against `up`.
    pub fn hits(&self, up: usize, hand: &Counts) -> bool {
        match self.hits.get(up).and_then(|m| m.get(&pack(hand))) {
            Some(&h) => h,
            None => {
                let (hard, aces) = hard_aces(hand);
                total(hard, aces) < 17
            }
        }
    }
}

/// A two-card hand's classes, lower first.
fn two(c: &Counts) -> (u8, u8) {
    let mut it = (0..CLASSES).flat_map(|k| std::iter::repeat_n(k as u8, usize::from(c[k])));
    let a = it.next().unwrap_or(0);
    (a, it.next().unwrap_or(a))
}

/// A decision of a hard total: its value summed over the total's hands
/// weighted by their chances, and how many of them could take it.
type Weighed = (Action, f64, u32);

/// One up card's share of the figures.
struct UpCard {
    ev: f64,
    bonus: f64,
    insurance: f64,
    first: HashMap<(u8, u8, u8, bool), Action>,
    after_split: HashMap<(u8, u8, u8), Action>,
    hits: player::KeyMap<bool>,
    hard_totals: HashMap<(u8, u8), Action>,
}

/// The classes of the bonus's cards: 6, 7, 8.
const SIX: usize = 5;
const SEVEN: usize = 6;
const EIGHT: usize = 7;

/// The up cards, the costliest first: the dealer's graph is largest
/// under a 2 and smallest under a ten (344 states to 24 standing on soft
/// 17), and each shoe the player's hands leave is walked through it.
const BY_COST: [usize; CLASSES] = [1, 2, 0, 3, 4, 5, 6, 7, 8, 9];

/// The figures of `rules` under optimal play, the up cards shared out
/// between two threads, each taking the costliest left (issue 73: a fixed
/// split left one thread with 57 % of the work).
pub fn analyse(rules: &Rules) -> Figures {
    let hands = Hands::new();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let ups: Vec<UpCard> = std::thread::scope(|s| {
        let work = || {
            let mut done = Vec::new();
            let mut tables = player::Tables::default();
            while let Some(&up) = BY_COST.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                let (figures, kept) = up_card(rules, up, &hands, tables);
                tables = kept;
                done.push((up, figures));
            }
            done
        };
        let workers: Vec<_> = (0..2).map(|_| s.spawn(work)).collect();
        let mut all: Vec<(usize, UpCard)> = workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect();
        all.sort_by_key(|(u, _)| *u);
        all.into_iter().map(|(_, u)| u).collect()
    });
    let d = f64::from(rules.decks);
    let n = 52.0 * d;
    let p_up = |up: usize| if up == 9 { 16.0 * d / n } else { 4.0 * d / n };
    let mut figures = Figures { rtp: 1.0, bonus: 0.0, insurance: None, by_up_card: [0.0; CLASSES], strategy: Strategy::default() };
    for (up, u) in ups.into_iter().enumerate() {
        figures.rtp += p_up(up) * u.ev;
        figures.bonus += p_up(up) * u.bonus;
        figures.by_up_card[up] = u.ev;
        if up == 0 && rules.insurance {
            figures.insurance = Some(u.insurance);
        }
        figures.strategy.first.extend(u.first);
        figures.strategy.after_split.extend(u.after_split);
        figures.strategy.hits.push(u.hits);
        figures.strategy.hard_totals.extend(u.hard_totals);
    }
    figures
}

/// One up card's figures, and the solver's tables for the next.
fn up_card(rules: &Rules, up: usize, hands: &Hands, tables: player::Tables) -> (UpCard, player::Tables) {
    let dealer = DealerGraph::new(up, rules.dealer_hits_soft_17);
    let mut s = Solver::new(rules, up, &dealer, hands, tables);
    let mut out = UpCard {
        ev: 0.0,
        bonus: 0.0,
        insurance: 0.0,
        first: HashMap::new(),
        after_split: HashMap::new(),
        hits: player::KeyMap::default(),
        hard_totals: HashMap::new(),
    };
    // Each hard total's decisions: Σ chance × value, and the hands (of
    // the total) that could take it.
    let mut by_total: HashMap<u8, (u32, Vec<Weighed>)> = HashMap::new();
    let mut tally = |a: usize, b: usize, weight: f64, options: &[(Action, f64)]| {
        if a == 0 || a == b {
            return;
        }
        let entry = by_total.entry((a + b + 2) as u8).or_default();
        entry.0 += 1;
        for &(action, v) in options {
            match entry.1.iter_mut().find(|(x, ..)| *x == action) {
                Some(slot) => {
                    slot.1 += weight * v;
                    slot.2 += 1;
                }
                None => entry.1.push((action, weight * v, 1)),
            }
        }
    };
    let n = f64::from(s.full_total);
    for a in 0..CLASSES {
        for b in a..CLASSES {
            let pa = f64::from(s.full[a]) / n;
            let pb = f64::from(s.full[b].saturating_sub(u16::from(a == b))) / (n - 1.0);
            let prob = if a == b { pa * pb } else { 2.0 * pa * pb };
            if prob == 0.0 {
                continue;
            }
            let mut hand: Counts = [0; CLASSES];
            hand[a] += 1;
            hand[b] += 1;
            let id = s.two(a, b);
            out.insurance += prob * 3.0 * s.probs(&hand)[9];
            let bonus_hand = rules.bonus_678_777 > 0 && matches!((a, b), (SIX, SEVEN) | (SIX, EIGHT) | (SEVEN, EIGHT));
            if bonus_hand {
                // Suited one time in four, whatever the up card (the suits
                // of different ranks are independent).
                for (suited, weight) in [(true, 0.25), (false, 0.75)] {
                    let mut options = Vec::new();
                    let (v, bonus, action) = first_decision(&mut s, &hand, id, suited, &mut options);
                    out.ev += prob * weight * v;
                    out.bonus += prob * weight * bonus;
                    out.first.insert((up as u8, a as u8, b as u8, suited), action);
                    tally(a, b, prob * weight, &options);
                }
            } else {
                let mut options = Vec::new();
                let (v, bonus, action) = first_decision(&mut s, &hand, id, false, &mut options);
                out.ev += prob * v;
                out.bonus += prob * bonus;
                out.first.insert((up as u8, a as u8, b as u8, false), action);
                out.first.insert((up as u8, a as u8, b as u8, true), action);
                tally(a, b, prob, &options);
            }
        }
    }
    // A split hand's first decision, one pair card out (the first split).
    for pair in 0..CLASSES {
        for other in 0..CLASSES {
            let mut hand: Counts = [0; CLASSES];
            hand[pair] += 1;
            hand[other] += 1;
            let ctx = Context { pair: pair as u8, k: 1 };
            let id = s.two(pair, other);
            let hs = s.hit_stand(id, ctx);
            let (hard, aces) = hard_aces(&hand);
            let t = total(hard, aces);
            let stand = (t >= rules.stand_from || t == 21).then(|| s.stand_at(id, ctx, t));
            let mut action = if stand.is_some_and(|v| v >= hs) { Action::Stand } else { Action::Hit };
            if let Some(locked) = s.may_double(&hand, true)
                && s.double(id, ctx, locked) > hs
            {
                action = Action::Double;
            }
            out.after_split.insert((up as u8, pair as u8, other as u8), action);
        }
    }
    out.hits = std::mem::take(&mut s.hits);
    let tables = s.into_tables();
    // The decision every hand of the total could take (a suited and an
    // unsuited 6-7 count as two), of the highest weighted value.
    for (t, (hands, options)) in by_total {
        let best = options.into_iter().filter(|o| o.2 == hands).max_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((action, ..)) = best {
            out.hard_totals.insert((up as u8, t), action);
        }
    }
    (out, tables)
}

/// The best first decision of a two-card hand: its value per unit of the
/// original bet, the bonus's part of it, and the decision; every decision
/// offered, with its value, in `options`.
fn first_decision(s: &mut Solver<'_>, hand: &Counts, id: u32, suited: bool, options: &mut Vec<(Action, f64)>) -> (f64, f64, Action) {
    let rules = *s.rules;
    let up = s.up;
    let p_bj = s.p_blackjack(hand);
    let (hard, aces) = hard_aces(hand);
    let t = total(hard, aces);
    if t == 21 {
        // A blackjack: paid unless the dealer has one too (a push); even
        // money against an ace where the table offers it and it pays more
        // (insurance is a bet of its own, valued apart).
        let pays = rules.blackjack_pays.win as f64 / rules.blackjack_pays.per as f64;
        let v = pays * (1.0 - p_bj);
        return if up == 0 && rules.insurance && rules.even_money && v < 1.0 { (1.0, 0.0, Action::EvenMoney) } else { (v, 0.0, Action::Stand) };
    }
    let bj_in_recursion = rules.hole_card == HoleCard::NoPeek(DealerBlackjack::TakesAll);
    // The original bet a dealer blackjack takes, outside the recursion.
    let top = if bj_in_recursion { 0.0 } else { -p_bj };
    let bonus = bonus_term(s, hand, suited);
    let mut best = (f64::NEG_INFINITY, 0.0, Action::Hit);
    let mut offer = |best: &mut (f64, f64, Action), v: f64, b: f64, a: Action| {
        options.push((a, v));
        if v > best.0 {
            *best = (v, b, a);
        }
    };
    if t >= rules.stand_from {
        offer(&mut best, s.stand_at(id, Context::MAIN, t) + top, 0.0, Action::Stand);
    }
    offer(&mut best, s.hit(id, Context::MAIN) + top + bonus, bonus, Action::Hit);
    if let Some(locked) = s.may_double(hand, false) {
        offer(&mut best, s.double(id, Context::MAIN, locked) + top + bonus, bonus, Action::Double);
    }
    let pair = (0..CLASSES).find(|&c| hand[c] == 2);
    if let Some(p) = pair {
        let hands = if p == 0 && !rules.resplit_aces { 2 } else { rules.split_hands.map_or(usize::MAX, usize::from) };
        let v = s.split(p, hands) + top;
        if p == 9 && !rules.split_unequal_tens {
            // Only ten-value cards of one rank split: weigh the split's
            // gain by the chance of one rank.
            let same = same_rank_tens(&rules, up);
            let without = best.0;
            if v > without {
                best = (same * v + (1.0 - same) * without, best.1, Action::Split);
            }
        } else {
            offer(&mut best, v, 0.0, Action::Split);
        }
    }
    if let Some(sur) = rules.surrender
        && (up != 0 || sur.against_ace)
    {
        let v = if sur.early { -0.5 } else { -0.5 * (1.0 - p_bj) - p_bj };
        offer(&mut best, v, 0.0, Action::Surrender);
    }
    best
}

/// The chance that two ten-value cards are of one rank (T, J, Q or K).
fn same_rank_tens(rules: &Rules, up: usize) -> f64 {
    let r = 4.0 * f64::from(rules.decks);
    if up == 9 {
        ((r - 1.0) * (r - 2.0) + 3.0 * r * (r - 1.0)) / ((4.0 * r - 1.0) * (4.0 * r - 2.0))
    } else {
        4.0 * r * (r - 1.0) / (4.0 * r * (4.0 * r - 1.0))
    }
}

/// The bonus a hit (or double) of a two-card hand earns on its third card
/// (BJ 48), per unit of the original bet.
fn bonus_term(s: &Solver<'_>, hand: &Counts, suited: bool) -> f64 {
    let rules = s.rules;
    if rules.bonus_678_777 == 0 {
        return 0.0;
    }
    let (completer, count) = if hand[SEVEN] == 2 {
        (SEVEN, f64::from(s.full[SEVEN].saturating_sub(2)))
    } else if suited && hand[SIX] + hand[SEVEN] + hand[EIGHT] == 2 && hand.iter().sum::<u8>() == 2 {
        let c = [SIX, SEVEN, EIGHT].into_iter().find(|&c| hand[c] == 0).unwrap_or(SIX);
        // The card of the hand's suit: one per deck, less a quarter when
        // the up card is of its rank (its suit is the hand's one time in four).
        (c, f64::from(rules.decks) - if s.up == c { 0.25 } else { 0.0 })
    } else {
        return 0.0;
    };
    let n = f64::from(s.full_total) - 2.0;
    let mut after = *hand;
    after[completer] += 1;
    let paid_on_blackjack = !rules.peeks();
    let weight = if paid_on_blackjack { 1.0 } else { 1.0 - s.p_blackjack(&after) };
    rules.bonus_678_777 as f64 * count / n * weight
}

#[cfg(test)]
mod tests;
