//! What TCL's messages say (issue 70): the cabinet's commands, each
//! `^`-opened and `|^`-closed ASCII, and the printer's status answer,
//! `*S|…|*`, whose five flag bytes are binary (bit 6 always set, so a
//! flag is never a control character).
//!
//! | command            | bytes                         |
//! |--------------------|-------------------------------|
//! | status request     | `^S|^`                        |
//! | clear the flags    | `^C|^`                        |
//! | clear a paper jam  | `^C|j|^`                      |
//! | reset              | `^r|^`                        |
//! | print a template   | `^P|<template>|<copies>|<field>|…|^` |
//!
//! The status answer: `*S|<unit>|<software version>|f1|f2|f3|f4|f5|<extra>|*`.

/// Why bytes are not a TCL message, or a print's field cannot be sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("TCL: the message is not complete ({have} bytes so far)")]
    Truncated { have: usize },
    #[error("TCL: a message must open with {expected:?}, not byte {found:#04x}")]
    Opening { expected: char, found: u8 },
    #[error("TCL: unknown command {0:?}")]
    UnknownCommand(String),
    #[error("TCL: the status answer's flag byte {index} is {byte:#04x}, without the bit every flag byte carries (0x40)")]
    FlagByte { index: usize, byte: u8 },
    #[error("TCL: the status answer is malformed: {0}")]
    Malformed(&'static str),
    #[error("TCL: print field {index} ({field:?}) cannot be printed: {reason}")]
    Field { index: usize, field: String, reason: &'static str },
    #[error("TCL: template {0:?} is not a template name (one of 0-9, A-Z)")]
    Template(char),
}

/// A print: the printer's template `template` filled with `fields`, in
/// the order of its regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Print {
    pub template: char,
    pub fields: Vec<String>,
}

/// What the cabinet sends the printer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Status,
    ClearFlags,
    ClearJam,
    Reset,
    /// One copy of a template (a ticket is never printed in copies).
    Print(Print),
}

/// A field's text as TCL carries it: printable ASCII, none of the three
/// bytes that delimit messages.
fn check_field(index: usize, field: &str) -> Result<(), MessageError> {
    let refuse = |reason| Err(MessageError::Field { index, field: field.to_owned(), reason });
    if field.len() > 64 {
        return refuse("longer than a region's 64 characters");
    }
    if !field.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        return refuse("not printable ASCII");
    }
    if field.contains(['|', '^', '*']) {
        return refuse("it holds one of TCL's delimiters | ^ *");
    }
    Ok(())
}

impl Print {
    /// A print, its fields checked.
    pub fn new(template: char, fields: Vec<String>) -> Result<Print, MessageError> {
        if !(template.is_ascii_digit() || template.is_ascii_uppercase()) {
            return Err(MessageError::Template(template));
        }
        for (i, f) in fields.iter().enumerate() {
            check_field(i, f)?;
        }
        Ok(Print { template, fields })
    }
}

impl Command {
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Command::Status => b"^S|^".to_vec(),
            Command::ClearFlags => b"^C|^".to_vec(),
            Command::ClearJam => b"^C|j|^".to_vec(),
            Command::Reset => b"^r|^".to_vec(),
            Command::Print(p) => {
                let mut out = format!("^P|{}|1|", p.template);
                for f in &p.fields {
                    out.push_str(f);
                    out.push('|');
                }
                out.push('^');
                out.into_bytes()
            }
        }
    }

    /// The first command in `bytes` and how many bytes it took (the
    /// printer's side).
    pub fn decode(bytes: &[u8]) -> Result<(Command, usize), MessageError> {
        let Some(&first) = bytes.first() else { return Err(MessageError::Truncated { have: 0 }) };
        if first != b'^' {
            return Err(MessageError::Opening { expected: '^', found: first });
        }
        // The message ends at the first `|^` after its opening.
        let end = bytes.windows(2).skip(1).position(|w| w == b"|^").map(|p| p + 1 + 2).ok_or(MessageError::Truncated { have: bytes.len() })?;
        let text = String::from_utf8_lossy(&bytes[1..end - 2]);
        let parts: Vec<&str> = text.split('|').collect();
        let command = match parts[..] {
            ["S"] => Command::Status,
            ["C"] => Command::ClearFlags,
            ["C", "j"] => Command::ClearJam,
            ["r"] => Command::Reset,
            ["P", template, _copies, ref fields @ ..] => {
                let mut chars = template.chars();
                let (Some(t), None) = (chars.next(), chars.next()) else { return Err(MessageError::UnknownCommand(text.into_owned())) };
                Command::Print(Print::new(t, fields.iter().map(|f| (*f).to_owned()).collect())?)
            }
            _ => return Err(MessageError::UnknownCommand(text.into_owned())),
        };
        Ok((command, end))
    }
}

