//! A bingo card and its generator, drawn through the core's RNG: the
//! layout of the variant exactly (B-14, B-64/B-65, B-70 to B-72, B-81/B-82),
//! the cards of one round all different with no line repeated (B-14,
//! B-38 c).

use meters::GameRng;
use serde::{Deserialize, Serialize};

use super::variant::Variant;

/// One card: its numbers cell by cell, row by row; 0 is a blank (90-ball)
/// or the free centre (75-ball).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    pub cells: Vec<u8>,
}

/// A card that breaks its variant's layout, named.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LayoutError {
    #[error("{found} cells where a {variant}-ball card has {cells}")]
    Cells { variant: &'static str, found: usize, cells: usize },
    #[error("cell {cell}: {number} is outside column {column}'s numbers {low}–{high}")]
    Column { cell: usize, number: u8, column: usize, low: u8, high: u8 },
    #[error("row {row} holds {found} numbers, not {wanted}")]
    Row { row: usize, found: usize, wanted: usize },
    #[error("column {column} holds {found} numbers: {allowed}")]
    ColumnCount { column: usize, found: usize, allowed: &'static str },
    #[error("{number} appears twice")]
    Repeated { number: u8 },
    #[error("column {column} is not in ascending order")]
    Order { column: usize },
    #[error("the centre must be free on a 75-ball card, and no other cell")]
    Centre,
}

impl Card {
    /// The numbers on the card, in cell order.
    pub fn numbers(&self) -> impl Iterator<Item = u8> + '_ {
        self.cells.iter().copied().filter(|&n| n != 0)
    }

    /// The cells that hold no number (blanks and the free centre), which
    /// count as marked in every pattern (B-72).
    pub fn free_mask(&self) -> u32 {
        self.cells.iter().enumerate().filter(|(_, n)| **n == 0).fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The cells marked by `drawn` (a bit per ball number, bit `n` for
    /// ball `n`), the free cells included.
    pub fn marked(&self, drawn: u128) -> u32 {
        self.cells.iter().enumerate().filter(|(_, n)| **n == 0 || drawn >> **n & 1 == 1).fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The cell holding `ball`, if the card has it.
    pub fn cell_of(&self, ball: u8) -> Option<usize> {
        if ball == 0 { None } else { self.cells.iter().position(|&n| n == ball) }
    }

    /// The numbers of the cells in `mask`, sorted: a line's combination.
    fn combination(&self, mask: u32) -> Vec<u8> {
        let mut v: Vec<u8> = self.cells.iter().enumerate().filter(|(i, n)| mask >> i & 1 == 1 && **n != 0).map(|(_, n)| *n).collect();
        v.sort_unstable();
        v
    }

    /// Checks the card against its variant's layout.
    pub fn check(&self, variant: Variant) -> Result<(), LayoutError> {
        let (rows, cols) = (variant.rows(), variant.columns());
        if self.cells.len() != variant.cells() {
            return Err(LayoutError::Cells { variant: variant.name(), found: self.cells.len(), cells: variant.cells() });
        }
        let mut seen = 0u128;
        for (i, &n) in self.cells.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let column = i % cols;
            let (low, high) = variant.column_range(column);
            if !(low..=high).contains(&n) {
                return Err(LayoutError::Column { cell: i, number: n, column, low, high });
            }
            if seen >> n & 1 == 1 {
                return Err(LayoutError::Repeated { number: n });
            }
            seen |= 1 << n;
        }
        for c in 0..cols {
            let column: Vec<u8> = (0..rows).map(|r| self.cells[variant.cell(r, c)]).filter(|&n| n != 0).collect();
            if column.windows(2).any(|w| w[0] >= w[1]) {
                return Err(LayoutError::Order { column: c });
            }
            let (ok, allowed) = match variant {
                Variant::Ninety => ((1..=2).contains(&column.len()), "1 or 2 (B-14)"),
                Variant::SeventyFive if c == 2 => (column.len() == 4, "4, the centre free (B-71)"),
                _ => (column.len() == rows, "every cell numbered"),
            };
            if !ok {
                return Err(LayoutError::ColumnCount { column: c, found: column.len(), allowed });
            }
        }
        if variant == Variant::Ninety {
            for r in 0..rows {
                let found = (0..cols).filter(|&c| self.cells[variant.cell(r, c)] != 0).count();
                if found != 5 {
                    return Err(LayoutError::Row { row: r, found, wanted: 5 });
                }
            }
        }
        let free: Vec<usize> = (0..self.cells.len()).filter(|&i| self.cells[i] == 0).collect();
        if variant.fixed_geometry() && free != variant.free_cell().into_iter().collect::<Vec<_>>() {
            return Err(LayoutError::Centre);
        }
        Ok(())
    }

    /// A card of `variant`, uniform over every valid card: the layout
    /// (90-ball: each row's five columns, drawn again until every column
    /// holds one or two numbers), then each column's numbers drawn without
    /// replacement from its range and set in ascending order.
    pub fn generate(variant: Variant, rng: &mut impl GameRng) -> Card {
        let (rows, cols) = (variant.rows(), variant.columns());
        let mut used = vec![true; variant.cells()];
        if variant == Variant::Ninety {
            loop {
                used = vec![false; variant.cells()];
                for r in 0..rows {
                    for c in rng.draw_without_replacement(cols, 5) {
                        used[variant.cell(r, c)] = true;
                    }
                }
                if (0..cols).all(|c| (1..=2).contains(&(0..rows).filter(|&r| used[variant.cell(r, c)]).count())) {
                    break;
                }
            }
        }
        if let Some(free) = variant.free_cell() {
            used[free] = false;
        }
        let mut cells = vec![0u8; variant.cells()];
        for c in 0..cols {
            let at: Vec<usize> = (0..rows).map(|r| variant.cell(r, c)).filter(|&i| used[i]).collect();
            let (low, high) = variant.column_range(c);
            let mut numbers: Vec<u8> = rng.draw_without_replacement(usize::from(high - low) + 1, at.len()).into_iter().map(|k| low + k as u8).collect();
            numbers.sort_unstable();
            for (i, n) in at.into_iter().zip(numbers) {
                cells[i] = n;
            }
        }
        Card { cells }
    }

    /// `count` cards for one round, all different, no line's combination
    /// on two of them (B-14, B-38 c): a card that repeats one is drawn
    /// again. `lines` are the variant's line masks.
    pub fn generate_set(variant: Variant, count: usize, lines: &[u32], rng: &mut impl GameRng) -> Vec<Card> {
        let mut cards: Vec<Card> = Vec::with_capacity(count);
        let mut combinations: Vec<Vec<u8>> = Vec::new();
        while cards.len() < count {
            let card = Card::generate(variant, rng);
            let own: Vec<Vec<u8>> = lines.iter().map(|&m| card.combination(m)).collect();
            if cards.contains(&card) || own.iter().any(|c| combinations.contains(c)) {
                continue;
            }
            combinations.extend(own);
            cards.push(card);
        }
        cards
    }

    /// Every line of `variant` (rows; columns and diagonals on square
    /// cards), for the no-repeated-line rule.
    pub fn line_masks(variant: Variant) -> Vec<u32> {
        let mut v = variant.row_masks();
        if variant.rows() == variant.columns() {
            v.extend(variant.column_masks());
            v.extend(variant.diagonal_masks());
        }
        v
    }
}
