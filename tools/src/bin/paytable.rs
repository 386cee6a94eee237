//! `paytable`: the paytable compiler game designers run offline (issue 3;
//! certification.md §B). Exit status: 0 accepted, 1 refused or invalid.
//!
//! * `paytable check FILE [--json] [--floor PCT]` — exact figures over the
//!   full cycle for every bet configuration; refuses a paytable under the
//!   floor (80% by default, raised only) or with a prize rarer than
//!   1 in 100,000,000 without an odds disclosure.
//! * `paytable par FILE -o DIR` — the PAR sheet (Markdown, CSV, SVG charts).
//! * `paytable simulate FILE --games N [--seed S]` — plays N rounds through
//!   the production code and RNG; measured RTP with its 99% interval.
//! * `paytable compile FILE -o OUT` — the canonical artifact and its SHA-256.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use clap::{Parser, Subcommand};
use paytables::check::{check, Floor};

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
        Command::Check { file, json, floor } => {
            let floor = Floor::from_percent(&floor)?;
            let source = paytables::load_source(&file)?;
            let checked = check(&source.game, &floor, source.odds_disclosure.as_deref())
                .map_err(|e| anyhow!("{}: {e}", file.display()))?;
            if json {
                let refusals: Vec<String> = checked.refusals.iter().map(|r| r.to_string()).collect();
                let doc = serde_json::json!({ "accepted": checked.accepted(), "refusals": refusals, "report": checked.report });
                println!("{}", serde_json::to_string_pretty(&doc)?);
            } else {
                print!("{}", checked.report);
            }
            for r in &checked.refusals {
                eprintln!("{}: REFUSED: {r}", file.display());
            }
            if checked.accepted() {
                if !json {
                    println!("ACCEPTED");
                }
                Ok(ExitCode::SUCCESS)
            } else {
                Err(anyhow!("{} refused ({} reason(s))", file.display(), checked.refusals.len()))
            }
        }
    }
}
