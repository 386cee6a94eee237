//! `egm-progressive`: the linked progressive controller's command line
//! (issues 6 and 13, M-19 to M-24). The controller is a PostgreSQL database
//! (`tools/postgres.sh start` runs one on loopback, with TLS and a test CA).
//!
//! * `egm-progressive install ADMIN` — the schema, the calls and the grants
//!   (ADMIN: the administrator's address, the server's local socket).
//! * `egm-progressive register ADMIN NAME --role cabinet|operator|service` —
//!   a cabinet's machine ID (a row: cabinets never log into the database,
//!   issue 46), or a login (an operator, or the service) authenticated by
//!   the certificate whose CN is NAME.
//! * `egm-progressive serve DATABASE --listen ADDR --ca CA --cert CRT --key KEY`
//!   — the controller's service, the only way a cabinet reaches the pools
//!   (DATABASE: the service login's address).
//! * `egm-progressive assign OPERATOR POOL MACHINE… [--off]` — the cabinets
//!   that play a pool.
//! * `egm-progressive plain-claims OPERATOR POOL --allow|--refuse` — whether
//!   the pool takes claims that carry their outcome (cabinets of an
//!   earlier version); refused by default: a claim reveals its committed
//!   round's key (issue 46).
//! * `egm-progressive setup OPERATOR POOL.ron [--max-wager CENTS]` — the pool.
//! * `egm-progressive approve OPERATOR POOL --paytable GAME.ron…
//!   --trigger LEVEL:SYMBOL:COUNT[:max]|LEVEL:hold-grand[:max]…
//!   --denominations CENTS,… [--seed-budget-ppm N] --confirm-above CENTS` —
//!   what the pool's awards are checked against (issue 35, attack 1),
//!   weighed first: a pool whose awards the wagers do not fund, or whose
//!   games' RTP with it leaves [80 %, 100 %] at any bet, is refused with
//!   its figures (issue 69, `approval`).
//! * `egm-progressive pending OPERATOR POOL`, `egm-progressive decide
//!   OPERATOR POOL MACHINE ROUND LEVEL [--refuse] [--note TEXT]` — the
//!   awards waiting for an attendant, confirmed or refused.
//! * `egm-progressive status OPERATOR POOL` — levels, last 25 awards, the
//!   books, the latest refusals.
//! * `egm-progressive transfer OPERATOR POOL LEVEL (--to POOL:LEVEL |
//!   --authority REF)` — M-23, logged under the operator's name.
//! * `egm-progressive bench OPERATOR CABINET… [--seconds S] [--batch B]` —
//!   contributions per second the controller sustains, one thread per
//!   cabinet address (`tools/bench-controller.sh` sets it all up).

mod approval;
mod bench;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use clap::{Parser, Subcommand, ValueEnum};
use linked_controller::service::{Limits, Service, ServiceConfig};
use linked_controller::{ApprovedReelGame, ApprovedTrigger, Controller, Role};
use meters::PoolConfig;

#[derive(Parser)]
#[command(name = "egm-progressive", version, about = "The linked progressive controller: set-up, status, transfers, benchmark")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Login {
    Cabinet,
    Operator,
    Service,
}

