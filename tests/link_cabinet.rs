//! `egm-link-cabinet URL DB MACHINE ROUNDS [PACE_MS]`: one cabinet of a linked
//! progressive pool (issue 6, M-19), as the load test runs eight or more of
//! them at once. It plays ROUNDS rounds of a progressive-eligible game on
//! its own critical memory (DB), each committed to the controller at URL
//! before it is drawn and drawn from the controller's nonce (issue 46),
//! delivers each wager's contribution from its journaled outbox, and claims
//! the award when a round hits a level by revealing the round's key. It
//! reports each fact on stdout after it is committed. It stops taking bets
//! while the controller has not answered for 5 seconds, and delivers what
//! it queued once the link is back.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use game_core::reels::{Bet, ReelGame, StopTables};
use linked_controller::{Link, LinkError, ReelBet, deliver_outbox};
use meters::{GameRng, Machine, MachineConfig, Mode, SeedChoice, StreamRng};
use serde_json::json;

#[path = "support/linked_game.rs"]
mod linked_game;

pub const POOL: &str = "linked-sevens";
pub const GAME: &str = linked_game::GAME;
/// The denominations this cabinet offers (and the operator sets at the
/// controller: `linked_game::CABINET_DENOMINATIONS`, to 1 €).
const DENOMINATIONS: [u64; 7] = [1, 2, 5, 10, 20, 50, 100];

