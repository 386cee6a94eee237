//! The strip generator (`paytable generate`, issue 50): from a paytable's
//! symbols, pays and strip lengths, and the designer's targets — the RTP
//! to 0.01 %, optionally a hit-frequency band, an SD band and a band for
//! the largest win's odds (1 in N games) — it writes
//! reel strips that meet them, or says which target it could not meet and
//! how close it came. Deterministic from its seed.
//!
//! A local search over the strips: each step puts another regular symbol
//! at one stop of one reel (never a wild or a scatter, and never over one:
//! the features' frequencies are the designer's), judges the game by its
//! exact figures (`reel_math::analyse`: the same arithmetic the checker
//! uses, every step exact) and keeps the change when it brings the game
//! closer to the targets. The result is proven again by `paytable check`,
//! never by the generator's own word.

use game_core::reels::{ReelGame, SymbolId, SymbolKind};
use meters::GameRng;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

use crate::reel_math::{MathError, analyse};

/// What the designer asks for, at the game's largest bet configuration.
#[derive(Clone, Debug)]
pub struct Targets {
    /// The RTP, as a fraction (0.94 for 94 %).
    pub rtp: BigRational,
    /// How far from it is close enough (0.0001 for 0.01 %).
    pub tolerance: BigRational,
    /// The hit frequency's band, as fractions.
    pub hit_frequency: Option<(f64, f64)>,
    /// The standard deviation's band, in units of the total bet.
    pub sd: Option<(f64, f64)>,
    /// The band of the largest win's odds, as "1 in N games": the top
    /// award (the largest pay of the table) in any window of a round.
    pub top_one_in: Option<(f64, f64)>,
}

impl Targets {
    /// The RTP `rtp` to 0.01 %, and the bands given.
    pub fn to_a_hundredth_of_a_percent(rtp: &BigRational, hit_frequency: Option<(f64, f64)>, sd: Option<(f64, f64)>, top_one_in: Option<(f64, f64)>) -> Self {
        Targets { rtp: rtp.clone(), tolerance: BigRational::new(1.into(), 10_000.into()), hit_frequency, sd, top_one_in }
    }
}

/// A fraction as a percentage to four decimals ("94.0000").
pub fn percent(x: &BigRational) -> String {
    crate::floor::decimal(&(x * BigRational::from_integer(100.into())), 4)
}

/// The generator's answer: the strips it reached and their figures.
#[derive(Clone, Debug)]
pub struct Generated {
    pub game: ReelGame,
    pub rtp: BigRational,
    pub hit_frequency: Option<f64>,
    pub sd: f64,
    /// The largest win's odds, 1 in this many games (None when the game
    /// never pays it).
    pub top_one_in: Option<f64>,
    /// Each target missed, named with how close the search came.
    pub missed: Vec<String>,
    /// Steps tried.
    pub steps: usize,
}

/// How far figures are from the targets: 0 when every one is met.
fn distance(t: &Targets, rtp: &BigRational, hit: Option<f64>, sd: f64, top: Option<f64>) -> f64 {
    let tol = t.tolerance.to_f64().unwrap_or(1e-4);
    let off = (rtp - &t.rtp).abs();
    let mut d = if off <= t.tolerance { 0.0 } else { off.to_f64().unwrap_or(f64::MAX) / tol };
    let band = |x: f64, (lo, hi): (f64, f64), scale: f64| {
        if x < lo {
            (lo - x) / scale
        } else if x > hi {
            (x - hi) / scale
        } else {
            0.0
        }
    };
    if let Some(b) = t.hit_frequency {
        // A hit frequency one point out weighs like 0.1 % of RTP.
        d += hit.map_or(0.0, |h| band(h, b, 0.01 * tol / 0.001));
    }
    if let Some(b) = t.sd {
        d += band(sd, b, 0.1 * tol / 0.001);
    }
    if let Some((lo, hi)) = t.top_one_in {
        // Odds 10 % out weigh like 0.1 % of RTP; a top award never paid
        // is as far as can be.
        d += top.map_or(f64::MAX / 4.0, |n| band(n.ln(), (lo.ln(), hi.ln()), 1.1f64.ln() * tol / 0.001));
    }
    d
}

