//! `egm-acceptor`: a JCM ID-003 note and ticket acceptor in software, on a
//! pty (issue 70), for labs, the window tests and `run-cabinet.sh` when the
//! configuration names no hardware port. It speaks the real protocol over
//! the pty (`peripherals::id003::Emulator`), so a note fed here goes the
//! whole driver path of the cabinet. Give the cabinet the path `--link`
//! names (`acceptor: Some((port: PATH, notes: …))`).
//!
//! Commands, one per line, on standard input or on the control socket
//! (`--control`; `egm-acceptor send SOCKET COMMAND` writes one):
//! `note CODE` (an escrow code, 0x61–0x70), `ticket DIGITS`, `jam`,
//! `cheat`, `fail CODE`, `full` (the stacker takes no more), `empty`,
//! `stacker out`, `stacker in`, `power-cut` (now), `power-cut-at N` (just
//! before its N-th answer from now), `garbage` and `corrupt` (the next
//! answer), `silent on|off`, `status`. What ends in the stacker or back in
//! the player's hand is printed, and appended to `--record`.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use clap::Parser;
use peripherals::id003::{Denomination, Emulator, emulator};

#[path = "../emulator/shell.rs"]
mod shell;

use shell::{Control, number};

#[derive(Parser)]
#[command(name = "egm-acceptor", version, about = "An ID-003 note and ticket acceptor in software, on a pty")]
struct Args {
    #[command(subcommand)]
    command: Option<Control>,
    #[command(flatten)]
    line: shell::Line,
}

fn main() -> Result<()> {
    let args = Args::parse();
    if let Some(Control::Send { socket, command }) = args.command {
        return shell::send(&socket, &command);
    }
    let link = args.line.link.ok_or_else(|| anyhow!("--link PATH is needed: where the cabinet finds the acceptor's port"))?;
    let acceptor = Arc::new(Mutex::new(Emulator::new()));
    {
        let (acceptor, record) = (acceptor.clone(), args.line.record.clone());
        std::thread::spawn(move || report(&acceptor, record.as_deref()));
    }
    shell::serve(acceptor, &link, "acceptor (ID-003)", emulator::serve, args.line.control, command)
}

fn command(a: &mut Emulator, line: &str) -> Result<Option<String>> {
    let mut words = line.split_whitespace();
    let verb = words.next().unwrap_or_default();
    match verb {
        "note" => {
            let code = u8::try_from(number(words.next(), "the escrow code")?).map_err(|_| anyhow!("an escrow code is one byte"))?;
            a.insert(Denomination::Note(code));
        }
        "ticket" => {
            let digits = words.next().ok_or_else(|| anyhow!("the ticket's barcode is missing"))?;
            if digits.is_empty() || digits.len() > 24 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                bail!("a ticket's barcode is 1 to 24 digits");
            }
            a.insert(Denomination::Ticket(digits.to_owned()));
        }
        "jam" => a.jam(),
        "cheat" => a.cheat(),
        "fail" => a.fail(u8::try_from(number(words.next(), "the failure code")?).map_err(|_| anyhow!("a failure code is one byte"))?),
        "full" => a.stacker_room(0),
        "empty" => {
            a.stacked.clear();
            a.stacker_room(600);
        }
        "stacker" => match words.next() {
            Some("out") => a.stacker_out(true),
            Some("in") => a.stacker_out(false),
            _ => bail!("stacker out, or stacker in"),
        },
        "power-cut" => a.power_cut(),
        "power-cut-at" => a.power_cut_at(number(words.next(), "the answer")?),
        "garbage" => a.garbage_next(),
        "corrupt" => a.corrupt_next(),
        "silent" => match words.next() {
            Some("on") => a.silent = true,
            Some("off") => a.silent = false,
            _ => bail!("silent on, or silent off"),
        },
        "status" => return Ok(Some(format!("{a:?}"))),
        other => bail!(
            "unknown command {other:?}: note CODE, ticket DIGITS, jam, cheat, fail CODE, full, empty, stacker out|in, power-cut, power-cut-at N, garbage, corrupt, silent on|off, status"
        ),
    }
    Ok(None)
}

/// Prints (and appends to `record`) what ends in the stacker or back in
/// the player's hand, as it happens.
fn report(acceptor: &Mutex<Emulator>, record: Option<&Path>) {
    let (mut stacked, mut returned) = (0, 0);
    loop {
        std::thread::sleep(Duration::from_millis(20));
        let Ok(a) = acceptor.lock() else { return };
        let mut lines = Vec::new();
        stacked = stacked.min(a.stacked.len());
        lines.extend(a.stacked[stacked..].iter().map(|d| format!("stacked {d:?}")));
        lines.extend(a.returned[returned..].iter().map(|d| format!("returned {d:?}")));
        (stacked, returned) = (a.stacked.len(), a.returned.len());
        drop(a);
        for line in lines {
            shell::record(&line, record);
        }
    }
}
