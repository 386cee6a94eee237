//! Which journal records the floor is told of, as SAS exceptions (sas.md
//! §3; issue 48). Every event a floor cares about maps to its code here
//! and nowhere else; the table is in the README. A record maps to
//! nothing when the floor has no code for it (an anchor, a note refused).
//! Codes the digest marks [R] are chosen as a real host expects and said
//! so in the README.

use meters::{AcceptorFault, Door, Entry, PrinterFault, Record, Tilt};
use sas::exceptions::Exception;

/// What a mapping needs besides the record: the accounting denomination
/// (a real-time event's credits) and the coin-in meter now (7E's data).
pub(crate) struct Context {
    pub accounting_denom: u64,
    pub coin_in: u64,
}

impl Context {
    fn credits(&self, cents: u64) -> u64 {
        cents.checked_div(self.accounting_denom).unwrap_or(0)
    }
}

/// The exception codes of a door opening and closing.
fn door_codes(door: Door) -> (u8, u8) {
    match door {
        // Slot (main) door.
        Door::Main => (0x11, 0x12),
        // The logic door: the card cage.
        Door::Logic => (0x15, 0x16),
        // The cash box door (the drop door holds the cash box).
        Door::CashBox => (0x19, 0x1A),
        // The stacker is the cash box itself: removed and installed.
        Door::Stacker => (0x1B, 0x1C),
        Door::Belly => (0x1D, 0x1E),
        // A top box has no code of its own: the drop door's pair [R].
        Door::TopBox => (0x13, 0x14),
    }
}

/// The legacy "bill accepted" code of a note value ($1 47, $5 48, $10 49,
/// $20 4A, $50 4B, $100 4C, $2 4D, $500 4E, $200 50); any other value 4F
/// [R: the table as recalled].
fn bill_code(cents: u64) -> u8 {
    match cents {
        100 => 0x47,
        500 => 0x48,
        1_000 => 0x49,
        2_000 => 0x4A,
        5_000 => 0x4B,
        10_000 => 0x4C,
        200 => 0x4D,
        50_000 => 0x4E,
        20_000 => 0x50,
        _ => 0x4F,
    }
}

