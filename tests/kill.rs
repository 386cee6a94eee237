//! What both kill -9 tests share: reproducible kill delays and one run of
//! a workload killed with SIGKILL after a delay.

use std::io::Read;
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
