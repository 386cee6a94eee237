//! Money out as the floor sees it (sas.md §6): the cash-out tickets this
//! cabinet printed (LP 4D, after exception 3D), so the floor can redeem
//! them on any cabinet, and the hand-pays waiting for an attendant (LP
//! 1B while 51 is pending; LP 94, the floor's remote reset, after which
//! the core journals the payment and 52 is told).
//!
//! Layouts [R: the digest names the fields, not every width]: LP 4D's
//! reply `type index date(4) time(3) validation(8 BCD) amount(5 BCD)
//! ticket-number(2 BCD) system-ID(1 BCD) expiration(4 BCD) pool(2)`, the
//! cabinet's 18-digit validation number split as the system ID (its first
//! two digits) and the 16 after; LP 1B's `group level amount(5 BCD)
//! partial-pay(5 BCD) reset-ID` followed by ten unused bytes.

use crate::bcd;
use crate::snapshot::Snapshot;

/// LP 4D's function: 00 the most recent ticket, 01–1F the history (1 the
/// most recent), FF look-ahead (not kept: none).
pub fn reply_4d(function: u8, s: &Snapshot) -> Vec<u8> {
    let index = match function {
        0x00 => Some(0),
        0x01..=0x1F => Some(usize::from(function) - 1),
        _ => None,
    };
    let ticket = index.and_then(|i| s.tickets_printed.get(i));
    let Some(t) = ticket else {
        // No such ticket: type FF, every field zero [R].
        return [vec![0xFF, function], vec![0; 4 + 3 + 8 + 5 + 2 + 1 + 4 + 2]].concat();
    };
    let digits: String = format!("{:0>18}", t.validation);
    let (system, number) = digits.split_at(digits.len() - 16);
    let system_id: u64 = system.parse().unwrap_or(0);
    let clock = crate::identity::clock_fields(t.issued).unwrap_or_else(|| vec![0; 7]);
    let n = s.tickets_printed.len() as u64 - index.map_or(0, |i| i as u64);
    [
        // Type 00: a cashable ticket from a cash-out.
        vec![0x00, function],
        clock,
        crate::tickets::validation_bcd(number),
        bcd::encode(t.cents, 5),
        bcd::encode(n, 2),
        bcd::encode(system_id, 1),
        // No expiry, no pool.
        vec![0; 4],
        vec![0; 2],
    ]
    .concat()
}

/// LP 1B: the oldest hand-pay waiting; all zero when none [R].
pub fn reply_1b(s: &Snapshot) -> Vec<u8> {
    let Some(h) = s.handpays.first() else { return vec![0; 1 + 1 + 5 + 5 + 1 + 10] };
    // Level 80: canceled credits; 01-20 a SAS progressive level of its
    // group; 40: a win that is not a progressive.
    let (group, level) = match (h.canceled_credits, h.progressive) {
        (true, _) => (0x00, 0x80),
        (false, Some((group, level))) => (group, level),
        (false, None) => (0x00, 0x40),
    };
    // Reset ID 00: the attendant's key, no partial pay.
    [vec![group, level], bcd::encode(h.cents, 5), bcd::encode(0, 5), vec![0x00], vec![0; 10]].concat()
}

/// LP 94's answer: 00 reset (the game host pays the oldest hand-pay
/// through the core), 02 not in a hand-pay.
pub fn reply_94(s: &Snapshot) -> (u8, Option<u64>) {
    match s.handpays.first() {
        Some(h) => (0x00, Some(h.id)),
        None => (0x02, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{Handpay, TicketOut};

    #[test]
    fn the_ticket_history_newest_first_with_its_validation_split() {
        let s = Snapshot {
            tickets_printed: vec![
                TicketOut { validation: "421234567890123456".into(), cents: 5_000, issued: 1_795_802_179 },
                TicketOut { validation: "990000000000000001".into(), cents: 125, issued: 1_795_800_000 },
            ],
            ..Snapshot::default()
        };
        let r = reply_4d(0x00, &s);
        assert_eq!(&r[..2], [0x00, 0x00]);
        assert_eq!(&r[2..9], [0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x19]);
        assert_eq!(&r[9..17], [0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56]);
        assert_eq!(bcd::decode(&r[17..22]), Ok(5_000));
        assert_eq!(bcd::decode(&r[22..24]), Ok(2), "the second ticket printed");
        assert_eq!(r[24], 0x42, "the system ID: the first two digits");
        assert_eq!(r.len(), 31);
        assert_eq!(&reply_4d(0x02, &s)[9..17], [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]);
        assert_eq!(reply_4d(0x03, &s)[0], 0xFF, "no third ticket");
        assert_eq!(reply_4d(0x03, &s).len(), 31);
    }

    #[test]
    fn a_pending_hand_pay_is_reported_and_reset() {
        let none = Snapshot::default();
        assert_eq!(reply_1b(&none), vec![0; 23]);
        assert_eq!(reply_94(&none), (0x02, None));
        let s = Snapshot { handpays: vec![Handpay { id: 7, cents: 150_000, canceled_credits: false, progressive: None }], ..Snapshot::default() };
        let r = reply_1b(&s);
        assert_eq!(&r[..2], [0x00, 0x40]);
        assert_eq!(bcd::decode(&r[2..7]), Ok(150_000));
        assert_eq!(reply_94(&s), (0x00, Some(7)));
        // A SAS progressive level's win: its group and level.
        let s = Snapshot { handpays: vec![Handpay { id: 8, cents: 75_000, canceled_credits: false, progressive: Some((3, 2)) }], ..Snapshot::default() };
        let r = reply_1b(&s);
        assert_eq!(&r[..2], [0x03, 0x02]);
        assert_eq!(bcd::decode(&r[2..7]), Ok(75_000));
    }
}
