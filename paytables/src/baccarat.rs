//! Baccarat ponto e banca (`BaccaratPaytable`): the shoe (8 decks, or 6),
//! the banca's deduction (PB 32 a or b), whether the pairs are offered,
//! the table minimum and the chips. The payouts are the text's.
//!
//! The exact figures enumerate the shoe without replacement: every
//! sequence of cards a coup can use, by points (ten classes: the zero
//! class holds the tens and court cards), each weighted by the ways the
//! shoe deals it, and extended to the six cards the core draws (a coup
//! that uses four cards stands for every way the next two could lie).
//! The weights are exact integers over N·(N−1)···(N−5) ordered draws.
//! A pair depends on ranks, not points: its probability is Σ cᵣ(cᵣ−1) over
//! N(N−1), the first two cards of a hand being any two cards of the shoe.
//!
//! ```ron
//! BaccaratPaytable(id: "bacara", name: "Bacará", decks: 8, commission: FivePercent, pairs: true, minimum: 1, chips: [1, 5, 20, 100])
//! ```

use game_core::baccarat::{BaccaratGame, Commission, Spot, tableau};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::locate::Path;
use crate::poker_compile::{check_name, parse};
use crate::table_bet::TableBet;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaccaratPaytable {
    pub id: String,
    pub name: String,
    pub decks: u8,
    pub commission: Commission,
    pub pairs: bool,
    pub minimum: u64,
    pub chips: Vec<u64>,
}

pub fn compile_baccarat(file: &str, src: &str) -> Result<BaccaratGame, PaytableError> {
    let p: BaccaratPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    check_name(&mut e, &p.id, &p.name);
    if p.decks != 6 && p.decks != 8 {
        e.at(Path::default().field("decks"), format!("{} decks: the shoe holds 8 decks, or 6 (PB 3, 15 b)", p.decks));
    }
    if p.minimum == 0 {
        e.at(Path::default().field("minimum"), "the table minimum must be at least 1 credit");
    }
    let chips = crate::dice::chips(&mut e, &p.chips, p.minimum, p.minimum.saturating_mul(Spot::Player.limit_ratio()));
    e.result(|| BaccaratGame { id: p.id.clone(), name: p.name.clone(), decks: p.decks, commission: p.commission, pairs: p.pairs, minimum: p.minimum, chips })
}

/// A shoe by rank (index as `Card::rank`: the deuce 0 … the ace 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shoe {
    pub ranks: [u64; 13],
}

impl Shoe {
    /// `decks` full decks.
    pub fn decks(decks: u8) -> Shoe {
        Shoe { ranks: [4 * u64::from(decks); 13] }
    }

    pub fn size(&self) -> u64 {
        self.ranks.iter().sum()
    }

    /// The cards of each point value 0–9.
    pub fn by_points(&self) -> [u64; 10] {
        let mut v = [0u64; 10];
        for (rank, &n) in self.ranks.iter().enumerate() {
            let card = game_core::cards::Card::new(rank as u8, 0);
            v[usize::from(tableau::points(card))] += n;
        }
        v
    }
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
                    coup_from(&mut c, &mut totals, &extend, w4, ((p1 + p2) % 10) as u8, ((b1 + b2) % 10) as u8);
                    c[b2] += 1;
                }
                c[p2] += 1;
            }
            c[b1] += 1;
        }
        c[p1] += 1;
    }
    Outcomes { draws: falling(n, 6), totals }
}

