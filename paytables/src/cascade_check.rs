//! The checks of a cascade rule (issue 50; `game_core::reels::cascade`),
//! each problem at its line.

use game_core::reels::CascadeRule;

use crate::compile::Problems;
use crate::format::{CascadeSource, KindSource, ReelPaytable};
use crate::locate::Path;

/// The most cascades a spin may fall: a cap the paytable states, so that
/// no strip read upwards can pay forever.
pub const MAX_CASCADES: u8 = 50;

/// The largest multiplier of a cascade.
pub const MAX_MULTIPLIER: u64 = 1_000;

/// The rule of `c`, or None when a problem was noted.
pub(crate) fn cascade(e: &mut Problems<'_>, p: &ReelPaytable, c: &CascadeSource) -> Option<CascadeRule> {
    let at = Path::default().field("cascade");
    let before = e.count();
    if !p.ways {
        e.at(at.clone(), "cascades are built for ways games (`ways: true`)");
    }
    if p.scatter.is_some() {
        e.at(at.clone(), "a cascade game has no scatter: a scatter's count would change from cascade to cascade (leave `scatter` out)");
    }
    if p.hold_and_spin.is_some() {
        e.at(at.clone(), "a cascade game has no hold-and-spin: choose one feature");
    }
    if p.symbols.iter().any(|s| matches!(s.kind, KindSource::Wild { expanding: true, .. })) {
        e.at(at.clone(), "a cascade game's wild does not expand: an expanded reel has no symbols to remove one by one");
    }
    if c.max_cascades == 0 || c.max_cascades > MAX_CASCADES {
        e.at(
            at.clone().field("max_cascades"),
            format!(
                "max_cascades is 1 to {MAX_CASCADES}, not {}: it caps a cascade that could otherwise loop forever (a strip read upwards may pay again and again)",
                c.max_cascades
            ),
        );
    }
    let ma = at.field("multipliers");
    if c.multipliers.is_empty() {
        e.at(ma.clone(), "list at least the spin's own multiplier (e.g. [1, 2, 3, 5])");
    }
    if let Some(bad) = c.multipliers.iter().find(|&&m| m == 0 || m > MAX_MULTIPLIER) {
        e.at(ma.clone(), format!("a cascade multiplier is 1 to {MAX_MULTIPLIER}, not {bad}"));
    }
    if c.multipliers.len() > usize::from(c.max_cascades) + 1 && c.max_cascades > 0 {
        e.at(
            ma,
            format!(
                "{} multipliers for at most {} windows (the spin's and {} cascades): the last would never apply",
                c.multipliers.len(),
                usize::from(c.max_cascades) + 1,
                c.max_cascades
            ),
        );
    }
    (e.count() == before).then(|| CascadeRule { multipliers: c.multipliers.clone(), max_cascades: c.max_cascades })
}
