//! `paytable`: the paytable compiler game designers run offline (issue 3;
//! certification.md §B). Exit status: 0 accepted, 1 refused or invalid.
//!
//! * `paytable check FILE [--json] [--floor PCT] [--max-seconds S]` — exact
//!   figures over the full cycle for every bet configuration; refuses a
//!   paytable under the floor (80% by default, raised only) or with a prize
//!   rarer than 1 in 100,000,000 without an odds disclosure. A reel
//!   analysis of more than 10^8 stop combinations announces its size; on a
//!   terminal a progress bar shows it; `--max-seconds` stops it with how far
//!   it came and how long it would need.
//! * `paytable par FILE -o DIR` — the PAR sheet (Markdown, CSV, SVG charts).
//! * `paytable simulate FILE --games N [--seed S]` — plays N rounds through
//!   the production code and RNG; measured RTP with its 99% interval.
//! * `paytable compile FILE -o OUT` — the canonical artifact and its SHA-256.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use clap::{Parser, Subcommand};
use paytables::check::{Floor, check};
use paytables::poker_compile::Kind;

#[derive(Parser)]
#[command(name = "paytable", version, about = "The paytable compiler: exact RTP, PAR sheets, simulation, signed artifacts")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Exact figures of every bet configuration; refuses illegal paytables.
    Check {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        /// RTP floor in percent: 80 by default, may only be raised.
        #[arg(long, default_value = "80")]
        floor: String,
        /// A progressive pool (RON) the game contributes to: its share of
        /// each wager is reported on its own line, outside the base RTP.
        #[arg(long)]
        progressive: Option<PathBuf>,
        /// Stop a reel game's exact analysis after this many seconds, with
        /// how far it came and how long it would take.
        #[arg(long)]
        max_seconds: Option<u64>,
        /// Bingo: also find the house margin on extra balls whose return,
        /// one card buying every offer at the least bet, is this percent.
        #[arg(long)]
        extra_target: Option<f64>,
    },
    /// Write the PAR sheet: Markdown, CSV tables and SVG charts.
    Par {
        file: PathBuf,
        #[arg(short, long)]
        out: PathBuf,
        #[arg(long, default_value = "80")]
        floor: String,
    },
    /// Play N rounds through the production game code and RNG.
    Simulate {
        file: PathBuf,
        #[arg(long)]
        games: u64,
        #[arg(long)]
        seed: Option<u64>,
        /// Lines played (the largest offered when omitted); bingo: the
        /// cards played (the most when omitted).
        #[arg(long)]
        lines: Option<u32>,
        /// Bingo: never buy an extra ball (by default every offer is bought).
        #[arg(long)]
        no_extra: bool,
        /// Threads (the machine's cores when omitted).
        #[arg(long)]
        threads: Option<usize>,
        /// Draw poker: coins bet (the most when omitted).
        #[arg(long)]
        coins: Option<u32>,
        /// Póquer sem descarte: the ante in credits (the smallest when omitted).
        #[arg(long)]
        ante: Option<u64>,
        #[arg(long)]
        json: bool,
    },
    /// Draw poker: the expected value of each of the 32 holds of five cards,
    /// best first, by enumerating every draw. Blackjack: the optimal
    /// strategy (hard, soft, pairs × up card) in both languages.
    Strategy {
        file: PathBuf,
        /// Draw poker: five cards, As Kd 10h 2c Jk (the joker), in one or more words.
        #[arg(num_args = 0..)]
        cards: Vec<String>,
        /// Coins bet (the most the game takes when omitted).
        #[arg(long)]
        coins: Option<u32>,
    },
    /// Write the canonical compiled artifact; print its SHA-256 digest.
    Compile {
        file: PathBuf,
        #[arg(short, long)]
        out: PathBuf,
        #[arg(long, default_value = "80")]
        floor: String,
        /// Add (or update) the artifact's digest in this approved manifest.
        #[arg(long)]
        approve_into: Option<PathBuf>,
    },
}

