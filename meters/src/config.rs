//! The machine configuration the core enforces: denominations, notes,
//! limits, mode. A parameter, never a constant (decisions.md). Every change
//! is journaled as a configuration event (M-7).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::credential::CredentialError;
pub use crate::credential::OperatorCredential;

use crate::keystore::KeyStoreConfig;
use crate::money::{Cents, Currency};

/// Production refuses every lab facility (reproducible seeds, the file
/// stand-in for the TPM, the default credential); lab mode is for
/// certification labs and tests (A-5, §40). Lab mode exists only in the lab
/// build (`--features lab`): the retail build has production alone, so a
/// retail cabinet refuses a configuration that says `mode: Lab` (issue 21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Production,
    #[cfg(feature = "lab")]
    Lab,
}

impl Mode {
    /// Whether this is lab mode (always false in the retail build).
    pub fn is_lab(self) -> bool {
        self != Mode::Production
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineConfig {
    /// The machine identification number shown on screen and tickets (M-8).
    pub machine_id: String,
    pub mode: Mode,
    pub currency: Currency,
    /// Denominations the player may choose, in cents (M-9).
    pub denominations: Vec<Cents>,
    /// Note values the acceptor takes, in cents.
    pub accepted_notes: Vec<Cents>,
    /// Above this credit the note acceptor refuses notes (BKNTLIM, F-43).
    pub credit_limit: Cents,
    /// The largest ticket accepted (F-43).
    pub ticket_in_limit: Cents,
    /// Cash-outs above this become an attendant hand-pay (F-43, M-12).
    pub ticket_out_limit: Cents,
    /// A single win at or above this locks up for an attendant hand-pay (M-12, F-44).
    pub handpay_limit: Cents,
    /// Machine-paid wins at or above this count as prémios acumulados (M-25 g).
    pub jackpot_threshold: Cents,
    /// Displayed and exported meter digits, 10 to 18 (C-21).
    pub meter_digits: u8,
    /// Who may clear critical memory (its PIN as an argon2id hash). The
    /// machine keeps its own record of it; production refuses the default.
    #[serde(default = "default_operator")]
    pub operator: OperatorCredential,
    /// The most one round may win, in cents, progressive awards included:
    /// a settlement above it is refused (a guard against a rules bug or a
    /// forged win; issue 21).
    #[serde(default = "default_max_win")]
    pub max_win: Cents,
    /// Where the machine key and the rollback anchor live (issue 21).
    /// Production refuses the file stand-in.
    #[serde(default)]
    pub key_store: KeyStoreConfig,
    /// The key store's lifetime budget of anchor writes (NV writes): from
    /// the part's published endurance, less a margin. Ticks stop in the
    /// last tenth of it; money-outs, RAM clears and power-ups never wait.
    #[serde(default = "default_anchor_write_budget")]
    pub anchor_write_budget: u64,
    /// A tick anchors after this much wagered since the last anchor: what
    /// a copy restored inside the window could at most recover (cents).
    #[serde(default = "default_anchor_tick_wagered")]
    pub anchor_tick_wagered: Cents,
    /// A tick anchors after this many minutes of play since the last anchor.
    #[serde(default = "default_anchor_tick_minutes")]
    pub anchor_tick_minutes: u32,
    /// Where the second copy of critical memory lives (D-28).
    #[serde(default)]
    pub second_copy: SecondCopy,
    /// Battery-backed NVRAM that mirrors the journal's head after every
    /// write (issue 21): with it, every restored copy is detected, inside
    /// the anchor's window too. A file stands in for the device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvram_mirror: Option<std::path::PathBuf>,
    /// An evaluation cabinet (issue 47, holes 2 and 8): production on a
    /// software TPM, whose state is a file and whose platform measures
    /// nothing. Production refuses a software TPM without it; with it every
    /// player screen says so, permanently. Turning it on is a protection
    /// change.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub evaluation: bool,
    /// The release the program read (issue 68, attack 4): the digest of
    /// the approved manifest it plays from (its programs and approved
    /// paytables), set by the host once it has read the manifest, never by
    /// a file: not read, not serialised, not journaled. A production boot
    /// on a TPM refuses a launcher's measurement of another release before
    /// it takes the key (`keystore::check_release`).
    #[serde(skip)]
    pub release_read: Option<[u8; 32]>,
    /// The signature of [`MachineConfig::release_read`] the manifest
    /// carries (issue 68), set by the host with it: a TPM is provisioned
    /// for its signer, and its key is asked under the signer's approval of
    /// this release. Required on a floor cabinet.
    #[serde(skip)]
    pub release_signature: Option<crate::keystore::ReleaseSignature>,
    /// The release this machine runs, as journaled (issue 68; hex): set by
    /// the core at every boot from [`MachineConfig::release_read`] (a file's
    /// value is overwritten), so that a move to another release is a
    /// configuration change — only with the logic door open, recorded
    /// under the release that ran before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// C-26: a meter that moves this much at once is a fault, not play.
    #[serde(default)]
    pub excessive_increment: ExcessiveIncrement,
}

/// C-26 (NZ 3.3.19a): the increments that are a fault "Excessive Meter
/// Increment" — one play's coin-in (every stake of the round) or one note's
/// bills-in at or above these. The increment is refused (the round is not
/// played, the note goes back) and play stops until an attendant clears
/// the tilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExcessiveIncrement {
    /// Cents: 1,000.00 by default.
    pub coin_in: Cents,
    /// Cents: 10,000.00 by default.
    pub bills_in: Cents,
}

impl Default for ExcessiveIncrement {
    fn default() -> Self {
        ExcessiveIncrement { coin_in: 100_000, bills_in: 1_000_000 }
    }
}

/// The second copy of critical memory (D-28): every write goes to both,
/// and one valid copy rebuilds the other.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SecondCopy {
    /// Beside the first: `<db>.second` (the embedded default, under `var/`).
    #[default]
    Beside,
    /// On another device.
    At(std::path::PathBuf),
    /// None: one copy only (labs and benchmarks).
    Off,
}

