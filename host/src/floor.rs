//! The floor's slot management system (SAS 6.02, issue 48) on the game
//! host's side: the SAS port runs on a thread of its own (`sas::port`);
//! here, after every command, the host publishes the core's meters as a
//! snapshot, tells the floor of the journal's new events (their
//! exceptions, `exceptions`), acts on what the floor asked (play disabled
//! or enabled through the core), and records in critical memory how far
//! the floor has taken the journal, so that after a power cut exactly the
//! events it has not taken are told again.
//!
//! Nothing the floor sends moves money here yet: tickets and AFT come
//! through the core when they are built (issue 48, open).

mod exceptions;
mod snapshot;

use std::collections::BTreeSet;
use std::path::PathBuf;

use meters::{Entry, FloorCursor, Machine};
use sas::egm::Event;
use sas::port::Port;
use sas::transport::SerialLine;
use serde::{Deserialize, Serialize};

pub(crate) use snapshot::GameIdentity;

/// Which kind of serial line the SAS port is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SasLine {
    /// A UART (19,200 baud, stick parity for the wake-up bit).
    #[default]
    Uart,
    /// A pty carrying the wake-up bit in-band (labs, the reference host,
    /// the tests).
    Pty,
}

/// `sas: Some((port: "/dev/ttyS0", address: 1))` in the cabinet's
/// configuration: the floor's SAS line (off when absent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SasSetup {
    /// The serial device (a UART, or a pty's slave for a lab).
    pub port: PathBuf,
    /// This cabinet's SAS address, 1 to 127.
    pub address: u8,
    #[serde(default)]
    pub line: SasLine,
    /// The accounting denomination in cents: what one credit of a SAS
    /// 4-byte meter is (LP 1F). A cent by default.
    #[serde(default = "default_accounting_denom")]
    pub accounting_denom: meters::Cents,
    /// How long a ticket another cabinet printed waits for the floor's
    /// answer before it is returned, nothing credited (seconds).
    #[serde(default = "default_ticket_timeout_s")]
    pub ticket_timeout_s: u32,
    /// The asset number the floor knows this cabinet by (AFT, LP 74/72).
    #[serde(default)]
    pub asset_number: u32,
}

fn default_ticket_timeout_s() -> u32 {
    15
}

fn default_accounting_denom() -> meters::Cents {
    1
}

impl SasSetup {
    /// What is wrong with the setup, named; `None` when it can run.
    pub fn problem(&self) -> Option<String> {
        if !(1..=127).contains(&self.address) {
            return Some(format!("sas.address {} is outside 1..=127 (0 is the hosts' broadcast)", self.address));
        }
        if !(1..=300).contains(&self.ticket_timeout_s) {
            return Some(format!("sas.ticket_timeout_s {} is outside 1..=300 seconds", self.ticket_timeout_s));
        }
        if sas::codes::denomination_code(self.accounting_denom) == 0 {
            return Some(format!("sas.accounting_denom {} cents has no SAS denomination code", self.accounting_denom));
        }
        None
    }
}

/// The floor's link as the session keeps it.
pub struct FloorLink {
    port: Port,
    setup: SasSetup,
    games: Vec<GameIdentity>,
    /// The journal read up to here.
    scanned: u64,
    /// Events told and not yet taken.
    outstanding: BTreeSet<u64>,
    /// Events taken after the cursor's `up_to`.
    taken_above: BTreeSet<u64>,
    /// The cursor as critical memory has it.
    cursor: FloorCursor,
    published: Option<sas::snapshot::Snapshot>,
    last_note: Option<meters::Cents>,
    link_up: bool,
    /// A ticket another cabinet printed, with the floor since then.
    escrow: Option<(String, std::time::Instant)>,
    /// The floor holds an AFT lock: play stops until it ends (LP 74).
    aft_locked: bool,
    /// The last tickets printed, newest first (LP 4D).
    printed: Vec<sas::snapshot::TicketOut>,
    /// What the last snapshot was built from (the journal's head, the game
    /// and denomination, whether idle): unchanged, it is not built again.
    built: Option<(u64, usize, meters::Cents, bool)>,
}

