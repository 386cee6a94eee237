//! `egm-lab`: the certification lab's tools (certification.md A-8, D, E-39).
//!
//! * `rng-dump --bytes N` — raw generator output, before scaling (for
//!   dieharder, NIST STS, TestU01); without `--bytes`, an endless stream.
//! * `rng-dump --uniform N --count K` — scaled outcomes through the
//!   production `uniform(n)`, one per line.
//! * `meters DB`, `recall DB`, `events DB` — read critical memory (after
//!   verifying it), as text or `--json`.
//! * `verify DB` — integrity check: exit 0 clean, exit 2 naming the first bad
//!   record.
//! * `ram-clear DB` — the authenticated RAM clear (D-32).
//! * `verify-program --config CABINET.ron --seed HEX [--offset N]` — the
//!   external verification (H-52): HMAC-SHA256 of every component.
//! * `outcomes --config CABINET.ron --game ID --rounds N --out DIR` — the
//!   outcomes as the games draw them, with verdicts (issue 51).
//! * `battery --quick|--full --config CABINET.ron --out DIR` — the RNG
//!   evidence with verdicts: NIST SP 800-22 on raw words, dieharder and
//!   PractRand, every game's outcome tests, A-10, negative controls.
//!
//! Readers open the file read-only: they never change critical memory.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

// Lab builds only: it plays on a lab-mode machine with a lab seed.
#[cfg(feature = "lab")]
mod battery;
mod launcher;
#[cfg(feature = "lab")]
mod outcomes;
mod release;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use meters::inspect::Inspection;
use meters::meters::{displayed, displayed_signed};
use meters::{GameRng, M25, Machine, MachineConfig, StreamRng};

#[derive(Parser)]
#[command(name = "egm-lab", version, about = "Certification lab tools for the EGM core")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The cabinet's TPM, for critical memory keyed by it (a TSS TCTI:
    /// `device:/dev/tpmrm0`, `swtpm:host=127.0.0.1,port=2321`); without it
    /// the development file stand-in beside the database is used.
    #[arg(long, global = true)]
    tpm: Option<String>,
    /// The approved manifest whose signed release the TPM's machine key is
    /// asked under (issue 68: a TPM provisioned for signed releases), for
    /// the commands that read critical memory with `--tpm`.
    #[arg(long, global = true)]
    release_manifest: Option<PathBuf>,
}

/// The key store the inspection commands read critical memory with.
static KEY_STORE: std::sync::OnceLock<meters::KeyStoreConfig> = std::sync::OnceLock::new();

/// The signed release they ask its key under (`--release-manifest`).
static RELEASE: std::sync::OnceLock<Option<meters::keystore::SignedRelease>> = std::sync::OnceLock::new();

