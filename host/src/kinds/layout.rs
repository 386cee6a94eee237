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
