//! Draw poker without a sequential royal (issue 73): the order of the
//! cards never counts, and a hold's value is linear in its final hands'
//! counts, so each pay vector is folded into the tables once — a subset's
//! count of hands by entry becomes one figure, Σ count × pay — and a deal's
//! 32 holds are valued by one Möbius transform of 32 integers instead of
//! 32 rows of entries. Only the hold chosen is then counted entry by entry,
//! from its supersets in the deal. The integers are the ones the general
//! path makes ([`super::Deal::solve`]), summed in another order.

use super::{DrawTables, NONE, Sums};

impl DrawTables {
    /// For every subset of size 0 to 4: Σ over entries of the hands
    /// containing it, times the entry's pay per coin (within i64: at most
    /// C(52, 5) hands, pays under the compiler's bound of 10^9).
    pub(super) fn folded(&self, pays: &[u64]) -> Vec<i64> {
        self.counts.chunks_exact(self.entries.max(1)).map(|row| row.iter().zip(pays).map(|(&c, &p)| i64::from(c) * p as i64).sum()).collect()
    }
}

/// A pay vector and the tables folded with it.
pub(super) struct Folded<'a> {
    pub pays: &'a [u64],
    pub folded: &'a [i64],
}

/// Add one deal's optimal play (cards ascending, `weight` deals of its
/// suit class) to `sums` for each pay vector: the greatest value, the
/// first in hold order among equal ones, as [`super::Deal::solve`] picks.
pub(super) fn solve(tables: &DrawTables, cards: &[u8; 5], vectors: &[Folded<'_>], set_unit: &[i128], weight: u128, sums: &mut [Sums]) {
    let idx = tables.ix.subsets(cards);
    let full = tables.hand_entry[idx[31]];
    for (v, sums) in vectors.iter().zip(sums.iter_mut()) {
        // What every hold's final hands pay, as sets: the hands containing
        // the hold, less those containing a discarded card (a superset
        // Möbius transform over the deal's subsets).
        let mut w = [0i64; 32];
        for (m, x) in w.iter_mut().enumerate().take(31) {
            *x = v.folded[idx[m]];
        }
        w[31] = if full == NONE { 0 } else { v.pays[usize::from(full)] as i64 };
        held_only(&mut w);
        let value: [i128; 32] = std::array::from_fn(|m| i128::from(w[m]) * set_unit[5 - m.count_ones() as usize]);
        let best = (1..32).fold(0, |b, m| if value[m] > value[b] { m } else { b });
        // The chosen hold's final hands by entry, from its supersets.
        let mut counts = [0i64; 16];
        let free = 31 & !best;
        let mut extra = free;
        loop {
            let m = best | extra;
            let sign = if extra.count_ones() % 2 == 0 { 1 } else { -1 };
            if m == 31 {
                if full != NONE {
                    counts[usize::from(full)] += sign;
                }
            } else {
                let row = &tables.counts[idx[m] * tables.entries..(idx[m] + 1) * tables.entries];
                for (c, &x) in counts.iter_mut().zip(row) {
                    *c += sign * i64::from(x);
                }
            }
            if extra == 0 {
                break;
            }
            extra = (extra - 1) & free;
        }
        sums.add_hold(&counts, set_unit[5 - best.count_ones() as usize], value[best], weight);
    }
}

/// [`super::keep_held_only`] for one integer per subset, written as whole
/// halves taken from halves (issue 73: for each card, every subset without
/// it sits `2^card` places before the same subset with it), which the
/// compiler turns into vector subtractions.
fn held_only(x: &mut [i64; 32]) {
    for bit in 0..5 {
        let step = 1 << bit;
        for block in x.chunks_exact_mut(2 * step) {
            let (without, with) = block.split_at_mut(step);
            for (a, b) in without.iter_mut().zip(with.iter()) {
                *a -= b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Deal, factorial, falling, pay_vectors, places, royal_completions, suit_classes};
    use super::*;

    fn game(name: &str) -> game_core::draw_poker::DrawPokerGame {
        let path = format!("{}/../assets/paytables/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        crate::poker_compile::compile_draw(&path, &text).map(|(g, _)| g).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// The halves' transform is the general one, on values that differ
    /// in every subset.
    #[test]
    fn halves_transform_as_the_general_one() {
        let mut a: [i64; 32] = std::array::from_fn(|m| (m as i64 * 7919) % 1009 - 500);
        let mut b = a;
        held_only(&mut a);
        super::super::keep_held_only(&mut b, |x, sup| *x -= sup);
        assert_eq!(a, b);
        assert_ne!(a, std::array::from_fn(|m| (m as i64 * 7919) % 1009 - 500));
    }

    /// The folded path adds to the sums exactly what the general path
    /// (every hold's entries, then the pays) adds, deal by deal, for every
    /// pay vector: every 97th suit class of a natural deck and of one with
    /// wild deuces, and of the joker's deck.
    #[test]
    fn folded_pays_choose_and_count_as_the_general_path() {
        for name in ["jacks-or-better-9-6.ron", "deuces-wild.ron", "joker-poker.ron"] {
            let game = game(name);
            let tables = DrawTables::build(&game, 2);
            assert!(tables.sequential.is_none(), "{name}");
            let rest = tables.ix.deck() as u64 - 5;
            let lcm = falling(rest, 5);
            let unit: Vec<i128> = (0..=5).map(|drawn| i128::from(lcm / falling(rest, drawn))).collect();
            let set_unit: Vec<i128> = (0..=5u32).map(|drawn| unit[drawn as usize] * i128::from(factorial(drawn))).collect();
            let vectors = pay_vectors(&game);
            assert!(vectors.len() >= 2, "{name}: the royal's bonus at the top coin makes a second vector");
            let folded: Vec<Vec<i64>> = vectors.iter().map(|(_, p)| tables.folded(p)).collect();
            let plain: Vec<Folded<'_>> = vectors.iter().zip(&folded).map(|((_, pays), folded)| Folded { pays, folded }).collect();
            let entries = game.entries.len();
            let mut counts = [[0i64; 16]; 32];
            let mut deals = 0;
            for &(cards, weight) in suit_classes(tables.ix.deck()).iter().step_by(97) {
                let mut fast: Vec<Sums> = vectors.iter().map(|_| Sums::new(entries)).collect();
                solve(&tables, &cards, &plain, &set_unit, u128::from(weight), &mut fast);
                tables.hold_counts(&cards, &mut counts);
                let deal =
                    Deal { counts: &counts, royals: royal_completions(&cards), places: places(&cards), unit: &unit, set_unit: &set_unit, sequential: None };
                for ((_, pays), fast) in vectors.iter().zip(&fast) {
                    let mut general = Sums::new(entries);
                    deal.solve(pays, u128::from(weight), 1, &[], &mut general);
                    assert_eq!(fast.entries, general.entries, "{name} {cards:?} {pays:?}");
                    assert_eq!(fast.squares.total(), general.squares.total(), "{name} {cards:?} {pays:?}");
                }
                deals += 1;
            }
            assert!(deals > 1_000, "{name}: {deals} deals compared");
        }
    }
}
