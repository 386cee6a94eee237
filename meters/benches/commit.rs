//! Durable round commits per second (issue 2): WAL + synchronous=FULL, on a
//! real file in the target directory (a real disk, not tmpfs).
//!
//! * `round (begin + settle)`: the two durable transactions of a one-step
//!   game round (the outcome is committed at begin, the win at settle),
//!   written to both copies of critical memory (D-28), and to one.
//! * `note in`: one durable transaction.
//! * `cash-out`: a note in and its cash-out, the cash-out anchored (issue
//!   21: two durable transactions and one NV counter increment), on the
//!   file stand-in and on a real software TPM (swtpm, started here): the
//!   cost of an anchor. Rounds never touch the TPM; a tick anchors once per
//!   `anchor_tick_wagered` (here every 400 rounds).
#![allow(clippy::unwrap_used)]

#[path = "../../tests/support/swtpm.rs"]
mod swtpm;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use meters::{KeyStoreConfig, Machine, MachineConfig, Mode, SeedChoice};
use serde_json::json;

fn bench(c: &mut Criterion) {
    let dir = tempfile::Builder::new().prefix("egm-bench").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let config = MachineConfig { mode: Mode::Lab, credit_limit: u64::MAX / 4, ..MachineConfig::default() };
    let mut m = Machine::open(&dir.path().join("bench.sqlite"), config, SeedChoice::Lab(1)).unwrap();
    let mut g = c.benchmark_group("critical memory");
    g.throughput(Throughput::Elements(1));
    g.bench_function("round (play_round + settle), fsync, two copies", |b| {
        b.iter(|| {
            if m.credit() < 100 {
                m.insert_note(10_000).unwrap();
            }
            let r = m.play_round("bench", 10, 50, "outcome", |_| Ok::<_, String>(json!({"stops": [3, 17, 9, 22, 5]}))).map(|(r, _)| r).unwrap();
            m.settle_round(r, 20, vec![]).unwrap();
        })
    });
    g.bench_function("note in, fsync", |b| {
        b.iter(|| {
            m.insert_note(500).unwrap();
        })
    });
    drop(m);
    let one = MachineConfig { mode: Mode::Lab, second_copy: meters::config::SecondCopy::Off, ..MachineConfig::default() };
    let mut m = Machine::open(&dir.path().join("bench-one-copy.sqlite"), one, SeedChoice::Lab(1)).unwrap();
    g.bench_function("round (play_round + settle), fsync, one copy", |b| {
        b.iter(|| {
            if m.credit() < 100 {
                m.insert_note(10_000).unwrap();
            }
            let r = m.play_round("bench", 10, 50, "outcome", |_| Ok::<_, String>(json!({"stops": [3, 17, 9, 22, 5]}))).map(|(r, _)| r).unwrap();
            m.settle_round(r, 20, vec![]).unwrap();
        })
    });
    drop(m);
    let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
    let mut m = Machine::open(&dir.path().join("bench-cash-out.sqlite"), config, SeedChoice::Lab(1)).unwrap();
    g.bench_function("note in + anchored cash-out, file stand-in", |b| {
        b.iter(|| {
            m.insert_note(500).unwrap();
            m.cash_out().unwrap();
        })
    });
    drop(m);
    let operator = meters::OperatorCredential::new("bench", "739104").unwrap();
    let tpm = swtpm::SoftwareTpm::start(dir.path());
    let config = MachineConfig {
        mode: Mode::Production,
        key_store: KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: 0x0150_0020 },
        operator,
        ..MachineConfig::default()
    };
    let db = dir.path().join("bench-tpm.sqlite");
    Machine::provision(&db, config.clone()).unwrap();
    let mut m = Machine::open(&db, config, SeedChoice::Entropy).unwrap();
    g.bench_function("note in + anchored cash-out, swtpm", |b| {
        b.iter(|| {
            m.insert_note(500).unwrap();
            m.cash_out().unwrap();
        })
    });
    g.bench_function("round (play_round + settle), fsync, swtpm key", |b| {
        b.iter(|| {
            if m.credit() < 100 {
                m.insert_note(10_000).unwrap();
            }
            let r = m.play_round("bench", 10, 50, "outcome", |_| Ok::<_, String>(json!({"stops": [3, 17, 9, 22, 5]}))).map(|(r, _)| r).unwrap();
            m.settle_round(r, 20, vec![]).unwrap();
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
