//! Baccarat ponto e banca (punto banco; card-games.md §3, A.3): eight
//! decks (six allowed), reshuffled before every coup (the automatic
//! shuffler of PB 15, so no cut, burn or warning card); two cards to each
//! hand, ponto first (PB 23), at most one more each by Macau's tableau
//! ([`tableau`], [002 Art. 9]); the higher total wins (PB 29).
//!
//! A coup uses at most six cards: the core draws six distinct cards of the
//! shoe when betting closes, all committed before the first is turned; the
//! coup takes them in order (P, B, P, B, then the player's third, then the
//! banker's).
//!
//! Payouts (BAC-T6): ponto 1:1; banca 1:1 less the one configured
//! deduction, 5% of the winnings (PB 32 a) or half the winnings on a win
//! with 5 (PB 32 b); both returned on a tie (seed 003 §18); empate 8:1;
//! each pair 11:1 (PB 31). The side bets casinos ship (issue 49), each
//! offered where the paytable lists it: either pair 5:1, perfect pair
//! (a hand's first two cards of one rank and one suit) 25:1 on one hand
//! and 200:1 on both, EZ baccarat's Dragon 7 (banca wins with a three-card
//! 7) 40:1 and Panda 8 (ponto wins with a three-card 8) 25:1.

pub mod odds;
pub mod tableau;

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use meters::GameRng;

/// The cards a coup can use.
pub const CARDS_A_COUP: usize = 6;

/// The deduction on a winning banca bet, one of PB 32's two, never none
/// (BAC-T6: with neither, the banca bet gives the player an edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Commission {
    /// a) 5% of the winnings on every banca win: it pays 0.95:1.
    FivePercent,
    /// b) half the winnings when banca wins with a total of 5 (0.5:1);
    /// every other banca win pays 1:1.
    HalfOnFive,
    /// Macau's no-commission table (issue 49): half the winnings when
    /// banca wins with a total of 6 (1:2); every other banca win 1:1.
    HalfOnSix,
    /// EZ baccarat (issue 49): a banca win with a three-card 7 pushes (the
    /// stake back); every other banca win pays 1:1.
    EzThreeCardSeven,
}

/// What a table pays where its paytable chooses (issue 49): the banca's
/// deduction and the tie's odds (8:1, or 9:1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payouts {
    pub commission: Commission,
    pub tie_pays: u8,
}

impl Payouts {
    /// The text's table: the given commission, a tie paying 8:1.
    pub const fn with(commission: Commission) -> Payouts {
        Payouts { commission, tie_pays: 8 }
    }
}

fn eight() -> u8 {
    8
}

fn is_eight(n: &u8) -> bool {
    *n == 8
}

/// The bets ("chances") of the table (PB 7, 19), and the side bets of
/// issue 49.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    Player,
    Banker,
    Tie,
    PlayerPair,
    BankerPair,
    /// Either hand's first two cards a pair: 5:1.
    EitherPair,
    /// Either hand's first two cards one rank and one suit: 25:1; both
    /// hands: 200:1.
    PerfectPair,
    /// EZ's Dragon 7: banca wins with a three-card 7, 40:1.
    Dragon7,
    /// EZ's Panda 8: ponto wins with a three-card 8, 25:1.
    Panda8,
}

impl Spot {
    pub const ALL: [Spot; 9] =
        [Spot::Player, Spot::Banker, Spot::Tie, Spot::PlayerPair, Spot::BankerPair, Spot::EitherPair, Spot::PerfectPair, Spot::Dragon7, Spot::Panda8];

    /// The side bets a paytable may add (issue 49), beyond the pairs.
    pub const SIDE_BETS: [Spot; 4] = [Spot::EitherPair, Spot::PerfectPair, Spot::Dragon7, Spot::Panda8];

