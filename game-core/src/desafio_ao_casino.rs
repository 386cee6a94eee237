//! Desafio ao casino (casino war, seed 000 DC-1…14): one card to the
//! player and one to the house from a shoe of N decks (DC-2, a certified
//! parameter), aces high and suits irrelevant (DC-3); the higher card wins
//! the ante 1:1 (DC-9, DC-10). On equal cards the tie bet pays 10:1
//! (DC-11) and the player surrenders half the ante or goes to war (DC-12):
//! the raise equals the ante (DC-13), three cards are burned before each
//! side's war card (DC-14); the player's higher card wins the raise and
//! the ante is returned (a), equal cards win the raise and a bonus equal to
//! the ante (b), a lower card loses both (c). The shoe is shuffled for
//! every round by the machine (DC-5): the ten cards a war can need are
//! drawn and committed at the deal, the war's shown only if it is fought.
//! The readings are recorded in docs/desafio-ao-casino.md.

use meters::GameRng;
use serde::{Deserialize, Serialize};

use crate::cards::Card;

/// The player's decision on equal cards (DC-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieChoice {
    /// (a) give up half the ante.
    Surrender,
    /// (b) raise the ante and go to war.
    War,
}

/// The cards of a round, in the order they leave the shoe: the player's,
/// the house's, three burned, the player's war card, three burned, the
/// house's war card (DC-7, DC-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarDeal {
    pub player: Card,
    pub house: Card,
    pub burned: [Card; 6],
    pub player_war: Card,
    pub house_war: Card,
}

/// The cards a round may need.
pub const CARDS_A_ROUND: usize = 10;

impl WarDeal {
    /// Whether the first two cards are of one rank (DC-3: suits do not
    /// count).
    pub fn tied(&self) -> bool {
        self.player.rank() == self.house.rank()
    }
}

/// What the round returns, in units of the ante and the tie bet, as
/// fractions: (ante's return numerator over 2, the tie bet's return) —
/// half units so that a surrender's half ante is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returns {
    /// Half-antes returned on the ante (and the raise, after a war).
    pub half_antes: u64,
    /// Tie bets returned (11 on a tie, DC-11; else 0).
    pub tie_bets: u64,
    /// Antes staked in all: 1, or 2 after a war.
    pub antes_staked: u64,
}

/// DC-9…14: the round's returns given the deal and, on a tie, the choice.
pub fn settle(deal: &WarDeal, choice: Option<TieChoice>) -> Returns {
    let (p, h) = (deal.player.rank(), deal.house.rank());
    if p != h {
        return Returns { half_antes: if p > h { 4 } else { 0 }, tie_bets: 0, antes_staked: 1 };
    }
    let tie_bets = 11;
    match choice {
        None | Some(TieChoice::Surrender) => Returns { half_antes: 1, tie_bets, antes_staked: 1 },
        Some(TieChoice::War) => {
            let (pw, hw) = (deal.player_war.rank(), deal.house_war.rank());
            let half_antes = match pw.cmp(&hw) {
                // (a) the raise won 1:1, the ante returned: 3 antes back.
                std::cmp::Ordering::Greater => 6,
                // (b) the raise won and a bonus equal to the ante.
                std::cmp::Ordering::Equal => 8,
                // (c) the house wins both.
                std::cmp::Ordering::Less => 0,
            };
            Returns { half_antes, tie_bets, antes_staked: 2 }
        }
    }
}

/// A desafio ao casino table (an approved paytable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesafioAoCasinoGame {
    pub id: String,
    pub name: String,
    /// The decks in the shoe (DC-2).
    pub decks: u8,
    /// The antes offered, in credits.
    pub antes: Vec<u64>,
    /// The tie bet's one stake in credits, where the table offers it.
    pub tie_bet: Option<u64>,
}

impl DesafioAoCasinoGame {
    /// The shoe the round is dealt from (B-18).
    pub fn pack(&self) -> crate::cards::Pack {
        crate::cards::Pack::decks(self.decks)
    }

    /// The ten cards a round may need, from the shoe shuffled for it.
    pub fn deal(&self, rng: &mut impl GameRng) -> WarDeal {
        let pack = self.pack();
        let idx = rng.draw_without_replacement(pack.size(), CARDS_A_ROUND);
        let card = |i: usize| pack.card(idx.get(i).copied().unwrap_or(0));
        WarDeal { player: card(0), house: card(1), burned: [card(2), card(3), card(4), card(6), card(7), card(8)], player_war: card(5), house_war: card(9) }
    }
}

/// The exact figures of a shoe of `decks` decks, as (numerator,
/// denominator) pairs: the chance the first two cards tie, and the
/// chance the war cards tie given a tie (both the same whatever the tied
/// rank: two cards of it are out of the shoe). The burned cards are unseen
/// and do not change the war cards' odds.
pub fn tie_odds(decks: u64) -> ((u64, u64), (u64, u64)) {
    let per_rank = 4 * decks;
    let shoe = 52 * decks;
    let first = (per_rank - 1, shoe - 1);
    // After a tie on rank r: 4N − 2 of r, 4N of the 12 others, 52N − 2 cards.
    let rest = shoe - 2;
    let same = (per_rank - 2) * (per_rank - 3) + 12 * per_rank * (per_rank - 1);
    (first, (same, rest * (rest - 1)))
}

