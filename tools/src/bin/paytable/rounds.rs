//! `paytable simulate` for the games of rounds (poker, blackjack, baccarat,
//! dice, roulette): the production round and RNG, against the exact RTP.

use std::process::ExitCode;

use anyhow::{Result, anyhow};
use paytables::poker_compile::Kind;

use super::{blackjack, kind, poker, read, roulette, rounds_bar, seed_or_fresh, table};

#[allow(clippy::too_many_arguments)]
/// What every kind's simulation measures.
trait Measured {
    fn rounds(&self) -> u64;
    fn rtp(&self) -> f64;
    fn ci99(&self) -> (f64, f64);
    fn standard_deviation(&self) -> f64;
}

macro_rules! measured {
    ($t:ty, $rounds:ident) => {
        impl Measured for $t {
            fn rounds(&self) -> u64 {
                self.$rounds
            }
            fn rtp(&self) -> f64 {
                <$t>::rtp(self)
            }
            fn ci99(&self) -> (f64, f64) {
                <$t>::ci99(self)
            }
            fn standard_deviation(&self) -> f64 {
                <$t>::standard_deviation(self)
            }
        }
    };
}
measured!(paytables::simulate::SimResult, games);
measured!(paytables::blackjack::BlackjackSim, hands);
measured!(paytables::stud_math::RatioSim, games);

/// `run()` and the seconds it took.
fn timed<T>(run: impl FnOnce() -> T) -> (T, f64) {
    let started = std::time::Instant::now();
    let out = run();
    (out, started.elapsed().as_secs_f64())
}

