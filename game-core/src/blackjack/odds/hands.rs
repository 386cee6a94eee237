//! Every hand a player can hold, by number (issue 73): the multisets of
//! cards whose hard total is 21 or less (3,083 of them), each with its
//! totals and the hand each card makes of it, so that the solver keeps
//! its values in arrays indexed by hand, not in hash tables keyed by
//! cards.

use super::dealer::CLASSES;
use super::player::{Counts, KeyMap, hard_aces, pack, total};

/// The hand a card makes of a hand it busts.
pub const BUSTED: u32 = u32::MAX;

/// The hands, the empty hand first, each before the hands one card more
/// makes of it.
pub struct Hands {
    counts: Vec<Counts>,
    hard: Vec<u8>,
    aces: Vec<u8>,
    /// The number of cards.
    size: Vec<u8>,
    next: Vec<[u32; CLASSES]>,
    ids: KeyMap<u32>,
    /// Every hand the play can reach, by hand, from the hands of two
    /// cards (index 0), or from the split hands of a pair of class `p`,
    /// `p` then another card (index `1 + p`): each hand a card is drawn to
    /// while its total is under 21 (the shoe's cards aside: a hand the
    /// shoe cannot give is in the list, and never weighs anything).
    reach: Vec<Vec<u32>>,
}

impl Hands {
    pub fn new() -> Hands {
        let mut h =
            Hands { counts: Vec::new(), hard: Vec::new(), aces: Vec::new(), size: Vec::new(), next: Vec::new(), ids: KeyMap::default(), reach: Vec::new() };
        h.push([0; CLASSES]);
        let mut i = 0;
        while i < h.counts.len() {
            let here = h.counts[i];
            let mut next = [BUSTED; CLASSES];
            for (c, slot) in next.iter_mut().enumerate() {
                let mut child = here;
                child[c] += 1;
                if hard_aces(&child).0 <= 21 {
                    *slot = match h.ids.get(&pack(&child)) {
                        Some(&id) => id,
                        None => h.push(child),
                    };
                }
            }
            h.next.push(next);
            i += 1;
        }
        let two: Vec<u32> = (0..CLASSES).flat_map(|a| (a..CLASSES).map(move |b| (a, b))).map(|(a, b)| h.two(a, b)).collect();
        h.reach = std::iter::once(h.reachable(two)).chain((0..CLASSES).map(|p| h.reachable((0..CLASSES).map(|c| h.two(p, c)).collect()))).collect();
        h
    }

    /// The hands reachable from `starts` (themselves included), drawing a
    /// card while the total is under 21 (BJ 21: no hit at 21), by number.
    fn reachable(&self, starts: Vec<u32>) -> Vec<u32> {
        let mut seen = vec![false; self.len()];
        let mut stack = starts;
        let mut out = Vec::new();
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            out.push(id);
            let (hard, aces) = self.hard_aces(id);
            if total(hard, aces) < 21 {
                stack.extend(self.next[id as usize].iter().copied().filter(|&n| n != BUSTED && !seen[n as usize]));
            }
        }
        out.sort_unstable();
        out
    }

    /// The hands the play can reach without a split (`None`), or in the
    /// split hands of a pair of class `pair`.
    pub fn reach(&self, pair: Option<usize>) -> &[u32] {
        let at = pair.map_or(0, |p| p + 1);
        self.reach.get(at).map_or(&[], Vec::as_slice)
    }

    fn push(&mut self, c: Counts) -> u32 {
        let id = self.counts.len() as u32;
        let (hard, aces) = hard_aces(&c);
        self.counts.push(c);
        self.hard.push(hard);
        self.aces.push(aces);
        self.size.push(c.iter().sum());
        self.ids.insert(pack(&c), id);
        id
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The hand of these cards, if it is not bust.
    pub fn id(&self, c: &Counts) -> Option<u32> {
        self.ids.get(&pack(c)).copied()
    }

    /// The hand of two cards of the classes `a` and `b` (never bust).
    pub fn two(&self, a: usize, b: usize) -> u32 {
        let first = self.next(0, a);
        if first == BUSTED { BUSTED } else { self.next(first, b) }
    }

    pub fn counts(&self, id: u32) -> &Counts {
        &self.counts[id as usize]
    }

    /// The hand's hard total (aces 1) and its aces.
    pub fn hard_aces(&self, id: u32) -> (u8, u8) {
        (self.hard[id as usize], self.aces[id as usize])
    }

    /// The hand's number of cards.
    pub fn size(&self, id: u32) -> u8 {
        self.size[id as usize]
    }

    /// The hand a card of class `c` makes of hand `id`, or [`BUSTED`].
    pub fn next(&self, id: u32, c: usize) -> u32 {
        self.next[id as usize][c]
    }
}

