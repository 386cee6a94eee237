//! What both kill -9 tests share: reproducible kill delays and one run of
//! a workload killed with SIGKILL after a delay.

use std::io::{BufRead, Read};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A tiny deterministic generator for kill delays (the test's own, not the
/// core's): `min_ms` plus up to `span_ms`.
pub struct Delays {
    state: u64,
    min_ms: u64,
    span_ms: u64,
}

impl Delays {
    pub fn new(seed: u64, min_ms: u64, span_ms: u64) -> Delays {
        Delays { state: seed, min_ms, span_ms }
    }

    pub fn next(&mut self) -> Duration {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        Duration::from_millis(self.min_ms + self.state % self.span_ms)
    }
}

/// What a kill waits for before its delay: nothing (the delay counts from
/// the start), or a line the workload prints once booted, for at most a
/// while (a boot slowed by a loaded machine then takes none of the delay,
/// so the kills land in play).
pub enum Start<'a> {
    AtOnce,
    AfterLine { line: &'a str, wait: Duration },
}

/// When kill number `kill` counts its delay from: every other one from
/// the start (a kill in the boot and in the resume of an interrupted
/// round), the others from the workload's `ready` (a kill in play, mid-round
/// as often as not, whatever the boot took on a loaded machine).
pub fn start_of(kill: u32) -> Start<'static> {
    if kill.is_multiple_of(2) { Start::AtOnce } else { Start::AfterLine { line: "ready", wait: Duration::from_secs(60) } }
}

/// Start `exe` with `args`, let it run for `after` from `start`, kill it
/// with SIGKILL (no destructor, no power-down entry) and return what it
/// printed on stdout and stderr.
pub fn run_killed(exe: &str, args: &[&std::ffi::OsStr], start: Start<'_>, after: Duration) -> (String, String) {
    let mut child = Command::new(exe).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let ready = match start {
        Start::AtOnce => None,
        Start::AfterLine { line, .. } => Some(line.to_owned()),
    };
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if ready.as_deref() == Some(line.as_str()) {
                let _ = tx.send(());
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    });
    if let Start::AfterLine { wait, .. } = start {
        let _ = rx.recv_timeout(wait);
    }
    std::thread::sleep(after);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = reader.join().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (out, err)
}