impl SecondCopy {
    /// The second copy's file for critical memory at `db`.
    pub fn path_for(&self, db: &std::path::Path) -> Option<std::path::PathBuf> {
        match self {
            SecondCopy::Beside => {
                let mut s = db.as_os_str().to_owned();
                s.push(".second");
                Some(s.into())
            }
            SecondCopy::At(p) => Some(p.clone()),
            SecondCopy::Off => None,
        }
    }
}

/// A TPM 2.0's NV endurance is published around 500,000 cycles for this
/// class of part: 400,000 keeps a fifth in hand.
fn default_anchor_write_budget() -> u64 {
    400_000
}

/// 50.00 in the currency: the most a restored copy can undo (issue 47,
/// hole 3: the mirror is a file the attacker restores too).
fn default_anchor_tick_wagered() -> Cents {
    MAX_WINDOW
}

fn default_anchor_tick_minutes() -> u32 {
    60
}

/// The development credential: operator "operator", PIN 0000 (refused in
/// production). A fixed hash, so that the default configuration's digest
/// is the same on every start.
pub const DEFAULT_OPERATOR_ARGON2: &str = "$argon2id$v=19$m=19456,t=2,p=1$ZWdtLWRlZmF1bHQtc2FsdA$l1NqMYHwfbxc7V0zizfLTpTvs2TqZRAAABDix94OPMg";

fn default_operator() -> OperatorCredential {
    OperatorCredential { operator_id: "operator".into(), pin_argon2: DEFAULT_OPERATOR_ARGON2.into() }
}

/// 1,000,000.00 in the currency: far above any approved prize, far below
/// where a meter could overflow.
fn default_max_win() -> Cents {
    100_000_000
}

