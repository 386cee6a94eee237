//! The cabinet configuration (`--config FILE`, RON): the machine's
//! configuration enforced by the core, plus what the cabinet itself needs.

use std::path::{Path, PathBuf};

use meters::MachineConfig;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CabinetConfig {
    pub machine: MachineConfig,
    /// "pt" (default, M-10, M-30) or "en".
    pub language: String,
    /// The RTP floor the cabinet enforces at load, in percent (≥ 80).
    pub rtp_floor_percent: String,
    /// Game ids to offer, in menu order.
    pub games: Vec<String>,
    pub paytable_dir: PathBuf,
    pub manifest: PathBuf,
    pub ticket_dir: PathBuf,
    /// The most autoplay games a player may set (M-32); 0 disables autoplay.
    pub autoplay_max: u32,
    /// Standalone progressive pools on this cabinet (M-18), set up at the
    /// first start, with what wins each level (M-30: shown on screen).
    #[serde(default)]
    pub progressives: Vec<ProgressiveSetup>,
    /// M-35: the player's session may be ended after this many seconds
    /// without play (credit is then cashed out on a ticket); M-38 warns
    /// before. 0 disables it.
    #[serde(default)]
    pub inactivity_timeout_s: u32,
    /// M-39: a demonstration cabinet: play credits only, on a throwaway
    /// critical memory, never the real one; no notes, tickets or cash-out.
    #[serde(default)]
    pub demo: bool,
    /// Linked progressive pools (M-19) on a progressive controller shared
    /// with other cabinets; the pool's levels are set up on the controller
    /// (`egm-progressive setup`).
    #[serde(default)]
    pub linked_progressives: Vec<LinkedSetup>,
    /// The reel screen celebrates a round that wins at least this many
    /// times its bet (issue 29; presentation only). 0: never.
    #[serde(default = "default_big_win_multiple")]
    pub big_win_multiple: u32,
    /// The attract loop (issue 45) returns after this many seconds with no
    /// credit and no touch; 0: only at start, until the first touch.
    #[serde(default = "default_attract_after_s")]
    pub attract_after_s: u32,
    /// The floor's slot management system (SAS 6.02, issue 48): the serial
    /// port and this cabinet's address; off when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sas: Option<crate::floor::SasSetup>,
    /// The note acceptor (issue 70): its port, protocol and the notes it
    /// takes; none when absent (notes then come from the lab build's keys
    /// or the operator panel).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceptor: Option<crate::acceptor::AcceptorSetup>,
    /// The ticket printer (issue 70): its port and protocol; none when
    /// absent (tickets are then written as text files to `ticket_dir`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printer: Option<crate::printer::PrinterSetup>,
    /// The doors' sensors, the attendant key, the deck's lamps and the
    /// tower light (issue 70); none when absent (doors then come from the
    /// lab build's keys or the operator panel).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panel: Option<crate::panel::PanelSetup>,
}

fn default_attract_after_s() -> u32 {
    60
}

fn default_big_win_multiple() -> u32 {
    20
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkedSetup {
    /// The controller's service address (issue 46), e.g.
    /// "egm://EGM-0001@10.0.0.5:25433?sslrootcert=ca.crt&sslcert=EGM-0001.crt&sslkey=EGM-0001.key".
    pub controller: String,
    pub pool: String,
    /// The games whose wagers contribute, and the smallest wager that does (cents).
    pub games: Vec<String>,
    pub min_wager: meters::Cents,
    /// (level, trigger): a committed outcome that hits the trigger wins the level.
    #[serde(default)]
    pub triggers: Vec<(usize, game_core::progressive::Trigger)>,
    /// What the pool's games do while its controller is unreachable
    /// (issue 46): stop (the default, as floors run) or play on without
    /// linked eligibility.
    #[serde(default)]
    pub when_unreachable: WhenUnreachable,
}

/// What a linked pool's games do while its controller does not answer
/// (issue 46; M-19).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhenUnreachable {
    /// No progressive-eligible bet: the game stops with "progressive link
    /// down" until the controller answers again.
    #[default]
    Stop,
    /// The game plays on, its rounds without linked eligibility: they
    /// neither feed the pool nor can win it, and the screen says so.
    PlayUnlinked,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressiveSetup {
    pub pool: meters::PoolConfig,
    /// (level, trigger): a committed outcome that hits the trigger wins the
    /// level. Mystery levels need none.
    #[serde(default)]
    pub triggers: Vec<(usize, game_core::progressive::Trigger)>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{0}: {1}")]
    Read(String, std::io::Error),
    #[error("{0}: {1}")]
    Parse(String, String),
    #[error("{0}: language must be \"pt\" or \"en\", not {1:?}")]
    Language(String, String),
    #[error("{0}: autoplay_max must be at most 100 (decisions.md), not {1}")]
    Autoplay(String, u32),
    #[error("{0}: no games are enabled")]
    NoGames(String),
    #[error("{0}: {1}")]
    Sas(String, String),
    #[error("{0}: acceptor: {1}")]
    Acceptor(String, String),
    #[error("{0}: printer: {1}")]
    Printer(String, String),
    #[error("{0}: {1}")]
    Panel(String, String),
}

impl CabinetConfig {
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read(file.clone(), e))?;
        let c: CabinetConfig = ron::from_str(&text).map_err(|e| ConfigError::Parse(file.clone(), e.to_string()))?;
        if c.language != "pt" && c.language != "en" {
            return Err(ConfigError::Language(file, c.language));
        }
        if c.autoplay_max > 100 {
            return Err(ConfigError::Autoplay(file, c.autoplay_max));
        }
        if c.games.is_empty() {
            return Err(ConfigError::NoGames(file));
        }
        if let Some(problem) = c.sas.as_ref().and_then(crate::floor::SasSetup::problem) {
            return Err(ConfigError::Sas(file, problem));
        }
        if let Some(problem) = c.acceptor.as_ref().and_then(|a| a.problem(&c.machine.accepted_notes, &c.machine)) {
            return Err(ConfigError::Acceptor(file, problem));
        }
        if let Some(problem) = c.printer.as_ref().and_then(crate::printer::PrinterSetup::problem) {
            return Err(ConfigError::Printer(file, problem));
        }
        if let Some(problem) = c.panel.as_ref().and_then(crate::panel::PanelSetup::problem) {
            return Err(ConfigError::Panel(file, problem));
        }
        Ok(c)
    }
}
