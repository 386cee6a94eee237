//! From the designer's RON to the game-core model, with every check the
//! rules and common sense ask for; each error names its file and line.

use std::collections::HashMap;

use game_core::double_up::DoubleUpRule;
use game_core::reels::{BetRules, FreeGamesRule, MAX_REELS, ReelGame, ScatterRule, Strip, Symbol, SymbolId, SymbolKind};

use crate::error::{PaytableError, Reporter};
use crate::format::{KindSource, ReelPaytable};
use crate::locate::Path;

/// The source without a UTF-8 byte-order mark, which editors on Windows
/// write at the start of a file (issue 18: such a file was "not a paytable").
pub(crate) fn without_bom(src: &str) -> &str {
    src.strip_prefix('\u{feff}').unwrap_or(src)
}

/// Parse a RON source (the file name is for messages).
pub fn parse(file: &str, src: &str) -> Result<ReelPaytable, PaytableError> {
    let src = without_bom(src);
    ron::from_str(src).map_err(|e| syntax_error(file, src, &e))
}

/// A RON syntax error, with a message a designer can act on where RON's
/// own is terse.
pub(crate) fn syntax_error(file: &str, src: &str, e: &ron::error::SpannedError) -> PaytableError {
    // Where RON stopped: a number it read as a whole number followed by a
    // fraction (`100.5`) stops it at the point.
    // RON counts columns in characters: a line may hold accented names.
    let rest: String =
        src.lines().nth(e.position.line.saturating_sub(1)).map(|l| l.chars().skip(e.position.col.saturating_sub(1)).collect()).unwrap_or_default();
    let fraction = rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_digit());
    let message = match &e.code {
        ron::Error::IntegerOutOfBounds => {
            "a number out of range: pays, weights, counts and credits are whole numbers from 0 to 18446744073709551615 (no negative value)".to_owned()
        }
        _ if fraction => "a number with a fraction: pays, weights, counts and credits are whole numbers (credits per credit bet, never a fraction)".to_owned(),
        other => other.to_string(),
    };
    PaytableError::Syntax { file: file.to_owned(), line: e.position.line, column: e.position.col, message }
}

/// Read, parse and validate a paytable file.
pub fn load(path: &std::path::Path) -> Result<ReelGame, PaytableError> {
    load_source(path).map(|s| s.game)
}

/// Parse and validate a source into the game model.
pub fn compile(file: &str, src: &str) -> Result<ReelGame, PaytableError> {
    let p = parse(file, src)?;
    validate(&Reporter { file, src: without_bom(src) }, &p)
}

fn root() -> Path {
    Path::default()
}

/// The strips of `reels`, every problem noted; None when any reel is
/// unusable (the checks that need the strips are then skipped).
fn strips(
    e: &mut Problems<'_>,
    ids: &HashMap<&str, SymbolId>,
    reels: &[Vec<String>],
    weights: Option<&Vec<Vec<u64>>>,
    at: Path,
    weights_at: Path,
) -> Option<Vec<Strip>> {
    let before = e.count();
    let weights = match weights {
        Some(w) if w.len() != reels.len() => {
            e.at(weights_at.clone(), format!("{} weight lists for {} reels", w.len(), reels.len()));
            None
        }
        other => other,
    };
    let mut out = Vec::new();
    for (i, reel) in reels.iter().enumerate() {
        if reel.is_empty() {
            e.at(at.clone().index(i), format!("reel {} is empty", i + 1));
            continue;
        }
        let mut symbols = Vec::with_capacity(reel.len());
        for (j, s) in reel.iter().enumerate() {
            match ids.get(s.as_str()) {
                Some(&id) => symbols.push(id),
                None => e.at(at.clone().index(i).index(j), format!("unknown symbol {s:?} on reel {}, stop {j}", i + 1)),
            }
        }
        let w = match weights {
            None => None,
            Some(w) => {
                let w = &w[i];
                if w.len() != reel.len() {
                    e.at(weights_at.clone().index(i), format!("reel {} has {} stops but {} weights", i + 1, reel.len(), w.len()));
                } else if w.iter().all(|&x| x == 0) {
                    e.at(weights_at.clone().index(i), format!("the weights of reel {} are all zero", i + 1));
                } else if w.iter().try_fold(0u64, |a, &x| a.checked_add(x)).is_none() {
                    e.at(weights_at.clone().index(i), format!("the weights of reel {} overflow", i + 1));
                }
                Some(w.clone())
            }
        };
        out.push(Strip { symbols, weights: w });
    }
    (e.count() == before).then_some(out)
}

