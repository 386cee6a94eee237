//! # meters — the certified core of the EGM
//!
//! Owns what a certification lab must be able to trust: the random number
//! generator ([`rng`]), the mandatory meters of M-25 ([`meters`]), credit and
//! denomination accounting ([`money`]), critical memory in a MAC-chained
//! SQLite journal (`store`, private: only [`Machine`] writes it), the event log and recall ([`journal`]), the
//! self-audit ([`state`]), game-cycle recovery ([`machine`]), and the key
//! store and rollback anchor that bind critical memory to the cabinet's
//! TPM ([`keystore`], [`anchor`]; the TPM is reached through its TSS, on a
//! cabinet a local device).
//!
//! It must never: depend on a renderer, a network or any game's rules, commit
//! an outcome it did not draw itself, use a float for money, decrement a meter other than the credit meter, show or animate
//! anything, repair critical memory silently, or contain `unsafe` code.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod anchor;
pub mod carry;
pub mod config;
pub mod credential;
pub mod inspect;
pub mod journal;
pub mod keystore;
mod mac;
pub mod machine;
pub mod meters;
pub mod money;
pub mod progressive;
pub mod registration;
pub mod rng;
pub mod state;
mod store;
pub mod ticket;
mod wire;

pub use anchor::{AnchorReason, AnchorState};
pub use config::{MachineConfig, Mode, OperatorCredential};
pub use journal::{
    AcceptorFault, Entry, FloorCursor, HandpayKind, PrinterFault, ProgressiveAward, SoftwareOutcome, Step, Tilt, TransferTarget, WHOLE_LEVEL, Wager,
    WagerCategory, WinComponent, WinPayment,
};
pub use keystore::{KeyStoreConfig, KeyStoreError};
pub use machine::{BootError, CashOut, CoreError, KeyLostClear, Machine, MoneyRefusal, PlayBlock, RecallOutcome, RoundRecall, SeedChoice, Settled};
pub use meters::{Door, GameMeters, M25, MachineMeters};
pub use money::{Cents, Currency};
pub use progressive::{LevelConfig, Pool, PoolConfig};
pub use registration::{AftRegistration, RegistrationStatus};
pub use rng::{CoreRng, Draw, GameRng, StreamRng, WeightTable};
pub use state::{CriticalState, FloorAward, PendingAft, SecureValidation};
pub use store::media::MediaError;
pub use store::{IntegrityError, RamClearRecord, Record, StoreError};
