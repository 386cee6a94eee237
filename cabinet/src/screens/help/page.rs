//! A help page as data (M-8, M-31): the blocks a kind's rules are written
//! in, and how they are laid out into pages of the game area. Pure layout,
//! no Bevy: the sheet's drawing lives in the plugin.

pub use game_host::help::Block;

/// The page's text area (design units) and the type sizes.
pub const WIDTH: f32 = 1760.0;
pub const HEIGHT: f32 = 500.0;
pub const HEADING_SIZE: f32 = 34.0;
pub const TEXT_SIZE: f32 = 26.0;
pub const TABLE_SIZE: f32 = 24.0;
const HEADING_H: f32 = 54.0;
const TEXT_LINE_H: f32 = 34.0;
pub const ROW_H: f32 = 34.0;
const GAP: f32 = 12.0;
/// A payline's small diagram: its width, and a cell's height.
pub const LINE_W: f32 = 160.0;
pub const LINE_CELL: f32 = 14.0;

/// The widest a character of the shipped bold face is on average, in ems,
/// with room for word wrapping: a paragraph's height is never under its
/// drawn height.
const CHAR_EM: f32 = 0.66;

/// The characters of one wrapped line of a paragraph.
fn chars_per_line() -> usize {
    (WIDTH / (TEXT_SIZE * CHAR_EM)).floor() as usize
}

/// Where each column of a table starts, from the page's left edge: every
/// column after the first as wide as its widest cell (at least 220 units),
/// standing at the page's right; the first takes the rest (issue 45: an
/// English spot name ran into the column after it).
pub fn column_lefts(header: &[String], rows: &[Vec<String>]) -> Vec<f32> {
    let n = header.len().max(rows.iter().map(Vec::len).max().unwrap_or(0)).max(1);
    let widest =
        |c: usize| std::iter::once(header).chain(rows.iter().map(Vec::as_slice)).filter_map(|r| r.get(c)).map(|t| t.chars().count()).max().unwrap_or(0);
    let need: Vec<f32> = (0..n).map(|c| (widest(c) as f32 * TABLE_SIZE * CHAR_EM + 28.0).max(220.0)).collect();
    let others: f32 = need[1..].iter().sum();
    // The first column keeps at least its own need, the others sharing
    // what is left in proportion when they would not fit.
    let squeeze = if others > 0.0 { ((WIDTH - need[0].min(WIDTH * 0.34)) / others).min(1.0) } else { 1.0 };
    let mut lefts = vec![0.0; n];
    let mut right = WIDTH;
    for c in (1..n).rev() {
        right -= need[c] * squeeze;
        lefts[c] = right;
    }
    lefts
}

/// How many diagrams of paylines stand on one row.
pub fn lines_per_row() -> usize {
    (WIDTH / LINE_W).floor() as usize
}

/// The height of a row of payline diagrams for a window of `rows` rows.
pub fn line_row_h(rows: u8) -> f32 {
    f32::from(rows) * LINE_CELL + 34.0
}

/// The height `block` takes on a page, its gap below included.
pub fn height(block: &Block) -> f32 {
    GAP + match block {
        Block::Heading(_) => HEADING_H,
        Block::Text(t) => t.chars().count().div_ceil(chars_per_line()).max(1) as f32 * TEXT_LINE_H,
        Block::Table { rows, .. } => (rows.len() + 1) as f32 * ROW_H,
        Block::Lines { rows, lines } => lines.len().div_ceil(lines_per_row()).max(1) as f32 * line_row_h(*rows),
    }
}