#[derive(Subcommand)]
enum Command {
    /// Install the schema, the calls and the grants (the administrator).
    Install { admin: String },
    /// Register a login: a cabinet's machine ID or an operator (the administrator).
    Register {
        admin: String,
        name: String,
        #[arg(long, value_enum)]
        role: Login,
    },
    /// Run the controller's service: cabinets connect to it with their
    /// certificates; it alone makes their calls on the database.
    Serve {
        /// The service login's database address.
        database: String,
        /// Where cabinets connect.
        #[arg(long)]
        listen: std::net::SocketAddr,
        /// The site's CA (it signs every cabinet's certificate).
        #[arg(long)]
        ca: PathBuf,
        /// The service's certificate and key.
        #[arg(long)]
        cert: PathBuf,
        #[arg(long)]
        key: PathBuf,
        /// Rounds a cabinet may commit a second (sustained; twenty at
        /// once): no level is won faster than play allows (issue 46).
        #[arg(long, default_value_t = Limits::default().rounds_per_second)]
        rounds_per_second: u64,
        /// Contribution rows a cabinet may send a second (sustained; one
        /// full request at once): a round is one row (issue 69).
        #[arg(long, default_value_t = Limits::default().rows_per_second)]
        rows_per_second: u64,
    },
    /// Assign registered cabinets to a pool, or take them off (an operator).
    Assign {
        url: String,
        pool: String,
        #[arg(required = true)]
        machines: Vec<String>,
        /// The denominations the cabinets offer, in cents (comma
        /// separated): a committed round at any other is refused (issue 46).
        #[arg(long, value_delimiter = ',', required_unless_present = "off")]
        denominations: Vec<u64>,
        #[arg(long, conflicts_with = "denominations")]
        off: bool,
    },
    /// Whether a pool takes claims that carry their outcome instead of
    /// revealing their committed round's key (an operator; refused by
    /// default, issue 46).
    PlainClaims {
        url: String,
        pool: String,
        #[arg(long, conflicts_with = "refuse", required_unless_present = "refuse")]
        allow: bool,
        #[arg(long)]
        refuse: bool,
    },
    /// Create the pool described in a RON file (an operator).
    Setup {
        url: String,
        pool: PathBuf,
        /// The largest wager a contribution may carry, in cents (G-46).
        #[arg(long, default_value_t = 1_000_000)]
        max_wager: u64,
    },
    /// Issue 35, attack 1: approve the reel games whose outcomes the pool's
    /// awards are checked against (their approved paytables), each level's
    /// triggers, and the amount above which an award waits for an
    /// attendant (an operator).
    Approve {
        url: String,
        pool: String,
        /// An approved reel paytable (RON), once per game of the pool.
        #[arg(long = "paytable", required = true)]
        paytables: Vec<PathBuf>,
        /// LEVEL:SYMBOL:COUNT, with `:max` when only the largest bet per
        /// line wins it; once per trigger.
        #[arg(long = "trigger", required = true)]
        triggers: Vec<String>,
        /// Awards of at least this many cents wait for an attendant
        /// (M-12). By default the top level's reset value: every award of
        /// the top level waits (issue 46).
        #[arg(long)]
        confirm_above: Option<u64>,
        /// The denominations (cents) the pool's cabinets play at: the
        /// approval weighs every bet at each, and the controller refuses a
        /// committed round at any other (issue 69).
        #[arg(long, value_delimiter = ',', required = true)]
        denominations: Vec<u64>,
        /// What the operator funds beyond the contributions, in
        /// millionths of each wager (the seed budget; none by default).
        #[arg(long, default_value_t = 0)]
        seed_budget_ppm: u64,
    },
    /// The awards waiting for an attendant, with the outcome each was
    /// claimed with (an operator).
    Pending { url: String, pool: String },
    /// The attendant checked the cabinet: confirm a pending award, or
    /// refuse it (`--refuse`: it goes back to its level). Logged under the
    /// operator's login (an operator).
    Decide {
        url: String,
        pool: String,
        machine: String,
        round: u64,
        level: usize,
        #[arg(long)]
        refuse: bool,
        /// What the attendant saw.
        #[arg(long, default_value = "")]
        note: String,
    },
    /// The pool's levels, its last 25 awards, whether its books balance,
    /// and the latest refusals (an operator).
    Status { url: String, pool: String },
    /// The floor's reading of a cabinet's coin-in meter, in cents (the SAS
    /// host's total coin in, LP 0F/1F; issue 69), entered by an operator.
    /// Readings come in time order and never go back; a RAM clear or a
    /// meter's rollover is entered as a new `--baseline`.
    FloorMeter {
        url: String,
        machine: String,
        coin_in: u64,
        /// When the floor read it (RFC 3339); now by default.
        #[arg(long)]
        at: Option<String>,
        #[arg(long)]
        baseline: bool,
    },
    /// Each cabinet's linked rounds since its baseline reading against the
    /// floor's coin-in over the same time (issue 69): a cabinet that
    /// contributed rounds it never played is an alarm (exit status 1).
    Floor { url: String },
    /// M-23: move a level's whole cents to a level of a pool of the same
    /// games, or out to the authority's target (an operator).
    Transfer {
        url: String,
        pool: String,
        level: usize,
        /// The target, POOL:LEVEL.
        #[arg(long, conflicts_with = "authority")]
        to: Option<String>,
        /// The authority's reference, for a target outside the controller.
        #[arg(long)]
        authority: Option<String>,
    },
    /// A verified award's latency (issue 46): rounds committed, drawn from
    /// the nonce, contributed and claimed by revealing their key.
    BenchAward {
        url: String,
        cabinet: String,
        #[arg(long, default_value = "200")]
        rounds: usize,
        #[arg(long, default_value = "assets/paytables/classic-sevens.ron")]
        paytable: PathBuf,
    },
    /// An honest cabinet's contributions (twenty a second), how long each
    /// waits for its answer, alone and while another certificate floods
    /// the service within its limits (reads, 1,000-row contributions
    /// refused and accepted).
    BenchFlood {
        url: String,
        honest: String,
        flooder: String,
        #[arg(long, default_value = "5")]
        seconds: u64,
        /// The game of the pool of committed rounds the flood sends rows to.
        #[arg(long, default_value = "assets/paytables/classic-sevens.ron")]
        paytable: PathBuf,
    },
    /// Contributions per second from concurrent cabinets (a scratch pool)
    /// through the service: one thread per cabinet address.
    Bench {
        /// An operator's address (sets the scratch pool up, checks the books).
        url: String,
        /// The cabinets' service addresses (egm://NAME@…), one thread each.
        #[arg(required = true)]
        cabinets: Vec<String>,
        #[arg(long, default_value = "5")]
        seconds: u64,
        /// Contributions sent per transaction (a cabinet's outbox batch).
        #[arg(long, default_value = "1")]
        batch: usize,
    },
}

