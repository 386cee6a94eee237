//! Craps (seed 000, L936–1194): two dice; the chances of rule 8 a video
//! table can settle by itself — pass line and don't pass (rule 20, the
//! barred total a push), big 6 and big 8, under and over seven (rule 20),
//! any craps, the hardways, total 7, totals 2, 3, 11 and 12 (rule 22) and
//! the field (rule 24). The stake stays the player's on a win (rule 25):
//! "recebe sete vezes" is 7:1 with the stake back.
//!
//! A round is one series (docs/craps.md): the bets are fixed before the
//! first roll (rule 21), and the dice roll until every bet on the cloth is
//! decided — a one-roll bet on the first roll, big 6/8 and the hardways on
//! their number or the 7, the line bets on the come-out or the point. The
//! rolls are drawn and committed with the stake before the first die
//! falls, and every roll is kept in the round's record. Come and don't
//! come (made after the point is set), odds (rule 22 ends at "Pagamentos:")
//! and place and lay bets (rule 23 c is empty) are not offered:
//! docs/craps.md says why.

use meters::GameRng;
use serde::{Deserialize, Serialize};

/// Two dice, each 1–6, in the order they were drawn.
pub type Roll = [u8; 2];

/// One roll of two balanced dice (rule 6 e).
pub fn roll(rng: &mut impl GameRng) -> Roll {
    std::array::from_fn(|_| 1 + rng.uniform(6) as u8)
}

/// Every one of the 36 rolls, each once.
pub fn every_roll() -> impl Iterator<Item = Roll> {
    (0..36u8).map(|i| [i / 6 + 1, i % 6 + 1])
}

pub fn total(r: &Roll) -> u8 {
    r[0] + r[1]
}

/// The total of don't pass's push (rule 20.2): 12 when the bar is the
/// pair of sixes, 2 when it is the pair of aces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bar {
    Twelve,
    Two,
}

impl Bar {
    pub fn total(self) -> u8 {
        match self {
            Bar::Twelve => 12,
            Bar::Two => 2,
        }
    }
}

/// A place on the craps cloth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    PassLine,
    DontPass,
    /// Big 6 or big 8: its number before a 7.
    Big(u8),
    /// 2–6 on the next roll.
    UnderSeven,
    /// 8–12 on the next roll.
    OverSeven,
    /// 2, 3 or 12 on the next roll: 7:1.
    AnyCraps,
    /// A hardway (4, 6, 8 or 10): the pair before a 7 or the easy way.
    Hard(u8),
    /// Total 7 on the next roll: 4:1.
    AnySeven,
    /// Total 2, 3, 11 or 12 on the next roll.
    Total(u8),
    /// 3, 4, 9, 10, 11 at 1:1; 2 and 12 at 2:1; on the next roll.
    Field,
}

/// How a bet ended: at which roll, and what it returned per credit staked
/// (0 lost, 1 a push, the payout plus one on a win).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub roll: usize,
    pub returned: u64,
}

impl Spot {
    /// Every spot of the cloth, in the order the cloth shows them.
    pub fn all() -> Vec<Spot> {
        let mut v = vec![Spot::PassLine, Spot::DontPass, Spot::Field, Spot::Big(6), Spot::Big(8), Spot::UnderSeven, Spot::OverSeven];
        v.extend([Spot::AnySeven, Spot::AnyCraps]);
        v.extend([4, 6, 8, 10].map(Spot::Hard));
        v.extend([2, 3, 11, 12].map(Spot::Total));
        v
    }

    pub fn on_cloth(self) -> bool {
        Spot::all().contains(&self)
    }

    /// Whether the bet is decided by the next roll alone.
    pub fn one_roll(self) -> bool {
        !matches!(self, Spot::PassLine | Spot::DontPass | Spot::Big(_) | Spot::Hard(_))
    }

    /// What a one-roll bet returns per credit on `r` (0: it loses).
    fn one_roll_return(self, r: &Roll) -> u64 {
        let t = total(r);
        match self {
            Spot::UnderSeven => u64::from(t < 7) * 2,
            Spot::OverSeven => u64::from(t > 7) * 2,
            Spot::AnyCraps => u64::from(matches!(t, 2 | 3 | 12)) * 8,
            Spot::AnySeven => u64::from(t == 7) * 5,
            Spot::Total(n) if n == t => match n {
                2 | 12 => 31,
                _ => 16,
            },
            Spot::Field => match t {
                2 | 12 => 3,
                3 | 4 | 9 | 10 | 11 => 2,
                _ => 0,
            },
            _ => 0,
        }
    }

