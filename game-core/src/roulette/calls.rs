//! Call bets on the French wheel (AR 20, FR 40): each is placed as its
//! chips on the cloth and settled component by component, only the chips
//! covering the winning number winning, each at its own chance (AR 42
//! d–e, FR 41).

use serde::{Deserialize, Serialize};

use super::layout::Spot;
use super::wheel::Wheel;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CallBet {
    /// Série grande, série 0-2-3, voisins du zéro: 9 chips (AR 20 a I).
    Voisins,
    /// Série pequena, série 5-8, tiers: 6 chips (AR 20 a II).
    Tiers,
    /// Série órfãos (vadios), orphelins: 5 chips (AR 20 a III).
    Orphelins,
    /// A number and 1–3 neighbours on each side on the wheel, a pleno each
    /// (AR 20 b, FR 40 d).
    Neighbours { number: u8, each_side: u8 },
    /// The numbers ending in `digit`, a pleno each (FR 40 e, "finals").
    Finals { digit: u8 },
}

impl CallBet {
    /// The chips of one unit: each spot and its number of units.
    /// None for a call bet the wheel does not take.
    pub fn chips(self, wheel: Wheel) -> Option<Vec<(Spot, u64)>> {
        if !wheel.call_bets_allowed() {
            return None;
        }
        let n = |v: &[u8]| Spot::Numbers(v.to_vec());
        Some(match self {
            CallBet::Voisins => {
                vec![(n(&[0, 2, 3]), 2), (n(&[4, 7]), 1), (n(&[12, 15]), 1), (n(&[18, 21]), 1), (n(&[19, 22]), 1), (n(&[25, 26, 28, 29]), 2), (n(&[32, 35]), 1)]
            }
            CallBet::Tiers => [[5, 8], [10, 11], [13, 16], [23, 24], [27, 30], [33, 36]].iter().map(|p| (n(p), 1)).collect(),
            CallBet::Orphelins => vec![(n(&[1]), 1), (n(&[6, 9]), 1), (n(&[14, 17]), 1), (n(&[17, 20]), 1), (n(&[31, 34]), 1)],
            CallBet::Neighbours { number, each_side } => {
                if !(1..=3).contains(&each_side) {
                    return None;
                }
                let at = wheel.position(number)?;
                let k = i64::from(each_side);
                (-k..=k).map(|d| (n(&[wheel.step(at, d)]), 1)).collect()
            }
            CallBet::Finals { digit } => {
                if digit > 9 {
                    return None;
                }
                (0..=36u8).filter(|x| x % 10 == digit).map(|x| (n(&[x]), 1)).collect()
            }
        })
    }

    /// The most units a series takes (AR 21 c: grande 15, pequena 20,
    /// órfãos 10); a number's neighbours and finals are held by the pleno
    /// maximum on each number (AR 21 d).
    pub fn max_units(self) -> Option<u64> {
        match self {
            CallBet::Voisins => Some(15),
            CallBet::Tiers => Some(20),
            CallBet::Orphelins => Some(10),
            CallBet::Neighbours { .. } | CallBet::Finals { .. } => None,
        }
    }

