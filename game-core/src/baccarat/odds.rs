//! The exact odds of a coup: the shoe enumerated without replacement by
//! points, every sequence of cards a coup can use weighted by the ways the
//! shoe deals it and extended to the six cards the core draws (a coup that
//! uses four cards stands for every way the next two could lie). The
//! weights are exact integers over N·(N−1)···(N−5) ordered draws. The
//! paytable compiler turns them into each bet's RTP as a fraction; the
//! cabinet's help shows them.
//!
//! The pair bets (PB 20, and issue 49's either pair and perfect pair) look
//! at the first four cards only (the ponto's 0 and 2, the banca's 1 and
//! 3): their chances are closed forms in the shoe's counts by rank (a
//! pair) and by card (a perfect pair: one rank and one suit).

use super::{Commission, Payouts, Spot, tableau};
use crate::cards::Card;

/// A shoe: the copies of each card (index as [`Card::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoe {
    pub cards: [u64; 52],
}

impl Shoe {
    /// `decks` full decks.
    pub fn decks(decks: u8) -> Shoe {
        Shoe { cards: [u64::from(decks); 52] }
    }

    /// The shoe holding exactly `cards` (a joker is no baccarat card).
    pub fn of(cards: &[Card]) -> Shoe {
        let mut shoe = Shoe { cards: [0; 52] };
        for c in cards.iter().filter(|c| !c.is_joker()) {
            shoe.cards[usize::from(c.index())] += 1;
        }
        shoe
    }

    /// The cards of each rank (the deuce 0 … the ace 12, as `Card::rank`).
    pub fn ranks(&self) -> [u64; 13] {
        std::array::from_fn(|r| self.cards[4 * r..4 * r + 4].iter().sum())
    }

    pub fn size(&self) -> u64 {
        self.cards.iter().sum()
    }

    /// The cards of each point value 0–9.
    pub fn by_points(&self) -> [u64; 10] {
        let mut v = [0u64; 10];
        for (rank, &n) in self.ranks().iter().enumerate() {
            let card = Card::new(rank as u8, 0);
            v[usize::from(tableau::points(card))] += n;
        }
        v
    }
}

/// Over the ordered draws of four cards from groups of `counts` cards
/// (ranks for a pair, cards for a perfect pair): those whose ponto's two
/// (draws 0 and 2) are of one group, and those whose banca's two (1 and 3)
/// are too. Returns (one given hand, both hands).
fn pairs_in_four(counts: &[u64]) -> (u128, u128) {
    let two = |c: u64| u128::from(c) * u128::from(c.saturating_sub(1));
    let pairs: u128 = counts.iter().map(|&c| two(c)).sum();
    // Both hands of one group: c(c−1)(c−2)(c−3); of two groups: the
    // product of each group's two, over ordered pairs of distinct groups.
    let same: u128 = counts.iter().map(|&c| two(c) * two(c.saturating_sub(2))).sum();
    let squares: u128 = counts.iter().map(|&c| two(c) * two(c)).sum();
    let n = counts.iter().sum::<u64>();
    // One hand a pair, the other two cards any of the N−2 left, in order.
    let one = pairs * falling(n.saturating_sub(2), 2);
    (one, same + pairs * pairs - squares)
}

/// Every coup over the ordered six-card draws of a shoe: how many give
/// each pair of final totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcomes {
    /// N·(N−1)···(N−5): every ordered draw of six cards.
    pub draws: u128,
    /// `totals[p][b]`: the draws whose coup ends with the ponto on p and
    /// the banca on b.
    pub totals: [[u128; 10]; 10],
    /// Σ cᵣ(cᵣ−1) over the ranks, and N(N−1): a hand's first two cards
    /// are a pair (PB 20) in that share of the draws.
    pub pair_draws: u128,
    pub two_card_draws: u128,
    /// The draws whose coup banca wins with a three-card 7 (EZ baccarat's
    /// push and its Dragon 7, issue 49).
    pub banker_three_card_sevens: u128,
    /// The draws whose coup ponto wins with a three-card 8 (EZ's Panda 8).
    pub player_three_card_eights: u128,
    /// N·(N−1)·(N−2)·(N−3): every ordered draw of the first four cards, and
    /// those where the ponto's two are a pair (as many for the banca's) and
    /// where both are; the same for perfect pairs (one rank and one suit).
    pub four_card_draws: u128,
    pub pair_in_four: (u128, u128),
    pub perfect_pair_in_four: (u128, u128),
}

