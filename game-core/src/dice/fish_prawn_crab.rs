//! Peixe-camarão-caranguejo (fish-prawn-crab, Macau Despacho 59/2004):
//! three dice whose faces each carry a figure, a colour and a number
//! (Art. 1), thrown as sic bo's are; every bet of Art. 5 with its prize of
//! Art. 6, the stake kept. Small and big lose when the three dice show
//! the same figure (Art. 7).
//!
//! The text pays several bets under the 80 % floor (M-17): a paytable
//! lists the bets its table offers ([`Bet`]) and the compiler refuses any
//! of them that returns less, so a cabinet's cloth holds only what clears
//! the floor.

use serde::{Deserialize, Serialize};

use super::{Throw, count, total, triple};

/// A face's colour (Art. 1): fish and rooster red, prawn and crab green,
/// gourd and coin blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Green,
    Blue,
}

impl Colour {
    pub const ALL: [Colour; 3] = [Colour::Red, Colour::Green, Colour::Blue];

    /// The colour of face `face` (1–6), Art. 1.
    pub fn of(face: u8) -> Colour {
        match face {
            1 | 6 => Colour::Red,
            2 | 5 => Colour::Green,
            _ => Colour::Blue,
        }
    }

    /// The colour's name, in Portuguese agreeing with one die or more.
    pub fn name(self, portuguese: bool, dice: u8) -> &'static str {
        match (self, portuguese, dice > 1) {
            (Colour::Red, true, false) => "vermelho",
            (Colour::Red, true, true) => "vermelhos",
            (Colour::Red, false, _) => "red",
            (Colour::Green, true, false) => "verde",
            (Colour::Green, true, true) => "verdes",
            (Colour::Green, false, _) => "green",
            (Colour::Blue, true, false) => "azul",
            (Colour::Blue, true, true) => "azuis",
            (Colour::Blue, false, _) => "blue",
        }
    }
}

/// The figure of face `face` (1–6), Art. 1.
pub fn figure(face: u8, portuguese: bool) -> &'static str {
    const PT: [&str; 6] = ["peixe", "camarão", "cabaço", "moeda", "caranguejo", "galo"];
    const EN: [&str; 6] = ["fish", "prawn", "gourd", "coin", "crab", "rooster"];
    let i = usize::from(face.clamp(1, 6) - 1);
    if portuguese { PT[i] } else { EN[i] }
}

/// How many dice of the throw show colour `c`.
fn of_colour(t: &Throw, c: Colour) -> usize {
    t.iter().filter(|&&d| Colour::of(d) == c).count()
}

/// A bet of Art. 5 as a paytable offers it: every place of the cloth of
/// that bet (a figure bet is six places, one per figure).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Bet {
    /// Art. 5 1): a total of 4–10, not three equal figures.
    Small,
    /// Art. 5 2): a total of 11–17, not three equal figures.
    Big,
    /// Art. 5 3): a chosen figure on one, two or three dice: 1, 2, 3 to 1.
    Figure,
    /// Art. 5 4): one and only one die of a chosen colour: 1 to 1.
    OneOfColour,
    /// Art. 5 5): two and only two dice of a chosen colour: 3 to 1.
    TwoOfColour,
    /// Art. 5 6): all three dice of a chosen colour: 20 to 1.
    ThreeOfColour,
    /// Art. 5 7): all three dice of one colour, any: 7 to 1.
    ThreeSameColour,
    /// Art. 5 8): all three dice a chosen figure: 150 to 1.
    FigureTriple,
    /// Art. 5 9): all three dice one figure, any: 24 to 1.
    AnyTriple,
    /// Art. 5 10): the dice's numbers total 4–17.
    Total(u8),
}

impl Bet {
    /// Every bet of Art. 5, the totals 4–17 each.
    pub fn all() -> Vec<Bet> {
        let mut v = vec![
            Bet::Small,
            Bet::Big,
            Bet::Figure,
            Bet::OneOfColour,
            Bet::TwoOfColour,
            Bet::ThreeOfColour,
            Bet::ThreeSameColour,
            Bet::FigureTriple,
            Bet::AnyTriple,
        ];
        v.extend((4..=17).map(Bet::Total));
        v
    }

    /// Whether Art. 5 has this bet (a total is one of 4–17).
    pub fn in_the_text(self) -> bool {
        !matches!(self, Bet::Total(t) if !(4..=17).contains(&t))
    }

    /// The places of the cloth this bet is.
    pub fn spots(self) -> Vec<Spot> {
        match self {
            Bet::Small => vec![Spot::Small],
            Bet::Big => vec![Spot::Big],
            Bet::Figure => (1..=6).map(Spot::Figure).collect(),
            Bet::OneOfColour => Colour::ALL.into_iter().map(Spot::OneOfColour).collect(),
            Bet::TwoOfColour => Colour::ALL.into_iter().map(Spot::TwoOfColour).collect(),
            Bet::ThreeOfColour => Colour::ALL.into_iter().map(Spot::ThreeOfColour).collect(),
            Bet::ThreeSameColour => vec![Spot::ThreeSameColour],
            Bet::FigureTriple => (1..=6).map(Spot::FigureTriple).collect(),
            Bet::AnyTriple => vec![Spot::AnyTriple],
            Bet::Total(t) if (4..=17).contains(&t) => vec![Spot::Total(t)],
            Bet::Total(_) => Vec::new(),
        }
    }

