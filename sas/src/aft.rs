//! AFT, the floor's transfers of credit (sas.md §7; issue 48): LP 74
//! locks the cabinet for a transfer (play stops until the transfer, a
//! cancel or the lock's timeout), LP 72 asks for one — cashable credit in
//! from the floor (type 00) or the whole or part of the credit out to it
//! (type 80) — and interrogates it (FE/FF). The port decides nothing about
//! money: a transfer it accepts is handed to the game host
//! ([`crate::egm::Event::AftTransfer`]), which journals it pending in the
//! core ([`crate::egm::Egm::aft_journaled`]: only then is the floor told
//! 40; until then its LP 72 gets no reply and the floor asks again), then
//! makes or fails it and reports the outcome ([`crate::egm::Egm::aft_done`]),
//! or refuses it before journaling ([`crate::egm::Egm::aft_refused`]).
//!
//! The transaction id makes a transfer idempotent: the id of the last
//! transfer asked again gets that transfer's status and moves nothing; the
//! core refuses any id it has moved money for, across restarts, and the
//! host then reports the first transfer's outcome.
//!
//! Layouts as the digest gives them, field widths [R]: LP 74 `lock-code
//! condition timeout(2 BCD, 1/100 s)` → `len asset(4 LE) lock-status
//! available-transfers host-cash-out-status AFT-status max-index
//! cashable(5) restricted(5) non-restricted(5) limit(5) expiry(4) pool(2)`;
//! LP 72 `len code index type cashable(5) restricted(5) non-restricted(5)
//! flags asset(4 LE) key(20) id-len id expiry(4) pool(2) receipt-len
//! receipt lock-timeout(2)` → `len index status receipt-status type
//! cashable(5) restricted(5) non-restricted(5) flags asset(4 LE) id-len id
//! date(4) time(3) expiry(4) pool(2) (len meter(5)) × 3`.

use crate::bcd;
use crate::snapshot::Snapshot;

/// LP 72 transfer statuses this EGM sends.
pub mod status {
    pub const FULL: u8 = 0x00;
    pub const PENDING: u8 = 0x40;
    pub const NOT_A_VALID_FUNCTION: u8 = 0x82;
    pub const NOT_A_VALID_AMOUNT: u8 = 0x83;
    /// The amount would take the credit past the cabinet's limit.
    pub const OVER_TRANSFER_LIMIT: u8 = 0x84;
    pub const UNABLE_NOW: u8 = 0x87;
    /// A transfer with a registration key to a cabinet not registered
    /// (LP 73).
    pub const NOT_REGISTERED: u8 = 0x88;
    /// A registration key other than the one the cabinet is registered
    /// under.
    pub const KEY_MISMATCH: u8 = 0x89;
    /// The asset number is zero or not this cabinet's.
    pub const ASSET_MISMATCH: u8 = 0x93;
    /// The host asked for the transfer only if locked, and it is not.
    pub const NOT_LOCKED: u8 = 0x94;
    pub const INVALID_ID: u8 = 0x95;
    pub const NOT_COMPATIBLE: u8 = 0xC0;
    pub const NO_INFORMATION: u8 = 0xFF;
}

/// LP 72's transfer flag: accept the transfer only if the cabinet is
/// locked for it (LP 74), else status 94.
pub const ONLY_IF_LOCKED: u8 = 0x40;

/// Transfer types this cabinet makes.
pub const IN_HOUSE_TO_EGM: u8 = 0x00;
pub const IN_HOUSE_TO_HOST: u8 = 0x80;

/// A transfer as the port keeps it (the last one; the core keeps them
/// all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub id: String,
    pub kind: u8,
    pub cents: u64,
    pub status: u8,
    /// When it was asked for (Unix seconds).
    pub at: i64,
    /// Issue 71: whether the core has journaled it. Until it has, the
    /// floor is told nothing of it (no reply to its LP 72, the host
    /// retries): "pending" (40) is never said of a transfer that a power
    /// cut would lose.
    pub journaled: bool,
}

/// What the floor's LP 72 asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Interrogate,
    Cancel,
    Transfer {
        partial: bool,
        kind: u8,
        cashable: u64,
        restricted: u64,
        nonrestricted: u64,
        id: String,
        only_if_locked: bool,
        /// The asset number the floor addressed (this cabinet's, else 93).
        asset: u32,
        /// The registration key (all zero: an in-house transfer that needs
        /// no registration).
        key: [u8; 20],
    },
}

