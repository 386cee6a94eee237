//! A bet of many spots, shared by the kinds whose bet is a layout of chips
//! (roulette, banca francesa, sic bo): the chip value the player places
//! with, and each spot once with its stake in credits, ascending by spot;
//! and the edits every such kind takes (a chip placed, a spot cleared,
//! every stake doubled). The kind checks the result against its table.

use serde::{Deserialize, Serialize};

use crate::kind::Refusal;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChipLayout<S> {
    pub chip: u64,
    pub spots: Vec<(S, u64)>,
}

/// The edits of a layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpotEdit<S> {
    /// A chip of the selected value on a spot.
    Place { spot: S },
    /// Every chip off one spot.
    Remove { spot: S },
    /// Every stake doubled.
    Double,
}

impl<S: Clone + Ord> ChipLayout<S> {
    /// No chip on the cloth, `chip` selected.
    pub fn empty(chip: u64) -> Self {
        ChipLayout { chip, spots: Vec::new() }
    }

    /// The credits the layout stakes.
    pub fn staked(&self) -> u64 {
        self.spots.iter().fold(0u64, |t, (_, s)| t.saturating_add(*s))
    }

    /// What stands on `spot`.
    pub fn on(&self, spot: &S) -> u64 {
        self.spots.iter().find(|(s, _)| s == spot).map_or(0, |(_, v)| *v)
    }

    /// `stake` more on `spot`, the spots kept in order.
    pub fn add(&mut self, spot: S, stake: u64) {
        match self.spots.iter_mut().find(|(s, _)| *s == spot) {
            Some((_, v)) => *v = v.saturating_add(stake),
            None => {
                self.spots.push((spot, stake));
                self.spots.sort_by(|a, b| a.0.cmp(&b.0));
            }
        }
    }

    /// The layout after `edit` (not yet checked against a table); a spot
    /// removed that holds nothing is refused, named by `name`.
    pub fn edited(&self, edit: &SpotEdit<S>, name: impl Fn(&S, bool) -> String) -> Result<Self, Refusal> {
        let mut next = self.clone();
        match edit {
            SpotEdit::Place { spot } => next.add(spot.clone(), self.chip),
            SpotEdit::Remove { spot } => {
                if self.on(spot) == 0 {
                    return Err(Refusal::new(format!("Não há fichas em {}", name(spot, true)), format!("There are no chips on {}", name(spot, false))));
                }
                next.spots.retain(|(s, _)| s != spot);
            }
            SpotEdit::Double => {
                for (_, stake) in &mut next.spots {
                    *stake = stake.saturating_mul(2);
                }
            }
        }
        Ok(next)
    }
}

/// The stake on a spot against a table's minimum and maximum, named (the
/// rule behind the limit is the caller's; a player reads no rule numbers,
/// issue 45).
pub fn within(name: &str, name_en: &str, stake: u64, minimum: u64, maximum: u64) -> Result<(), Refusal> {
    if stake < minimum {
        return Err(Refusal::new(
            format!("{name}: abaixo do mínimo da mesa de {minimum} créditos"),
            format!("{name_en}: under the table minimum of {minimum} credits"),
        ));
    }
    if stake > maximum {
        return Err(Refusal::new(format!("{name}: acima do máximo de {maximum} créditos"), format!("{name_en}: over the maximum of {maximum} credits")));
    }
    Ok(())
}

/// A layout against a table of one minimum and one maximum for every spot
/// (sic bo, boule, the wheel of fortune, fantan): the chip one the table
/// has, each spot one of the cloth (`on_cloth`) and there once, each stake
/// within the limits; a refusal names the spot by `name`.
pub fn check_spots<S: Copy + PartialEq>(
    bet: &ChipLayout<S>,
    chips: &[u64],
    (minimum, maximum): (u64, u64),
    on_cloth: impl Fn(S) -> bool,
    name: impl Fn(S, bool) -> String,
) -> Result<(), Refusal> {
    chip_offered(bet.chip, chips)?;
    for (i, &(s, stake)) in bet.spots.iter().enumerate() {
        if !on_cloth(s) || bet.spots[..i].iter().any(|(d, _)| *d == s) {
            return Err(Refusal::new(format!("{} não é uma aposta desta mesa", name(s, true)), format!("{} is not a bet of this table", name(s, false))));
        }
        within(&name(s, true), &name(s, false), stake, minimum, maximum)?;
    }
    Ok(())
}

