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

/// The states of a dealer's hand from one up card.
///
/// A state's mass for a shoe is the chance the dealer draws its multiset
/// of cards (in any order the rule lets it draw them): every such order
/// has the same chance, Π ff(shoe_c, D_c) / ff(N, |D|) (ff the falling
/// factorial), so the mass is that times the number of orders `W(D)`,
/// an integer of the graph alone. A state's mass is then its first
/// parent's times one factor, `W(D)/W(P) · (shoe_c − P_c) / (N − |P|)`:
/// one multiplication per state instead of a sum over its parents.
///
/// The draws that end a hand depend only on its total (and, for the
/// first draw, the blackjack): states that end alike form a group, and an
/// outcome's chance is Σ over groups of the group's mass times the shoe's
/// cards of the classes that end it so, less Σ over states of a state's
/// mass times its own cards of those classes (few: most states hold none
/// of the classes that end them). Issue 73.
pub struct DealerGraph {
    /// The states in the order found (a parent before its children).
    states: Vec<State>,
    /// Each group's draws that end the hand: runs of classes, one outcome each.
    groups: Vec<Vec<Run>>,
    /// The states group by group: `members[member_ends[g − 1]..member_ends[g]]`.
    members: Vec<u32>,
    member_ends: Vec<usize>,
    /// (state, the state's cards of the classes that end it with an
    /// outcome), where not 0, outcome by outcome: `held[held_ends[o − 1]..held_ends[o]]`.
    held: Vec<(u32, f64)>,
    held_ends: [usize; OUTCOMES],
    /// The states are in the order of their cards drawn: those of `n`
    /// cards end at `depth_ends[n]`.
    depth_ends: Vec<usize>,
    /// Where each class's `shoe_c − P_c` begin in the walk's table of
    /// them, and how many of a class any parent holds, plus one.
    factor_at: [usize; CLASSES],
    factor_rows: [usize; CLASSES],
}

/// One state: the cards drawn into it (the up card not counted).
struct State {
    /// The parent it was first found from.
    parent: u32,
    /// Its factor's place in the walk's table of `shoe_c − P_c`: the
    /// class that led here, less the parent's cards of that class.
    factor: u16,
    group: u32,
    /// W(D) / W(P): the orders of this state's cards over its parent's.
    orders: f64,
}

/// Draws of the classes `from..to` that end a hand with `outcome`.
struct Run {
    from: u8,
    to: u8,
    outcome: u8,
}

/// 1 / n for the cards an eight-deck shoe can hold (0 for none), made
/// at compile time: a shoe's walk divides by no card count.
const RECIPROCALS: [f64; 417] = {
    let mut r = [0f64; 417];
    let mut n = 1;
    while n < r.len() {
        r[n] = 1.0 / n as f64;
        n += 1;
    }
    r
};

/// Σ f(x) over `xs`, lane by lane, in four running sums held in
/// registers, so that the additions overlap (one sum waits on each
/// addition before the next).
fn sum4<T, const L: usize>(xs: &[T], f: impl Fn(&T) -> [f64; L]) -> [f64; L] {
    let add = |a: [f64; L], b: [f64; L]| -> [f64; L] { std::array::from_fn(|l| a[l] + b[l]) };
    let mut acc = [[0f64; L]; 4];
    let mut quads = xs.chunks_exact(4);
    for q in &mut quads {
        acc = [add(acc[0], f(&q[0])), add(acc[1], f(&q[1])), add(acc[2], f(&q[2])), add(acc[3], f(&q[3]))];
    }
    for (a, x) in acc.iter_mut().zip(quads.remainder()) {
        *a = add(*a, f(x));
    }
    add(add(acc[0], acc[1]), add(acc[2], acc[3]))
}

/// Whether a dealer on `total` (soft or not) stops drawing (BJ 22).
fn stands(total: u8, soft: bool, hits_soft_17: bool) -> bool {
    total > 17 || (total == 17 && !(soft && hits_soft_17))
}

