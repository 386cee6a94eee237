//! `egm-progressive`: the linked progressive controller's command line
//! (issue 6, M-19 to M-24). The controller is a PostgreSQL database
//! (`tools/postgres.sh start` runs one on loopback).
//!
//! * `egm-progressive setup URL POOL.ron` — create the schema and the pool.
//! * `egm-progressive status URL POOL` — levels, last 25 awards, the books.
//! * `egm-progressive bench URL [--threads N] [--seconds S]` — contributions
//!   per second the controller sustains, from N concurrent cabinets.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use clap::{Parser, Subcommand};
use linked_controller::Controller;
use meters::PoolConfig;

#[derive(Parser)]
#[command(name = "egm-progressive", version, about = "The linked progressive controller: set-up, status, benchmark")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create the schema (if missing) and the pool described in a RON file.
    Setup { url: String, pool: PathBuf },
    /// The pool's levels, its last 25 awards and whether its books balance.
    Status { url: String, pool: String },
    /// Contributions per second from concurrent cabinets (a scratch pool).
    Bench {
        url: String,
        #[arg(long, default_value = "8")]
        threads: usize,
        #[arg(long, default_value = "5")]
        seconds: u64,
        /// Contributions sent per transaction (a cabinet's outbox batch).
        #[arg(long, default_value = "1")]
        batch: usize,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("egm-progressive: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Setup { url, pool } => {
            let text = std::fs::read_to_string(&pool).map_err(|e| anyhow!("{}: {e}", pool.display()))?;
            let cfg: PoolConfig = ron::from_str(&text).map_err(|e| anyhow!("{}:{}: {}", pool.display(), e.position.line, e.code))?;
            let mut c = Controller::connect(&url)?;
            c.create_schema()?;
            c.configure_pool(&cfg)?;
            println!("pool {} ready with {} level(s)", cfg.id, cfg.levels.len());
            Ok(())
        }
        Command::Status { url, pool } => {
            let mut c = Controller::connect(&url)?;
            for l in c.levels(&pool)? {
                println!("level {} {:<12} {:>14} cents  reset {:>10}  hits {}", l.level, l.name, l.value, l.reset_value, l.hits);
            }
            for a in c.last_awards(&pool, 25)? {
                let at = time::OffsetDateTime::from_unix_timestamp(a.time).map_or_else(|_| a.time.to_string(), |t| t.to_string());
                println!("award #{} at {at}: {} round {} level {}: {} cents", a.seq, a.machine, a.round, a.level, a.amount);
            }
            let books = c.books(&pool)?;
            for (l, (r, o)) in books.reserve_micro.iter().zip(&books.overflow_micro).enumerate() {
                println!("level {l} reserve {:>14} cents  overflow so far {:>10} cents", r / 1_000_000, o / 1_000_000);
            }
            println!(
                "{} contributions, {} cents wagered; books {}",
                books.contributions,
                books.wagered,
                if books.balanced() { "balance" } else { "DO NOT BALANCE" }
            );
            if books.balanced() { Ok(()) } else { Err(anyhow!("the books of {pool} do not balance")) }
        }
        Command::Bench { url, threads, seconds, batch } => bench(&url, threads, seconds, batch.max(1)),
    }
}

fn bench(url: &str, threads: usize, seconds: u64, batch: usize) -> Result<()> {
    let pool = format!("bench-{}", std::process::id());
    let cfg = PoolConfig {
        id: pool.clone(),
        games: vec!["bench".into()],
        min_wager: 1,
        side_bet: false,
        levels: vec![meters::LevelConfig {
            name: "L".into(),
            start_value: 1_000,
            reset_value: 1_000,
            increment_ppm: 10_000,
            reserve_ppm: 0,
            ceiling: None,
            mystery: false,
        }],
    };
    let mut c = Controller::connect(url)?;
    c.create_schema()?;
    c.configure_pool(&cfg)?;
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let counts: Vec<Result<u64>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let pool = pool.clone();
                s.spawn(move || -> Result<u64> {
                    let mut c = Controller::connect(url)?;
                    let machine = format!("BENCH-{t}");
                    let mut round = 0u64;
                    while Instant::now() < until {
                        let items: Vec<(u64, u64)> = (0..batch).map(|i| (round + i as u64 + 1, 100)).collect();
                        round += c.contribute(&machine, &pool, &items)?;
                    }
                    Ok(round)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().map_err(|_| anyhow!("a bench thread panicked"))?).collect()
    });
    let secs = started.elapsed().as_secs_f64();
    let total: u64 = counts.into_iter().sum::<Result<u64>>()?;
    let books = c.books(&pool)?;
    if books.contributions != total || !books.balanced() {
        return Err(anyhow!("the controller counted {} contributions, the cabinets sent {total}", books.contributions));
    }
    println!("{total} contributions from {threads} cabinets in {secs:.2} s: {:.0} contributions/s (batch {batch}); books balance", total as f64 / secs);
    Ok(())
}