    pub fn name(self, portuguese: bool) -> &'static str {
        match (self, portuguese) {
            (Spot::Player, true) => "ponto",
            (Spot::Player, false) => "player",
            (Spot::Banker, true) => "banca",
            (Spot::Banker, false) => "banker",
            (Spot::Tie, true) => "empate",
            (Spot::Tie, false) => "tie",
            (Spot::PlayerPair, true) => "par do ponto",
            (Spot::PlayerPair, false) => "player pair",
            (Spot::BankerPair, true) => "par da banca",
            (Spot::BankerPair, false) => "banker pair",
            (Spot::EitherPair, true) => "qualquer par",
            (Spot::EitherPair, false) => "either pair",
            (Spot::PerfectPair, true) => "par perfeito",
            (Spot::PerfectPair, false) => "perfect pair",
            (Spot::Dragon7, true) => "dragão 7",
            (Spot::Dragon7, false) => "dragon 7",
            (Spot::Panda8, _) => "panda 8",
        }
    }

    /// The most a spot takes, as a multiple of the table minimum (PB 8):
    /// 70 on ponto and banca, 15 on empate, 8 on each pair; the side
    /// bets as the pairs.
    pub fn limit_ratio(self) -> u64 {
        match self {
            Spot::Player | Spot::Banker => 70,
            Spot::Tie => 15,
            Spot::PlayerPair | Spot::BankerPair | Spot::EitherPair | Spot::PerfectPair | Spot::Dragon7 | Spot::Panda8 => 8,
        }
    }

    /// What the spot returns per unit staked, stake included, on `coup`:
    /// a fraction (numerator, denominator).
    pub fn returns(self, coup: &Coup, table: Payouts) -> (u64, u64) {
        let (p, b) = (coup.player_total(), coup.banker_total());
        match self {
            Spot::Player if p > b => (2, 1),
            Spot::Banker if b > p => match table.commission {
                Commission::FivePercent => (39, 20),
                Commission::HalfOnFive if b == 5 => (3, 2),
                Commission::HalfOnSix if b == 6 => (3, 2),
                Commission::EzThreeCardSeven if b == 7 && coup.banker.len() == 3 => (1, 1),
                Commission::HalfOnFive | Commission::HalfOnSix | Commission::EzThreeCardSeven => (2, 1),
            },
            // A tie returns the ponto and banca bets (seed 003 §18).
            Spot::Player | Spot::Banker if p == b => (1, 1),
            Spot::Tie if p == b => (u64::from(table.tie_pays) + 1, 1),
            Spot::PlayerPair if coup.player_pair() => (12, 1),
            Spot::BankerPair if coup.banker_pair() => (12, 1),
            Spot::EitherPair if coup.player_pair() || coup.banker_pair() => (6, 1),
            Spot::PerfectPair => match (coup.player_perfect_pair(), coup.banker_perfect_pair()) {
                (true, true) => (201, 1),
                (true, false) | (false, true) => (26, 1),
                (false, false) => (0, 1),
            },
            Spot::Dragon7 if b == 7 && p < 7 && coup.banker.len() == 3 => (41, 1),
            Spot::Panda8 if p == 8 && b < 8 && coup.player.len() == 3 => (26, 1),
            _ => (0, 1),
        }
    }

    /// The step, in cents, of a stake on this spot whose every return is a
    /// whole number of cents: 20 on banca with the 5% commission (5% of 20
    /// cents is one cent), 2 with half on a five, 1 elsewhere. A stake off
    /// the step is refused, never rounded: no fraction of a cent is lost or
    /// created (decisions.md, Money).
    pub fn cent_step(self, commission: Commission) -> u64 {
        match (self, commission) {
            (Spot::Banker, Commission::FivePercent) => 20,
            (Spot::Banker, Commission::HalfOnFive | Commission::HalfOnSix) => 2,
            _ => 1,
        }
    }

    /// The cents returned on `stake` cents, stake included; None when the
    /// return is not a whole number of cents (a stake off [`Spot::cent_step`]).
    pub fn returned_cents(self, stake: u64, coup: &Coup, table: Payouts) -> Option<u64> {
        let (num, den) = self.returns(coup, table);
        let scaled = u128::from(stake).checked_mul(u128::from(num))?;
        if !scaled.is_multiple_of(u128::from(den)) {
            return None;
        }
        u64::try_from(scaled / u128::from(den)).ok()
    }
}

/// Who won the coup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Winner {
    Player,
    Banker,
    Tie,
}

/// A coup as played from the six committed cards: each hand's cards in
/// the order they were dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coup {
    pub player: Vec<Card>,
    pub banker: Vec<Card>,
}

impl Coup {
    /// Play the coup from the shoe's next six cards (PB 23, 25): P, B, P,
    /// B; then, unless either hand has a natural, the player's third card
    /// by the tableau, then the banker's by its total and the player's third.
    pub fn play(cards: &[Card; CARDS_A_COUP]) -> Coup {
        let mut player = vec![cards[0], cards[2]];
        let mut banker = vec![cards[1], cards[3]];
        let mut next = 4;
        let (p, b) = (tableau::total(&player), tableau::total(&banker));
        if !tableau::natural(p) && !tableau::natural(b) {
            let mut third = None;
            if tableau::player_draws(p) {
                player.push(cards[next]);
                third = Some(tableau::points(cards[next]));
                next += 1;
            }
            if tableau::banker_draws(b, third) {
                banker.push(cards[next]);
            }
        }
        Coup { player, banker }
    }

