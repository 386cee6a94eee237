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
//! * `paytable rules FILE [-o DIR] [--lang pt|en] [--approved MANIFEST]
//!   [--compiled DIR]` — the game's rules page (M-40), the help screen's
//!   own text; a paytable not approved in the manifest (its approved
//!   compiled file is not this one) gets a page headed as a draft.

mod bingo;
mod blackjack;
mod compile;
mod poker;
mod reels;
mod roulette;
mod rounds;
mod rules;
mod table;

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
    /// Reel strips to a target (issue 50): from FILE's symbols, pays and
    /// strip lengths, strips at the RTP asked (to 0.01 %) and inside the
    /// bands given, written as a paytable to OUT; prove it with `check`.
    Generate {
        file: PathBuf,
        #[arg(short, long)]
        out: PathBuf,
        /// The RTP, in percent (80 to 100), e.g. 94.00.
        #[arg(long)]
        rtp: String,
        /// The hit frequency's band, in percent: LOW..HIGH.
        #[arg(long)]
        hit: Option<String>,
        /// The standard deviation's band, in total bets: LOW..HIGH.
        #[arg(long)]
        sd: Option<String>,
        /// The largest win's odds, 1 in N games: LOW..HIGH (e.g. 4000..5000).
        #[arg(long)]
        top: Option<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The most steps the search takes.
        #[arg(long, default_value_t = 20_000)]
        steps: usize,
    },
    /// The game's rules page (M-40), the help screen's own text, in
    /// Portuguese and English (or --lang): the rules, bet range, every
    /// pay, the exact RTP, the odds disclosure. Written to OUT/ID.pt.md and
    /// OUT/ID.en.md, or printed. A paytable the compiler refuses has none.
    Rules {
        file: PathBuf,
        /// One language (pt or en); both by default.
        #[arg(long, value_parser = ["pt", "en"])]
        lang: Option<String>,
        /// The credit's value in cents, for the bet range in money.
        #[arg(long, default_value_t = 1)]
        denom: u64,
        #[arg(long, default_value = "80")]
        floor: String,
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// The approved manifest the page's paytable is looked up in: a
        /// paytable not approved there gets a page headed as a draft.
        #[arg(long, default_value = "assets/paytables/approved.ron")]
        approved: PathBuf,
        /// Where the approved compiled paytables are.
        #[arg(long, default_value = "assets/paytables/compiled")]
        compiled: PathBuf,
        /// A cabinet configuration (e.g. assets/config/cabinet.ron): the
        /// page lists the progressive levels it attaches to the game and
        /// how each is won; without it the page says they are each
        /// cabinet's.
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Live-game fidelity (B-18): each pocket, card or ball the game draws,
    /// counted through the game's own draw, against the live game's chance
    /// (within 0.001 percentage points). `compile` refuses a game that
    /// fails it.
    Fidelity {
        file: PathBuf,
        #[arg(long, default_value = "80")]
        floor: String,
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
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::DrawPoker => poker::draw_check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::StudPoker => poker::stud_check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::Roulette => roulette::check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)? == Kind::Blackjack => blackjack::check(&file, json, &floor),
        Command::Check { file, json, floor, .. } if kind(&file)?.lists_its_bets() => table::check(&file, json, &floor),
        Command::Check { file, json, floor, extra_target, .. } if kind(&file)? == Kind::Bingo => bingo::check(&file, json, &floor, extra_target),
        Command::Simulate { file, games, seed, threads, lines, no_extra, json, .. } if kind(&file)? == Kind::Bingo => {
            bingo::simulate(&file, games, seed, lines, !no_extra, threads, json)
        }
        Command::Simulate { file, games, seed, threads, coins, ante, json, .. } if kind(&file)? != Kind::Reels => {
            rounds::simulate(&file, games, seed, coins, ante, threads, json)
        }
        Command::Strategy { file, cards, coins } => poker::strategy(&file, &cards, coins),
        Command::Check { file, json, floor, max_seconds, .. } => {
            let floor = Floor::from_percent(&floor)?;
            let source = paytables::load_source(&file)?;
            let warnings: Vec<String> = source.warnings.iter().map(|w| format!("{}: warning: {w}", file.display())).collect();
            let deadline = max_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs(s));
            let work = paytables::reel_math::Work::until(deadline);
            let checked = reels::watched(&source.game, &work, || paytables::check::check_with(&source.game, &floor, source.odds_disclosure.as_deref(), &work))
                .map_err(|e| anyhow!("{}", paytables::math_refusal::locate(&source, &e)))?;
            report(&file, json, &checked.report, checked.refusals.iter().map(|r| r.to_string()).collect(), &warnings)
        }
        Command::Par { file, out, floor } if kind(&file)? == Kind::Roulette => roulette::par(&file, &out, &floor),
        Command::Par { file, out, floor } if kind(&file)? == Kind::Blackjack => blackjack::par(&file, &out, &floor),
        Command::Par { file, out, floor } if kind(&file)? == Kind::Bingo => bingo::par(&file, &out, &floor),
        Command::Par { file, out, floor } if kind(&file)?.lists_its_bets() => table::par(&file, &out, &floor),
        Command::Par { file, out, floor } if matches!(kind(&file)?, Kind::DrawPoker | Kind::StudPoker) => poker::par(&file, &out, &floor),
        Command::Par { file, out, floor } => {
            let (source, checked) = reels::checked(&file, &floor)?;
            for f in paytables::par::write_par(&source.game, &checked, &out)? {
                println!("{}", f.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { file, games, seed, lines, threads, json, .. } => reels::simulate(&file, games, seed, lines, threads, json),
        Command::Fidelity { file, floor } => compile::fidelity(&file, &floor),
        Command::Rules { file, lang, denom, floor, out, approved, compiled, config } => {
            let langs = match lang.as_deref() {
                Some("pt") => vec![game_host::names::Lang::Pt],
                Some(_) => vec![game_host::names::Lang::En],
                None => vec![game_host::names::Lang::Pt, game_host::names::Lang::En],
            };
            rules::rules(&file, &floor, &langs, (denom, config.as_deref()), out.as_deref(), (&approved, &compiled))
        }
        Command::Compile { file, out, floor, approve_into } => compile::compile(&file, &out, &floor, approve_into.as_deref()),
        Command::Generate { file, out, rtp, hit, sd, top, seed, steps } => {
            reels::generate(&file, &out, &rtp, reels::Bands { hit: hit.as_deref(), sd: sd.as_deref(), top: top.as_deref() }, seed, steps)
        }
    }
}

fn read(file: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(file).map_err(|e| anyhow!("{}: {e}", file.display()))
}

fn kind(file: &std::path::Path) -> Result<Kind> {
    Ok(paytables::poker_compile::kind_of(&file.display().to_string(), &read(file)?)?)
}

/// A simulation's seed: the one given, or a fresh one from the operating
/// system's entropy, printed with the results so the run can be repeated.
fn seed_or_fresh(seed: Option<u64>) -> Result<u64> {
    match seed {
        Some(s) => Ok(s),
        None => Ok(meters::GameRng::next_raw(&mut meters::StreamRng::from_entropy()?)),
    }
}

/// The progress bar of a simulation's rounds; hidden for JSON output.
fn rounds_bar(games: u64, hidden: bool) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(games);
    if hidden {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rounds  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Name every refusal on stderr; refuse with their count, or accept
/// (printing ACCEPTED unless `quiet`).
fn verdict(file: &std::path::Path, refusals: &[String], quiet: bool) -> Result<ExitCode> {
    for r in refusals {
        // A refusal located in the file (issue 73) reads FILE:LINE: REFUSED: …
        let located = r.strip_prefix(&format!("{}:", file.display())).and_then(|rest| rest.split_once(": "));
        match located {
            Some((line, what)) => eprintln!("{}:{line}: REFUSED: {what}", file.display()),
            None => eprintln!("{}: REFUSED: {r}", file.display()),
        }
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