/// What the ante returns over everything staked on it (the raise
/// included), as (returned, staked) in one unit, when every tie is met by
/// going to war (`war`) or by surrendering. With the tie `a/b` and the war
/// cards' tie `c/d` of [`tie_odds`]: war returns 1 + 1 on the half of the
/// untied rounds won, 3 antes on a war won (DC-14 a), 4 on a war tied (b),
/// on 2 antes staked; a surrender returns half.
pub fn ante_return(decks: u64, war: bool) -> (u128, u128) {
    let ((a, b), (c, d)) = tie_odds(decks);
    let (a, b, c, d) = (u128::from(a), u128::from(b), u128::from(c), u128::from(d));
    if war {
        // Over 2bd: untied (b − a)/b returns 1 each half won on average;
        // tied a/b returns 3(d − c)/2d + 4c/d, on 1 + a/b staked.
        (2 * d * (b - a) + a * (3 * d + 5 * c), 2 * d * (b + a))
    } else {
        (2 * b - a, 2 * b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(p: &str, h: &str, pw: &str, hw: &str) -> WarDeal {
        let c = |s: &str| s.parse::<Card>().unwrap();
        WarDeal { player: c(p), house: c(h), burned: [c("2c"); 6], player_war: c(pw), house_war: c(hw) }
    }

    /// DC-9…14 as read in docs/desafio-ao-casino.md.
    #[test]
    fn each_outcome_returns_what_the_text_says() {
        let r = |d: WarDeal, c| settle(&d, c);
        assert_eq!(r(deal("Ah", "Ks", "2c", "2c"), None), Returns { half_antes: 4, tie_bets: 0, antes_staked: 1 }, "DC-9: aces high");
        assert_eq!(r(deal("2h", "3s", "2c", "2c"), None), Returns { half_antes: 0, tie_bets: 0, antes_staked: 1 }, "DC-10");
        assert_eq!(r(deal("9h", "9s", "2c", "2c"), Some(TieChoice::Surrender)).half_antes, 1, "DC-12 a: half the ante back");
        assert_eq!(r(deal("9h", "9s", "2c", "2c"), Some(TieChoice::Surrender)).tie_bets, 11, "DC-11: 10:1");
        assert_eq!(r(deal("9h", "9s", "Kc", "2c"), Some(TieChoice::War)), Returns { half_antes: 6, tie_bets: 11, antes_staked: 2 }, "DC-14 a");
        assert_eq!(r(deal("9h", "9s", "Kc", "Kd"), Some(TieChoice::War)).half_antes, 8, "DC-14 b: suits do not count");
        assert_eq!(r(deal("9h", "9s", "2c", "Kd"), Some(TieChoice::War)).half_antes, 0, "DC-14 c");
    }

    /// The odds against a count of every pair of cards of the shoe (1 and
    /// 6 decks), and the digest's tie-bet figures (11 × P(tie)).
    #[test]
    fn the_tie_odds_are_every_pair_of_the_shoe_counted() {
        for decks in [1u64, 6] {
            let shoe: Vec<u8> = (0..52 * decks).map(|i| (i % 13) as u8).collect();
            let n = shoe.len();
            let ties = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).filter(|&(i, j)| i != j && shoe[i] == shoe[j]).count() as u64;
            let ((a, b), _) = tie_odds(decks);
            assert_eq!(a * (n * (n - 1)) as u64, ties * b, "{decks} decks");
            // Given a tie on the first rank, the war cards from the rest.
            let rest: Vec<u8> = {
                let mut r = shoe.clone();
                for _ in 0..2 {
                    let at = r.iter().position(|&x| x == 0).unwrap();
                    r.remove(at);
                }
                r
            };
            let m = rest.len();
            let war_ties = (0..m).flat_map(|i| (0..m).map(move |j| (i, j))).filter(|&(i, j)| i != j && rest[i] == rest[j]).count() as u64;
            let (_, (c, d)) = tie_odds(decks);
            assert_eq!(c * (m * (m - 1)) as u64, war_ties * d, "{decks} decks, war");
        }
        // 11 × P(tie): 1 deck 64.7 %, 6 decks 81.4 % (the digest's table).
        let pct = |decks: u64| {
            let ((a, b), _) = tie_odds(decks);
            (11 * a * 1000 + b / 2) / b
        };
        assert_eq!([pct(1), pct(2), pct(4), pct(6), pct(8)], [647, 748, 797, 814, 822]);
    }

    #[test]
    fn a_deal_is_ten_cards_of_the_shoe() {
        let g = DesafioAoCasinoGame { id: "w".into(), name: "W".into(), decks: 6, antes: vec![2], tie_bet: Some(1) };
        let mut rng = meters::rng::StreamRng::from_seed(3);
        for _ in 0..100 {
            let d = g.deal(&mut rng);
            assert!([d.player, d.house, d.player_war, d.house_war].iter().chain(d.burned.iter()).all(|c| c.index() < 52));
        }
    }
}