    pub fn name(self, portuguese: bool) -> String {
        let pick = |pt: &str, en: &str| if portuguese { pt.to_owned() } else { en.to_owned() };
        match self {
            Bet::Small => pick("pequeno (4-10)", "small (4-10)"),
            Bet::Big => pick("grande (11-17)", "big (11-17)"),
            Bet::Figure => pick("figura escolhida", "chosen figure"),
            Bet::OneOfColour => pick("um dado da cor escolhida", "one die of a chosen colour"),
            Bet::TwoOfColour => pick("dois dados da cor escolhida", "two dice of a chosen colour"),
            Bet::ThreeOfColour => pick("três dados da cor escolhida", "three dice of a chosen colour"),
            Bet::ThreeSameColour => pick("três dados da mesma cor", "three dice of one colour"),
            Bet::FigureTriple => pick("três dados da figura escolhida", "three dice of a chosen figure"),
            Bet::AnyTriple => pick("três figuras iguais", "any three equal figures"),
            Bet::Total(t) => format!("total {t}"),
        }
    }
}

/// A place on the cloth: a bet and, where it has one, its chosen figure
/// (a face 1–6) or colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spot {
    Small,
    Big,
    Figure(u8),
    OneOfColour(Colour),
    TwoOfColour(Colour),
    ThreeOfColour(Colour),
    ThreeSameColour,
    FigureTriple(u8),
    AnyTriple,
    Total(u8),
}

impl Spot {
    /// The bet this place is.
    pub fn bet(self) -> Bet {
        match self {
            Spot::Small => Bet::Small,
            Spot::Big => Bet::Big,
            Spot::Figure(_) => Bet::Figure,
            Spot::OneOfColour(_) => Bet::OneOfColour,
            Spot::TwoOfColour(_) => Bet::TwoOfColour,
            Spot::ThreeOfColour(_) => Bet::ThreeOfColour,
            Spot::ThreeSameColour => Bet::ThreeSameColour,
            Spot::FigureTriple(_) => Bet::FigureTriple,
            Spot::AnyTriple => Bet::AnyTriple,
            Spot::Total(t) => Bet::Total(t),
        }
    }

    /// Whether the place exists (a figure is a face 1–6, a total 4–17).
    pub fn valid(self) -> bool {
        match self {
            Spot::Figure(f) | Spot::FigureTriple(f) => (1..=6).contains(&f),
            Spot::Total(t) => (4..=17).contains(&t),
            _ => true,
        }
    }

    /// What the throw pays on the place, P:1 (0: it loses), Art. 6–7.
    pub fn payout(self, t: &Throw) -> u64 {
        let sum = total(t);
        let one_colour = Colour::ALL.iter().any(|&c| of_colour(t, c) == 3);
        match self {
            Spot::Small => u64::from((4..=10).contains(&sum) && !triple(t)),
            Spot::Big => u64::from((11..=17).contains(&sum) && !triple(t)),
            Spot::Figure(f) => count(t, f) as u64,
            Spot::OneOfColour(c) => u64::from(of_colour(t, c) == 1),
            Spot::TwoOfColour(c) => 3 * u64::from(of_colour(t, c) == 2),
            Spot::ThreeOfColour(c) => 20 * u64::from(of_colour(t, c) == 3),
            Spot::ThreeSameColour => 7 * u64::from(one_colour),
            Spot::FigureTriple(f) => 150 * u64::from(count(t, f) == 3),
            Spot::AnyTriple => 24 * u64::from(triple(t)),
            Spot::Total(s) if s == sum => total_payout(s),
            Spot::Total(_) => 0,
        }
    }

    /// What `stake` on the place returns on the throw: the stake and its
    /// prize, or nothing.
    pub fn returned(self, stake: u64, t: &Throw) -> u64 {
        match self.payout(t) {
            0 => 0,
            p => stake.saturating_mul(p + 1),
        }
    }

    /// The place's name: "um dado vermelho" / "one red die", "figura
    /// peixe" / "figure fish".
    pub fn name(self, portuguese: bool) -> String {
        let colour = |n: u8, c: Colour| {
            let count = match (n, portuguese) {
                (1, true) => "um dado",
                (1, false) => "one",
                (2, true) => "dois dados",
                (2, false) => "two",
                (_, true) => "três dados",
                (_, false) => "three",
            };
            let noun = match (n, portuguese) {
                (_, true) => "",
                (1, false) => " die",
                (_, false) => " dice",
            };
            if portuguese { format!("{count} {}", c.name(true, n)) } else { format!("{count} {}{noun}", c.name(false, n)) }
        };
        match self {
            Spot::Figure(f) => format!("{} {}", if portuguese { "figura" } else { "figure" }, figure(f, portuguese)),
            Spot::OneOfColour(c) => colour(1, c),
            Spot::TwoOfColour(c) => colour(2, c),
            Spot::ThreeOfColour(c) => colour(3, c),
            Spot::FigureTriple(f) => format!("{} {}", if portuguese { "triplo" } else { "triple" }, figure(f, portuguese)),
            other => other.bet().name(portuguese),
        }
    }
}

