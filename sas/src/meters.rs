//! The meter long polls (sas.md §4), answered from the snapshot the host
//! publishes after every commit: never from critical memory itself, so a
//! reply never waits on a round. Every SAS meter is one of the core's M-25
//! meters, read once (certification H-54; the table is in the README).
//!
//! 4-byte meters count credits of the accounting denomination (LP 1F):
//! cents divided by it, the remainder dropped [R: the digest's reading];
//! counts are counts. A value wider than its field rolls over at
//! 10^(2 × bytes) (the cabinet keeps `u64`, C-21).

use std::collections::BTreeMap;

use crate::bcd;

/// What the host publishes after every commit: the core's meters as the
/// floor reads them, in cents and counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The accounting denomination in cents (LP 1F): what a "credit" of a
    /// 4-byte meter is.
    pub accounting_denom: u64,
    /// M-25 a) créditos jogados.
    pub coin_in: u64,
    /// Wins the machine paid to the credit meter (M-25 b) less the
    /// attendant's).
    pub coin_out: u64,
    /// Wins an attendant paid (hand-pay jackpots).
    pub jackpot: u64,
    /// M-25 g) every cash-out: by ticket (cancelamento de créditos) and by
    /// hand-pay (manual).
    pub canceled_credits: u64,
    /// M-25 g) the cash-outs an attendant paid by hand.
    pub handpaid_canceled_credits: u64,
    /// M-25 e) notes in: the drop.
    pub drop: u64,
    pub games_played: u64,
    pub games_won: u64,
    pub games_lost: u64,
    pub games_since_power_up: u64,
    pub games_since_door_close: u64,
    /// The credit meter, in cents.
    pub credit: u64,
    pub slot_door_opens: u64,
    pub power_resets: u64,
    /// Notes accepted, a count per value in cents.
    pub notes: BTreeMap<u64, u64>,
}

impl Snapshot {
    /// `cents` as credits of the accounting denomination.
    fn credits(&self, cents: u64) -> u64 {
        cents.checked_div(self.accounting_denom).unwrap_or(0)
    }

    fn notes_of(&self, cents: u64) -> u64 {
        self.notes.get(&cents).copied().unwrap_or(0)
    }
}

/// The data of a meter long poll's reply (after the address and the
/// command, before the CRC), or `None` for a command that is not one.
pub fn reply_data(command: u8, s: &Snapshot) -> Option<Vec<u8>> {
    let m4 = |v: u64| bcd::encode(v, 4);
    let m2 = |v: u64| bcd::encode(v, 2);
    let cat = |fields: &[Vec<u8>]| fields.concat();
    Some(match command {
        // Canceled credits, coin in, coin out, drop, jackpot, games played.
        0x0F => cat(&[
            m4(s.credits(s.canceled_credits)),
            m4(s.credits(s.coin_in)),
            m4(s.credits(s.coin_out)),
            m4(s.credits(s.drop)),
            m4(s.credits(s.jackpot)),
            m4(s.games_played),
        ]),
        0x10 => m4(s.credits(s.canceled_credits)),
        0x11 => m4(s.credits(s.coin_in)),
        0x12 => m4(s.credits(s.coin_out)),
        0x13 => m4(s.credits(s.drop)),
        0x14 => m4(s.credits(s.jackpot)),
        0x15 => m4(s.games_played),
        0x16 => m4(s.games_won),
        0x17 => m4(s.games_lost),
        0x18 => cat(&[m2(s.games_since_power_up), m2(s.games_since_door_close)]),
        0x19 => cat(&[m4(s.credits(s.coin_in)), m4(s.credits(s.coin_out)), m4(s.credits(s.drop)), m4(s.credits(s.jackpot)), m4(s.games_played)]),
        0x1A => m4(s.credits(s.credit)),
        0x1C => cat(&[
            m4(s.credits(s.coin_in)),
            m4(s.credits(s.coin_out)),
            m4(s.credits(s.drop)),
            m4(s.credits(s.jackpot)),
            m4(s.games_played),
            m4(s.games_won),
            m4(s.slot_door_opens),
            m4(s.power_resets),
        ]),
        // Counts of the $1, $5, $10, $20, $50 and $100 notes (a euro
        // cabinet's €5, €10, €20, €50 and €100 in the same places [R]).
        0x1E => cat(&[100, 500, 1_000, 2_000, 5_000, 10_000].map(|v| m4(s.notes_of(v)))),
        _ => return None,
    })
}