/// `LEVEL:SYMBOL:COUNT[:max]`.
fn parse_trigger(text: &str) -> Result<ApprovedTrigger> {
    let parts: Vec<&str> = text.split(':').collect();
    let bad = || anyhow!("--trigger {text}: it is LEVEL:SYMBOL:COUNT or LEVEL:hold-grand, with :max when only the largest bet per line wins it");
    // Issue 50: `LEVEL:hold-grand[:max]`, the hold-and-spin's progressive grand.
    if let [l, "hold-grand", rest @ ..] = parts.as_slice() {
        let max_bet_only = match rest {
            [] => false,
            ["max"] => true,
            _ => return Err(bad()),
        };
        let trigger = game_core::progressive::Trigger::HoldAndSpinGrand { max_bet_only };
        return ApprovedTrigger::of(l.parse().map_err(|_| bad())?, &trigger).ok_or_else(bad);
    }
    let (level, symbol, count, max_bet_only) = match parts.as_slice() {
        [l, s, c] => (l, s, c, false),
        [l, s, c, "max"] => (l, s, c, true),
        _ => return Err(bad()),
    };
    Ok(ApprovedTrigger {
        level: level.parse().map_err(|_| bad())?,
        symbol: (*symbol).to_owned(),
        count: count.parse().map_err(|_| bad())?,
        max_bet_only,
        hold_and_spin_grand: false,
    })
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
        Command::Install { admin } => {
            Controller::connect(&admin)?.install()?;
            println!("controller installed");
            Ok(())
        }
        Command::Register { admin, name, role } => {
            let role = match role {
                Login::Cabinet => Role::Cabinet,
                Login::Operator => Role::Operator,
                Login::Service => Role::Service,
            };
            Controller::connect(&admin)?.register(&name, role)?;
            println!("{name} registered");
            Ok(())
        }
        Command::Serve { database, listen, ca, cert, key, rounds_per_second, rows_per_second } => {
            // Issue 69: the service's log, one JSON object a line on
            // standard error (every refusal, limit and failure, with its
            // cabinet), at the level `RUST_LOG` names (info by default).
            let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
            tracing_subscriber::fmt().json().with_env_filter(filter).with_writer(std::io::stderr).init();
            let service = ServiceConfig { listen, database, ca, cert, key, limits: Limits { rounds_per_second, rows_per_second, ..Limits::default() } };
            let service = Service::start(service)?;
            println!("the progressive controller's service listens on {}", service.addr());
            service.wait();
            Ok(())
        }
        Command::Assign { url, pool, machines, denominations, off } => {
            let mut c = Controller::connect(&url)?;
            for m in &machines {
                if !off {
                    c.set_denominations(m, &denominations)?;
                }
                c.assign(&pool, m, !off)?;
            }
            println!("{} cabinet(s) {} pool {pool}", machines.len(), if off { "taken off" } else { "assigned to" });
            Ok(())
        }
        Command::PlainClaims { url, pool, allow, refuse } => {
            let allow = allow && !refuse;
            Controller::connect(&url)?.allow_plain_claims(&pool, allow)?;
            println!("pool {pool}: claims that carry their outcome {}", if allow { "allowed" } else { "refused (a claim reveals its round's key)" });
            Ok(())
        }
        Command::Setup { url, pool, max_wager } => {
            let text = std::fs::read_to_string(&pool).map_err(|e| anyhow!("{}: {e}", pool.display()))?;
            let cfg: PoolConfig = ron::from_str(&text).map_err(|e| anyhow!("{}:{}: {}", pool.display(), e.position.line, e.code))?;
            let mut c = Controller::connect(&url)?;
            c.configure_pool(&cfg, max_wager)?;
            println!("pool {} ready with {} level(s)", cfg.id, cfg.levels.len());
            Ok(())
        }
        Command::Approve { url, pool, paytables, triggers, confirm_above, denominations, seed_budget_ppm } => {
            let mut c = Controller::connect(&url)?;
            let confirm_above = match confirm_above {
                Some(cents) => cents,
                None => c.levels(&pool)?.first().map(|top| top.reset_value).ok_or_else(|| anyhow!("no linked pool {pool}: set it up first"))?,
            };
            let mut games = std::collections::BTreeMap::new();
            let mut loaded = Vec::new();
            for path in &paytables {
                let game = paytables::compile::load(path).map_err(|e| anyhow!("{}: {e}", path.display()))?;
                games.insert(game.id.clone(), ApprovedReelGame::of(&game));
                loaded.push(game);
            }
            let triggers = triggers.iter().map(|t| parse_trigger(t)).collect::<Result<Vec<_>>>()?;
            // Issue 69: weighed before anything is approved.
            let config = c.pool_config(&pool)?;
            let figures = approval::weigh(&config, &loaded, &triggers, &denominations, seed_budget_ppm)?;
            approval::print(&figures);
            if !figures.refusals.is_empty() {
                return Err(anyhow!("pool {pool} is not approved: the wagers do not fund its awards\n  {}", figures.refusals.join("\n  ")));
            }
            c.approve_games(&pool, &games, &triggers, confirm_above)?;
            c.record_approval(&pool, &serde_json::to_string(&figures)?, &denominations)?;
            println!(
                "pool {pool}: {} game(s) and {} trigger(s) approved at {} c; awards of {confirm_above} cents or more wait for an attendant",
                games.len(),
                triggers.len(),
                denominations.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            );
            Ok(())
        }
        Command::Pending { url, pool } => {
            for a in Controller::connect(&url)?.pending_awards(&pool)? {
                println!("{} epoch {} round {} level {}: {} cents, claimed with {}", a.machine, a.epoch, a.round, a.level, a.amount, a.outcome);
            }
            Ok(())
        }
        Command::Decide { url, pool, machine, round, level, refuse, note } => {
            let mut c = Controller::connect(&url)?;
            let award = c
                .pending_awards(&pool)?
                .into_iter()
                .find(|a| a.machine == machine && a.round == round && a.level == level)
                .ok_or_else(|| anyhow!("no pending award of pool {pool} level {level} for round {round} of {machine}"))?;
            let amount = c.decide_award(&award, &pool, !refuse, &note)?;
            println!(
                "{amount} cents of pool {pool} level {level} to {machine} round {round}: {}",
                if refuse { "refused, back to the level" } else { "confirmed" }
            );
            Ok(())
        }
        Command::FloorMeter { url, machine, coin_in, at, baseline } => {
            let mut c = Controller::connect(&url)?;
            c.floor_meter(&machine, at.as_deref(), coin_in, baseline)?;
            println!("cabinet {machine}: coin-in {coin_in} cents{}", if baseline { " (a new baseline)" } else { "" });
            Ok(())
        }
        Command::Floor { url } => {
            let mut c = Controller::connect(&url)?;
            let lines = c.floor_reconciliation()?;
            for l in &lines {
                match &l.alarm {
                    Some(alarm) => println!("ALARM: {alarm}"),
                    None => println!(
                        "cabinet {}: {} linked rounds wagered {} cents from {} to {}, within the {} cents of coin-in the floor metered",
                        l.machine, l.rounds, l.linked_wagered, l.since, l.through, l.floor_coin_in
                    ),
                }
            }
            let alarms = lines.iter().filter(|l| l.alarm.is_some()).count();
            println!("{} cabinet(s) read by the floor; {alarms} alarm(s)", lines.len());
            if alarms > 0 {
                return Err(anyhow!("{alarms} cabinet(s) contributed rounds the floor's meters never saw played"));
            }
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
            for r in c.refusals(10)? {
                println!("refused #{}: {} round {}: {}: {}", r.seq, r.machine, r.round.map_or_else(|| "-".to_owned(), |n| n.to_string()), r.call, r.reason);
            }
            // Issue 46: each cabinet's journal against the controller's books.
            let reconciliation = c.reconciliation(&pool)?;
            for r in &reconciliation {
                match (&r.alarm, &r.cabinet) {
                    (Some(alarm), _) => println!("ALARM: {alarm}"),
                    (None, Some(m)) => println!(
                        "cabinet {} epoch {}: through round {}, {} rounds and {} cents, as its journal says",
                        r.machine, r.epoch, m.through_round, m.rounds, m.wagered
                    ),
                    (None, None) => {}
                }
            }
            let alarms = reconciliation.iter().filter(|r| r.alarm.is_some()).count();
            println!(
                "{} contributions, {} cents wagered; books {}; {alarms} reconciliation alarm(s)",
                books.contributions,
                books.wagered,
                if books.balanced() { "balance" } else { "DO NOT BALANCE" }
            );
            if !books.balanced() {
                return Err(anyhow!("the books of {pool} do not balance"));
            }
            if alarms > 0 {
                return Err(anyhow!("{alarms} cabinet(s) of {pool} do not reconcile with their journals"));
            }
            Ok(())
        }
        Command::Transfer { url, pool, level, to, authority } => {
            let target = match &to {
                Some(t) => {
                    let (p, l) = t.split_once(':').ok_or_else(|| anyhow!("--to must be POOL:LEVEL, not {t}"))?;
                    Some((p, l.parse::<usize>().map_err(|_| anyhow!("--to {t}: the level must be a number"))?))
                }
                None => None,
            };
            let amount = Controller::connect(&url)?.transfer(&pool, level, target, authority.as_deref().unwrap_or(""))?;
            println!("{amount} cents of pool {pool} level {level} transferred");
            Ok(())
        }
        Command::Bench { url, cabinets, seconds, batch } => bench::contributions(&url, &cabinets, seconds, batch.max(1)),
        Command::BenchAward { url, cabinet, rounds, paytable } => bench::award(&url, &cabinet, rounds, &paytable),
        Command::BenchFlood { url, honest, flooder, seconds, paytable } => bench::flood(&url, &honest, &flooder, seconds, &paytable),
    }
}