impl DealerGraph {
    pub fn new(up: usize, hits_soft_17: bool) -> DealerGraph {
        // The multisets, their children (a state index, or a final
        // outcome), breadth first: every parent has one card fewer than
        // its children and comes before them.
        let mut counts: Vec<[u8; CLASSES]> = vec![[0; CLASSES]];
        let mut found: Vec<(u32, u8)> = vec![(0, 0)];
        let mut edges: Vec<[Result<u32, u8>; CLASSES]> = Vec::new();
        let mut index: HashMap<[u8; CLASSES], u32> = HashMap::new();
        index.insert([0; CLASSES], 0);
        let mut s = 0;
        while s < counts.len() {
            let here = counts[s];
            let hard: u16 = (up as u16 + 1) + here.iter().enumerate().map(|(i, &n)| (i as u16 + 1) * u16::from(n)).sum::<u16>();
            let aces = up == 0 || here[0] > 0;
            let mut next = [Err(0u8); CLASSES];
            for (c, slot) in next.iter_mut().enumerate() {
                let hard = hard + c as u16 + 1;
                let aces = aces || c == 0;
                if s == 0 && hard == 11 && aces {
                    *slot = Err(BLACKJACK as u8);
                    continue;
                }
                if hard > 21 {
                    *slot = Err(BUST as u8);
                    continue;
                }
                let (total, soft) = if aces && hard + 10 <= 21 { (hard as u8 + 10, true) } else { (hard as u8, false) };
                if stands(total, soft, hits_soft_17) {
                    *slot = Err(total - 17);
                    continue;
                }
                let mut child = here;
                child[c] += 1;
                let n = counts.len() as u32;
                let id = *index.entry(child).or_insert(n);
                if id == n {
                    counts.push(child);
                    found.push((s as u32, c as u8));
                }
                *slot = Ok(id);
            }
            edges.push(next);
            s += 1;
        }
        // The orders in which each state's cards can be drawn: the sum of
        // its parents' (parents come first).
        let mut orders = vec![0f64; counts.len()];
        orders[0] = 1.0;
        for (s, next) in edges.iter().enumerate() {
            for t in next.iter().filter_map(|e| e.ok()) {
                orders[t as usize] += orders[s];
            }
        }
        // How many of each class a parent holds, at most: the rows of the
        // walk's table of `shoe_c − P_c`.
        let mut factor_rows = [1usize; CLASSES];
        for &(parent, class) in found.iter().skip(1) {
            let c = usize::from(class);
            factor_rows[c] = factor_rows[c].max(usize::from(counts[parent as usize][c]) + 1);
        }
        let mut factor_at = [0usize; CLASSES];
        for c in 1..CLASSES {
            factor_at[c] = factor_at[c - 1] + factor_rows[c - 1];
        }
        let mut g = DealerGraph {
            states: Vec::with_capacity(counts.len()),
            groups: Vec::new(),
            members: Vec::new(),
            member_ends: Vec::new(),
            held: Vec::new(),
            held_ends: [0; OUTCOMES],
            depth_ends: Vec::new(),
            factor_at,
            factor_rows,
        };
        let mut held: Vec<(u8, u32, f64)> = Vec::new();
        // A state's ending draws: each class's outcome, or none.
        let mut group_of: HashMap<[Option<u8>; CLASSES], u32> = HashMap::new();
        for (s, next) in edges.iter().enumerate() {
            let (parent, class) = found[s];
            let drawn: u16 = counts[s].iter().map(|&n| u16::from(n)).sum();
            let ends: [Option<u8>; CLASSES] = std::array::from_fn(|c| next[c].err());
            let fresh = g.groups.len() as u32;
            let group = *group_of.entry(ends).or_insert(fresh);
            if group == fresh {
                let mut runs = Vec::new();
                let mut c = 0;
                while c < CLASSES {
                    let Some(outcome) = ends[c] else {
                        c += 1;
                        continue;
                    };
                    let from = c;
                    while c < CLASSES && ends[c] == Some(outcome) {
                        c += 1;
                    }
                    runs.push(Run { from: from as u8, to: c as u8, outcome });
                }
                g.groups.push(runs);
            }
            for o in 0..OUTCOMES as u8 {
                let has: u16 = (0..CLASSES).filter(|&c| ends[c] == Some(o)).map(|c| u16::from(counts[s][c])).sum();
                if has > 0 {
                    held.push((o, s as u32, f64::from(has)));
                }
            }
            g.states.push(State {
                parent,
                factor: (factor_at[usize::from(class)] + usize::from(counts[parent as usize][usize::from(class)])) as u16,
                group,
                orders: if s == 0 { 1.0 } else { orders[s] / orders[parent as usize] },
            });
            // Breadth first: the cards drawn never go down (a state's
            // children, one card more, are found after every state of as
            // many cards as it).
            let drawn = usize::from(drawn);
            debug_assert!(g.depth_ends.len() <= drawn + 1, "state {s} is found after a state of more cards");
            if g.depth_ends.len() <= drawn {
                g.depth_ends.resize(drawn + 1, s);
            }
            g.depth_ends[drawn] = s + 1;
        }
        held.sort_by_key(|&(o, s, _)| (o, s));
        let mut members: Vec<(u32, u32)> = g.states.iter().enumerate().map(|(s, st)| (st.group, s as u32)).collect();
        members.sort_unstable();
        g.member_ends = (0..g.groups.len() as u32).map(|k| members.partition_point(|&(x, _)| x <= k)).collect();
        g.members = members.into_iter().map(|(_, s)| s).collect();
        for o in 0..OUTCOMES {
            g.held_ends[o] = held.partition_point(|&(x, ..)| usize::from(x) <= o);
        }
        g.held = held.into_iter().map(|(_, s, has)| (s, has)).collect();
        g
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The outcomes' probabilities for a shoe of `shoe` cards by class
    /// (the up card already out), `mass` a scratch buffer.
    pub fn dist(&self, shoe: &[u16; CLASSES], mass: &mut Vec<[f64; 1]>) -> Dist {
        let [d] = self.dists(&[*shoe], mass);
        d
    }

    /// The outcomes' probabilities for `L` shoes in one walk of the graph
    /// (issue 73: a state's place in the graph is read once for all of
    /// them, and the lanes' arithmetic runs side by side), `mass` a
    /// scratch buffer. Each lane takes the same operations in the same
    /// order as a walk of its shoe alone: a shoe's figures do not depend
    /// on the shoes it is walked with.
    pub fn dists<const L: usize>(&self, shoes: &[[u16; CLASSES]; L], mass: &mut Vec<[f64; L]>) -> [Dist; L] {
        let cards: [[f64; L]; CLASSES] = std::array::from_fn(|c| std::array::from_fn(|l| f64::from(shoes[l][c])));
        // The shoe's cards of the classes before each class.
        let mut before = [[0f64; L]; 16];
        for c in 0..CLASSES {
            before[c + 1] = std::array::from_fn(|l| before[c][l] + cards[c][l]);
        }
        // The scratch buffer: each state's mass, then the factors
        // `shoe_c − P_c` of each class and count a parent holds of it.
        // Every entry is written before it is read (a parent comes before
        // its children): the buffer is not cleared between shoes.
        let states = self.states.len();
        let rows = self.factor_at[CLASSES - 1] + self.factor_rows[CLASSES - 1];
        if mass.len() != states + rows {
            mass.clear();
            mass.resize(states + rows, [0.0; L]);
        }
        let (mass, factors) = mass.split_at_mut(states);
        for (c, count) in cards.iter().enumerate() {
            for has in 0..self.factor_rows[c] {
                if let Some(slot) = factors.get_mut(self.factor_at[c] + has) {
                    *slot = std::array::from_fn(|l| count[l] - has as f64);
                }
            }
        }
        // 1 / (N − n) for the cards n drawn (0 at the shoe's end: no state
        // past it has a chance).
        let totals: [u16; L] = std::array::from_fn(|l| shoes[l].iter().sum());
        let per_left = |n: usize| -> [f64; L] {
            std::array::from_fn(|l| {
                let left = usize::from(totals[l].saturating_sub(n as u16));
                match RECIPROCALS.get(left) {
                    Some(&r) => r,
                    None => 1.0 / left as f64,
                }
            })
        };
        // Each state's mass over the cards left after it, the states of
        // each number of cards drawn in turn. A state the shoe cannot give
        // has a factor 0 on its chain, so every later factor (negative
        // where its class ran out) multiplies a zero.
        if let Some(first) = mass.first_mut() {
            *first = per_left(0);
        }
        let mut start = 1;
        for (drawn, &end) in self.depth_ends.iter().enumerate().skip(1) {
            let left = per_left(drawn);
            for s in start..end {
                let state = &self.states[s];
                let parent = mass[state.parent as usize];
                let factor = factors.get(usize::from(state.factor)).copied().unwrap_or([0.0; L]);
                mass[s] = std::array::from_fn(|l| parent[l] * state.orders * factor[l] * left[l]);
            }
            start = end;
        }
        // Outcome by outcome, the lanes side by side.
        let mut out = [[0.0; L]; OUTCOMES];
        let mut start = 0;
        for (runs, &end) in self.groups.iter().zip(&self.member_ends) {
            let m = sum4(&self.members[start..end], |&s| mass[s as usize]);
            start = end;
            for r in runs {
                let (to, from) = (&before[usize::from(r.to) & 15], &before[usize::from(r.from) & 15]);
                let o = &mut out[usize::from(r.outcome) % OUTCOMES];
                *o = std::array::from_fn(|l| o[l] + m[l] * (to[l] - from[l]));
            }
        }
        let mut start = 0;
        for (o, &end) in out.iter_mut().zip(&self.held_ends) {
            let held = &self.held[start..end];
            start = end;
            if !held.is_empty() {
                let h = sum4(held, |&(s, has)| mass[s as usize].map(|m| m * has));
                *o = std::array::from_fn(|l| o[l] - h[l]);
            }
        }
        std::array::from_fn(|l| std::array::from_fn(|o| out[o][l]))
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

    /// The states are in the order of their cards drawn, each number's
    /// states one run, the runs covering every state but the empty hand.
    #[test]
    fn the_states_run_by_cards_drawn() {
        for h17 in [false, true] {
            for up in 0..CLASSES {
                let g = DealerGraph::new(up, h17);
                assert_eq!(g.depth_ends.first(), Some(&1), "the empty hand alone has no card");
                assert!(g.depth_ends.windows(2).all(|w| w[0] < w[1]), "up {up} h17 {h17}: {:?}", g.depth_ends);
                assert_eq!(g.depth_ends.last(), Some(&g.len()));
            }
        }
    }

    /// Shoes walked together give each shoe's figures exactly, to the
    /// last bit, as its walk alone (issue 73: the analysis's figures, and
    /// the artifact's digest, do not depend on how its shoes were batched).
    #[test]
    fn shoes_walked_together_give_each_shoe_its_own_figures_to_the_bit() {
        let shoes: [[u16; CLASSES]; 4] =
            [[24, 24, 23, 24, 24, 24, 24, 24, 24, 96], [2, 5, 1, 3, 0, 4, 2, 6, 1, 9], [6, 1, 2, 2, 3, 1, 0, 2, 4, 5], [0, 0, 0, 0, 0, 0, 0, 0, 0, 3]];
        for h17 in [false, true] {
            for up in 0..CLASSES {
                let g = DealerGraph::new(up, h17);
                let alone: Vec<Dist> = shoes.iter().map(|s| g.dist(s, &mut Vec::new())).collect();
                let four = g.dists(&shoes, &mut Vec::new());
                let two = g.dists(&[shoes[2], shoes[0]], &mut Vec::new());
                for (l, d) in four.iter().enumerate() {
                    assert_eq!(d.map(f64::to_bits), alone[l].map(f64::to_bits), "up {up} h17 {h17} shoe {l}");
                }
                assert_eq!(two[0].map(f64::to_bits), alone[2].map(f64::to_bits));
                assert_eq!(two[1].map(f64::to_bits), alone[0].map(f64::to_bits));
            }
        }
    }
}