/// Figures the targets judge: RTP, hit frequency, SD, the top award's odds.
type Judged = (BigRational, Option<f64>, f64, Option<f64>);

/// The figures the targets judge, at the largest bet configuration.
fn figures(game: &ReelGame) -> Result<Judged, MathError> {
    let f = analyse(game)?;
    let c = f.configs.last().ok_or_else(|| MathError::PaysTooLarge { what: "a game with no bet".into(), culprit: crate::reel_math::Culprit::LargestPay })?;
    // The top award: the table's largest pay, and the weight of the
    // rounds that pay it.
    let top = game.pays.iter().enumerate().flat_map(|(x, p)| p.iter().enumerate().map(move |(k, &pay)| (pay, x, k))).filter(|t| t.0 > 0).max();
    let top_one_in = top.and_then(|(_, x, k)| f.combo_any.get(&(x as SymbolId, k as u8))).filter(|&&w| w > 0).map(|&w| f.cycle as f64 / w as f64);
    Ok((c.rtp.clone(), c.hit_frequency.as_ref().and_then(ToPrimitive::to_f64), c.standard_deviation(), top_one_in))
}

/// Search from `game`'s strips towards `targets`, at most `budget` steps,
/// drawing from `rng` (a seeded stream: the same seed, the same strips).
pub fn generate(game: &ReelGame, targets: &Targets, rng: &mut impl GameRng, budget: usize) -> Result<Generated, MathError> {
    let regular: Vec<SymbolId> = (0..game.symbols.len()).filter(|&i| game.symbols[i].kind == SymbolKind::Regular).map(|i| i as SymbolId).collect();
    // The stops the search may change: regular symbols only.
    let movable: Vec<(usize, usize)> =
        game.reels.iter().enumerate().flat_map(|(r, s)| s.symbols.iter().enumerate().filter(|(_, x)| regular.contains(x)).map(move |(i, _)| (r, i))).collect();
    let mut best = game.clone();
    let (mut rtp, mut hit, mut sd, mut top) = figures(&best)?;
    let mut d = distance(targets, &rtp, hit, sd, top);
    let mut steps = 0;
    while d > 0.0 && steps < budget && !movable.is_empty() && regular.len() > 1 {
        steps += 1;
        // Two kinds of step: another symbol at a stop (the strip's make-up
        // changes: large steps), or two stops of one reel trading symbols
        // (only the neighbours change: the fine steps that reach 0.01 %).
        let (r, i) = movable[rng.uniform(movable.len() as u64) as usize];
        let mut next = best.clone();
        if rng.uniform(2) == 0 {
            let pick = regular[rng.uniform(regular.len() as u64) as usize];
            if pick == best.reels[r].symbols[i] {
                continue;
            }
            next.reels[r].symbols[i] = pick;
        } else {
            let same_reel: Vec<usize> = movable.iter().filter(|m| m.0 == r).map(|m| m.1).collect();
            let j = same_reel[rng.uniform(same_reel.len() as u64) as usize];
            if next.reels[r].symbols[i] == next.reels[r].symbols[j] {
                continue;
            }
            next.reels[r].symbols.swap(i, j);
        }
        // A change the mathematics refuses (a pay grown too large) is
        // simply not taken.
        let Ok((r2, h2, s2, t2)) = figures(&next) else { continue };
        let d2 = distance(targets, &r2, h2, s2, t2);
        if d2 < d {
            (best, rtp, hit, sd, top, d) = (next, r2, h2, s2, t2, d2);
        }
    }
    let mut missed = Vec::new();
    let pct = percent;
    if (&rtp - &targets.rtp).abs() > targets.tolerance {
        missed.push(format!("RTP {} % asked, {} % reached (off by more than {} %)", pct(&targets.rtp), pct(&rtp), pct(&targets.tolerance)));
    }
    if let (Some((lo, hi)), Some(h)) = (targets.hit_frequency, hit)
        && !(lo..=hi).contains(&h)
    {
        missed.push(format!("hit frequency {:.2}–{:.2} % asked, {:.2} % reached", lo * 100.0, hi * 100.0, h * 100.0));
    }
    if targets.hit_frequency.is_some() && hit.is_none() {
        missed.push("hit frequency asked, but these strips are too long to walk for it (symbol counts give no hit frequency)".into());
    }
    if let Some((lo, hi)) = targets.sd
        && !(lo..=hi).contains(&sd)
    {
        missed.push(format!("SD {lo:.3}–{hi:.3} asked, {sd:.3} reached"));
    }
    if let Some((lo, hi)) = targets.top_one_in {
        match top {
            Some(n) if (lo..=hi).contains(&n) => {}
            Some(n) => missed.push(format!("largest win 1 in {lo:.0}–{hi:.0} games asked, 1 in {n:.0} reached")),
            None => missed.push(format!("largest win 1 in {lo:.0}–{hi:.0} games asked, never paid on these strips")),
        }
    }
    Ok(Generated { game: best, rtp, hit_frequency: hit, sd, top_one_in: top, missed, steps })
}

