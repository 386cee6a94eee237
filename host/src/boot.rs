//! Boot: configuration, critical memory, the self-tests (program and
//! paytable verification, H-51, E-35), the approved paytables held to the
//! RTP floor again at load, and the demonstration mode (M-39).

use std::path::PathBuf;

use meters::Machine;
use paytables::floor::Floor;

use crate::catalogue::HostedGame;
use crate::config::CabinetConfig;
use crate::session::{self, Session};
use crate::verification;

/// What the lab build says at every boot. The build-artifact check
/// (`cabinet/tests/retail_build.rs`) finds it in the lab cabinet and proves
/// the retail cabinet does not contain it (issue 21).
#[cfg(feature = "lab")]
pub const LAB_BUILD: &str = "LAB BUILD: lab mode and reproducible RNG seeds are compiled in; never install this program on a floor";

/// What the cabinet was started with.
#[derive(Clone, Debug, Default)]
pub struct BootOptions {
    /// The cabinet configuration (RON).
    pub config: PathBuf,
    /// Critical memory (SQLite file).
    pub db: PathBuf,
    /// A reproducible RNG seed: refused unless the configuration is in lab
    /// mode, and by the retail build always (issue 21).
    pub lab_seed: Option<u64>,
    /// A demonstration (M-39): play credits on a throwaway critical memory.
    pub demo: bool,
}

/// Boot the host. An `Err` is the reason play cannot start, for the tilt
/// screen: a configuration, critical memory or verification failure.
pub fn boot(options: &BootOptions) -> Result<Session, String> {
    let mut config = CabinetConfig::load(&options.config).map_err(|e| e.to_string())?;
    config.demo |= options.demo;
    // What the paytables are verified as: the cabinet's own mode, a
    // demonstration's included (its machine runs in lab mode below).
    let production = config.machine.mode == meters::Mode::Production;
    let demo_memory = if config.demo { Some(demo_memory(&mut config)?) } else { None };
    let db = demo_memory.as_ref().map_or_else(|| options.db.clone(), |d| d.path().join("egm.sqlite"));
    let floor = Floor::from_percent(&config.rtp_floor_percent).map_err(|e| format!("{}: {e}", options.config.display()))?;
    if let Some(dir) = db.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let manifest = verification::read_manifest(&config.manifest).map_err(|e| e.to_string())?;
    // Issue 68, attack 4: what this host plays from is what the launcher
    // measured (the manifest's programs and every approved paytable, whose
    // files are checked against it below), or the core takes no key.
    let release = manifest.release_digest();
    config.machine.release_read = Some(release);
    // Issue 68: its signature, which the machine key of a cabinet
    // provisioned for its signer asks the TPM to verify.
    config.machine.release_signature = manifest.signature.clone();
    let report = verification::verify(&config.games, &config.paytable_dir, &manifest, production);
    let (passed, detail) = report.detail(&format!("against {}", config.manifest.display()));
    let mut games = Vec::new();
    for id in &config.games {
        let path = config.paytable_dir.join(format!("{id}.json"));
        match paytables::artifact::load_approved_with_rtp(&path, &manifest, &floor) {
            Ok(approved) => games.push(HostedGame::from_approved(approved)?),
            Err(e) => tracing::error!("paytable {id} refused: {e}"),
        }
    }
    // C-26: each game refuses, when the chip is placed, a bet whose round
    // could reach the excessive increment limit at the denomination in play.
    for g in &mut games {
        g.0.set_coin_in_limit(config.machine.excessive_increment.coin_in);
    }
    // A configuration the games refuse never reaches critical memory.
    check_side_pools(&config, &games)?;
    check_linked_pools(&config, &games)?;
    check_excessive_increment(&config, &games).map_err(|e| format!("{}: {e}", options.config.display()))?;
    #[cfg(feature = "lab")]
    tracing::warn!("{LAB_BUILD}");
    let mut machine = session::open_machine(&db, &config, options.lab_seed)?;
    // Issue 21: the boot report names what holds the key and the anchor.
    let wear = machine.anchor_wear();
    if wear.stand_in {
        tracing::warn!("key store: {} — critical memory is not protected against file access", wear.key_store);
    } else if machine.config().evaluation {
        tracing::warn!(
            "key store: {}; anchor {} — an evaluation cabinet on a software TPM: its state is a file, and a copy of it restored with the cabinet's files undoes play (issue 47)",
            wear.key_store,
            wear.counter
        );
    } else {
        tracing::info!("key store: {}; anchor {} ({} of {} writes)", wear.key_store, wear.counter, wear.writes, wear.budget);
    }
    if config.demo {
        demo_credit(&mut machine)?;
    }
    machine.record_verification(passed, &detail).map_err(|e| e.to_string())?;
    // H-53: the download/verification log, against the last accepted
    // digests: what is new, replaced, refused or gone since.
    let release = hex::encode(release);
    let by = format!("boot verification against {} (release {})", config.manifest.display(), &release[..16]);
    machine.record_software(&report.software_found(), &by).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err(format!("no approved paytable could be loaded: {detail}"));
    }
    let mut session = Session::new(machine, config, games, report);
    session.db = db;
    session.demo_memory = demo_memory;
    session.config_file = options.config.clone();
    session.lab_seed = options.lab_seed;
    // Issue 70: the doors as their sensors read before anything else (a
    // door opened while the cabinet was off is journaled open now).
    session.start_panel().map_err(|e| format!("{}: {e}", options.config.display()))?;
    // Issue 21: a cash-out committed before a crash, its ticket never
    // printed, is printed now (same validation number); a printer's link
    // starts with it in doubt and reads its fate from the printer first
    // (issue 70).
    if !session.config.demo {
        session.start_printer().map_err(|e| format!("{}: {e}", options.config.display()))?;
    }
    session.print_unprinted_tickets();
    // Issue 71: an AFT transfer a power cut left pending is made or
    // failed before the floor can ask about it (or play can start).
    session.make_pending_aft(None);
    if !session.config.demo {
        // H-55: the floor hears nothing from a cabinet whose self-tests
        // failed (`Session::new` holds the linked pools back likewise).
        if session.verification.passed() {
            session.start_floor().map_err(|e| format!("{}: {e}", options.config.display()))?;
        }
        session.start_acceptor().map_err(|e| format!("{}: {e}", options.config.display()))?;
        session.tend_acceptor();
    }
    Ok(session)
}

