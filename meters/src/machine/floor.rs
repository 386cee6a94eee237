//! The floor's slot management system (SAS, issue 48) as the core sees
//! it: play disabled and enabled by the floor (a tilt only the floor
//! clears), and how far the floor has taken the journal's events. The
//! core neither speaks SAS nor knows its codes: the game host maps
//! journal records to exceptions and reports back what was taken.

use super::Machine;
use crate::journal::{Entry, FloorCursor, Tilt};
use crate::machine::CoreError;
use crate::store::{Record, StoreError};

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