/// Run a reel analysis with its size announced when it is large, and a
/// progress bar on a terminal while it runs.
fn watched<T>(game: &game_core::reels::ReelGame, work: &paytables::reel_math::Work, run: impl FnOnce() -> T + Send) -> T
where
    T: Send,
{
    let (combos, stops) = paytables::reel_math::work_size(game);
    let by_counts = paytables::reel_math::method_for(game) == paytables::reel_math::Method::SymbolCounts;
    if by_counts {
        eprintln!(
            "exact analysis of {}: {combos} combinations of the reels' distinct windows are too many to walk; exact RTP and SD from symbol counts",
            game.id
        );
    } else if combos > 100_000_000 {
        eprintln!("exact analysis of {}: {combos} combinations of the reels' distinct windows, walked in {stops} first-reel windows", game.id);
    }
    let bar = indicatif::ProgressBar::new(stops);
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let unit = if by_counts { "lines and pairs of lines" } else { "first-reel windows" };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {unit}  eta {{eta}}"))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // The watcher wakes every 100 ms, and at once when the work ends (issue
    // 36: a sleep made every check last at least 0.1 s).
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    let watcher = bar.clone();
    std::thread::scope(|s| {
        s.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(std::time::Duration::from_millis(100)) {
                let (done, total) = work.progress();
                watcher.set_length(total);
                watcher.set_position(done);
            }
        });
        let out = run();
        drop(finished);
        bar.finish_and_clear();
        out
    })
}