/// LP 72's request (its length byte first); `Err` with the status to
/// report when it is malformed.
pub fn parse_72(data: &[u8]) -> Result<Request, u8> {
    let (&len, rest) = data.split_first().ok_or(status::NOT_A_VALID_FUNCTION)?;
    let body = rest.get(..usize::from(len)).ok_or(status::NOT_A_VALID_FUNCTION)?;
    let code = *body.first().ok_or(status::NOT_A_VALID_FUNCTION)?;
    match code {
        0xFE | 0xFF => return Ok(Request::Interrogate),
        0x80 => return Ok(Request::Cancel),
        0x00 | 0x01 => {}
        _ => return Err(status::NOT_A_VALID_FUNCTION),
    }
    let field = |from: usize, n: usize| body.get(from..from + n).ok_or(status::NOT_A_VALID_FUNCTION);
    let amount = |from: usize| bcd::decode(field(from, 5)?).map_err(|_| status::NOT_A_VALID_AMOUNT);
    let kind = *field(2, 1)?.first().ok_or(status::NOT_A_VALID_FUNCTION)?;
    let (cashable, restricted, nonrestricted) = (amount(3)?, amount(8)?, amount(13)?);
    let flags = *field(18, 1)?.first().ok_or(status::NOT_A_VALID_FUNCTION)?;
    let asset = u32::from_le_bytes(field(19, 4)?.try_into().map_err(|_| status::NOT_A_VALID_FUNCTION)?);
    let key: [u8; 20] = field(23, 20)?.try_into().map_err(|_| status::NOT_A_VALID_FUNCTION)?;
    let id_len = usize::from(*field(43, 1)?.first().ok_or(status::INVALID_ID)?);
    let id = field(44, id_len).map_err(|_| status::INVALID_ID)?;
    if id.is_empty() || id.len() > 20 || !id.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        return Err(status::INVALID_ID);
    }
    let id = String::from_utf8_lossy(id).into_owned();
    Ok(Request::Transfer { partial: code == 0x01, kind, cashable, restricted, nonrestricted, id, only_if_locked: flags & ONLY_IF_LOCKED != 0, asset, key })
}

/// LP 72's reply data for a transfer (or none yet).
pub fn reply_72(t: Option<&Transfer>, s: &Snapshot) -> Vec<u8> {
    let Some(t) = t else { return vec![0x02, 0x00, status::NO_INFORMATION] };
    let id = t.id.as_bytes();
    let cumulative = if t.kind == IN_HOUSE_TO_HOST { s.aft_out.cents } else { s.aft_in.cents };
    let mut out = vec![0, 0x00, t.status, 0x00, t.kind];
    out.extend(bcd::encode(t.cents, 5));
    out.extend(bcd::encode(0, 5));
    out.extend(bcd::encode(0, 5));
    out.push(0x00);
    out.extend(s.asset_number.to_le_bytes());
    out.push(u8::try_from(id.len()).unwrap_or(0));
    out.extend(id);
    out.extend(crate::identity::clock_fields(t.at).unwrap_or_else(|| vec![0; 7]));
    out.extend([0; 4]);
    out.extend([0; 2]);
    for meter in [cumulative, 0, 0] {
        out.push(5);
        out.extend(bcd::encode(meter, 5));
    }
    out[0] = u8::try_from(out.len() - 1).unwrap_or(0);
    out
}

/// LP 74's reply data: the lock's status (00 locked, FF not locked), the
/// transfers available now (bit 0 to the cabinet, bit 1 to the host [R])
/// and the credit (all cashable).
pub fn reply_74(locked: bool, s: &Snapshot) -> Vec<u8> {
    let available = if s.idle { 0x03 } else { 0x00 };
    let mut out = vec![0];
    out.extend(s.asset_number.to_le_bytes());
    out.extend([if locked { 0x00 } else { 0xFF }, available, 0x00, 0x00, 0x00]);
    out.extend(bcd::encode(s.credit, 5));
    out.extend(bcd::encode(0, 5));
    out.extend(bcd::encode(0, 5));
    // The transfer limit: what the credit meter can still take (issue
    // 71: it said 0, as if no transfer in could be made).
    out.extend(bcd::encode(s.transfer_limit(), 5));
    out.extend([0; 4]);
    out.extend([0; 2]);
    out[0] = u8::try_from(out.len() - 1).unwrap_or(0);
    out
}

/// An LP 72 request's data as a host builds it (the reference host, the
/// tests): in-house, no registration key, no flags.
pub fn request_72(code: u8, kind: u8, cashable: u64, id: &str, asset: u32) -> Vec<u8> {
    request_72_flagged(code, kind, cashable, id, asset, 0x00)
}

/// [`request_72`] with the transfer flags `flags` ([`ONLY_IF_LOCKED`]).
pub fn request_72_flagged(code: u8, kind: u8, cashable: u64, id: &str, asset: u32, flags: u8) -> Vec<u8> {
    request_72_keyed(code, kind, cashable, id, asset, flags, [0; 20])
}