impl FloorLink {
    /// Opens the port and starts it. A machine the floor never took
    /// events from starts at the journal's head (nothing before the floor
    /// connected is told). `images` are LP 21's, in order.
    pub(crate) fn start(
        setup: &SasSetup,
        machine: &mut Machine,
        games: Vec<GameIdentity>,
        images: Vec<PathBuf>,
        wake: crate::wake::Wake,
    ) -> Result<FloorLink, String> {
        if let Some(p) = setup.problem() {
            return Err(p);
        }
        let line = SerialLine::open(
            &setup.port,
            match setup.line {
                SasLine::Uart => sas::transport::Line::Uart,
                SasLine::Pty => sas::transport::Line::Marked,
            },
        )
        .map_err(|e| e.to_string())?;
        let port = Port::start(line, setup.address, images, Box::new(move || wake.wake())).map_err(|e| e.to_string())?;
        let cursor = match machine.floor_reported() {
            Some(c) => c.clone(),
            None => {
                let c = FloorCursor { up_to: machine.journal_head(), above: Vec::new() };
                machine.record_floor_reported(c.clone()).map_err(|e| e.to_string())?;
                c
            }
        };
        let recent = machine.events(200).unwrap_or_default();
        let last_note = recent.iter().find_map(|r| match r.entry {
            Entry::NoteIn { value } => Some(value),
            _ => None,
        });
        // The last floor ticket's outcome, for the floor's LP 71 FF after
        // a restart (the redemption itself is in the journal, once).
        let last_ticket = recent.iter().find_map(|r| match &r.entry {
            Entry::FloorTicketIn { validation, value } => Some((validation.clone(), *value, sas::tickets::status::REDEEMED)),
            Entry::FloorTicketRefused { validation, status, .. } => Some((validation.clone(), 0, *status)),
            _ => None,
        });
        if let Some((validation, amount, status)) = last_ticket {
            port.ticket_done(&validation, amount, status);
        }
        // The last AFT transfer, for the floor's interrogation after a
        // restart (the money moved once, in the journal).
        let last_transfer = recent.iter().find_map(|r| match &r.entry {
            Entry::AftIn { transaction_id, value } => Some((transaction_id.clone(), *value, sas::aft::IN_HOUSE_TO_EGM)),
            Entry::AftOut { transaction_id, value } => Some((transaction_id.clone(), *value, sas::aft::IN_HOUSE_TO_HOST)),
            _ => None,
        });
        if let Some((id, cents, kind)) = last_transfer {
            port.aft_done(&id, sas::aft::status::FULL, cents, kind);
        }
        Ok(FloorLink {
            port,
            setup: setup.clone(),
            games,
            scanned: cursor.up_to,
            outstanding: BTreeSet::new(),
            taken_above: cursor.above.iter().copied().collect(),
            cursor,
            published: None,
            last_note,
            link_up: false,
            escrow: None,
            aft_locked: false,
            printed: snapshot::tickets_printed(machine.state()),
            built: None,
        })
    }

    /// Whether the floor holds an AFT lock (play stops).
    pub fn aft_locked(&self) -> bool {
        self.aft_locked
    }

    /// A ticket another cabinet printed is in the reader: ask the floor.
    /// False while another one is with it.
    pub(crate) fn ticket_inserted(&mut self, validation: &str) -> bool {
        if self.escrow.is_some() {
            return false;
        }
        self.port.ticket_inserted(validation);
        self.escrow = Some((validation.to_owned(), std::time::Instant::now()));
        true
    }

    pub fn link_up(&self) -> bool {
        self.link_up
    }

    /// The port's measured timing (the lab, the benchmark).
    pub fn timing(&self) -> sas::port::Timing {
        self.port.timing()
    }

