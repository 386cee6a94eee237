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
    /// [`each_hand_with_top`]), with the table indices of its 31 subsets of
    /// size 0 to 4 (in no particular order). They are built incrementally:
    /// for hands `[a, b, c, d, top]`, the 16 subsets of `{b, c, d, top}` are
    /// fixed across the inner loop over `a`, and each of them with `a`
    /// added (`a` the smallest card) is a fixed base plus C(a, 1) = a.
    /// Each index comes times `stride` (a table's row length: the row's
    /// start, with no multiplication per use, issue 73).
    pub fn each_hand_with_top_indexed(&self, top: u8, stride: usize, mut f: impl FnMut([u8; 5], &[usize; 31])) {
        let mut idx = [0usize; 31];
        let mut base_with_a = [0usize; 15];
        for d in 3..top {
            for c in 2..d {
                for b in 1..c {
                    let upper = [b, c, d, top];
                    for m in 0..16usize {
                        let (mut without_a, mut with_a, mut k) = (0usize, 0usize, 0usize);
                        for (i, &x) in upper.iter().enumerate() {
                            if m & (1 << i) != 0 {
                                k += 1;
                                without_a += self.binom[x as usize][k] as usize;
                                with_a += self.binom[x as usize][k + 1] as usize;
                            }
                        }
                        idx[m] = (self.offset[k] + without_a) * stride;
                        // With `a`, all four upper cards make the full hand,
                        // which is not in the table (m = 15).
                        if k < 4 {
                            base_with_a[m] = (self.offset[k + 1] + with_a) * stride;
                        }
                    }
                    for a in 0..b {
                        let at = a as usize * stride;
                        for (slot, base) in idx[16..].iter_mut().zip(&base_with_a) {
                            *slot = base + at;
                        }
                        f([a, b, c, d, top], &idx);
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

    /// The incremental indices are the same set as `subsets` gives, hand
    /// by hand, in the same hand order.
    #[test]
    fn incremental_subset_indices_equal_the_direct_ones() {
        for deck in [52usize, 53] {
            let ix = SubsetIndex::new(deck);
            let mut direct = Vec::new();
            each_hand(deck, |h| direct.push(h));
            let mut n = 0;
            for top in 4..deck as u8 {
                ix.each_hand_with_top_indexed(top, 1, |h, idx| {
                    assert_eq!(h, direct[n]);
                    let mut got = idx.to_vec();
                    let mut want = ix.subsets(&h)[..31].to_vec();
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "{h:?}");
                    n += 1;
                });
            }
            assert_eq!(n, ix.hands());
        }
    }
}
