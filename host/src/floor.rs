//! The floor's slot management system (SAS 6.02, issue 48) on the game
//! host's side: the SAS port runs on a thread of its own (`sas::port`);
//! here, after every command, the host publishes the core's meters as a
//! snapshot, tells the floor of the journal's new events (their
//! exceptions, `exceptions`), acts on what the floor asked (play disabled
//! or enabled through the core), and records in critical memory how far
//! the floor has taken the journal, so that after a power cut exactly the
//! events it has not taken are told again.
//!
//! Money the floor moves (a ticket redeemed or numbered, an AFT transfer,
//! a hand-pay reset, a SAS progressive level won) moves only through the
//! core (`requests`, `Machine::settle_round_with_floor`).

mod exceptions;
mod registration;
mod requests;
mod snapshot;

use std::collections::BTreeSet;
use std::path::PathBuf;

use meters::{Entry, FloorCursor, Machine};
pub use sas::egm::Sounds;
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
    /// How long a ticket in the reader waits for the floor's answer before
    /// it is returned, nothing credited, and a cash-out for its validation
    /// number before it is given up, nothing moved (seconds).
    #[serde(default = "default_ticket_timeout_s")]
    pub ticket_timeout_s: u32,
    /// The asset number the floor knows this cabinet by (AFT, LP 74/72).
    #[serde(default)]
    pub asset_number: u32,
    /// Who numbers a cash-out ticket: the cabinet (its own 18-digit
    /// number, reported to the floor by 3D and LP 4D), or the floor's
    /// system (SAS system validation, LP 57/58).
    #[serde(default)]
    pub validation: TicketValidation,
    /// The SAS progressive group this cabinet is in and the games its
    /// levels are shown with (LP 80/86); none by default.
    #[serde(default)]
    pub progressive: Option<SasProgressive>,
}

/// `progressive: Some((group: 1, games: ["ocean-treasure"], triggers: [(1,
/// ReelCombination(symbol: "7R", count: 3, max_bet_only: true))]))`: the
/// floor's progressive controller broadcasts the group's levels; they are
/// shown with these games as a linked pool's, and while no broadcast has
/// come for 5 s no round of them starts (G-49). A round of these games
/// whose outcome hits a trigger wins that SAS level (01–20 hex) at the
/// amount last broadcast, locked up for an attendant (sas.md §8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SasProgressive {
    pub group: u8,
    pub games: Vec<String>,
    /// (SAS level, trigger): none by default (the levels are only shown).
    #[serde(default)]
    pub triggers: Vec<(u8, game_core::progressive::Trigger)>,
}

/// The floor's SAS progressive group as a round of one of its games sees
/// it (issue 48): the triggers, and each level's amount as last broadcast.
pub(crate) struct FloorLevels<'a> {
    pub group: u8,
    pub games: &'a [String],
    pub triggers: &'a [(u8, game_core::progressive::Trigger)],
    pub levels: &'a std::collections::BTreeMap<u8, meters::Cents>,
}

impl FloorLevels<'_> {
    /// The levels a round of `game` wins (group, level, amount), each at
    /// most once; `None` while a level it hit has no amount broadcast (the
    /// round waits for it: never paid at a guess).
    pub fn awards(&self, game: &str, hit: impl Fn(&game_core::progressive::Trigger) -> bool) -> Option<Vec<(u8, u8, meters::Cents)>> {
        let mut awards: Vec<(u8, u8, meters::Cents)> = Vec::new();
        if !self.games.iter().any(|g| g == game) {
            return Some(awards);
        }
        for (level, trigger) in self.triggers {
            if hit(trigger) && !awards.iter().any(|a| a.1 == *level) {
                awards.push((self.group, *level, *self.levels.get(level)?));
            }
        }
        Some(awards)
    }
}

