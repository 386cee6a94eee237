//! What the device emulators share (issue 70; `egm-acceptor`,
//! `egm-printer`): a pty whose cabinet end a link names, the device served
//! on its far end, commands one per line on standard input and on a
//! control socket (`send SOCKET COMMAND` writes one), and a record of what
//! came out of the device appended to a file.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};

/// Where an emulator serves and how it is told things: the arguments the
/// emulators share.
#[derive(clap::Args)]
pub struct Line {
    /// Make PATH a link to the pty's cabinet end (replaced if it is a link already).
    #[arg(long)]
    pub link: Option<PathBuf>,
    /// Also take commands on this Unix socket (one per line per connection).
    #[arg(long)]
    pub control: Option<PathBuf>,
    /// Append what comes out of the device to this file, a line each.
    #[arg(long)]
    pub record: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
pub enum Control {
    /// Send one command to a running emulator's control socket.
    Send { socket: PathBuf, command: Vec<String> },
}

/// How a device is served on the far end of its pty.
pub type Serve<E> = fn(std::fs::File, &Mutex<E>, &AtomicBool) -> std::io::Result<()>;

/// One command line carried out on the device: what to print, if anything.
pub type Run<E> = fn(&mut E, &str) -> Result<Option<String>>;

/// Send one command to a running emulator's control socket.
pub fn send(socket: &Path, command: &[String]) -> Result<()> {
    let mut s = UnixStream::connect(socket).with_context(|| format!("{}: no emulator listens there", socket.display()))?;
    writeln!(s, "{}", command.join(" "))?;
    Ok(())
}

/// Serve `device` on a new pty whose cabinet end `link` names (replaced
/// if it is a link already), saying so on the first line of output as
/// `{what} on LINK -> PTY`; then carry out commands from `control` and
/// standard input with `run` until killed.
pub fn serve<E: Send + 'static>(device: Arc<Mutex<E>>, link: &Path, what: &str, serve: Serve<E>, control: Option<PathBuf>, run: Run<E>) -> Result<()> {
    let pty = peripherals::serial::Pty::open().context("cannot open a pty")?;
    if std::fs::symlink_metadata(link).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::remove_file(link).with_context(|| format!("{}: cannot replace the old link", link.display()))?;
    }
    std::os::unix::fs::symlink(&pty.path, link).with_context(|| format!("{}: cannot link it to {}", link.display(), pty.path.display()))?;
    println!("{what} on {} -> {}", link.display(), pty.path.display());
    let stop = Arc::new(AtomicBool::new(false));
    {
        let (line, device, stop) = (pty.master.try_clone()?, device.clone(), stop.clone());
        std::thread::spawn(move || {
            if let Err(e) = serve(line, &device, &stop) {
                eprintln!("the line failed: {e}");
            }
        });
    }
    if let Some(socket) = control {
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket).with_context(|| format!("{}: cannot listen there", socket.display()))?;
        let device = device.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    say(&device, &line, run);
                }
            }
        });
    }
    for line in std::io::stdin().lock().lines() {
        say(&device, &line?, run);
    }
    // Standard input closed: keep serving until killed (a script's
    // background emulator has no terminal).
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// Carry out one command line, printing what is wrong with it.
fn say<E>(device: &Mutex<E>, line: &str, run: Run<E>) {
    let line = line.trim();
    if line.is_empty() {
        return;
    }
    let Ok(mut d) = device.lock() else { return };
    match run(&mut d, line) {
        Ok(Some(said)) => println!("{said}"),
        Ok(None) => {}
        Err(e) => println!("{line:?}: {e}"),
    }
}

/// A number in decimal or `0x` hexadecimal; `what` names it when missing
/// or wrong.
pub fn number(word: Option<&str>, what: &str) -> Result<u64> {
    let w = word.ok_or_else(|| anyhow::anyhow!("{what} is missing"))?;
    let n = match w.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => w.parse(),
    };
    n.map_err(|_| anyhow::anyhow!("{what} {w:?} is not a number"))
}

/// Append `line` to `record`, then print it (whoever reads the output
/// finds the record already written).
pub fn record(line: &str, record: Option<&Path>) {
    if let Some(path) = record {
        let written = std::fs::OpenOptions::new().create(true).append(true).open(path).and_then(|mut f| writeln!(f, "{line}"));
        if let Err(e) = written {
            eprintln!("{}: {e}", path.display());
        }
    }
    println!("{line}");
}