    /// The journal's records the floor has not been told of, as
    /// exceptions.
    fn tell_new_events(&mut self, machine: &Machine) -> Result<(), String> {
        while machine.journal_head() > self.scanned {
            let records = machine.records_after(self.scanned).map_err(|e| e.to_string())?;
            let Some(last) = records.last().map(|r| r.seq) else { break };
            let cx = exceptions::Context { accounting_denom: self.setup.accounting_denom, coin_in: machine.state().totals.games.creditos_jogados };
            let mut raised = Vec::new();
            for r in &records {
                match &r.entry {
                    Entry::NoteIn { value } => self.last_note = Some(*value),
                    Entry::TicketPrinted { validation } => {
                        if let Some(t) = snapshot::ticket_out(machine.state(), validation) {
                            self.printed.insert(0, t);
                            self.printed.truncate(snapshot::TICKET_HISTORY);
                        }
                    }
                    _ => {}
                }
                if self.taken_above.contains(&r.seq) {
                    continue;
                }
                let e = exceptions::of(r, &cx);
                if !e.is_empty() {
                    self.outstanding.insert(r.seq);
                }
                raised.extend(e);
            }
            self.port.raise(raised);
            self.scanned = last;
        }
        Ok(())
    }

    /// Events the floor took: the cursor moves, recorded when it changed.
    fn record_taken(&mut self, machine: &mut Machine) -> Result<(), String> {
        let taken = self.port.take_reported();
        if taken.is_empty() {
            return Ok(());
        }
        for seq in taken {
            self.outstanding.remove(&seq);
            self.taken_above.insert(seq);
        }
        let up_to = match self.outstanding.first() {
            Some(first) => first.saturating_sub(1),
            None => self.scanned,
        }
        .max(self.cursor.up_to);
        self.taken_above.retain(|s| *s > up_to);
        let cursor = FloorCursor { up_to, above: self.taken_above.iter().copied().collect() };
        if cursor != self.cursor {
            machine.record_floor_reported(cursor.clone()).map_err(|e| e.to_string())?;
            self.cursor = cursor;
        }
        Ok(())
    }
}

