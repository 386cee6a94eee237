//! The certification lab's fourth audit of critical memory (issue 68), each
//! attack run on the production path: a real TPM 2.0 (Debian's swtpm, one
//! per test), production mode, both copies of critical memory and the NVRAM
//! mirror.
//!
//! | attack | here |
//! |---|---|
//! | 2 the launcher measured one file and ran another, left the key open, passed `LD_PRELOAD` | `tools/tests/egm_lab_cli.rs` (`the_launcher_runs_the_file_it_hashed_cleanly_and_caps_the_boot_when_it_ends`) |
//! | 4 the configuration edited while the cabinet was off | `attack_4_*` |

#![allow(clippy::unwrap_used)]

mod support;

use meters::config::ExcessiveIncrement;
use meters::{BootError, Currency, Door, MachineConfig};
use support::production::{boot, boot_with, config, provisioned_cabinet};

/// Attack 4: of 19 settings edited while the cabinet was off, the currency,
/// a 1,000,000 c note, every limit and the largest win, the C-26
/// increments, the tick, the write budget and the denominations were
/// accepted at the next boot. Every setting is now the machine's own once
/// journaled: each edit is refused by name while the logic door is shut,
/// the money where it was; with the door open the change is made and
/// journaled.
#[test]
fn attack_4_every_setting_changes_only_with_the_logic_door_open() {
    let (_dir, tpm, db, mut m) = provisioned_cabinet();
    m.insert_note(10_000).unwrap();
    m.insert_note(5_000).unwrap();
    m.shutdown().unwrap();
    let own = config(&tpm);
    let edits: Vec<(&str, MachineConfig)> = vec![
        ("currency", MachineConfig { currency: Currency { code: "USD".into(), minor_digits: 2 }, ..own.clone() }),
        ("accepted_notes", MachineConfig { accepted_notes: vec![500, 1_000, 2_000, 5_000, 10_000, 1_000_000], ..own.clone() }),
        ("credit_limit", MachineConfig { credit_limit: own.credit_limit * 10, ..own.clone() }),
        ("ticket_in_limit", MachineConfig { ticket_in_limit: own.ticket_in_limit * 10, ..own.clone() }),
        ("ticket_out_limit", MachineConfig { ticket_out_limit: own.ticket_out_limit * 10, ..own.clone() }),
        ("handpay_limit", MachineConfig { handpay_limit: own.handpay_limit * 10, ..own.clone() }),
        ("jackpot_threshold", MachineConfig { jackpot_threshold: own.jackpot_threshold * 2, ..own.clone() }),
        ("max_win", MachineConfig { max_win: own.max_win * 10, ..own.clone() }),
        ("excessive_increment", MachineConfig { excessive_increment: ExcessiveIncrement { coin_in: 10_000_000, bills_in: 100_000_000 }, ..own.clone() }),
        ("anchor_tick_wagered", MachineConfig { anchor_tick_wagered: own.anchor_tick_wagered / 2, ..own.clone() }),
        ("anchor_tick_minutes", MachineConfig { anchor_tick_minutes: 1, ..own.clone() }),
        ("anchor_write_budget", MachineConfig { anchor_write_budget: own.anchor_write_budget * 2, ..own.clone() }),
        ("denominations", MachineConfig { denominations: vec![1, 2, 5, 10, 20, 50, 100, 200, 500], ..own.clone() }),
        ("meter_digits", MachineConfig { meter_digits: 12, ..own.clone() }),
    ];
    for (field, edited) in &edits {
        assert!(edited.validate().is_ok(), "{field}: the edit must be a valid configuration, or it proves nothing");
        match boot_with(&db, edited.clone(), &tpm) {
            Err(BootError::ConfigChangeRefused(f)) => assert_eq!(&f, field),
            Err(other) => panic!("{field}: refused for another reason: {other}"),
            Ok(_) => panic!("{field}: the edited configuration was accepted with the logic door shut"),
        }
    }
    // The money where it was, and the note the edit would have accepted
    // still refused.
    let mut m = boot(&db, &tpm).unwrap();
    assert_eq!(m.credit(), 15_000);
    assert!(m.insert_note(1_000_000).is_err());
    // With the logic door open, the operator's change is made, journaled.
    m.open_door(Door::Logic).unwrap();
    m.shutdown().unwrap();
    let usd = &edits[0].1;
    let m = boot_with(&db, usd.clone(), &tpm).unwrap();
    assert_eq!(m.config().currency.code, "USD");
    assert_eq!(m.credit(), 15_000);
}