/// C-26: a bet the paytable allows, at the largest denomination, must stay
/// under the excessive-increment limit, or the game's own largest bet
/// would stop play as a fault.
fn check_excessive_increment(config: &CabinetConfig, games: &[HostedGame]) -> Result<(), String> {
    let limit = config.machine.excessive_increment.coin_in;
    let max_denom = config.machine.denominations.iter().copied().max().unwrap_or(1);
    for g in games {
        let Some(largest) = g.largest_stake() else { continue };
        if largest.saturating_mul(max_denom) >= limit {
            return Err(format!(
                "game {}'s largest bet, {largest} credits at {max_denom} cents, reaches excessive_increment.coin_in ({limit} cents): it would stop play as a fault (C-26); raise the limit or leave that denomination out",
                g.id()
            ));
        }
    }
    Ok(())
}

/// Issue 69: every contribution to a linked pool is a round committed to
/// its controller before it is drawn. A round is committed to one
/// controller, with its nonce, so a game feeds one linked pool at most;
/// and only a reel round can be committed (the controller draws it again),
/// so a linked pool names reel games only.
fn check_linked_pools(config: &CabinetConfig, games: &[HostedGame]) -> Result<(), String> {
    for g in games {
        let feeds: Vec<&str> = config.linked_progressives.iter().filter(|l| l.games.iter().any(|id| id == g.id())).map(|l| l.pool.as_str()).collect();
        if feeds.len() > 1 {
            return Err(format!(
                "game {} feeds the linked pools {}: a round is committed to one controller, so a game feeds one linked pool at most (issue 69)",
                g.id(),
                feeds.join(" and ")
            ));
        }
        if let Some(pool) = feeds.first()
            && g.rules::<crate::kinds::reels::Reels>().is_none()
        {
            return Err(format!(
                "linked pool {pool} names game {}, which is not a reel game: its rounds cannot be committed to the controller, which takes committed rounds only (issue 69)",
                g.id()
            ));
        }
    }
    Ok(())
}