/// The paytable's source with its `reels: [...]` replaced by `game`'s
/// strips, everything else as the designer wrote it.
/// `source` as an RTP variant of its game (issue 73): its `id` becomes
/// `id`, and `variant_of` names the game it varies (`of`), so that the
/// file is approved beside its source without an edit. None when the
/// source has no `id: "…"` to rewrite.
pub fn as_variant(source: &str, id: &str, of: &str) -> Option<String> {
    let at = source.find("\n    id: \"")? + "\n    id: \"".len();
    let end = at + source[at..].find('"')?;
    let mut text = format!("{}{id}{}", &source[..at], &source[end..]);
    let variant = format!("variant_of: Some({of:?})");
    match text.find("\n    variant_of: ") {
        Some(v) => {
            let start = v + "\n    ".len();
            let stop = start + text[start..].find(",\n")?;
            text.replace_range(start..stop, &variant);
        }
        None => {
            let line_end = at + text[at..].find('\n')?;
            text.insert_str(line_end, &format!("\n    {variant},"));
        }
    }
    Some(text)
}

pub fn with_strips(source: &str, game: &ReelGame) -> Option<String> {
    let start = source.find("\n    reels: [")? + 1;
    let open = start + source[start..].find('[')?;
    let mut depth = 0usize;
    let mut end = None;
    for (k, ch) in source[open..].char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(open + k + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end?;
    let id = |x: &SymbolId| format!("{:?}", game.symbols[usize::from(*x)].id);
    let strips: Vec<String> = game.reels.iter().map(|s| format!("        [{}],", s.symbols.iter().map(id).collect::<Vec<_>>().join(", "))).collect();
    Some(format!("{}reels: [\n{}\n    ]{}", &source[..start + 4], strips.join("\n"), &source[end..]))
}

#[cfg(test)]
mod tests {
    use super::as_variant;

    #[test]
    fn a_generated_file_is_its_own_variant_of_the_source_game() {
        let src = "ReelPaytable(\n    id: \"floresta-243\",\n    name: \"Floresta\",\n)";
        assert_eq!(
            as_variant(src, "floresta-243-90", "floresta-243").unwrap(),
            "ReelPaytable(\n    id: \"floresta-243-90\",\n    variant_of: Some(\"floresta-243\"),\n    name: \"Floresta\",\n)"
        );
        let variant = "ReelPaytable(\n    id: \"d-94\",\n    variant_of: Some(\"d\"),\n    name: \"D\",\n)";
        assert_eq!(as_variant(variant, "d-90", "d").unwrap(), variant.replace("d-94", "d-90"));
        assert!(as_variant("ReelPaytable(name: \"x\")", "y", "x").is_none());
    }
}
