//! Issue 74: every variant of [`Entry`] survives the journal's own codec,
//! with every container filled and every number at its extremes. The list
//! of variants is serde's own (the error it gives for an unknown kind), so
//! a variant added without a sample here fails this test.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::anchor::{AnchorReason, PowerUpWindow, WindowMeters};
use crate::carry::Carried;
use crate::config::{ExcessiveIncrement, MachineConfig, SecondCopy};
use crate::journal::{
    CommittedDraw, Entry, FloorCursor, HandpayKind, ProgressiveAward, SoftwareOutcome, Step, Tilt, TransferTarget, Wager, WagerCategory, WinComponent,
    WinPayment,
};
use crate::keystore::KeyStoreConfig;
use crate::meters::Door;
use crate::progressive::{Hit, Level, LevelConfig, Pool, PoolConfig};
use crate::rng::SeedSource;
use crate::state::IssuedTicket;

/// The numbers a sample is filled with: 64-bit fields take `n`, 128-bit
/// fields `w`, narrower fields `n` cut to their width.
#[derive(Clone, Copy)]
struct Fill {
    n: u64,
    w: u128,
}

impl Fill {
    fn u32(self) -> u32 {
        u32::try_from(self.n).unwrap_or(u32::MAX)
    }
    fn u8(self) -> u8 {
        u8::try_from(self.n).unwrap_or(u8::MAX)
    }
    fn usize(self) -> usize {
        usize::try_from(self.n).unwrap_or(usize::MAX)
    }
    fn i64(self) -> i64 {
        i64::try_from(self.n).unwrap_or(i64::MAX)
    }
}

fn pool_config(f: Fill) -> PoolConfig {
    PoolConfig {
        id: "grande".into(),
        games: vec!["reels".into(), "poker".into()],
        min_wager: f.n,
        levels: vec![
            LevelConfig {
                name: "Mini".into(),
                start_value: f.n,
                reset_value: f.n,
                increment_ppm: f.u32(),
                reserve_ppm: f.u32(),
                ceiling: Some(f.n),
                mystery: true,
            },
            LevelConfig { name: "Maxi".into(), start_value: 0, reset_value: 0, increment_ppm: 0, reserve_ppm: 0, ceiling: None, mystery: false },
        ],
        side_bet: true,
    }
}

fn pool(f: Fill) -> Pool {
    let level = Level {
        current: f.n,
        reserve: f.n,
        fraction: f.n,
        reserve_fraction: f.n,
        contributed_micro: f.w,
        hits: f.n,
        won: f.n,
        overflow: f.n,
        operator_funded: f.n,
        transferred_out: f.n,
        transferred_in: f.n,
        mystery_at: Some(f.n),
        mystery_due: Some(f.n),
    };
    let hit = Hit { time: f.i64(), machine: "EGM-0001".into(), round: f.n, level: f.usize(), amount: f.n };
    Pool { config: pool_config(f), levels: vec![level, Level::default()], last_hits: VecDeque::from([hit.clone(), hit]) }
}

fn carried(f: Fill) -> Carried {
    let ticket = IssuedTicket { value: f.n, redeemed: false, printed: true, issued_utc: "2026-11-29T04:00:00Z".into() };
    Carried {
        handpays: vec![f.n, 0],
        tickets: BTreeMap::from([("1234567890123456".into(), ticket.clone()), ("0".into(), ticket)]),
        pools: BTreeMap::from([("grande".into(), pool(f)), ("ilha".into(), pool(f))]),
        linked: BTreeMap::from([("linked".into(), (vec!["reels".into()], f.n))]),
        linked_pending: BTreeMap::from([("linked".into(), BTreeMap::from([(f.n, f.n), (0, 1)])), ("empty".into(), BTreeMap::new())]),
    }
}

fn config(f: Fill) -> MachineConfig {
    MachineConfig {
        denominations: vec![1, f.n],
        accepted_notes: vec![500, f.n],
        credit_limit: f.n,
        meter_digits: f.u8(),
        max_win: f.n,
        key_store: KeyStoreConfig::Tpm { tcti: "swtpm:host=127.0.0.1,port=2321".into(), nv_index: f.u32() },
        anchor_write_budget: f.n,
        anchor_tick_wagered: f.n,
        anchor_tick_minutes: f.u32(),
        second_copy: SecondCopy::At("/var/lib/egm/second.sqlite".into()),
        nvram_mirror: Some("/dev/nvram".into()),
        evaluation: true,
        excessive_increment: ExcessiveIncrement { coin_in: f.n, bills_in: f.n },
        ..MachineConfig::default()
    }
}