/// Whether a symbol `counts` (the symbol, or a wild standing for it) can
/// ever show in the window of `rows` rows on this strip: at some row of
/// some stop that can be drawn. A symbol on a weight-0 stop still shows
/// whenever a stop above it within the window is drawn (issue 36: such a
/// paytable was once refused). An expanding wild changes nothing here:
/// where it shows, it shows.
fn can_show(strip: &Strip, rows: usize, counts: impl Fn(SymbolId) -> bool) -> bool {
    (0..strip.len()).filter(|&stop| strip.weight(stop) > 0).any(|stop| (0..rows).any(|r| counts(strip.at(stop, r))))
}

/// A sticky wild (issue 50) holds the reels it filled through the free
/// games: it must expand (the exact chain's state is the set of filled
/// reels), on a ways game with free games that are not retriggered (the
/// chain runs over a known number of free games).
fn sticky_rules(e: &mut Problems<'_>, at: &crate::locate::Path, p: &ReelPaytable, wild: &str, expanding: bool) {
    if !p.ways {
        e.at(at.clone(), format!("the wild {wild} is sticky: sticky wilds are built for ways games (`ways: true`)"));
    }
    if !expanding {
        e.at(at.clone(), format!("the wild {wild} is sticky but does not expand: a sticky wild holds the reel it fills (`expanding: true`)"));
    }
    match p.scatter.as_ref().and_then(|sc| sc.free_games.as_ref()) {
        None => e.at(at.clone(), format!("the wild {wild} is sticky in free games, and the game has none")),
        Some(f) if f.retrigger => e.at(
            at.clone(),
            format!("the wild {wild} is sticky and the free games retrigger: a sticky wild's free games are the number awarded (`retrigger: false`)"),
        ),
        Some(_) => {}
    }
}

/// A wild's substitution list (issue 50), each id a regular symbol of the
/// game, once; refused at the wild's line otherwise.
fn substitution_list(
    e: &mut Problems<'_>,
    at: &crate::locate::Path,
    p: &ReelPaytable,
    ids: &HashMap<&str, SymbolId>,
    wild: &str,
    list: &[String],
) -> Vec<SymbolId> {
    if !p.ways {
        e.at(at.clone(), format!("the wild {wild} names what it substitutes: substitution lists are built for ways games (`ways: true`)"));
    }
    if list.is_empty() {
        e.at(at.clone(), format!("the wild {wild} substitutes nothing: list at least one symbol, or leave `substitutes` out for every symbol"));
    }
    let mut out: Vec<SymbolId> = Vec::new();
    for id in list {
        match ids.get(id.as_str()) {
            None => e.at(at.clone(), format!("the wild {wild} substitutes {id:?}, which is not a symbol of the game")),
            Some(_) if id == wild => e.at(at.clone(), format!("the wild {wild} substitutes for itself")),
            Some(&x) => match p.symbols[usize::from(x)].kind {
                KindSource::Regular if out.contains(&x) => e.at(at.clone(), format!("the wild {wild} lists {id:?} twice")),
                KindSource::Regular => out.push(x),
                KindSource::Wild { .. } => {
                    e.at(at.clone(), format!("the wild {wild} substitutes {id:?}, another wild: a wild stands for regular symbols only"))
                }
                KindSource::Scatter => {
                    e.at(at.clone(), format!("the wild {wild} substitutes {id:?}, the scatter: a scatter pays anywhere and is never substituted"))
                }
                KindSource::Bonus => e.at(
                    at.clone(),
                    format!("the wild {wild} substitutes {id:?}, the bonus symbol: it pays through the hold-and-spin feature and is never substituted"),
                ),
            },
        }
    }
    out
}

