//! `paytable compile`: the canonical artifact of a paytable of any kind.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;
use paytables::poker_compile::Kind;

use super::{bingo, blackjack, kind, poker, read, reels, roulette, table, threads, verdict};

/// Check a paytable of any kind, refuse it with every reason, or write its
/// canonical artifact (and approve its digest into a manifest).
pub(super) fn compile(file: &std::path::Path, out: &std::path::Path, floor: &str, approve_into: Option<&std::path::Path>) -> Result<ExitCode> {
    let artifact = artifact(file, floor)?;
    let bytes = paytables::artifact::canonical_bytes(&artifact);
    std::fs::write(out, &bytes).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let digest = paytables::artifact::sha256_hex(&bytes);
    println!("{digest}  {}", out.display());
    if let Some(m) = approve_into {
        let mut manifest = paytables::artifact::read_manifest(m)?;
        let name = out.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let id = artifact.game.id().to_owned();
        manifest.approved.retain(|e| e.id != id);
        manifest.approved.push(paytables::artifact::ManifestEntry { id, file: name, sha256: digest });
        manifest.approved.sort_by(|a, b| a.id.cmp(&b.id));
        let text = ron::ser::to_string_pretty(&manifest, ron::ser::PrettyConfig::default())?;
        std::fs::write(m, text + "\n").map_err(|e| anyhow!("{}: {e}", m.display()))?;
        println!("approved in {}", m.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The canonical artifact of a paytable of any kind, its exact RTP proved;
/// refused with every reason when the paytable is illegal.
pub(super) fn artifact(file: &std::path::Path, floor: &str) -> Result<paytables::artifact::Artifact> {
    use paytables::artifact::CompiledGame;
    let text = read(file)?;
    let artifact = match kind(file)? {
        Kind::Reels => {
            let (source, checked) = reels::checked(file, floor)?;
            let rtp: Vec<(u64, _)> = checked.figures.configs.iter().map(|c| (u64::from(c.lines), c.rtp.clone())).collect();
            paytables::artifact::build(&source.text, CompiledGame::Reels(source.game), &rtp, None, source.odds_disclosure)
        }
        Kind::DrawPoker => {
            let (game, odds) = poker::load_draw(file)?;
            let checked = paytables::draw_check::check(&game, &Floor::from_percent(floor)?, odds.as_deref(), threads());
            verdict(file, &checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), true)?;
            let rtp: Vec<(u64, _)> = checked.figures.configs.iter().map(|c| (u64::from(c.coins), c.rtp.clone())).collect();
            paytables::artifact::build(&text, CompiledGame::DrawPoker(game), &rtp, None, odds)
        }
        Kind::StudPoker => {
            let (game, odds) = poker::load_stud(file)?;
            let checked = paytables::stud_math::check(&game, &Floor::from_percent(floor)?, odds.as_deref(), threads());
            verdict(file, &checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), true)?;
            let rtp: Vec<(u64, _)> = checked.analysis.configs.iter().map(|c| (c.ante, c.rtp.clone())).collect();
            let side = game.jackpot.as_ref().and_then(|j| paytables::stud_math::side_bet_rtp(&game, &checked.analysis.dealt, j.start_value_credits));
            paytables::artifact::build(&text, CompiledGame::StudPoker(game), &rtp, side.as_ref(), odds)
        }
        Kind::BancaFrancesa
        | Kind::SicBo
        | Kind::Baccarat
        | Kind::Boule
        | Kind::RodaDaSorte
        | Kind::Fantan
        | Kind::FishPrawnCrab
        | Kind::Poquer3Cartas
        | Kind::DesafioAoCasino
        | Kind::Craps => {
            let (game, bets) = table::load(file)?;
            verdict(file, &paytables::table_bet::refusals(game.id(), &bets, &Floor::from_percent(floor)?), true)?;
            let lowest = paytables::table_bet::lowest(&bets).map(|b| b.rtp.clone()).ok_or_else(|| anyhow!("no bets"))?;
            // B-16 (issue 77): every bet's own RTP beside the lowest.
            let categories = paytables::table_bet::wager_categories(&game, &bets);
            paytables::artifact::build(&text, game, &[(0, lowest)], None, None).with_bet_rtp(&categories)
        }
        Kind::Blackjack => {
            let game = blackjack::load(file)?;
            let f = paytables::blackjack::figures(&game);
            verdict(file, &paytables::blackjack::refusals(&file.display().to_string(), &text, &game, &f, &Floor::from_percent(floor)?), true)?;
            let rtp: Vec<(u64, _)> =
                paytables::blackjack::lines(&game.rules, &f).iter().enumerate().map(|(i, l)| (i as u64, paytables::blackjack::fraction(l.1))).collect();
            paytables::artifact::build(&text, CompiledGame::Blackjack(game), &rtp, None, None)
        }
        Kind::Bingo => {
            let game = bingo::load(file)?;
            let f = paytables::bingo::figures(&game);
            verdict(file, &paytables::bingo::refusals(&file.display().to_string(), &text, &game, &f, &Floor::from_percent(floor)?), true)?;
            paytables::artifact::build(&text, CompiledGame::Bingo(game), &[(0, f.rtp.clone())], None, None)
        }
        Kind::Roulette => {
            let game = roulette::load(file)?;
            let figures = paytables::roulette::figures(&game);
            verdict(file, &paytables::roulette::refusals(&game, &figures, &Floor::from_percent(floor)?), true)?;
            // B-16 (issue 77): every chance's own RTP, by the chance's name.
            let chances: Vec<_> = figures.chances.iter().map(|b| (b.name.clone(), b.rtp.clone())).collect();
            paytables::artifact::build(&text, CompiledGame::Roulette(game), &figures.by_covered(), None, None).with_bet_rtp(&chances)
        }
    };
    // B-18: every pocket, card and ball drawn as often as in the live game.
    verdict(file, &paytables::fidelity::refusals(&artifact.game), true)?;
    Ok(artifact)
}

/// `paytable fidelity`: the paytable compiled, then each symbol its game
/// draws set against the live game's (B-18).
pub(super) fn fidelity(file: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let artifact = artifact(file, floor)?;
    match paytables::fidelity::check(&artifact.game) {
        Some(f) => println!("{}: {}", artifact.game.id(), f.summary()),
        None => println!("{}: not a roulette, card or bingo game: B-18 names no live game to set it against", artifact.game.id()),
    }
    Ok(ExitCode::SUCCESS)
}