/// A-10's bets on a cloth: one bet on each of `spots`, at the table's
/// `minimum` (or twice it, where a spot takes only even stakes), kept where
/// the table takes it (`legal`).
pub fn single_bets<S: Clone>(chip: u64, minimum: u64, spots: impl IntoIterator<Item = S>, legal: impl Fn(&ChipLayout<S>) -> bool) -> Vec<ChipLayout<S>> {
    spots
        .into_iter()
        .filter_map(|s| [minimum, minimum.saturating_mul(2)].into_iter().map(|stake| ChipLayout { chip, spots: vec![(s.clone(), stake)] }).find(|b| legal(b)))
        .collect()
}

/// The bet methods of a kind whose bet is a [`ChipLayout`] on a table of
/// one minimum and one maximum (its game `self.0` has `chips`, `minimum`
/// and `maximum`; its round has the `bet`): the opening chip, the chip
/// buttons, the checks of [`check_spots`], the edits, the stake and how the
/// bet reads. Written once, inside each such `impl GameKind`, with the
/// spot's test of the cloth (or of the table's cloth) and its name.
macro_rules! one_limit_layout {
    (on_cloth: $on_cloth:expr, name: $name:expr, spots: $spots:expr) => {
        super::layout::one_limit_layout!(on_table: |_, s| ($on_cloth)(s), name: $name, spots: $spots);
    };
    // A table whose cloth its paytable chooses (fish-prawn-crab): `on_table`
    // is asked of the game and the spot.
    (on_table: $on_table:expr, name: $name:expr, spots: $spots:expr) => {
        fn opening_bet(&self) -> Self::Bet {
            super::layout::ChipLayout::empty(self.0.chips.first().copied().unwrap_or(self.0.minimum))
        }

        fn single_bets(&self) -> Vec<Self::Bet> {
            super::layout::single_bets(self.opening_bet().chip, self.0.minimum, $spots, |b| self.check_bet(b).is_ok())
        }

        fn adjust_bet(&self, bet: &Self::Bet, control: BetControl, delta: i32) -> Self::Bet {
            match control {
                BetControl::Amount => super::layout::ChipLayout { chip: super::step(&self.0.chips, bet.chip, delta), spots: bet.spots.clone() },
                BetControl::Lines | BetControl::SideBet => bet.clone(),
            }
        }

        fn offers(&self, bet: &Self::Bet) -> bool {
            self.check_bet(bet).is_ok()
        }

        fn check_bet(&self, bet: &Self::Bet) -> Result<(), Refusal> {
            super::layout::check_spots(bet, &self.0.chips, (self.0.minimum, self.0.maximum), |s| ($on_table)(&self.0, s), $name)
        }

        fn edit_bet(&self, bet: &Self::Bet, edit: &Self::Edit) -> Result<Self::Bet, Refusal> {
            let next = bet.edited(edit, |s, pt| ($name)(*s, pt))?;
            self.check_bet(&next)?;
            Ok(next)
        }

        fn cleared_bet(&self, bet: &Self::Bet) -> Self::Bet {
            super::layout::ChipLayout::empty(bet.chip)
        }

        fn stake(&self, bet: &Self::Bet) -> u64 {
            bet.staked()
        }

        /// B-16: each spot's stake, in the category of the bet the
        /// paytable's figures name as the spot is named.
        fn wagers(&self, bet: &Self::Bet) -> Vec<(String, u64)> {
            super::layout::spot_wagers(bet, $name)
        }

        /// C-26: no decision adds a stake: the round stakes its bet.
        fn most_staked(&self, bet: &Self::Bet) -> u64 {
            self.stake(bet)
        }

        fn bet_text(&self, bet: &Self::Bet, lang: Lang) -> String {
            format!("{} — {} {}", lang.count(bet.spots.len() as u64, "aposta", "apostas"), lang.t("ficha"), bet.chip)
        }

        fn staked(&self, round: &Self::Round) -> u64 {
            round.bet.staked()
        }
    };
}
pub(crate) use one_limit_layout;