/// The most scatters the window can show (reel `r` showing `rows[r]`
/// rows); at most, since an expanding wild covers a scatter beside it.
fn max_scatters(strips: &[Strip], rows: &[usize], scatter: SymbolId) -> usize {
    strips
        .iter()
        .zip(rows)
        .map(|(s, &rows)| (0..s.len()).filter(|&i| s.weight(i) > 0).map(|stop| (0..rows).filter(|&r| s.at(stop, r) == scatter).count()).max().unwrap_or(0))
        .sum()
}

/// Every problem found in a paytable, each at its line (issue 18: all of
/// them reported at once, not the first alone).
pub(crate) struct Problems<'a> {
    r: &'a Reporter<'a>,
    found: Vec<PaytableError>,
}

impl<'a> Problems<'a> {
    pub(crate) fn new(r: &'a Reporter<'a>) -> Problems<'a> {
        Problems { r, found: Vec::new() }
    }

    pub(crate) fn at(&mut self, path: Path, problem: impl Into<String>) {
        self.found.push(self.r.at(path, problem));
    }

    pub(crate) fn count(&self) -> usize {
        self.found.len()
    }

    /// What was found, as one error (the caller has just noted one).
    pub(crate) fn into_error(self) -> PaytableError {
        let r = self.r;
        PaytableError::from_many(self.found).unwrap_or_else(|| r.math("refused"))
    }

    /// `value` when nothing was found; else the problem, or all of them.
    pub(crate) fn result<T>(self, value: impl FnOnce() -> T) -> Result<T, PaytableError> {
        PaytableError::from_many(self.found).map_or_else(|| Ok(value()), Err)
    }
}

