//! AFT registration (LP 73, sas.md §7; issue 71): a floor registers the
//! cabinet before it transfers with a registration key. The floor
//! initialises a registration (code 00: the cabinet is "ready"), then
//! registers it under the cabinet's own asset number with its 20-byte key
//! and point-of-sale id (01: "registered"); it may ask for an operator's
//! acknowledgement at the cabinet first (40: "pending" until the operator
//! acknowledges, then ready, exception 6D), cancel it (80: "not
//! registered", 6E) or read it (FF). An operator at the cabinet may ask the
//! floor to register it (6C).
//!
//! What the floor asked is worked out here ([`next`]); the game host
//! journals the change in the core before the floor is answered (the port
//! says nothing until then, as for a transfer), so a power cut neither
//! loses a registration nor revives a cancelled one.
//!
//! Layouts [R: the digest's field list]: request `len code` (read,
//! initialise, acknowledge, cancel) or `len code asset(4 LE) key(20)
//! pos-id(4 LE)` (register); reply `len(1D) status asset(4 LE) key(20)
//! pos-id(4 LE)`.

/// The registration's statuses on the wire.
pub mod status {
    pub const READY: u8 = 0x00;
    pub const REGISTERED: u8 = 0x01;
    pub const PENDING: u8 = 0x40;
    pub const NOT_REGISTERED: u8 = 0x80;
}

/// The cabinet's registration as the core keeps it, in the wire's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registration {
    pub status: u8,
    /// The asset number registered under (0 unless registered).
    pub asset: u32,
    pub key: [u8; 20],
    pub pos_id: u32,
}

impl Default for Registration {
    fn default() -> Registration {
        Registration { status: status::NOT_REGISTERED, asset: 0, key: [0; 20], pos_id: 0 }
    }
}

impl Registration {
    fn bare(status: u8) -> Registration {
        Registration { status, ..Registration::default() }
    }

    pub fn registered(&self) -> bool {
        self.status == status::REGISTERED
    }
}

/// Whether two registration keys are the same, compared in constant time
/// (the key is the floor host's credential for its transfers).
pub fn same_key(a: &[u8; 20], b: &[u8; 20]) -> bool {
    a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// What LP 73 asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    Read,
    Initialise,
    Register { asset: u32, key: [u8; 20], pos_id: u32 },
    OperatorAcknowledgement,
    Cancel,
}

/// LP 73's request (its length byte first); `None` for one malformed (no
/// reply, as for any poll this cabinet cannot read).
pub fn parse_73(data: &[u8]) -> Option<Request> {
    let (&len, rest) = data.split_first()?;
    let body = rest.get(..usize::from(len))?;
    Some(match *body.first()? {
        0xFF => Request::Read,
        0x00 => Request::Initialise,
        0x40 => Request::OperatorAcknowledgement,
        0x80 => Request::Cancel,
        0x01 => {
            let asset = u32::from_le_bytes(body.get(1..5)?.try_into().ok()?);
            let key: [u8; 20] = body.get(5..25)?.try_into().ok()?;
            let pos_id = u32::from_le_bytes(body.get(25..29)?.try_into().ok()?);
            Request::Register { asset, key, pos_id }
        }
        _ => return None,
    })
}

/// The registration after `request`, from `current`, on a cabinet whose
/// asset number is `asset`: a registration under another asset number (or
/// none: 0), or one the floor did not initialise, leaves it as it is (and
/// the floor reads why from the status it gets back).
pub fn next(current: &Registration, request: &Request, asset: u32) -> Registration {
    match *request {
        Request::Read => *current,
        Request::Initialise => Registration::bare(status::READY),
        Request::OperatorAcknowledgement => Registration::bare(status::PENDING),
        Request::Cancel => Registration::default(),
        Request::Register { asset: asked, key, pos_id } => {
            if asked == asset && asset != 0 && matches!(current.status, status::READY | status::REGISTERED) {
                Registration { status: status::REGISTERED, asset, key, pos_id }
            } else {
                *current
            }
        }
    }
}

/// LP 73's reply data: the status, the asset number (the cabinet's while
/// not registered), the key and the point of sale.
pub fn reply_73(r: &Registration, cabinet_asset: u32) -> Vec<u8> {
    let asset = if r.registered() { r.asset } else { cabinet_asset };
    let mut out = vec![0x1D, r.status];
    out.extend(asset.to_le_bytes());
    out.extend(r.key);
    out.extend(r.pos_id.to_le_bytes());
    out
}

/// An LP 73 request's data as a host builds it: `code` alone, or with
/// the asset, key and point of sale for a registration (01).
pub fn request_73(code: u8, asset: u32, key: [u8; 20], pos_id: u32) -> Vec<u8> {
    if code != 0x01 {
        return vec![0x01, code];
    }
    let mut d = vec![0x1D, code];
    d.extend(asset.to_le_bytes());
    d.extend(key);
    d.extend(pos_id.to_le_bytes());
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cabinet_is_registered_under_its_own_asset_number_after_the_floor_initialised_it() {
        let none = Registration::default();
        let key = [0x5A; 20];
        let register = |asset| parse_73(&request_73(0x01, asset, key, 31)).unwrap();
        assert_eq!(register(4242), Request::Register { asset: 4242, key, pos_id: 31 });
        assert_eq!(next(&none, &register(4242), 4242), none, "not before the floor initialised it");
        let ready = next(&none, &parse_73(&request_73(0x00, 0, [0; 20], 0)).unwrap(), 4242);
        assert_eq!(ready.status, status::READY);
        assert_eq!(next(&ready, &register(4243), 4242), ready, "another cabinet's asset number");
        assert_eq!(next(&Registration::bare(status::READY), &register(0), 0), Registration::bare(status::READY), "a cabinet with no asset number");
        let registered = next(&ready, &register(4242), 4242);
        assert_eq!(registered, Registration { status: status::REGISTERED, asset: 4242, key, pos_id: 31 });
        assert_eq!(next(&registered, &Request::Read, 4242), registered);
        assert_eq!(next(&registered, &parse_73(&[0x01, 0x80]).unwrap(), 4242), none, "cancelled");
        assert_eq!(next(&registered, &parse_73(&[0x01, 0x40]).unwrap(), 4242).status, status::PENDING);

        let reply = reply_73(&registered, 4242);
        assert_eq!(reply.len(), 30);
        assert_eq!(&reply[..6], [0x1D, 0x01, 0x92, 0x10, 0x00, 0x00], "length, registered, 4242 little-endian");
        assert_eq!(&reply[6..26], key);
        assert_eq!(&reply[26..], [31, 0, 0, 0]);
        assert_eq!(&reply_73(&none, 4242)[..6], [0x1D, 0x80, 0x92, 0x10, 0x00, 0x00], "the cabinet's asset while not registered");
        assert_eq!(parse_73(&[0x01, 0x01]), None, "a registration without its fields");
        assert_eq!(parse_73(&[0x01, 0x02]), None, "an unknown code");
    }
}
