//! The floor's slot management system (SAS, issue 48) as the core sees
//! it: play disabled and enabled by the floor (a tilt only the floor
//! clears), and how far the floor has taken the journal's events. The
//! core neither speaks SAS nor knows its codes: the game host maps
//! journal records to exceptions and reports back what was taken.

use super::Machine;
use crate::journal::{Entry, FloorCursor, Tilt};
use crate::machine::{CoreError, MoneyRefusal};
use crate::money::Cents;
use crate::store::{Record, StoreError};

/// LP 71's machine status for a ticket the cabinet itself refused.
const STATUS_REFUSED_BY_EGM: u8 = 0x83;

/// The most records [`Machine::records_after`] returns at once.
pub const RECORDS_PAGE: u16 = 1_000;

impl Machine {
    /// The floor disabled play (SAS LP 01): play and the note acceptor
    /// stop (a tilt); nothing is written when it already is.
    pub fn floor_disable(&mut self, by: &str) -> Result<(), CoreError> {
        if self.state.tilts.contains(&Tilt::FloorDisabled) {
            return Ok(());
        }
        self.commit(vec![Entry::TiltSet { tilt: Tilt::FloorDisabled, detail: by.to_owned() }])
    }

    /// The floor enabled play again (SAS LP 02).
    pub fn floor_enable(&mut self, by: &str) -> Result<(), CoreError> {
        if !self.state.tilts.contains(&Tilt::FloorDisabled) {
            return Ok(());
        }
        self.commit(vec![Entry::TiltCleared { tilt: Tilt::FloorDisabled, by: by.to_owned() }])
    }

    /// The floor put the cabinet in maintenance mode (SAS LP 0A, `on`) or
    /// took it out (LP 0B): a tilt of its own, so that it and the floor's
    /// disabling of play (LP 01/02) end each by their own poll; nothing is
    /// written when it already stands as asked.
    pub fn floor_maintenance(&mut self, on: bool, by: &str) -> Result<(), CoreError> {
        if self.state.tilts.contains(&Tilt::FloorMaintenance) == on {
            return Ok(());
        }
        let tilt = Tilt::FloorMaintenance;
        self.commit(vec![if on { Entry::TiltSet { tilt, detail: by.to_owned() } } else { Entry::TiltCleared { tilt, by: by.to_owned() } }])
    }

    /// The floor has taken the events `cursor` names. A cursor that goes
    /// back is refused (critical memory would not accept it).
    pub fn record_floor_reported(&mut self, cursor: FloorCursor) -> Result<(), CoreError> {
        if self.state.floor_reported.as_ref() == Some(&cursor) {
            return Ok(());
        }
        self.commit(vec![Entry::FloorReported { cursor }])
    }

    /// How far the floor has taken this epoch's events; none before it
    /// first connected.
    pub fn floor_reported(&self) -> Option<&FloorCursor> {
        self.state.floor_reported.as_ref()
    }

    /// Redeem a ticket on the floor's word (SAS LP 71, issue 48): `value`
    /// cents to the credit meter, once per validation number. A ticket
    /// another cabinet printed, or one of this machine's own, which the
    /// floor's system validates as it validates every ticket (its value
    /// must then be the floor's amount). Refused — and journaled as
    /// refused — while play is blocked (a round, a door, a tilt: no ticket
    /// in during a round), for a ticket already redeemed, a zero amount,
    /// or over the ticket-in or credit limit. The floor is a trusted party
    /// on another cabinet's amount; the limits still hold.
    pub fn redeem_floor_ticket(&mut self, validation: &str, value: Cents) -> Result<Cents, CoreError> {
        self.refuse_floor_ticket(validation, value)?;
        self.verify_before_money_moves()?;
        self.commit(vec![Entry::FloorTicketIn { validation: validation.to_owned(), value }])?;
        Ok(self.state.credit)
    }