/// The settlement methods of a kind whose round settles each spot in whole
/// credits (its `settlement()`: each spot with its stake and what it
/// returns; the spot's `name`): the win, one component per winning spot for
/// the journal and recall (M-15), and no progressive trigger. Written once,
/// inside each such `impl GameKind` (sic bo, boule, the wheel of fortune).
macro_rules! settled_by_spots {
    ($round:ty) => {
        fn win(&self, round: &$round) -> u64 {
            round.settlement().iter().fold(0u64, |t, (_, _, r)| t.saturating_add(*r))
        }

        fn components(&self, round: &$round, denom: Cents) -> Vec<WinComponent> {
            round
                .settlement()
                .into_iter()
                .filter(|(_, _, r)| *r > 0)
                .map(|(s, stake, r)| WinComponent { label: format!("{} ({stake} staked)", s.name(false)), amount: r.saturating_mul(denom) })
                .collect()
        }

        fn hits(&self, _round: &$round, _trigger: &Trigger) -> bool {
            false
        }
    };
}
pub(crate) use settled_by_spots;

/// B-16: each spot's stake on a layout, in the category of its bet, named
/// "pt / en" as the paytable's figures name the bet.
pub fn spot_wagers<S: Copy, N: std::fmt::Display>(bet: &ChipLayout<S>, name: impl Fn(S, bool) -> N) -> Vec<(String, u64)> {
    bet.spots.iter().map(|&(s, stake)| (format!("{} / {}", name(s, true), name(s, false)), stake)).collect()
}

/// A chip value the table has, or a refusal that says so.
pub fn chip_offered(chip: u64, chips: &[u64]) -> Result<(), Refusal> {
    if chips.contains(&chip) {
        Ok(())
    } else {
        Err(Refusal::new(format!("Não há fichas de {chip} créditos nesta mesa"), format!("This table has no chip of {chip} credits")))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A-10's bets: one per spot the table takes, at its minimum, or twice
    /// it where only an even stake is taken; a spot the table refuses is
    /// left out.
    #[test]
    fn single_bets_put_the_least_legal_stake_on_each_spot_alone() {
        let legal = |b: &ChipLayout<char>| b.spots.iter().all(|&(s, stake)| s != 'x' && (s != 'h' || stake % 2 == 0));
        let bets = single_bets(5, 3, ['a', 'h', 'x', 'b'], legal);
        let got: Vec<(u64, Vec<(char, u64)>)> = bets.into_iter().map(|b| (b.chip, b.spots)).collect();
        assert_eq!(got, vec![(5, vec![('a', 3)]), (5, vec![('h', 6)]), (5, vec![('b', 3)])]);
    }

    #[test]
    fn a_layout_keeps_each_spot_once_in_order_and_doubles_whole() {
        let name = |s: &u8, _: bool| s.to_string();
        let mut l = ChipLayout::<u8>::empty(5);
        l = l.edited(&SpotEdit::Place { spot: 9 }, name).unwrap();
        l = l.edited(&SpotEdit::Place { spot: 2 }, name).unwrap();
        l = l.edited(&SpotEdit::Place { spot: 9 }, name).unwrap();
        assert_eq!(l.spots, vec![(2, 5), (9, 10)]);
        assert_eq!(l.staked(), 15);
        l = l.edited(&SpotEdit::Double, name).unwrap();
        assert_eq!(l.spots, vec![(2, 10), (9, 20)]);
        l = l.edited(&SpotEdit::Remove { spot: 2 }, name).unwrap();
        assert_eq!(l.spots, vec![(9, 20)]);
        let e = l.edited(&SpotEdit::Remove { spot: 2 }, name).unwrap_err();
        assert_eq!(e.en, "There are no chips on 2");
        assert!(within("x", "x", 5, 1, 4).unwrap_err().en.ends_with("over the maximum of 4 credits"));
        assert!(within("x", "x", 0, 1, 4).unwrap_err().pt.contains("abaixo do mínimo da mesa de 1"));
        assert!(chip_offered(3, &[1, 5]).is_err() && chip_offered(5, &[1, 5]).is_ok());
    }
}
