//! Video roulette paytables: check and PAR sheet.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;

use super::{read, verdict};

pub(super) fn load(file: &std::path::Path) -> Result<game_core::roulette::RouletteGame> {
    Ok(paytables::roulette::compile_roulette(&file.display().to_string(), &read(file)?)?)
}

/// `paytable check` of a roulette table: every chance and call bet with
/// its exact RTP as a fraction, each held to the floor.
pub(super) fn check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let game = load(file)?;
    let figures = paytables::roulette::figures(&game);
    let refusals = paytables::roulette::refusals(&game, &figures, &floor);
    if json {
        let bets: Vec<serde_json::Value> = figures
            .chances
            .iter()
            .chain(&figures.call_bets)
            .map(|b| {
                serde_json::json!({ "bet": b.name, "covers": b.covered, "pays": b.pays, "rtp_exact": b.rtp.to_string(),
                    "rtp_percent": paytables::roulette::pct(&b.rtp), "hit_percent": paytables::roulette::pct(&b.hit) })
            })
            .collect();
        let lowest = figures.lowest().map(|b| b.rtp.to_string());
        println!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "game": game.id, "pockets": figures.pockets, "bets": bets, "lowest_rtp_exact": lowest, "refusals": refusals })
            )?
        );
    } else {
        print!("{}", paytables::roulette::report(&game, &figures));
    }
    verdict(file, &refusals, json)
}

/// The PAR sheet of a roulette table: the check's table in Markdown, and
/// every bet's figures as CSV.
pub(super) fn par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let game = load(file)?;
    let figures = paytables::roulette::figures(&game);
    verdict(file, &paytables::roulette::refusals(&game, &figures, &Floor::from_percent(floor)?), true)?;
    std::fs::create_dir_all(out).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let md = out.join(format!("{}-par.md", game.id));
    let mut text = format!("# PAR sheet — {} ({})\n\n| bet | covers | pays | RTP (exact) | RTP % | hit % |\n|---|---|---|---|---|---|\n", game.name, game.id);
    let mut csv = String::from("bet,covers,pays,rtp_exact,rtp_percent,hit_percent\n");
    for b in figures.chances.iter().chain(&figures.call_bets) {
        let (rtp, hit) = (paytables::roulette::pct(&b.rtp), paytables::roulette::pct(&b.hit));
        text.push_str(&format!("| {} | {} | {} | {} | {rtp} | {hit} |\n", b.name, b.covered, b.pays, b.rtp));
        csv.push_str(&format!("\"{}\",{},{},{},{rtp},{hit}\n", b.name, b.covered, b.pays, b.rtp));
    }
    let csv_path = out.join(format!("{}-bets.csv", game.id));
    for (path, body) in [(&md, &text), (&csv_path, &csv)] {
        std::fs::write(path, body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