impl Default for Hands {
    fn default() -> Hands {
        Hands::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every multiset of classes of hard total 21 or less is a hand, once,
    /// with the hands each card makes of it: counted against an
    /// independent enumeration of the multisets class by class.
    #[test]
    fn every_hand_of_21_or_less_has_a_number_and_its_cards_lead_on() {
        fn count(c: usize, sum: u8) -> usize {
            if c == CLASSES {
                return 1;
            }
            let v = c as u8 + 1;
            (0..).take_while(|k| sum + v * k <= 21).map(|k| count(c + 1, sum + v * k)).sum()
        }
        let h = Hands::new();
        assert_eq!(h.len(), count(0, 0));
        assert_eq!(h.len(), 3083);
        for id in 0..h.len() as u32 {
            assert_eq!(h.id(h.counts(id)), Some(id));
            assert_eq!(usize::from(h.size(id)), h.counts(id).iter().map(|&n| usize::from(n)).sum::<usize>());
            for c in 0..CLASSES {
                let mut child = *h.counts(id);
                child[c] += 1;
                match h.next(id, c) {
                    BUSTED => assert!(hard_aces(&child).0 > 21),
                    n => assert_eq!(h.counts(n), &child),
                }
            }
        }
        assert_eq!(h.counts(h.two(9, 0)), &[1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    }

    /// The hands the play reaches: the starts (every hand of two cards;
    /// a split's pair card and any other), and every hand a card makes of
    /// a listed hand under 21, and no other: each listed hand of more
    /// cards than a start is one card more than a listed hand under 21.
    #[test]
    fn the_reach_of_a_context_is_its_starts_and_every_card_drawn_under_21() {
        let h = Hands::new();
        let under_21 = |id: u32| {
            let (hard, aces) = h.hard_aces(id);
            total(hard, aces) < 21
        };
        for pair in std::iter::once(None).chain((0..CLASSES).map(Some)) {
            let list = h.reach(pair);
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{pair:?}: by number, once each");
            let starts: Vec<u32> = match pair {
                None => (0..CLASSES).flat_map(|a| (a..CLASSES).map(move |b| (a, b))).map(|(a, b)| h.two(a, b)).collect(),
                Some(p) => (0..CLASSES).map(|c| h.two(p, c)).collect(),
            };
            let listed = |id: u32| list.binary_search(&id).is_ok();
            assert!(starts.iter().all(|&s| listed(s)), "{pair:?}: every start");
            for &id in list {
                for c in 0..CLASSES {
                    let next = h.next(id, c);
                    if next != BUSTED && under_21(id) {
                        assert!(listed(next), "{pair:?}: {:?} drawn to", h.counts(next));
                    }
                }
                let parents = (0..CLASSES).filter(|&c| h.counts(id)[c] > 0).any(|c| {
                    let mut less = *h.counts(id);
                    less[c] -= 1;
                    h.id(&less).is_some_and(|p| listed(p) && under_21(p))
                });
                assert!(starts.contains(&id) || parents, "{pair:?}: {:?} is reached", h.counts(id));
                if let Some(p) = pair {
                    assert!(h.counts(id)[p] > 0, "a split hand holds its pair card");
                }
            }
        }
        assert!(h.reach(None).len() > 3_000, "nearly every hand: {}", h.reach(None).len());
    }
}
