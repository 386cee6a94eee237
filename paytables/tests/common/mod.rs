//! What the reel-feature tests share: a shipped paytable read from its
//! file, and a refused paytable's problems with their lines.
#![allow(dead_code, clippy::unwrap_used)]

use game_core::reels::ReelGame;
use paytables::{PaytableError, compile};

/// The shipped paytable `id` (`assets/paytables/ID.ron`), compiled.
pub fn shipped(id: &str) -> ReelGame {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(format!("{id}.ron"));
    paytables::load(&path).unwrap()
}

/// Every problem of a paytable the compiler refuses: (line, problem).
pub fn refused(src: &str) -> Vec<(usize, String)> {
    let e = compile("bad.ron", src).expect_err("refused");
    e.problems()
        .into_iter()
        .map(|p| match p {
            PaytableError::Invalid { line, problem, .. } => (*line, problem.clone()),
            other => (0, other.to_string()),
        })
        .collect()
}