/// PSD 41: a side-bet pool starts at no less than 10,000 times the side
/// bet, at the largest denomination the side bet can be placed in.
fn check_side_pools(config: &CabinetConfig, games: &[HostedGame]) -> Result<(), String> {
    let max_denom = config.machine.denominations.iter().copied().max().unwrap_or(1);
    for p in config.progressives.iter().filter(|p| p.pool.side_bet) {
        for g in games.iter().filter(|g| p.pool.games.iter().any(|id| id == g.id())) {
            let Some(seed) = g.side_pool_seed() else {
                return Err(format!("side-bet pool {}: {} has no side bet", p.pool.id, g.id()));
            };
            let least = seed.saturating_mul(max_denom);
            for (i, l) in p.pool.levels.iter().enumerate() {
                if l.start_value < least || l.reset_value < least {
                    return Err(format!(
                        "side-bet pool {} level {i}: start {} and reset {} cents must be at least {least} cents, 10,000 × the side bet of {} at {max_denom} cents a credit (PSD 41)",
                        p.pool.id,
                        l.start_value,
                        l.reset_value,
                        g.id()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// M-39: a demonstration's critical memory, wholly apart from the real
/// one. A folder of its own, made afresh (unique: two demonstrations, or a
/// file an earlier one left under the same name, never meet) and removed
/// when the session ends; both copies and the NVRAM mirror in it; and the
/// file stand-in for a key store in it, never the cabinet's TPM, whose key
/// a boot takes once and whose anchor counts the real journal's writes.
/// Its machine runs in lab mode, the only mode the stand-in is accepted
/// in: its money is play credits, refused in and out by name. No linked
/// pool (its money is real); the operator's credential stays the real
/// one, which the stand-in cannot check, so no PIN opens anything in a
/// demonstration.
#[cfg(feature = "lab")]
fn demo_memory(config: &mut CabinetConfig) -> Result<tempfile::TempDir, String> {
    let dir = tempfile::Builder::new().prefix("egm-demo-").tempdir().map_err(|e| format!("demonstration: its critical memory's folder: {e}"))?;
    config.linked_progressives.clear();
    let machine = &mut config.machine;
    machine.mode = meters::Mode::Lab;
    machine.evaluation = false;
    machine.key_store = meters::KeyStoreConfig::FileStandIn;
    machine.second_copy = meters::config::SecondCopy::Beside;
    machine.nvram_mirror = machine.nvram_mirror.as_ref().map(|_| dir.path().join("egm.nvram"));
    Ok(dir)
}

/// M-39 offers a demonstration on the operator's website, not on the
/// floor: the retail cabinet holds real money only, and has no lab mode
/// to run a throwaway memory in (its core refuses the file stand-in, a
/// memory never provisioned and a second copy on the first disk), so it
/// refuses one by name rather than open a memory beside the real one.
#[cfg(not(feature = "lab"))]
fn demo_memory(_config: &mut CabinetConfig) -> Result<tempfile::TempDir, String> {
    Err(DEMO_IN_RETAIL.to_owned())
}

/// Why the retail build refuses a demonstration.
pub const DEMO_IN_RETAIL: &str =
    "demonstração / demonstration (M-39): a retail cabinet plays real money only; a demonstration (the operator's website module) runs on the lab build";

/// The play credits of a demonstration (M-39), on its own critical memory,
/// entered as the largest notes the configuration accepts.
fn demo_credit(machine: &mut Machine) -> Result<(), String> {
    let mut notes = machine.config().accepted_notes.clone();
    notes.sort_unstable();
    while let Some(&note) = notes.iter().rev().find(|&&n| machine.credit() + n <= session::DEMO_CREDIT) {
        machine.insert_note(note).map_err(|e| format!("demo credit: {e}"))?;
    }
    Ok(())
}
