//! Card subsets of a deck (52 or 53 cards) by their colex rank, and the
//! enumeration of every five-card hand in that order: the indexing both
//! poker analyses (`draw_math`, `stud_math`) count their tables with.

/// Binomial coefficients C(n, k) for n ≤ 53, k ≤ 5.
fn binom_table() -> [[u64; 6]; 54] {
    let mut b = [[0u64; 6]; 54];
    for row in b.iter_mut() {
        row[0] = 1;
    }
    for n in 1..54 {
        for k in 1..6 {
            b[n][k] = b[n - 1][k - 1] + b[n - 1][k];
        }
    }
    b
}

/// The index of every subset of size 0 to 4 of a deck in one table (the
/// subsets of each size after those of smaller sizes, each by colex rank),
/// and of every five-card hand among hands (its colex rank).
pub struct SubsetIndex {
    deck: usize,
    binom: [[u64; 6]; 54],
    offset: [usize; 5],
}

impl SubsetIndex {
    pub fn new(deck: usize) -> SubsetIndex {
        let binom = binom_table();
        let mut offset = [0usize; 5];
        for k in 1..5 {
            offset[k] = offset[k - 1] + binom[deck][k - 1] as usize;
        }
        SubsetIndex { deck, binom, offset }
    }

    pub fn deck(&self) -> usize {
        self.deck
    }

    /// C(n, k) for n ≤ 53, k ≤ 5.
    pub fn binom(&self, n: usize, k: usize) -> u64 {
        self.binom[n][k]
    }

    /// Where the subsets of size `k` (0 to 4) start in the table.
    pub fn offset(&self, k: usize) -> usize {
        self.offset[k]
    }

    /// How many subsets of size 0 to 4 the deck has (the table's length).
    pub fn small(&self) -> usize {
        self.offset[4] + self.binom[self.deck][4] as usize
    }

    /// How many five-card hands the deck has.
    pub fn hands(&self) -> usize {
        self.binom[self.deck][5] as usize
    }

    /// The indices of the 32 subsets of five sorted cards (bit i = card i);
    /// the full hand's (31) is its rank among hands.
    pub fn subsets(&self, c: &[u8; 5]) -> [usize; 32] {
        let mut rank = [0usize; 32];
        for m in 1..32usize {
            let top = 31 - (m as u32).leading_zeros() as usize;
            rank[m] = rank[m & !(1 << top)] + self.binom[c[top] as usize][m.count_ones() as usize] as usize;
        }
        for (m, r) in rank.iter_mut().enumerate().take(31) {
            *r += self.offset[m.count_ones() as usize];
        }
        rank
    }

    /// Every five-card hand whose highest card is `top`, in colex order (as
    /// [`each_hand_with_top`]), with the colex ranks of its five subsets of
    /// four cards among the four-card subsets. For hands `[a, b, c, d,
    /// top]`, `{b, c, d, top}` is fixed across the inner loop over `a`, and
    /// each of the other four is a fixed base plus C(a, 1) = a (issue 73).
    pub fn each_hand_with_top_fours(&self, top: u8, mut f: impl FnMut([u8; 5], [usize; 5])) {
        let b = |n: u8, k: usize| self.binom[usize::from(n)][k] as usize;
        for d in 3..top {
            for c in 2..d {
                for bb in 1..c {
                    let upper = b(bb, 1) + b(c, 2) + b(d, 3) + b(top, 4);
                    let without_b = b(c, 2) + b(d, 3) + b(top, 4);
                    let without_c = b(bb, 2) + b(d, 3) + b(top, 4);
                    let without_d = b(bb, 2) + b(c, 3) + b(top, 4);
                    let without_top = b(bb, 2) + b(c, 3) + b(d, 4);
                    for a in 0..bb {
                        let x = usize::from(a);
                        f([a, bb, c, d, top], [upper, without_b + x, without_c + x, without_d + x, without_top + x]);
                    }
                }
            }
        }
    }

    /// Every subset of four cards `[a, b, c, d]`, in colex order, with its
    /// colex rank among four-card subsets and those of its four subsets of
    /// three cards among three-card subsets; as in
    /// [`SubsetIndex::each_hand_with_top_fours`], each but `{b, c, d}` is a
    /// base plus `a` (issue 73).
    pub fn each_four_with_threes(&self, mut f: impl FnMut(usize, [usize; 4])) {
        let b = |n: u8, k: usize| self.binom[usize::from(n)][k] as usize;
        for d in 3..self.deck as u8 {
            for c in 2..d {
                for bb in 1..c {
                    let four = b(bb, 2) + b(c, 3) + b(d, 4);
                    let upper = b(bb, 1) + b(c, 2) + b(d, 3);
                    let without_b = b(c, 2) + b(d, 3);
                    let without_c = b(bb, 2) + b(d, 3);
                    let without_d = b(bb, 2) + b(c, 3);
                    for a in 0..usize::from(bb) {
                        f(four + a, [upper, without_b + a, without_c + a, without_d + a]);
                    }
                }
            }
        }
    }