fn step() -> Step {
    Step::new("outcome", serde_json::json!({"stops": [1, 2, 3], "win": u64::MAX, "nested": {"a": [null, true, -1, 0.5]}}))
}

fn award(f: Fill, linked: bool) -> ProgressiveAward {
    ProgressiveAward {
        pool: "grande".into(),
        level: f.usize(),
        amount: f.n,
        time: f.i64(),
        linked,
        next_mystery_at: Some(f.n),
        share_ppm: f.u32(),
        floor_group: Some(f.u8()),
    }
}

/// One sample of every variant, in the order `Entry` declares them, some
/// more than once to cover their inner enums.
fn samples(f: Fill) -> Vec<Entry> {
    let window = WindowMeters { credit: f.n, wagered: f.n, won: f.n, money_in: f.n, money_out: f.n };
    vec![
        Entry::Genesis { machine_id: "EGM-0001".into(), after_clear: Some(f.n), epoch_id: "9f2c".into() },
        Entry::PowerUp { unclean_shutdown: true, window: Some(PowerUpWindow { anchor: f.n, at_anchor: window, at_power_up: window }) },
        Entry::PowerUp { unclean_shutdown: false, window: None },
        Entry::PowerDown,
        Entry::Anchored { value: f.n, reason: AnchorReason::RamClear, writes: f.n },
        Entry::Anchored { value: f.n, reason: AnchorReason::FinishedAtBoot, writes: 0 },
        Entry::CarriedOver { carried: Box::new(carried(f)) },
        Entry::CarriedOver { carried: Box::default() },
        Entry::CopyRebuilt { detail: "the second copy was behind".into() },
        Entry::RngSeeded { source: SeedSource::Lab(f.n) },
        Entry::RngSeeded { source: SeedSource::Entropy },
        Entry::ConfigChanged { digest: "ab".repeat(32), config: Box::new(config(f)) },
        Entry::NoteIn { value: f.n },
        Entry::NoteStacking { value: f.n },
        Entry::NoteReturned { value: f.n },
        Entry::TicketStacking { validation: "001234567890123456".into() },
        Entry::FloorTicketStacking { validation: "009876543210987654".into(), value: f.n },
        Entry::TicketReturned { validation: "001234567890123456".into() },
        Entry::NoteRejected { value: f.n, reason: "not accepted".into() },
        Entry::TicketIn { validation: "0012".into(), value: f.n },
        Entry::TicketRejected { validation: "0012".into(), reason: "expired".into() },
        Entry::TicketOut { validation: "0012".into(), value: f.n, issued_utc: Some("2026-11-29T04:00:00Z".into()), sequence: Some(f.u32()) },
        Entry::TicketPrinted { validation: "0012".into() },
        Entry::HandpayLocked { id: f.n, handpay: HandpayKind::Jackpot { round: f.n, game: "reels".into(), denom: f.n }, amount: f.n },
        Entry::HandpayLocked { id: f.n, handpay: HandpayKind::CancelledCredits, amount: f.n },
        Entry::HandpayPaid { id: f.n, attendant: "ana".into() },
        Entry::RoundBegun {
            round: f.n,
            game: "reels".into(),
            denom: f.n,
            stake: f.n,
            credit_before: f.n,
            step: step(),
            draws: f.n,
            side_stake: f.n,
            committed: Some(CommittedDraw { pool: "linked".into(), nonce: "00ff".into() }),
            unlinked: vec!["other".into()],
            category: Some(WagerCategory { name: "all bets".into(), rtp_ppm: f.u32() }),
            wagers: vec![Wager { category: WagerCategory { name: "red".into(), rtp_ppm: f.u32() }, stake: f.n }],
        },
        Entry::RoundStep { round: f.n, step: step(), extra_stake: f.n, draws: f.n, category: None },
        Entry::RoundStep {
            round: f.n,
            step: step(),
            extra_stake: f.n,
            draws: f.n,
            category: Some(WagerCategory { name: "insurance".into(), rtp_ppm: f.u32() }),
        },
        Entry::DrawDiscarded { game: "reels".into(), draws: f.n, reason: "no such symbol".into() },
        Entry::RoundSettled {
            round: f.n,
            win: f.n,
            components: vec![WinComponent { label: "3 × SETE".into(), amount: f.n }],
            payment: WinPayment::Credited { jackpot: true },
            credit_after: f.n,
            progressive: vec![award(f, false), award(f, true)],
        },
        Entry::RoundSettled { round: f.n, win: 0, components: vec![], payment: WinPayment::Handpay { id: f.n }, credit_after: 0, progressive: vec![] },
        Entry::RoundVoided { round: f.n, refund: f.n, reason: "earlier versions".into(), credit_after: f.n },
        Entry::RoundResumed { round: f.n, at_step: f.u32() },
        Entry::DoorOpened { door: Door::Logic },
        Entry::DoorClosed { door: Door::TopBox },
        Entry::TiltSet { tilt: Tilt::ExcessiveMeterIncrement, detail: "C-26".into() },
        Entry::TiltCleared { tilt: Tilt::FloorDisabled, by: "floor".into() },
        Entry::TiltSet { tilt: Tilt::NoteAcceptor(crate::journal::AcceptorFault::StackerRemoved), detail: "ID-003".into() },
        Entry::TiltSet { tilt: Tilt::Printer(crate::journal::PrinterFault::PaperJam), detail: "TCL".into() },
        Entry::TiltSet { tilt: Tilt::DoorSensors(Door::Belly), detail: "switch closed, optic open".into() },
        Entry::TiltSet { tilt: Tilt::FloorMaintenance, detail: "SAS host (LP 0A)".into() },
        Entry::Verification { ok: false, detail: "digest".into() },
        Entry::MeterRollover { meter: "creditos_jogados".into(), count: f.n },
        Entry::PoolConfigured { pool: pool_config(f), mystery_at: vec![Some(f.n), None] },
        Entry::LinkedPoolJoined { pool: "linked".into(), games: vec!["reels".into()], min_wager: f.n },
        Entry::LinkedDelivered { pool: "linked".into(), rounds: vec![f.n, 0] },
        Entry::LinkedRefused { pool: "linked".into(), round: f.n, reason: "over its bound".into() },
        Entry::LinkedCommitted {
            pool: "linked".into(),
            round: f.n,
            game: "reels".into(),
            denom: f.n,
            stake: f.n,
            side_stake: f.n,
            bet: "{\"lines\":20}".into(),
            key: "00".repeat(32),
        },
        Entry::LinkedWithdrawn { pool: "linked".into(), round: f.n, reason: "refused".into() },
        Entry::PoolTransfer {
            pool: "grande".into(),
            level: f.usize(),
            amount: f.n,
            to: TransferTarget::Pool { pool: "ilha".into(), level: f.usize() },
            by: "ana".into(),
        },
        Entry::PoolTransfer { pool: "grande".into(), level: 0, amount: f.n, to: TransferTarget::Authority { reference: "SRIJ-1".into() }, by: "ana".into() },
        Entry::FloorTicketIn { validation: "0012".into(), value: f.n },
        Entry::FloorTicketRefused { validation: "0012".into(), status: f.u8(), reason: "no answer".into() },
        Entry::AftIn { transaction_id: "T1".into(), value: f.n },
        Entry::AftOut { transaction_id: "T2".into(), value: f.n },
        Entry::AftPending { transaction_id: "T3".into(), to_host: true, value: f.n },
        Entry::AftFailed { transaction_id: "T3".into(), to_host: true, status: f.u8(), reason: "door open".into() },
        Entry::AftRegistration {
            registration: crate::registration::AftRegistration {
                status: crate::registration::RegistrationStatus::Registered,
                asset: f.u32(),
                key: [f.u8(); 20],
                pos_id: f.u32(),
            },
            by: "SAS host (LP 73)".into(),
        },
        Entry::AftRegistrationAcknowledged { by: "ana".into() },
        Entry::AftRegistrationRequested { by: "ana".into() },
        Entry::FloorReported { cursor: FloorCursor { up_to: f.n, above: vec![f.n, 1] } },
        Entry::ValidationIdSet { id: f.u32(), sequence: f.u32() },
        Entry::VariantChosen { family: "sete".into(), game: "sete-92".into(), sha256: "cd".repeat(32), by: "ana".into() },
        Entry::PrinterPaper { low: true },
        Entry::SoftwareChanged {
            component: "paytable sete-92".into(),
            file: "sete-92.ron".into(),
            sha256: "ef".repeat(32),
            previous: Some("01".repeat(32)),
            outcome: SoftwareOutcome::Replaced,
            by: "manifest 7".into(),
        },
    ]
}