    /// The call bet's name, Portuguese and English.
    pub fn name(self, portuguese: bool) -> String {
        let pick = |pt: &str, en: &str| if portuguese { pt.to_owned() } else { en.to_owned() };
        match self {
            CallBet::Voisins => pick("série grande (vizinhos do zero)", "voisins du zéro"),
            CallBet::Tiers => pick("série pequena 5-8", "tiers du cylindre"),
            CallBet::Orphelins => pick("órfãos", "orphelins"),
            CallBet::Neighbours { number, each_side } => {
                if portuguese {
                    format!("{number} e {} vizinhos", 2 * each_side)
                } else {
                    format!("{number} and {} neighbours", 2 * each_side)
                }
            }
            CallBet::Finals { digit } => {
                if portuguese {
                    format!("finais {digit}")
                } else {
                    format!("finals {digit}")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covered(bet: CallBet) -> Vec<u8> {
        let mut v: Vec<u8> = bet.chips(Wheel::French).unwrap().iter().flat_map(|(s, _)| (0..=36).filter(|&p| s.covers(p))).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn units(bet: CallBet) -> u64 {
        bet.chips(Wheel::French).unwrap().iter().map(|(_, u)| u).sum()
    }

    fn returned(bet: CallBet, pocket: u8) -> u64 {
        bet.chips(Wheel::French).unwrap().iter().map(|(s, u)| s.returned(*u, pocket)).sum()
    }

    /// AR 20 a, FR 40 a–c: the compositions, the numbers covered, and the
    /// three series splitting the 37 numbers exactly.
    #[test]
    fn the_series_are_the_texts_compositions() {
        assert_eq!((units(CallBet::Voisins), units(CallBet::Tiers), units(CallBet::Orphelins)), (9, 6, 5));
        let mut fr40a = vec![22, 18, 29, 7, 28, 12, 35, 3, 26, 0, 32, 15, 19, 4, 21, 2, 25];
        fr40a.sort_unstable();
        assert_eq!(covered(CallBet::Voisins), fr40a);
        let mut fr40b = vec![27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33];
        fr40b.sort_unstable();
        assert_eq!(covered(CallBet::Tiers), fr40b);
        assert_eq!(covered(CallBet::Orphelins), vec![1, 6, 9, 14, 17, 20, 31, 34]);
        let mut all: Vec<u8> = [CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins].into_iter().flat_map(covered).collect();
        all.sort_unstable();
        assert_eq!(all, (0..=36).collect::<Vec<u8>>(), "the series split the wheel");
        // Every component is a spot of the cloth.
        for bet in [CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins] {
            assert!(bet.chips(Wheel::French).unwrap().iter().all(|(s, _)| s.on_cloth(Wheel::French, false)), "{bet:?}");
        }
        assert!(CallBet::Voisins.chips(Wheel::American37).is_none(), "AR 20: French numbering only");
        assert!(CallBet::Voisins.chips(Wheel::American38).is_none());
    }

    /// §4.9 and the settlement table of §2.6 (AR 42 d).
    #[test]
    fn the_series_return_what_the_text_says() {
        assert_eq!(returned(CallBet::Orphelins, 17), 36, "órfãos hit by 17: 36 for 5");
        assert_eq!(returned(CallBet::Orphelins, 1), 36);
        for p in [6, 9, 14, 20, 31, 34] {
            assert_eq!(returned(CallBet::Orphelins, p), 18, "{p}");
        }
        for p in [0, 2, 3] {
            assert_eq!(returned(CallBet::Voisins, p), 24, "série grande hit by {p}: 24 for 9");
        }
        for p in [25, 26, 28, 29, 4, 7, 12, 15, 18, 21, 19, 22, 32, 35] {
            assert_eq!(returned(CallBet::Voisins, p), 18, "{p}");
        }
        for p in covered(CallBet::Tiers) {
            assert_eq!(returned(CallBet::Tiers, p), 18);
        }
        // Each series returns 36/37 of its stake over the wheel.
        for bet in [CallBet::Voisins, CallBet::Tiers, CallBet::Orphelins, CallBet::Neighbours { number: 0, each_side: 2 }, CallBet::Finals { digit: 7 }] {
            let total: u64 = (0..=36).map(|p| returned(bet, p)).sum();
            assert_eq!(total, 36 * units(bet), "{bet:?}");
        }
    }

    /// AR 20 b: 0 with 4 neighbours is 3, 26, 0, 32, 15; finals 0 cover
    /// 0, 10, 20, 30 and finals 7 three numbers.
    #[test]
    fn neighbours_and_finals() {
        assert_eq!(covered(CallBet::Neighbours { number: 0, each_side: 2 }), vec![0, 3, 15, 26, 32]);
        assert_eq!(covered(CallBet::Neighbours { number: 26, each_side: 1 }), vec![0, 3, 26]);
        assert_eq!(units(CallBet::Neighbours { number: 17, each_side: 3 }), 7);
        assert!(CallBet::Neighbours { number: 17, each_side: 4 }.chips(Wheel::French).is_none());
        assert!(CallBet::Neighbours { number: 37, each_side: 1 }.chips(Wheel::French).is_none());
        assert_eq!(covered(CallBet::Finals { digit: 0 }), vec![0, 10, 20, 30]);
        assert_eq!(covered(CallBet::Finals { digit: 7 }), vec![7, 17, 27]);
        assert_eq!(covered(CallBet::Finals { digit: 1 }).len(), 4);
        assert!(CallBet::Finals { digit: 10 }.chips(Wheel::French).is_none());
    }
}