    pub fn player_total(&self) -> u8 {
        tableau::total(&self.player)
    }

    pub fn banker_total(&self) -> u8 {
        tableau::total(&self.banker)
    }

    /// The higher total wins (PB 29).
    pub fn winner(&self) -> Winner {
        match self.player_total().cmp(&self.banker_total()) {
            std::cmp::Ordering::Greater => Winner::Player,
            std::cmp::Ordering::Less => Winner::Banker,
            std::cmp::Ordering::Equal => Winner::Tie,
        }
    }

    /// A pair: the hand's first two cards of one rank, whatever their
    /// suits (PB 20): K-K is a pair, K-Q is not.
    pub fn player_pair(&self) -> bool {
        self.player[0].rank() == self.player[1].rank()
    }

    pub fn banker_pair(&self) -> bool {
        self.banker[0].rank() == self.banker[1].rank()
    }

    /// A perfect pair (issue 49): the hand's first two cards one rank and
    /// one suit, two copies of one card of the shoe's decks.
    pub fn player_perfect_pair(&self) -> bool {
        self.player[0] == self.player[1]
    }

    pub fn banker_perfect_pair(&self) -> bool {
        self.banker[0] == self.banker[1]
    }

    /// The cards in the order the screen turns them: the ponto's two, the
    /// banca's two (the ponto's are always turned first, PB 23), then the
    /// ponto's third and the banca's third where drawn.
    pub fn turned(&self) -> Vec<(Winner, Card)> {
        let p = |c: &Card| (Winner::Player, *c);
        let b = |c: &Card| (Winner::Banker, *c);
        let mut out: Vec<(Winner, Card)> = self.player[..2].iter().map(p).chain(self.banker[..2].iter().map(b)).collect();
        out.extend(self.player.get(2).map(p));
        out.extend(self.banker.get(2).map(b));
        out
    }
}

/// A table of baccarat as its paytable sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaccaratGame {
    pub id: String,
    pub name: String,
    /// 8, or 6 (PB 3, 15 b).
    pub decks: u8,
    pub commission: Commission,
    /// What a tie pays: 8 (the text, BAC-T6) or 9 (issue 49).
    #[serde(default = "eight", skip_serializing_if = "is_eight")]
    pub tie_pays: u8,
    /// Whether the pair bets are offered (an operator option, PB 19).
    pub pairs: bool,
    /// The side bets offered beyond the pairs (issue 49), each once, in
    /// [`Spot::SIDE_BETS`]'s order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<Spot>,
    /// The table minimum per spot, in credits (PB 8's maxima are multiples of it).
    pub minimum: u64,
    /// The chip values the player places, in credits.
    pub chips: Vec<u64>,
}

impl BaccaratGame {
    /// The cards in the shoe.
    pub fn shoe_size(&self) -> usize {
        self.pack().size()
    }

    /// The shoe the coup is dealt from (B-18).
    pub fn pack(&self) -> crate::cards::Pack {
        crate::cards::Pack::decks(self.decks)
    }

    /// What this table pays where its paytable chooses.
    pub fn payouts(&self) -> Payouts {
        Payouts { commission: self.commission, tie_pays: self.tie_pays }
    }

    /// The spots this table offers.
    pub fn spots(&self) -> Vec<Spot> {
        Spot::ALL
            .into_iter()
            .filter(|s| match s {
                Spot::Player | Spot::Banker | Spot::Tie => true,
                Spot::PlayerPair | Spot::BankerPair => self.pairs,
                side => self.side_bets.contains(side),
            })
            .collect()
    }

    /// The most `spot` takes, in credits (PB 8).
    pub fn maximum(&self, spot: Spot) -> u64 {
        self.minimum.saturating_mul(spot.limit_ratio())
    }

