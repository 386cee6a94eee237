//! `egm-printer`: a TCL ticket printer in software, on a pty (issue 70),
//! for labs, scripts and `run-cabinet.sh` when the configuration names no
//! hardware port. It speaks the real language over the pty
//! (`peripherals::tcl::Emulator`), so a cash-out printed here goes the
//! whole driver path of the cabinet. Give the cabinet the path `--link`
//! names (`printer: Some((port: PATH))`).
//!
//! Commands, one per line, on standard input or on the control socket
//! (`--control`; `egm-printer send SOCKET COMMAND` writes one): `paper N`
//! (a new box of N tickets; 0 empties it), `paper-ends-at STEP` and
//! `jam-at STEP` (at step 1, 2 or 3 of the next ticket: its top, its
//! validation number, its end and cut), `unjam`, `open`, `close`,
//! `power-cut-at N` (just before its N-th answer from now), `garbage`
//! (before the next answer), `silent on|off`, `status`. Each ticket that
//! comes out, whole or not, is printed with its regions, and appended to
//! `--record`.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use clap::Parser;
use peripherals::tcl::{Emulator, Paper, emulator};

#[path = "../emulator/shell.rs"]
mod shell;

use shell::{Control, number};

#[derive(Parser)]
#[command(name = "egm-printer", version, about = "A TCL ticket printer in software, on a pty")]
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
    let link = args.line.link.ok_or_else(|| anyhow!("--link PATH is needed: where the cabinet finds the printer's port"))?;
    let printer = Arc::new(Mutex::new(Emulator::new()));
    {
        let (printer, record) = (printer.clone(), args.line.record.clone());
        std::thread::spawn(move || report(&printer, record.as_deref()));
    }
    shell::serve(printer, &link, "printer (TCL)", emulator::serve, args.line.control, command)
}

fn step(word: Option<&str>) -> Result<u8> {
    match number(word, "the step")? {
        n @ 1..=3 => Ok(n as u8),
        n => bail!("step {n}: a ticket is printed in steps 1 to 3"),
    }
}

fn command(p: &mut Emulator, line: &str) -> Result<Option<String>> {
    let mut words = line.split_whitespace();
    match words.next().unwrap_or_default() {
        "paper" => p.load_paper(u32::try_from(number(words.next(), "the tickets in the box")?).map_err(|_| anyhow!("too many tickets for one box"))?),
        "paper-ends-at" => p.paper_ends_at_step(step(words.next())?),
        "jam-at" => p.jam_at_step(step(words.next())?),
        "unjam" => p.unjam(),
        "open" => p.set_open(true),
        "close" => p.set_open(false),
        "power-cut-at" => p.power_cut_at(number(words.next(), "the answer")?),
        "garbage" => p.garbage_next(),
        "silent" => match words.next() {
            Some("on") => p.silent = true,
            Some("off") => p.silent = false,
            _ => bail!("silent on, or silent off"),
        },
        "status" => return Ok(Some(format!("{p:?}"))),
        other => {
            bail!("unknown command {other:?}: paper N, paper-ends-at STEP, jam-at STEP, unjam, open, close, power-cut-at N, garbage, silent on|off, status")
        }
    }
    Ok(None)
}

/// A ticket as it came out: its validation number, amount, whether it is
/// whole, and its copy mark.
fn described(t: &Paper) -> String {
    let region = |i: usize| t.fields.get(i).map_or("", String::as_str);
    let state = match (t.whole, t.validation_printed) {
        (true, _) => "whole",
        (false, true) => "not cut (its validation number printed)",
        (false, false) => "stopped before its validation number",
    };
    let copy = if t.duplicate() { " DUPLICADO" } else { "" };
    format!("ticket {} {} {}{copy}: {state}", region(1), region(3), region(7))
}

/// Prints (and appends to `record`) each ticket once the printer is done
/// with it.
fn report(printer: &Mutex<Emulator>, record: Option<&Path>) {
    let mut told = 0;
    loop {
        std::thread::sleep(Duration::from_millis(20));
        let Ok(p) = printer.lock() else { return };
        // The last ticket is told once the printer is done with it.
        let done = if p.busy() { p.tickets.len().saturating_sub(1) } else { p.tickets.len() };
        let lines: Vec<String> = p.tickets[told.min(done)..done].iter().map(described).collect();
        told = done.max(told);
        drop(p);
        for line in lines {
            shell::record(&line, record);
        }
    }
}