impl Default for MachineConfig {
    fn default() -> Self {
        Self {
            machine_id: "EGM-0001".into(),
            // In the lab build the default is a development configuration;
            // in the retail build it is production, which needs a TPM key
            // store and the operator's own credential before it boots.
            #[cfg(feature = "lab")]
            mode: Mode::Lab,
            #[cfg(not(feature = "lab"))]
            mode: Mode::Production,
            currency: Currency::default(),
            denominations: vec![1, 2, 5, 10, 20, 50, 100, 200],
            accepted_notes: vec![500, 1_000, 2_000, 5_000, 10_000],
            credit_limit: 300_000,
            ticket_in_limit: 300_000,
            ticket_out_limit: 100_000,
            handpay_limit: 120_000,
            jackpot_threshold: 50_000,
            meter_digits: 10,
            operator: default_operator(),
            max_win: default_max_win(),
            key_store: KeyStoreConfig::default(),
            anchor_write_budget: default_anchor_write_budget(),
            anchor_tick_wagered: default_anchor_tick_wagered(),
            anchor_tick_minutes: default_anchor_tick_minutes(),
            second_copy: SecondCopy::default(),
            nvram_mirror: None,
            evaluation: false,
            release_read: None,
            release_signature: None,
            release: None,
            excessive_increment: ExcessiveIncrement::default(),
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("machine_id must not be empty")]
    EmptyMachineId,
    #[error("at least one denomination is required")]
    NoDenominations,
    #[error("denomination {0} cents is invalid (zero or listed twice)")]
    BadDenomination(Cents),
    #[error("note value {0} cents is invalid (zero or listed twice)")]
    BadNote(Cents),
    #[error("meter_digits must be between 10 and 18, not {0}")]
    MeterDigits(u8),
    #[error("jackpot_threshold ({jackpot}) must not exceed handpay_limit ({handpay})")]
    JackpotAboveHandpay { jackpot: Cents, handpay: Cents },
    #[error("{0} must be greater than zero")]
    ZeroLimit(&'static str),
    #[error("currency code {0:?} must be three upper-case letters")]
    CurrencyCode(String),
    #[error("operator credential: {0}")]
    Credential(#[from] CredentialError),
    #[error("production refuses the default operator credential (PIN 0000): set the operator's own PIN (`egm-lab credential`)")]
    DefaultCredential,
    #[error(
        "production: a copy restored inside the anchor's window (the NVRAM mirror restored with it) undoes up to anchor_tick_wagered ({tick} cents), at most {max} cents is allowed: lower the tick"
    )]
    WindowUnbounded { tick: Cents, max: Cents },
}

/// A copy restored inside the anchor's window boots, and can undo up to the
/// wagers since the last anchor: production bounds that to 50.00 per window
/// (issue 34, hole 8), with or without an NVRAM mirror, which an attacker
/// holding every file restores with the copy (issue 47, hole 3). What it
/// costs in NV writes is in docs/develop.md (benchmarks) and ARCHITECTURE.md.
pub const MAX_WINDOW: Cents = 5_000;

impl MachineConfig {
    /// The release the program read with its signature, where the manifest
    /// is signed (issue 68).
    pub fn signed_release(&self) -> Option<crate::keystore::SignedRelease> {
        Some(crate::keystore::SignedRelease { digest: self.release_read?, signature: self.release_signature.clone()? })
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.machine_id.trim().is_empty() {
            return Err(ConfigError::EmptyMachineId);
        }
        if self.denominations.is_empty() {
            return Err(ConfigError::NoDenominations);
        }
        for (i, &d) in self.denominations.iter().enumerate() {
            if d == 0 || self.denominations[..i].contains(&d) {
                return Err(ConfigError::BadDenomination(d));
            }
        }
        for (i, &n) in self.accepted_notes.iter().enumerate() {
            if n == 0 || self.accepted_notes[..i].contains(&n) {
                return Err(ConfigError::BadNote(n));
            }
        }
        if !(10..=18).contains(&self.meter_digits) {
            return Err(ConfigError::MeterDigits(self.meter_digits));
        }
        if self.max_win == 0 {
            return Err(ConfigError::ZeroLimit("max_win"));
        }
        for (name, v) in [
            ("anchor_write_budget", self.anchor_write_budget),
            ("anchor_tick_wagered", self.anchor_tick_wagered),
            ("anchor_tick_minutes", u64::from(self.anchor_tick_minutes)),
        ] {
            if v == 0 {
                return Err(ConfigError::ZeroLimit(name));
            }
        }
        if self.jackpot_threshold > self.handpay_limit {
            return Err(ConfigError::JackpotAboveHandpay { jackpot: self.jackpot_threshold, handpay: self.handpay_limit });
        }
        let excessive = self.excessive_increment;
        for (name, v) in [
            ("excessive_increment.coin_in", excessive.coin_in),
            ("excessive_increment.bills_in", excessive.bills_in),
            ("credit_limit", self.credit_limit),
            ("ticket_in_limit", self.ticket_in_limit),
            ("ticket_out_limit", self.ticket_out_limit),
            ("handpay_limit", self.handpay_limit),
        ] {
            if v == 0 {
                return Err(ConfigError::ZeroLimit(name));
            }
        }
        self.operator.validate()?;
        if self.mode == Mode::Production && self.operator.is_default() {
            return Err(ConfigError::DefaultCredential);
        }
        // Issue 47, hole 7: production keeps the PIN in the TPM alone; no
        // file (this configuration, the journal that records it, the
        // credential record) holds a hash an offline search attacks.
        if self.mode == Mode::Production && !self.operator.is_held_by_tpm() {
            return Err(ConfigError::Credential(CredentialError::HashInFiles));
        }
        // Issue 47, hole 3: with or without a mirror, which an attacker
        // holding every file restores with the copy.
        if self.mode == Mode::Production && self.anchor_tick_wagered > MAX_WINDOW {
            return Err(ConfigError::WindowUnbounded { tick: self.anchor_tick_wagered, max: MAX_WINDOW });
        }
        let code = &self.currency.code;
        if code.len() != 3 || !code.chars().all(|c| c.is_ascii_uppercase()) {
            return Err(ConfigError::CurrencyCode(code.clone()));
        }
        Ok(())
    }

