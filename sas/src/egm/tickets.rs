//! The EGM's ticket cycles (sas.md §6): a ticket in escrow redeemed or
//! refused on the floor's LP 71, and a cash-out waiting for the floor's
//! validation number (57, LP 57/58). The port relays; the game host
//! commits through the core and says how it ended.

use super::{Egm, Event};
use crate::exceptions::Exception;
use crate::tickets::{Request, TicketIn, status};

impl Egm {
    /// A ticket this cabinet did not print is in escrow: the floor is
    /// asked (exception 67). False while another is in its cycle.
    pub fn ticket_inserted(&mut self, validation: &str) -> bool {
        if matches!(self.ticket, TicketIn::Escrow { .. } | TicketIn::Pending { .. }) {
            return false;
        }
        self.ticket = TicketIn::Escrow { validation: validation.to_owned() };
        self.exceptions.raise(Exception { code: 0x67, data: Vec::new(), source: None });
        true
    }

    /// A cash-out of `cents` waits for the floor to assign its ticket's
    /// validation number (system validation): exception 57.
    pub fn validation_asked(&mut self, cents: u64) {
        self.cash_out = Some(cents);
        self.exceptions.raise(Exception { code: 0x57, data: Vec::new(), source: None });
    }

    /// The cash-out no longer waits (the game host gave up on the floor):
    /// a late LP 58 is told there is no cash-out.
    pub fn validation_ended(&mut self) {
        self.cash_out = None;
    }

    /// LP 58: the floor's validation number for the waiting cash-out.
    pub(super) fn validation(&mut self, data: &[u8]) -> Vec<u8> {
        use crate::validation::{Answer, status};
        let st = match (self.cash_out.take(), crate::validation::parse_58(data)) {
            (waiting, None) => {
                self.cash_out = waiting;
                status::REJECTED
            }
            (None, Some(_)) => status::NOT_IN_CASH_OUT,
            (Some(_), Some(Answer::Denied)) => {
                self.events.push(Event::ValidationDenied);
                status::ACKNOWLEDGED
            }
            (Some(cents), Some(Answer::Number(validation))) => {
                self.events.push(Event::TicketValidated { validation, cents });
                status::ACKNOWLEDGED
            }
        };
        vec![st]
    }

    /// LP 4C: the floor sets the secure-enhanced validation ID and
    /// sequence (echoed; the game host records them through the core), or
    /// with ID 0 reads them. No reply where the cabinet numbers its
    /// tickets another way.
    pub(super) fn validation_id(&mut self, data: &[u8], snapshot: &crate::snapshot::Snapshot) -> Option<Vec<u8>> {
        if !snapshot.secure_enhanced {
            return None;
        }
        let (id, sequence) = crate::validation::parse_4c(data)?;
        if id == 0 {
            let (id, sequence) = snapshot.validation_id.unwrap_or((0, 0));
            return Some(crate::validation::reply_4c(id, sequence));
        }
        self.events.push(Event::ValidationIdSet { id, sequence });
        Some(crate::validation::reply_4c(id, sequence))
    }

    /// The ticket's cycle ended (`status` as LP 71 reports it: 00
    /// redeemed, or why it was returned); the floor interrogates it with
    /// LP 71 FF after the game host's journal tells it 68.
    pub fn ticket_done(&mut self, validation: &str, amount: u64, status: u8) {
        self.ticket = TicketIn::Done { validation: validation.to_owned(), amount, status };
    }

    /// Where the ticket-in cycle stands.
    pub fn ticket(&self) -> &TicketIn {
        &self.ticket
    }

    /// LP 71: the floor's answer on the ticket in escrow, or its
    /// question on the last one.
    pub(super) fn redemption(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        let request = crate::tickets::parse_71(data)?;
        let (st, amount, validation) = match (&self.ticket, request) {
            (TicketIn::Idle, Request::Status) => (status::NONE, 0, String::new()),
            (TicketIn::Escrow { validation }, Request::Status) => (status::WAITING, 0, validation.clone()),
            (TicketIn::Pending { validation, amount }, Request::Status) => (status::PENDING, *amount, validation.clone()),
            (TicketIn::Done { validation, amount, status }, Request::Status) => (*status, *amount, validation.clone()),
            // The ticket keeps the number the reader read (the floor may
            // send it with fewer leading zeros).
            (TicketIn::Escrow { validation: v }, Request::Redeem { code: 0x00, amount, validation }) if crate::tickets::same(v, &validation) => {
                let v = v.clone();
                self.events.push(Event::RedeemTicket { validation: v.clone(), amount });
                self.ticket = TicketIn::Pending { validation: v.clone(), amount };
                (status::PENDING, amount, v)
            }
            (TicketIn::Escrow { validation: v }, Request::Redeem { validation, .. }) if crate::tickets::same(v, &validation) => {
                // Restricted and non-restricted credit: this cabinet holds
                // cashable credit only; the ticket goes back [R].
                let v = v.clone();
                self.events.push(Event::TicketRefused { validation: v.clone(), code: status::REJECTED_BY_EGM });
                self.ticket = TicketIn::Pending { validation: v.clone(), amount: 0 };
                (status::PENDING, 0, v)
            }
            (TicketIn::Escrow { validation: v }, Request::Reject { code, validation }) if crate::tickets::same(v, &validation) => {
                let v = v.clone();
                self.events.push(Event::TicketRefused { validation: v.clone(), code });
                self.ticket = TicketIn::Pending { validation: v.clone(), amount: 0 };
                (status::PENDING, 0, v)
            }
            // The same answer again (a retry after the cycle moved on):
            // where it stands, never a second redemption.
            (TicketIn::Pending { validation: v, amount }, Request::Redeem { validation, .. } | Request::Reject { validation, .. })
                if crate::tickets::same(v, &validation) =>
            {
                (status::PENDING, *amount, v.clone())
            }
            (TicketIn::Done { validation: v, amount, status }, Request::Redeem { validation, .. } | Request::Reject { validation, .. })
                if crate::tickets::same(v, &validation) =>
            {
                (*status, *amount, v.clone())
            }
            // An answer for no ticket in escrow here: not compatible with
            // the redemption cycle (C0) [R].
            (_, Request::Redeem { validation, .. } | Request::Reject { validation, .. }) => (0xC0, 0, validation),
        };
        Some(crate::tickets::reply_71(st, amount, &validation))
    }
}
