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

/// Start `exe` with `args`, let it run for `after`, kill it with SIGKILL
/// (no destructor, no power-down entry) and return what it printed on
/// stdout and stderr.
// Each kill test uses one of the two ways to kill (this module is in both).
#[allow(dead_code)]
pub fn run_killed(exe: &str, args: &[&std::ffi::OsStr], after: Duration) -> (String, String) {
    let mut child = Command::new(exe).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    std::thread::sleep(after);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (out, err)
}

/// As [`run_killed`], the delay counted from the line `ready` on the
/// workload's stdout (its boot over: a boot slowed by a loaded machine
/// takes none of the delay, so the kills land in play), or after at most
/// `wait` without it.
#[allow(dead_code)]
pub fn run_killed_once_ready(exe: &str, args: &[&std::ffi::OsStr], ready: &str, wait: Duration, after: Duration) -> (String, String) {
    let mut child = Command::new(exe).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let ready = ready.to_owned();
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line == ready {
                let _ = tx.send(());
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    });
    let _ = rx.recv_timeout(wait);
    std::thread::sleep(after);
    child.kill().unwrap();
    child.wait().unwrap();
    let out = reader.join().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (out, err)
}