/// Who assigns a cash-out ticket's validation number (sas.md §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TicketValidation {
    /// The cabinet draws it (`meters::ticket`) and reports the ticket.
    #[default]
    Cabinet,
    /// The floor's system assigns it before the ticket prints (LP 57/58);
    /// without its answer in `ticket_timeout_s`, nothing moves.
    System,
    /// SAS secure-enhanced validation: the cabinet derives each number
    /// from the validation ID and sequence the floor set (LP 4C), so the
    /// floor can recompute it; none is printed before the floor set them
    /// (3F).
    SecureEnhanced,
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
        if let Some(p) = &self.progressive {
            if p.group == 0 {
                return Some("sas.progressive.group 0 is not a group (1..=255)".into());
            }
            if p.games.is_empty() {
                return Some("sas.progressive.games is empty: name the games its levels are shown with".into());
            }
            if let Some((level, _)) = p.triggers.iter().find(|(l, _)| !(1..=sas::progressive::MAX_LEVEL).contains(l)) {
                return Some(format!("sas.progressive.triggers: level {level} is not a SAS level (1..=32, 01-20 hex)"));
            }
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
    /// A ticket in the reader, with the floor since then.
    escrow: Option<(String, std::time::Instant)>,
    /// A cash-out waiting for the floor's validation number (its amount),
    /// since then.
    cash_out: Option<(meters::Cents, std::time::Instant)>,
    /// The floor holds an AFT lock: play stops until it ends (LP 74).
    aft_locked: bool,
    /// The SAS progressive levels as last broadcast (level → cents), and
    /// whether a broadcast came within 5 s.
    levels: std::collections::BTreeMap<u8, meters::Cents>,
    progressive_heard: bool,
    /// What the floor lets the cabinet sound (LP 03/04/05), and whether it
    /// lets the note acceptor take notes (LP 06/07): the floor's session
    /// settings, every sound and the acceptor on at each start [R: a floor
    /// sets them again after a link comes up].
    sounds: Sounds,
    notes_enabled: bool,
    /// Issue 71: the note values the floor lets the acceptor take (LP 08;
    /// none: every value the configuration takes), and whether it is
    /// disabled after each note taken (LP 06 enables it again): after each
    /// note journaled past this sequence number (the journal's head when
    /// the floor asked), none before it.
    note_values: Option<BTreeSet<meters::Cents>>,
    notes_off_after_each: Option<u64>,
    /// The games the floor disabled (LP 09), by id.
    games_off: BTreeSet<String>,
    /// No game starts before this (LP 2E's game delay).
    delay_until: Option<std::time::Instant>,
    /// The floor's ticket data (LP 7D), as last set.
    ticket_data: sas::ticket_data::TicketData,
    /// The last tickets printed, newest first (LP 4D).
    printed: Vec<sas::snapshot::TicketOut>,
    /// When the port's timing was last written to the log.
    timing_logged: std::time::Instant,
    /// Lab build, `EGM_SAS_TIMES=FILE` (issue 71, `tools/bench-sas.sh`):
    /// the file each reply's monotonic times are appended to, and when
    /// they last were.
    reply_times: Option<(PathBuf, std::time::Instant)>,
    /// What the last snapshot was built from (the journal's head, the game
    /// and denomination, whether idle): unchanged, it is not built again.
    built: Option<(u64, usize, meters::Cents, bool)>,
}