/// The blocks laid out into pages of [`HEIGHT`], in order: a table too long
/// for what is left of a page goes on by rows (its header repeated), and
/// a heading never ends a page. A block taller than a whole page (never a
/// table) stands alone on its page.
pub fn paginate(blocks: &[Block]) -> Vec<Vec<Block>> {
    let mut pages: Vec<Vec<Block>> = Vec::new();
    let mut page: Vec<Block> = Vec::new();
    let mut used = 0.0;
    let mut queue: std::collections::VecDeque<Block> = blocks.iter().cloned().collect();
    while let Some(block) = queue.pop_front() {
        let h = height(&block);
        // A heading goes where the next block's first part can follow it.
        let needs = match (&block, queue.front()) {
            (Block::Heading(_), Some(Block::Table { .. })) => h + GAP + 2.0 * ROW_H,
            (Block::Heading(_), Some(next)) => h + height(next).min(HEIGHT - h),
            _ => h,
        };
        if used + needs <= HEIGHT {
            used += h;
            page.push(block);
            continue;
        }
        if let Block::Table { header, rows } = &block {
            let room = ((HEIGHT - used - GAP) / ROW_H).floor() as usize;
            if room >= 2 && rows.len() > 1 {
                let fit = (room - 1).min(rows.len() - 1);
                page.push(Block::Table { header: header.clone(), rows: rows[..fit].to_vec() });
                queue.push_front(Block::Table { header: header.clone(), rows: rows[fit..].to_vec() });
                pages.push(std::mem::take(&mut page));
                used = 0.0;
                continue;
            }
        }
        if page.is_empty() {
            // Taller than a page on its own.
            page.push(block);
            pages.push(std::mem::take(&mut page));
            used = 0.0;
            continue;
        }
        pages.push(std::mem::take(&mut page));
        used = 0.0;
        queue.push_front(block);
    }
    if !page.is_empty() {
        pages.push(page);
    }
    pages
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn table(n: usize) -> Block {
        Block::Table { header: vec!["hand".into(), "1".into()], rows: (0..n).map(|i| vec![format!("row {i}"), i.to_string()]).collect() }
    }

    /// Every row of every block, in order, as the pages give them back.
    fn flatten(pages: &[Vec<Block>]) -> Vec<String> {
        let mut out = Vec::new();
        for b in pages.iter().flatten() {
            match b {
                Block::Heading(t) | Block::Text(t) => out.push(t.clone()),
                Block::Table { rows, .. } => out.extend(rows.iter().map(|r| r.join("|"))),
                Block::Lines { lines, .. } => out.push(format!("{} lines", lines.len())),
            }
        }
        out
    }

    #[test]
    fn every_block_is_on_a_page_once_in_order_and_no_page_overflows() {
        let mut blocks = vec![Block::Heading("Rules".into()), Block::Text("x".repeat(900)), Block::Heading("Lines".into())];
        blocks.push(Block::Lines { rows: 3, lines: (0..20).map(|i| vec![i % 3; 5]).collect() });
        blocks.push(Block::Heading("Prizes".into()));
        blocks.push(table(30));
        blocks.push(Block::Text("end".into()));
        let pages = paginate(&blocks);
        let mut want = Vec::new();
        for b in &blocks {
            match b {
                Block::Heading(t) | Block::Text(t) => want.push(t.clone()),
                Block::Table { rows, .. } => want.extend(rows.iter().map(|r| r.join("|"))),
                Block::Lines { lines, .. } => want.push(format!("{} lines", lines.len())),
            }
        }
        assert_eq!(flatten(&pages), want);
        assert!(pages.len() >= 3, "30 table rows and a long paragraph need three pages: {}", pages.len());
        for (i, p) in pages.iter().enumerate() {
            let h: f32 = p.iter().map(height).sum();
            assert!(h <= HEIGHT, "page {i} is {h} high");
            assert!(!matches!(p.last(), Some(Block::Heading(_))), "page {i} ends on a heading");
        }
        // A split table repeats its header on the next page.
        let tables: Vec<&Block> = pages.iter().flatten().filter(|b| matches!(b, Block::Table { .. })).collect();
        assert!(tables.len() >= 2);
        for t in tables {
            let Block::Table { header, .. } = t else { unreachable!() };
            assert_eq!(header, &vec!["hand".to_owned(), "1".to_owned()]);
        }
    }

    #[test]
    fn a_paragraph_is_given_a_line_for_every_hundred_odd_characters() {
        assert_eq!(height(&Block::Text("a".into())), GAP + TEXT_LINE_H);
        let per = chars_per_line();
        assert!((90..=110).contains(&per), "{per}");
        assert_eq!(height(&Block::Text("a".repeat(per + 1))), GAP + 2.0 * TEXT_LINE_H);
        assert_eq!(height(&table(3)), GAP + 4.0 * ROW_H);
    }

    #[test]
    fn a_table_s_columns_are_as_wide_as_their_widest_cell_and_never_run_into_each_other() {
        let strings = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        // A paytable: four columns of 220 at the right, the names taking the rest.
        let lefts = column_lefts(&strings(&["hand", "1", "2", "3"]), &[strings(&["Royal Flush", "250", "500", "750"])]);
        assert_eq!(lefts, vec![0.0, WIDTH - 660.0, WIDTH - 440.0, WIDTH - 220.0]);
        // Sic bo's spots in English: the label's column widens to hold it.
        let header = strings(&["spot", "pays", "return"]);
        let rows = vec![strings(&["Small", "SMALL  4-10  1:1", "97.22%"]), strings(&["Any triple", "ANY TRIPLE  32:1", "91.67%"])];
        let lefts = column_lefts(&header, &rows);
        let drawn = |t: &str| t.chars().count() as f32 * TABLE_SIZE * CHAR_EM;
        for row in std::iter::once(&header).chain(&rows) {
            for c in 0..row.len() - 1 {
                assert!(lefts[c] + drawn(&row[c]) < lefts[c + 1], "{:?} runs into column {}", row[c], c + 1);
            }
            assert!(lefts[row.len() - 1] + drawn(&row[row.len() - 1]) <= WIDTH);
        }
    }

    #[test]
    fn a_short_page_stays_whole_and_nothing_gives_no_page() {
        assert!(paginate(&[]).is_empty());
        let blocks = vec![Block::Heading("a".into()), Block::Text("b".into())];
        assert_eq!(paginate(&blocks), vec![blocks]);
    }
}