pub fn validate(r: &Reporter<'_>, p: &ReelPaytable) -> Result<ReelGame, PaytableError> {
    let mut e = Problems::new(r);
    if p.id.trim().is_empty() || !p.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        e.at(root().field("id"), "the id must be non-empty letters, digits, '-' or '_'");
    }
    if p.name.trim().is_empty() {
        e.at(root().field("name"), "the name must not be empty");
    }
    if p.rows == 0 || p.rows > 8 {
        e.at(root().field("rows"), format!("rows must be 1 to 8, not {}", p.rows));
    }
    // M-1: three or more reels.
    if p.reels.len() < 3 || p.reels.len() > MAX_REELS {
        e.at(root().field("reels"), format!("a reel game has 3 to {MAX_REELS} reels (M-1), not {}", p.reels.len()));
    }
    if p.symbols.is_empty() || p.symbols.len() > 64 {
        e.at(root().field("symbols"), "a game has 1 to 64 symbols");
        // Nothing else can be checked against the symbols.
        return Err(e.into_error());
    }
    let mut ids: HashMap<&str, SymbolId> = HashMap::new();
    for (i, s) in p.symbols.iter().enumerate() {
        if ids.insert(s.id.as_str(), i as SymbolId).is_some() {
            e.at(root().field("symbols").index(i), format!("symbol {:?} is defined twice", s.id));
        }
    }
    let mut symbols = Vec::new();
    let (mut wilds, mut scatter_sym, mut expanding_wilds, mut bonus_sym) = (Vec::new(), None, 0, None);
    for (i, s) in p.symbols.iter().enumerate() {
        let at = root().field("symbols").index(i);
        let kind = match &s.kind {
            KindSource::Regular => SymbolKind::Regular,
            KindSource::Wild { multiplier, expanding, substitutes, sticky } => {
                wilds.push(i as SymbolId);
                // Issue 50: several wilds, each with its own list, in a
                // ways game; a payline game has one wild for every symbol.
                if wilds.len() > 1 && !p.ways {
                    e.at(at.clone(), "a payline game has one wild symbol: several wilds are built for ways games (`ways: true`)");
                }
                if *multiplier == 0 {
                    e.at(at.clone(), "a wild multiplier must be at least 1");
                }
                if *expanding && !p.ways {
                    e.at(at.clone(), format!("the wild {} expands: expanding wilds are built for ways games (`ways: true`), not paylines", s.id));
                }
                if *expanding {
                    expanding_wilds += 1;
                    if expanding_wilds > 1 {
                        e.at(
                            at.clone(),
                            format!("the wild {} expands too: a game has at most one expanding wild (which would fill a reel both show on?)", s.id),
                        );
                    }
                }
                let substitutes = substitutes.as_ref().map(|list| substitution_list(&mut e, &at, p, &ids, &s.id, list));
                if *sticky {
                    sticky_rules(&mut e, &at, p, &s.id, *expanding);
                }
                SymbolKind::Wild { multiplier: *multiplier, expanding: *expanding, substitutes, sticky: *sticky }
            }
            KindSource::Scatter => {
                if scatter_sym.replace(i as SymbolId).is_some() {
                    e.at(at.clone(), "only one scatter symbol is supported");
                }
                SymbolKind::Scatter
            }
            KindSource::Bonus => {
                bonus_sym.get_or_insert(i as SymbolId);
                SymbolKind::Bonus
            }
        };
        symbols.push(Symbol { id: s.id.clone(), name: s.name.clone(), kind });
    }
    // Whether a cell showing `y` counts for a run of `x` (itself, or a
    // wild that stands for it).
    let stands_for = |y: SymbolId, x: SymbolId| {
        y == x
            || wilds.contains(&y)
                && match &p.symbols[usize::from(y)].kind {
                    KindSource::Wild { substitutes: Some(list), .. } => list.iter().any(|id| ids.get(id.as_str()) == Some(&x)),
                    _ => true,
                }
    };
    let n = p.reels.len();
    let rows = p.rows as usize;
    // Each reel's rows (issue 50): the same `rows` on every reel unless
    // `reel_rows` says otherwise, for a ways game.
    let reel_rows: Vec<usize> = match &p.reel_rows {
        None => vec![rows; n],
        Some(rr) => {
            let at = root().field("reel_rows");
            if !p.ways {
                e.at(at.clone(), "reel_rows is for ways games (`ways: true`): a payline needs the same rows on every reel");
            }
            if rr.len() != n {
                e.at(at.clone(), format!("reel_rows gives {} reels, the game has {n}", rr.len()));
            }
            if let Some(bad) = rr.iter().find(|&&r| r == 0 || r > 8) {
                e.at(at.clone(), format!("a reel shows 1 to 8 rows, not {bad}"));
            }
            if rr.iter().max().is_some_and(|&m| m != p.rows) {
                e.at(at, format!("rows is the tallest reel's rows: {} here, not {}", rr.iter().max().copied().unwrap_or(0), p.rows));
            }
            (0..n).map(|r| usize::from(rr.get(r).copied().unwrap_or(p.rows))).collect()
        }
    };
    let window_cells: usize = reel_rows.iter().sum();
    let reels = strips(&mut e, &ids, &p.reels, p.weights.as_ref(), root().field("reels"), root().field("weights"));

    if p.ways && !p.lines.is_empty() {
        e.at(root().field("lines"), "a ways game pays in any row: it has no paylines (leave `lines` out)");
    } else if !p.ways && p.lines.is_empty() {
        e.at(root().field("lines"), "at least one payline is required (or `ways: true`)");
    }
    if let Some(of) = &p.variant_of
        && (of == &p.id || of.trim().is_empty() || !of.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        e.at(root().field("variant_of"), format!("variant_of names the game this paytable is a variant of: an id other than its own, not {of:?}"));
    }
    if !p.ways && p.wild_multipliers != game_core::reels::WildMultipliers::Multiply {
        e.at(root().field("wild_multipliers"), "wild_multipliers combines several wilds in one way: it is for ways games (`ways: true`)");
    }
    for (i, line) in p.lines.iter().enumerate() {
        if line.len() != n {
            e.at(root().field("lines").index(i), format!("payline {} crosses {} reels, the game has {n}", i + 1, line.len()));
        }
        if let Some(&row) = line.iter().find(|&&row| row as usize >= rows) {
            e.at(root().field("lines").index(i), format!("payline {} uses row {row}, outside the {rows}-row window", i + 1));
        }
    }

    // Free-game strips, when given.
    let free = match p.scatter.as_ref().and_then(|s| s.free_games.as_ref()) {
        None => None,
        Some(f) => {
            let at = root().field("scatter").field("free_games");
            let strips = match &f.reels {
                None => None,
                Some(fr) => {
                    if fr.len() != n {
                        e.at(at.clone().field("reels"), format!("{} free-game reels for a {n}-reel game", fr.len()));
                    }
                    strips(&mut e, &ids, fr, f.weights.as_ref(), at.clone().field("reels"), at.clone().field("weights"))
                }
            };
            if f.weights.is_some() && f.reels.is_none() {
                e.at(at.field("weights"), "free-game weights need free-game reels");
            }
            Some((f, strips))
        }
    };
    // The checks that look at the strips need every strip usable.
    let all_strips: Option<Vec<&[Strip]>> = match (&reels, &free) {
        (Some(r), Some((f, fs))) if f.reels.is_some() => fs.as_ref().map(|fs| vec![r.as_slice(), fs.as_slice()]),
        (Some(r), _) => Some(vec![r.as_slice()]),
        (None, _) => None,
    }
    .filter(|sets| sets.iter().all(|s| s.len() == n && n <= MAX_REELS));

    let mut pays = vec![vec![0u64; n + 1]; symbols.len()];
    // Where each (symbol, count) is paid in the file, for the M-13 check.
    let mut paid_at = std::collections::BTreeMap::new();
    for (i, pay) in p.pays.iter().enumerate() {
        let at = root().field("pays").index(i);
        let Some(&sym) = ids.get(pay.symbol.as_str()) else {
            e.at(at, format!("pay for unknown symbol {:?}", pay.symbol));
            continue;
        };
        if Some(sym) == scatter_sym {
            e.at(at, "the scatter pays through `scatter.pays`, not on lines");
            continue;
        }
        if Some(sym) == bonus_sym {
            e.at(at, format!("the bonus symbol {:?} pays through the hold-and-spin feature, not in ways or lines", pay.symbol));
            continue;
        }
        if p.ways && wilds.contains(&sym) {
            e.at(at, format!("the wild {:?} never starts a way: in a ways game it pays only as the symbols it stands for", pay.symbol));
            continue;
        }
        let k = pay.count as usize;
        if k == 0 || k > n {
            e.at(at, format!("{} in a row is impossible on {n} reels", pay.count));
            continue;
        }
        if pay.pays == 0 {
            e.at(at.clone(), "a pay of 0 is not a prize: remove it");
        }
        if pays[sym as usize][k] != 0 {
            e.at(at.clone(), format!("{} × {} is paid twice", pay.count, pay.symbol));
        }
        if let Some(sets) = &all_strips
            && !sets.iter().any(|strips| (0..k).all(|reel| can_show(&strips[reel], reel_rows[reel], |y| stands_for(y, sym))))
        {
            e.at(at, format!("pay for an impossible combination: {} × {:?} can never show in the window on these strips", pay.count, pay.symbol));
        }
        pays[sym as usize][k] = pay.pays;
        paid_at.insert((sym, k), i);
    }
    // M-13: a line pays only its highest prize, so a longer run of a
    // symbol that pays less than a shorter run of it is never paid as
    // written: a designer's mistake, refused at the longer run's line
    // (issue 36).
    for (&(sym, k), &i) in &paid_at {
        let shorter = (1..k).filter(|&c| pays[sym as usize][c] > pays[sym as usize][k]).max_by_key(|&c| pays[sym as usize][c]);
        if let Some(c) = shorter {
            let id = &p.pays[i].symbol;
            e.at(
                root().field("pays").index(i),
                format!(
                    "{k} × {id} pays {}, less than {c} × {id} ({}): a line pays only its highest prize (M-13), so the longer run would be paid less than the shorter one it contains",
                    pays[sym as usize][k],
                    pays[sym as usize][c]
                ),
            );
        }
    }
    let rules = p.line_rules.unwrap_or_default();
    if rules.pays_longer_runs {
        // A pay for N in a row also pays every longer run without a pay of
        // its own: the longest paid count up to the run's length.
        for sym_pays in pays.iter_mut() {
            for c in 2..sym_pays.len() {
                if sym_pays[c] == 0 {
                    sym_pays[c] = sym_pays[c - 1];
                }
            }
        }
    }

    // Issue 50: the hold-and-spin feature and its bonus symbol.
    let hold_and_spin = match &p.hold_and_spin {
        None => {
            if let Some(b) = bonus_sym {
                e.at(root().field("symbols").index(usize::from(b)), "a bonus symbol is declared but `hold_and_spin` is missing");
            }
            None
        }
        Some(h) => {
            let base = reels.as_deref().filter(|r| r.len() == n && n <= MAX_REELS);
            let most = base.zip(bonus_sym).map(|(strips, b)| max_scatters(strips, &reel_rows, b));
            crate::hold_check::hold_and_spin(&mut e, p, h, &ids, bonus_sym, window_cells, most).map(Box::new)
        }
    };

    let scatter = match &p.scatter {
        None => None,
        Some(sc) => {
            let at = root().field("scatter");
            match ids.get(sc.symbol.as_str()) {
                None => {
                    e.at(at.field("symbol"), format!("unknown scatter symbol {:?}", sc.symbol));
                    None
                }
                Some(&sym) if Some(sym) != scatter_sym => {
                    e.at(at.field("symbol"), format!("{:?} is not declared with kind: Scatter", sc.symbol));
                    None
                }
                Some(&sym) => {
                    let max = all_strips.as_ref().map_or(window_cells, |sets| sets.iter().map(|s| max_scatters(s, &reel_rows, sym)).max().unwrap_or(0));
                    let mut spays = vec![0u64; window_cells + 1];
                    for (&c, &v) in &sc.pays {
                        if c == 0 || c as usize > max {
                            e.at(at.clone().field("pays"), format!("pay for an impossible combination: {c} scatters (at most {max} can show)"));
                        } else {
                            spays[c as usize] = v;
                        }
                    }
                    let free_games = match free {
                        None => None,
                        Some((f, strips)) => {
                            let fat = at.clone().field("free_games");
                            if f.multiplier == 0 {
                                e.at(fat.clone().field("multiplier"), "the free-game multiplier must be at least 1");
                            }
                            let mut awards = vec![0u32; window_cells + 1];
                            for (&c, &v) in &f.awards {
                                if c == 0 || c as usize > max {
                                    e.at(fat.clone().field("awards"), format!("free games for an impossible combination: {c} scatters"));
                                } else {
                                    awards[c as usize] = v;
                                }
                            }
                            if awards.iter().all(|&a| a == 0) {
                                e.at(fat.field("awards"), "free games are declared but never awarded");
                            }
                            Some(FreeGamesRule { awards, multiplier: f.multiplier, retrigger: f.retrigger, reels: strips })
                        }
                    };
                    Some(ScatterRule { symbol: sym, pays: spays, free_games })
                }
            }
        }
    };
    if scatter_sym.is_some() && p.scatter.is_none() {
        e.at(root().field("scatter"), "a scatter symbol is declared but `scatter` is missing");
    }
    // Issue 50: cascades.
    let cascade = p.cascade.as_ref().and_then(|c| crate::cascade_check::cascade(&mut e, p, c));
    let bat = root().field("bet");
    if p.bet.lines.is_empty() || p.bet.credits_per_line.is_empty() {
        e.at(bat.clone(), "bet needs at least one line count and one credits-per-line value");
    }
    if p.ways {
        if p.bet.lines.len() > 1 || p.bet.lines.contains(&0) {
            e.at(
                bat.clone().field("lines"),
                format!("{:?}: a ways game's `bet.lines` is the one cost of its ways bet in credits per unit, at least 1 (e.g. [25])", p.bet.lines),
            );
        }
    } else {
        for &l in &p.bet.lines {
            if l == 0 || l as usize > p.lines.len() {
                e.at(bat.clone().field("lines"), format!("{l} lines: the game has {} paylines", p.lines.len()));
            }
        }
    }
    if p.bet.credits_per_line.contains(&0) {
        e.at(bat.field("credits_per_line"), "credits per line must be at least 1");
    }
    let double_up = match p.double_up {
        None => None,
        Some(d) => {
            // decisions.md: at most 5 doubles.
            if d.max_doubles == 0 || d.max_doubles > 5 {
                e.at(root().field("double_up").field("max_doubles"), "the double-up allows 1 to 5 doubles (decisions.md)");
            }
            if d.max_win_credits == 0 {
                e.at(root().field("double_up").field("max_win_credits"), "the maximum double-up win must be positive");
            }
            Some(DoubleUpRule { max_doubles: d.max_doubles, max_win_credits: d.max_win_credits })
        }
    };
    let mut sorted_lines = p.bet.lines.clone();
    sorted_lines.sort_unstable();
    sorted_lines.dedup();
    let mut cpl = p.bet.credits_per_line.clone();
    cpl.sort_unstable();
    cpl.dedup();
    e.result(|| ReelGame {
        id: p.id.clone(),
        name: p.name.clone(),
        symbols,
        rows: p.rows,
        reel_rows: p.reel_rows.clone().unwrap_or_default(),
        reels: reels.unwrap_or_default(),
        lines: p.lines.clone(),
        pays,
        scatter,
        bet: BetRules { lines: sorted_lines, credits_per_line: cpl },
        double_up,
        wild_only_multiplied: rules.wild_only_multiplied,
        ways: p.ways,
        wild_multipliers: p.wild_multipliers,
        variant_of: p.variant_of.clone(),
        hold_and_spin,
        cascade,
    })
}