/// The exceptions of one journal record, in the order they happened.
pub(crate) fn of(record: &Record, cx: &Context) -> Vec<Exception> {
    let seq = record.seq;
    let one = |code: u8| vec![Exception::new(code, seq)];
    match &record.entry {
        // A power-up after a cut that left no power-down record: the loss
        // is told first (18), then the power applied (17).
        Entry::PowerUp { unclean_shutdown: true, .. } => vec![Exception::new(0x18, seq), Exception::new(0x17, seq)],
        Entry::PowerUp { .. } => one(0x17),
        Entry::PowerDown => one(0x18),
        Entry::DoorOpened { door } => one(door_codes(*door).0),
        Entry::DoorClosed { door } => one(door_codes(*door).1),
        // A note accepted: its code, with RTE's data (country code,
        // bill code, the count is not kept per event: 0) [R].
        Entry::NoteIn { value } => {
            let data = [vec![0x00, sas::codes::bill_code(*value).unwrap_or(0xFF)], sas::bcd::encode(0, 4)].concat();
            vec![Exception::new(bill_code(*value), seq).with_data(data)]
        }
        Entry::HandpayLocked { .. } => one(0x51),
        // An AFT transfer made (in or out), or failed after it was
        // journaled pending: transfer complete (the floor reads its status).
        Entry::AftIn { .. } | Entry::AftOut { .. } | Entry::AftFailed { .. } => one(0x69),
        Entry::HandpayPaid { .. } => one(0x52),
        // Issue 71: AFT registration: an operator at the machine asked the
        // floor to register it (6C) or acknowledged the registration the
        // floor asked for (6D); a registration cancelled, by the floor or
        // at the machine (6E).
        Entry::AftRegistrationRequested { .. } => one(0x6C),
        Entry::AftRegistrationAcknowledged { .. } => one(0x6D),
        Entry::AftRegistration { registration, .. } if registration.status == meters::RegistrationStatus::NotRegistered => one(0x6E),
        // The cash-out ticket printed; a ticket in, taken to the credit
        // meter (the transfer complete).
        Entry::TicketPrinted { .. } => one(0x3D),
        // A ticket in, the floor's or the cabinet's own, and one the floor
        // was asked about and that went back: the cycle's end (68), after
        // which the floor reads its status (LP 71 FF).
        Entry::TicketIn { .. } | Entry::FloorTicketIn { .. } | Entry::FloorTicketRefused { .. } => one(0x68),
        // Game started: wager in credits (2 BCD), the coin-in meter (4
        // BCD), wager type, progressive group.
        Entry::RoundBegun { stake, .. } => {
            let data = [sas::bcd::encode(cx.credits(*stake), 2), sas::bcd::encode(cx.credits(cx.coin_in), 4), vec![0x00, 0x00]].concat();
            vec![Exception::new(0x7E, seq).with_data(data)]
        }
        // Game ended: the win in credits (4 BCD); a progressive level won
        // is told too: a level of the floor's SAS group as a SAS level hit
        // (56, read by LP 85), any other as a progressive win (54).
        Entry::RoundSettled { win, progressive, .. } => {
            let mut out = vec![Exception::new(0x7F, seq).with_data(sas::bcd::encode(cx.credits(*win), 4))];
            if progressive.iter().any(|a| a.floor_group.is_some()) {
                out.push(Exception::new(0x56, seq));
            }
            if progressive.iter().any(|a| a.floor_group.is_none()) {
                out.push(Exception::new(0x54, seq));
            }
            out
        }
        // A tilt is a general tilt (20); the floor's own disable has no
        // code (it knows), a logic-door tilt is told by the door.
        Entry::TiltSet { tilt: Tilt::FloorDisabled | Tilt::FloorMaintenance | Tilt::LogicDoorAccess, .. } => Vec::new(),
        // The note acceptor's faults (issue 70), each by its own code:
        // bill jam (28), cash box full (27), cash box removed (1B) and put
        // back (1C, the tilt cleared), reverse bill — a note pulled back —
        // (2A), bill acceptor hardware failure (29), which the line lost
        // is too [R: SAS 6.02 table A-1 as recalled for 27, 29 and 2A].
        Entry::TiltSet { tilt: Tilt::NoteAcceptor(f), .. } => one(match f {
            AcceptorFault::Jam => 0x28,
            AcceptorFault::StackerFull => 0x27,
            AcceptorFault::StackerRemoved => 0x1B,
            AcceptorFault::Cheat => 0x2A,
            AcceptorFault::Failure | AcceptorFault::CommunicationLost => 0x29,
        }),
        Entry::TiltCleared { tilt: Tilt::NoteAcceptor(AcceptorFault::StackerRemoved), .. } => one(0x1C),
        // The printer's (issue 70; sas.md: 60 printer error, 61 paper out).
        Entry::TiltSet { tilt: Tilt::Printer(PrinterFault::PaperOut), .. } => one(0x61),
        Entry::TiltSet { tilt: Tilt::Printer(_), .. } => one(0x60),
        Entry::TiltSet { .. } => one(0x20),
        Entry::PrinterPaper { low: true } => one(0x74),
        // Critical memory rebuilt one copy from the other: an NVRAM error,
        // data recovered (31).
        Entry::CopyRebuilt { .. } => one(0x31),
        // The operator changed the configuration (3C), a game's RTP
        // variant included (issue 50).
        Entry::ConfigChanged { .. } | Entry::VariantChosen { .. } => one(0x3C),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(seq: u64, entry: Entry) -> Record {
        Record { seq, at_utc: String::new(), entry }
    }

    fn codes(entry: Entry) -> Vec<u8> {
        of(&record(1, entry), &Context { accounting_denom: 1, coin_in: 0 }).iter().map(|e| e.code).collect()
    }

    #[test]
    fn every_event_a_floor_cares_about_has_its_code() {
        assert_eq!(codes(Entry::DoorOpened { door: Door::Main }), [0x11]);
        assert_eq!(codes(Entry::DoorClosed { door: Door::Main }), [0x12]);
        assert_eq!(codes(Entry::DoorOpened { door: Door::Logic }), [0x15]);
        assert_eq!(codes(Entry::NoteIn { value: 2_000 }), [0x4A]);
        assert_eq!(codes(Entry::NoteIn { value: 20_000 }), [0x50]);
        assert_eq!(codes(Entry::PowerUp { unclean_shutdown: true, window: None }), [0x18, 0x17]);
        assert_eq!(codes(Entry::PowerDown), [0x18]);
        assert_eq!(codes(Entry::HandpayPaid { id: 1, attendant: "a".into() }), [0x52]);
        assert_eq!(codes(Entry::TicketPrinted { validation: "1".into() }), [0x3D]);
        assert_eq!(codes(Entry::TiltSet { tilt: Tilt::DeviceFault, detail: String::new() }), [0x20]);
        // A door's sensors disagreeing has no code of its own: a general
        // tilt, beside the door's own opening (issue 70).
        assert_eq!(codes(Entry::TiltSet { tilt: Tilt::DoorSensors(meters::Door::Belly), detail: String::new() }), [0x20]);
        assert_eq!(codes(Entry::TiltSet { tilt: Tilt::FloorDisabled, detail: String::new() }), [] as [u8; 0]);
        let acceptor = |f| codes(Entry::TiltSet { tilt: Tilt::NoteAcceptor(f), detail: String::new() });
        assert_eq!(AcceptorFault::ALL.map(acceptor), [[0x28], [0x27], [0x1B], [0x2A], [0x29], [0x29]]);
        assert_eq!(codes(Entry::TiltCleared { tilt: Tilt::NoteAcceptor(AcceptorFault::StackerRemoved), by: "a".into() }), [0x1C]);
        assert_eq!(codes(Entry::TiltCleared { tilt: Tilt::NoteAcceptor(AcceptorFault::Jam), by: "a".into() }), [] as [u8; 0]);
        let printer = |f| codes(Entry::TiltSet { tilt: Tilt::Printer(f), detail: String::new() });
        assert_eq!(PrinterFault::ALL.map(printer), [[0x61], [0x60], [0x60], [0x60], [0x60], [0x60]]);
        assert_eq!(codes(Entry::PrinterPaper { low: true }), [0x74]);
        assert_eq!(codes(Entry::PrinterPaper { low: false }), [] as [u8; 0]);
        assert_eq!(codes(Entry::NoteRejected { value: 500, reason: String::new() }), [] as [u8; 0]);
        // Each carries its record's sequence number.
        let e = of(&record(42, Entry::DoorOpened { door: Door::Belly }), &Context { accounting_denom: 1, coin_in: 0 });
        assert_eq!(e, [Exception::new(0x1D, 42)]);
    }

    #[test]
    fn a_settled_round_carries_its_win_in_credits() {
        let settled = Entry::RoundSettled {
            round: 3,
            win: 1_250,
            components: vec![],
            payment: meters::WinPayment::Credited { jackpot: false },
            credit_after: 0,
            progressive: vec![],
        };
        let e = of(&record(9, settled), &Context { accounting_denom: 5, coin_in: 0 });
        assert_eq!(e, [Exception::new(0x7F, 9).with_data(vec![0x00, 0x00, 0x02, 0x50])], "12.50 at 0.05 a credit: 250");
    }

    #[test]
    fn a_sas_level_won_is_a_sas_level_hit_and_any_other_a_progressive_win() {
        let award = |floor_group| meters::ProgressiveAward {
            pool: "p".into(),
            level: 1,
            amount: 500,
            time: 0,
            linked: false,
            next_mystery_at: None,
            share_ppm: meters::WHOLE_LEVEL,
            floor_group,
        };
        let settled = |progressive| Entry::RoundSettled {
            round: 3,
            win: 600,
            components: vec![],
            payment: meters::WinPayment::Handpay { id: 1 },
            credit_after: 0,
            progressive,
        };
        assert_eq!(codes(settled(vec![award(Some(3))])), [0x7F, 0x56]);
        assert_eq!(codes(settled(vec![award(None)])), [0x7F, 0x54]);
        assert_eq!(codes(settled(vec![award(Some(3)), award(None)])), [0x7F, 0x56, 0x54]);
    }
}
