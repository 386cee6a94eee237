//! The EGM's AFT (sas.md §7): the floor's lock (LP 74) and its transfers
//! (LP 72). A transfer asked for is handed to the game host, which
//! journals it pending in the core and then makes or fails it; the floor
//! is answered about it only once it is journaled (issue 71: a "pending"
//! the power could lose was said before). A repeated id is answered from
//! the last transfer.

use super::{Egm, Event};
use crate::aft::Transfer;
use crate::exceptions::Exception;

impl Egm {
    /// The core journaled the transfer `id` pending: the floor may be told
    /// so (40).
    pub fn aft_journaled(&mut self, id: &str) {
        if let Some(t) = self.transfer.as_mut().filter(|t| t.id == id) {
            t.journaled = true;
        }
    }

    /// The AFT transfer's outcome as the core journaled it, from the game
    /// host: `status` 00 when it moved money (or had under this id
    /// before), else why not. Exception 69 is told from the journal, as
    /// every event the journal holds.
    pub fn aft_done(&mut self, id: &str, status: u8, cents: u64, kind: u8) {
        let at = self.clock();
        match self.transfer.as_mut().filter(|t| t.id == id) {
            Some(t) => {
                t.status = status;
                t.cents = cents;
                t.journaled = true;
            }
            None => self.transfer = Some(Transfer { id: id.to_owned(), kind, cents, status, at, journaled: true }),
        }
        self.unlock();
    }

    /// The transfer was refused before the core journaled anything (the
    /// core would not take it pending): its status, and 69 told at once.
    pub fn aft_refused(&mut self, id: &str, status: u8, kind: u8) {
        self.aft_done(id, status, 0, kind);
        self.exceptions.raise(Exception { code: 0x69, data: Vec::new(), source: None });
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

    /// LP 72: a transfer asked for, or its status; `None` (no reply) while
    /// the transfer asked for is not yet journaled.
    pub(super) fn aft_transfer(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        use crate::aft::{IN_HOUSE_TO_EGM, IN_HOUSE_TO_HOST, Request, status};
        let request = crate::aft::parse_72(data);
        let now = self.clock();
        let failed = |id: String, kind: u8, st: u8| Transfer { id, kind, cents: 0, status: st, at: now, journaled: true };
        let last_id = |id: &str| self.transfer.as_ref().is_some_and(|t| t.id == id);
        // Nothing is said of a transfer the core has not journaled, not
        // even to an interrogation or its own retry: the host asks again.
        let about_last = match &request {
            Ok(Request::Interrogate | Request::Cancel) => true,
            Ok(Request::Transfer { id, .. }) => last_id(id),
            Err(_) => false,
        };
        if about_last && self.transfer.as_ref().is_some_and(|t| !t.journaled) {
            return None;
        }
        let outcome = match request {
            // A malformed request: its status, the last transfer kept.
            Err(st) => return Some(crate::aft::reply_72(Some(&failed(String::new(), 0, st)), &self.snapshot)),
            // An interrogation, or the last transfer's id again: its
            // status, nothing moves.
            Ok(Request::Interrogate | Request::Cancel) => None,
            Ok(Request::Transfer { .. }) if about_last => None,
            Ok(Request::Transfer { .. }) if self.transfer.as_ref().is_some_and(|t| t.status == status::PENDING) => {
                return Some(crate::aft::reply_72(Some(&failed(String::new(), 0, status::NOT_COMPATIBLE)), &self.snapshot));
            }
            Ok(Request::Transfer { kind, id, .. }) if kind != IN_HOUSE_TO_EGM && kind != IN_HOUSE_TO_HOST => {
                Some(failed(id, kind, status::NOT_A_VALID_FUNCTION))
            }
            // Issue 71: a transfer addressed to another cabinet's asset
            // number, or made while this one has none (sas.md §8: every
            // transfer needs a non-zero asset number).
            Ok(Request::Transfer { kind, id, asset, .. }) if asset == 0 || asset != self.snapshot.asset_number => {
                Some(failed(id, kind, status::ASSET_MISMATCH))
            }
            // A registration key is honoured only as the one the cabinet
            // is registered under (LP 73); none (all zero) is an in-house
            // transfer that needs no registration.
            Ok(Request::Transfer { kind, id, key, .. }) if key != [0; 20] && !self.snapshot.aft_registration.registered() => {
                Some(failed(id, kind, status::NOT_REGISTERED))
            }
            Ok(Request::Transfer { kind, id, key, .. }) if key != [0; 20] && !crate::registration::same_key(&key, &self.snapshot.aft_registration.key) => {
                Some(failed(id, kind, status::KEY_MISMATCH))
            }
            Ok(Request::Transfer { kind, id, cashable, restricted, nonrestricted, partial, only_if_locked, .. }) => {
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
                    // Handed to the game host; answered once journaled.
                    self.events.push(Event::AftTransfer { id: id.clone(), to_host: kind == IN_HOUSE_TO_HOST, cents });
                    self.transfer = Some(Transfer { id, kind, cents, status: status::PENDING, at: now, journaled: false });
                    return None;
                }
            }
        };
        if let Some(t) = outcome {
            self.exceptions.raise(Exception { code: 0x69, data: Vec::new(), source: None });
            self.transfer = Some(t);
        }
        Some(crate::aft::reply_72(self.transfer.as_ref(), &self.snapshot))
    }
}

impl Egm {
    /// LP 73: the cabinet's AFT registration read, or changed. A change is
    /// handed to the game host to journal in the core; until the snapshot
    /// shows it, the floor's LP 73 gets no reply and it asks again (a
    /// registration is never said that a power cut would lose).
    pub(super) fn aft_register(&mut self, data: &[u8]) -> Option<Vec<u8>> {
        use crate::registration::{next, parse_73, reply_73};
        let request = parse_73(data)?;
        let current = self.snapshot.aft_registration;
        let asset = self.snapshot.asset_number;
        let target = next(&current, &request, asset);
        match self.registering {
            _ if target == current => {}
            // The core refused it: the registration as it stands.
            Some((asked, true)) if asked == target => {}
            Some((asked, false)) if asked == target => return None,
            _ => {
                self.events.push(Event::AftRegister(target));
                self.registering = Some((target, false));
                return None;
            }
        }
        self.registering = None;
        Some(reply_73(&current, asset))
    }

    /// The core refused the registration change `asked`: the floor's next
    /// LP 73 for it is answered with the registration as it stands.
    pub fn aft_registration_refused(&mut self, asked: crate::registration::Registration) {
        if let Some((r, refused)) = self.registering.as_mut()
            && *r == asked
        {
            *refused = true;
        }
    }
}
