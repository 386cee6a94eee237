//! An analysis refusal located in its source (issue 36): an exact analysis
//! that cannot be made (pays whose sums overflow, a cycle too large, free
//! games that never end, more lines than the analysis handles) names the
//! line and the value it comes from, as every validation refusal does.

use crate::compile::Source;
use crate::error::{PaytableError, Reporter};
use crate::format::ReelPaytable;
use crate::locate::Path;
use crate::reel_math::{Culprit, MathError};

/// `e` as a refusal of `source`, at the line of the value it comes from
/// when one value is its cause; the file alone otherwise (a worker that
/// failed, a deadline).
pub fn locate(source: &Source, e: &MathError) -> PaytableError {
    let r = Reporter { file: &source.file, src: crate::compile::without_bom(&source.text) };
    match crate::compile::parse(&source.file, &source.text).ok().and_then(|p| culprit_path(&p, e)) {
        Some(path) => r.at(path, e.to_string()),
        None => r.math(e.to_string()),
    }
}

/// Where in the paytable the value behind `e` is written.
fn culprit_path(p: &ReelPaytable, e: &MathError) -> Option<Path> {
    let culprit = match e {
        MathError::PaysTooLarge { culprit, .. } | MathError::CycleTooLarge { culprit, .. } => *culprit,
        MathError::TooManyLines { .. } => Culprit::LargestLineCount,
        MathError::EndlessFreeGames(_) => Culprit::FreeGames,
        MathError::WorkerFailed(_) | MathError::Stopped { .. } => return None,
    };
    let root = Path::default();
    let strips = |weights: bool, at: Path| if weights { at.field("weights") } else { at.field("reels") };
    Some(match culprit {
        Culprit::LargestPay => {
            let (i, _) = p.pays.iter().enumerate().max_by_key(|(_, pay)| pay.pays)?;
            root.field("pays").index(i).field("pays")
        }
        Culprit::LargestLineCount => {
            let (i, _) = p.bet.lines.iter().enumerate().max_by_key(|(_, lines)| **lines)?;
            root.field("bet").field("lines").index(i)
        }
        Culprit::Strips => strips(p.weights.is_some(), root),
        Culprit::FreeStrips => match p.scatter.as_ref().and_then(|s| s.free_games.as_ref()) {
            Some(f) if f.reels.is_some() || f.weights.is_some() => strips(f.weights.is_some(), root.field("scatter").field("free_games")),
            _ => strips(p.weights.is_some(), root),
        },
        Culprit::FreeGames => root.field("scatter").field("free_games").field("awards"),
    })
}