/// Every kind serde knows for `Entry`, from its own refusal of an unknown one.
fn every_kind() -> BTreeSet<String> {
    let err = crate::wire::decode(r#"{"kind":"no_such_kind"}"#).expect_err("an unknown kind is refused");
    let text = err.to_string();
    let listed = text.split("expected one of").nth(1).unwrap_or_else(|| panic!("serde no longer lists the variants: {text}"));
    listed.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

const FILLS: [Fill; 5] = [
    Fill { n: 0, w: 0 },
    Fill { n: 1, w: 1 },
    Fill { n: u64::MAX, w: u64::MAX as u128 },
    Fill { n: u64::MAX, w: u64::MAX as u128 + 1 },
    Fill { n: u64::MAX, w: u128::MAX },
];

#[test]
fn every_variant_has_a_sample() {
    let kinds = every_kind();
    assert!(kinds.len() >= 40, "serde listed {} kinds: {kinds:?}", kinds.len());
    let sampled: BTreeSet<String> = samples(FILLS[0]).iter().map(|e| e.kind().to_owned()).collect();
    let missing: Vec<&String> = kinds.difference(&sampled).collect();
    assert!(missing.is_empty(), "entries with no sample in wire/every_entry.rs: {missing:?}");
    assert_eq!(sampled, kinds);
}

#[test]
fn every_entry_decodes_to_what_was_encoded() {
    for f in FILLS {
        for entry in samples(f) {
            let body = crate::wire::encode(&entry).unwrap_or_else(|e| panic!("{} does not encode: {e}", entry.kind()));
            let back = crate::wire::decode(&body).unwrap_or_else(|e| panic!("{} does not decode ({e}): {body}", entry.kind()));
            assert_eq!(back, entry, "{} changed on its way through the journal: {body}", entry.kind());
            // The kind column is the body's own tag.
            let tag = serde_json::from_str::<serde_json::Value>(&body).ok().and_then(|v| v.get("kind").and_then(|k| k.as_str().map(str::to_owned)));
            assert_eq!(tag.as_deref(), Some(entry.kind()));
        }
    }
}

/// Records written before the codec: a pool's meter as a plain number
/// (the RAM clears issue 74 could not boot from) and the linked outbox's
/// rounds as string keys read exactly as they were meant.
#[test]
fn records_of_earlier_versions_still_decode() {
    let mut carried = carried(Fill { n: 7, w: 123_456_789 });
    let body = crate::wire::encode(&Entry::CarriedOver { carried: Box::new(carried.clone()) }).expect("encodes");
    assert!(body.contains(r#""contributed_micro":"123456789""#), "{body}");
    let legacy = body.replace(r#""contributed_micro":"123456789""#, r#""contributed_micro":123456789"#);
    assert_eq!(crate::wire::decode(&legacy).expect("a legacy number decodes"), Entry::CarriedOver { carried: Box::new(carried.clone()) });
    // A meter beyond 2^64 as a JSON number was never written (it would not
    // have encoded); as a float it would be inexact, and is refused.
    let float = body.replace(r#""contributed_micro":"123456789""#, r#""contributed_micro":1.5e30"#);
    assert!(crate::wire::decode(&float).is_err());
    for bad in ["-1", "+1", "1e3", " 1", ""] {
        let refused = body.replace(r#""contributed_micro":"123456789""#, &format!(r#""contributed_micro":"{bad}""#));
        assert!(crate::wire::decode(&refused).is_err(), "{bad:?} was read as a meter");
    }
    // Keys of the outbox are rounds: "07" or "x" is not one.
    carried.linked_pending = BTreeMap::from([("l".into(), BTreeMap::from([(7, 1)]))]);
    let body = crate::wire::encode(&Entry::CarriedOver { carried: Box::new(carried) }).expect("encodes");
    assert!(body.contains(r#""linked_pending":{"l":{"7":1}}"#), "{body}");
    assert!(crate::wire::decode(&body.replace(r#"{"7":1}"#, r#"{"07":1}"#)).is_err());
    assert!(crate::wire::decode(&body.replace(r#"{"7":1}"#, r#"{"x":1}"#)).is_err());
}