/// Lab build: `EGM_SAS_TIMES=FILE` asks the port for each reply's
/// monotonic times (a bench's; never in a retail build).
fn reply_times_file(port: &Port) -> Option<(PathBuf, std::time::Instant)> {
    if !cfg!(feature = "lab") {
        return None;
    }
    let path = PathBuf::from(std::env::var_os("EGM_SAS_TIMES")?);
    port.record_reply_times();
    tracing::info!("SAS port: each reply's times to {}", path.display());
    Some((path, std::time::Instant::now()))
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
        if let Some(p) = &setup.progressive {
            port.join_progressive_group(p.group);
        }
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
        // restart (the money moved once, in the journal; or it failed, a
        // pending one resumed at boot included).
        let last_transfer = recent.iter().find_map(|r| match &r.entry {
            Entry::AftIn { transaction_id, value } => Some((transaction_id.clone(), *value, sas::aft::IN_HOUSE_TO_EGM, sas::aft::status::FULL)),
            Entry::AftOut { transaction_id, value } => Some((transaction_id.clone(), *value, sas::aft::IN_HOUSE_TO_HOST, sas::aft::status::FULL)),
            Entry::AftFailed { transaction_id, to_host, status, .. } => {
                Some((transaction_id.clone(), 0, if *to_host { sas::aft::IN_HOUSE_TO_HOST } else { sas::aft::IN_HOUSE_TO_EGM }, *status))
            }
            _ => None,
        });
        if let Some((id, cents, kind, status)) = last_transfer {
            port.aft_done(&id, status, cents, kind);
        }
        let reply_times = reply_times_file(&port);
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
            cash_out: None,
            aft_locked: false,
            levels: std::collections::BTreeMap::new(),
            progressive_heard: false,
            sounds: Sounds::All,
            notes_enabled: true,
            note_values: None,
            notes_off_after_each: None,
            games_off: BTreeSet::new(),
            delay_until: None,
            ticket_data: sas::ticket_data::TicketData::default(),
            printed: snapshot::tickets_printed(machine.state()),
            timing_logged: std::time::Instant::now(),
            reply_times,
            built: None,
        })
    }

    /// Every minute, the port's own reply times (issue 71: where a late
    /// reply's time went — in the port, or on the line after it).
    fn log_timing(&mut self) {
        if self.timing_logged.elapsed() < std::time::Duration::from_secs(60) {
            return;
        }
        self.timing_logged = std::time::Instant::now();
        let t = self.port.timing();
        let (p50, p99, max) = t.reply_start_summary();
        tracing::info!(
            "SAS port: {} replies, reply start in the port p50 {p50} µs, p99 {p99} µs, max {max} µs; longest write {} µs ({})",
            t.replies,
            t.longest_write_us,
            t.placement
        );
    }

    /// Every 5 s, the replies' monotonic times to `EGM_SAS_TIMES`'s file,
    /// one reply a line: the poll's last byte read, the reply written
    /// (microseconds).
    fn write_reply_times(&mut self) {
        let Some((path, at)) = self.reply_times.as_mut() else { return };
        if at.elapsed() < std::time::Duration::from_secs(5) {
            return;
        }
        *at = std::time::Instant::now();
        let lines: String = self.port.take_reply_times().iter().map(|(read, written)| format!("{read} {written}\n")).collect();
        let appended = std::fs::OpenOptions::new().create(true).append(true).open(&*path).and_then(|mut f| std::io::Write::write_all(&mut f, lines.as_bytes()));
        if let Err(e) = appended {
            tracing::warn!("EGM_SAS_TIMES {}: {e}", path.display());
        }
    }

    /// Whether the floor holds an AFT lock (play stops).
    pub fn aft_locked(&self) -> bool {
        self.aft_locked
    }

    /// What the floor lets the cabinet sound (LP 03, 04, 05).
    pub fn sounds(&self) -> Sounds {
        self.sounds
    }

    /// Whether the floor lets the note acceptor take notes (LP 06, 07).
    pub fn notes_enabled(&self) -> bool {
        self.notes_enabled
    }

    /// Whether the floor lets the note acceptor take a note of `cents`
    /// (LP 06/07, and LP 08's values).
    pub fn takes_note(&self, cents: meters::Cents) -> bool {
        self.notes_enabled && self.note_values.as_ref().is_none_or(|v| v.contains(&cents))
    }

    /// Why the floor holds a round of `game` back, if it does: the game
    /// disabled (LP 09), or the game delay not over (LP 2E).
    pub fn holds_game(&self, game: &str) -> Option<crate::notice::Notice> {
        if self.games_off.contains(game) {
            return Some(crate::notice::Notice::GameOffByFloor);
        }
        self.delay_until.filter(|until| std::time::Instant::now() < *until).map(|_| crate::notice::Notice::GameDelayedByFloor)
    }

    /// The floor's ticket data (LP 7D).
    pub fn ticket_data(&self) -> &sas::ticket_data::TicketData {
        &self.ticket_data
    }

    /// Whether the floor holds play: an AFT lock, or a cash-out waiting
    /// for its validation number.
    pub fn holds_play(&self) -> bool {
        self.aft_locked || self.cash_out.is_some()
    }

    /// The SAS progressive group `game` is in, if any.
    fn progressive_of(&self, game: &str) -> Option<&SasProgressive> {
        self.setup.progressive.as_ref().filter(|p| p.games.iter().any(|g| g == game))
    }

    /// The SAS progressive levels shown with `game` (level, cents; `None`
    /// while no broadcast came within 5 s), when the game is in the group.
    pub fn progressive_levels(&self, game: &str) -> Option<Vec<(u8, Option<meters::Cents>)>> {
        self.progressive_of(game)?;
        let heard = self.progressive_heard;
        let levels: Vec<_> = self.levels.iter().map(|(l, c)| (*l, heard.then_some(*c))).collect();
        Some(if levels.is_empty() { vec![(0, None)] } else { levels })
    }

    /// The SAS progressive group `game` is in, while its broadcasts are
    /// not heard, or a level it can win has no amount broadcast since the
    /// boot or since it was last won (G-49: no round of it starts).
    pub fn progressive_unheard(&self, game: &str) -> Option<u8> {
        let p = self.progressive_of(game)?;
        let unknown = p.triggers.iter().any(|(l, _)| !self.levels.contains_key(l));
        (!self.progressive_heard || unknown).then_some(p.group)
    }

    /// The SAS progressive group as a round sees it; none without one.
    pub(crate) fn round_levels(&self) -> Option<FloorLevels<'_>> {
        let p = self.setup.progressive.as_ref()?;
        Some(FloorLevels { group: p.group, games: &p.games, triggers: &p.triggers, levels: &self.levels })
    }

    /// Whether the floor's system numbers cash-out tickets.
    pub fn validates_cash_outs(&self) -> bool {
        self.setup.validation == TicketValidation::System
    }

    /// Whether tickets are numbered by secure-enhanced validation (LP 4C).
    pub fn secure_enhanced(&self) -> bool {
        self.setup.validation == TicketValidation::SecureEnhanced
    }

    /// A cash-out found no validation ID set: the floor is told (3F,
    /// "validation ID not configured").
    pub(crate) fn validation_id_missing(&self) {
        self.port.raise(vec![sas::exceptions::Exception { code: 0x3F, data: Vec::new(), source: None }]);
    }

    /// A cash-out of `cents` asks the floor for its ticket's validation
    /// number (57). False while one is waiting already.
    pub(crate) fn ask_validation(&mut self, cents: meters::Cents) -> bool {
        if self.cash_out.is_some() {
            return false;
        }
        self.port.validation_asked(cents);
        self.cash_out = Some((cents, std::time::Instant::now()));
        true
    }

    /// Issue 70: the ticket the floor was deciding on went back from the
    /// acceptor before it answered: the floor is told it was not redeemed.
    pub(crate) fn ticket_given_back(&mut self, validation: &str) {
        if self.escrow.take_if(|(v, _)| v == validation).is_some() {
            self.port.ticket_done(validation, 0, sas::tickets::status::REJECTED_BY_EGM);
        }
    }

    /// Issue 70: the floor's ticket through the acceptor ended: credited
    /// (`Some(amount)`: redeemed, status 00) or given back.
    pub(crate) fn ticket_ended(&mut self, validation: &str, credited: Option<meters::Cents>) {
        match credited {
            Some(amount) => self.port.ticket_done(validation, amount, sas::tickets::status::REDEEMED),
            None => self.port.ticket_done(validation, 0, sas::tickets::status::REJECTED_BY_EGM),
        }
    }

    /// A ticket is in the reader: ask the floor, which validates every
    /// ticket. False while another one is with it.
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
                    Entry::NoteIn { value } => {
                        self.last_note = Some(*value);
                        // LP 08's action 00: the acceptor is disabled after
                        // each note, until the floor's LP 06.
                        if self.notes_off_after_each.is_some_and(|from| r.seq > from) {
                            self.notes_enabled = false;
                        }
                    }
                    // A SAS level won: its amount is forgotten until the
                    // controller broadcasts it again, reset (sas.md §8),
                    // so that it is never paid twice at the old amount.
                    Entry::RoundSettled { progressive, .. } => {
                        for level in progressive.iter().filter(|a| a.floor_group.is_some()).filter_map(|a| u8::try_from(a.level).ok()) {
                            self.levels.remove(&level);
                            self.port.progressive_won(level);
                        }
                    }
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
        self.tend_floor_link();
        // A round that won a SAS level not broadcast since it was last won
        // is collected once the controller broadcasts it.
        let waiting = self.round_info().is_some_and(|r| r.phase == crate::round::Phase::ProgressivePending);
        if waiting && self.floor.as_ref().is_some_and(|f| f.setup.progressive.is_some()) {
            self.collect();
            self.tend_floor_link();
        }
    }

    fn tend_floor_link(&mut self) {
        let Some(mut floor) = self.floor.take() else { return };
        // Issue 71: the transfer journaled pending at the last tend.
        self.make_pending_aft(Some(&floor));
        for event in floor.port.take_events() {
            if let Err(e) = self.act_on(&mut floor, event) {
                tracing::error!("SAS request not carried out: {e}");
            }
        }
        self.floor_timeouts(&mut floor);
        floor.log_timing();
        floor.write_reply_times();
        if let Err(e) = floor.tell_new_events(&self.machine).and_then(|()| floor.record_taken(&mut self.machine)) {
            tracing::error!("SAS: {e}");
        }
        let idle = self.idle();
        let key = (self.machine.journal_head(), self.selected, self.denom, idle);
        if floor.built == Some(key) {
            self.floor = Some(floor);
            return;
        }
        floor.built = Some(key);
        let choices = snapshot::Choices {
            tickets_printed: &floor.printed,
            ticket_expiry_days: self.config.printer.as_ref().map_or(0, |p| p.expiry_days),
            asset_number: floor.setup.asset_number,
            system_validation: floor.validates_cash_outs(),
            secure_enhanced: floor.secure_enhanced(),
            progressive: floor.setup.progressive.as_ref(),
            idle,
            credit_limit: self.machine.config().credit_limit,
            meter_digits: self.machine.config().meter_digits,
            games_off: &floor.games_off,
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

    /// No round open and nothing blocking play: what the floor may lock
    /// for a transfer (LP 74) and when a cash-out may ask it for a number.
    pub(crate) fn idle(&self) -> bool {
        self.machine.play_block().is_none() && !self.in_round()
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
            games.push(GameIdentity::of(g.id(), &artifact, g.largest_stake())?);
            images.push(artifact);
        }
        self.floor = Some(FloorLink::start(&setup, &mut self.machine, games, images, self.wake.clone())?);
        self.tend_floor();
        Ok(())
    }
}