    /// Issue 70: a ticket in the acceptor's escrow that the floor
    /// authorised for `value` (LP 71), which the host is about to tell the
    /// acceptor to stack: checked as [`Machine::redeem_floor_ticket`]
    /// checks one (refused: journaled, and the host gives it back),
    /// journaled before the stack command with no credit; its credit is
    /// committed once, at the acceptor's vend valid or its power-up with
    /// the ticket in the stacker, as a note's ([`Machine::note_vend_valid`],
    /// [`Machine::note_at_power_up`]).
    pub fn stack_floor_ticket(&mut self, validation: &str, value: Cents) -> Result<(), CoreError> {
        self.one_at_a_time()?;
        self.refuse_floor_ticket(validation, value)?;
        self.commit(vec![Entry::FloorTicketStacking { validation: validation.to_owned(), value }])
    }

    /// The floor's ticket being stacked, if any: its validation number and
    /// the value the floor authorised.
    pub fn floor_ticket_stacking(&self) -> Option<(&str, Cents)> {
        self.state.floor_ticket_stacking.as_ref().map(|(v, c)| (v.as_str(), *c))
    }

    /// A floor's ticket went back to the player from the acceptor (at its
    /// power-up, or before the floor answered): nothing credited, the
    /// floor told it was not redeemed; the one being stacked, if it is
    /// that one, ended.
    pub fn floor_ticket_given_back(&mut self, validation: &str) -> Result<(), CoreError> {
        let reason = "given back by the note acceptor before it was stacked".to_owned();
        self.commit(vec![Entry::FloorTicketRefused { validation: validation.to_owned(), status: STATUS_REFUSED_BY_EGM, reason }])
    }

    /// A floor's ticket of `value` refused (journaled, and the error to
    /// give it back with), or `Ok` when it may be credited.
    fn refuse_floor_ticket(&mut self, validation: &str, value: Cents) -> Result<(), CoreError> {
        let well_formed = !validation.is_empty() && validation.len() <= 20 && validation.bytes().all(|b| b.is_ascii_digit());
        let own = self.state.tickets.get(validation);
        let refusal = if let Some(b) = self.play_block() {
            Some(MoneyRefusal::Disabled(b))
        } else if !well_formed {
            Some(MoneyRefusal::Malformed)
        } else if self.state.floor_tickets.contains(validation) || own.is_some_and(|t| t.redeemed) {
            Some(MoneyRefusal::AlreadyRedeemed)
        } else if let Some(t) = own.filter(|t| t.value != value) {
            Some(MoneyRefusal::FloorAmount(format!("{value} cents for a ticket of {} cents this cabinet printed", t.value)))
        } else if value == 0 {
            Some(MoneyRefusal::FloorAmount("zero".into()))
        } else if value > self.config.ticket_in_limit {
            Some(MoneyRefusal::AboveTicketLimit(self.config.ticket_in_limit))
        } else if self.state.credit.saturating_add(value) > self.config.credit_limit {
            Some(MoneyRefusal::CreditLimit(self.config.credit_limit))
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.commit(vec![Entry::FloorTicketRefused { validation: validation.to_owned(), status: STATUS_REFUSED_BY_EGM, reason: reason.to_string() }])?;
            return Err(CoreError::TicketRejected(reason));
        }
        Ok(())
    }

    /// A ticket the floor was asked about went back to the player: the
    /// floor refused it or did not answer in time (`status` as reported to
    /// the floor). Nothing is credited; the event log says why.
    pub fn floor_ticket_returned(&mut self, validation: &str, status: u8, reason: &MoneyRefusal) -> Result<(), CoreError> {
        self.commit(vec![Entry::FloorTicketRefused { validation: validation.to_owned(), status, reason: reason.to_string() }])
    }

    /// The journal's records after `seq`, oldest first, each verified; at
    /// most [`RECORDS_PAGE`].
    pub fn records_after(&self, seq: u64) -> Result<Vec<Record>, StoreError> {
        self.store.records_after(seq, RECORDS_PAGE)
    }

    /// The sequence number of the journal's last record.
    pub fn journal_head(&self) -> u64 {
        self.store.head_seq()
    }
}