    /// The coup's six cards: a fresh shuffle of the whole shoe, of which a
    /// coup can use the first six, drawn as six distinct cards of it.
    pub fn deal(&self, rng: &mut impl GameRng) -> [Card; CARDS_A_COUP] {
        let pack = self.pack();
        let idx = rng.draw_without_replacement(pack.size(), CARDS_A_COUP);
        std::array::from_fn(|i| pack.card(idx[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> [Card; 6] {
        let v: Vec<Card> = s.split(' ').map(|c| c.parse().unwrap()).collect();
        v.try_into().unwrap()
    }

    /// The deal order and the tableau on whole coups: a natural stops
    /// both hands; the player's third card then the banker's.
    #[test]
    fn coups_take_their_cards_in_order() {
        // P 9+K = 9 natural: nobody draws.
        let c = Coup::play(&cards("9s 2h Kd 3c 4s 5d"));
        assert_eq!((c.player.len(), c.banker.len(), c.player_total(), c.banker_total()), (2, 2, 9, 5));
        assert_eq!(c.winner(), Winner::Player);
        // P 2+3 = 5 draws the 5th card (a 4: 9); B 6+K = 6 stands on a 4.
        let c = Coup::play(&cards("2s 6h 3d Kc 4s 5d"));
        assert_eq!(c.player, vec!["2s".parse().unwrap(), "3d".parse().unwrap(), "4s".parse().unwrap()]);
        assert_eq!((c.banker.len(), c.player_total(), c.banker_total()), (2, 9, 6));
        // P 7 stands; B 3+2 = 5 draws the 5th card (an ace: 6).
        let c = Coup::play(&cards("7s 3h Kd 2c As 5d"));
        assert_eq!((c.player.len(), c.banker.len(), c.player_total(), c.banker_total()), (2, 3, 7, 6));
        assert_eq!(c.banker[2], "As".parse().unwrap());
        // P 3 draws a 6 (the 5th card); B on 6 draws the 6th.
        let c = Coup::play(&cards("As Th 2d 6c 6s 9d"));
        assert_eq!((c.player_total(), c.banker_total(), c.banker.len()), (9, 5, 3));
        // Pairs by rank, not by points: K-K a pair, K-Q none.
        let c = Coup::play(&cards("Ks Qh Kd Kc 4s 5d"));
        assert!(c.player_pair() && !c.banker_pair());
        assert_eq!(c.turned().iter().map(|(w, _)| *w).collect::<Vec<_>>()[..4], [Winner::Player, Winner::Player, Winner::Banker, Winner::Banker]);
    }

    /// Every payout of BAC-T6, and the cent steps that keep the 5%
    /// commission whole: 20 cents on banca pays 39.
    #[test]
    fn payouts_and_the_commission_in_whole_cents() {
        let banker_five = Coup::play(&cards("Ks 4h Qd 5c Js 4d"));
        assert_eq!((banker_five.player_total(), banker_five.banker_total()), (0, 9));
        let tie = Coup::play(&cards("9s 9h Kd Kc 4s 5d"));
        assert_eq!(tie.winner(), Winner::Tie);
        let c5 = Payouts::with(Commission::FivePercent);
        assert_eq!(Spot::Banker.returns(&banker_five, c5), (39, 20));
        assert_eq!(Spot::Banker.returned_cents(20, &banker_five, c5), Some(39));
        assert_eq!(Spot::Banker.returned_cents(30, &banker_five, c5), None, "5% of 10 cents is half a cent");
        assert_eq!(Spot::Player.returns(&banker_five, c5), (0, 1));
        assert_eq!(Spot::Player.returns(&tie, c5), (1, 1));
        assert_eq!(Spot::Banker.returns(&tie, c5), (1, 1));
        assert_eq!(Spot::Tie.returns(&tie, c5), (9, 1));
        assert_eq!(Spot::Tie.returns(&banker_five, c5), (0, 1));
        // Banca wins with 5 under PB 32 b): half the winnings.
        let five = Coup::play(&cards("Ks 2h Qd 3c 4s Jd"));
        assert_eq!((five.player_total(), five.banker_total(), five.winner()), (4, 5, Winner::Banker));
        let half5 = Payouts::with(Commission::HalfOnFive);
        assert_eq!(Spot::Banker.returns(&five, half5), (3, 2));
        assert_eq!(Spot::Banker.returned_cents(3, &five, half5), None);
        assert_eq!(Spot::Banker.returns(&banker_five, half5), (2, 1));
        // Issue 49: Macau's no-commission (half on a six), EZ (a
        // three-card 7 pushes), a tie at 9:1.
        let six = Coup::play(&cards("Ks 2h Qd 4c 4s Jd"));
        assert_eq!((six.player_total(), six.banker_total(), six.winner()), (4, 6, Winner::Banker));
        let half6 = Payouts::with(Commission::HalfOnSix);
        assert_eq!((Spot::Banker.returns(&six, half6), Spot::Banker.returns(&five, half6)), ((3, 2), (2, 1)));
        let seven3 = Coup::play(&cards("Ks 3h Qd Kc 4s 4d"));
        assert_eq!((seven3.player_total(), seven3.banker_total(), seven3.banker.len()), (4, 7, 3));
        let seven2 = Coup::play(&cards("Ks 3h Qd 4c 5s Jd"));
        assert_eq!((seven2.player_total(), seven2.banker_total(), seven2.banker.len()), (5, 7, 2));
        let ez = Payouts::with(Commission::EzThreeCardSeven);
        assert_eq!((Spot::Banker.returns(&seven3, ez), Spot::Banker.returns(&seven2, ez)), ((1, 1), (2, 1)));
        assert_eq!(Spot::Tie.returns(&tie, Payouts { tie_pays: 9, ..c5 }), (10, 1));
        let pairs = Coup::play(&cards("Ks Qh Kd Qc 4s 5d"));
        assert_eq!(Spot::PlayerPair.returns(&pairs, c5), (12, 1));
        assert_eq!(Spot::BankerPair.returns(&pairs, c5), (12, 1));
        assert_eq!(Spot::BankerPair.returns(&tie, c5), (0, 1));
        // The side bets (issue 49): either pair 5:1 on one pair or two;
        // perfect pair 25:1 on one suited pair, 200:1 on two, nothing on a
        // pair of two suits; Dragon 7 on the banca's three-card 7 win only,
        // Panda 8 on the ponto's three-card 8 win only.
        assert_eq!([&pairs, &banker_five].map(|c| Spot::EitherPair.returns(c, c5)), [(6, 1), (0, 1)]);
        let one_pair = Coup::play(&cards("Ks Qh Kd 4c 4s 5d"));
        assert_eq!(Spot::EitherPair.returns(&one_pair, c5), (6, 1));
        let perfect = Coup::play(&cards("Ks Qh Ks Qc 4s 5d"));
        let both = Coup::play(&cards("Ks Qh Ks Qh 4s 5d"));
        assert_eq!([&pairs, &perfect, &both].map(|c| Spot::PerfectPair.returns(c, c5)), [(0, 1), (26, 1), (201, 1)]);
        assert_eq!([&seven3, &seven2, &six].map(|c| Spot::Dragon7.returns(c, ez)), [(41, 1), (0, 1), (0, 1)]);
        let eight3 = Coup::play(&cards("2s Kh 3d Qc 3s 5d"));
        assert_eq!((eight3.player_total(), eight3.player.len(), eight3.banker_total(), eight3.banker.len()), (8, 3, 5, 3));
        let eight2 = Coup::play(&cards("4s Kh 4d Qc 3s 5d"));
        assert_eq!((eight2.player_total(), eight2.player.len()), (8, 2));
        assert_eq!([&eight3, &eight2, &seven3].map(|c| Spot::Panda8.returns(c, ez)), [(26, 1), (0, 1), (0, 1)]);
        for s in Spot::ALL {
            for c in [Commission::FivePercent, Commission::HalfOnFive, Commission::HalfOnSix, Commission::EzThreeCardSeven] {
                let step = s.cent_step(c);
                for coup in [&banker_five, &tie, &five, &pairs, &six, &seven3] {
                    assert!(s.returned_cents(step, coup, Payouts { tie_pays: 9, ..Payouts::with(c) }).is_some(), "{s:?} {c:?}");
                }
            }
        }
    }

    /// The six cards are distinct cards of the shoe: in an 8-deck shoe a
    /// card may repeat up to 8 times, never more.
    #[test]
    fn the_deal_draws_six_cards_of_the_shoe() {
        let game = BaccaratGame {
            id: "b".into(),
            name: "B".into(),
            decks: 8,
            commission: Commission::FivePercent,
            tie_pays: 8,
            pairs: true,
            side_bets: vec![],
            minimum: 1,
            chips: vec![1],
        };
        let mut rng = meters::rng::StreamRng::from_seed(11);
        let mut seen = [0u64; 52];
        for _ in 0..52_000 {
            for c in game.deal(&mut rng) {
                assert!(!c.is_joker());
                seen[usize::from(c.index())] += 1;
            }
        }
        // Each of the 52 faces about 6,000 times (312,000 / 52).
        assert!(seen.iter().all(|&n| (5_500..6_500).contains(&n)), "{seen:?}");
    }
}
