//! Blackjack paytables: check and PAR sheet.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;

use super::{read, verdict};

pub(super) fn load(file: &std::path::Path) -> Result<game_core::blackjack::BlackjackGame> {
    Ok(paytables::blackjack::compile_blackjack(&file.display().to_string(), &read(file)?)?)
}

/// `paytable check` of blackjack: the game's return under optimal play,
/// without its bonus, and insurance, each held to the floor.
pub(super) fn check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let game = load(file)?;
    let started = std::time::Instant::now();
    let f = paytables::blackjack::figures(&game);
    let secs = started.elapsed().as_secs_f64();
    let refusals = paytables::blackjack::refusals(&file.display().to_string(), &read(file)?, &game, &f, &floor);
    if json {
        let lines: Vec<serde_json::Value> = paytables::blackjack::lines(&game.rules, &f)
            .iter()
            .map(|(name, rtp)| serde_json::json!({ "line": name, "rtp": rtp, "rtp_fraction": paytables::blackjack::fraction(*rtp).to_string() }))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "game": game.id, "rules": paytables::blackjack::rules_text(&game.rules),
                "lines": lines, "bonus_share": f.bonus, "by_up_card": f.by_up_card, "seconds": secs, "refusals": refusals }))?
        );
    } else {
        print!("{}", paytables::blackjack::report(&game, &f));
        println!("analysis: {secs:.2} s");
    }
    verdict(file, &refusals, json)
}

/// The PAR sheet of blackjack: the figures and the strategy, in Markdown.
pub(super) fn par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let game = load(file)?;
    let f = paytables::blackjack::figures(&game);
    verdict(file, &paytables::blackjack::refusals(&file.display().to_string(), &read(file)?, &game, &f, &Floor::from_percent(floor)?), true)?;
    std::fs::create_dir_all(out).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let path = out.join(format!("{}-par.md", game.id));
    let body = format!(
        "# PAR sheet — {} ({})\n\n```\n{}```\n\n```\n{}```\n",
        game.name,
        game.id,
        paytables::blackjack::report(&game, &f),
        paytables::blackjack::strategy_text(&game, &f.strategy)
    );
    std::fs::write(&path, body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}
