//! The EGM's AFT (sas.md §7): the floor's lock (LP 74) and its transfers
//! (LP 72), pending until the game host has committed them through the
//! core, answered from the last transfer on a repeated id.

use super::{Egm, Event};
use crate::exceptions::Exception;

impl Egm {
    /// The AFT transfer's outcome, from the game host: `status` 00 when
    /// the core committed it (or had committed it under this id before),
    /// else why not. A transfer that failed is told at once (69); one that
    /// moved money is told from the journal.
    pub fn aft_done(&mut self, id: &str, status: u8, cents: u64, kind: u8) {
        let at = self.clock();
        match self.transfer.as_mut().filter(|t| t.id == id) {
            Some(t) => {
                t.status = status;
                t.cents = cents;
            }
            None => self.transfer = Some(crate::aft::Transfer { id: id.to_owned(), kind, cents, status, at }),
        }
        if status != crate::aft::status::FULL {
            self.exceptions.raise(Exception { code: 0x69, data: Vec::new(), source: None });
        }
        self.unlock();
    }

    pub(super) fn unlock(&mut self) {
        if self.lock_until_us.take().is_some() {
            self.events.push(Event::AftLock(false));
        }
    }

    /// LP 74: lock (00) for a transfer within its timeout, cancel (80),
    /// or interrogate (FF). A lock is granted only with no round open.
    pub(super) fn aft_lock(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        let code = *data.first()?;
        let timeout = crate::bcd::decode(data.get(2..4)?).ok()?;
        match code {
            0x00 if self.snapshot.idle => {
                if self.lock_until_us.is_none() {
                    self.events.push(Event::AftLock(true));
                    self.exceptions.raise(Exception { code: 0x6F, data: Vec::new(), source: None });
                }
                self.lock_until_us = Some(self.now_us + timeout * 10_000);
            }
            0x80 => self.unlock(),
            _ => {}
        }
        Some(crate::aft::reply_74(self.lock_until_us.is_some(), &self.snapshot))
    }

    /// LP 72: a transfer asked for, or its status.
    pub(super) fn aft_transfer(&mut self, data: &[u8]) -> Vec<u8> {
        use crate::aft::{IN_HOUSE_TO_EGM, IN_HOUSE_TO_HOST, Request, Transfer, status};
        let request = crate::aft::parse_72(data);
        let now = self.clock();
        let failed = |id: String, kind: u8, st: u8| Transfer { id, kind, cents: 0, status: st, at: now };
        let outcome = match request {
            Ok(Request::Interrogate | Request::Cancel) => None,
            // A malformed request: its status, the last transfer kept.
            Err(st) => return crate::aft::reply_72(Some(&failed(String::new(), 0, st)), &self.snapshot),
            // The last transfer's id again: its status, nothing moves.
            Ok(Request::Transfer { id, .. }) if self.transfer.as_ref().is_some_and(|t| t.id == id) => None,
            Ok(Request::Transfer { .. }) if self.transfer.as_ref().is_some_and(|t| t.status == status::PENDING) => {
                return crate::aft::reply_72(Some(&failed(String::new(), 0, status::NOT_COMPATIBLE)), &self.snapshot);
            }
            Ok(Request::Transfer { kind, id, .. }) if kind != IN_HOUSE_TO_EGM && kind != IN_HOUSE_TO_HOST => {
                Some(failed(id, kind, status::NOT_A_VALID_FUNCTION))
            }
            Ok(Request::Transfer { kind, id, cashable, restricted, nonrestricted, partial, only_if_locked }) => {
                let credit = self.snapshot.credit;
                // What the credit meter can still take (issue 71: a
                // transfer past it was answered 87, not its own status).
                let room = self.snapshot.transfer_limit();
                let cents = match (kind, partial) {
                    (IN_HOUSE_TO_HOST, true) => cashable.min(credit),
                    (_, true) => cashable.min(room),
                    _ => cashable,
                };
                if restricted != 0 || nonrestricted != 0 || cashable == 0 || (kind == IN_HOUSE_TO_HOST && (cents == 0 || cents > credit)) {
                    Some(failed(id, kind, status::NOT_A_VALID_AMOUNT))
                } else if kind == IN_HOUSE_TO_EGM && (cents == 0 || cents > room) {
                    Some(failed(id, kind, status::OVER_TRANSFER_LIMIT))
                } else if only_if_locked && self.lock_until_us.is_none() {
                    // The host's own condition (SAS's "accept only if
                    // locked" flag); without it a transfer needs no lock,
                    // only a cabinet with no round open and nothing
                    // blocking play (issue 71: decided with the digest).
                    Some(failed(id, kind, status::NOT_LOCKED))
                } else if !self.snapshot.idle {
                    Some(failed(id, kind, status::UNABLE_NOW))
                } else {
                    self.events.push(Event::AftTransfer { id: id.clone(), to_host: kind == IN_HOUSE_TO_HOST, cents });
                    Some(Transfer { id, kind, cents, status: status::PENDING, at: now })
                }
            }
        };
        if let Some(t) = outcome {
            if t.status != status::PENDING {
                self.exceptions.raise(Exception { code: 0x69, data: Vec::new(), source: None });
            }
            self.transfer = Some(t);
        }
        crate::aft::reply_72(self.transfer.as_ref(), &self.snapshot)
    }
}
