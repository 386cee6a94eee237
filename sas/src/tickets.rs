//! Ticket in, redeemed by the floor (sas.md §6; issue 48): a ticket the
//! reader takes that this cabinet did not print goes into escrow and the
//! floor is asked (exception 67); the floor reads it (LP 70) and answers
//! (LP 71): redeem it as cashable credit, or reject it with its reason.
//! The port decides nothing about money: it hands the floor's answer to
//! the game host ([`crate::egm::Event::RedeemTicket`]), which commits the
//! redemption through the core (or refuses it), and tells the port the
//! outcome ([`crate::egm::Egm::ticket_done`]); the floor then learns it
//! (exception 68, LP 71 with transfer code FF).
//!
//! Field layouts as the digest gives them, the rest [R]: LP 70's reply
//! `len status amount(5 BCD cents) parsing-code validation(BCD)`; LP 71's
//! request `len transfer-code amount(5 BCD) parsing-code validation…`,
//! its reply `len machine-status amount(5 BCD) parsing-code
//! validation(BCD)`. Parsing code 00: the validation number as BCD digits.
//! The cabinet's validation numbers are 18 digits, sent as 9 BCD bytes; a
//! host's 8 or 9 bytes are read as 16 or 18 digits.

use crate::bcd;

/// LP 71's machine statuses this EGM sends.
pub mod status {
    /// Cashable ticket redeemed.
    pub const REDEEMED: u8 = 0x00;
    /// Waiting for the floor's long poll 71 (the ticket is in escrow).
    pub const WAITING: u8 = 0x20;
    /// Redemption pending (the game host is committing it).
    pub const PENDING: u8 = 0x40;
    /// Ticket rejected by the floor (its transfer code, 80–93, echoed as
    /// the reason when the floor gave one) [R].
    pub const REJECTED_BY_HOST: u8 = 0x80;
    /// The cabinet refused it (over its limits, disabled, already paid).
    pub const REJECTED_BY_EGM: u8 = 0x83;
    /// Timed out waiting for the floor: the ticket was returned.
    pub const TIMED_OUT: u8 = 0x88;
    /// No redemption in progress.
    pub const NONE: u8 = 0xFF;
}

/// Where the ticket-in cycle stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TicketIn {
    #[default]
    Idle,
    /// In escrow, the floor asked.
    Escrow { validation: String },
    /// The floor said redeem: the game host is committing it.
    Pending { validation: String, amount: u64 },
    /// Finished: what LP 71 with code FF reports until the next ticket.
    Done { validation: String, amount: u64, status: u8 },
}

/// A validation number as BCD (an odd count of digits gets a leading 0).
pub fn validation_bcd(validation: &str) -> Vec<u8> {
    let digits: Vec<u8> = validation.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    let padded: Vec<u8> = if digits.len() % 2 == 1 { std::iter::once(0).chain(digits).collect() } else { digits };
    padded.chunks(2).map(|p| (p[0] << 4) | p.get(1).copied().unwrap_or(0)).collect()
}

/// BCD validation data as its digits, `None` when a nibble is over 9.
pub fn validation_digits(data: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(data.len() * 2);
    for b in data {
        for nibble in [b >> 4, b & 0x0F] {
            if nibble > 9 {
                return None;
            }
            out.push(char::from(b'0' + nibble));
        }
    }
    Some(out)
}

/// Whether two validation numbers are the same ticket: the same digits,
/// leading zeros aside (a floor may send 16 digits for an 18-digit
/// number) [R].
pub fn same(a: &str, b: &str) -> bool {
    a.trim_start_matches('0') == b.trim_start_matches('0')
}

/// What the floor's LP 71 asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Transfer code FF: the status of the last redemption.
    Status,
    /// 00 cashable (01 restricted, 02 non-restricted): redeem `amount`
    /// cents for the ticket `validation`.
    Redeem { code: u8, amount: u64, validation: String },
    /// 80–93: the floor rejects the ticket, for this reason code.
    Reject { code: u8, validation: String },
}

/// LP 71's request data (its length byte first), or `None` when it is
/// malformed.
pub fn parse_71(data: &[u8]) -> Option<Request> {
    let (&len, rest) = data.split_first()?;
    let body = rest.get(..usize::from(len))?;
    let (&code, rest) = body.split_first()?;
    if code == 0xFF {
        return Some(Request::Status);
    }
    let amount = bcd::decode(rest.get(..5)?).ok()?;
    // The parsing code, then the validation data (8 or 9 bytes); anything
    // after (a restricted ticket's expiry and pool) is not read.
    let v = rest.get(6..)?;
    let n = if v.len() >= 9 { 9 } else { 8 };
    let validation = validation_digits(v.get(..n)?)?;
    match code {
        0x00..=0x02 => Some(Request::Redeem { code, amount, validation }),
        0x80..=0x93 => Some(Request::Reject { code, validation }),
        _ => None,
    }
}

/// LP 70's reply data: the ticket in escrow, or none (status FF).
pub fn reply_70(state: &TicketIn) -> Vec<u8> {
    match state {
        TicketIn::Escrow { validation } => {
            let v = validation_bcd(validation);
            let mut out = vec![0, 0x00];
            out.extend(bcd::encode(0, 5));
            out.push(0x00);
            out.extend(v);
            out[0] = u8::try_from(out.len() - 1).unwrap_or(0);
            out
        }
        _ => vec![0x01, status::NONE],
    }
}

/// LP 71's reply data for a machine status.
pub fn reply_71(status: u8, amount: u64, validation: &str) -> Vec<u8> {
    let mut out = vec![0, status];
    out.extend(bcd::encode(amount, 5));
    out.push(0x00);
    out.extend(validation_bcd(validation));
    out[0] = u8::try_from(out.len() - 1).unwrap_or(0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_numbers_round_trip_through_bcd() {
        let v = "123456789012345678";
        assert_eq!(validation_bcd(v), [0x12, 0x34, 0x56, 0x78, 0x90, 0x12, 0x34, 0x56, 0x78]);
        assert_eq!(validation_digits(&validation_bcd(v)).as_deref(), Some(v));
        assert_eq!(validation_bcd("123"), [0x01, 0x23]);
        assert_eq!(validation_digits(&[0x1A]), None);
    }

    #[test]
    fn lp_71_requests_parse_as_the_floor_sent_them() {
        // Redeem 25.00 for a 16-digit validation (8 bytes).
        let mut d = vec![0x00];
        d.extend(bcd::encode(2_500, 5));
        d.push(0x00);
        d.extend([0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x90, 0x12]);
        let with_len = [vec![u8::try_from(d.len()).unwrap()], d].concat();
        assert_eq!(parse_71(&with_len), Some(Request::Redeem { code: 0, amount: 2_500, validation: "0000123456789012".into() }));
        assert_eq!(parse_71(&[0x01, 0xFF]), Some(Request::Status));
        let mut reject = with_len.clone();
        reject[1] = 0x84;
        assert_eq!(parse_71(&reject), Some(Request::Reject { code: 0x84, validation: "0000123456789012".into() }));
        assert_eq!(parse_71(&[0x03, 0x00, 0x00, 0x00]), None, "truncated");
        let mut odd = with_len;
        odd[1] = 0x50;
        assert_eq!(parse_71(&odd), None, "not a transfer code");
    }
}