#[derive(Subcommand)]
enum Command {
    /// Dump generator output: raw bytes, or scaled outcomes with --uniform.
    RngDump {
        /// Raw bytes to write (endless when omitted).
        #[arg(long, conflicts_with = "uniform")]
        bytes: Option<u64>,
        /// Scale through the production uniform(N) instead of raw output.
        #[arg(long)]
        uniform: Option<u64>,
        /// How many scaled outcomes (with --uniform).
        #[arg(long, default_value_t = 1000, requires = "uniform")]
        count: u64,
        /// A reproducible lab seed; fresh OS entropy when omitted.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The meters of M-25: machine, per game, per denomination.
    Meters {
        db: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The last rounds with every step (M-15, M-34).
    Recall {
        db: PathBuf,
        #[arg(long, default_value_t = 100)]
        last: u64,
        #[arg(long)]
        json: bool,
    },
    /// The event log, newest first (E-39).
    Events {
        db: PathBuf,
        #[arg(long, default_value_t = 1000)]
        last: u64,
        #[arg(long)]
        json: bool,
    },
    /// Verify critical memory as a boot does: the MAC chain, the head, the
    /// replay, the NVRAM mirror, the anchor against the key store's
    /// counter, the self-audit.
    Verify {
        db: PathBuf,
        /// Machine configuration (RON) naming the key store's anchor
        /// counter and the NVRAM mirror; without it, the key store of
        /// `--tpm` (or the stand-in) and no mirror.
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Clear critical memory after a RAM error (authenticated, recorded).
    RamClear {
        db: PathBuf,
        #[arg(long)]
        operator: String,
        #[arg(long)]
        pin: String,
        #[arg(long)]
        reason: String,
        /// Machine configuration (RON) holding the operator credential.
        #[arg(long)]
        config: Option<PathBuf>,
        /// The machine key is lost (the TPM cleared or replaced, the
        /// stand-in's key file gone): the PIN must match both the file's
        /// credential record and the configuration's; nothing unverified is
        /// carried, and the old file is archived beside the new one.
        #[arg(long)]
        key_lost: bool,
    },
    /// Issue 68: critical memory whose machine key is lost and whose
    /// operator's PIN nothing can check any more (the TPM that held it was
    /// cleared or replaced: the key-lost clear is refused), archived as
    /// the lab's evidence (`<db>.key-lost-<time>`); the cabinet is then
    /// provisioned again. Run beside the opened cabinet (its logic door
    /// open).
    ArchiveLost {
        db: PathBuf,
        /// The machine's (or cabinet's) configuration: its key store.
        #[arg(long)]
        config: PathBuf,
    },
    /// Provision a new cabinet once (issue 21): its first boot, binding the
    /// configuration's machine ID into the genesis record and the first
    /// anchor of its key store. A production cabinet boots only after it.
    /// Reads the operator's PIN from standard input: on a TPM, provisioning
    /// takes ownership of it with secrets derived from the PIN (issue 34).
    Provision {
        db: PathBuf,
        /// Machine configuration (RON): machine ID, key store, credential.
        #[arg(long)]
        config: PathBuf,
    },
    /// Make an operator credential for a lab configuration: reads the PIN
    /// (10 to 12 digits) from standard input, prints the `operator: (…)`
    /// entry with its argon2id hash (issue 21: no plaintext or fast hash).
    /// Production holds no hash: its configuration names the operator with
    /// `pin_argon2: "held-by-tpm"`, and provisioning sets the PIN in the
    /// TPM (issue 47, hole 7).
    Credential {
        #[arg(long)]
        operator: String,
    },
    /// Check that the TPM named with `--tpm` is a manufacturer's chip
    /// (issue 68, attack 3): its endorsement key's certificate chains to a
    /// TPM manufacturer's root this program carries, and the endorsement
    /// key it holds is the certificate's. A floor cabinet seals its
    /// secrets only to such a TPM. Prints the issuer and the root, or why
    /// not (exit status 1).
    Endorsement {
        /// Check against this CA root (DER) instead of the manufacturers'
        /// (a lab's own CA; repeatable).
        #[arg(long)]
        root: Vec<PathBuf>,
        /// Print the manufacturers' roots this program carries, and stop.
        #[arg(long)]
        list: bool,
    },
    /// Approve a program file (a certified build of the cabinet) into the
    /// manifest: its SHA-256 by file name. A production cabinet refuses to
    /// play when its executable is not approved.
    ApproveProgram {
        file: PathBuf,
        #[arg(long, default_value = "assets/paytables/approved.ron")]
        manifest: PathBuf,
    },
    /// Issue 68: make a release-signing key (P-256, PKCS#8, never over an
    /// existing file). The lab keeps it; its public half is bound into each
    /// cabinet's machine key at provisioning.
    ReleaseKey {
        /// Where to write the key.
        #[arg(long)]
        out: PathBuf,
    },
    /// Issue 68: sign a manifest's release (its programs and approved
    /// paytables) with the release-signing key: a cabinet provisioned for
    /// that key takes its machine key on any release the key signed, and
    /// moves to it only with its logic door open.
    SignRelease {
        /// The release-signing key (`egm-lab release-key`).
        #[arg(long)]
        key: PathBuf,
        #[arg(long, default_value = "assets/paytables/approved.ron")]
        manifest: PathBuf,
        /// Sign a manifest an earlier signature names another signer of.
        #[arg(long)]
        new_signer: bool,
    },
    /// External verification while the cabinet runs (certification.md
    /// H-52): HMAC-SHA256 keyed by the lab's seed over each component from
    /// `--offset` — the cabinet program (its art compiled in), the
    /// configuration, the approved manifest, each enabled paytable — read
    /// as they are now; nothing stops. The audit menu answers the same.
    VerifyProgram {
        /// The cabinet's configuration (RON): the games, the paytable
        /// folder, the manifest.
        #[arg(long)]
        config: PathBuf,
        /// The lab's seed, 1 to 64 bytes in hexadecimal.
        #[arg(long)]
        seed: String,
        /// Where each file's hashed bytes start.
        #[arg(long, default_value_t = 0)]
        offset: u64,
        /// The cabinet program; by default `cabinet` beside this tool.
        #[arg(long)]
        program: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Outcome collection through the production calls (issue 51, lab
    /// builds only): ROUNDS
    /// rounds of GAME drawn by the core and the game's own draw on a
    /// scratch lab machine, every scaled draw recorded; writes
    /// OUT/outcomes.txt and OUT/manifest.json with a chi-square verdict per
    /// range at 99% and a negative control that must fail. Exit 0 when
    /// every verdict passes and the control fails, 3 otherwise.
    #[cfg(feature = "lab")]
    Outcomes {
        /// The cabinet's configuration (RON): its approved paytables.
        #[arg(long)]
        config: PathBuf,
        #[arg(long)]
        game: String,
        #[arg(long, default_value_t = 10_000)]
        rounds: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
    /// The RNG battery with verdicts (issue 51, A-9, A-10): NIST SP 800-22
    /// (every sub-test, two-level) on the generator's raw words, dieharder
    /// and PractRand on a stream (skipped, and said, where not installed),
    /// every enabled game's outcome tests through its own draw (per range,
    /// per position, reel stops and symbols, runs, serial pairs, lags
    /// 1-10, gap, poker on cards, and the bet-conditioned test of A-10),
    /// and negative controls that must fail. Writes OUT/battery.json and
    /// OUT/battery.txt; exit 0 when every verdict passes and every control
    /// fails, 3 otherwise. --quick runs in under 30 minutes on two cores,
    /// --full overnight.
    #[cfg(feature = "lab")]
    Battery {
        /// The cabinet's configuration (RON): its approved, enabled games.
        #[arg(long)]
        config: PathBuf,
        #[arg(long, conflicts_with = "full", required_unless_present = "full")]
        quick: bool,
        #[arg(long)]
        full: bool,
        /// Only these games (repeat the option); every enabled game by default.
        #[arg(long)]
        game: Vec<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// NIST SP 800-22's sequences, in place of the level's.
        #[arg(long)]
        sequences: Option<usize>,
        /// NIST SP 800-22's bits per sequence, in place of the level's.
        #[arg(long)]
        bits: Option<usize>,
        /// Rounds per game, in place of the level's (half as many at the second bet).
        #[arg(long)]
        rounds: Option<u64>,
        /// Leave dieharder and PractRand out.
        #[arg(long)]
        no_external: bool,
        /// PractRand's RNG_test (default: on the PATH).
        #[arg(long)]
        practrand: Option<PathBuf>,
    },
    /// The cabinet's launcher (issue 47, hole 1): checks that PROGRAM is an
    /// approved program of the manifest, measures the approved release
    /// (every approved program's digest) into the TPM's PCR 15 once per
    /// boot, then runs that very file (the open file it hashed) in a clean
    /// environment and caps PCR 15 when it ends, for whatever reason
    /// (issue 68). The machine key answers only to that measurement on the
    /// measured platform, and the cabinet caps it once it holds its key. A
    /// floor's certified image runs it first; its exit status is PROGRAM's.
    Launch {
        /// The cabinet's (or machine's) configuration: its key store.
        #[arg(long)]
        config: PathBuf,
        #[arg(long, default_value = "assets/paytables/approved.ron")]
        manifest: PathBuf,
        /// The approved program and its arguments.
        #[arg(last = true, required = true)]
        program: Vec<std::ffi::OsString>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Reading needs only the key, which the TPM derives; the NV index is the
    // anchor's and is not read here.
    if let Some(path) = &cli.release_manifest {
        match paytables::artifact::read_manifest(path) {
            Ok(m) => {
                let _ = RELEASE.set(m.signed_release());
            }
            Err(e) => {
                eprintln!("egm-lab: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let _ = KEY_STORE.set(match cli.tpm {
        Some(tcti) => meters::KeyStoreConfig::Tpm { tcti, nv_index: 0x0150_0020 },
        None => meters::KeyStoreConfig::FileStandIn,
    });
    let result = match cli.command {
        Command::RngDump { bytes, uniform, count, seed } => rng_dump(bytes, uniform, count, seed),
        Command::Meters { db, json } => meters_cmd(&db, json),
        Command::Recall { db, last, json } => recall_cmd(&db, last, json),
        Command::Events { db, last, json } => events_cmd(&db, last, json),
        Command::Verify { db, config } => return verify_cmd(&db, config.as_deref()),
        Command::RamClear { db, operator, pin, reason, config, key_lost } => ram_clear_cmd(&db, &operator, &pin, &reason, config, key_lost),
        Command::ArchiveLost { db, config } => archive_lost_cmd(&db, &config),
        Command::ApproveProgram { file, manifest } => approve_program(&file, &manifest),
        Command::ReleaseKey { out } => release::new_key(&out),
        Command::SignRelease { key, manifest, new_signer } => release::sign(&key, &manifest, new_signer),
        Command::Credential { operator } => credential_cmd(&operator),
        Command::Endorsement { root, list } => endorsement_cmd(&root, list),
        Command::Provision { db, config } => provision_cmd(&db, &config),
        Command::Launch { config, manifest, program } => return launcher::launch(&config, &manifest, &program),
        Command::VerifyProgram { config, seed, offset, program, json } => return verify_program(&config, &seed, offset, program, json),
        #[cfg(feature = "lab")]
        Command::Outcomes { config, game, rounds, seed, out } => return outcomes_cmd(&config, &game, rounds, seed, &out),
        #[cfg(feature = "lab")]
        Command::Battery { config, quick: _, full, game, seed, out, sequences, bits, rounds, no_external, practrand } => {
            let mut level = if full { battery::Level::full() } else { battery::Level::quick() };
            level.sequences = sequences.unwrap_or(level.sequences);
            level.bits = bits.unwrap_or(level.bits);
            if let Some(r) = rounds {
                level.rounds = r;
                level.other_rounds = r.div_ceil(2);
            }
            let opts = battery::Options { config, games: game, seed, level, no_external, practrand };
            return battery_cmd(&opts, &out);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed pipe (`| head`, dieharder done) is a normal end.
            if e.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe) {
                return ExitCode::SUCCESS;
            }
            eprintln!("egm-lab: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn rng(seed: Option<u64>) -> Result<StreamRng> {
    Ok(match seed {
        Some(s) => StreamRng::from_seed(s),
        None => StreamRng::from_entropy()?,
    })
}

fn rng_dump(bytes: Option<u64>, uniform: Option<u64>, count: u64, seed: Option<u64>) -> Result<()> {
    let mut rng = rng(seed)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    if let Some(n) = uniform {
        if n == 0 {
            bail!("--uniform needs N > 0");
        }
        for _ in 0..count {
            writeln!(out, "{}", rng.uniform(n))?;
        }
        return Ok(out.flush()?);
    }
    let mut buf = vec![0u8; 1 << 16];
    let mut left = bytes;
    loop {
        let n = match left {
            Some(0) => break,
            Some(l) => l.min(buf.len() as u64) as usize,
            None => buf.len(),
        };
        rng.fill_raw(&mut buf[..n]);
        out.write_all(&buf[..n])?;
        if let Some(l) = left.as_mut() {
            *l -= n as u64;
        }
    }
    Ok(out.flush()?)
}

fn key_store() -> meters::KeyStoreConfig {
    KEY_STORE.get().cloned().unwrap_or_default()
}

fn inspect(db: &Path) -> Result<Inspection> {
    Inspection::open_with(db, &key_store(), trust(&key_store()), RELEASE.get().cloned().flatten().as_ref()).with_context(|| format!("reading {}", db.display()))
}

/// Which endorsement keys reading sends the TPM's answers under (issue 68,
/// attack 3): the platform's own TPM (the cabinet's device) only when a
/// manufacturer certifies it; any other TPM named is an evaluation one.
fn trust(key_store: &meters::KeyStoreConfig) -> meters::keystore::Trust {
    match key_store {
        meters::KeyStoreConfig::Tpm { tcti, .. } if tcti == meters::keystore::CABINET_TCTI => meters::keystore::Trust::Manufacturers,
        _ => meters::keystore::Trust::Evaluation,
    }
}

fn meters_cmd(db: &Path, json: bool) -> Result<()> {
    let i = inspect(db)?;
    let s = i.state();
    let digits = s.config.as_ref().map_or(10, |c| c.meter_digits);
    if json {
        let m25: serde_json::Map<String, serde_json::Value> = M25::ALL
            .iter()
            .map(|m| {
                let v = match m.machine_value(&s.totals) {
                    Some(v) => serde_json::json!({ "value": v, "displayed": displayed(v, digits) }),
                    None => {
                        let r = s.totals.games.receita_bruta();
                        serde_json::json!({ "value": r.to_string(), "displayed": displayed_signed(r, digits).to_string() })
                    }
                };
                (m.key().to_owned(), v)
            })
            .collect();
        let doc = serde_json::json!({
            "machine_id": s.machine_id,
            "meter_digits": digits,
            "credit": s.credit,
            "m25": m25,
            "machine": s.totals,
            "per_game": s.per_game,
            "per_denomination": s.per_denom,
            "wager_categories": categories_json(s),
            "self_audit": i.self_audit().map_err(|e| e.to_string()).err(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    println!("Máquina {}  —  contadores (M-25), em cêntimos, {digits} dígitos", s.machine_id);
    println!("crédito: {}", s.credit);
    for m in M25::ALL {
        match m.machine_value(&s.totals) {
            Some(v) => println!("  {:<40} {:>width$}", m.legal_name(), displayed(v, digits), width = usize::from(digits)),
            None => println!("  {:<40} {:>width$}", m.legal_name(), displayed_signed(s.totals.games.receita_bruta(), digits), width = usize::from(digits)),
        }
    }
    println!("  notas por valor: {:?}", s.totals.notas_por_valor);
    println!("  aberturas de porta: {:?}", s.totals.aberturas_porta);
    println!("  arranques: {}", s.totals.arranques);
    for (name, g) in &s.per_game {
        println!("jogo {name}:");
        for (label, v) in g.labelled() {
            println!("  {label:<40} {:>width$}", displayed(v, digits), width = usize::from(digits));
        }
    }
    for (denom, g) in &s.per_denom {
        println!("denominação {denom} cêntimos:");
        for (label, v) in g.labelled() {
            println!("  {label:<40} {:>width$}", displayed(v, digits), width = usize::from(digits));
        }
    }
    // B-16: per wager category, the coin-in and the theoretical payback.
    for (game, categories) in &s.categories {
        for (name, c) in categories {
            let weighted = c.weighted_basis_points().map_or_else(|| "—".to_owned(), |b| format!("{}.{:02}%", b / 100, b % 100));
            println!(
                "categoria de aposta {game} / {name}: coin-in {} cêntimos, retorno teórico {} cêntimos, média ponderada {weighted} (RTP {})",
                c.coin_in,
                c.theoretical_cents(),
                ppm_percent(c.rtp_ppm)
            );
        }
        // The game's own mean over its categories (issue 77: a table's
        // bets each at their own RTP).
        if let Some(b) = s.game_weighted_basis_points(game) {
            println!("jogo {game}: média ponderada de todas as apostas {}.{:02}%", b / 100, b % 100);
        }
    }
    match i.self_audit() {
        Ok(()) => println!("auto-auditoria: OK"),
        Err(e) => println!("auto-auditoria: FALHOU — {e}"),
    }
    Ok(())
}

/// Millionths as a percentage with four decimals: 962345 → "96.2345%".
fn ppm_percent(ppm: u32) -> String {
    format!("{}.{:04}%", ppm / 10_000, ppm % 10_000)
}

/// B-16's meters as a lab reads them (SAS meter 7F: the weighted average
/// theoretical payback, in hundredths of a percent).
fn categories_json(s: &meters::state::CriticalState) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = s
        .categories
        .iter()
        .flat_map(|(game, cs)| {
            cs.iter().map(move |(name, c)| {
                serde_json::json!({
                    "game": game,
                    "category": name,
                    "rtp_ppm": c.rtp_ppm,
                    "coin_in": c.coin_in,
                    "theoretical_micro": c.theoretical_micro.to_string(),
                    "theoretical_cents": c.theoretical_cents().to_string(),
                    "weighted_basis_points": c.weighted_basis_points().map(|b| b.to_string()),
                })
            })
        })
        .collect();
    serde_json::Value::Array(rows)
}

fn recall_cmd(db: &Path, last: u64, json: bool) -> Result<()> {
    let rounds = inspect(db)?.recall(last)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rounds)?);
        return Ok(());
    }
    for r in rounds {
        println!("jogada {} — {} @ {} cênt. — {} — crédito antes {} — aposta {}", r.round, r.game, r.denom, r.started_utc, r.credit_before, r.stake);
        for s in &r.steps {
            println!(
                "    {} {} {}{}",
                s.at_utc,
                s.step.name,
                s.step.data,
                if s.extra_stake > 0 { format!(" (+{} aposta)", s.extra_stake) } else { String::new() }
            );
        }
        if !r.resumed_at.is_empty() {
            println!("    retomada após falha de energia no passo {:?}", r.resumed_at);
        }
        println!("    resultado: {:?}", r.outcome);
    }
    Ok(())
}

fn events_cmd(db: &Path, last: u64, json: bool) -> Result<()> {
    let i = inspect(db)?;
    let events = i.events(last)?;
    let clears = i.ram_clears()?;
    if json {
        let events: Vec<_> = events.iter().map(|r| serde_json::json!({ "seq": r.seq, "at_utc": r.at_utc, "event": r.entry })).collect();
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "events": events, "ram_clears": clears }))?);
        return Ok(());
    }
    for r in events {
        println!("{:>8} {} {}", r.seq, r.at_utc, serde_json::to_string(&r.entry)?);
    }
    for c in clears {
        println!("RAM clear {} {} by {}: {}", c.n, c.at_utc, c.operator, c.reason);
    }
    Ok(())
}

fn verify_cmd(db: &Path, config: Option<&Path>) -> ExitCode {
    let config = match config.map(machine_config).transpose() {
        Ok(Some(c)) => c,
        Ok(None) => MachineConfig { key_store: key_store(), nvram_mirror: None, ..MachineConfig::default() },
        Err(e) => {
            println!("FAILED: {e:#}");
            return ExitCode::from(2);
        }
    };
    match Inspection::verify_as_boot(db, &config) {
        Err(e) => {
            println!("FAILED: {}: {e}", db.display());
            ExitCode::from(2)
        }
        Ok(i) => match i.self_audit() {
            Err(e) => {
                println!("FAILED: {}: {e}", db.display());
                ExitCode::from(3)
            }
            Ok(()) => {
                let clears = i.ram_clears().map(|c| c.len()).unwrap_or(0);
                let mirror = if config.nvram_mirror.is_some() { "NVRAM mirror, " } else { "" };
                println!(
                    "OK: {}: {} records verified (MAC chain and head, {mirror}anchor), {} RAM clears, self-audit passed",
                    db.display(),
                    i.records(),
                    clears
                );
                ExitCode::SUCCESS
            }
        },
    }
}

fn ram_clear_cmd(db: &Path, operator: &str, pin: &str, reason: &str, config: Option<PathBuf>, key_lost: bool) -> Result<()> {
    let (config, panel) = match config {
        Some(p) => cabinet_config(&p)?,
        None => (MachineConfig::default(), None),
    };
    let open = logic_door_open(&config, panel.as_ref())?;
    if key_lost {
        let clear = Machine::ram_clear_key_lost(db, &config, operator, pin, reason, open)?;
        println!(
            "RAM clear {} recorded (key lost); the lost key's critical memory is archived in {}; what it read, unverified, is in the clear record",
            clear.n,
            clear.archive.display()
        );
        return Ok(());
    }
    let n = Machine::ram_clear(db, &config, operator, pin, reason, open)?;
    println!("RAM clear {n} recorded; the meters before it are kept in the clear record");
    Ok(())
}

/// Whether the logic door is open for a clear (D-32; issue 68: the command
/// line once assumed it open). Where the configuration wires the logic
/// door's sensors (`panel`), they are read now and must all read open; an
/// unreadable one refuses. Where it wires none, only a lab or evaluation
/// cabinet takes the operator's word: a floor cabinet is refused.
fn logic_door_open(config: &MachineConfig, panel: Option<&game_host::panel::PanelSetup>) -> Result<bool> {
    let read = match panel {
        Some(setup) => game_host::panel::door_reads_open(setup, meters::Door::Logic).map_err(anyhow::Error::msg)?,
        None => None,
    };
    match read {
        Some(open) => Ok(open),
        None if config.mode == meters::Mode::Production && !config.evaluation => bail!(
            "the configuration wires no logic door sensor (panel: doors): a floor cabinet's clear needs its logic door read open by its switch, not the operator's word"
        ),
        None => {
            eprintln!("egm-lab: no logic door sensor is wired: a lab or evaluation cabinet's clear takes the operator's word that it is open");
            Ok(true)
        }
    }
}

fn archive_lost_cmd(db: &Path, config: &Path) -> Result<()> {
    let (config, panel) = cabinet_config(config)?;
    let open = logic_door_open(&config, panel.as_ref())?;
    let archive = Machine::archive_lost(db, &config, open)?;
    println!("critical memory whose key is lost is archived in {}; provision the cabinet again (egm-lab provision)", archive.display());
    Ok(())
}

/// The machine configuration in `path`: a machine configuration (RON), or
/// a whole cabinet configuration (`assets/config/cabinet.ron`), whose
/// `machine` it takes.
fn machine_config(path: &Path) -> Result<MachineConfig> {
    cabinet_config(path).map(|(machine, _)| machine)
}

/// [`machine_config`], with the panel a cabinet configuration wires.
fn cabinet_config(path: &Path) -> Result<(MachineConfig, Option<game_host::panel::PanelSetup>)> {
    /// A cabinet configuration: only its machine, the manifest it plays
    /// from and its panel are read here.
    #[derive(serde::Deserialize)]
    struct CabinetConfig {
        machine: MachineConfig,
        #[serde(default)]
        manifest: PathBuf,
        #[serde(default)]
        panel: Option<game_host::panel::PanelSetup>,
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    match ron::from_str::<MachineConfig>(&text) {
        Ok(c) => Ok((c, None)),
        Err(machine) => match ron::from_str::<CabinetConfig>(&text) {
            Ok(CabinetConfig { mut machine, manifest, panel }) => {
                // The release the cabinet plays, as the host reads it (issue
                // 68): its key is asked under the release's signature, and
                // the core journals the release it runs.
                if !manifest.as_os_str().is_empty() {
                    let m = paytables::artifact::read_manifest(&manifest)?;
                    machine.release_read = Some(m.release_digest());
                    machine.release_signature = m.signature;
                }
                Ok((machine, panel))
            }
            Err(cabinet) => bail!("{}: neither a machine configuration ({machine}) nor a cabinet configuration ({cabinet})", path.display()),
        },
    }
}

fn provision_cmd(db: &Path, config: &Path) -> Result<()> {
    let config = machine_config(config)?;
    let id = config.machine_id.clone();
    let mut pin = String::new();
    io::stdin().read_line(&mut pin).context("reading the operator's PIN from standard input")?;
    let anchor = Machine::provision(db, config, pin.trim())?;
    println!("machine {id} provisioned in {}: first anchor {anchor}", db.display());
    Ok(())
}

fn credential_cmd(operator: &str) -> Result<()> {
    let mut pin = String::new();
    io::stdin().read_line(&mut pin).context("reading the PIN from standard input")?;
    let c = meters::OperatorCredential::new(operator, pin.trim())?;
    println!("operator: (operator_id: {:?}, pin_argon2: {:?}),", c.operator_id, c.pin_argon2);
    Ok(())
}

fn endorsement_cmd(roots: &[PathBuf], list: bool) -> Result<()> {
    if list {
        for name in meters::keystore::manufacturer_roots() {
            println!("{name}");
        }
        return Ok(());
    }
    let key_store = key_store();
    if key_store.is_stand_in() {
        anyhow::bail!("name the TPM with --tpm (a TSS TCTI, `device:/dev/tpmrm0` on a cabinet)");
    }
    let trust = if roots.is_empty() {
        meters::keystore::Trust::Manufacturers
    } else {
        meters::keystore::Trust::Roots(
            roots.iter().map(|p| std::fs::read(p).with_context(|| format!("reading the root {}", p.display()))).collect::<Result<_>>()?,
        )
    };
    match meters::keystore::endorsement(&key_store, trust)? {
        Some(e) => println!("endorsed: the EK certificate issued by {} chains to {}, and the TPM holds its key", e.issuer, e.root),
        None => println!("no endorsement checked"),
    }
    Ok(())
}

fn approve_program(file: &std::path::Path, manifest: &std::path::Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let digest = paytables::artifact::sha256_hex(&bytes);
    let name = file.file_name().map(|f| f.to_string_lossy().into_owned()).ok_or_else(|| anyhow::anyhow!("{}: not a file", file.display()))?;
    let mut m = paytables::artifact::read_manifest(manifest)?;
    let before = m.release_digest();
    m.programs.retain(|e| e.file != name);
    m.programs.push(paytables::artifact::ManifestEntry { id: name.clone(), file: name, sha256: digest.clone() });
    // A new release: the earlier signature is not its signature (issue 68).
    if m.release_digest() != before && m.signature.take().is_some() {
        eprintln!("{}: a new release; its earlier signature is removed (`egm-lab sign-release`)", manifest.display());
    }
    let text = ron::ser::to_string_pretty(&m, ron::ser::PrettyConfig::default())?;
    std::fs::write(manifest, text + "\n").map_err(|e| anyhow::anyhow!("{}: {e}", manifest.display()))?;
    println!("{digest}  {} approved in {}", file.display(), manifest.display());
    Ok(())
}

/// `verify-program`: each component's HMAC-SHA256 under the lab's seed
/// (H-52); exit 0 when every component answered, 2 when one could not be
/// read (it is named), 1 for a bad request.
fn verify_program(config: &Path, seed: &str, offset: u64, program: Option<PathBuf>, json: bool) -> ExitCode {
    let answer = || -> Result<Vec<game_host::verification::Seeded>> {
        let seed = game_host::verification::parse_seed(seed).map_err(anyhow::Error::msg)?;
        let c = game_host::config::CabinetConfig::load(config)?;
        let program = match program {
            Some(p) => p,
            None => std::env::current_exe()?.with_file_name("cabinet"),
        };
        let parts = game_host::verification::components(&program, config, &c.manifest, &c.games, &c.paytable_dir);
        Ok(game_host::verification::seeded(&seed, offset, &parts))
    };
    let answers = match answer() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("egm-lab verify-program: {e:#}");
            return ExitCode::from(1);
        }
    };
    let mut out = io::stdout().lock();
    if json {
        let rows: Vec<serde_json::Value> = answers
            .iter()
            .map(|a| match &a.hmac {
                Ok(h) => serde_json::json!({ "component": a.component.name, "file": a.component.file, "hmac_sha256": h }),
                Err(e) => serde_json::json!({ "component": a.component.name, "file": a.component.file, "error": e }),
            })
            .collect();
        let _ = writeln!(out, "{}", serde_json::json!({ "offset": offset, "components": rows }));
    } else {
        for a in &answers {
            let _ = writeln!(out, "{:<28} {}  {}", a.component.name, a.hmac.as_deref().unwrap_or_else(|e| e), a.component.file.display());
        }
    }
    if answers.iter().any(|a| a.hmac.is_err()) { ExitCode::from(2) } else { ExitCode::SUCCESS }
}

/// `outcomes`: collect, judge, write; the verdicts on standard output.
#[cfg(feature = "lab")]
fn outcomes_cmd(config: &Path, game: &str, rounds: u64, seed: u64, out: &Path) -> ExitCode {
    let run = || -> Result<bool> {
        let started = std::time::Instant::now();
        let collected = outcomes::collect(config, game, rounds, seed)?;
        let drawn = collected.rounds;
        let mut verdicts = outcomes::verdicts(&drawn, &battery::outcome_tests::SameAsShown::of(&collected.shown));
        // What the player saw, from the journal (issue 77, defect 1).
        verdicts.extend(outcomes::shown_verdicts(&collected.shown));
        let controls = [outcomes::negative_control(seed, 200_000), outcomes::biased_shuffle_control(seed, 200_000)];
        outcomes::write(out, game, seed, &drawn, &verdicts, &controls)?;
        for v in &verdicts {
            println!(
                "{}: {} (chi² {:.2}, {} df, p = {:.4}, {} samples)",
                v.test,
                if v.pass { "PASS" } else { "FAIL" },
                v.statistic,
                v.degrees_of_freedom,
                v.p_value,
                v.samples
            );
        }
        let a = outcomes::assess(&verdicts, &battery::rule::SetRule::for_sets(1));
        println!(
            "second level: {} of {} passed (at least {:.4} needed), p-values uniform: {}, none under {:.2e}: {} — {}",
            a.passed,
            a.tests,
            a.proportion_at_least,
            a.p_values_uniformity.map_or_else(|| "too few tests".to_owned(), |u| format!("p = {u:.4}")),
            a.smallest_p_floor,
            !a.outright_failure,
            if a.pass { "PASS" } else { "FAIL" }
        );
        for c in &controls {
            println!("{}: {} (p = {:.2e}) — it must fail", c.test, if c.pass { "PASS: THE TEST IS BROKEN" } else { "FAIL" }, c.p_value);
        }
        println!("{game}: {} rounds in {:.1} s; {}", drawn.len(), started.elapsed().as_secs_f64(), out.display());
        Ok(a.pass && controls.iter().all(|c| !c.pass))
    };
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(3),
        Err(e) => {
            eprintln!("egm-lab outcomes: {e:#}");
            ExitCode::from(1)
        }
    }
}

#[cfg(feature = "lab")]
fn battery_cmd(opts: &battery::Options, out: &Path) -> ExitCode {
    let run = || -> Result<battery::BatteryVerdict> {
        let started = std::time::Instant::now();
        let report = battery::run(opts, |step| eprintln!("[{:>6.0} s] {step}", started.elapsed().as_secs_f64()))?;
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        let text = battery::text(&report);
        std::fs::write(out.join("battery.txt"), &text)?;
        std::fs::write(out.join("battery.json"), serde_json::to_string_pretty(&report)?)?;
        print!("{text}");
        Ok(report.verdict)
    };
    // Issue 77, defect 3: a run that skipped a battery has its own exit
    // code; only a complete pass is 0.
    match run() {
        Ok(battery::BatteryVerdict::Pass) => ExitCode::SUCCESS,
        Ok(battery::BatteryVerdict::Fail) => ExitCode::from(3),
        Ok(battery::BatteryVerdict::Incomplete) => ExitCode::from(4),
        Err(e) => {
            eprintln!("egm-lab battery: {e:#}");
            ExitCode::from(1)
        }
    }
}
