//! SAS progressives (sas.md §8; issue 48): the floor's progressive
//! controller broadcasts the levels of a group (LP 80 one level, LP 86
//! several; to this address, acknowledged, or global, never answered).
//! The cabinet in that group shows them as a linked pool's levels. With no
//! broadcast for 5 s it raises 53 ("no progressive information") once and
//! the game host stops taking progressive bets (G-49) until broadcasts
//! resume. Broadcasts of another group are ignored.
//!
//! Layouts as the digest gives them: LP 80 `group level(01–20)
//! amount(5 BCD cents)`; LP 86 `len group (level amount(5 BCD))…`. LP 84
//! replies `group level amount(5 BCD)` of the last progressive win, all
//! zero when none [R].

use std::collections::BTreeMap;

use crate::bcd;

/// No broadcast for this long: the progressive link is lost (G-49).
pub const BROADCAST_TIMEOUT_US: u64 = 5_000_000;

/// The highest level a broadcast may carry (sas.md §8: 01–20 hex).
pub const MAX_LEVEL: u8 = 0x20;

/// LP 80's data: the group and one level with its amount; `None` when it
/// is malformed (a level outside 01–20, an amount that is not BCD).
pub fn parse_80(data: &[u8]) -> Option<(u8, Vec<(u8, u64)>)> {
    let (&group, rest) = data.split_first()?;
    let level = *rest.first()?;
    Some((group, vec![(checked_level(level)?, bcd::decode(rest.get(1..6)?).ok()?)]))
}

/// LP 86's data (its length byte first): the group and its levels.
pub fn parse_86(data: &[u8]) -> Option<(u8, Vec<(u8, u64)>)> {
    let (&len, rest) = data.split_first()?;
    let body = rest.get(..usize::from(len))?;
    let (&group, pairs) = body.split_first()?;
    if pairs.is_empty() || pairs.len() % 6 != 0 {
        return None;
    }
    let levels = pairs.chunks(6).map(|p| Some((checked_level(p[0])?, bcd::decode(&p[1..6]).ok()?))).collect::<Option<Vec<_>>>()?;
    Some((group, levels))
}

fn checked_level(level: u8) -> Option<u8> {
    (1..=MAX_LEVEL).contains(&level).then_some(level)
}

/// The group's levels as the cabinet last heard them, and whether the
/// controller is heard at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    group: u8,
    levels: BTreeMap<u8, u64>,
    last_us: u64,
    /// A broadcast came within the last 5 s (none yet after a boot: the
    /// levels are unknown, no progressive bet until one comes).
    heard: bool,
    /// The silence was told (53), once until the next broadcast.
    silence_told: bool,
}

/// What a broadcast or the clock changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The levels now (level → cents).
    Levels(BTreeMap<u8, u64>),
    /// Broadcasts stopped for 5 s (raise 53), or resumed.
    Heard(bool),
}

impl Watch {
    /// The cabinet is in `group`; nothing heard yet (the 5 s run from
    /// `now_us`).
    pub fn new(group: u8, now_us: u64) -> Watch {
        Watch { group, levels: BTreeMap::new(), last_us: now_us, heard: false, silence_told: false }
    }

    pub fn group(&self) -> u8 {
        self.group
    }

    /// A broadcast for `group` at `now_us`: what changed.
    pub fn broadcast(&mut self, group: u8, levels: &[(u8, u64)], now_us: u64) -> Vec<Change> {
        if group != self.group {
            return Vec::new();
        }
        self.last_us = now_us;
        self.silence_told = false;
        let mut changes = Vec::new();
        if !std::mem::replace(&mut self.heard, true) {
            changes.push(Change::Heard(true));
        }
        let before = self.levels.clone();
        self.levels.extend(levels.iter().copied());
        if self.levels != before {
            changes.push(Change::Levels(self.levels.clone()));
        }
        changes
    }

    /// A level won: its amount is unknown until broadcast again.
    pub fn forget(&mut self, level: u8) {
        self.levels.remove(&level);
    }

    /// The clock: `Heard(false)` once when 5 s passed without a broadcast.
    pub fn tick(&mut self, now_us: u64) -> Option<Change> {
        if now_us.saturating_sub(self.last_us) >= BROADCAST_TIMEOUT_US && !self.silence_told {
            self.silence_told = true;
            self.heard = false;
            return Some(Change::Heard(false));
        }
        None
    }
}

/// LP 84's and LP 85's reply data: the group, and the last level of it
/// won here with the amount paid (5 BCD cents), or level 0 and zeros when
/// none was [R]. 85 is what the floor reads after exception 56.
pub fn reply_84(group: u8, win: Option<crate::snapshot::ProgressiveWin>) -> Vec<u8> {
    match win.filter(|w| w.group == group) {
        Some(w) => [vec![group, w.level], bcd::encode(w.cents, 5)].concat(),
        None => [vec![group, 0], bcd::encode(0, 5)].concat(),
    }
}

