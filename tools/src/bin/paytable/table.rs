//! The table games whose bets are listed (banca francesa, sic bo, baccarat, boule, roda da sorte, fantan, fish-prawn-crab, póquer de 3 cartas, desafio ao casino, craps): check and PAR sheet.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;
use paytables::poker_compile::Kind;

use super::{kind, read, verdict};

/// A table of bets with fixed payouts (banca francesa, sic bo, baccarat)
/// and its bets' exact figures.
pub(super) fn load(file: &std::path::Path) -> Result<(paytables::artifact::CompiledGame, Vec<paytables::table_bet::TableBet>)> {
    use paytables::artifact::CompiledGame;
    let name = file.display().to_string();
    let text = read(file)?;
    Ok(match kind(file)? {
        Kind::BancaFrancesa => (CompiledGame::BancaFrancesa(paytables::dice::compile_banca_francesa(&name, &text)?), paytables::dice::banca_francesa_figures()),
        Kind::Baccarat => {
            let game = paytables::baccarat::compile_baccarat(&name, &text)?;
            let bets = paytables::baccarat::game_figures(&game);
            (CompiledGame::Baccarat(game), bets)
        }
        Kind::RodaDaSorte => {
            (CompiledGame::RodaDaSorte(paytables::roda_da_sorte::compile_roda_da_sorte(&name, &text)?), paytables::roda_da_sorte::roda_da_sorte_figures())
        }
        Kind::Fantan => (CompiledGame::Fantan(paytables::fantan::compile_fantan(&name, &text)?), paytables::fantan::fantan_figures()),
        Kind::FishPrawnCrab => {
            let g = paytables::fish_prawn_crab::compile_fish_prawn_crab(&name, &text)?;
            let figures = paytables::fish_prawn_crab::fish_prawn_crab_figures(&g);
            (CompiledGame::FishPrawnCrab(g), figures)
        }
        Kind::DesafioAoCasino => {
            let g = paytables::desafio_ao_casino::compile_desafio_ao_casino(&name, &text)?;
            let figures = paytables::desafio_ao_casino::desafio_figures(&g);
            (CompiledGame::DesafioAoCasino(g), figures)
        }
        Kind::Craps => {
            let g = paytables::craps::compile_craps(&name, &text)?;
            let figures = paytables::craps::craps_figures(&g);
            (CompiledGame::Craps(g), figures)
        }
        Kind::Poquer3Cartas => (
            CompiledGame::Poquer3Cartas(paytables::poquer_3_cartas::compile_poquer_3_cartas(&name, &text)?),
            paytables::poquer_3_cartas::poquer_3_cartas_figures(),
        ),
        Kind::Boule => (CompiledGame::Boule(paytables::boule::compile_boule(&name, &text)?), paytables::boule::boule_figures()),
        _ => (CompiledGame::SicBo(paytables::dice::compile_sic_bo(&name, &text)?), paytables::dice::sic_bo_figures()),
    })
}

/// `paytable check` of a table of fixed payouts: every bet's exact RTP,
/// held to the floor.
pub(super) fn check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (game, bets) = load(file)?;
    let refusals = paytables::table_bet::refusals(game.id(), &bets, &floor);
    if json {
        let rows: Vec<serde_json::Value> = bets
            .iter()
            .map(|b| serde_json::json!({ "bet": b.name, "pays": b.pays, "rtp_exact": b.rtp.to_string(), "rtp_percent": paytables::roulette::pct(&b.rtp), "hit_percent": paytables::roulette::pct(&b.hit) }))
            .collect();
        let lowest = paytables::table_bet::lowest(&bets).map(|b| b.rtp.to_string());
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "game": game.id(), "bets": rows, "lowest_rtp_exact": lowest, "refusals": refusals }))?
        );
    } else {
        print!("{}", paytables::table_bet::report(&format!("{} ({})", game.name(), game.id()), &bets));
    }
    verdict(file, &refusals, json)
}

/// The PAR sheet of a table of fixed payouts: its bets in Markdown and CSV.
pub(super) fn par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let (game, bets) = load(file)?;
    verdict(file, &paytables::table_bet::refusals(game.id(), &bets, &Floor::from_percent(floor)?), true)?;
    std::fs::create_dir_all(out).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let mut md = format!("# PAR sheet — {} ({})\n\n| bet | pays | RTP (exact) | RTP % | hit % |\n|---|---|---|---|---|\n", game.name(), game.id());
    let mut csv = String::from("bet,pays,rtp_exact,rtp_percent,hit_percent\n");
    for b in &bets {
        let (rtp, hit) = (paytables::roulette::pct(&b.rtp), paytables::roulette::pct(&b.hit));
        md.push_str(&format!("| {} | {} | {} | {rtp} | {hit} |\n", b.name, b.pays, b.rtp));
        csv.push_str(&format!("\"{}\",{},{},{rtp},{hit}\n", b.name, b.pays, b.rtp));
    }
    for (path, body) in [(out.join(format!("{}-par.md", game.id())), md), (out.join(format!("{}-bets.csv", game.id())), csv)] {
        std::fs::write(&path, body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
