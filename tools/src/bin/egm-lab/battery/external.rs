//! The external batteries on a stream of the generator's raw words:
//! dieharder (Debian's package; `tools/battery.sh` installs it) and
//! PractRand (`RNG_test`, built from its public-domain source where the
//! machine has it: `tools/battery.sh` says how). Neither's exit code is a
//! verdict (both exit 0 on failures), so each one's report is read here:
//! dieharder's FAILED lines, PractRand's "FAIL" evaluations. A battery
//! that is not installed is skipped with a message that says so; the
//! report never counts a skipped battery as passed.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use serde::Serialize;

/// What one external battery said.
#[derive(Clone, Debug, Serialize)]
pub struct External {
    pub battery: String,
    /// The command run, or why none was.
    pub command: String,
    /// `None`: skipped (not installed); else whether it passed.
    pub pass: Option<bool>,
    pub passed: usize,
    pub weak: usize,
    pub failed: usize,
    /// The lines that failed (or were weak), as the battery printed them.
    pub findings: Vec<String>,
    pub seconds: f64,
}

/// A program on the PATH.
pub fn on_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file()))
}

/// Run `program args` with the generator's raw bytes on its standard input
/// until it stops reading; its standard output, line by line.
fn feed(program: &Path, args: &[String], mut fill: impl FnMut(&mut [u8]) + Send) -> Result<Vec<String>> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", program.display()))?;
    let mut stdin = child.stdin.take().context("its standard input")?;
    let stdout = child.stdout.take().context("its standard output")?;
    let lines = std::thread::scope(|s| {
        let reader = s.spawn(move || BufReader::new(stdout).lines().map_while(std::io::Result::ok).collect::<Vec<String>>());
        let mut buf = vec![0u8; 1 << 16];
        loop {
            fill(&mut buf);
            // The battery closes its input when it has read enough.
            if stdin.write_all(&buf).is_err() {
                break;
            }
        }
        drop(stdin);
        reader.join().unwrap_or_default()
    });
    child.wait()?;
    Ok(lines)
}

/// dieharder's tests of the quick battery (`-d`): Marsaglia's Diehard
/// tests but the slowest (birthday spacings, overlapping permutations,
/// the binary ranks, bitstream, OPSO, OQSO, DNA, count the ones, parking
/// lot, minimum distance, spheres, squeeze, runs, craps), STS
/// monobit/runs/serial, and RGB bit distribution and permutations, and
/// the byte distribution, DCT and fill-tree tests.
pub const DIEHARDER_QUICK: [u32; 25] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 100, 101, 102, 200, 202, 205, 206, 207, 208, 209];

/// dieharder on the stream: the quick tests, or every test (`-a`) with
/// its resolution of ambiguity (`-Y 1`: a weak result is re-run with more
/// samples until it passes or fails).
pub fn dieharder(full: bool, fill: impl FnMut(&mut [u8]) + Send + Clone) -> External {
    let started = std::time::Instant::now();
    let Some(program) = on_path("dieharder") else {
        return skipped("dieharder", "dieharder is not installed: tools/battery.sh installs Debian's package");
    };
    let runs: Vec<Vec<String>> = if full {
        vec![vec!["-a".into(), "-Y".into(), "1".into(), "-g".into(), "200".into()]]
    } else {
        DIEHARDER_QUICK.iter().map(|d| vec!["-d".into(), d.to_string(), "-g".into(), "200".into()]).collect()
    };
    let mut lines = Vec::new();
    let mut commands = Vec::new();
    for args in runs {
        commands.push(format!("egm-lab rng-dump | dieharder {}", args.join(" ")));
        match feed(&program, &args, fill.clone()) {
            Ok(l) => lines.extend(l),
            Err(e) => lines.push(format!("error|0|0|0|0|FAILED ({e:#})")),
        }
    }
    let mut e = read_dieharder(&lines);
    e.command = commands.join("; ");
    e.seconds = started.elapsed().as_secs_f64();
    e
}

/// dieharder's verdicts from its report: a test's line ends with PASSED,
/// WEAK or FAILED; any FAILED fails the battery.
pub fn read_dieharder(lines: &[String]) -> External {
    let mut e = External { battery: "dieharder".into(), command: String::new(), pass: None, passed: 0, weak: 0, failed: 0, findings: Vec::new(), seconds: 0.0 };
    for line in lines.iter().filter(|l| l.contains('|')) {
        let verdict = line.rsplit('|').next().unwrap_or("").trim();
        if verdict.starts_with("PASSED") {
            e.passed += 1;
        } else if verdict.starts_with("WEAK") {
            e.weak += 1;
            e.findings.push(line.trim().to_owned());
        } else if verdict.starts_with("FAILED") {
            e.failed += 1;
            e.findings.push(line.trim().to_owned());
        }
    }
    e.pass = Some(e.failed == 0 && e.passed > 0);
    e
}