    /// Every setting in which `self` differs from `previous` (the
    /// machine's journaled configuration), by name, the operator's
    /// credential apart (it has its own record and rule). The boot accepts
    /// a change only with the logic door open.
    ///
    /// Issue 34, hole 8 and issue 47, hole 4 refused the settings that
    /// protect critical memory less (the mirror, the second copy, the
    /// tick, the budget, the mode, the key store). Issue 68, attack 4: the
    /// configuration is a file an attacker edits while the cabinet is off,
    /// and every other setting moved money too — the currency EUR→USD, a
    /// 1,000,000 c note accepted, every limit and the largest win raised,
    /// the C-26 increments raised, the denominations. So every setting is
    /// the machine's own once journaled, whichever way it moves.
    pub fn changes_from(&self, previous: &MachineConfig) -> Vec<String> {
        let (Ok(serde_json::Value::Object(now)), Ok(serde_json::Value::Object(was))) = (serde_json::to_value(self), serde_json::to_value(previous)) else {
            return vec!["the configuration (it cannot be compared)".into()];
        };
        let names: std::collections::BTreeSet<&String> = now.keys().chain(was.keys()).collect();
        names.into_iter().filter(|k| k.as_str() != "operator" && now.get(*k) != was.get(*k)).cloned().collect()
    }