    /// The bet's verdict on the rolls so far, None while it is undecided.
    pub fn verdict(self, rolls: &[Roll], bar: Bar) -> Option<Verdict> {
        let first = rolls.first()?;
        let at = |roll: usize, returned: u64| Some(Verdict { roll, returned });
        if self.one_roll() {
            return at(0, self.one_roll_return(first));
        }
        match self {
            Spot::Big(n) => rolls.iter().position(|r| matches!(total(r), 7) || total(r) == n).and_then(|k| at(k, if total(&rolls[k]) == n { 2 } else { 0 })),
            Spot::Hard(n) => rolls
                .iter()
                .position(|r| total(r) == 7 || total(r) == n)
                .and_then(|k| at(k, if total(&rolls[k]) == n && rolls[k][0] == rolls[k][1] { 8 + 2 * u64::from(n == 6 || n == 8) } else { 0 })),
            Spot::PassLine | Spot::DontPass => {
                let pass = self == Spot::PassLine;
                let come_out = total(first);
                // The come-out (rule 20.1, 20.2).
                let decided = match come_out {
                    7 | 11 => Some(pass),
                    t if !pass && t == bar.total() => return at(0, 1),
                    2 | 3 | 12 => Some(!pass),
                    _ => None,
                };
                if let Some(won) = decided {
                    return at(0, 2 * u64::from(won));
                }
                // The point: its repeat before a 7 wins the pass line.
                let k = rolls.iter().skip(1).position(|r| total(r) == 7 || total(r) == come_out)? + 1;
                let point_made = total(&rolls[k]) == come_out;
                at(k, 2 * u64::from(point_made == pass))
            }
            _ => None,
        }
    }

    /// What the spot pays, as the cloth shows it (the stake kept).
    pub fn pays(self) -> &'static str {
        match self {
            Spot::PassLine | Spot::DontPass | Spot::Big(_) | Spot::UnderSeven | Spot::OverSeven => "1:1",
            Spot::AnyCraps | Spot::Hard(4 | 10) => "7:1",
            Spot::Hard(_) => "9:1",
            Spot::AnySeven => "4:1",
            Spot::Total(2 | 12) => "30:1",
            Spot::Total(_) => "15:1",
            Spot::Field => "1:1 / 2:1",
        }
    }

    pub fn name(self, portuguese: bool) -> String {
        match (self, portuguese) {
            (Spot::PassLine, _) => "pass line".into(),
            (Spot::DontPass, _) => "don't pass".into(),
            (Spot::Big(n), _) => format!("big {n}"),
            (Spot::UnderSeven, _) => "under seven".into(),
            (Spot::OverSeven, _) => "over seven".into(),
            (Spot::AnyCraps, _) => "craps".into(),
            (Spot::Hard(n), _) => format!("hard {n}"),
            (Spot::AnySeven, _) => "total 7".into(),
            (Spot::Total(n), _) => format!("total {n}"),
            (Spot::Field, _) => "field".into(),
        }
    }
}

/// The most rolls a series may take before the draw is given up (and
/// discarded by the core): a hardway is undecided with 3/4 a roll, and
/// (3/4)^1000 is about 10^-125.
pub const MOST_ROLLS: usize = 1000;

/// A series: rolls until every spot of `spots` is decided (at least one).
pub fn series(spots: &[Spot], bar: Bar, rng: &mut impl GameRng) -> Result<Vec<Roll>, String> {
    let mut rolls = Vec::new();
    while rolls.len() < MOST_ROLLS {
        rolls.push(roll(rng));
        if spots.iter().all(|s| s.verdict(&rolls, bar).is_some()) {
            return Ok(rolls);
        }
    }
    Err(format!("the bets were not decided in {MOST_ROLLS} rolls"))
}

/// The point the come-out set, if any (shown on the cloth while the line
/// bets wait for it).
pub fn point(rolls: &[Roll]) -> Option<u8> {
    rolls.first().map(total).filter(|t| matches!(t, 4 | 5 | 6 | 8 | 9 | 10))
}

/// The denominator of [`figures`]: 36 rolls times 990, which 9, 10 and 11
/// (a point's rolls with the 7's) all divide, so every figure is whole.
pub const FIGURES_OVER: u64 = 36 * 990;

