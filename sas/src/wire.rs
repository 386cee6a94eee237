//! The wire's byte grammar (sas.md §1.2, §1.7). A UART read with SPACE
//! parity and `INPCK | PARMRK` hands a byte whose 9th (wake-up) bit was set
//! as `FF 00 b`, a data byte `FF` as `FF FF`, every other byte as itself.
//! The test and lab transport over a pty writes exactly that grammar, so
//! one decoder serves both: an independent host drives the cabinet through
//! a pty by writing `FF 00 81` for a general poll to address 1.

/// One byte as the host sent it: its value and whether its wake-up bit
/// was set (the first byte of every host message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireByte {
    pub value: u8,
    pub wakeup: bool,
}

/// A marked stream that breaks the grammar (a line fault): the bytes
/// since the `FF` are dropped and decoding starts again.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("byte {0:#04x} after FF is neither FF (a data FF) nor 00 (a wake-up mark)")]
pub struct Unmarked(pub u8);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Plain,
    /// An `FF` was read.
    Escape,
    /// `FF 00` was read: the next byte carries the wake-up bit.
    Marked,
}

/// The decoder: bytes in as the transport reads them, host bytes out.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    state: State,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// The next read byte: a host byte when one is complete.
    pub fn push(&mut self, read: u8) -> Result<Option<WireByte>, Unmarked> {
        match (self.state, read) {
            (State::Plain, 0xFF) => {
                self.state = State::Escape;
                Ok(None)
            }
            (State::Plain, value) => Ok(Some(WireByte { value, wakeup: false })),
            (State::Escape, 0xFF) => {
                self.state = State::Plain;
                Ok(Some(WireByte { value: 0xFF, wakeup: false }))
            }
            (State::Escape, 0x00) => {
                self.state = State::Marked;
                Ok(None)
            }
            (State::Escape, other) => {
                self.state = State::Plain;
                Err(Unmarked(other))
            }
            (State::Marked, value) => {
                self.state = State::Plain;
                Ok(Some(WireByte { value, wakeup: true }))
            }
        }
    }
}

/// `byte` in the marked grammar (what a host writes into the test
/// transport; the cabinet's replies carry no wake-up bit).
pub fn mark(byte: WireByte) -> Vec<u8> {
    match (byte.wakeup, byte.value) {
        (true, v) => vec![0xFF, 0x00, v],
        (false, 0xFF) => vec![0xFF, 0xFF],
        (false, v) => vec![v],
    }
}

/// A host message in the marked grammar: the wake-up bit on its first
/// byte only.
pub fn mark_message(bytes: &[u8]) -> Vec<u8> {
    bytes.iter().enumerate().flat_map(|(i, &value)| mark(WireByte { value, wakeup: i == 0 })).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(read: &[u8]) -> Vec<WireByte> {
        let mut d = Decoder::new();
        read.iter().filter_map(|b| d.push(*b).expect("well marked")).collect()
    }

    #[test]
    fn the_parmrk_grammar_reads_as_the_host_sent_it() {
        // sas.md §1.7: the master wrote 81 FF 00 01; the slave read the
        // data FF doubled. A general poll to address 1 with its wake-up bit.
        assert_eq!(decode_all(&[0xFF, 0x00, 0x81]), [WireByte { value: 0x81, wakeup: true }]);
        assert_eq!(
            decode_all(&[0x01, 0xFF, 0xFF, 0x00]),
            [WireByte { value: 0x01, wakeup: false }, WireByte { value: 0xFF, wakeup: false }, WireByte { value: 0x00, wakeup: false }]
        );
        // A wake-up FF and a wake-up 00 (a break reads so: IGNBRK is set).
        assert_eq!(decode_all(&[0xFF, 0x00, 0xFF]), [WireByte { value: 0xFF, wakeup: true }]);
        assert_eq!(decode_all(&[0xFF, 0x00, 0x00]), [WireByte { value: 0x00, wakeup: true }]);
        let mut d = Decoder::new();
        assert_eq!(d.push(0xFF), Ok(None));
        assert_eq!(d.push(0x12), Err(Unmarked(0x12)));
        assert_eq!(d.push(0x12), Ok(Some(WireByte { value: 0x12, wakeup: false })), "decoding starts again");
    }

    /// Every message of every byte value round-trips through the marked
    /// grammar, its first byte alone marked.
    #[test]
    fn every_message_round_trips() {
        for first in 0..=255u8 {
            for second in [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF] {
                let message = [first, second, 0xFF, first];
                let read = decode_all(&mark_message(&message));
                assert_eq!(read.iter().map(|b| b.value).collect::<Vec<_>>(), message);
                assert_eq!(read.iter().map(|b| b.wakeup).collect::<Vec<_>>(), [true, false, false, false]);
            }
        }
    }
}