/// PractRand's `RNG_test stdin32` on the stream up to `bytes` (a power of
/// two), from `program` or `RNG_test` on the PATH.
pub fn practrand(program: Option<&Path>, bytes: u64, fill: impl FnMut(&mut [u8]) + Send) -> External {
    let started = std::time::Instant::now();
    let Some(program) = program.map(Path::to_path_buf).or_else(|| on_path("RNG_test")) else {
        return skipped(
            "PractRand",
            "PractRand's RNG_test is not installed: its source is not a Debian package and this machine reaches only the package registries; build it from the public-domain source (tools/battery.sh says how) and pass --practrand PATH",
        );
    };
    let args = vec!["stdin32".to_owned(), "-tlmax".to_owned(), format!("{}MB", (bytes >> 20).max(1)), "-multithreaded".to_owned()];
    let lines = feed(&program, &args, fill).unwrap_or_else(|e| vec![format!("FAIL: {e:#}")]);
    let mut e = read_practrand(&lines);
    e.command = format!("egm-lab rng-dump | {} {}", program.display(), args.join(" "));
    e.seconds = started.elapsed().as_secs_f64();
    e
}

/// PractRand's verdicts: each length's report says "no anomalies" or lists
/// its anomalies, each evaluated as "unusual", "suspicious", or "FAIL"
/// (with "!" marks); any FAIL fails the battery.
pub fn read_practrand(lines: &[String]) -> External {
    let mut e = External { battery: "PractRand".into(), command: String::new(), pass: None, passed: 0, weak: 0, failed: 0, findings: Vec::new(), seconds: 0.0 };
    for line in lines {
        if line.contains("no anomalies") {
            e.passed += 1;
        } else if line.contains("FAIL") {
            e.failed += 1;
            e.findings.push(line.trim().to_owned());
        } else if line.contains("suspicious") || line.contains("unusual") {
            e.weak += 1;
            e.findings.push(line.trim().to_owned());
        }
    }
    e.pass = Some(e.failed == 0 && e.passed > 0);
    e
}

fn skipped(battery: &str, why: &str) -> External {
    External { battery: battery.into(), command: why.into(), pass: None, passed: 0, weak: 0, failed: 0, findings: Vec::new(), seconds: 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_owned).collect()
    }

    /// dieharder 3.31.1's report lines, as docs/rng.md quotes them.
    #[test]
    fn dieharder_fails_on_a_failed_line_and_counts_weak_ones() {
        let report = lines(
            "   diehard_birthdays|   0|       100|     100|0.62826540|  PASSED  \n       diehard_craps|   0|    200000|     100|0.99768896|   WEAK   \n      diehard_operm5|   0|   1000000|     100|0.00000012|  FAILED  ",
        );
        let e = read_dieharder(&report);
        assert_eq!((e.passed, e.weak, e.failed, e.pass), (1, 1, 1, Some(false)));
        let clean = read_dieharder(&report[..2]);
        assert_eq!((clean.passed, clean.weak, clean.failed, clean.pass), (1, 1, 0, Some(true)));
        // Nothing read is no verdict of passing.
        assert_eq!(read_dieharder(&[]).pass, Some(false));
    }

    /// PractRand 0.95's report lines.
    #[test]
    fn practrand_fails_on_a_fail_evaluation() {
        let clean = lines("length= 256 megabytes (2^28 bytes), time= 3.1 seconds\n  no anomalies in 193 test result(s)");
        assert_eq!(read_practrand(&clean).pass, Some(true));
        let bad = lines(
            "length= 128 megabytes (2^27 bytes), time= 2.0 seconds\n  Test Name                         Raw       Processed     Evaluation\n  BCFN(2+0,13-2,T)                  R= +1125  p =  1.3e-580   FAIL !!!!!!!!  \n  DC6-9x1Bytes-1                    R=  +5.2  p =  2.1e-3   unusual          \n  ...and 180 test result(s) without anomalies",
        );
        let e = read_practrand(&bad);
        assert_eq!((e.failed, e.weak, e.pass), (1, 1, Some(false)));
    }
}
