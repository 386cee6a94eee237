//! Winning patterns as paytable data: lines (rows; columns and diagonals
//! where the variant allows, B-5 a, B-66, B-74 a, B-84 a), several lines,
//! four corners (B-74 b, B-84 c), the full card (B-5 b, B-66 b, B-73 a,
//! B-83) and any shape drawn on the grid (B-73 b, B-76). A pattern is a
//! list of cell masks: it is complete when every cell of one of them is
//! marked (the free and blank cells always are, B-72).

use serde::{Deserialize, Serialize};

use super::variant::Variant;

/// How a paytable names a pattern's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// Any one line of those allowed (B-67, B-75: the operator may restrict
    /// lines to rows, columns or diagonals).
    Line {
        #[serde(default = "yes")]
        rows: bool,
        #[serde(default)]
        columns: bool,
        #[serde(default)]
        diagonals: bool,
    },
    /// Any `count` different lines of those allowed.
    Lines {
        count: u8,
        #[serde(default = "yes")]
        rows: bool,
        #[serde(default)]
        columns: bool,
        #[serde(default)]
        diagonals: bool,
    },
    /// The four corner cells.
    FourCorners,
    /// Every number of the card.
    FullCard,
    /// A shape drawn on the grid, row by row: `X` a cell of the pattern,
    /// `.` any other.
    Drawn(Vec<String>),
}

fn yes() -> bool {
    true
}

/// A shape the variant cannot play, named.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ShapeError {
    #[error("a {0}-ball card has no columns or diagonals to play as lines: only its rows are lines (B-5 a)")]
    NotRows(&'static str),
    #[error("no kind of line is allowed (rows, columns and diagonals all false)")]
    NoLines,
    #[error("{count} lines: a {variant}-ball card has {lines} lines of the kinds allowed")]
    TooManyLines { count: u8, variant: &'static str, lines: usize },
    #[error("the drawing has {found} rows where a {variant}-ball card has {rows}")]
    DrawnRows { found: usize, variant: &'static str, rows: usize },
    #[error("row {row} of the drawing has {found} cells where the card has {columns} (write X or .)")]
    DrawnColumns { row: usize, found: usize, columns: usize },
    #[error("row {row} of the drawing holds {ch:?}: write X for a cell of the pattern, . for any other")]
    DrawnChar { row: usize, ch: char },
    #[error("the drawing marks no numbered cell")]
    DrawnEmpty,
    #[error(
        "a 90-ball card's blanks fall differently on every card (B-14), so a pattern on it must be made of whole rows (lines, several lines, the full card)"
    )]
    NotWholeRows,
}

impl Shape {
    /// The shape's masks on `variant`'s grid.
    pub fn masks(&self, variant: Variant) -> Result<Vec<u32>, ShapeError> {
        let lines = |rows: bool, columns: bool, diagonals: bool| -> Result<Vec<u32>, ShapeError> {
            if variant.rows() != variant.columns() && (columns || diagonals) {
                return Err(ShapeError::NotRows(variant.name()));
            }
            let mut v = Vec::new();
            if rows {
                v.extend(variant.row_masks());
            }
            if columns {
                v.extend(variant.column_masks());
            }
            if diagonals {
                v.extend(variant.diagonal_masks());
            }
            if v.is_empty() { Err(ShapeError::NoLines) } else { Ok(v) }
        };
        let masks = match self {
            Shape::Line { rows, columns, diagonals } => lines(*rows, *columns, *diagonals)?,
            Shape::Lines { count, rows, columns, diagonals } => {
                let all = lines(*rows, *columns, *diagonals)?;
                let k = usize::from(*count);
                if k == 0 || k > all.len() {
                    return Err(ShapeError::TooManyLines { count: *count, variant: variant.name(), lines: all.len() });
                }
                combinations(&all, k)
            }
            Shape::FourCorners => vec![variant.corners_mask()],
            Shape::FullCard => vec![variant.full_mask()],
            Shape::Drawn(rows) => {
                if rows.len() != variant.rows() {
                    return Err(ShapeError::DrawnRows { found: rows.len(), variant: variant.name(), rows: variant.rows() });
                }
                let mut mask = 0u32;
                for (r, line) in rows.iter().enumerate() {
                    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
                    if chars.len() != variant.columns() {
                        return Err(ShapeError::DrawnColumns { row: r + 1, found: chars.len(), columns: variant.columns() });
                    }
                    for (c, ch) in chars.into_iter().enumerate() {
                        match ch {
                            'X' | 'x' => mask |= 1 << variant.cell(r, c),
                            '.' => {}
                            ch => return Err(ShapeError::DrawnChar { row: r + 1, ch }),
                        }
                    }
                }
                if mask & !variant.free_cell().map_or(0, |f| 1 << f) == 0 {
                    return Err(ShapeError::DrawnEmpty);
                }
                vec![mask]
            }
        };
        if variant == Variant::Ninety && masks.iter().any(|&m| !whole_rows(variant, m)) {
            return Err(ShapeError::NotWholeRows);
        }
        let mut masks = masks;
        masks.sort_unstable();
        masks.dedup();
        Ok(masks)
    }
}

fn whole_rows(variant: Variant, mask: u32) -> bool {
    variant.row_masks().into_iter().filter(|r| mask & r != 0).fold(0, |m, r| m | r) == mask
}

/// The unions of every `k` of `lines`.
fn combinations(lines: &[u32], k: usize) -> Vec<u32> {
    fn go(lines: &[u32], k: usize, from: usize, acc: u32, out: &mut Vec<u32>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for i in from..lines.len() {
            go(lines, k - 1, i + 1, acc | lines[i], out);
        }
    }
    let mut out = Vec::new();
    go(lines, k, 0, 0, &mut out);
    out
}

/// A compiled pattern: its name, its masks, and what it pays per credit
/// bet on the card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pattern {
    pub name: String,
    pub masks: Vec<u32>,
    pub pays: u64,
}

impl Pattern {
    pub fn complete(&self, marked: u32) -> bool {
        self.masks.iter().any(|&m| m & !marked == 0)
    }

    /// Whether one more marked cell would complete it (B-95's "one to
    /// go"): the cells that would.
    pub fn one_to_go(&self, marked: u32) -> u32 {
        self.masks.iter().map(|&m| m & !marked).filter(|missing| missing.count_ones() == 1).fold(0, |a, b| a | b)
    }
}

/// The pattern a card pays (M-13: only its highest): the index of the
/// complete pattern that pays most (the first listed on a tie), if any.
pub fn best(patterns: &[Pattern], marked: u32) -> Option<usize> {
    let mut found: Option<usize> = None;
    for (i, p) in patterns.iter().enumerate() {
        if found.is_none_or(|f| p.pays > patterns[f].pays) && p.complete(marked) {
            found = Some(i);
        }
    }
    found
}