impl crate::session::Session {
    /// The floor's link after a command (or on the screen's timer): new
    /// events told, the meters published, the floor's requests acted on,
    /// what it took recorded. Without a SAS line, nothing.
    pub fn tend_floor(&mut self) {
        let Some(mut floor) = self.floor.take() else { return };
        for event in floor.port.take_events() {
            let done = match event {
                Event::PlayEnabled(false) => self.machine.floor_disable("SAS host (LP 01)"),
                Event::PlayEnabled(true) => self.machine.floor_enable("SAS host (LP 02)"),
                Event::ClockSet { unix } => {
                    tracing::info!("SAS host set the cabinet's clock to {unix} (Unix time, LP 7F)");
                    Ok(())
                }
                Event::LinkUp(up) => {
                    floor.link_up = up;
                    tracing::info!("SAS link {}", if up { "up" } else { "down" });
                    Ok(())
                }
                Event::RedeemTicket { validation, amount } => {
                    floor.escrow = None;
                    match self.machine.redeem_floor_ticket(&validation, amount) {
                        Ok(_) => {
                            floor.port.ticket_done(&validation, amount, sas::tickets::status::REDEEMED);
                            self.message = Some(crate::notice::Notice::TicketRedeemed { value: amount });
                        }
                        Err(e) => {
                            floor.port.ticket_done(&validation, 0, sas::tickets::status::REJECTED_BY_EGM);
                            self.message = Some(crate::notice::Notice::Core(e));
                        }
                    }
                    Ok(())
                }
                Event::TicketRefused { validation, code } => {
                    floor.escrow = None;
                    let why = if code == sas::tickets::status::REJECTED_BY_EGM {
                        meters::MoneyRefusal::FloorAmount("restricted credit is not held by this cabinet".into())
                    } else {
                        meters::MoneyRefusal::FloorRefused(code)
                    };
                    floor.port.ticket_done(&validation, 0, code);
                    let done = self.machine.floor_ticket_returned(&validation, code, &why);
                    self.message = Some(crate::notice::Notice::Core(meters::CoreError::TicketRejected(why)));
                    done
                }
                Event::AftLock(locked) => {
                    floor.aft_locked = locked;
                    Ok(())
                }
                Event::AftTransfer { id, to_host, cents } => {
                    let kind = if to_host { sas::aft::IN_HOUSE_TO_HOST } else { sas::aft::IN_HOUSE_TO_EGM };
                    // An id the core moved money for already: the first
                    // transfer's outcome, nothing moves again.
                    let done = match self.machine.aft_transfer(&id) {
                        Some((_, first)) => Ok(first),
                        None if to_host => self.machine.aft_out(&id, cents).map(|_| cents),
                        None => self.machine.aft_in(&id, cents).map(|_| cents),
                    };
                    match done {
                        Ok(moved) => floor.port.aft_done(&id, sas::aft::status::FULL, moved, kind),
                        Err(e) => {
                            tracing::warn!("SAS AFT {id}: refused: {e}");
                            floor.port.aft_done(&id, sas::aft::status::UNABLE_NOW, 0, kind);
                        }
                    }
                    Ok(())
                }
                Event::HandpayReset { id } => self.machine.pay_handpay(id, "SAS host (LP 94)").map(|_| ()),
                Event::RealTime(_) | Event::SignatureAsked { .. } => Ok(()),
            };
            if let Err(e) = done {
                tracing::error!("SAS request not carried out: {e}");
            }
        }
        // A ticket the floor did not answer in time goes back: nothing is
        // credited, and a late answer finds no ticket in escrow.
        if let Some((validation, since)) = floor.escrow.clone()
            && since.elapsed().as_secs() >= u64::from(floor.setup.ticket_timeout_s)
        {
            floor.escrow = None;
            floor.port.ticket_done(&validation, 0, sas::tickets::status::TIMED_OUT);
            let why = meters::MoneyRefusal::FloorNoAnswer(floor.setup.ticket_timeout_s);
            if let Err(e) = self.machine.floor_ticket_returned(&validation, sas::tickets::status::TIMED_OUT, &why) {
                tracing::error!("SAS: {e}");
            }
            self.message = Some(crate::notice::Notice::Core(meters::CoreError::TicketRejected(why)));
        }
        if let Err(e) = floor.tell_new_events(&self.machine).and_then(|()| floor.record_taken(&mut self.machine)) {
            tracing::error!("SAS: {e}");
        }
        let idle = self.machine.play_block().is_none() && !self.in_round();
        let key = (self.machine.journal_head(), self.selected, self.denom, idle);
        if floor.built == Some(key) {
            self.floor = Some(floor);
            return;
        }
        floor.built = Some(key);
        let choices = snapshot::Choices {
            tickets_printed: &floor.printed,
            asset_number: floor.setup.asset_number,
            idle,
            accounting_denom: floor.setup.accounting_denom,
            games: &floor.games,
            selected: self.selected,
            player_denom: self.denom,
            player_denoms: &self.machine.config().denominations,
            last_note: floor.last_note,
        };
        let now = snapshot::of(self.machine.state(), &choices);
        if floor.published.as_ref() != Some(&now) {
            floor.port.publish(now.clone());
            floor.published = Some(now);
        }
        self.floor = Some(floor);
    }

    /// The floor's link, when the cabinet has one.
    pub fn floor(&self) -> Option<&FloorLink> {
        self.floor.as_ref()
    }

    /// Starts the floor's link from the configuration (boot).
    pub(crate) fn start_floor(&mut self) -> Result<(), String> {
        let Some(setup) = self.config.sas.clone() else { return Ok(()) };
        let mut games = Vec::new();
        let mut images = vec![std::env::current_exe().map_err(|e| format!("the running program: {e}"))?];
        for g in &self.games {
            let artifact = self.config.paytable_dir.join(format!("{}.json", g.id()));
            games.push(GameIdentity::of(g.id(), &artifact)?);
            images.push(artifact);
        }
        self.floor = Some(FloorLink::start(&setup, &mut self.machine, games, images, self.wake.clone())?);
        self.tend_floor();
        Ok(())
    }
}