    /// SHA-256 of the canonical JSON form: what the event log records.
    pub fn digest(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        hex::encode(Sha256::digest(json))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default with the operator's own credential (production refuses
    /// the default PIN).
    fn configured() -> MachineConfig {
        let operator = if MachineConfig::default().mode == Mode::Production {
            OperatorCredential::held_by_tpm("operator").expect("an operator")
        } else {
            OperatorCredential::new("operator", "7391046285").expect("a valid PIN")
        };
        MachineConfig { operator, nvram_mirror: Some("nvram".into()), ..MachineConfig::default() }
    }

    /// A production configuration: the PIN held by the TPM alone.
    fn production() -> MachineConfig {
        MachineConfig { mode: Mode::Production, operator: OperatorCredential::held_by_tpm("operator").expect("an operator"), ..configured() }
    }

    #[test]
    fn every_change_is_named() {
        let with = configured();
        let changed = |c: MachineConfig| c.changes_from(&with);
        assert!(changed(with.clone()).is_empty());
        assert_eq!(changed(MachineConfig { nvram_mirror: None, ..configured() }), ["nvram_mirror"]);
        assert_eq!(with.changes_from(&MachineConfig { nvram_mirror: None, ..configured() }), ["nvram_mirror"], "a mirror added is a change too");
        assert_eq!(changed(MachineConfig { second_copy: SecondCopy::Off, ..with.clone() }), ["second_copy"]);
        assert_eq!(changed(MachineConfig { evaluation: true, ..with.clone() }), ["evaluation"]);
        assert_eq!(changed(MachineConfig { anchor_write_budget: with.anchor_write_budget + 1, ..with.clone() }), ["anchor_write_budget"]);
        assert_eq!(changed(MachineConfig { mode: Mode::Production, ..with.clone() }), ["mode"]);
        let elsewhere = KeyStoreConfig::Tpm { tcti: "swtpm:host=10.0.0.9,port=2321".into(), nv_index: 0x0150_0020 };
        assert_eq!(changed(MachineConfig { key_store: elsewhere, ..with.clone() }), ["key_store"]);
        // Issue 68, attack 4: the money settings, each by name, together.
        let edited = MachineConfig {
            currency: Currency { code: "USD".into(), minor_digits: 2 },
            accepted_notes: vec![500, 1_000, 1_000_000],
            handpay_limit: with.handpay_limit * 10,
            max_win: with.max_win * 10,
            excessive_increment: ExcessiveIncrement { coin_in: 1, bills_in: 1 },
            anchor_tick_minutes: 1,
            denominations: vec![1, 1_000],
            ..with.clone()
        };
        assert_eq!(changed(edited), ["accepted_notes", "anchor_tick_minutes", "currency", "denominations", "excessive_increment", "handpay_limit", "max_win"]);
        // The operator's credential has its own rule (`CredentialChangeRefused`).
        let other = MachineConfig { operator: OperatorCredential::held_by_tpm("rui").expect("an operator"), ..with.clone() };
        assert!(changed(other).is_empty());
    }

    #[test]
    fn default_is_valid_and_bad_values_are_named() {
        assert_eq!(configured().validate(), Ok(()));
        let c = MachineConfig { denominations: vec![5, 5], ..configured() };
        assert_eq!(c.validate(), Err(ConfigError::BadDenomination(5)));
        let c = MachineConfig { meter_digits: 9, ..configured() };
        assert_eq!(c.validate(), Err(ConfigError::MeterDigits(9)));
        // Issue 34, hole 8: production without NVRAM keeps the window small.
        let c = MachineConfig { nvram_mirror: None, anchor_tick_wagered: 20_000, ..production() };
        assert_eq!(c.validate(), Err(ConfigError::WindowUnbounded { tick: 20_000, max: MAX_WINDOW }));
        let c = MachineConfig { nvram_mirror: None, anchor_tick_wagered: MAX_WINDOW, ..production() };
        assert_eq!(c.validate(), Ok(()));
        // Issue 47, hole 3: with a mirror too.
        let c = MachineConfig { nvram_mirror: Some("nv".into()), anchor_tick_wagered: 20_000, ..production() };
        assert_eq!(c.validate(), Err(ConfigError::WindowUnbounded { tick: 20_000, max: MAX_WINDOW }));
        assert_eq!(MachineConfig::default().anchor_tick_wagered, MAX_WINDOW);
        let mut c = configured();
        c.jackpot_threshold = c.handpay_limit + 1;
        assert!(matches!(c.validate(), Err(ConfigError::JackpotAboveHandpay { .. })));
        // Issue 47, hole 7: production holds no hash of the PIN in a file,
        // however costly.
        let hashed = OperatorCredential::new("operator", "7391046285").expect("a valid PIN");
        let c = MachineConfig { operator: hashed, ..production() };
        assert_eq!(c.validate(), Err(ConfigError::Credential(CredentialError::HashInFiles)));
    }

    /// The lab build's default is a lab configuration, which may keep the
    /// default PIN.
    #[cfg(feature = "lab")]
    #[test]
    fn the_lab_build_defaults_to_lab_mode() {
        assert_eq!(MachineConfig::default().mode, Mode::Lab);
        assert!(Mode::Lab.is_lab() && !Mode::Production.is_lab());
        assert_eq!(MachineConfig::default().validate(), Ok(()));
    }

    /// Issue 21: the retail build has no lab mode. Its default is
    /// production, which refuses the default PIN, and a configuration that
    /// says lab mode does not parse.
    #[cfg(not(feature = "lab"))]
    #[test]
    fn the_retail_build_has_no_lab_mode() {
        assert_eq!(MachineConfig::default().mode, Mode::Production);
        assert_eq!(MachineConfig::default().validate(), Err(ConfigError::DefaultCredential));
        assert_eq!(serde_json::from_str::<Mode>("\"Production\"").ok(), Some(Mode::Production));
        let lab = serde_json::from_str::<Mode>("\"Lab\"").expect_err("the retail build has no lab mode");
        assert!(lab.to_string().contains("unknown variant `Lab`"), "{lab}");
    }
}
