//! `egm-soak DB ROUNDS`: a soak workload that drives the real core the way
//! a cabinet does — notes in, rounds with several committed steps, wins,
//! hand-pays, cash-out tickets that come back, door openings — and reports
//! on stdout each fact *after* it is committed. The fault-injection tests
//! kill it at random points (`kill -9`) and check that every reported fact
//! survived and nothing happened twice. Labs can use it for soak runs.
//!
//! A round of the workload's game draws its win at the first step (the
//! outcome is committed before anything is revealed), then commits three
//! reveal steps, then settles. On restart an interrupted round is resumed at
//! the step it reached, with the outcome it committed (M-36).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use meters::{
    CashOut, Door, GameRng, LevelConfig, Machine, MachineConfig, Mode, PoolConfig, SeedChoice, Step, StreamRng, WeightTable, WinComponent, WinPayment,
};
use serde_json::json;

const GAME: &str = "soak";
pub const POOL: &str = "soak-pool";

/// The workload's progressive pool: two levels; every round contributes.
fn pool() -> PoolConfig {
    PoolConfig {
        id: POOL.into(),
        games: vec![GAME.into()],
        min_wager: 1,
        side_bet: false,
        levels: vec![
            LevelConfig {
                name: "Grande".into(),
                start_value: 50_000,
                reset_value: 50_000,
                increment_ppm: 10_000,
                reserve_ppm: 2_000,
                ceiling: Some(52_000),
                mystery: true,
            },
            LevelConfig { name: "Mini".into(), start_value: 500, reset_value: 400, increment_ppm: 23_456, reserve_ppm: 0, ceiling: None, mystery: false },
        ],
    }
}
const REVEALS: u32 = 3;
const DENOMS: [u64; 3] = [1, 10, 100];
/// Win multipliers of the stake and their weights.
const PAYS: [(u64, u64); 7] = [(0, 600), (1, 200), (2, 100), (5, 60), (20, 30), (100, 9), (2_000, 1)];

fn say(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

fn finish_round(m: &mut Machine, round: u64, win: u64, hit: Option<usize>, from_step: u32) -> Result<()> {
    for k in from_step..=REVEALS {
        m.record_step(round, Step::new("reveal", json!({ "k": k })), 0)?;
    }
    let hits: Vec<(String, usize)> = hit.map(|l| (POOL.to_owned(), l)).into_iter().collect();
    let settled = m.settle_round_with_progressive(round, win, vec![WinComponent { label: "soak".into(), amount: win }], &hits)?;
    let win = settled.win;
    say(&format!("settled {round} {win}"))?;
    if let WinPayment::Handpay { id } = settled.payment {
        m.pay_handpay(id, "soak attendant")?;
        say(&format!("handpay {id} {win}"))?;
    }
    Ok(())
}

/// The win and progressive hit the last round committed at its first step.
fn committed_outcome(m: &Machine) -> Result<(u64, Option<usize>)> {
    let recall = m.recall(1)?;
    let first = recall.last().and_then(|r| r.steps.first()).ok_or_else(|| anyhow!("open round without steps"))?;
    let win = first.step.data["win"].as_u64().ok_or_else(|| anyhow!("open round without an outcome"))?;
    Ok((win, first.step.data["hit"].as_u64().map(|l| l as usize)))
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let db = PathBuf::from(args.next().context("usage: egm-soak DB ROUNDS")?);
    let rounds: u64 = args.next().context("usage: egm-soak DB ROUNDS")?.parse()?;
    let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
    let mut m = Machine::open(&db, config, SeedChoice::Entropy)?;

    // Recovery: resume the interrupted round at its step, same outcome.
    if let Some(open) = m.open_round().cloned() {
        let (win, hit) = committed_outcome(&m)?;
        m.resume_round(open.round)?;
        say(&format!("resumed {} {}", open.round, open.steps))?;
        finish_round(&mut m, open.round, win, hit, open.steps)?;
    }
    // A hand-pay committed before the kill but not yet paid (a lock-up
    // win, a cash-out over the ticket limit): the attendant pays it now.
    for id in m.state().handpays.keys().copied().collect::<Vec<_>>() {
        m.pay_handpay(id, "soak attendant")?;
        say(&format!("handpay {id} recovered"))?;
    }
    for tilt in m.state().tilts.clone() {
        m.clear_tilt(tilt, "soak attendant")?;
    }
    for door in Door::ALL {
        m.close_door(door)?;
    }
    let pays = WeightTable::new(&PAYS.map(|(_, w)| w))?;
    let mut player = StreamRng::from_entropy()?;
    if !m.pools().contains_key(POOL) {
        m.configure_pool(pool())?;
        say("pool configured")?;
    }

    // Booted and recovered: the kill test's delay may count from here.
    say("ready")?;
    for i in 0..rounds {
        if m.credit() < 2_000 {
            m.insert_note(5_000)?;
            say("note 5000")?;
        }
        // The player's bet (any choice will do); the outcome is the core's draw.
        let (denom, credits) = (DENOMS[player.index(DENOMS.len())], 1 + player.uniform(10));
        let stake = denom * credits;
        let (round, _) = m.play_round(GAME, denom, stake, "outcome", |rng| {
            // A progressive hit: the Mini 1 in 40, the Grande 1 in 400.
            let hit = match rng.uniform(400) {
                0 => Some(0),
                1..=10 => Some(1),
                _ => None,
            };
            let win = stake * PAYS[rng.pick(&pays)].0;
            Ok::<_, String>(json!({ "win": win, "hit": hit }))
        })?;
        let (win, hit) = committed_outcome(&m)?;
        say(&format!("begun {round} {stake}"))?;
        finish_round(&mut m, round, win, hit, 2)?;

        if i % 7 == 6 {
            match m.cash_out()? {
                CashOut::Ticket(t) => {
                    say(&format!("ticket {} {}", t.validation, t.value))?;
                    m.insert_ticket(&t.validation)?;
                    say(&format!("ticket_in {} {}", t.validation, t.value))?;
                }
                CashOut::Handpay { id, amount } => {
                    m.pay_handpay(id, "soak attendant")?;
                    say(&format!("cashout_handpay {id} {amount}"))?;
                }
            }
        }
        if i % 11 == 10 {
            m.open_door(Door::Main)?;
            m.close_door(Door::Main)?;
        }
    }
    say("done")?;
    m.shutdown()?;
    Ok(())
}