/// A meter long poll's whole reply for `address`: the address, the
/// command, the data and the CRC.
pub fn reply(address: u8, command: u8, s: &Snapshot) -> Option<Vec<u8>> {
    let data = reply_data(command, s)?;
    let mut frame = vec![address, command];
    frame.extend(data);
    Some(crate::crc::sealed(&frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played() -> Snapshot {
        // A cent cabinet (the accounting denomination 0.01): 250.00 wagered
        // over 100 games, 40 won, 212.50 won to the credit meter, 12.50
        // credit left, 20.00 + 50.00 in notes, 50.00 cashed out by ticket.
        Snapshot {
            accounting_denom: 1,
            coin_in: 25_000,
            coin_out: 21_250,
            jackpot: 0,
            canceled_credits: 5_000,
            handpaid_canceled_credits: 0,
            drop: 7_000,
            games_played: 100,
            games_won: 40,
            games_lost: 60,
            games_since_power_up: 100,
            games_since_door_close: 37,
            credit: 1_250,
            slot_door_opens: 2,
            power_resets: 3,
            notes: BTreeMap::from([(2_000, 1), (5_000, 1)]),
        }
    }

    #[test]
    fn the_current_credits_reply_is_the_digests_worked_frame() {
        // sas.md §2: the reply to LP 1A at address 1 for 1,250 credits.
        assert_eq!(reply(1, 0x1A, &played()), Some(vec![0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]));
        // In credits of the accounting denomination: at 0.05, 1,250 cents
        // are 250 credits.
        let nickel = Snapshot { accounting_denom: 5, ..played() };
        assert_eq!(reply_data(0x1A, &nickel), Some(vec![0x00, 0x00, 0x02, 0x50]));
    }

    #[test]
    fn every_meter_poll_reads_the_snapshot_field_by_field() {
        let s = played();
        let bcd4 = |v: u64| bcd::encode(v, 4);
        assert_eq!(reply_data(0x0F, &s).unwrap(), [bcd4(5_000), bcd4(25_000), bcd4(21_250), bcd4(7_000), bcd4(0), bcd4(100)].concat());
        for (command, value) in [(0x10, 5_000), (0x11, 25_000), (0x12, 21_250), (0x13, 7_000), (0x14, 0), (0x15, 100), (0x16, 40), (0x17, 60)] {
            assert_eq!(reply_data(command, &s).unwrap(), bcd4(value), "LP {command:02X}");
        }
        assert_eq!(reply_data(0x18, &s).unwrap(), [0x01, 0x00, 0x00, 0x37]);
        assert_eq!(reply_data(0x1C, &s).unwrap().len(), 32);
        assert_eq!(&reply_data(0x1C, &s).unwrap()[24..], [bcd4(2), bcd4(3)].concat());
        assert_eq!(reply_data(0x1E, &s).unwrap(), [bcd4(0), bcd4(0), bcd4(0), bcd4(1), bcd4(1), bcd4(0)].concat());
        // Games won and lost add up to games played: the same meters.
        assert_eq!(s.games_won + s.games_lost, s.games_played);
        assert_eq!(reply_data(0x99, &s), None);
        // Every reply's frame checks.
        for command in [0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1C, 0x1E] {
            assert!(crate::crc::checks(&reply(7, command, &s).unwrap()), "LP {command:02X}");
        }
    }

    #[test]
    fn a_meter_wider_than_its_field_rolls_over_and_no_denomination_reads_zero() {
        let s = Snapshot { coin_in: 123_456_789_012, ..played() };
        assert_eq!(reply_data(0x11, &s).unwrap(), [0x56, 0x78, 0x90, 0x12]);
        let unset = Snapshot { accounting_denom: 0, ..played() };
        assert_eq!(reply_data(0x1A, &unset).unwrap(), [0, 0, 0, 0]);
    }
}