fn say(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// Send the outbox; journal the acknowledgement.
fn deliver(m: &mut Machine, link: &mut Link) -> Result<bool> {
    let sent = deliver_outbox(m, link, POOL)?;
    if let Some(n) = sent.filter(|&n| n > 0) {
        say(&format!("delivered {n}"))?;
    }
    Ok(sent.is_some())
}

/// Send the outbox until the controller answers (at most 120 s), polling
/// every `poll`; `unavailable` counts the polls made while the link is
/// marked down.
fn deliver_all(m: &mut Machine, link: &mut Link, poll: Duration, unavailable: &mut u64) -> Result<()> {
    let started = Instant::now();
    while !deliver(m, link)? {
        if started.elapsed() > Duration::from_secs(120) {
            return Err(anyhow!("the controller never answered"));
        }
        if !link.available() {
            *unavailable += 1;
        }
        std::thread::sleep(poll);
    }
    Ok(())
}

/// The award of a committed hit, claimed by revealing the round's key;
/// retried until the controller answers (the round stays open meanwhile,
/// as after a power cut). `unavailable` counts the polls made while the
/// link is marked down.
fn award(link: &mut Link, epoch: &str, round: u64, level: usize, key: &str, unavailable: &mut u64) -> Result<u64> {
    let started = Instant::now();
    loop {
        match link.call(|c| c.reveal(POOL, epoch, round, level, key)) {
            Ok(a) if !a.pending => return Ok(a.amount),
            Ok(a) => return Err(anyhow!("the award of round {round} ({} cents) waits for an attendant", a.amount)),
            Err(LinkError::Invalid(e) | LinkError::Refused(e)) => return Err(anyhow!(e)),
            Err(_) if started.elapsed() < Duration::from_secs(120) => {
                if !link.available() {
                    *unavailable += 1;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(anyhow!("no award for round {round}: {e}")),
        }
    }
}

/// The controller's nonce for the committed `round`, asked until it
/// answers (while it paces this cabinet's rounds, or is down).
fn nonce(link: &mut Link, epoch: &str, round: u64, commitment: &str, bet: &ReelBet, unavailable: &mut u64) -> Result<String> {
    let started = Instant::now();
    loop {
        match link.call(|c| c.commit(POOL, epoch, round, commitment, bet)) {
            Ok(nonce) => return Ok(nonce),
            Err(LinkError::Invalid(e) | LinkError::Refused(e)) => return Err(anyhow!("round {round}'s commitment: {e}")),
            Err(_) if started.elapsed() < Duration::from_secs(120) => {
                if !link.available() {
                    *unavailable += 1;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(anyhow!("no nonce for round {round}: {e}")),
        }
    }
}

/// Play the round committed to the controller (issue 46): its nonce, then
/// the stop drawn from the key and the nonce as the approved game draws it.
/// Returns the round and its stop.
fn play_committed(m: &mut Machine, link: &mut Link, game: &ReelGame, tables: &StopTables, unavailable: &mut u64) -> Result<(u64, u32)> {
    let c = m.linked_commitment().cloned().ok_or_else(|| anyhow!("no round is committed"))?;
    let bet: ReelBet = serde_json::from_str(&c.bet)?;
    let (round, commitment) = m.commit_linked_round(POOL, &c.game, c.denom, c.stake, c.side_stake, &c.bet)?;
    let epoch = m.epoch_id().to_owned();
    let nonce = nonce(link, &epoch, round, &commitment, &bet, unavailable)?;
    let (round, outcome) = m.play_round_committed("outcome", &nonce, |rng| {
        game.play(tables, rng, Bet { lines: bet.lines, credits_per_line: bet.credits_per_line }).map(|r| json!({ "stop": r.base.stops[0] }))
    })?;
    let stop = outcome["stop"].as_u64().and_then(|s| u32::try_from(s).ok()).ok_or_else(|| anyhow!("round {round} drew no stop"))?;
    Ok((round, stop))
}

/// Settle `round`, which stopped at `stop`: a hit is claimed by revealing
/// the round's key.
fn finish(m: &mut Machine, link: &mut Link, round: u64, stop: u32, unavailable: &mut u64) -> Result<()> {
    match linked_game::level_hit(stop) {
        Some(level) => {
            deliver_all(m, link, Duration::from_millis(50), unavailable)?;
            let epoch = m.epoch_id().to_owned();
            let key = m.open_round().and_then(|o| o.committed.clone()).ok_or_else(|| anyhow!("round {round} was not committed"))?.key;
            let amount = award(link, &epoch, round, level, &key, unavailable)?;
            m.settle_round_with_awards(round, 0, vec![], &[], &[(POOL.to_owned(), level, amount)])?;
            say(&format!("award {round} {level} {amount}"))?;
        }
        None => {
            m.settle_round(round, 0, vec![])?;
        }
    }
    say(&format!("settled {round}"))
}

fn main() -> Result<()> {
    let usage = "usage: egm-link-cabinet URL DB MACHINE ROUNDS [PACE_MS]";
    let mut args = std::env::args().skip(1);
    let url = args.next().context(usage)?;
    let db = PathBuf::from(args.next().context(usage)?);
    let machine = args.next().context(usage)?;
    let rounds: u64 = args.next().context(usage)?.parse()?;
    // A player's pace between rounds, in milliseconds.
    let pace = Duration::from_millis(args.next().map_or(Ok(0), |p| p.parse())?);
    let config = MachineConfig { mode: Mode::Lab, machine_id: machine.clone(), ..MachineConfig::default() };
    let mut m = Machine::open(&db, config, SeedChoice::Entropy)?;
    // The player's stakes (any will do); outcomes are the core's draws.
    let mut player = StreamRng::from_entropy()?;
    m.join_linked_pool(POOL, vec![GAME.to_owned()], 1)?;
    let mut link = Link::new(&url);
    let game = linked_game::paytable();
    let tables = StopTables::new(&game)?;

    // Killed mid-round: a round committed and not yet drawn is drawn from
    // the same nonce; an open round resumes at its stop (never voided).
    if m.linked_commitment().is_some() {
        let (round, stop) = play_committed(&mut m, &mut link, &game, &tables, &mut 0)?;
        say(&format!("begun {round} {}", m.open_round().map_or(0, |o| o.stake)))?;
        finish(&mut m, &mut link, round, stop, &mut 0)?;
    } else if let Some(open) = m.open_round().cloned() {
        let recall = m.recall(1)?;
        let first = recall.last().and_then(|r| r.steps.first()).ok_or_else(|| anyhow!("open round without steps"))?;
        let stop = first.step.data["stop"].as_u64().and_then(|s| u32::try_from(s).ok()).ok_or_else(|| anyhow!("open round without a stop"))?;
        m.resume_round(open.round)?;
        say(&format!("resumed {}", open.round))?;
        finish(&mut m, &mut link, open.round, stop, &mut 0)?;
    }

    let mut played = 0u64;
    let mut last_beat: Option<Instant> = None;
    let mut unavailable = 0u64;
    while played < rounds {
        if last_beat.is_none_or(|t| t.elapsed() > Duration::from_millis(200)) {
            let _ = link.heartbeat(POOL);
            last_beat = Some(Instant::now());
        }
        if !link.available() {
            // M-19 / issue 6: no progressive-eligible bet without the controller.
            unavailable += 1;
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        if m.credit() < 1_000 {
            m.insert_note(5_000)?;
        }
        // One line of one credit at a denomination the player picks (one
        // the controller's operator set for the cabinet, issue 46).
        let denom = DENOMINATIONS[usize::try_from(player.uniform(DENOMINATIONS.len() as u64))?];
        let bet = ReelBet { game: GAME.to_owned(), lines: 1, credits_per_line: 1, denom };
        m.commit_linked_round(POOL, GAME, denom, denom, 0, &serde_json::to_string(&bet)?)?;
        // One reel of 1,000 stops (`linked_game`), drawn from the key the
        // core committed and the controller's nonce.
        let (round, stop) = play_committed(&mut m, &mut link, &game, &tables, &mut unavailable)?;
        say(&format!("begun {round} {denom}"))?;
        deliver(&mut m, &mut link)?;
        finish(&mut m, &mut link, round, stop, &mut unavailable)?;
        played += 1;
        std::thread::sleep(pace);
    }
    // Deliver what is still queued before stopping.
    deliver_all(&mut m, &mut link, Duration::from_millis(200), &mut unavailable)?;
    say(&format!("done {played} unavailable_polls {unavailable}"))?;
    m.shutdown()?;
    Ok(())
}