/// What a total of `t` (4–17) pays, P:1 (Art. 6 10)); 0 for no total of
/// the text.
pub fn total_payout(t: u8) -> u64 {
    match t {
        4 | 17 => 50,
        5 | 16 => 18,
        6 | 15 => 14,
        7 | 14 => 12,
        8 | 13 => 8,
        9..=12 => 6,
        _ => 0,
    }
}

/// A fish-prawn-crab table (an approved paytable): its limits and the bets
/// it offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FishPrawnCrabGame {
    pub id: String,
    pub name: String,
    /// The table minimum and maximum on a place, in credits.
    pub minimum: u64,
    pub maximum: u64,
    pub chips: Vec<u64>,
    /// The bets of Art. 5 the table offers, each at least the floor.
    pub bets: Vec<Bet>,
}

impl FishPrawnCrabGame {
    /// Whether the table's cloth has place `spot`.
    pub fn offers(&self, spot: Spot) -> bool {
        spot.valid() && self.bets.contains(&spot.bet())
    }

    /// Every place of the table's cloth, in the order of its bets.
    pub fn cloth(&self) -> Vec<Spot> {
        self.bets.iter().flat_map(|b| b.spots()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::every_throw;

    /// What one credit on `s` returns summed over the 216 throws.
    fn back(s: Spot) -> u64 {
        every_throw().map(|t| s.returned(1, &t)).sum()
    }

    /// §2.7's RTP of every bet, over the 216 throws (out of 216): small and
    /// big 210 (97.22 %), a figure 199 (92.13 %), one or two of a colour
    /// and three of one colour 192 (88.89 %), three of a chosen colour 168
    /// (77.78 %), a figure's triple 151 (69.91 %), any triple 150
    /// (69.44 %), the totals 153/114/150/195/189/175/189 (70.8 … 87.5 %).
    #[test]
    fn every_bet_returns_the_digests_figure_over_the_216_throws() {
        assert_eq!(back(Spot::Small), 210);
        assert_eq!(back(Spot::Big), 210);
        for f in 1..=6 {
            assert_eq!(back(Spot::Figure(f)), 199, "figure {f}");
            assert_eq!(back(Spot::FigureTriple(f)), 151, "triple {f}");
        }
        for c in Colour::ALL {
            assert_eq!(back(Spot::OneOfColour(c)), 192, "{c:?}");
            assert_eq!(back(Spot::TwoOfColour(c)), 192, "{c:?}");
            assert_eq!(back(Spot::ThreeOfColour(c)), 168, "{c:?}");
        }
        assert_eq!(back(Spot::ThreeSameColour), 192);
        assert_eq!(back(Spot::AnyTriple), 150);
        for (s, want) in [(4, 153), (5, 114), (6, 150), (7, 195), (8, 189), (9, 175), (10, 189)] {
            assert_eq!(back(Spot::Total(s)), want, "total {s}");
            assert_eq!(back(Spot::Total(21 - s)), want, "total {}", 21 - s);
        }
        assert_eq!(Spot::Small.payout(&[3, 3, 3]), 0, "three equal figures make small lose (Art. 7)");
        assert_eq!(Spot::Big.payout(&[4, 4, 4]), 0, "and big");
    }

    /// Art. 1's faces: two of each colour, opposite faces summing to seven
    /// sharing one.
    #[test]
    fn the_faces_carry_the_texts_colours() {
        for c in Colour::ALL {
            assert_eq!((1..=6).filter(|&f| Colour::of(f) == c).count(), 2);
        }
        assert!((1..=6).all(|f| Colour::of(f) == Colour::of(7 - f)));
        assert_eq!([figure(1, true), figure(5, false), figure(6, true)], ["peixe", "crab", "galo"]);
    }

    /// The cloth holds the places of the bets offered and nothing else.
    #[test]
    fn a_table_offers_only_its_bets() {
        let g =
            FishPrawnCrabGame { id: "p".into(), name: "P".into(), minimum: 1, maximum: 10, chips: vec![1], bets: vec![Bet::Figure, Bet::Total(9), Bet::Small] };
        assert_eq!(g.cloth().len(), 8);
        assert!(g.offers(Spot::Figure(6)) && g.offers(Spot::Total(9)) && g.offers(Spot::Small));
        assert!(!g.offers(Spot::Figure(7)) && !g.offers(Spot::Total(10)) && !g.offers(Spot::Big) && !g.offers(Spot::AnyTriple));
        assert_eq!(Bet::all().len(), 23);
        assert_eq!(Bet::all().iter().flat_map(|b| b.spots()).count(), 2 + 6 + 9 + 1 + 6 + 1 + 14);
    }
}