/// Load and check a paytable; refuse with every reason.
fn checked(file: &std::path::Path, floor: &str) -> Result<(paytables::Source, paytables::check::Checked)> {
    let floor = Floor::from_percent(floor)?;
    let source = paytables::load_source(file)?;
    let checked = check(&source.game, &floor, source.odds_disclosure.as_deref()).map_err(|e| anyhow!("{}", paytables::math_refusal::locate(&source, &e)))?;
    verdict(file, &checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), true)?;
    Ok((source, checked))
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("paytable: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check { progressive: Some(pool), file, json, floor, max_seconds, extra_target } => {
            let line = progressive_line(&pool)?;
            let r = run(Cli { command: Command::Check { file, json, floor, progressive: None, max_seconds, extra_target } });
            if json {
                println!("{}", serde_json::json!({ "progressive": line }));
            } else {
                println!("{}", line["text"].as_str().unwrap_or_default());
            }
            r
        }
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::DrawPoker => draw_check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::StudPoker => stud_check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::Roulette => roulette_check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::Blackjack => blackjack_check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if matches!(kind(&file)?, Kind::BancaFrancesa | Kind::SicBo | Kind::Baccarat) => {
            table_check(&file, json, &floor)
        }
        Command::Check { file, json, floor, extra_target, .. } if kind(&file)? == Kind::Bingo => bingo_check(&file, json, &floor, extra_target),
        Command::Simulate { file, games, seed, threads, lines, no_extra, json, .. } if kind(&file)? == Kind::Bingo => {
            bingo_simulate(&file, games, seed, lines, !no_extra, threads, json)
        }
        Command::Simulate { file, games, seed, threads, coins, ante, json, .. } if kind(&file)? != Kind::Reels => {
            poker_simulate(&file, games, seed, coins, ante, threads, json)
        }
        Command::Strategy { file, cards, coins } => strategy(&file, &cards, coins),
        Command::Check { file, json, floor, max_seconds, .. } => {
            let floor = Floor::from_percent(&floor)?;
            let source = paytables::load_source(&file)?;
            let warnings: Vec<String> = source.warnings.iter().map(|w| format!("{}: warning: {w}", file.display())).collect();
            let deadline = max_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs(s));
            let work = paytables::reel_math::Work::until(deadline);
            let checked = watched(&source.game, &work, || paytables::check::check_with(&source.game, &floor, source.odds_disclosure.as_deref(), &work))
                .map_err(|e| anyhow!("{}", paytables::math_refusal::locate(&source, &e)))?;
            report(&file, json, &checked.report, checked.refusals.iter().map(|r| r.to_string()).collect(), &warnings)
        }
        Command::Par { file, out, floor } if kind(&file)? == Kind::Roulette => roulette_par(&file, &out, &floor),
        Command::Par { file, out, floor } if kind(&file)? == Kind::Blackjack => blackjack_par(&file, &out, &floor),
        Command::Par { file, out, floor } if kind(&file)? == Kind::Bingo => bingo_par(&file, &out, &floor),
        Command::Par { file, out, floor } if matches!(kind(&file)?, Kind::BancaFrancesa | Kind::SicBo | Kind::Baccarat) => table_par(&file, &out, &floor),
        Command::Par { file, out, floor } => {
            let (source, checked) = checked(&file, &floor)?;
            for f in paytables::par::write_par(&source.game, &checked, &out)? {
                println!("{}", f.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { file, games, seed, lines, threads, json, .. } => simulate(&file, games, seed, lines, threads, json),
        Command::Compile { file, out, floor, approve_into } => compile(&file, &out, &floor, approve_into.as_deref()),
    }
}

/// Check a paytable of any kind, refuse it with every reason, or write its
/// canonical artifact (and approve its digest into a manifest).
fn compile(file: &std::path::Path, out: &std::path::Path, floor: &str, approve_into: Option<&std::path::Path>) -> Result<ExitCode> {
    use paytables::artifact::CompiledGame;
    let text = read(file)?;
    let artifact = match kind(file)? {
        Kind::Reels => {
            let (source, checked) = checked(file, floor)?;
            let rtp: Vec<(u64, _)> = checked.figures.configs.iter().map(|c| (u64::from(c.lines), c.rtp.clone())).collect();
            paytables::artifact::build(&source.text, CompiledGame::Reels(source.game), &rtp, None, source.odds_disclosure)
        }
        Kind::DrawPoker => {
            let (game, odds) = load_draw(file)?;
            let checked = paytables::draw_check::check(&game, &Floor::from_percent(floor)?, odds.as_deref(), threads());
            verdict(file, &checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), true)?;
            let rtp: Vec<(u64, _)> = checked.figures.configs.iter().map(|c| (u64::from(c.coins), c.rtp.clone())).collect();
            paytables::artifact::build(&text, CompiledGame::DrawPoker(game), &rtp, None, odds)
        }
        Kind::StudPoker => {
            let (game, odds) = load_stud(file)?;
            let checked = paytables::stud_math::check(&game, &Floor::from_percent(floor)?, odds.as_deref(), threads());
            verdict(file, &checked.refusals.iter().map(|r| r.to_string()).collect::<Vec<_>>(), true)?;
            let rtp: Vec<(u64, _)> = checked.analysis.configs.iter().map(|c| (c.ante, c.rtp.clone())).collect();
            let side = game.jackpot.as_ref().and_then(|j| paytables::stud_math::side_bet_rtp(&game, &checked.analysis.dealt, j.start_value_credits));
            paytables::artifact::build(&text, CompiledGame::StudPoker(game), &rtp, side.as_ref(), odds)
        }
        Kind::BancaFrancesa | Kind::SicBo | Kind::Baccarat => {
            let (game, bets) = load_table(file)?;
            verdict(file, &paytables::table_bet::refusals(game.id(), &bets, &Floor::from_percent(floor)?), true)?;
            let lowest = paytables::table_bet::lowest(&bets).map(|b| b.rtp.clone()).ok_or_else(|| anyhow!("no bets"))?;
            paytables::artifact::build(&text, game, &[(0, lowest)], None, None)
        }
        Kind::Blackjack => {
            let game = load_blackjack(file)?;
            let f = paytables::blackjack::figures(&game);
            verdict(file, &paytables::blackjack::refusals(&game, &f, &Floor::from_percent(floor)?), true)?;
            let rtp: Vec<(u64, _)> = paytables::blackjack::lines(&f).iter().enumerate().map(|(i, l)| (i as u64, paytables::blackjack::fraction(l.1))).collect();
            paytables::artifact::build(&text, CompiledGame::Blackjack(game), &rtp, None, None)
        }
        Kind::Bingo => {
            let game = load_bingo(file)?;
            let f = paytables::bingo::figures(&game);
            verdict(file, &paytables::bingo::refusals(&game, &f, &Floor::from_percent(floor)?), true)?;
            paytables::artifact::build(&text, CompiledGame::Bingo(game), &[(0, f.rtp.clone())], None, None)
        }
        Kind::Roulette => {
            let game = load_roulette(file)?;
            let figures = paytables::roulette::figures(&game);
            verdict(file, &paytables::roulette::refusals(&game, &figures, &Floor::from_percent(floor)?), true)?;
            paytables::artifact::build(&text, CompiledGame::Roulette(game), &figures.by_covered(), None, None)
        }
    };
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

fn simulate(file: &std::path::Path, games: u64, seed: Option<u64>, lines: Option<u32>, threads: Option<usize>, json: bool) -> Result<ExitCode> {
    let source = paytables::load_source(file)?;
    let game = &source.game;
    let lines = lines.unwrap_or_else(|| game.bet.lines.last().copied().unwrap_or(1));
    if !game.bet.lines.contains(&lines) {
        return Err(anyhow!("{}: {lines} lines is not a bet this game offers ({:?})", file.display(), game.bet.lines));
    }
    let seed = match seed {
        Some(s) => s,
        None => meters::GameRng::next_raw(&mut meters::StreamRng::from_entropy()?),
    };
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let exact = paytables::reel_math::analyse(game)?;
    let exact_rtp = exact.configs.iter().find(|c| c.lines == lines).map(|c| num_traits::ToPrimitive::to_f64(&c.rtp).unwrap_or(f64::NAN)).unwrap_or(f64::NAN);
    let bar = indicatif::ProgressBar::new(games);
    if json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rounds  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let started = std::time::Instant::now();
    let r = paytables::simulate::run_parallel(game, lines, games, seed, threads, &|n| bar.inc(n))?;
    let secs = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let (lo, hi) = r.ci99();
    let inside = exact_rtp >= lo && exact_rtp <= hi;
    if json {
        let doc = serde_json::json!({
            "game": game.id, "lines": lines, "games": r.games, "seed": seed, "threads": threads,
            "measured_rtp": r.rtp(), "ci99": [lo, hi], "exact_rtp": exact_rtp, "exact_inside_ci99": inside,
            "standard_deviation": r.standard_deviation(), "seconds": secs, "rounds_per_second": r.games as f64 / secs,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        println!(
            "{} — {} rounds at {} lines, seed {seed}, {threads} thread(s), {:.2} s ({:.0} rounds/s)",
            game.name,
            r.games,
            lines,
            secs,
            r.games as f64 / secs
        );
        println!("measured RTP {:.4}%   99% interval [{:.4}%, {:.4}%]", r.rtp() * 100.0, lo * 100.0, hi * 100.0);
        println!("exact RTP    {:.4}%   {}", exact_rtp * 100.0, if inside { "inside the interval" } else { "OUTSIDE the interval" });
    }
    Ok(ExitCode::SUCCESS)
}

fn read(file: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(file).map_err(|e| anyhow!("{}: {e}", file.display()))
}

fn kind(file: &std::path::Path) -> Result<Kind> {
    Ok(paytables::poker_compile::kind_of(&file.display().to_string(), &read(file)?)?)
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn load_draw(file: &std::path::Path) -> Result<(game_core::draw_poker::DrawPokerGame, Option<String>)> {
    Ok(paytables::poker_compile::compile_draw(&file.display().to_string(), &read(file)?)?)
}

fn load_roulette(file: &std::path::Path) -> Result<game_core::roulette::RouletteGame> {
    Ok(paytables::roulette::compile_roulette(&file.display().to_string(), &read(file)?)?)
}

/// `paytable check` of a roulette table: every chance and call bet with
/// its exact RTP as a fraction, each held to the floor.
fn roulette_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let game = load_roulette(file)?;
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
fn roulette_par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let game = load_roulette(file)?;
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

/// A table of bets with fixed payouts (banca francesa, sic bo, baccarat)
/// and its bets' exact figures.
fn load_table(file: &std::path::Path) -> Result<(paytables::artifact::CompiledGame, Vec<paytables::table_bet::TableBet>)> {
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
        _ => (CompiledGame::SicBo(paytables::dice::compile_sic_bo(&name, &text)?), paytables::dice::sic_bo_figures()),
    })
}

/// `paytable check` of a table of fixed payouts: every bet's exact RTP,
/// held to the floor.
fn table_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (game, bets) = load_table(file)?;
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
fn table_par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let (game, bets) = load_table(file)?;
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

fn load_bingo(file: &std::path::Path) -> Result<game_core::bingo::BingoGame> {
    Ok(paytables::bingo::compile_bingo(&file.display().to_string(), &read(file)?)?)
}

/// `paytable check` of bingo: the base game's exact figures (the same RTP
/// for any number of cards), each pattern's probability and share, and the
/// extra balls'.
fn bingo_check(file: &std::path::Path, json: bool, floor: &str, extra_target: Option<f64>) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let game = load_bingo(file)?;
    let started = std::time::Instant::now();
    let f = paytables::bingo::figures(&game);
    let secs = started.elapsed().as_secs_f64();
    let margin = match extra_target {
        Some(t) if !(80.0..=100.0).contains(&t) => return Err(anyhow!("--extra-target {t}: a target return from 80 to 100 percent")),
        Some(t) => Some(paytables::bingo::margin_for(&game, t / 100.0).ok_or_else(|| anyhow!("{}: no extra balls to price", game.id))?),
        None => None,
    };
    let refusals = paytables::bingo::refusals(&game, &f, &floor);
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

fn bingo_par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let game = load_bingo(file)?;
    let f = paytables::bingo::figures(&game);
    verdict(file, &paytables::bingo::refusals(&game, &f, &Floor::from_percent(floor)?), true)?;
    std::fs::create_dir_all(out).map_err(|e| anyhow!("{}: {e}", out.display()))?;
    let path = out.join(format!("{}-par.md", game.id));
    let body = format!("# PAR sheet — {} ({})\n\n```\n{}```\n", game.name, game.id, paytables::bingo::report(&game, &f));
    std::fs::write(&path, body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}

/// Bingo rounds through the production deal and round: the base game's
/// measured RTP against the exact one, and the extra balls' when bought.
fn bingo_simulate(
    file: &std::path::Path,
    rounds: u64,
    seed: Option<u64>,
    cards: Option<u32>,
    buy: bool,
    threads: Option<usize>,
    json: bool,
) -> Result<ExitCode> {
    let game = load_bingo(file)?;
    let cards = cards.map_or(Ok(game.most_cards), u8::try_from)?;
    if !(1..=game.most_cards).contains(&cards) {
        return Err(anyhow!("{cards} cards: {} plays 1 to {}", game.id, game.most_cards));
    }
    let f = paytables::bingo::figures(&game);
    let exact = num_traits::ToPrimitive::to_f64(&f.rtp).unwrap_or(0.0);
    let seed = seed.unwrap_or(2026);
    let sim = paytables::bingo::simulate(&game, cards, buy, rounds, seed, threads.unwrap_or_else(self::threads), &|_| {});
    let (lo, hi) = sim.base.ci99();
    let extra = sim.extra_rtp();
    // One card buying every offer: the extra balls' exact chain too.
    let extra_exact = f.extra.as_ref().filter(|_| cards == 1 && buy && game.minimum == 1).map(|e| e.rtp());
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

fn load_blackjack(file: &std::path::Path) -> Result<game_core::blackjack::BlackjackGame> {
    Ok(paytables::blackjack::compile_blackjack(&file.display().to_string(), &read(file)?)?)
}

/// `paytable check` of blackjack: the game's return under optimal play,
/// without its bonus, and insurance, each held to the floor.
fn blackjack_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let game = load_blackjack(file)?;
    let started = std::time::Instant::now();
    let f = paytables::blackjack::figures(&game);
    let secs = started.elapsed().as_secs_f64();
    let refusals = paytables::blackjack::refusals(&game, &f, &floor);
    if json {
        let lines: Vec<serde_json::Value> = paytables::blackjack::lines(&f)
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
fn blackjack_par(file: &std::path::Path, out: &std::path::Path, floor: &str) -> Result<ExitCode> {
    let game = load_blackjack(file)?;
    let f = paytables::blackjack::figures(&game);
    verdict(file, &paytables::blackjack::refusals(&game, &f, &Floor::from_percent(floor)?), true)?;
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

fn load_stud(file: &std::path::Path) -> Result<(game_core::stud_poker::StudPokerGame, Option<String>)> {
    Ok(paytables::poker_compile::compile_stud(&file.display().to_string(), &read(file)?)?)
}

/// Name every refusal on stderr; refuse with their count, or accept
/// (printing ACCEPTED unless `quiet`).
fn verdict(file: &std::path::Path, refusals: &[String], quiet: bool) -> Result<ExitCode> {
    for r in refusals {
        eprintln!("{}: REFUSED: {r}", file.display());
    }
    if refusals.is_empty() {
        if !quiet {
            println!("ACCEPTED");
        }
        Ok(ExitCode::SUCCESS)
    } else {
        Err(anyhow!("{} refused ({} reason(s))", file.display(), refusals.len()))
    }
}

/// Print a check report (text or JSON) and its verdict.
/// Print a check's report (and its warnings on stderr), or all of it as
/// JSON; then the verdict.
fn report(
    file: &std::path::Path,
    json: bool,
    report: &(impl serde::Serialize + std::fmt::Display),
    refusals: Vec<String>,
    warnings: &[String],
) -> Result<ExitCode> {
    for w in warnings {
        eprintln!("{w}");
    }
    if json {
        let doc = serde_json::json!({ "accepted": refusals.is_empty(), "refusals": refusals, "warnings": warnings, "report": report });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print!("{report}");
    }
    verdict(file, &refusals, json)
}

fn draw_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (game, odds) = load_draw(file)?;
    let checked = paytables::draw_check::check(&game, &floor, odds.as_deref(), threads());
    let warnings = paytables::poker_compile::draw_warnings(&file.display().to_string(), &read(file)?);
    report(file, json, &checked.report, checked.refusals.iter().map(|r| r.to_string()).collect(), &warnings)
}

fn stud_check(file: &std::path::Path, json: bool, floor: &str) -> Result<ExitCode> {
    let floor = Floor::from_percent(floor)?;
    let (game, odds) = load_stud(file)?;
    let checked = paytables::stud_math::check(&game, &floor, odds.as_deref(), threads());
    report(file, json, &checked.report, checked.refusals.iter().map(|r| r.to_string()).collect(), &[])
}

fn strategy(file: &std::path::Path, cards: &[String], coins: Option<u32>) -> Result<ExitCode> {
    if kind(file)? == Kind::Blackjack {
        let game = load_blackjack(file)?;
        let f = paytables::blackjack::figures(&game);
        print!("{}", paytables::blackjack::strategy_text(&game, &f.strategy));
        return Ok(ExitCode::SUCCESS);
    }
    if kind(file)? != Kind::DrawPoker {
        return Err(anyhow!("{}: strategy is for draw-poker and blackjack paytables", file.display()));
    }
    if cards.is_empty() {
        return Err(anyhow!("{}: name the five cards to hold from, like As Kd 10h 2c Jk", file.display()));
    }
    let (game, _) = load_draw(file)?;
    let hand = game_core::cards::parse_hand(cards)?;
    if game.wild != game_core::draw_poker::Wild::Joker && hand.contains(&game_core::cards::Card::JOKER) {
        return Err(anyhow!("{} has no joker in its deck", game.name));
    }
    let coins = coins.unwrap_or_else(|| game.max_coins());
    if !game.coins.contains(&coins) {
        return Err(anyhow!("{coins} coins is not a bet {} offers ({:?})", game.name, game.coins));
    }
    let mut values = paytables::draw_math::hold_values(&game, &hand, coins);
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.0.cmp(&b.0.0)));
    let shown: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
    let dealt = game.evaluate(&hand).map_or("nothing".to_owned(), |e| game.entries[e].name.clone());
    println!("{} — {} at {coins} coin(s); dealt: {}", game.name, shown.join(" "), dealt);
    println!("{:>4}  {:<26} {:>14}  exact", "", "hold", "EV per coin");
    for (i, (hold, ev)) in values.iter().enumerate() {
        let mark = if i == 0 { "best" } else { "" };
        let held: String = (0..5).map(|k| if hold.holds(k) { format!("{:<4}", hand[k].to_string()) } else { "--  ".to_owned() }).collect();
        println!("{mark:>4}  {held:<26} {:>14.8}  {}/{}", num_traits::ToPrimitive::to_f64(ev).unwrap_or(f64::NAN), ev.numer(), ev.denom());
    }
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
fn poker_simulate(
    file: &std::path::Path,
    games: u64,
    seed: Option<u64>,
    coins: Option<u32>,
    ante: Option<u64>,
    threads_arg: Option<usize>,
    json: bool,
) -> Result<ExitCode> {
    let seed = match seed {
        Some(s) => s,
        None => meters::GameRng::next_raw(&mut meters::StreamRng::from_entropy()?),
    };
    let threads = threads_arg.unwrap_or_else(threads);
    let bar = indicatif::ProgressBar::new(games);
    if json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rounds  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // (name, bet, exact RTP, games, measured RTP, 99% interval, SD, seconds)
    let (name, what, exact, n, rtp, (lo, hi), sd, secs) = match kind(file)? {
        Kind::DrawPoker => {
            let (game, _) = load_draw(file)?;
            let coins = coins.unwrap_or_else(|| game.max_coins());
            if !game.coins.contains(&coins) {
                return Err(anyhow!("{coins} coins is not a bet {} offers ({:?})", game.name, game.coins));
            }
            let tables = paytables::draw_math::DrawTables::build(&game, threads);
            let fig = paytables::draw_math::analyse_with(&game, &tables, threads);
            let exact = fig.configs.iter().find(|c| c.coins == coins).map_or(f64::NAN, |c| num_traits::ToPrimitive::to_f64(&c.rtp).unwrap_or(f64::NAN));
            let started = std::time::Instant::now();
            let r = paytables::draw_check::simulate(&game, &tables, coins, games, seed, threads, &|n| bar.inc(n));
            (
                game.name.clone(),
                format!("{coins} coin(s), optimal holds"),
                exact,
                r.games,
                r.rtp(),
                r.ci99(),
                r.standard_deviation(),
                started.elapsed().as_secs_f64(),
            )
        }
        Kind::Blackjack => {
            let game = load_blackjack(file)?;
            let f = paytables::blackjack::figures(&game);
            let started = std::time::Instant::now();
            let r = paytables::blackjack::simulate(&game, &f.strategy, games, seed, threads, &|n| bar.inc(n));
            (
                game.name.clone(),
                format!(
                    "the optimal strategy, {} credits a hand, a fresh {}-deck shoe a hand; bonus measured {:.4}%",
                    r.bet,
                    game.rules.decks,
                    r.bonus_rtp() * 100.0
                ),
                f.rtp,
                r.hands,
                r.rtp(),
                r.ci99(),
                r.standard_deviation(),
                started.elapsed().as_secs_f64(),
            )
        }
        Kind::Baccarat => {
            let game = paytables::baccarat::compile_baccarat(&file.display().to_string(), &read(file)?)?;
            let started = std::time::Instant::now();
            let (r, exact) = paytables::baccarat::simulate(&game, games, seed, threads, &|n| bar.inc(n));
            (
                game.name.clone(),
                format!("20 credits on each of the {} bets, a fresh {}-deck shoe a coup", game.spots().len(), game.decks),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                r.games,
                r.rtp(),
                r.ci99(),
                r.standard_deviation(),
                started.elapsed().as_secs_f64(),
            )
        }
        Kind::BancaFrancesa | Kind::SicBo => {
            let (game, bets) = load_table(file)?;
            let banca = kind(file)? == Kind::BancaFrancesa;
            let started = std::time::Instant::now();
            let (r, exact) = paytables::dice::simulate(banca, games, seed, threads, &|n| bar.inc(n));
            (
                game.name().to_owned(),
                format!("one chip on each of the {} bets{}", bets.len(), if banca { ", a round a golpe" } else { "" }),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                r.games,
                r.rtp(),
                r.ci99(),
                r.standard_deviation(),
                started.elapsed().as_secs_f64(),
            )
        }
        Kind::Roulette => {
            let game = load_roulette(file)?;
            let (layout, exact) = paytables::roulette::simulated_layout(&game);
            let started = std::time::Instant::now();
            let r = paytables::roulette::simulate(&game, games, seed, threads, &|n| bar.inc(n));
            (
                game.name.clone(),
                format!("{} spots of 2 credits, one of each chance", layout.len()),
                num_traits::ToPrimitive::to_f64(&exact).unwrap_or(f64::NAN),
                r.games,
                r.rtp(),
                r.ci99(),
                r.standard_deviation(),
                started.elapsed().as_secs_f64(),
            )
        }
        _ => {
            let (game, _) = load_stud(file)?;
            let ante = ante.unwrap_or(game.antes[0]);
            if !game.antes.contains(&ante) {
                return Err(anyhow!("an ante of {ante} is not offered by {} ({:?})", game.name, game.antes));
            }
            let an = paytables::stud_math::analyse(&game, threads);
            let cfg = an.configs.iter().find(|c| c.ante == ante).ok_or_else(|| anyhow!("no figures for ante {ante}"))?;
            let exact = num_traits::ToPrimitive::to_f64(&cfg.rtp).unwrap_or(f64::NAN);
            let started = std::time::Instant::now();
            let r = paytables::stud_math::simulate(&game, &an, ante, games, seed, threads, &|n| bar.inc(n));
            (
                game.name.clone(),
                format!("ante {ante}, optimal raise/fold"),
                exact,
                r.games,
                r.rtp(),
                r.ci99(),
                r.standard_deviation(),
                started.elapsed().as_secs_f64(),
            )
        }
    };
    bar.finish_and_clear();
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

/// The progressive's line (decisions.md: contributions are excluded from the
/// base RTP and reported on their own line): the share of each qualifying
/// wager that goes to the pool, level by level.
fn progressive_line(pool: &std::path::Path) -> Result<serde_json::Value> {
    let text = read(pool)?;
    let cfg: meters::PoolConfig = ron::from_str(&text).map_err(|e| anyhow!("{}:{}: {}", pool.display(), e.position.line, e.code))?;
    cfg.validate().map_err(|e| anyhow!("{}: {e}", pool.display()))?;
    let pct = meters::progressive::ppm_as_percent;
    let total: u64 = cfg.levels.iter().map(|l| u64::from(l.increment_ppm) + u64::from(l.reserve_ppm)).sum();
    let levels: Vec<String> = cfg.levels.iter().map(|l| format!("{} {}%", l.name, pct(u64::from(l.increment_ppm) + u64::from(l.reserve_ppm)))).collect();
    let text = format!("progressive {}: {}% of each qualifying wager ({}), not part of the base RTP above", cfg.id, pct(total), levels.join(", "));
    Ok(serde_json::json!({ "pool": cfg.id, "contribution_percent": pct(total), "text": text }))
}