/// LP 87's reply data (issue 71): the group and every SAS level win the
/// floor has not been told of in a queue, each level with its amount (5
/// BCD cents). This cabinet locks up at each level won (an attendant pays
/// it) and reports it by 56 then LP 85, so its queue holds at most the
/// last level won [R: sas.md §8 keeps one at a time].
pub fn reply_87(group: u8, win: Option<crate::snapshot::ProgressiveWin>) -> Vec<u8> {
    let mut out = vec![0, group, 0];
    if let Some(w) = win.filter(|w| w.group == group) {
        out[2] = 1;
        out.push(w.level);
        out.extend(bcd::encode(w.cents, 5));
    }
    out[0] = u8::try_from(out.len() - 1).unwrap_or(0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lp_87_lists_the_level_won() {
        use crate::snapshot::ProgressiveWin;
        let won = Some(ProgressiveWin { group: 3, level: 2, cents: 123_456 });
        assert_eq!(reply_87(3, won), [0x08, 0x03, 0x01, 0x02, 0x00, 0x00, 0x12, 0x34, 0x56]);
        assert_eq!(reply_87(3, None), [0x02, 0x03, 0x00]);
        assert_eq!(reply_87(4, won), [0x02, 0x04, 0x00], "another group's win is not this group's");
    }

    #[test]
    fn broadcasts_parse_as_the_digest_lays_them_out() {
        // LP 80: group 1, level 2, 1,234.56.
        assert_eq!(parse_80(&[0x01, 0x02, 0x00, 0x00, 0x12, 0x34, 0x56]), Some((1, vec![(2, 123_456)])));
        assert_eq!(parse_80(&[0x01, 0x21, 0x00, 0x00, 0x12, 0x34, 0x56]), None, "level 21 is outside 01-20");
        assert_eq!(parse_80(&[0x01, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56]), None, "level 0");
        assert_eq!(parse_80(&[0x01, 0x02, 0x00, 0x00, 0x12, 0x3A, 0x56]), None, "not BCD");
        // LP 86: group 7, levels 1 and 2.
        let d = [13, 0x07, 0x01, 0x00, 0x00, 0x00, 0x50, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00];
        assert_eq!(parse_86(&d), Some((7, vec![(1, 5_000), (2, 1_000_000)])));
        assert_eq!(parse_86(&d[..13]), None, "truncated");
        assert_eq!(parse_86(&[7, 0x07, 0x01, 0x00, 0x00, 0x00, 0x50]), None, "a pair cut short");
    }

    #[test]
    fn the_levels_are_kept_and_silence_is_told_once() {
        let mut w = Watch::new(1, 0);
        assert_eq!(w.broadcast(2, &[(1, 99)], 1_000), [], "another group's");
        let mut levels = BTreeMap::new();
        levels.insert(1, 5_000);
        assert_eq!(w.broadcast(1, &[(1, 5_000)], 1_000), [Change::Heard(true), Change::Levels(levels.clone())]);
        assert_eq!(w.broadcast(1, &[(1, 5_000)], 2_000), [], "unchanged");
        assert_eq!(w.tick(5_001_999), None);
        assert_eq!(w.tick(5_002_000), Some(Change::Heard(false)));
        assert_eq!(w.tick(9_000_000), None, "told once");
        assert_eq!(Watch::new(1, 0).tick(5_000_000), Some(Change::Heard(false)), "nothing heard after a boot: told too");
        levels.insert(2, 70_000);
        assert_eq!(w.broadcast(1, &[(2, 70_000)], 9_000_000), [Change::Heard(true), Change::Levels(levels)]);
        assert_eq!(reply_84(1, None), [1, 0, 0, 0, 0, 0, 0]);
        let won = crate::snapshot::ProgressiveWin { group: 1, level: 2, cents: 70_000 };
        assert_eq!(reply_84(1, Some(won)), [1, 2, 0x00, 0x00, 0x07, 0x00, 0x00]);
        assert_eq!(reply_84(4, Some(won)), [4, 0, 0, 0, 0, 0, 0], "a win of another group is not this group's");
    }

    #[test]
    fn a_level_won_is_news_again_when_broadcast_even_at_the_same_amount() {
        let mut w = Watch::new(1, 0);
        let _ = w.broadcast(1, &[(1, 5_000), (2, 70_000)], 1_000);
        assert_eq!(w.broadcast(1, &[(2, 70_000)], 2_000), [], "the same amount again: no news");
        w.forget(2);
        let levels: BTreeMap<u8, u64> = [(1, 5_000), (2, 70_000)].into();
        assert_eq!(w.broadcast(1, &[(2, 70_000)], 3_000), [Change::Levels(levels)], "after a win, the controller's next broadcast is news");
    }
}