pub(super) fn simulate(
    file: &std::path::Path,
    games: u64,
    seed: Option<u64>,
    coins: Option<u32>,
    ante: Option<u64>,
    threads_arg: Option<usize>,
    json: bool,
) -> Result<ExitCode> {
    let seed = seed_or_fresh(seed)?;
    let threads = threads_arg.unwrap_or_else(super::threads);
    let bar = rounds_bar(games, json);
    // (name, bet, exact RTP, the measured rounds, seconds)
    let (name, what, exact, r, secs) = match kind(file)? {
        Kind::DrawPoker => {
            let (game, _) = poker::load_draw(file)?;
            let coins = coins.unwrap_or_else(|| game.max_coins());
            if !game.coins.contains(&coins) {
                return Err(anyhow!("{coins} coins is not a bet {} offers ({:?})", game.name, game.coins));
            }
            let tables = paytables::draw_math::DrawTables::build(&game, threads);
            let fig = paytables::draw_math::analyse_with(&game, &tables, threads);
            let exact = fig.configs.iter().find(|c| c.coins == coins).map_or(f64::NAN, |c| num_traits::ToPrimitive::to_f64(&c.rtp).unwrap_or(f64::NAN));
            let (r, secs) = timed(|| paytables::draw_check::simulate(&game, &tables, coins, games, seed, threads, &|n| bar.inc(n)));
            (game.name.clone(), format!("{coins} coin(s), optimal holds"), exact, Box::new(r) as Box<dyn Measured>, secs)
        }
        Kind::Blackjack => {
            let game = blackjack::load(file)?;
            let f = paytables::blackjack::figures(&game);
            let (r, secs) = timed(|| paytables::blackjack::simulate(&game, &f.strategy, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name.clone(),
                format!(
                    "the optimal strategy, {} credits a hand, a fresh {}-deck shoe a hand; bonus measured {:.4}%",
                    r.bet,
                    game.rules.decks,
                    r.bonus_rtp() * 100.0
                ),
                f.rtp,
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::Baccarat => {
            let game = paytables::baccarat::compile_baccarat(&file.display().to_string(), &read(file)?)?;
            let ((r, exact), secs) = timed(|| paytables::baccarat::simulate(&game, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name.clone(),
                format!("20 credits on each of the {} bets, a fresh {}-deck shoe a coup", game.spots().len(), game.decks),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::BancaFrancesa | Kind::SicBo => {
            let (game, bets) = table::load(file)?;
            let banca = kind(file)? == Kind::BancaFrancesa;
            let ((r, exact), secs) = timed(|| paytables::dice::simulate(banca, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                format!("one chip on each of the {} bets{}", bets.len(), if banca { ", a round a golpe" } else { "" }),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::RodaDaSorte => {
            let (game, bets) = table::load(file)?;
            let ((r, exact), secs) = timed(|| paytables::roda_da_sorte::simulate(games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                format!("one credit on each of the {} symbols", bets.len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::DesafioAoCasino => {
            let (game, _) = table::load(file)?;
            let paytables::artifact::CompiledGame::DesafioAoCasino(g) = &game else { anyhow::bail!("{}: not a desafio ao casino table", file.display()) };
            let ((r, exact), secs) = timed(|| paytables::desafio_ao_casino::simulate(g, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                "an ante of 2 units, war on every tie (return per initial ante)".to_owned(),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::Craps => {
            let (game, bets) = table::load(file)?;
            let paytables::artifact::CompiledGame::Craps(g) = &game else { anyhow::bail!("{}: not a craps table", file.display()) };
            let ((r, exact), secs) = timed(|| paytables::craps::simulate(g, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                format!("one credit on each of the {} spots, rolled until every one is decided", bets.len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::Poquer3Cartas => {
            let (game, _) = table::load(file)?;
            let ((r, exact), secs) = timed(|| paytables::poquer_3_cartas::simulate(games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                "an ante of 20 units".to_owned(),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::FishPrawnCrab => {
            let (game, _) = table::load(file)?;
            let paytables::artifact::CompiledGame::FishPrawnCrab(g) = &game else { anyhow::bail!("{}: not a fish-prawn-crab table", file.display()) };
            let ((r, exact), secs) = timed(|| paytables::fish_prawn_crab::simulate(g, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                format!("one credit on each of the {} places of the cloth", g.cloth().len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::Fantan => {
            let (game, bets) = table::load(file)?;
            let ((r, exact), secs) = timed(|| paytables::fantan::simulate(games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                format!("120 credits on each of the {} chances", bets.len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::Boule => {
            let (game, bets) = table::load(file)?;
            let ((r, exact), secs) = timed(|| paytables::boule::simulate(games, seed, threads, &|n| bar.inc(n)));
            (
                game.name().to_owned(),
                format!("one credit on each of the {} chances", bets.len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        Kind::Roulette => {
            let game = roulette::load(file)?;
            let (layout, exact) = paytables::roulette::simulated_layout(&game);
            let (r, secs) = timed(|| paytables::roulette::simulate(&game, games, seed, threads, &|n| bar.inc(n)));
            (
                game.name.clone(),
                format!("{} spots of 2 credits, one of each chance", layout.len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                Box::new(r) as Box<dyn Measured>,
                secs,
            )
        }
        _ => {
            let (game, _) = poker::load_stud(file)?;
            let ante = ante.unwrap_or(game.antes[0]);
            if !game.antes.contains(&ante) {
                return Err(anyhow!("an ante of {ante} is not offered by {} ({:?})", game.name, game.antes));
            }
            let an = paytables::stud_math::analyse(&game, threads);
            let cfg = an.configs.iter().find(|c| c.ante == ante).ok_or_else(|| anyhow!("no figures for ante {ante}"))?;
            let exact = num_traits::ToPrimitive::to_f64(&cfg.rtp).unwrap_or(f64::NAN);
            let (r, secs) = timed(|| paytables::stud_math::simulate(&game, &an, ante, games, seed, threads, &|n| bar.inc(n)));
            (game.name.clone(), format!("ante {ante}, optimal raise/fold"), exact, Box::new(r) as Box<dyn Measured>, secs)
        }
    };
    bar.finish_and_clear();
    let (n, rtp, (lo, hi), sd) = (r.rounds(), r.rtp(), r.ci99(), r.standard_deviation());
    let inside = exact >= lo && exact <= hi;
    if json {
        let doc = serde_json::json!({
            "game": name, "bet": what, "games": n, "seed": seed, "threads": threads,
            "measured_rtp": rtp, "ci99": [lo, hi], "exact_rtp": exact, "exact_inside_ci99": inside,
            "standard_deviation": sd, "seconds": secs, "rounds_per_second": n as f64 / secs,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        println!("{name} — {n} rounds, {what}, seed {seed}, {threads} thread(s), {secs:.2} s ({:.0} rounds/s)", n as f64 / secs);
        println!("measured RTP {:.4}%   99% interval [{:.4}%, {:.4}%]", rtp * 100.0, lo * 100.0, hi * 100.0);
        println!("exact RTP    {:.4}%   {}", exact * 100.0, if inside { "inside the interval" } else { "OUTSIDE the interval" });
    }
    Ok(ExitCode::SUCCESS)
}
