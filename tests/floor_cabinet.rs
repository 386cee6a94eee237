//! `egm-floor-cabinet CONFIG DB [--die-after pending|committed|taken]`: the real
//! game host, headless, on a floor's SAS line (issue 48: exactly once
//! across a kill -9). It boots the cabinet's configuration on its critical
//! memory (DB) and tends the SAS link every 5 ms. Commands on stdin, one a
//! line: `note CENTS`, `ticket VALIDATION`, `cash-out`, `hold` (stop
//! acting on the floor's requests: the port thread still answers the
//! floor, the session does nothing with it), `go` (act again). It prints
//! `ready` once booted and `credit N` after each command.
//!
//! `--die-after committed`: the moment the session has committed a floor
//! money record (a ticket redeemed on the floor's word, an AFT transfer)
//! that critical memory did not hold at boot, the process has `kill -9`
//! sent to itself — after the commit, before the floor has taken its
//! event. `--die-after taken`: the same once the floor has taken that
//! record's event (its cursor recorded in critical memory).
//! `--die-after pending`: once an AFT transfer is journaled pending and
//! not yet made (issue 71: a power cut mid-transfer).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::channel;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use game_host::boot::{BootOptions, boot};
use game_host::session::Session;
use meters::Entry;

#[derive(Clone, Copy, PartialEq, Eq)]
enum DieAfter {
    Never,
    Pending,
    Committed,
    Taken,
}

fn say(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// The sequence number of the first floor money record after `from`.
fn floor_money_after(s: &Session, from: u64) -> Result<Option<u64>> {
    let mut after = from;
    loop {
        let records = s.machine().records_after(after).map_err(|e| anyhow!("{e}"))?;
        let Some(last) = records.last().map(|r| r.seq) else { return Ok(None) };
        let found = records.iter().find(|r| matches!(r.entry, Entry::FloorTicketIn { .. } | Entry::AftIn { .. } | Entry::AftOut { .. }));
        if let Some(r) = found {
            return Ok(Some(r.seq));
        }
        after = last;
    }
}

/// Whether the floor has taken the event of record `seq`.
fn taken(s: &Session, seq: u64) -> bool {
    s.machine().floor_reported().is_some_and(|c| c.up_to >= seq || c.above.contains(&seq))
}

/// `kill -9` on this process, from outside it, as a power switch would.
fn die() -> Result<()> {
    std::process::Command::new("kill").arg("-KILL").arg(std::process::id().to_string()).status()?;
    bail!("still alive after kill -9")
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: egm-floor-cabinet CONFIG DB [--die-after pending|committed|taken]";
    let (config, db) = match args.as_slice() {
        [config, db, ..] => (PathBuf::from(config), PathBuf::from(db)),
        _ => bail!(usage),
    };
    let die_after = match args.get(2..).unwrap_or_default() {
        [] => DieAfter::Never,
        [flag, what] if flag == "--die-after" && what == "pending" => DieAfter::Pending,
        [flag, what] if flag == "--die-after" && what == "committed" => DieAfter::Committed,
        [flag, what] if flag == "--die-after" && what == "taken" => DieAfter::Taken,
        _ => bail!(usage),
    };
    let mut s = boot(&BootOptions { config, db, lab_seed: Some(48), demo: false }).map_err(|e| anyhow!(e)).context("boot")?;
    let boot_head = s.machine().journal_head();
    let (tx, commands) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    say("ready")?;
    let mut held = false;
    loop {
        while let Ok(line) = commands.try_recv() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["note", cents] => s.insert_note(cents.parse().context("note CENTS")?),
                ["ticket", validation] => s.insert_ticket(validation),
                ["cash-out"] => s.cash_out(),
                ["hold"] => held = true,
                ["go"] => held = false,
                _ => bail!("unknown command {line:?}"),
            }
            say(&format!("credit {}", s.machine().credit()))?;
        }
        if !held {
            s.tend_floor();
        }
        if die_after == DieAfter::Pending && s.machine().pending_aft().is_some() {
            die()?;
        }
        if die_after != DieAfter::Never
            && die_after != DieAfter::Pending
            && let Some(seq) = floor_money_after(&s, boot_head)?
            && (die_after == DieAfter::Committed || taken(&s, seq))
        {
            die()?;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
