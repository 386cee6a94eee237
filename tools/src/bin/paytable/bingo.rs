//! Bingo paytables: check (with the extra balls' figures), PAR sheet, simulation.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::check::Floor;

use super::{read, rounds_bar, seed_or_fresh, verdict};

pub(super) fn load(file: &std::path::Path) -> Result<game_core::bingo::BingoGame> {
    Ok(paytables::bingo::compile_bingo(&file.display().to_string(), &read(file)?)?)
}

/// `paytable check` of bingo: the base game's exact figures (the same RTP
/// for any number of cards), each pattern's probability and share, and the
/// extra balls'.
pub(super) fn check(file: &std::path::Path, json: bool, floor: &str, extra_target: Option<f64>) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let game = load(file)?;
    let started = std::time::Instant::now();
    let f = paytables::bingo::figures(&game);
    let secs = started.elapsed().as_secs_f64();
    let margin = match extra_target {
        Some(t) if !(80.0..=100.0).contains(&t) => return Err(anyhow!("--extra-target {t}: a target return from 80 to 100 percent")),
        Some(t) => Some(paytables::bingo::margin_for(&game, t / 100.0).ok_or_else(|| anyhow!("{}: no extra balls to price", game.id))?),
        None => None,
    };
    let refusals = paytables::bingo::refusals(&file.display().to_string(), &read(file)?, &game, &f, &floor);
    if json {
        let patterns: Vec<serde_json::Value> = f
            .patterns
            .iter()
            .map(|(name, p, share)| serde_json::json!({ "pattern": name, "probability": p.to_string(), "rtp_share": share.to_string() }))
            .collect();
        let extra = f.extra.as_ref().map(|e| {
            serde_json::json!({ "offered": e.offered, "value": e.value, "price": e.price, "rtp_buying_every_offer": e.rtp(),
            "best_offer": e.best.map(|(a, b)| a as f64 / b as f64), "worst_offer": e.worst.map(|(a, b)| a as f64 / b as f64) })
        });
        let bounds: Vec<serde_json::Value> = f
            .bounds
            .iter()
            .map(|b| serde_json::json!({ "cards": b.cards, "least": b.least.0 as f64 / b.least.1 as f64, "most": b.most.0 as f64 / b.most.1 as f64 }))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "game": game.id, "rtp": f.rtp.to_string(), "hit_frequency_one_card": f.hit.to_string(),
                "sd_one_card": f.sd, "patterns": patterns, "extra": extra, "offer_bounds": bounds,
                "best_policy_rtp": f.best_policy.as_ref().map(|b| b.rtp()), "seconds": secs, "refusals": refusals,
                "margin_for_target": margin.map(|(bp, rtp)| serde_json::json!({ "margin_bp": bp, "rtp": rtp })) }))?
        );
    } else {
        print!("{}", paytables::bingo::report(&game, &f));
        if let (Some((bp, rtp)), Some(t)) = (margin, extra_target) {
            println!(
                "extra balls: a margin of {bp} basis points gives {:.5}% buying every offer (the largest margin at or above the target {t}%)",
                rtp * 100.0
            );
        }
        println!("analysis: {secs:.2} s");
    }
    verdict(file, &refusals, json)
}

pub(super) fn par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let game = load(file)?;
    let f = paytables::bingo::figures(&game);
    verdict(file, &paytables::bingo::refusals(&file.display().to_string(), &read(file)?, &game, &f, &Floor::from_percent(floor)?), true)?;
    std::fs::create_dir_all(out).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let path = out.join(format!("{}-par.md", game.id));
    let body = format!("# PAR sheet — {} ({})\n\n```\n{}```\n", game.name, game.id, paytables::bingo::report(&game, &f));
    std::fs::write(&path, body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}

/// Bingo rounds through the production deal and round: the base game's
/// measured RTP against the exact one, and the extra balls' when bought.
pub(super) fn simulate(
    file: &std::path::Path,
    rounds: u64,
    seed: Option<u64>,
    cards: Option<u32>,
    buy: bool,
    threads: Option<usize>,
    json: bool,
) -> Result<ExitCode> {
    let game = load(file)?;
    let cards = cards.map_or(Ok(game.most_cards), u8::try_from)?;
    if !(1..=game.most_cards).contains(&cards) {
        return Err(anyhow!("{cards} cards: {} plays 1 to {}", game.id, game.most_cards));
    }
    // Only the figures the simulation is held to: the base RTP, and the
    // extra balls' chain for one card (not the rest of `paytable check`).
    let sets = game_core::bingo::odds::CardSets::new(&game);
    let (num, den) = sets.odds().rtp(&game.patterns).ok_or_else(|| anyhow!("{}: the return's sum overflows 128 bits", game.id))?;
    let exact = num as f64 / den.max(1) as f64;
    let seed = seed_or_fresh(seed)?;
    let bar = rounds_bar(rounds, json);
    let sim = paytables::bingo::simulate(&game, cards, buy, rounds, seed, threads.unwrap_or_else(super::threads), &|n| bar.inc(n));
    bar.finish_and_clear();
    let (lo, hi) = sim.base.ci99();
    let extra = sim.extra_rtp();
    // One card buying every offer: the extra balls' exact chain too.
    let extra_exact = game.extra.filter(|_| cards == 1 && buy && game.minimum == 1).map(|x| sets.extra(&x, game.minimum).rtp());
    let extra_inside = match (extra_exact, extra) {
        (Some(x), Some((_, a, b))) => (a..=b).contains(&x),
        _ => true,
    };
    let inside = (lo..=hi).contains(&exact) && extra_inside;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "game": game.id, "cards": cards, "rounds": rounds, "seed": seed, "rtp": sim.base.rtp(),
                "ci99": [lo, hi], "exact": exact, "inside": inside, "extra_rtp": extra.map(|e| e.0), "extra_ci99": extra.map(|e| [e.1, e.2]), "extra_exact": extra_exact,
                "extra_price_per_round": sim.extra_price / rounds.max(1) as f64,
                "hit_frequency": sim.base.hits as f64 / rounds.max(1) as f64, "standard_deviation": sim.base.standard_deviation() }))?
        );
    } else {
        println!("{} ({}), {cards} cards, {rounds} rounds, seed {seed}", game.name, game.id);
        println!(
            "base game: measured {:.4}%, 99% interval [{:.4}, {:.4}], exact {:.4}%: {}",
            sim.base.rtp() * 100.0,
            lo * 100.0,
            hi * 100.0,
            exact * 100.0,
            if (lo..=hi).contains(&exact) { "inside" } else { "OUTSIDE" }
        );
        match extra {
            Some((r, a, b)) => println!(
                "extra balls bought whenever offered: return {:.4}%, 99% interval [{:.4}, {:.4}], {:.4} credits paid a round",
                r * 100.0,
                a * 100.0,
                b * 100.0,
                sim.extra_price / rounds.max(1) as f64
            ),
            None => println!("no extra ball bought"),
        }
        if let Some(x) = extra_exact {
            println!("extra balls, one card: exact {:.4}%: {}", x * 100.0, if extra_inside { "inside" } else { "OUTSIDE" });
        }
        // The cards share the draw: the round's hit frequency and standard
        // deviation for several cards are measured here (check bounds them).
        println!(
            "base game, {cards} cards: hit frequency {:.4}%, standard deviation {:.4} per credit bet",
            sim.base.hits as f64 / rounds.max(1) as f64 * 100.0,
            sim.base.standard_deviation()
        );
    }
    Ok(if inside { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