/// One flag of the status answer: its byte (0 to 4) and bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    Busy,
    SystemError,
    /// The print head's platen is up (the printer opened).
    PlatenUp,
    PaperOut,
    HeadError,
    VoltageError,
    TemperatureError,
    /// The last command was not understood.
    CommandError,
    /// A printed ticket waits in the chute for the player.
    PaperInChute,
    Offline,
    PaperJam,
    PaperLow,
    /// The last print's validation number (its barcode) is on paper.
    ValidationDone,
    TopOfForm,
    PrinterOpen,
    /// The printer was reset or powered up since its flags were cleared.
    PowerUp,
}

impl Flag {
    pub const ALL: [Flag; 16] = [
        Flag::Busy,
        Flag::SystemError,
        Flag::PlatenUp,
        Flag::PaperOut,
        Flag::HeadError,
        Flag::VoltageError,
        Flag::TemperatureError,
        Flag::CommandError,
        Flag::PaperInChute,
        Flag::Offline,
        Flag::PaperJam,
        Flag::PaperLow,
        Flag::ValidationDone,
        Flag::TopOfForm,
        Flag::PrinterOpen,
        Flag::PowerUp,
    ];

    /// (flag byte, bit).
    const fn place(self) -> (usize, u8) {
        match self {
            Flag::Busy => (0, 0x20),
            Flag::SystemError => (0, 0x10),
            Flag::PlatenUp => (0, 0x08),
            Flag::PaperOut => (0, 0x04),
            Flag::HeadError => (0, 0x02),
            Flag::VoltageError => (0, 0x01),
            Flag::TemperatureError => (1, 0x20),
            Flag::CommandError => (2, 0x20),
            Flag::PaperInChute => (2, 0x08),
            Flag::Offline => (2, 0x02),
            Flag::PaperJam => (3, 0x20),
            Flag::PaperLow => (3, 0x01),
            Flag::ValidationDone => (4, 0x20),
            Flag::TopOfForm => (4, 0x10),
            Flag::PrinterOpen => (4, 0x04),
            Flag::PowerUp => (4, 0x01),
        }
    }
}

/// The bit every flag byte carries.
const FLAG_BYTE: u8 = 0x40;

/// The printer's status answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub version: String,
    flags: [u8; 5],
}

impl Status {
    /// A status with none of its flags set.
    pub fn new(version: &str) -> Status {
        Status { version: version.to_owned(), flags: [FLAG_BYTE; 5] }
    }

    pub fn has(&self, flag: Flag) -> bool {
        let (byte, bit) = flag.place();
        self.flags[byte] & bit != 0
    }

    pub fn set(&mut self, flag: Flag, on: bool) {
        let (byte, bit) = flag.place();
        if on {
            self.flags[byte] |= bit;
        } else {
            self.flags[byte] &= !bit;
        }
    }

    /// The flags set, by name (for a log line or an error).
    pub fn flags(&self) -> Vec<Flag> {
        Flag::ALL.into_iter().filter(|f| self.has(*f)).collect()
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = format!("*S|0|{}|", self.version).into_bytes();
        for f in self.flags {
            out.push(f);
            out.push(b'|');
        }
        out.extend_from_slice(b"P0|*");
        out
    }

