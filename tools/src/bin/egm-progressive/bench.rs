//! The controller's benches (`tools/bench-controller.sh`, issues 13, 46
//! and 69): contributions a second from concurrent cabinets, a verified
//! award's latency, and an honest cabinet's rate while another certificate
//! floods the service within its limits.

use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use linked_controller::{ApprovedReelGame, ApprovedTrigger, CabinetClient, Controller, Outcome};
use meters::PoolConfig;

pub(crate) fn contributions(url: &str, cabinets: &[String], seconds: u64, batch: usize) -> Result<()> {
    let mut c = Controller::connect(url)?;
    let names = cabinets.iter().map(|a| cabinet_name(a)).collect::<Result<Vec<_>>>()?;
    let pool = scratch_pool(&mut c, vec!["bench".into()], &names)?;
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let counts: Vec<Result<u64>> = std::thread::scope(|s| {
        let run = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let handles: Vec<_> = cabinets
            .iter()
            .enumerate()
            .map(|(i, address)| {
                let pool = pool.clone();
                s.spawn(move || -> Result<u64> {
                    let mut c = CabinetClient::connect(address)?;
                    // A journal epoch of its own for this run.
                    let epoch = format!("{run:016x}{:08x}{i:08x}", std::process::id());
                    let mut round = 0u64;
                    while Instant::now() < until {
                        let items: Vec<(u64, u64)> = (0..batch).map(|i| (round + i as u64 + 1, 100)).collect();
                        let answers = c.contribute(&pool, &epoch, &items)?;
                        if let Some((r, o)) = answers.iter().find(|a| a.1 != Outcome::Accepted) {
                            return Err(anyhow!("round {r}: {o:?}"));
                        }
                        round += answers.len() as u64;
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
    println!(
        "{total} contributions from {} cabinets over TLS in {secs:.2} s: {:.0} contributions/s (batch {batch}); books balance",
        cabinets.len(),
        total as f64 / secs
    );
    Ok(())
}

/// A scratch pool of one level for the benches, with `cabinets` assigned.
fn scratch_pool(c: &mut Controller, games: Vec<String>, cabinets: &[&str]) -> Result<String> {
    let pool = format!("bench-{}-{}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_micros()));
    let cfg = PoolConfig {
        id: pool.clone(),
        games,
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
    c.configure_pool(&cfg, 1_000_000)?;
    for name in cabinets {
        c.set_denominations(name, &[1, 5, 10, 25, 100])?;
        c.assign(&pool, name, true)?;
    }
    Ok(pool)
}

/// Approve `game` for a scratch pool, its one level won by `count` of
/// the game's first regular symbol on a played line (no attendant).
fn approve_scratch(op: &mut Controller, pool: &str, game: &game_core::reels::ReelGame, count: u8) -> Result<()> {
    let games = std::collections::BTreeMap::from([(game.id.clone(), ApprovedReelGame::of(game))]);
    let symbol = game.symbols.iter().find(|s| matches!(s.kind, game_core::reels::SymbolKind::Regular)).map(|s| s.id.clone()).unwrap_or_default();
    op.approve_games(pool, &games, &[ApprovedTrigger { level: 0, symbol, count, max_bet_only: false, hold_and_spin_grand: false }], 1 << 40)?;
    Ok(())
}

/// The cabinet's name in its service address (egm://NAME@…).
fn cabinet_name(address: &str) -> Result<&str> {
    address
        .strip_prefix("egm://")
        .and_then(|a| a.split_once('@'))
        .map(|a| a.0)
        .ok_or_else(|| anyhow!("{address}: a cabinet's address is egm://NAME@HOST:PORT?…"))
}

/// A fresh journal epoch identifier for a bench run.
fn bench_epoch(i: u64) -> String {
    let run = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    format!("{run:016x}{:08x}{i:08x}", std::process::id())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default()
}

pub(crate) fn award(url: &str, cabinet: &str, rounds: usize, paytable: &std::path::Path) -> Result<()> {
    use meters::rng::CommittedStream;
    let game = paytables::compile::load(paytable).map_err(|e| anyhow!("{}: {e}", paytable.display()))?;
    let tables = game_core::reels::StopTables::new(&game).map_err(|e| anyhow!("{e}"))?;
    let mut op = Controller::connect(url)?;
    let pool = scratch_pool(&mut op, vec![game.id.clone()], &[cabinet_name(cabinet)?])?;
    approve_scratch(&mut op, &pool, &game, 1)?;
    let mut c = CabinetClient::connect(cabinet)?;
    let epoch = bench_epoch(0);
    let bet = linked_controller::ReelBet { game: game.id.clone(), lines: 1, credits_per_line: 1, denom: 1 };
    let (mut commits, mut claims) = (Vec::new(), Vec::new());
    let mut paid = 0;
    for round in 1..=rounds as u64 {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| anyhow!("{e}"))?;
        let t = Instant::now();
        let nonce = c.commit(&pool, &epoch, round, &hex::encode(CommittedStream::commitment(&key)), &bet)?;
        commits.push(t.elapsed());
        let n: [u8; 32] = hex::decode(&nonce)?.try_into().map_err(|_| anyhow!("a nonce of another length"))?;
        game.play(&tables, &mut CommittedStream::new(&key, &n), game_core::reels::Bet { lines: 1, credits_per_line: 1 }).map_err(|e| anyhow!("{e}"))?;
        c.contribute(&pool, &epoch, &[(round, 1)])?;
        // Claims are paced per certificate (two a second after twenty).
        if claims.len() < 20 {
            let t = Instant::now();
            match c.reveal(&pool, &epoch, round, 0, &hex::encode(key)) {
                Ok(_) => paid += 1,
                Err(linked_controller::LinkError::Refused(_)) => {}
                Err(e) => return Err(e.into()),
            }
            claims.push(t.elapsed());
        }
    }
    commits.sort();
    claims.sort();
    let mean = |d: &[Duration]| d.iter().sum::<Duration>() / d.len().max(1) as u32;
    println!(
        "commit and nonce: mean {:.2} ms, p95 {:.2} ms over {} rounds; claim revealing the key, drawn again and judged: mean {:.2} ms, p95 {:.2} ms over {} claims ({paid} paid)",
        mean(&commits).as_secs_f64() * 1e3,
        percentile(&commits, 0.95).as_secs_f64() * 1e3,
        commits.len(),
        mean(&claims).as_secs_f64() * 1e3,
        percentile(&claims, 0.95).as_secs_f64() * 1e3,
        claims.len()
    );
    if !op.books(&pool)?.balanced() {
        return Err(anyhow!("the books of {pool} do not balance"));
    }
    Ok(())
}

/// What the flooding certificate sends, from as many connections as a
/// cabinet may hold, within its limits (issue 69, availability).
#[derive(Clone, Copy)]
enum Flood {
    /// Reads of the levels, as fast as it can.
    Reads,
    /// Contributions of 1,000 rows (the most a request carries) of rounds it
    /// never committed, to a pool that takes committed rounds only: each
    /// row refused.
    UncommittedRows,
    /// Contributions of 1,000 rows to a pool of plain play (an operator's
    /// choice): each row accepted, up to the certificate's rows a second.
    PlainRows,
}

impl Flood {
    fn describe(self) -> &'static str {
        match self {
            Flood::Reads => "reads of the levels",
            Flood::UncommittedRows => "1,000-row contributions of rounds never committed, to a pool of committed rounds only (every row refused)",
            Flood::PlainRows => "1,000-row contributions to a pool of plain play (every row accepted)",
        }
    }
}

/// An honest cabinet's contributions (one row a request, as a cabinet sends
/// one a round), how long each took to be answered and how many were not,
/// alone and under each [`Flood`] in turn.
pub(crate) fn flood(url: &str, honest: &str, flooder: &str, seconds: u64, paytable: &std::path::Path) -> Result<()> {
    let game = paytables::compile::load(paytable).map_err(|e| anyhow!("{}: {e}", paytable.display()))?;
    let mut op = Controller::connect(url)?;
    let cabinets = [cabinet_name(honest)?, cabinet_name(flooder)?];
    let plain = scratch_pool(&mut op, vec!["bench".into()], &cabinets)?;
    let committed = scratch_pool(&mut op, vec![game.id.clone()], &cabinets)?;
    approve_scratch(&mut op, &committed, &game, 3)?;
    // The honest cabinet: a contribution every 50 ms (twenty a second,
    // several times a cabinet's rounds, within its limits), each answer's
    // time kept; one not answered (over a limit, unavailable) is counted.
    let honest_cabinet = |label: &str, epoch: &str, start: u64| -> Result<u64> {
        let mut c = CabinetClient::connect(honest)?;
        let until = Instant::now() + Duration::from_secs(seconds);
        let (mut round, mut times, mut unanswered) = (start, Vec::new(), 0);
        while Instant::now() < until {
            round += 1;
            let t = Instant::now();
            match c.contribute(&plain, epoch, &[(round, 100)]) {
                Ok(_) => times.push(t.elapsed()),
                Err(_) => {
                    unanswered += 1;
                    c = CabinetClient::connect(honest)?;
                }
            }
            std::thread::sleep(Duration::from_millis(50).saturating_sub(t.elapsed()));
        }
        times.sort();
        println!(
            "{label}: {} contributions answered in {:.2} ms on average (p99 {:.2} ms, max {:.2} ms), {unanswered} not answered",
            times.len(),
            times.iter().sum::<Duration>().as_secs_f64() * 1e3 / times.len().max(1) as f64,
            percentile(&times, 0.99).as_secs_f64() * 1e3,
            times.last().copied().unwrap_or_default().as_secs_f64() * 1e3
        );
        Ok(round)
    };
    let epoch = bench_epoch(1);
    let mut last = honest_cabinet("an honest cabinet alone", &epoch, 0)?;
    for (n, kind) in [Flood::Reads, Flood::UncommittedRows, Flood::PlainRows].into_iter().enumerate() {
        if n > 0 {
            // The flooder barred by the last flood (ten seconds) is let
            // back, so that each flood starts within its limits.
            std::thread::sleep(Duration::from_secs(11));
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (requests, rows) = (std::sync::atomic::AtomicU64::new(0), std::sync::atomic::AtomicU64::new(0));
        let fepoch = bench_epoch(100 + n as u64);
        last = std::thread::scope(|s| -> Result<u64> {
            for t in 0..linked_controller::CABINET_CONNECTIONS as u64 {
                let (stop, requests, rows, fepoch, plain, committed) = (&stop, &requests, &rows, &fepoch, &plain, &committed);
                s.spawn(move || {
                    // As an attacker would: every request it may send, and
                    // a new connection whenever the service closes one (a
                    // certificate over its limits is barred a while).
                    let mut next = t << 40;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let Ok(mut c) = CabinetClient::connect(flooder) else { continue };
                        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                            requests.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let batch = || -> Vec<(u64, u64)> { (1..=1000).map(|i| (next + i, 100)).collect() };
                            let answer = match kind {
                                Flood::Reads => c.levels(plain).map(|_| 0),
                                Flood::UncommittedRows => c.contribute(committed, fepoch, &batch()).map(|a| a.len() as u64),
                                Flood::PlainRows => c.contribute(plain, fepoch, &batch()).map(|a| a.len() as u64),
                            };
                            match answer {
                                Ok(n) => {
                                    next += n;
                                    rows.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                                }
                                Err(linked_controller::LinkError::Down | linked_controller::LinkError::Tls(_)) => break,
                                Err(_) => {}
                            }
                        }
                    }
                });
            }
            std::thread::sleep(Duration::from_millis(200));
            let result = honest_cabinet(&format!("the same while another certificate sends {} from 8 connections", kind.describe()), &epoch, last);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            result
        })?;
        let (requests, rows) = (requests.into_inner() as f64 / seconds as f64, rows.into_inner() as f64 / seconds as f64);
        match kind {
            Flood::Reads => println!("  the flood: {requests:.0} requests/s sent (most answered over the limit)"),
            _ => println!("  the flood: {requests:.0} requests/s sent, {rows:.0} rows/s answered"),
        }
    }
    let books = op.books(&plain)?;
    if !books.balanced() {
        return Err(anyhow!("the books of {plain} do not balance"));
    }
    Ok(())
}
