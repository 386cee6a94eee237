//! Issue 18: the whole `paytable check` command, as a designer runs it
//! (process start, parse and validate, the exact analysis, the report), on
//! 9/6 Jacks or Better (goal: at most 0.3 s wall on these 2 cores) and on a
//! 5×3, 20-line reel game with 252-stop strips (exact from symbol counts),
//! and on the small three-reel sample (issue 36: well under 0.1 s).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};

fn sample(f: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(f)
}

fn run(file: &std::path::Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_paytable")).arg("check").arg(file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn check_command(c: &mut Criterion) {
    // Ocean Treasure with every strip repeated nine times: 252 stops.
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("ocean-252.ron");
    let text: String = std::fs::read_to_string(sample("ocean-treasure.ron"))
        .unwrap()
        .lines()
        .map(|l| match l.trim().strip_prefix('[').and_then(|x| x.strip_suffix("],")) {
            Some(inner) if inner.starts_with('"') => format!("        [{}],\n", [inner; 9].join(", ")),
            _ => format!("{l}\n"),
        })
        .collect();
    std::fs::write(&long, text).unwrap();
    let mut g = c.benchmark_group("paytable check, whole command");
    g.sample_size(20);
    g.bench_function("jacks-or-better-9-6", |b| b.iter(|| run(&sample("jacks-or-better-9-6.ron"))));
    // Issue 36: a small reel game, well under 0.1 s (the progress watcher
    // once held every check for 0.1 s).
    g.bench_function("classic-sevens", |b| b.iter(|| run(&sample("classic-sevens.ron"))));
    g.bench_function("ocean-treasure with 252-stop strips", |b| b.iter(|| run(&long)));
    g.finish();
}

criterion_group!(benches, check_command);
criterion_main!(benches);
