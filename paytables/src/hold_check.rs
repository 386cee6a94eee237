//! The checks of a hold-and-spin feature (issue 50;
//! `game_core::reels::hold`), each problem at its line.

use std::collections::HashMap;

use game_core::reels::{CashValue, HoldAndSpinRule, SymbolId};

use crate::compile::Problems;
use crate::format::{HoldAndSpinSource, KindSource, ReelPaytable};
use crate::locate::Path;

/// The most cells a hold-and-spin window may have (positions held are
/// followed as bits).
pub const MAX_CELLS: usize = 64;

/// The most respins a feature gives (a feature that never runs out of
/// respins while cells stay free would not end; ten is more than any game
/// ships).
pub const MAX_RESPINS: u8 = 10;

/// The rule of `h`, or None when a problem was noted. `bonus` is the
/// symbol declared `kind: Bonus`, `cells` the window's cells, `most_shown`
/// the most bonus symbols the base strips can show (when they are usable).
pub(crate) fn hold_and_spin(
    e: &mut Problems<'_>,
    p: &ReelPaytable,
    h: &HoldAndSpinSource,
    ids: &HashMap<&str, SymbolId>,
    bonus: Option<SymbolId>,
    cells: usize,
    most_shown: Option<usize>,
) -> Option<HoldAndSpinRule> {
    let at = Path::default().field("hold_and_spin");
    let before = e.count();
    if !p.ways {
        e.at(at.clone(), "hold-and-spin is built for ways games (`ways: true`)");
    }
    if p.scatter.is_some() {
        e.at(at.clone(), "a hold-and-spin game has no scatter: its bonus symbols are the only symbols counted anywhere (leave `scatter` out)");
    }
    if cells > MAX_CELLS {
        e.at(at.clone(), format!("a hold-and-spin window has at most {MAX_CELLS} cells, not {cells}"));
    }
    let symbol = match ids.get(h.symbol.as_str()) {
        None => {
            e.at(at.clone().field("symbol"), format!("unknown bonus symbol {:?}", h.symbol));
            None
        }
        Some(&s) if Some(s) != bonus => {
            e.at(at.clone().field("symbol"), format!("{:?} is not declared with kind: Bonus", h.symbol));
            None
        }
        Some(&s) => Some(s),
    };
    if h.trigger == 0 || usize::from(h.trigger) > cells {
        e.at(at.clone().field("trigger"), format!("the feature starts with 1 to {cells} bonus symbols (the window's cells), not {}", h.trigger));
    } else if let (Some(_), Some(most)) = (symbol, most_shown)
        && most < usize::from(h.trigger)
    {
        e.at(at.clone().field("trigger"), format!("the feature never starts: it needs {} bonus symbols, the base strips show at most {most}", h.trigger));
    }
    if h.respins == 0 || h.respins > MAX_RESPINS {
        e.at(
            at.clone().field("respins"),
            format!("a feature gives 1 to {MAX_RESPINS} respins, not {}: with none it would never spin, and a count past {MAX_RESPINS} is a respin that does not end", h.respins),
        );
    }
    let la = at.clone().field("landing");
    if h.landing.blank == 0 {
        e.at(la.clone(), "landing.blank is 0: every free cell would land a bonus symbol on the first respin (the feature would be a fixed full screen)");
    }
    if h.landing.bonus == 0 {
        e.at(la.clone(), "landing.bonus is 0: no respin ever lands a bonus symbol");
    }
    if h.landing.bonus.checked_add(h.landing.blank).is_none_or(|t| t > u64::from(u32::MAX)) {
        e.at(la, "the landing weights add up past 4294967295");
    }
    let va = at.clone().field("values");
    if h.values.is_empty() {
        e.at(va.clone(), "a bonus symbol carries a value: list at least one");
    }
    let mut seen = Vec::new();
    for (i, v) in h.values.iter().enumerate() {
        let vat = va.clone().index(i);
        if v.weight == 0 {
            e.at(vat.clone(), format!("{:?} has weight 0: a value that never shows (remove it)", v.value));
        }
        if v.value == CashValue::Credits(0) {
            e.at(vat.clone(), "a bonus symbol worth 0 credits: the smallest value is 1");
        }
        if seen.contains(&v.value) {
            e.at(vat, format!("{:?} is listed twice", v.value));
        }
        seen.push(v.value);
    }
    if h.values.iter().try_fold(0u64, |t, v| t.checked_add(v.weight)).is_none_or(|t| t > u64::from(u32::MAX)) {
        e.at(va, "the value weights add up past 4294967295");
    }
    let j = h.jackpots;
    let ja = at.field("jackpots");
    if [j.mini, j.minor, j.major, j.grand].contains(&0) {
        e.at(ja.clone(), "every fixed jackpot pays at least 1 credit per unit (the grand pays every full screen)");
    } else if !(j.mini <= j.minor && j.minor <= j.major && j.major <= j.grand) {
        e.at(ja, format!("the jackpots rise mini ≤ minor ≤ major ≤ grand, not {} / {} / {} / {}", j.mini, j.minor, j.major, j.grand));
    }
    for (i, s) in p.symbols.iter().enumerate() {
        if matches!(s.kind, KindSource::Bonus) && Some(i as SymbolId) != symbol && symbol.is_some() {
            e.at(Path::default().field("symbols").index(i), format!("a second bonus symbol {:?}: the feature has one", s.id));
        }
    }
    (e.count() == before).then(|| HoldAndSpinRule {
        symbol: symbol.unwrap_or_default(),
        trigger: h.trigger,
        respins: h.respins,
        landing: (h.landing.bonus, h.landing.blank),
        values: h.values.iter().map(|v| (v.value, v.weight)).collect(),
        jackpots: h.jackpots,
        grand_progressive: h.grand_progressive,
    })
}