impl Outcomes {
    pub fn player_wins(&self) -> u128 {
        (0..10).flat_map(|p| (0..p).map(move |b| (p, b))).map(|(p, b)| self.totals[p][b]).sum()
    }

    /// Banca wins with `b`.
    pub fn banker_wins_on(&self, b: usize) -> u128 {
        (0..b).map(|p| self.totals[p][b]).sum()
    }

    pub fn banker_wins(&self) -> u128 {
        (0..10).map(|b| self.banker_wins_on(b)).sum()
    }

    pub fn ties(&self) -> u128 {
        (0..10).map(|t| self.totals[t][t]).sum()
    }

    /// What `spot` returns per unit staked, stake included, averaged over
    /// every draw: its exact RTP as (numerator, denominator).
    pub fn rtp(&self, spot: Spot, table: Payouts) -> (u128, u128) {
        let (d, tie, bw) = (self.draws, self.ties(), self.banker_wins());
        match (spot, table.commission) {
            (Spot::Player, _) => (2 * self.player_wins() + tie, d),
            // 39/20 on a win, the stake back on a tie.
            (Spot::Banker, Commission::FivePercent) => (39 * bw + 20 * tie, 20 * d),
            // 3/2 on a win with 5 (or with 6, Macau's no-commission), 2 on
            // the other wins.
            (Spot::Banker, Commission::HalfOnFive) => (3 * self.banker_wins_on(5) + 4 * (bw - self.banker_wins_on(5)) + 2 * tie, 2 * d),
            (Spot::Banker, Commission::HalfOnSix) => (3 * self.banker_wins_on(6) + 4 * (bw - self.banker_wins_on(6)) + 2 * tie, 2 * d),
            // EZ: a three-card 7 returns the stake, the other wins 2.
            (Spot::Banker, Commission::EzThreeCardSeven) => (2 * (bw - self.banker_three_card_sevens) + self.banker_three_card_sevens + tie, d),
            (Spot::Tie, _) => ((u128::from(table.tie_pays) + 1) * tie, d),
            (Spot::PlayerPair | Spot::BankerPair, _) => (12 * self.pair_draws, self.two_card_draws.max(1)),
            // Either hand a pair: P(A ∪ B) = P(A) + P(B) − P(A ∩ B), at 5:1.
            (Spot::EitherPair, _) => (6 * self.either_pair(), self.four_card_draws.max(1)),
            // 26 on exactly one perfect pair, 201 on both.
            (Spot::PerfectPair, _) => {
                let (one, both) = self.perfect_pair_in_four;
                (26 * (2 * one - 2 * both) + 201 * both, self.four_card_draws.max(1))
            }
            (Spot::Dragon7, _) => (41 * self.banker_three_card_sevens, d),
            (Spot::Panda8, _) => (26 * self.player_three_card_eights, d),
        }
    }

    /// The four-card draws where either hand's first two are a pair.
    pub fn either_pair(&self) -> u128 {
        let (one, both) = self.pair_in_four;
        2 * one - both
    }

    /// What `spot` wins on, over `draws` draws (the pairs over their own
    /// draws: two cards for one hand's pair, four for the others).
    pub fn hits(&self, spot: Spot) -> (u128, u128) {
        match spot {
            Spot::Player => (self.player_wins(), self.draws),
            Spot::Banker => (self.banker_wins(), self.draws),
            Spot::Tie => (self.ties(), self.draws),
            Spot::PlayerPair | Spot::BankerPair => (self.pair_draws, self.two_card_draws),
            Spot::EitherPair => (self.either_pair(), self.four_card_draws),
            Spot::PerfectPair => {
                let (one, both) = self.perfect_pair_in_four;
                (2 * one - both, self.four_card_draws)
            }
            Spot::Dragon7 => (self.banker_three_card_sevens, self.draws),
            Spot::Panda8 => (self.player_three_card_eights, self.draws),
        }
    }
}

/// N·(N−1)···(N−k+1).
fn falling(n: u64, k: u64) -> u128 {
    (0..k).map(|i| u128::from(n.saturating_sub(i))).product()
}