/// [`request_72_flagged`] with a registration key (LP 73).
pub fn request_72_keyed(code: u8, kind: u8, cashable: u64, id: &str, asset: u32, flags: u8, key: [u8; 20]) -> Vec<u8> {
    let mut d = vec![code, 0x00, kind];
    d.extend(bcd::encode(cashable, 5));
    d.extend(bcd::encode(0, 5));
    d.extend(bcd::encode(0, 5));
    d.push(flags);
    d.extend(asset.to_le_bytes());
    d.extend(key);
    d.push(u8::try_from(id.len()).unwrap_or(0));
    d.extend(id.as_bytes());
    d.extend([0; 4]);
    d.extend([0; 2]);
    d.push(0);
    d.extend([0x00, 0x00]);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_len(d: Vec<u8>) -> Vec<u8> {
        [vec![d.len() as u8], d].concat()
    }

    #[test]
    fn a_transfer_request_parses_and_a_bad_one_names_its_status() {
        let r = parse_72(&with_len(request_72(0x00, IN_HOUSE_TO_EGM, 2_500, "FLOOR-0001", 7)));
        assert_eq!(
            r,
            Ok(Request::Transfer {
                partial: false,
                kind: 0,
                cashable: 2_500,
                restricted: 0,
                nonrestricted: 0,
                id: "FLOOR-0001".into(),
                only_if_locked: false,
                asset: 7,
                key: [0; 20]
            })
        );
        let locked = parse_72(&with_len(request_72_flagged(0x00, IN_HOUSE_TO_EGM, 2_500, "FLOOR-0001", 7, ONLY_IF_LOCKED)));
        assert!(matches!(locked, Ok(Request::Transfer { only_if_locked: true, .. })), "{locked:?}");
        let keyed = parse_72(&with_len(request_72_keyed(0x00, IN_HOUSE_TO_EGM, 2_500, "FLOOR-0001", 0x0A0B_0C0D, 0, [0x33; 20])));
        assert!(matches!(keyed, Ok(Request::Transfer { asset: 0x0A0B_0C0D, key: [0x33, ..], .. })), "{keyed:?}");
        assert_eq!(parse_72(&[0x02, 0xFF, 0x00]), Ok(Request::Interrogate));
        assert_eq!(parse_72(&with_len(request_72(0x00, 0, 100, "", 0))), Err(status::INVALID_ID));
        assert_eq!(parse_72(&with_len(request_72(0x00, 0, 100, "bad\u{7}id", 0))), Err(status::INVALID_ID));
        assert_eq!(parse_72(&with_len(request_72(0x00, 0, 100, &"x".repeat(21), 0))), Err(status::INVALID_ID));
        assert_eq!(parse_72(&[0x02, 0x42, 0x00]), Err(status::NOT_A_VALID_FUNCTION));
        let mut bad_amount = request_72(0x00, 0, 100, "A", 0);
        bad_amount[3] = 0xAA;
        assert_eq!(parse_72(&with_len(bad_amount)), Err(status::NOT_A_VALID_AMOUNT));
    }

    #[test]
    fn replies_carry_the_transfer_and_the_credit() {
        let s = Snapshot {
            credit: 12_345,
            credit_limit: 100_000,
            asset_number: 0x0102_0304,
            idle: true,
            aft_in: crate::snapshot::Counted { cents: 9_000, count: 2 },
            ..Snapshot::default()
        };
        let t = Transfer { id: "T1".into(), kind: IN_HOUSE_TO_EGM, cents: 2_500, status: status::FULL, at: 1_795_802_179, journaled: true };
        let r = reply_72(Some(&t), &s);
        assert_eq!(usize::from(r[0]), r.len() - 1);
        assert_eq!(&r[1..5], [0x00, 0x00, 0x00, 0x00]);
        assert_eq!(bcd::decode(&r[5..10]), Ok(2_500));
        assert_eq!(&r[21..25], [0x04, 0x03, 0x02, 0x01], "the asset, little-endian");
        assert_eq!(&r[25..28], [2, b'T', b'1']);
        assert_eq!(bcd::decode(&r[42..47]), Ok(9_000), "the cumulative AFT-in meter");
        assert_eq!(reply_72(None, &s), [0x02, 0x00, 0xFF]);
        let l = reply_74(true, &s);
        assert_eq!(&l[5..7], [0x00, 0x03], "locked, both ways available");
        assert_eq!(bcd::decode(&l[10..15]), Ok(12_345));
        assert_eq!(bcd::decode(&l[25..30]), Ok(87_655), "the transfer limit: what the credit can still take");
    }
}