/// A spot's exact figures per decided bet, over [`FIGURES_OVER`]: what one
/// credit returns, and how often the bet wins. One-roll bets over the 36
/// rolls; big 6/8 and the hardways as their number (the pair) against the
/// 7 (and the easy ways); the line bets over the come-out and, for each
/// point, its repeat against the 7.
pub fn figures(spot: Spot, bar: Bar) -> (u64, u64) {
    let ways = |t: u8| every_roll().filter(|r| total(r) == t).count() as u64;
    let (seven, per_roll) = (ways(7), FIGURES_OVER / 36);
    match spot {
        Spot::Big(n) => {
            let w = ways(n);
            (2 * w * FIGURES_OVER / (w + seven), w * FIGURES_OVER / (w + seven))
        }
        Spot::Hard(n) => {
            let back = spot.verdict(&[[n / 2, n / 2]], bar).map_or(0, |v| v.returned);
            let wins = FIGURES_OVER / (ways(n) + seven);
            (back * wins, wins)
        }
        Spot::PassLine | Spot::DontPass => {
            let (mut win, mut push) = (0, 0);
            for r in every_roll() {
                match spot.verdict(&[r], bar) {
                    Some(v) if v.returned == 2 => win += per_roll,
                    Some(v) if v.returned == 1 => push += per_roll,
                    Some(_) => {}
                    None => {
                        // The point's repeat before the 7 wins the pass
                        // line; the 7 first, don't pass.
                        let w = ways(total(&r));
                        win += per_roll * if spot == Spot::PassLine { w } else { seven } / (w + seven);
                    }
                }
            }
            (2 * win + push, win)
        }
        _ => every_roll().fold((0, 0), |(back, wins), r| {
            let v = spot.verdict(&[r], bar).map_or(0, |v| v.returned);
            (back + v * per_roll, wins + u64::from(v > 1) * per_roll)
        }),
    }
}

/// A craps table (an approved paytable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrapsGame {
    pub id: String,
    pub name: String,
    /// Don't pass's barred total (rule 20.2).
    pub bar: Bar,
    /// The table minimum and maximum on a spot, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
    /// The spots the table offers.
    pub spots: Vec<Spot>,
}

