//! What the floor tells the cabinet about its tickets (sas.md §6; issue
//! 71): LP 7B, the extended validation status (the floor reads which
//! ticket functions the cabinet has, and may ask to change them), and LP
//! 7D, the ticket data (the floor's host id, the tickets' expiry, the
//! location and address lines a ticket carries).
//!
//! Layouts [R: as a public SAS host library and the digest's neighbours
//! lay them out]: LP 7B `len control-mask(2 LE) status-bits(2 LE)
//! cashable-expiry(2 BCD days) restricted-expiry(2 BCD days)` → `len
//! asset(4 LE) status-bits(2 LE) cashable-expiry(2 BCD)
//! restricted-expiry(2 BCD)`; LP 7D `len [host-id(2 LE) expiry(1 days)
//! location-len location address1-len address1 address2-len address2]`
//! (each text at most 40 ASCII characters; a length 0 keeps the text) →
//! `flag` (01: the cabinet holds the floor's ticket data).

use crate::bcd;
use crate::snapshot::Snapshot;

/// LP 7B's status bits this cabinet can have.
pub mod bits {
    /// The printer is the cash-out device (cash-out tickets).
    pub const PRINTER_CASH_OUT: u16 = 1 << 0;
    /// Tickets are redeemed (LP 70/71).
    pub const TICKET_REDEMPTION: u16 = 1 << 5;
    /// Secure-enhanced validation is configured (LP 4C).
    pub const SECURE_ENHANCED: u16 = 1 << 15;
}

/// LP 7B's reply data. The status is what the cabinet's configuration
/// makes it: the floor's control mask asks for changes that only the
/// operator makes at the cabinet, so none is taken [R: a floor reads the
/// bits back and sees what holds]. The cashable tickets' expiry is the
/// days the cabinet prints on them (0000 when it prints none); restricted
/// tickets it does not print (0000).
pub fn reply_7b(s: &Snapshot) -> Vec<u8> {
    let mut status = bits::PRINTER_CASH_OUT | bits::TICKET_REDEMPTION;
    if s.secure_enhanced {
        status |= bits::SECURE_ENHANCED;
    }
    let mut out = vec![0x0A];
    out.extend(s.asset_number.to_le_bytes());
    out.extend(status.to_le_bytes());
    out.extend(bcd::encode(u64::from(s.ticket_expiry_days.min(9_999)), 2));
    out.extend(bcd::encode(0, 2));
    out
}

/// The ticket data LP 7D set: `None` for a text the floor left as it was.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TicketData {
    pub host_id: u16,
    /// Days before a ticket expires (0: never).
    pub expiry_days: u8,
    pub location: Option<String>,
    pub address1: Option<String>,
    pub address2: Option<String>,
}

/// LP 7D data the cabinet cannot read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadTicketData {
    #[error("LP 7D: a length runs past the frame")]
    Short,
    #[error("LP 7D: a text over 40 characters or not printable ASCII")]
    Text,
    #[error("LP 7D: bytes after the third text")]
    LeftOver,
}

/// LP 7D's request (its length byte first): `Ok(None)` for the query
/// (length 0).
pub fn parse_7d(data: &[u8]) -> Result<Option<TicketData>, BadTicketData> {
    let (&len, rest) = data.split_first().ok_or(BadTicketData::Short)?;
    let body = rest.get(..usize::from(len)).ok_or(BadTicketData::Short)?;
    if body.is_empty() {
        return Ok(None);
    }
    let host_id = u16::from_le_bytes([*body.first().ok_or(BadTicketData::Short)?, *body.get(1).ok_or(BadTicketData::Short)?]);
    let expiry_days = *body.get(2).ok_or(BadTicketData::Short)?;
    let mut at = 3;
    let mut text = || -> Result<Option<String>, BadTicketData> {
        let Some(&n) = body.get(at) else { return Ok(None) };
        let t = body.get(at + 1..at + 1 + usize::from(n)).ok_or(BadTicketData::Short)?;
        at += 1 + usize::from(n);
        if n > 40 || !t.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            return Err(BadTicketData::Text);
        }
        Ok((n > 0).then(|| String::from_utf8_lossy(t).into_owned()))
    };
    let (location, address1, address2) = (text()?, text()?, text()?);
    if at < body.len() {
        return Err(BadTicketData::LeftOver);
    }
    Ok(Some(TicketData { host_id, expiry_days, location, address1, address2 }))
}

/// An LP 7D request's data as a host builds it (length byte first).
pub fn request_7d(d: &TicketData) -> Vec<u8> {
    let mut out = vec![0];
    out.extend(d.host_id.to_le_bytes());
    out.push(d.expiry_days);
    for t in [&d.location, &d.address1, &d.address2] {
        let t = t.as_deref().unwrap_or("");
        out.push(u8::try_from(t.len()).unwrap_or(0));
        out.extend(t.bytes());
    }
    out[0] = u8::try_from(out.len() - 1).unwrap_or(0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lp_7b_says_what_the_cabinet_does() {
        let s = Snapshot { asset_number: 0x0102_0304, ..Snapshot::default() };
        assert_eq!(reply_7b(&s), [0x0A, 0x04, 0x03, 0x02, 0x01, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00]);
        let secure = Snapshot { secure_enhanced: true, ticket_expiry_days: 365, ..s };
        assert_eq!(&reply_7b(&secure)[5..], [0x21, 0x80, 0x03, 0x65, 0x00, 0x00], "secure-enhanced; tickets printed valid for 365 days");
    }

    #[test]
    fn lp_7d_reads_the_floors_ticket_data_and_refuses_what_it_cannot_print() {
        let d =
            TicketData { host_id: 0x1234, expiry_days: 30, location: Some("CASINO ESTORIL".into()), address1: None, address2: Some("2765-190 ESTORIL".into()) };
        let wire = request_7d(&d);
        assert_eq!(&wire[..4], [wire.len() as u8 - 1, 0x34, 0x12, 30]);
        assert_eq!(parse_7d(&wire), Ok(Some(d)));
        assert_eq!(parse_7d(&[0x00]), Ok(None), "the query");
        let long = TicketData { location: Some("X".repeat(41)), ..TicketData::default() };
        assert_eq!(parse_7d(&request_7d(&long)), Err(BadTicketData::Text), "over 40 characters");
        let mut bad = request_7d(&TicketData { location: Some("AB".into()), ..TicketData::default() });
        bad[5] = 0x07;
        assert_eq!(parse_7d(&bad), Err(BadTicketData::Text), "a control character");
        let mut extra = request_7d(&TicketData::default());
        extra.push(0x41);
        extra[0] += 1;
        assert_eq!(parse_7d(&extra), Err(BadTicketData::LeftOver), "bytes left over");
        assert_eq!(parse_7d(&[0x05, 0x01]), Err(BadTicketData::Short), "a length past the frame");
    }
}
