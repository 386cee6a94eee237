//! Durable round commits per second (issue 2): WAL + synchronous=FULL, on a
//! real file in the target directory (a real disk, not tmpfs).
//!
//! * `round (begin + settle)`: the two durable transactions of a one-step
//!   game round (the outcome is committed at begin, the win at settle),
//!   written to both copies of critical memory (D-28), and to one.
//! * `note in`: one durable transaction.
//! * `recall`: the last ten rounds, after 1,000 and after 10,000 rounds.
//! * `cash-out`: a note in and its cash-out, the cash-out anchored (issue
//!   21: two durable transactions and one NV counter increment), on the
//!   file stand-in and on a real software TPM (swtpm, started here): the
//!   cost of an anchor. Rounds never touch the TPM; a tick anchors once per
//!   `anchor_tick_wagered` (here every 100 rounds of 50 cents).
//! * `boot` and `RAM clear` on the TPM with the NVRAM mirror (issue 34):
//!   what the checks of a boot and of a clear cost; `power-up boot` (issue
//!   47): a boot after a TPM power cycle, with the launcher's step, the
//!   key's two HMACs under the measured-state policy and the cap (a boot
//!   again in the same process reuses what it took).
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
    // Recall (M-15) of the last ten rounds reads those rounds, however
    // long the journal: the same at 1,000 rounds and at 10,000 (it read
    // the whole journal until 3 December 2026).
    let one = MachineConfig { mode: Mode::Lab, second_copy: meters::config::SecondCopy::Off, ..MachineConfig::default() };
    let mut m = Machine::open(&dir.path().join("bench-recall.sqlite"), one, SeedChoice::Lab(1)).unwrap();
    for (played, rounds) in [(0, 1_000), (1_000, 10_000)] {
        for _ in played..rounds {
            if m.credit() < 100 {
                m.insert_note(10_000).unwrap();
            }
            let r = m.play_round("bench", 10, 50, "outcome", |_| Ok::<_, String>(json!({"stops": [3, 17, 9, 22, 5]}))).map(|(r, _)| r).unwrap();
            m.settle_round(r, 20, vec![]).unwrap();
        }
        g.bench_function(format!("recall of the last 10 rounds, journal of {rounds} rounds"), |b| b.iter(|| assert_eq!(m.recall(10).unwrap().len(), 10)));
    }
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
    let hashed = meters::OperatorCredential::new("bench", "7391046285").unwrap();
    // What one try of an offline search of a copied hash costs (issue 34,
    // hole 5: the PIN's length is chosen from it).
    g.bench_function("credential_check (argon2id, one try)", |b| b.iter(|| assert!(!hashed.accepts("bench", "00000000"))));
    let operator = meters::OperatorCredential::held_by_tpm("bench").unwrap();
    let mut tpm = swtpm::SoftwareTpm::start(dir.path());
    let config = MachineConfig {
        mode: Mode::Production,
        key_store: KeyStoreConfig::Tpm { tcti: tpm.tcti(), nv_index: 0x0150_0020 },
        operator,
        nvram_mirror: Some(dir.path().join("bench-tpm.nvram")),
        evaluation: true,
        ..MachineConfig::default()
    };
    let db = dir.path().join("bench-tpm.sqlite");
    // The launcher's step of this boot (issue 47, hole 1).
    meters::keystore::measure_release(&config.key_store, &[7; 32]).unwrap();
    Machine::provision(&db, config.clone(), "7391046285").unwrap();
    let mut m = Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap();
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
    // Issue 34: boot and the RAM clear with their checks (the journal in
    // full, the NVRAM mirror, the anchor and the counter's binding) on
    // 1,000 rounds of critical memory, on the TPM.
    for _ in 0..1_000 {
        if m.credit() < 100 {
            m.insert_note(10_000).unwrap();
        }
        let r = m.play_round("bench", 10, 50, "outcome", |_| Ok::<_, String>(json!({"stops": [3, 17, 9, 22, 5]}))).map(|(r, _)| r).unwrap();
        m.settle_round(r, 20, vec![]).unwrap();
    }
    drop(m);
    g.sample_size(10);
    g.bench_function("boot (verify, replay, anchor), 1,000 rounds, swtpm, mirror", |b| {
        b.iter(|| drop(Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap()));
    });
    g.bench_function("power-up boot (TPM reset, launcher, key taken and capped), 1,000 rounds, swtpm, mirror", |b| {
        b.iter_batched(
            || {
                tpm.power_cut();
                tpm.power_on();
                meters::keystore::measure_release(&config.key_store, &[7; 32]).unwrap();
            },
            |()| drop(Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap()),
            criterion::BatchSize::PerIteration,
        );
    });
    g.bench_function("boot, logic door, RAM clear (verified), swtpm, mirror", |b| {
        b.iter(|| {
            let mut m = Machine::open(&db, config.clone(), SeedChoice::Entropy).unwrap();
            m.open_door(meters::Door::Logic).unwrap();
            drop(m);
            Machine::ram_clear(&db, &config, "bench", "7391046285", "bench", true).unwrap();
        });
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(5));
    targets = bench
}
criterion_main!(benches);