impl CrapsGame {
    pub fn offers(&self, spot: Spot) -> bool {
        self.spots.contains(&spot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u8, b: u8) -> Roll {
        [a, b]
    }

    #[test]
    fn the_line_bets_follow_rule_20() {
        let bar = Bar::Twelve;
        let v = |s: Spot, rolls: &[Roll]| s.verdict(rolls, bar).map(|v| (v.roll, v.returned));
        // Come-out 7: pass wins, don't pass loses; 12 barred: a push.
        assert_eq!(v(Spot::PassLine, &[r(3, 4)]), Some((0, 2)));
        assert_eq!(v(Spot::DontPass, &[r(3, 4)]), Some((0, 0)));
        assert_eq!(v(Spot::PassLine, &[r(6, 6)]), Some((0, 0)));
        assert_eq!(v(Spot::DontPass, &[r(6, 6)]), Some((0, 1)));
        assert_eq!(Spot::DontPass.verdict(&[r(6, 6)], Bar::Two).map(|v| v.returned), Some(2), "bar 2: 12 wins don't pass");
        assert_eq!(Spot::DontPass.verdict(&[r(1, 1)], Bar::Two).map(|v| v.returned), Some(1));
        assert_eq!(v(Spot::DontPass, &[r(1, 2)]), Some((0, 2)));
        // A point of 8: undecided until an 8 or a 7.
        assert_eq!(v(Spot::PassLine, &[r(5, 3), r(2, 2), r(6, 5)]), None);
        assert_eq!(v(Spot::PassLine, &[r(5, 3), r(2, 2), r(4, 4)]), Some((2, 2)));
        assert_eq!(v(Spot::DontPass, &[r(5, 3), r(2, 2), r(4, 4)]), Some((2, 0)));
        assert_eq!(v(Spot::DontPass, &[r(5, 3), r(6, 6), r(1, 6)]), Some((2, 2)), "12 after the come-out is no push");
        assert_eq!(point(&[r(5, 3)]), Some(8));
        assert_eq!(point(&[r(5, 2)]), None);
    }

    #[test]
    fn the_multi_roll_bets_wait_for_their_number_or_the_seven() {
        let v = |s: Spot, rolls: &[Roll]| s.verdict(rolls, Bar::Twelve).map(|v| (v.roll, v.returned));
        assert_eq!(v(Spot::Big(6), &[r(2, 2), r(1, 5)]), Some((1, 2)));
        assert_eq!(v(Spot::Big(8), &[r(2, 2), r(1, 6)]), Some((1, 0)));
        assert_eq!(v(Spot::Hard(8), &[r(2, 6)]), Some((0, 0)), "the easy way loses");
        assert_eq!(v(Spot::Hard(8), &[r(1, 2), r(4, 4)]), Some((1, 10)), "9× with the stake");
        assert_eq!(v(Spot::Hard(4), &[r(2, 2)]), Some((0, 8)), "7× with the stake");
        assert_eq!(v(Spot::Hard(10), &[r(1, 2), r(3, 3)]), None);
    }

    /// Rule 22 and 24 over the 36 rolls: each one-roll bet's return, per
    /// 36 credits, is the digest's.
    #[test]
    fn the_one_roll_bets_return_the_digests_figures() {
        let back = |s: Spot| every_roll().map(|r| s.verdict(&[r], Bar::Twelve).unwrap().returned).sum::<u64>();
        assert_eq!(back(Spot::UnderSeven), 30, "5/6");
        assert_eq!(back(Spot::OverSeven), 30);
        assert_eq!(back(Spot::AnyCraps), 32, "8/9");
        assert_eq!(back(Spot::AnySeven), 30, "5/6");
        assert_eq!(back(Spot::Total(2)), 31, "31/36");
        assert_eq!(back(Spot::Total(12)), 31);
        assert_eq!(back(Spot::Total(3)), 32, "8/9");
        assert_eq!(back(Spot::Total(11)), 32);
        assert_eq!(back(Spot::Field), 34, "17/18");
        assert_eq!(Spot::all().len(), 17);
    }

    /// The digest's table (roulette-and-dice.md §7), every spot exact:
    /// pass 488/495, don't pass 217/220 (either bar), field 17/18.
    #[test]
    fn every_spot_returns_the_digests_figure() {
        let want = [
            (Spot::PassLine, (488, 495)),
            (Spot::DontPass, (217, 220)),
            (Spot::Big(6), (10, 11)),
            (Spot::Big(8), (10, 11)),
            (Spot::UnderSeven, (5, 6)),
            (Spot::OverSeven, (5, 6)),
            (Spot::AnyCraps, (8, 9)),
            (Spot::Hard(4), (8, 9)),
            (Spot::Hard(10), (8, 9)),
            (Spot::Hard(6), (10, 11)),
            (Spot::Hard(8), (10, 11)),
            (Spot::AnySeven, (5, 6)),
            (Spot::Total(2), (31, 36)),
            (Spot::Total(12), (31, 36)),
            (Spot::Total(3), (8, 9)),
            (Spot::Total(11), (8, 9)),
            (Spot::Field, (17, 18)),
        ];
        assert_eq!(want.len(), Spot::all().len());
        for (spot, (n, d)) in want {
            for bar in [Bar::Twelve, Bar::Two] {
                assert_eq!(figures(spot, bar).0 * d, n * FIGURES_OVER, "{spot:?}");
            }
        }
        // Pass wins 244 in 495; don't pass 949 in 1980 (and pushes 1 in 36).
        assert_eq!(figures(Spot::PassLine, Bar::Twelve).1 * 495, 244 * FIGURES_OVER);
        assert_eq!(figures(Spot::DontPass, Bar::Twelve).1 * 1980, 949 * FIGURES_OVER);
    }

    #[test]
    fn a_series_rolls_until_every_bet_is_decided() {
        let mut rng = meters::rng::StreamRng::from_seed(9);
        let spots = [Spot::PassLine, Spot::Hard(4), Spot::Field];
        for _ in 0..2_000 {
            let rolls = series(&spots, Bar::Twelve, &mut rng).unwrap();
            let last = spots.iter().map(|s| s.verdict(&rolls, Bar::Twelve).unwrap().roll).max().unwrap();
            assert_eq!(last + 1, rolls.len(), "no roll after the last bet is decided");
        }
        assert_eq!(series(&[Spot::Field], Bar::Two, &mut rng).unwrap().len(), 1);
    }
}
