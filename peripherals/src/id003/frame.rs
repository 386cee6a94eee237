//! An ID-003 frame: `SYNC LNG CMD DATA… CRCL CRCH`. LNG counts every byte
//! of the frame, SYNC and CRC included (5 bytes with no data, at most 255);
//! the CRC is CRC-16/KERMIT (polynomial 0x1021 reflected, initial value 0)
//! over SYNC, LNG, CMD and DATA, sent low byte first.

use crc::{CRC_16_KERMIT, Crc};

/// The first byte of every frame.
pub const SYNC: u8 = 0xFC;

/// A frame's bytes besides its data: SYNC, LNG, CMD and the two of the CRC.
pub const OVERHEAD: usize = 5;

/// The most data a frame carries (LNG is one byte).
pub const MAX_DATA: usize = 255 - OVERHEAD;

const KERMIT: Crc<u16> = Crc::<u16>::new(&CRC_16_KERMIT);

/// One frame: its command (controller to acceptor) or status (acceptor to
/// controller) byte and its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub code: u8,
    pub data: Vec<u8>,
}

/// What is wrong with bytes read as a frame. No protocol step is ever
/// taken on a frame that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("a frame opens with SYNC 0xFC, not {0:#04x}")]
    NoSync(u8),
    #[error("a frame's length byte says {0}: a frame is 5 to 255 bytes")]
    BadLength(u8),
    #[error("the frame is cut short: {have} of its {length} bytes")]
    Truncated { have: usize, length: usize },
    #[error("the frame's CRC reads {read:#06x}, its bytes give {computed:#06x}")]
    BadCrc { read: u16, computed: u16 },
    #[error("{0} bytes of data do not fit a frame (at most 250)")]
    TooLong(usize),
}

/// CRC-16/KERMIT of `bytes`.
pub fn crc(bytes: &[u8]) -> u16 {
    KERMIT.checksum(bytes)
}

impl Frame {
    pub fn new(code: u8, data: impl Into<Vec<u8>>) -> Result<Frame, FrameError> {
        let data = data.into();
        if data.len() > MAX_DATA {
            return Err(FrameError::TooLong(data.len()));
        }
        Ok(Frame { code, data })
    }

    /// A frame with no data.
    pub fn bare(code: u8) -> Frame {
        Frame { code, data: Vec::new() }
    }

    /// The frame's bytes on the wire.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.data.len() + OVERHEAD);
        bytes.push(SYNC);
        // `new` bounds the data, and a `Frame` built by hand with more is
        // cut to what its length byte can say rather than wrapping.
        let data = &self.data[..self.data.len().min(MAX_DATA)];
        bytes.push(u8::try_from(data.len() + OVERHEAD).unwrap_or(u8::MAX));
        bytes.push(self.code);
        bytes.extend_from_slice(data);
        let crc = crc(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Read one frame at the start of `bytes`: the frame and how many
    /// bytes it took. A frame still arriving is `Truncated` (read more and
    /// try again); anything else that does not read is an error naming it.
    pub fn decode(bytes: &[u8]) -> Result<(Frame, usize), FrameError> {
        let (&sync, rest) = bytes.split_first().ok_or(FrameError::Truncated { have: 0, length: OVERHEAD })?;
        if sync != SYNC {
            return Err(FrameError::NoSync(sync));
        }
        let &lng = rest.first().ok_or(FrameError::Truncated { have: 1, length: OVERHEAD })?;
        let length = usize::from(lng);
        if length < OVERHEAD {
            return Err(FrameError::BadLength(lng));
        }
        let frame = bytes.get(..length).ok_or(FrameError::Truncated { have: bytes.len(), length })?;
        let (body, tail) = frame.split_at(length - 2);
        let read = u16::from_le_bytes([tail[0], tail[1]]);
        let computed = crc(body);
        if read != computed {
            return Err(FrameError::BadCrc { read, computed });
        }
        Ok((Frame { code: body[2], data: body[3..].to_vec() }, length))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The check value of CRC-16/KERMIT (the catalogue's "123456789").
    #[test]
    fn the_crc_is_kermit() {
        assert_eq!(crc(b"123456789"), 0x2189);
    }

    /// Frames as the protocol's public descriptions print them: the status
    /// request a controller polls with, a reset and an ACK, each with its
    /// CRC low byte first.
    #[test]
    fn frames_encode_as_the_protocol_prints_them() {
        assert_eq!(Frame::bare(0x11).encode(), [0xFC, 0x05, 0x11, 0x27, 0x56]);
        assert_eq!(Frame::bare(0x40).encode(), [0xFC, 0x05, 0x40, 0x2B, 0x15]);
        assert_eq!(Frame::bare(0x50).encode(), [0xFC, 0x05, 0x50, 0xAA, 0x05]);
    }

    #[test]
    fn bad_frames_are_named() {
        assert_eq!(Frame::decode(&[0x00, 0x05, 0x11, 0x27, 0x56]), Err(FrameError::NoSync(0x00)));
        assert_eq!(Frame::decode(&[0xFC, 0x04, 0x11, 0x27]), Err(FrameError::BadLength(4)));
        assert_eq!(Frame::decode(&[0xFC, 0x05, 0x11, 0x27]), Err(FrameError::Truncated { have: 4, length: 5 }));
        assert_eq!(Frame::decode(&[0xFC, 0x05, 0x11, 0x27, 0x57]), Err(FrameError::BadCrc { read: 0x5727, computed: 0x5627 }));
        assert_eq!(Frame::decode(&[]), Err(FrameError::Truncated { have: 0, length: 5 }));
        assert_eq!(Frame::new(0x13, vec![0; 251]), Err(FrameError::TooLong(251)));
    }

    proptest! {
        /// Every frame reads back as itself, taking exactly its bytes, and
        /// any one byte of it changed (its length byte apart, whose
        /// changes are the named length errors) is never read as a frame:
        /// CRC-16 finds every error of one byte.
        #[test]
        fn frames_read_back_and_a_changed_byte_never_passes(code: u8, data in proptest::collection::vec(any::<u8>(), 0..=MAX_DATA), at: usize, flip in 1u8..=255) {
            let frame = Frame::new(code, data).unwrap();
            let mut bytes = frame.encode();
            bytes.extend_from_slice(&[SYNC, 0x05]);
            let n = bytes.len() - 2;
            prop_assert_eq!(Frame::decode(&bytes), Ok((frame.clone(), n)));
            let at = match at % n { 1 => 0, at => at };
            bytes[at] ^= flip;
            if let Ok((other, _)) = Frame::decode(&bytes) {
                prop_assert!(false, "byte {} changed, still read as {:?}", at, other);
            }
        }
    }
}