/// What is legal but probably not meant, for the designer to confirm: the
/// same payline listed twice, a symbol paid for runs shorter and longer than a count it is not paid for
/// (a run's count is exact unless `line_rules.pays_longer_runs`: that run
/// pays nothing), and a multiplying wild with pays of its own while the
/// paytable does not state `line_rules` (a line of wilds alone is then not
/// multiplied).
pub fn warnings(source: &ReelPaytable, game: &ReelGame) -> Vec<String> {
    let mut out = Vec::new();
    // A payline listed twice pays twice (issue 36): allowed, but named.
    for (j, line) in game.lines.iter().enumerate() {
        if let Some(i) = game.lines[..j].iter().position(|l| l == line) {
            out.push(format!("paylines {} and {} are the same ({line:?}): a win on it is paid twice", i + 1, j + 1));
        }
    }
    for (sym, pays) in game.pays.iter().enumerate() {
        let paid: Vec<usize> = (1..pays.len()).filter(|&c| pays[c] > 0).collect();
        let (Some(&lo), Some(&hi)) = (paid.first(), paid.last()) else { continue };
        for gap in (lo + 1..hi).filter(|&c| pays[c] == 0) {
            let id = game.symbols.get(sym).map_or("?", |s| s.id.as_str());
            out.push(format!(
                "symbol {id} is paid for {lo} and {hi} in a row but not for {gap}: a run of exactly {gap} pays nothing (a run's count is exact; `line_rules: Some((pays_longer_runs: true, …))` pays it as {lo})"
            ));
        }
    }
    if source.line_rules.is_none()
        && let Some((w, mult)) = game.wild()
        && mult > 1
        && game.pays[w as usize].iter().any(|&p| p > 0)
    {
        let id = &game.symbols[w as usize].id;
        out.push(format!(
            "the wild {id} multiplies by {mult} and has pays of its own, and `line_rules` is not stated: a line of {id} alone pays as written, not multiplied (state `line_rules: Some((wild_only_multiplied: false, pays_longer_runs: false))` to confirm)"
        ));
    }
    out
}

/// A validated paytable with what the compiler needs beside the game model.
#[derive(Clone, Debug)]
pub struct Source {
    pub file: String,
    pub text: String,
    pub game: ReelGame,
    pub odds_disclosure: Option<String>,
    /// What the compiler warns about ([`warnings`]).
    pub warnings: Vec<String>,
}

/// Read, parse and validate a paytable file, keeping its source.
pub fn load_source(path: &std::path::Path) -> Result<Source, PaytableError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| PaytableError::Io { file: file.clone(), problem: e.to_string() })?;
    let p = parse(&file, &text)?;
    let game = validate(&Reporter { file: &file, src: without_bom(&text) }, &p)?;
    let warnings = warnings(&p, &game);
    Ok(Source { file, game, odds_disclosure: p.odds_disclosure.clone(), warnings, text })
}
