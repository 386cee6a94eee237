//! What a cabinet and the controller's service say to each other (issue
//! 46): one request, one answer, each a frame — its length in four bytes
//! (big-endian), then JSON. A request longer than [`MAX_REQUEST`] is never
//! read: the service closes the connection.

use std::io::{Read, Write};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use meters::Cents;

use crate::claim::Claimed;
use crate::commit::ReelBet;
use crate::controller::{LinkedAward, LinkedLevel, Outcome};

/// The longest request the service reads.
pub const MAX_REQUEST: usize = 64 * 1024;
/// The longest answer a cabinet reads.
pub const MAX_ANSWER: usize = 1024 * 1024;
/// The most contributions one request may carry.
pub const MAX_ROWS: usize = 1000;

/// A cabinet's request. Who the cabinet is comes from its certificate,
/// never from a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Request {
    /// Contributions (round, wager in cents) of this cabinet's journal epoch.
    Contribute { pool: String, epoch: String, rows: Vec<(u64, Cents)> },
    /// The award of `level` for `round`, with the round's committed outcome.
    Award { pool: String, epoch: String, round: u64, level: usize, outcome: String },
    /// Issue 46: commit this cabinet's next round before it is drawn: the
    /// SHA-256 of its key (hex) and its bet; answered its nonce.
    Commit { pool: String, epoch: String, round: u64, commitment: String, bet: ReelBet },
    /// Issue 46: the award of `level` for a committed round, revealing its
    /// key (hex): the service draws the round again and judges it.
    Reveal { pool: String, epoch: String, round: u64, level: usize, key: String },
    /// A voided round: its contribution and awards taken back.
    Return { pool: String, epoch: String, round: u64 },
    /// Issue 46: the cabinet's own meter of what it owed the pool in this
    /// epoch, from its journal (reconciled by the operator's report).
    Meter { pool: String, epoch: String, meter: crate::reconcile::CabinetMeter },
    /// The levels now (the heartbeat).
    Levels { pool: String },
    /// The latest awards, newest first.
    LastAwards { pool: String, n: u32 },
    /// From now on this connection carries only [`Answer::Awarded`] (M-22)
    /// and [`Answer::Alive`] each second.
    Watch,
}

/// The service's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    Contributed(Vec<(u64, Outcome)>),
    /// A committed round's nonce (hex).
    Nonce(String),
    Claimed(Claimed),
    Returned(Cents),
    /// A meter recorded.
    Recorded,
    Levels(Vec<LinkedLevel>),
    LastAwards(Vec<LinkedAward>),
    /// A pool had an award (M-22), on a watching connection.
    Awarded(String),
    /// A watching connection's heartbeat.
    Alive,
    /// The controller refused the request, with its reason (logged there).
    Refused(String),
    /// The request could not be served now (the database, a limit): ask
    /// again later; nothing was done.
    Unavailable(String),
}

/// A frame that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("a frame of {0} bytes is over the limit of {1}")]
    TooLong(usize, usize),
    #[error("a frame is not a message of the protocol: {0}")]
    Malformed(String),
}

pub(crate) fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>, FrameError> {
    let body = serde_json::to_vec(message).map_err(|e| FrameError::Malformed(e.to_string()))?;
    let len = u32::try_from(body.len()).map_err(|_| FrameError::TooLong(body.len(), u32::MAX as usize))?;
    let mut frame = Vec::with_capacity(body.len() + 4);
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(&body);
    Ok(frame)
}

pub(crate) fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, FrameError> {
    serde_json::from_slice(body).map_err(|e| FrameError::Malformed(crate::service::prefix(&e.to_string(), 200)))
}

/// Write one frame (a cabinet).
pub(crate) fn write_frame<T: Serialize>(w: &mut impl Write, message: &T) -> Result<(), FrameError> {
    w.write_all(&encode(message)?)?;
    w.flush()?;
    Ok(())
}

/// Read one frame of at most `max` bytes (a cabinet).
pub(crate) fn read_frame<T: DeserializeOwned>(r: &mut impl Read, max: usize) -> Result<T, FrameError> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len) as usize;
    if len > max {
        return Err(FrameError::TooLong(len, max));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    decode(&body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_its_length_then_json_and_reads_back() {
        let request = Request::Contribute { pool: "p".into(), epoch: "e".into(), rows: vec![(7, 300)] };
        let frame = encode(&request).unwrap();
        let body = br#"{"Contribute":{"pool":"p","epoch":"e","rows":[[7,300]]}}"#;
        assert_eq!(&frame[..4], &(body.len() as u32).to_be_bytes());
        assert_eq!(&frame[4..], body);
        assert_eq!(read_frame::<Request>(&mut &frame[..], MAX_REQUEST).unwrap(), request);
    }

    #[test]
    fn a_frame_over_the_limit_is_not_read_and_unknown_fields_are_refused() {
        let mut long = (MAX_REQUEST as u32 + 1).to_be_bytes().to_vec();
        long.extend(std::iter::repeat_n(b' ', 8));
        assert!(matches!(read_frame::<Request>(&mut &long[..], MAX_REQUEST), Err(FrameError::TooLong(n, MAX_REQUEST)) if n == MAX_REQUEST + 1));
        let machine = encode(&serde_json::json!({"Levels": {"pool": "p", "machine": "EGM-0002"}})).unwrap();
        assert!(matches!(read_frame::<Request>(&mut &machine[..], MAX_REQUEST), Err(FrameError::Malformed(_))));
    }
}