    /// The index of one sorted subset (of size 5: its rank among hands).
    pub fn of(&self, sorted: &[u8]) -> usize {
        let r: u64 = sorted.iter().enumerate().map(|(i, &c)| self.binom[c as usize][i + 1]).sum();
        if sorted.len() == 5 { r as usize } else { self.offset[sorted.len()] + r as usize }
    }
}

/// Every five-card hand whose highest card is `top`, ascending cards, in
/// colex order (their ranks run from C(top, 5) up by one).
pub fn each_hand_with_top(top: u8, mut f: impl FnMut([u8; 5])) {
    for d in 3..top {
        for c in 2..d {
            for b in 1..c {
                for a in 0..b {
                    f([a, b, c, d, top]);
                }
            }
        }
    }
}

/// Every five-card hand of a deck of `deck` cards, in colex order.
pub fn each_hand(deck: usize, mut f: impl FnMut([u8; 5])) {
    for top in 4..deck as u8 {
        each_hand_with_top(top, &mut f);
    }
}

/// Every subset of `size` cards of a deck of `deck` cards, cards ascending
/// (in lexicographic order).
pub fn each_subset(deck: u8, size: usize, mut f: impl FnMut(&[u8])) {
    let size = size.min(usize::from(deck));
    let mut c: Vec<u8> = (0..size as u8).collect();
    loop {
        f(&c);
        // The rightmost card that can move up, and the cards after it
        // right behind it.
        let Some(i) = (0..size).rev().find(|&i| usize::from(c[i]) < usize::from(deck) - size + i) else { return };
        c[i] += 1;
        for j in i + 1..size {
            c[j] = c[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_come_in_rank_order_and_subsets_index_one_table() {
        let ix = SubsetIndex::new(52);
        let mut n = 0usize;
        let mut seen = vec![false; ix.small()];
        each_hand(52, |h| {
            let idx = ix.subsets(&h);
            assert_eq!(idx[31], n);
            assert_eq!(ix.of(&h), n);
            for (m, &i) in idx.iter().enumerate().take(31) {
                if n.is_multiple_of(101) {
                    let sub: Vec<u8> = (0..5).filter(|b| m & (1 << b) != 0).map(|b| h[b]).collect();
                    assert_eq!(ix.of(&sub), i);
                }
                seen[i] = true;
            }
            n += 1;
        });
        assert_eq!(n, ix.hands());
        assert!(seen.iter().all(|&s| s), "every subset of size 0 to 4 has its own index");
    }

    /// The incremental four-card ranks are those `subsets` gives, hand by
    /// hand, in the same hand order.
    #[test]
    fn incremental_four_card_ranks_equal_the_direct_ones() {
        for deck in [52usize, 53] {
            let ix = SubsetIndex::new(deck);
            let mut direct = Vec::new();
            each_hand(deck, |h| direct.push(h));
            let mut n = 0;
            for top in 4..deck as u8 {
                ix.each_hand_with_top_fours(top, |h, fours| {
                    assert_eq!(h, direct[n]);
                    let mut got: Vec<usize> = fours.iter().map(|r| r + ix.offset(4)).collect();
                    let idx = ix.subsets(&h);
                    let mut want: Vec<usize> = [15, 23, 27, 29, 30].iter().map(|&m| idx[m]).collect();
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "{h:?}");
                    n += 1;
                });
            }
            assert_eq!(n, ix.hands());
        }
    }

    /// The incremental ranks of four-card subsets and of their three-card
    /// subsets are the direct ones, and every four-card subset comes once.
    #[test]
    fn incremental_three_card_ranks_equal_the_direct_ones() {
        let ix = SubsetIndex::new(53);
        let mut n = 0;
        ix.each_four_with_threes(|four, _| {
            assert_eq!(four, n);
            n += 1;
        });
        assert_eq!(n as u64, ix.binom(53, 4));
        let mut fours = Vec::new();
        each_subset(53, 4, |s| fours.push([s[0], s[1], s[2], s[3]]));
        fours.sort_by_key(|s| ix.of(s));
        let mut i = 0;
        ix.each_four_with_threes(|four, threes| {
            let s = fours[i];
            assert_eq!(ix.of(&s) - ix.offset(4), four);
            let mut want: Vec<usize> = (0..4)
                .map(|j| {
                    let t: Vec<u8> = (0..4).filter(|&x| x != j).map(|x| s[x]).collect();
                    ix.of(&t) - ix.offset(3)
                })
                .collect();
            let mut got = threes.to_vec();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{s:?}");
            i += 1;
        });
    }

    /// Every subset of a size once, ascending within, as many as C(n, k).
    #[test]
    fn each_subset_gives_every_subset_once() {
        let ix = SubsetIndex::new(52);
        for size in 0..5 {
            let mut seen = std::collections::HashSet::new();
            each_subset(52, size, |s| {
                assert!(s.windows(2).all(|w| w[0] < w[1]) && s.len() == size);
                assert!(seen.insert(ix.of(s)), "{s:?} twice");
            });
            assert_eq!(seen.len() as u64, ix.binom(52, size));
        }
    }
}