    /// The status answer at the start of `bytes`, and its length. Its
    /// flags are read by position (a flag byte may be `|`).
    pub fn decode(bytes: &[u8]) -> Result<(Status, usize), MessageError> {
        let Some(&first) = bytes.first() else { return Err(MessageError::Truncated { have: 0 }) };
        if first != b'*' {
            return Err(MessageError::Opening { expected: '*', found: first });
        }
        let truncated = MessageError::Truncated { have: bytes.len() };
        if bytes.len() < 3 {
            return Err(truncated);
        }
        if &bytes[1..3] != b"S|" {
            return Err(MessageError::Malformed("it is not a status answer (*S|)"));
        }
        // The unit's address and the software version: text up to `|`.
        let mut at = 3;
        let text_field = |at: &mut usize| -> Result<String, MessageError> {
            let len = bytes[*at..].iter().position(|&b| b == b'|').ok_or(MessageError::Truncated { have: bytes.len() })?;
            let field = &bytes[*at..*at + len];
            if len > 32 || !field.iter().all(|b| (0x20..0x7F).contains(b)) {
                return Err(MessageError::Malformed("a text field is not printable ASCII"));
            }
            *at += len + 1;
            Ok(String::from_utf8_lossy(field).into_owned())
        };
        let _unit = text_field(&mut at)?;
        let version = text_field(&mut at)?;
        let mut flags = [0u8; 5];
        for (i, f) in flags.iter_mut().enumerate() {
            let (Some(&byte), Some(&bar)) = (bytes.get(at), bytes.get(at + 1)) else { return Err(truncated) };
            if byte & FLAG_BYTE == 0 || byte >= 0x80 {
                return Err(MessageError::FlagByte { index: i + 1, byte });
            }
            if bar != b'|' {
                return Err(MessageError::Malformed("the flag bytes are not separated by |"));
            }
            *f = byte;
            at += 2;
        }
        // The last field, then `*`.
        let _extra = text_field(&mut at)?;
        match bytes.get(at) {
            Some(b'*') => Ok((Status { version, flags }, at + 1)),
            Some(_) => Err(MessageError::Malformed("it does not end with |*")),
            None => Err(truncated),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_written_as_the_table_says_and_read_back() {
        let print = Command::Print(Print::new('0', vec!["001234567890123456".into(), "20,00 EUR".into(), String::new()]).unwrap());
        let cases: [(Command, &[u8]); 5] = [
            (Command::Status, b"^S|^"),
            (Command::ClearFlags, b"^C|^"),
            (Command::ClearJam, b"^C|j|^"),
            (Command::Reset, b"^r|^"),
            (print, b"^P|0|1|001234567890123456|20,00 EUR||^"),
        ];
        for (command, bytes) in cases {
            assert_eq!(command.encode(), bytes);
            // Read back, with the next command after it.
            let stream = [bytes, b"^S|^"].concat();
            assert_eq!(Command::decode(&stream), Ok((command, bytes.len())));
        }
        assert_eq!(Command::decode(b"^S|"), Err(MessageError::Truncated { have: 3 }));
        assert_eq!(Command::decode(b"^Z|^"), Err(MessageError::UnknownCommand("Z".into())));
    }

    #[test]
    fn a_field_tcl_cannot_carry_is_refused_by_name() {
        for (field, reason) in [("10|00", "delimiters"), ("a^b", "delimiters"), ("três", "ASCII"), ("a\nb", "ASCII")] {
            let e = Print::new('0', vec!["ok".into(), field.into()]).unwrap_err().to_string();
            assert!(e.contains("print field 1") && e.contains(reason), "{field}: {e}");
        }
        assert!(Print::new('0', vec!["x".repeat(65)]).is_err());
        assert_eq!(Print::new('a', vec![]), Err(MessageError::Template('a')));
    }

    #[test]
    fn each_flag_is_its_own_bit_and_survives_the_line() {
        for flag in Flag::ALL {
            let mut s = Status::new("EGM-EMU-1.0");
            s.set(flag, true);
            assert_eq!(s.flags(), [flag]);
            let bytes = s.encode();
            assert_eq!(Status::decode(&bytes), Ok((s, bytes.len())));
        }
        // Every flag of byte 1 at once makes the byte `|` (0x7C), read by
        // its place.
        let mut s = Status::new("V");
        for f in [Flag::Busy, Flag::SystemError, Flag::PlatenUp, Flag::PaperOut] {
            s.set(f, true);
        }
        let bytes = s.encode();
        assert_eq!(bytes[7], b'|');
        assert_eq!(Status::decode(&bytes).unwrap().0, s);
    }

    #[test]
    fn a_status_answer_that_does_not_read_is_named() {
        let good = Status::new("V").encode();
        for cut in 0..good.len() {
            assert!(matches!(Status::decode(&good[..cut]), Err(MessageError::Truncated { .. })), "cut at {cut}");
        }
        let mut no_bit = good.clone();
        no_bit[7] = 0x20;
        assert_eq!(Status::decode(&no_bit), Err(MessageError::FlagByte { index: 1, byte: 0x20 }));
        assert!(matches!(Status::decode(b"#S|0|V|"), Err(MessageError::Opening { expected: '*', found: b'#' })));
        let mut bad_end = good.clone();
        let last = bad_end.len() - 1;
        bad_end[last] = b'#';
        assert_eq!(Status::decode(&bad_end), Err(MessageError::Malformed("it does not end with |*")));
    }
}