/// The third cards of a coup whose first four (weight `w`) gave the ponto
/// `p` and the banca `b`, by the tableau.
fn coup_from(c: &mut [u64; 10], totals: &mut [[u128; 10]; 10], extend: &[u128], w: u128, p: u8, b: u8) {
    let mut end = |p: u8, b: u8, w: u128, used: usize| totals[usize::from(p)][usize::from(b)] += w * extend[used];
    if tableau::natural(p) || tableau::natural(b) {
        return end(p, b, w, 4);
    }
    if !tableau::player_draws(p) {
        if !tableau::banker_draws(b, None) {
            return end(p, b, w, 4);
        }
        for b3 in 0..10u8 {
            let w5 = w * u128::from(c[usize::from(b3)]);
            if w5 > 0 {
                end(p, (b + b3) % 10, w5, 5);
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
            end(p_final, b, w5, 5);
            continue;
        }
        c[usize::from(p3)] -= 1;
        for b3 in 0..10u8 {
            let w6 = w5 * u128::from(c[usize::from(b3)]);
            if w6 > 0 {
                end(p_final, (b + b3) % 10, w6, 6);
            }
        }
        c[usize::from(p3)] += 1;
    }
}

/// The probability that a hand's first two cards are a pair (PB 20).
pub fn pair_probability(shoe: &Shoe) -> BigRational {
    let n = shoe.size();
    let same: u64 = shoe.ranks.iter().map(|&c| c * c.saturating_sub(1)).sum();
    BigRational::new(BigInt::from(same), BigInt::from((n * n.saturating_sub(1)).max(1)))
}

fn frac(n: u128, d: u128) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

/// Each bet's exact figures on `shoe` under `commission`; the pairs when
/// offered.
pub fn figures(shoe: &Shoe, commission: Commission, pairs: bool) -> Vec<TableBet> {
    let o = outcomes(shoe);
    let d = o.draws;
    let (pw, bw, tie) = (o.player_wins(), o.banker_wins(), o.ties());
    let banker_back = match commission {
        // 39/20 on every win.
        Commission::FivePercent => frac(39 * bw, 20 * d),
        // 3/2 on a win with 5, 2 on the others.
        Commission::HalfOnFive => frac(3 * o.banker_wins_on(5) + 4 * (bw - o.banker_wins_on(5)), 2 * d),
    };
    let banker_pays = match commission {
        Commission::FivePercent => "0.95:1".to_owned(),
        Commission::HalfOnFive => "1:1 (0.5:1 on 5)".to_owned(),
    };
    let name = |s: Spot| format!("{} / {}", s.name(true), s.name(false));
    let mut bets = vec![
        TableBet { name: name(Spot::Player), pays: "1:1".into(), rtp: frac(2 * pw + tie, d), hit: frac(pw, d) },
        TableBet { name: name(Spot::Banker), pays: banker_pays, rtp: banker_back + frac(tie, d), hit: frac(bw, d) },
        TableBet { name: name(Spot::Tie), pays: "8:1".into(), rtp: frac(9 * tie, d), hit: frac(tie, d) },
    ];
    if pairs {
        let p = pair_probability(shoe);
        for s in [Spot::PlayerPair, Spot::BankerPair] {
            bets.push(TableBet { name: name(s), pays: "11:1".into(), rtp: &p * BigRational::from_integer(12.into()), hit: p.clone() });
        }
    }
    bets
}

/// The figures of a compiled table.
pub fn game_figures(game: &BaccaratGame) -> Vec<TableBet> {
    figures(&Shoe::decks(game.decks), game.commission, game.pairs)
}

/// `paytable simulate`: `games` coups through the production deal and
/// coup (`BaccaratGame::deal`, `Coup::play`) with 20 credits on every spot
/// of the table (20, so that the 5% commission is whole); the exact RTP of
/// that layout beside.
pub fn simulate(game: &BaccaratGame, games: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> (crate::simulate::SimResult, BigRational) {
    let spots = game.spots();
    let r = crate::simulate::rounds(games, seed, threads, 20 * spots.len() as u64, progress, |rng| {
        let coup = game_core::baccarat::Coup::play(&game.deal(rng));
        spots.iter().map(|s| s.returned_cents(20, &coup, game.commission).unwrap_or(0)).sum()
    });
    let bets = game_figures(game);
    let exact =
        bets.iter().map(|b| b.rtp.clone()).fold(BigRational::from_integer(0.into()), |a, b| a + b) / BigRational::from_integer(BigInt::from(bets.len()));
    (r, exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roulette::pct;
    use game_core::baccarat::Coup;
    use game_core::cards::Card;

    fn at(x: &BigRational, digits: usize) -> String {
        crate::floor::decimal(x, digits)
    }

    /// The published 8-deck figures (issue 31): banca (5%) 98.94%, ponto
    /// 98.76%, empate 8:1 85.64%; and the digest's six-decimal outcome
    /// probabilities for 6 and 8 decks (card-games.md §C.1).
    #[test]
    fn the_published_figures() {
        let eight = figures(&Shoe::decks(8), Commission::FivePercent, true);
        let rtp: Vec<String> = eight.iter().map(|b| pct(&b.rtp)).collect();
        assert!(rtp[1].starts_with("98.94"), "banker {}", rtp[1]);
        assert!(rtp[0].starts_with("98.76"), "player {}", rtp[0]);
        assert!(rtp[2].starts_with("85.64"), "tie {}", rtp[2]);
        for (decks, banker, player, tie, banker_on_5, banker_on_6) in
            [(6u8, "0.458653", "0.446279", "0.095069", "0.043384", "0.053844"), (8, "0.458597", "0.446247", "0.095156", "0.043357", "0.053864")]
        {
            let o = outcomes(&Shoe::decks(decks));
            let p = |n: u128| at(&frac(n, o.draws), 6);
            assert_eq!(
                [p(o.banker_wins()), p(o.player_wins()), p(o.ties()), p(o.banker_wins_on(5)), p(o.banker_wins_on(6))],
                [banker, player, tie, banker_on_5, banker_on_6],
                "{decks} decks"
            );
            assert_eq!(o.totals.iter().flatten().sum::<u128>(), o.draws, "every draw ends in one coup");
        }
        // The house edges of §C.1: half on a five 0.932% (6 decks), pairs
        // (4d−1)/(52d−1) × 12.
        let six = figures(&Shoe::decks(6), Commission::HalfOnFive, true);
        assert_eq!(at(&(BigRational::from_integer(1.into()) - &six[1].rtp), 5), "0.00932");
        assert_eq!(six[3].hit, BigRational::new(23.into(), 311.into()));
        assert_eq!(eight[3].rtp, BigRational::new((31 * 12).into(), 415.into()));
    }

    /// The enumeration against a brute force on a small shoe: every
    /// ordered draw of six of its distinct cards played by game-core's
    /// `Coup::play` card by card, each bet's return summed.
    #[test]
    fn the_enumeration_equals_a_brute_force_on_a_small_shoe() {
        // Eleven cards: points and ranks mixed so that every tableau
        // branch and both pairs occur.
        let cards: Vec<Card> = "As 2h 3d 4c 5s 6h 7d 8c 9s Kh Kd".split(' ').map(|c| c.parse().unwrap()).collect();
        let mut shoe = Shoe { ranks: [0; 13] };
        for c in &cards {
            shoe.ranks[usize::from(c.rank())] += 1;
        }
        let n = cards.len();
        let (mut draws, mut back) = (0u128, [[0u128; 5]; 2]);
        let mut idx = [0usize; 6];
        fn next(idx: &mut [usize; 6], n: usize) -> bool {
            for i in (0..6).rev() {
                idx[i] += 1;
                if idx[i] < n {
                    idx[i + 1..].fill(0);
                    return true;
                }
            }
            false
        }
        loop {
            let distinct = (0..6).all(|i| (0..i).all(|j| idx[i] != idx[j]));
            if distinct {
                draws += 1;
                let coup = Coup::play(&std::array::from_fn(|i| cards[idx[i]]));
                for (k, commission) in [Commission::FivePercent, Commission::HalfOnFive].into_iter().enumerate() {
                    for (s, spot) in Spot::ALL.into_iter().enumerate() {
                        back[k][s] += u128::from(spot.returned_cents(20, &coup, commission).unwrap());
                    }
                }
            }
            if !next(&mut idx, n) {
                break;
            }
        }
        assert_eq!(draws, (n as u128 - 5..=n as u128).product::<u128>());
        for (k, commission) in [Commission::FivePercent, Commission::HalfOnFive].into_iter().enumerate() {
            let exact = figures(&shoe, commission, true);
            assert_eq!(exact.len(), 5);
            for (bet, &b) in exact.iter().zip(&back[k]) {
                assert_eq!(bet.rtp, frac(b, 20 * draws), "{} under {commission:?}", bet.name);
            }
        }
    }

    #[test]
    fn a_paytable_off_the_text_is_refused_by_name() {
        let good = r#"BaccaratPaytable(id: "b", name: "B", decks: 8, commission: FivePercent, pairs: true, minimum: 1, chips: [1, 5])"#;
        assert_eq!(compile_baccarat("b.ron", good).unwrap().decks, 8);
        let bad = good.replace("decks: 8", "decks: 7").replace("chips: [1, 5]", "chips: [1, 500]");
        let e = compile_baccarat("b.ron", &bad).unwrap_err().to_string();
        assert!(e.contains("7 decks: the shoe holds 8 decks, or 6") && e.contains("a chip of 500 credits"), "{e}");
        let none = good.replace("FivePercent", "NoCommission");
        assert!(compile_baccarat("b.ron", &none).is_err(), "PB 32: a deduction is mandatory");
    }
}
