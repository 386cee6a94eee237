//! System validation of a cash-out ticket (sas.md §6; issue 48): the
//! floor's system, not the cabinet, assigns the ticket's validation number
//! before it prints. The cabinet's cash-out raises exception 57; the floor
//! reads the cash-out (LP 57: its type and amount) and answers with its
//! system ID and the number (LP 58). The port decides nothing about money:
//! the number goes to the game host ([`crate::egm::Event::TicketValidated`]),
//! which issues the ticket through the core, and the floor learns of the
//! printed ticket as of any other (3D, LP 4D).
//!
//! Layouts as the digest gives them: LP 57's reply `type amount(5 BCD
//! cents)`, type 00 a cashable ticket, 80 no cash-out waiting; LP 58's
//! request `system-ID(1 BCD) validation(8 BCD)`, its reply one status
//! byte: 00 acknowledged, 80 not waiting for a number, 81 rejected (a
//! number that is not BCD). System ID 00 is the floor's refusal. The
//! ticket's number is the system ID's two digits then the sixteen.

use crate::bcd;

/// LP 58's statuses.
pub mod status {
    pub const ACKNOWLEDGED: u8 = 0x00;
    pub const NOT_IN_CASH_OUT: u8 = 0x80;
    pub const REJECTED: u8 = 0x81;
}

/// What the floor's LP 58 said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// System ID 00: the floor will not validate the ticket.
    Denied,
    /// The ticket's 18-digit number: system ID, then the floor's sixteen.
    Number(String),
}

/// LP 58's request data, or `None` when it is not BCD or is short.
pub fn parse_58(data: &[u8]) -> Option<Answer> {
    let system = bcd::decode(data.get(..1)?).ok()?;
    let number = crate::tickets::validation_digits(data.get(1..9)?)?;
    if system == 0 {
        return Some(Answer::Denied);
    }
    Some(Answer::Number(format!("{system:02}{number}")))
}

/// LP 57's reply data: the cash-out waiting for its number (cashable,
/// `cents`), or none.
pub fn reply_57(waiting: Option<u64>) -> Vec<u8> {
    match waiting {
        Some(cents) => [vec![0x00], bcd::encode(cents, 5)].concat(),
        None => [vec![0x80], bcd::encode(0, 5)].concat(),
    }
}

/// LP 4C's request (secure-enhanced validation): the machine validation
/// ID and the sequence number, 3 bytes each, least significant first
/// [R: binary fields in SAS are LSB first]. ID 0 asks for the values
/// set, changing nothing [R].
pub fn parse_4c(data: &[u8]) -> Option<(u32, u32)> {
    let three = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], 0]);
    Some((three(data.get(..3)?), three(data.get(3..6)?)))
}

/// LP 4C's reply data: the ID and sequence now in force (zeros when none).
pub fn reply_4c(id: u32, sequence: u32) -> Vec<u8> {
    [&id.to_le_bytes()[..3], &sequence.to_le_bytes()[..3]].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lp_57_reports_the_cash_out_waiting_and_58_reads_the_floors_number() {
        assert_eq!(reply_57(Some(12_345)), [0x00, 0x00, 0x00, 0x01, 0x23, 0x45]);
        assert_eq!(reply_57(None), [0x80, 0x00, 0x00, 0x00, 0x00, 0x00]);
        let data = [0x42, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56];
        assert_eq!(parse_58(&data), Some(Answer::Number("421234567890123456".into())));
        assert_eq!(parse_58(&[0x00, 0, 0, 0, 0, 0, 0, 0, 0]), Some(Answer::Denied));
        assert_eq!(parse_58(&data[..8]), None, "short");
        assert_eq!(parse_58(&[0x4A, 0, 0, 0, 0, 0, 0, 0, 0]), None, "a system ID that is not BCD");
        assert_eq!(parse_58(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0xF0]), None, "a number that is not BCD");
    }

    #[test]
    fn lp_4c_carries_the_id_and_sequence_least_significant_first() {
        assert_eq!(parse_4c(&[0x56, 0x34, 0x12, 0x02, 0x00, 0x00]), Some((0x12_3456, 2)));
        assert_eq!(parse_4c(&[0x56, 0x34, 0x12, 0x02, 0x00]), None, "short");
        assert_eq!(reply_4c(0x12_3456, 2), [0x56, 0x34, 0x12, 0x02, 0x00, 0x00]);
    }
}
