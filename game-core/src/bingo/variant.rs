//! The four bingo variants of the text and their cards' geometry
//! (machines-and-bingo.md §2.11): 90 balls on 9 × 3 (B-14), 80 on 4 × 4
//! (B-63 to B-65), 75 on 5 × 5 with a free centre (B-69 to B-72), 30 on
//! 3 × 3 (B-79 to B-82).

use serde::{Deserialize, Serialize};

/// A bingo variant: how many balls, and the card they are played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// 1–90, 9 columns × 3 rows, 5 numbers a row, 1 or 2 a column (B-14).
    Ninety,
    /// 1–80, 4 × 4, every cell numbered, 4 a column (B-64, B-65).
    Eighty,
    /// 1–75, 5 × 5, B-I-N-G-O columns of 15, the centre free (B-70 to B-72).
    SeventyFive,
    /// 1–30, 3 × 3, 3 a column (B-81, B-82).
    Thirty,
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::Ninety, Variant::Eighty, Variant::SeventyFive, Variant::Thirty];

    /// The balls in the drum, numbered 1 to this (B-21, B-63, B-69, B-79).
    pub fn balls(self) -> u8 {
        match self {
            Variant::Ninety => 90,
            Variant::Eighty => 80,
            Variant::SeventyFive => 75,
            Variant::Thirty => 30,
        }
    }

    /// The ball drawn at `index` of the drum (0 to `balls() - 1`): every
    /// draw reads its balls by this call (B-18).
    pub fn ball(self, index: usize) -> u8 {
        (index + 1) as u8
    }

    pub fn rows(self) -> usize {
        match self {
            Variant::Ninety | Variant::Thirty => 3,
            Variant::Eighty => 4,
            Variant::SeventyFive => 5,
        }
    }

    pub fn columns(self) -> usize {
        match self {
            Variant::Ninety => 9,
            Variant::Eighty => 4,
            Variant::SeventyFive => 5,
            Variant::Thirty => 3,
        }
    }

    pub fn cells(self) -> usize {
        self.rows() * self.columns()
    }

    /// The numbers a card holds (B-14: 15; B-65: 16; B-71: 24; B-82: 9).
    pub fn numbers(self) -> usize {
        match self {
            Variant::Ninety => 15,
            Variant::Eighty => 16,
            Variant::SeventyFive => 24,
            Variant::Thirty => 9,
        }
    }

    /// The numbers column `c` draws from, inclusive (B-14: 1–9, 10–19, …,
    /// 80–90; B-65: 1–20 …; B-71: B 1–15, I 16–30 …; B-82: 1–10 …).
    pub fn column_range(self, c: usize) -> (u8, u8) {
        let c = c as u8;
        match self {
            Variant::Ninety => match c {
                0 => (1, 9),
                8 => (80, 90),
                _ => (c * 10, c * 10 + 9),
            },
            Variant::Eighty => (c * 20 + 1, c * 20 + 20),
            Variant::SeventyFive => (c * 15 + 1, c * 15 + 15),
            Variant::Thirty => (c * 10 + 1, c * 10 + 10),
        }
    }

    /// The column a ball belongs to.
    pub fn column_of(self, ball: u8) -> usize {
        (0..self.columns()).find(|&c| (self.column_range(c).0..=self.column_range(c).1).contains(&ball)).unwrap_or(0)
    }

    /// The free cell (B-70, B-72): the 75-ball card's centre.
    pub fn free_cell(self) -> Option<usize> {
        (self == Variant::SeventyFive).then_some(12)
    }

    /// Whether every cell but the free centre holds a number on every card
    /// (all but 90-ball, whose blanks fall differently card to card).
    pub fn fixed_geometry(self) -> bool {
        self != Variant::Ninety
    }

    /// The column letter of a 75-ball call (B-77).
    pub fn letter(self, ball: u8) -> Option<char> {
        (self == Variant::SeventyFive).then(|| ['B', 'I', 'N', 'G', 'O'][self.column_of(ball)])
    }

    /// The variant's name, as the paytable and the menu say it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Ninety => "90",
            Variant::Eighty => "80",
            Variant::SeventyFive => "75",
            Variant::Thirty => "30",
        }
    }

    /// The cell at row `r`, column `c`.
    pub fn cell(self, r: usize, c: usize) -> usize {
        r * self.columns() + c
    }

    /// Every row as a mask of cells.
    pub fn row_masks(self) -> Vec<u32> {
        (0..self.rows()).map(|r| (0..self.columns()).fold(0, |m, c| m | 1 << self.cell(r, c))).collect()
    }

    /// Every column as a mask of cells.
    pub fn column_masks(self) -> Vec<u32> {
        (0..self.columns()).map(|c| (0..self.rows()).fold(0, |m, r| m | 1 << self.cell(r, c))).collect()
    }

    /// The two diagonals of a square card (none on 90-ball).
    pub fn diagonal_masks(self) -> Vec<u32> {
        let n = self.rows();
        if n != self.columns() {
            return Vec::new();
        }
        vec![(0..n).fold(0, |m, i| m | 1 << self.cell(i, i)), (0..n).fold(0, |m, i| m | 1 << self.cell(i, n - 1 - i))]
    }

    /// The four corner cells.
    pub fn corners_mask(self) -> u32 {
        let (r, c) = (self.rows() - 1, self.columns() - 1);
        1 << self.cell(0, 0) | 1 << self.cell(0, c) | 1 << self.cell(r, 0) | 1 << self.cell(r, c)
    }

    /// Every cell.
    pub fn full_mask(self) -> u32 {
        (1u32 << self.cells()) - 1
    }
}