/// Enumerate every coup of `shoe` by points (see the module's text).
pub fn outcomes(shoe: &Shoe) -> Outcomes {
    let n = shoe.size();
    let mut c = shoe.by_points();
    // The ways to complete a coup that used k cards to six: the
    // remaining N−k cards taken 6−k in order.
    let extend: Vec<u128> = (0..=6).map(|k| falling(n.saturating_sub(k), 6 - k)).collect();
    let mut totals = [[0u128; 10]; 10];
    let mut thirds = Thirds::default();
    for p1 in 0..10 {
        let w1 = u128::from(c[p1]);
        if w1 == 0 {
            continue;
        }
        c[p1] -= 1;
        for b1 in 0..10 {
            let w2 = w1 * u128::from(c[b1]);
            if w2 == 0 {
                continue;
            }
            c[b1] -= 1;
            for p2 in 0..10 {
                let w3 = w2 * u128::from(c[p2]);
                if w3 == 0 {
                    continue;
                }
                c[p2] -= 1;
                for b2 in 0..10 {
                    let w4 = w3 * u128::from(c[b2]);
                    if w4 == 0 {
                        continue;
                    }
                    c[b2] -= 1;
                    coup_from(&mut c, (&mut totals, &mut thirds), &extend, w4, ((p1 + p2) % 10) as u8, ((b1 + b2) % 10) as u8);
                    c[b2] += 1;
                }
                c[p2] += 1;
            }
            c[b1] += 1;
        }
        c[p1] += 1;
    }
    let pair_draws = shoe.ranks().iter().map(|&c| u128::from(c) * u128::from(c.saturating_sub(1))).sum();
    Outcomes {
        draws: falling(n, 6),
        totals,
        pair_draws,
        two_card_draws: falling(n, 2),
        banker_three_card_sevens: thirds.banker_sevens,
        player_three_card_eights: thirds.player_eights,
        four_card_draws: falling(n, 4),
        pair_in_four: pairs_in_four(&shoe.ranks()),
        perfect_pair_in_four: pairs_in_four(&shoe.cards),
    }
}

/// The three-card wins the EZ bets pay on.
#[derive(Default)]
struct Thirds {
    banker_sevens: u128,
    player_eights: u128,
}

/// The third cards of a coup whose first four (weight `w`) gave the ponto
/// `p` and the banca `b`, by the tableau.
fn coup_from(c: &mut [u64; 10], (totals, thirds): (&mut [[u128; 10]; 10], &mut Thirds), extend: &[u128], w: u128, p: u8, b: u8) {
    // A coup a hand ends with a third card counts EZ's three-card wins
    // too: the banca's 7s, the ponto's 8s.
    let mut end = |p: u8, b: u8, w: u128, used: usize, (player_third, banker_third): (bool, bool)| {
        totals[usize::from(p)][usize::from(b)] += w * extend[used];
        if banker_third && b == 7 && p < 7 {
            thirds.banker_sevens += w * extend[used];
        }
        if player_third && p == 8 && b < 8 {
            thirds.player_eights += w * extend[used];
        }
    };
    if tableau::natural(p) || tableau::natural(b) {
        return end(p, b, w, 4, (false, false));
    }
    if !tableau::player_draws(p) {
        if !tableau::banker_draws(b, None) {
            return end(p, b, w, 4, (false, false));
        }
        for b3 in 0..10u8 {
            let w5 = w * u128::from(c[usize::from(b3)]);
            if w5 > 0 {
                end(p, (b + b3) % 10, w5, 5, (false, true));
            }
        }
        return;
    }
    for p3 in 0..10u8 {
        let w5 = w * u128::from(c[usize::from(p3)]);
        if w5 == 0 {
            continue;
        }
        let p_final = (p + p3) % 10;
        if !tableau::banker_draws(b, Some(p3)) {
            end(p_final, b, w5, 5, (true, false));
            continue;
        }
        c[usize::from(p3)] -= 1;
        for b3 in 0..10u8 {
            let w6 = w5 * u128::from(c[usize::from(b3)]);
            if w6 > 0 {
                end(p_final, (b + b3) % 10, w6, 6, (true, true));
            }
        }
        c[usize::from(p3)] += 1;
    }
}
