//! The dealer's final totals for a shoe: every way the dealer's hand can
//! grow from the up card, as a graph of the multisets of cards drawn (the
//! probability of a multiset's draws does not depend on their order, so
//! the sums over the orders in which a hand reaches a state fold into one
//! mass per state), walked once per shoe.

use std::collections::HashMap;

/// The dealer's outcomes: 17, 18, 19, 20, 21 (index 0–4), bust, blackjack.
pub const OUTCOMES: usize = 7;
pub const BUST: usize = 5;
pub const BLACKJACK: usize = 6;
/// The probability of each outcome.
pub type Dist = [f64; OUTCOMES];

/// Card classes: index 0 is the ace, 1–8 the values 2–9, 9 the ten-values.
pub const CLASSES: usize = 10;
const FINAL: u32 = 1 << 31;

/// The states of a dealer's hand from one up card.
pub struct DealerGraph {
    /// The cards drawn into each state (the up card not counted).
    counts: Vec<[u8; CLASSES]>,
    drawn: Vec<u16>,
    /// For each state and class: the next state, or FINAL | outcome.
    next: Vec<[u32; CLASSES]>,
}

/// Whether a dealer on `total` (soft or not) stops drawing (BJ 22).
fn stands(total: u8, soft: bool, hits_soft_17: bool) -> bool {
    total > 17 || (total == 17 && !(soft && hits_soft_17))
}

impl DealerGraph {
    pub fn new(up: usize, hits_soft_17: bool) -> DealerGraph {
        let mut g = DealerGraph { counts: vec![[0; CLASSES]], drawn: vec![0], next: Vec::new() };
        let mut index: HashMap<[u8; CLASSES], u32> = HashMap::new();
        index.insert([0; CLASSES], 0);
        let mut s = 0;
        while s < g.counts.len() {
            let counts = g.counts[s];
            let hard: u16 = (up as u16 + 1) + counts.iter().enumerate().map(|(i, &n)| (i as u16 + 1) * u16::from(n)).sum::<u16>();
            let aces = up == 0 || counts[0] > 0;
            let mut next = [0u32; CLASSES];
            for (c, slot) in next.iter_mut().enumerate() {
                let hard = hard + c as u16 + 1;
                let aces = aces || c == 0;
                if s == 0 && hard == 11 && aces {
                    *slot = FINAL | BLACKJACK as u32;
                    continue;
                }
                if hard > 21 {
                    *slot = FINAL | BUST as u32;
                    continue;
                }
                let (total, soft) = if aces && hard + 10 <= 21 { (hard as u8 + 10, true) } else { (hard as u8, false) };
                if stands(total, soft, hits_soft_17) {
                    *slot = FINAL | u32::from(total - 17);
                    continue;
                }
                let mut child = counts;
                child[c] += 1;
                let n = g.counts.len() as u32;
                let id = *index.entry(child).or_insert(n);
                if id == n {
                    g.counts.push(child);
                    g.drawn.push(g.drawn[s] + 1);
                }
                *slot = id;
            }
            g.next.push(next);
            s += 1;
        }
        g
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The outcomes' probabilities for a shoe of `shoe` cards by class
    /// (the up card already out), `mass` a scratch buffer.
    pub fn dist(&self, shoe: &[u16; CLASSES], mass: &mut Vec<f64>) -> Dist {
        let total: u16 = shoe.iter().sum();
        mass.clear();
        mass.resize(self.counts.len(), 0.0);
        mass[0] = 1.0;
        let mut out = [0.0; OUTCOMES];
        for s in 0..self.counts.len() {
            let m = mass[s];
            if m == 0.0 {
                continue;
            }
            let left = total.saturating_sub(self.drawn[s]);
            if left == 0 {
                continue;
            }
            let m = m / f64::from(left);
            let counts = &self.counts[s];
            let next = &self.next[s];
            for c in 0..CLASSES {
                let k = shoe[c].saturating_sub(u16::from(counts[c]));
                if k == 0 {
                    continue;
                }
                let p = m * f64::from(k);
                let t = next[c];
                if t & FINAL != 0 {
                    out[(t & !FINAL) as usize] += p;
                } else {
                    mass[t as usize] += p;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent brute force: every ordered sequence of draws from
    /// the shoe, card by card, with the dealer's rule written out again.
    fn brute(up: usize, shoe: &mut [u16; CLASSES], hard: u16, aces: bool, first: bool, h17: bool) -> Dist {
        let total_now = if aces && hard + 10 <= 21 { hard + 10 } else { hard };
        let soft = aces && hard + 10 <= 21;
        let mut out = [0.0; OUTCOMES];
        if !first {
            if hard > 21 {
                out[BUST] = 1.0;
                return out;
            }
            if total_now > 17 || (total_now == 17 && !(soft && h17)) {
                out[(total_now - 17) as usize] = 1.0;
                return out;
            }
        }
        let n: u16 = shoe.iter().sum();
        for c in 0..CLASSES {
            if shoe[c] == 0 {
                continue;
            }
            let p = f64::from(shoe[c]) / f64::from(n);
            if first && ((up == 0 && c == 9) || (up == 9 && c == 0)) {
                out[BLACKJACK] += p;
                continue;
            }
            shoe[c] -= 1;
            let sub = brute(up, shoe, hard + c as u16 + 1, aces || c == 0, false, h17);
            shoe[c] += 1;
            for o in 0..OUTCOMES {
                out[o] += p * sub[o];
            }
        }
        out
    }

    /// The graph against the brute force on several shoes: a full deck, a
    /// rich one, a poor one, for every up card, S17 and H17.
    #[test]
    fn dealer_totals_match_a_brute_force_of_every_draw() {
        let shoes: [[u16; CLASSES]; 3] = [[4, 4, 4, 4, 4, 4, 4, 4, 4, 16], [2, 5, 1, 3, 0, 4, 2, 6, 1, 9], [6, 1, 2, 2, 3, 1, 0, 2, 4, 5]];
        let mut mass = Vec::new();
        for h17 in [false, true] {
            for up in 0..CLASSES {
                let g = DealerGraph::new(up, h17);
                for shoe in shoes {
                    let mut s = shoe;
                    if s[up] == 0 {
                        continue;
                    }
                    s[up] -= 1;
                    let want = brute(up, &mut s.clone(), up as u16 + 1, up == 0, true, h17);
                    let got = g.dist(&s, &mut mass);
                    for o in 0..OUTCOMES {
                        assert!((want[o] - got[o]).abs() < 1e-12, "up {up} h17 {h17} shoe {shoe:?}: {want:?} vs {got:?}");
                    }
                    assert!((got.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                }
            }
        }
    }
}
