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
//!
//! `--state FILE` keeps the note in the acceptor's path through the
//! emulator's own death, as a real acceptor keeps it through a power cut:
//! written within 20 ms of each change (`note 0x63 escrow`, `ticket DIGITS
//! stacking`, or empty), and read at start, the emulator then powering up
//! with the note where it was (given back from escrow, stacked past the
//! point of return).

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
    /// Keep the note in the path here, through the emulator's own death.
    #[arg(long)]
    state: Option<std::path::PathBuf>,
}

fn main() -> Result<()> {
    let args = Args::parse();
    if let Some(Control::Send { socket, command }) = args.command {
        return shell::send(&socket, &command);
    }
    let link = args.line.link.ok_or_else(|| anyhow!("--link PATH is needed: where the cabinet finds the acceptor's port"))?;
    let in_path = match &args.state {
        Some(file) if file.exists() => read_state(file)?,
        _ => None,
    };
    let acceptor = Arc::new(Mutex::new(Emulator::powered_up_with(in_path)));
    {
        let (acceptor, record, state) = (acceptor.clone(), args.line.record.clone(), args.state.clone());
        std::thread::spawn(move || report(&acceptor, record.as_deref(), state.as_deref()));
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
/// the player's hand, as it happens; keeps the note in the path in `state`.
fn report(acceptor: &Mutex<Emulator>, record: Option<&Path>, state: Option<&Path>) {
    let (mut stacked, mut returned) = (0, 0);
    let mut kept: Option<Option<(Denomination, bool)>> = None;
    loop {
        std::thread::sleep(Duration::from_millis(20));
        let Ok(a) = acceptor.lock() else { return };
        let mut lines = Vec::new();
        stacked = stacked.min(a.stacked.len());
        lines.extend(a.stacked[stacked..].iter().map(|d| format!("stacked {d:?}")));
        lines.extend(a.returned[returned..].iter().map(|d| format!("returned {d:?}")));
        (stacked, returned) = (a.stacked.len(), a.returned.len());
        let in_path = a.in_path();
        drop(a);
        for line in lines {
            shell::record(&line, record);
        }
        if let Some(file) = state
            && kept.as_ref() != Some(&in_path)
        {
            match write_state(file, in_path.as_ref()) {
                Ok(()) => kept = Some(in_path),
                Err(e) => eprintln!("{}: {e}", file.display()),
            }
        }
    }
}

/// The note in the path as one line: `note 0x63 escrow`, `ticket DIGITS
/// stacking`, or nothing; written whole (a new file renamed over the old).
fn write_state(file: &Path, in_path: Option<&(Denomination, bool)>) -> std::io::Result<()> {
    let line = match in_path {
        None => String::new(),
        Some((d, past)) => {
            let at = if *past { "stacking" } else { "escrow" };
            match d {
                Denomination::Note(code) => format!("note {code:#04x} {at}\n"),
                Denomination::Ticket(digits) => format!("ticket {digits} {at}\n"),
            }
        }
    };
    let new = file.with_extension("new");
    std::fs::write(&new, line)?;
    std::fs::rename(&new, file)
}

fn read_state(file: &Path) -> Result<Option<(Denomination, bool)>> {
    let text = std::fs::read_to_string(file).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = || anyhow!("{}: {text:?} is not a note in the path (note CODE escrow|stacking, ticket DIGITS escrow|stacking, or empty)", file.display());
    let (kind, what, at) = match words[..] {
        [] => return Ok(None),
        [kind, what, at] => (kind, what, at),
        _ => return Err(bad()),
    };
    let past = match at {
        "escrow" => false,
        "stacking" => true,
        _ => return Err(bad()),
    };
    let d = match kind {
        "note" => Denomination::Note(u8::try_from(number(Some(what), "the escrow code")?).map_err(|_| bad())?),
        "ticket" if what.bytes().all(|b| b.is_ascii_digit()) => Denomination::Ticket(what.to_owned()),
        _ => return Err(bad()),
    };
    Ok(Some((d, past)))
}
