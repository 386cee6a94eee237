//! The player session: what each player, attendant or device action does,
//! in terms of the core (`meters::Machine`) and the hosted games. The
//! cabinet calls these methods and draws what they report; no rule and no
//! money movement lives in a Bevy system.
//!
//! Every round, of any kind, runs the one lifecycle of [`crate::round`]:
//! the whole outcome drawn and committed with the stake before anything is
//! shown, each decision a committed step, the win collected or gambled, and
//! a round interrupted by a power loss resumed at its last step on boot.
//!
//! Here: the session's state, what the screens read, and the player's
//! game commands. Beside it, one concept each: the interrupted round
//! (`resume`), progressive levels and the linked pools (`progressives`),
//! the session rules (`rules`), money in and out (`money`), and the doors,
//! the attendant and the RAM clear (`attendant`).

use std::path::PathBuf;

use game_core::double_up::Colour;
use meters::{Cents, CoreError, Machine, PlayBlock, Tilt};

use crate::catalogue::HostedGame;
use crate::config::CabinetConfig;
use crate::kind::{BetControl, GameKind};
use crate::linked::LinkedPool;
use crate::notice::{AwardBanner, Notice, Warning};
use crate::round::{Phase, Progress, Round, RoundInfo, Services, Table};
use crate::verification::Report;

mod attendant;
mod controls;
mod money;
mod overlay;
mod progressives;
mod resume;
mod rules;
mod variants;

pub use crate::names::Lang;
pub use crate::round::RoundSummary;
pub use controls::Controls;
pub use overlay::Overlay;
pub(crate) use overlay::Under;
pub use progressives::{Attached, ProgressiveShown, conditions};
pub use variants::VariantChoice;

pub struct Session {
    pub(crate) machine: Machine,
    pub(crate) config: CabinetConfig,
    /// The games on the menu: one variant of each (issue 50).
    pub(crate) games: Vec<HostedGame>,
    /// The RTP variants configured and not offered (issue 50).
    pub(crate) variants_aside: Vec<HostedGame>,
    pub(crate) selected: usize,
    pub(crate) denom: Cents,
    pub(crate) history: Vec<RoundSummary>,
    /// The notice on the message line.
    pub(crate) message: Option<Notice>,
    pub(crate) lang: Lang,
    /// Show amounts in currency (true) or credits (M-16).
    pub(crate) show_currency: bool,
    pub(crate) verification: Report,
    pub(crate) last_ticket: Option<String>,
    pub(crate) autoplay_left: u32,
    /// Linked progressive pools (M-19) and their controller links.
    pub(crate) linked: Vec<LinkedPool>,
    /// The latest linked award signalled on this machine (M-22), and when.
    pub(crate) linked_banner: Option<(AwardBanner, std::time::Instant)>,
    /// The configuration file the cabinet booted on (H-52's component).
    pub(crate) config_file: PathBuf,
    /// Critical memory's file and the lab seed, to reopen after a RAM clear.
    pub(crate) db: PathBuf,
    pub(crate) lab_seed: Option<u64>,
    /// When the player last pressed anything (M-35 inactivity).
    pub(crate) last_activity: std::time::Instant,
    /// The M-38 warning now on screen, if any.
    pub(crate) warning: Option<Warning>,
    /// Actions refused so far (a command compares it before and after).
    pub(crate) refusals: u64,
    /// Set by [`Session::power_cut`]: no power-down record on drop.
    pub(crate) cut: bool,
    /// The screen open over the game (issue 45): play is refused under it.
    pub(crate) overlay: Option<Overlay>,
    /// When a player last touched the cabinet or put money in (the attract
    /// loop's clock; None since it started).
    pub(crate) touched: Option<std::time::Instant>,
    /// The screen's waker, for news from the host's own threads.
    pub(crate) wake: crate::wake::Wake,
    /// The floor's SAS line (issue 48), when the configuration has one.
    pub(crate) floor: Option<crate::floor::FloorLink>,
    /// The note acceptor (issue 70), when the configuration names one.
    pub(crate) acceptor: Option<crate::acceptor::AcceptorLink>,
    /// The ticket printer (issue 70), when the configuration names one.
    pub(crate) printer: Option<crate::printer::PrinterLink>,
    /// The doors' sensors, the attendant key and the lamps (issue 70),
    /// when the configuration wires them.
    pub(crate) panel: Option<crate::panel::PanelLink>,
    /// A demonstration's own folder (M-39), removed when the session ends:
    /// last, so that critical memory is closed before it goes.
    pub(crate) demo_memory: Option<tempfile::TempDir>,
}

/// Play credits a demonstration session starts with (M-39), in cents.
pub const DEMO_CREDIT: Cents = 10_000;

impl Drop for Session {
    fn drop(&mut self) {
        if !self.cut {
            let _ = self.machine.power_down();
        }
    }
}

impl Session {
    /// End the session as a power cut would: no power-down record, and
    /// critical memory released for the next boot (the fault-injection
    /// tests' cut at each write point).
    pub fn power_cut(mut self) {
        self.cut = true;
    }
}

/// Open critical memory and set up what the configuration asks of it:
/// standalone pools (once; their money stays, M-20) and linked pools.
pub fn open_machine(db: &std::path::Path, config: &CabinetConfig, lab_seed: Option<u64>) -> Result<Machine, String> {
    #[cfg(feature = "lab")]
    let seed = lab_seed.map_or(meters::SeedChoice::Entropy, meters::SeedChoice::Lab);
    // Issue 21: the retail core cannot be seeded reproducibly at all.
    #[cfg(not(feature = "lab"))]
    let seed = match lab_seed {
        None => meters::SeedChoice::Entropy,
        Some(_) => return Err("a reproducible RNG seed exists only in the lab build; this is the retail build".to_owned()),
    };
    let mut machine = Machine::open(db, config.machine.clone(), seed).map_err(|e| match e {
        meters::BootError::RamError(i) => {
            let key_lost = if matches!(i, meters::IntegrityError::KeyLost(_)) { " --key-lost" } else { "" };
            format!("ERRO DE MEMÓRIA CRÍTICA / RAM ERROR: {i}. Jogo desactivado; limpeza da RAM: egm-lab ram-clear{key_lost} {}", db.display())
        }
        other => other.to_string(),
    })?;
    // Issue 47, hole 6: a round is always finished with its committed
    // outcome, so a configuration that no longer hosts the game of the
    // round a power cut left open is refused until it is finished (its
    // removal once voided the round: a loss turned into a refund).
    if let Some(open) = machine.open_round().filter(|o| !config.games.contains(&o.game)) {
        return Err(format!(
            "a jogada {round} de {game} está em curso: a configuração tem de manter o jogo {game} até a jogada terminar / round {round} of {game} is open: the configuration must host {game} until the round is finished (M-36)",
            round = open.round,
            game = open.game
        ));
    }
    for p in &config.progressives {
        if !machine.pools().contains_key(&p.pool.id) {
            machine.configure_pool(p.pool.clone()).map_err(|e| format!("progressive {}: {e}", p.pool.id))?;
        }
    }
    // Linked pools (M-19): this machine's outbox lives in its journal.
    for l in &config.linked_progressives {
        machine.join_linked_pool(&l.pool, l.games.clone(), l.min_wager).map_err(|e| format!("linked progressive {}: {e}", l.pool))?;
    }
    Ok(machine)
}

impl Session {
    pub fn new(machine: Machine, config: CabinetConfig, games: Vec<HostedGame>, verification: Report) -> Self {
        let denom = machine.config().denominations.iter().copied().find(|&d| d >= 1).unwrap_or(1);
        let lang = if config.language == "en" { Lang::En } else { Lang::Pt };
        let mut s = Session {
            machine,
            config,
            games,
            variants_aside: Vec::new(),
            selected: 0,
            denom,
            history: Vec::new(),
            message: None,
            lang,
            show_currency: true,
            verification,
            last_ticket: None,
            autoplay_left: 0,
            linked: Vec::new(),
            linked_banner: None,
            config_file: PathBuf::new(),
            db: PathBuf::new(),
            lab_seed: None,
            last_activity: std::time::Instant::now(),
            warning: None,
            refusals: 0,
            cut: false,
            overlay: None,
            touched: None,
            wake: crate::wake::Wake::default(),
            floor: None,
            acceptor: None,
            printer: None,
            panel: None,
            demo_memory: None,
        };
        // H-55: nothing is sent to a host before the self-tests pass: a
        // cabinet that failed them connects no linked pool's controller
        // (nor, at boot, the floor's SAS line) until it boots with them
        // passed. Before the resume: a round may wait on its pool.
        if s.verification.passed() {
            s.start_linked();
        } else {
            tracing::error!("the self-tests failed: no host is spoken to (SAS, linked pools) until a boot passes them (H-55)");
        }
        s.offer_chosen_variants();
        s.resume_interrupted_round();
        s
    }

    /// The text of the catalogue's key `key` in the player's language
    /// (`texts`).
    pub fn t(&self, key: &'static str) -> &'static str {
        self.lang.t(key)
    }

    /// The selected game. A session always hosts at least one (boot refuses
    /// to start without one).
    pub fn game(&self) -> &HostedGame {
        &self.games[self.selected.min(self.games.len().saturating_sub(1))]
    }

    /// The selected game's rules when it is of kind `K`.
    pub fn rules<K: GameKind>(&self) -> Option<&K> {
        self.game().rules::<K>()
    }

    /// The selected game's round on screen when it is of kind `K`: the
    /// open round, or the last one (E-34).
    pub fn round<K: GameKind>(&self) -> Option<&Round<K>> {
        self.game().round::<K>()
    }

    /// The selected game's round on screen, whatever its kind.
    pub fn round_info(&self) -> Option<RoundInfo> {
        self.game().round_info()
    }

    /// Whether a round is open (not yet settled).
    pub fn in_round(&self) -> bool {
        // Issue 46: a round committed to a linked controller is in
        // progress from its commitment, before its draw.
        self.machine.linked_commitment().is_some() || self.round_info().is_some_and(|r| r.phase != Phase::Ended)
    }

    /// The id of the open round, whatever its kind.
    pub fn open_round_id(&self) -> Option<u64> {
        self.round_info().filter(|r| r.phase != Phase::Ended).map(|r| r.id)
    }

    /// The stake of the next round, in credits.
    pub fn stake_credits(&self) -> u64 {
        self.game().0.stake()
    }

    pub fn stake_cents(&self) -> Cents {
        self.stake_credits().saturating_mul(self.denom)
    }

    /// The bet as the panel describes it.
    pub fn bet_text(&self) -> String {
        self.game().0.bet_text(self.lang)
    }

    /// Amount as the player chose to see it: currency or credits (M-16).
    pub fn show(&self, cents: Cents) -> String {
        let c = &self.machine.config().currency;
        // M-39 (issue 75): a demonstration shows no money, only its play
        // credits at the denomination.
        if self.config.demo {
            return format!("{} cr", meters::money::credits_at(cents, self.denom).credits);
        }
        if self.show_currency {
            c.format(cents)
        } else {
            let v = meters::money::credits_at(cents, self.denom);
            if v.remainder_cents > 0 { format!("{} cr + {}", v.credits, c.format(v.remainder_cents)) } else { format!("{} cr", v.credits) }
        }
    }

    /// The message line's text, in the player's language.
    pub fn message_text(&self) -> Option<String> {
        self.message.as_ref().map(|n| n.text(self.lang, &|c| self.show(c)))
    }

    pub(crate) fn fail(&mut self, notice: Notice) {
        self.autoplay_left = 0;
        self.refusals += 1;
        tracing::info!("refused: {}", notice.text(self.lang, &|c| format!("{c} cents")));
        self.message = Some(notice);
    }

    /// Run a lifecycle action on the selected game, with the services it
    /// needs; then record what it led to.
    fn on_table(&mut self, action: impl FnOnce(&mut dyn Table, &mut Services<'_>) -> Result<Progress, Notice>) -> bool {
        let i = self.selected.min(self.games.len().saturating_sub(1));
        let Session { machine, config, linked, games, autoplay_left, lang, floor, .. } = self;
        let Some(game) = games.get_mut(i) else { return false };
        let floor = floor.as_ref().and_then(|f| f.round_levels());
        let mut cx = Services { machine, progressives: &config.progressives, linked, floor, autoplay: *autoplay_left > 0, lang: *lang };
        let done = action(game.0.as_mut(), &mut cx);
        self.progressed(done)
    }

    /// What a lifecycle action led to: the history, the message line.
    fn progressed(&mut self, done: Result<Progress, Notice>) -> bool {
        match done {
            Ok(Progress::Open) => true,
            Ok(Progress::Committing) => {
                self.message = Some(Notice::AwaitingController);
                true
            }
            Ok(Progress::Awaiting) => {
                self.message = Some(match self.linked.iter().find_map(|p| p.confirming) {
                    Some(amount) => Notice::AwaitingAttendant { amount },
                    None => Notice::AwaitingController,
                });
                true
            }
            Ok(Progress::Settled { summary, payment, progressive }) => {
                if progressive > 0 {
                    self.message = Some(Notice::Progressive { amount: progressive });
                }
                if let meters::WinPayment::Handpay { .. } = payment {
                    // M-12: a win at or above the limit waits for an attendant.
                    self.message = Some(Notice::WinHandpay);
                }
                self.history.push(*summary);
                true
            }
            Err(n) => {
                self.fail(n);
                false
            }
        }
    }

    // ----- what the screens read --------------------------------------

    /// Critical memory, read-only (meters, credit, recall, events).
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    pub fn config(&self) -> &CabinetConfig {
        &self.config
    }

    /// The hosted games, in menu order.
    pub fn games(&self) -> &[HostedGame] {
        &self.games
    }

    /// The selected game's place in the menu.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The denomination of the next round, in cents.
    pub fn denom(&self) -> Cents {
        self.denom
    }

    /// The rounds settled in this session, oldest first (M-34).
    pub fn history(&self) -> &[RoundSummary] {
        &self.history
    }

    /// The win the meters show (PRÉMIO): the open round's once settled or
    /// at stake in a double-up, else the last round's of the game on
    /// screen — never another game's (issue 75: the previous game's win
    /// stayed on the next game).
    pub fn win_on_screen(&self) -> Cents {
        use crate::round::Phase;
        self.round_info()
            .map(|r| match r.phase {
                Phase::Decisions | Phase::Presenting => 0,
                Phase::DoubleUp | Phase::ProgressivePending => r.at_stake * r.denom,
                Phase::Ended => r.settled_win.unwrap_or(0),
            })
            .or_else(|| self.history.last().filter(|h| h.game == self.game().id()).map(|h| h.win))
            .unwrap_or(0)
    }

    /// The notice on the message line.
    pub fn message(&self) -> Option<&Notice> {
        self.message.as_ref()
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Amounts in currency (true) or credits (M-16).
    pub fn show_currency(&self) -> bool {
        self.show_currency
    }

    /// The start-up verification (H-51).
    pub fn verification(&self) -> &Report {
        &self.verification
    }

    /// H-52: the components a lab's seeded verification covers — this
    /// program, its configuration, the manifest, every enabled paytable —
    /// for [`crate::verification::seeded`], which reads them beside play.
    pub fn verification_components(&self) -> Vec<crate::verification::Component> {
        let program = std::env::current_exe().unwrap_or_default();
        crate::verification::components(&program, &self.config_file, &self.config.manifest, &self.config.games, &self.config.paytable_dir)
    }

    /// The validation number of the last ticket printed.
    pub fn last_ticket(&self) -> Option<&str> {
        self.last_ticket.as_deref()
    }

    /// Take the last ticket printed (the player carries it away).
    pub fn take_last_ticket(&mut self) -> Option<String> {
        self.last_ticket.take()
    }

    /// Autoplay rounds left (M-32).
    pub fn autoplay_left(&self) -> u32 {
        self.autoplay_left
    }

    /// Connects the linked pools' controllers (once the self-tests passed).
    fn start_linked(&mut self) {
        self.linked = self.config.linked_progressives.iter().cloned().map(|setup| LinkedPool::start(setup, self.wake.clone())).collect();
    }

    /// The linked pools and their links (M-19).
    pub fn linked(&self) -> &[LinkedPool] {
        &self.linked
    }

    /// The latest linked award signalled on this machine (M-22), and when.
    pub fn linked_banner(&self) -> Option<(String, std::time::Instant)> {
        let currency = &self.machine.config().currency;
        self.linked_banner.as_ref().map(|(b, at)| (b.text(self.lang, &|c| currency.format(c)), *at))
    }

    /// The M-38 warning now on screen, in the player's language.
    pub fn warning(&self) -> Option<String> {
        self.warning.as_ref().map(|w| w.text(self.lang))
    }

    // ----- player -----------------------------------------------------

    /// Game and denomination change only in idle (M-9, E-41).
    pub fn select_game(&mut self, delta: i32) {
        if self.in_round() || self.games.is_empty() || self.refused_under_overlay(Under::Choice) {
            return;
        }
        let n = self.games.len() as i32;
        self.choose_game(((self.selected as i32 + delta).rem_euclid(n)) as usize);
    }

    /// Choose a game by its place in the menu: it opens with its opening bet.
    pub fn choose_game(&mut self, i: usize) {
        if self.in_round() || i >= self.games.len() || self.refused_under_overlay(Under::Choice) {
            return;
        }
        self.selected = i;
        self.games[i].0.reset_bet();
    }

    /// Choose one of the configured denominations.
    pub fn choose_denomination(&mut self, d: Cents) {
        if !self.in_round() && self.machine.config().denominations.contains(&d) && !self.refused_under_overlay(Under::Choice) {
            self.set_denomination(d);
        }
    }

    pub fn change_denomination(&mut self, delta: i32) {
        if self.in_round() || self.refused_under_overlay(Under::Choice) {
            return;
        }
        self.set_denomination(crate::kinds::step(&self.machine.config().denominations, self.denom, delta));
    }

    /// A denomination the bet standing can be played at; one it cannot
    /// (baccarat's banca in whole commission steps) is refused by name
    /// now, not when the round starts (issue 45).
    pub(crate) fn set_denomination(&mut self, d: Cents) -> bool {
        match self.game().0.stake_fits(d) {
            Ok(()) => {
                self.denom = d;
                true
            }
            Err(r) => {
                self.fail(Notice::Refused(r));
                false
            }
        }
    }

    /// A bet button (lines, or the amount: credits per line, coins, ante).
    pub fn adjust_bet(&mut self, control: BetControl, delta: i32) {
        if self.in_round() || self.refused_under_overlay(Under::Play) {
            return;
        }
        let i = self.selected.min(self.games.len().saturating_sub(1));
        let denom = self.denom;
        if let Some(g) = self.games.get_mut(i) {
            g.0.adjust_bet(control, delta, denom);
        }
    }

    /// Edit the selected game's bet of many spots (`Command::EditBet`):
    /// idle only; a refusal names the limit in the player's language.
    pub fn edit_bet(&mut self, edit: serde_json::Value) {
        if self.refused_under_overlay(Under::Play) {
            return;
        }
        if self.in_round() {
            self.fail(Notice::Refused(crate::kind::Refusal::new("Rien ne va plus: a aposta já não pode mudar", "No more bets: the bet cannot change now")));
            return;
        }
        let i = self.selected.min(self.games.len().saturating_sub(1));
        let denom = self.denom;
        if let Some(Err(r)) = self.games.get_mut(i).map(|g| g.0.edit_bet(edit, denom)) {
            self.fail(Notice::Refused(r));
        }
    }

    /// Set the selected game's bet (a remote command or a test): refused
    /// unless the paytable offers it.
    pub fn set_bet<K: GameKind>(&mut self, bet: K::Bet) -> bool {
        if self.in_round() || self.rules::<K>().is_none() || self.refused_under_overlay(Under::Play) {
            return false;
        }
        let value = match serde_json::to_value(bet) {
            Ok(v) => v,
            Err(e) => {
                self.fail(Notice::Core(CoreError::CriticalMemory(e.to_string())));
                return false;
            }
        };
        let i = self.selected.min(self.games.len().saturating_sub(1));
        let denom = self.denom;
        match self.games.get_mut(i).map(|g| g.0.set_bet(value, denom)) {
            Some(Ok(())) => true,
            Some(Err(r)) => {
                self.fail(Notice::Refused(r));
                false
            }
            None => false,
        }
    }

    /// The play button: start a round (the whole outcome drawn and
    /// committed before anything moves), or in a round what the game
    /// makes of it (draw poker: draw).
    pub fn play(&mut self) -> bool {
        // Issue 45: nothing plays under help, the menu or the history.
        if self.refused_under_overlay(Under::Play) {
            return false;
        }
        // Issue 46: a round committed to a linked controller is played
        // first, with the bet it was committed with.
        if self.machine.linked_commitment().is_some() {
            return self.play_committed();
        }
        // A win the player may double: the play button takes it (issue 29:
        // a touch deck's one button, as cabinets do).
        if self.round_info().is_some_and(|r| r.phase == crate::round::Phase::DoubleUp) {
            return self.command_collect();
        }
        if self.in_round() {
            return self.on_table(|t, cx| t.play_in_round(cx).unwrap_or(Ok(Progress::Open)));
        }
        // The floor holds an AFT lock for a transfer (SAS LP 74), or a
        // cash-out waits for its validation number: no new round.
        if self.floor.as_ref().is_some_and(crate::floor::FloorLink::holds_play) {
            self.fail(Notice::FloorLocked);
            return false;
        }
        // Issue 71: the floor disabled the game (LP 09) or delays the next
        // (LP 2E).
        if let Some(why) = self.floor.as_ref().and_then(|f| f.holds_game(self.game().id())) {
            self.fail(why);
            return false;
        }
        // G-49: no round of a game in a SAS progressive group while its
        // controller's broadcasts are not heard.
        if let Some(group) = self.floor.as_ref().and_then(|f| f.progressive_unheard(self.game().id())) {
            self.fail(Notice::LinkedUnavailable { pool: format!("SAS {group}") });
            return false;
        }
        let denom = self.denom;
        self.message = None;
        let started = self.on_table(|t, cx| t.start(cx, denom));
        if started {
            self.deliver_linked();
        }
        started && (self.round_info().is_some() || self.machine.linked_commitment().is_some())
    }

    /// Issue 46: play the round committed to a linked controller (after a
    /// power cut, a game or bet changed meanwhile, or while its nonce is
    /// awaited): its game selected, its denomination and bet set again,
    /// then started; it is drawn once the controller's nonce is in.
    pub(crate) fn play_committed(&mut self) -> bool {
        let Some(c) = self.machine.linked_commitment().cloned() else { return false };
        let Some(i) = self.games.iter().position(|g| g.id() == c.game) else {
            self.fail(Notice::Linked {
                pool: c.pool.clone(),
                error: format!("round {} was committed on game {}, which this cabinet no longer offers", c.round, c.game),
            });
            return false;
        };
        self.selected = i;
        self.denom = c.denom;
        let bet = serde_json::from_str(&c.bet).unwrap_or(serde_json::Value::Null);
        if let Some(game) = self.games.get_mut(i)
            && let Err(r) = game.0.set_bet(bet, c.denom)
        {
            self.fail(Notice::Refused(r));
            return false;
        }
        let denom = c.denom;
        let started = self.on_table(|t, cx| t.start(cx, denom));
        if started {
            self.deliver_linked();
        }
        started && (self.round_info().is_some() || self.machine.linked_commitment().is_some())
    }

    /// A decision of the round in play, typed by its kind (hold a card,
    /// draw, raise or fold…). A committed decision is journaled before it
    /// takes effect.
    pub fn decide<K: GameKind>(&mut self, decision: K::Decision) -> bool {
        if self.rules::<K>().is_none() {
            return false;
        }
        match serde_json::to_value(decision) {
            Ok(v) => self.decide_value(v),
            Err(e) => {
                self.fail(Notice::Core(CoreError::CriticalMemory(e.to_string())));
                false
            }
        }
    }

    /// A decision as a message: the selected game's kind reads it, and
    /// refuses what is not one of its decisions.
    pub fn decide_value(&mut self, decision: serde_json::Value) -> bool {
        if self.refused_under_overlay(Under::Play) {
            return false;
        }
        self.on_table(|t, cx| t.decide(cx, decision))
    }

    /// Autoplay's next round, when autoplay runs and no round is open;
    /// true when one started. A refused round stops autoplay.
    pub fn autoplay_next(&mut self) -> bool {
        // Autoplay waits while an overlay is open (issue 45).
        if self.autoplay_left == 0 || self.in_round() || !self.game().autoplay() || self.overlay.is_some() {
            return false;
        }
        self.autoplay_left -= 1;
        self.play()
    }

    /// Autoplay for `rounds` rounds (M-32: a finite count, at most the
    /// configured maximum, only for a game that needs no decision); 0 stops it.
    pub fn set_autoplay(&mut self, rounds: u32) {
        if rounds > 0 && self.refused_under_overlay(Under::Play) {
            return;
        }
        self.autoplay_left = if self.game().autoplay() { rounds.min(self.config.autoplay_max) } else { 0 };
    }

    /// The screen has shown the whole outcome: settle, unless the player
    /// may double up (then they choose).
    pub fn revealed(&mut self) {
        self.on_table(|t, cx| t.revealed(cx));
    }

    /// Whether the double-up is offered now (shown before the player chooses, M-11).
    pub fn double_up_offered(&self) -> bool {
        self.game().0.double_up(self.autoplay_left > 0).is_some()
    }

    /// Gamble the amount at stake on a colour: a committed step; a loss ends the round.
    pub fn gamble(&mut self, pick: Colour) {
        if self.refused_under_overlay(Under::Play) {
            return;
        }
        self.on_table(|t, cx| t.gamble(cx, pick));
    }

    /// Take the amount at stake: settle the round (M-33).
    pub fn collect(&mut self) {
        if self.refused_under_overlay(Under::Play) {
            return;
        }
        self.on_table(|t, cx| t.collect(cx));
    }

    fn command_collect(&mut self) -> bool {
        let refusals = self.refusals;
        self.collect();
        self.refusals == refusals
    }

    /// What stops play now, in the player's language.
    pub fn block_text(&self) -> Option<String> {
        let b = self.machine.play_block()?;
        Some(match b {
            PlayBlock::DoorOpen(d) => format!("{} ({})", self.t("PORTA ABERTA"), crate::names::door(d, self.lang)),
            PlayBlock::Tilt(Tilt::ProgramVerification) => {
                let f = self.verification.failures().first().map(|c| format!(": {} — {} ≠ {}", c.file.display(), c.expected, c.actual)).unwrap_or_default();
                format!("{}{f}", self.t("FALHA NA VERIFICAÇÃO DO PROGRAMA"))
            }
            PlayBlock::Tilt(Tilt::DeviceFault) => format!(
                "{}{}",
                self.t("AVARIA DE DISPOSITIVO: chame o empregado"),
                self.machine
                    .unprinted_tickets()
                    .first()
                    .map(|t| format!(" — {} {} ({})", self.t("bilhete por imprimir"), self.show(t.value), t.validation))
                    .unwrap_or_default()
            ),
            PlayBlock::Tilt(Tilt::LogicDoorAccess) => self.t("ACESSO À PORTA LÓGICA: chame o empregado").to_owned(),
            PlayBlock::Tilt(Tilt::NoteAcceptor(f)) => {
                format!("{} {}", self.t("LEITOR DE NOTAS: chame o empregado —"), crate::names::acceptor_fault(f, self.lang))
            }
            PlayBlock::Tilt(Tilt::Printer(f)) => {
                let unprinted = self
                    .machine
                    .unprinted_tickets()
                    .first()
                    .map(|t| format!(" — {} {} ({})", self.t("bilhete por imprimir"), self.show(t.value), t.validation))
                    .unwrap_or_default();
                format!("{} {}{unprinted}", self.t("IMPRESSORA: chame o empregado —"), crate::names::printer_fault(f, self.lang))
            }
            PlayBlock::Tilt(Tilt::FloorDisabled) => self.t("JOGO DESACTIVADO PELO SISTEMA DE GESTÃO DO PISO (SAS)").to_owned(),
            PlayBlock::Tilt(Tilt::FloorMaintenance) => self.t("EM MANUTENÇÃO PELO SISTEMA DE GESTÃO DO PISO (SAS)").to_owned(),
            PlayBlock::Tilt(t) => format!("TILT: {}", crate::names::tilt(t, self.lang)),
            PlayBlock::HandpayPending(id) => {
                let amount = self.machine.state().handpays.get(&id).map_or(0, |h| h.amount);
                format!("{} {}", self.t("PAGAMENTO MANUAL PENDENTE:"), self.show(amount))
            }
            PlayBlock::CriticalMemory(m) => format!("{} {m}", self.t("ERRO DE MEMÓRIA CRÍTICA:")),
            PlayBlock::RoundInProgress(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn workspace() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// A session on the default configuration and a real SQLite file.
    fn session(db: &std::path::Path) -> Session {
        let ws = workspace();
        let mut config = CabinetConfig::load(&ws.join("assets/config/cabinet.ron")).unwrap();
        // The shipped configuration is production on a TPM: the lab build's
        // tests run it in lab mode on the file stand-in.
        config.machine.mode = meters::Mode::Lab;
        config.machine.key_store = meters::KeyStoreConfig::FileStandIn;
        // The lab's credential (PIN 0000 as an argon2id hash): production
        // keeps its PIN in the TPM alone (issue 47, hole 7).
        config.machine.operator = meters::MachineConfig::default().operator;
        config.machine.nvram_mirror = Some(db.with_extension("nvram"));
        config.paytable_dir = ws.join("assets/paytables/compiled");
        config.manifest = ws.join("assets/paytables/approved.ron");
        let manifest = crate::verification::read_manifest(&config.manifest).unwrap();
        let floor = paytables::floor::Floor::legal_minimum();
        let game = paytables::artifact::load_approved(&config.paytable_dir.join("classic-sevens.json"), &manifest, &floor).unwrap();
        let report = crate::verification::verify(&config.games, &config.paytable_dir, &manifest, false);
        let machine = open_machine(db, &config, Some(3)).unwrap();
        let mut s = Session::new(machine, config, vec![HostedGame::from_artifact(game).unwrap()], report);
        s.db = db.to_owned();
        s
    }

    #[test]
    fn ram_clear_needs_the_pin_and_a_reason_and_starts_a_new_epoch() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("egm.sqlite");
        let mut s = session(&db);
        s.insert_note(2_000);
        assert!(s.play());
        s.revealed();
        s.collect();
        assert!(!s.in_round());
        let played = s.machine.state().totals.games.jogadas_efectuadas;
        assert_eq!(played, 1);
        // D-32: only with the logic door open; then the core checks the PIN
        // against the machine's own record (issue 21).
        assert_eq!(s.ram_clear("0000", "test").unwrap_err(), "Abra a porta lógica para limpar a RAM");
        s.machine.open_door(meters::Door::Logic).unwrap();
        assert_eq!(s.ram_clear("1234", "test").unwrap_err(), "PIN errado");
        assert_eq!(s.ram_clear("0000", "  ").unwrap_err(), "Indique o motivo");
        assert_eq!(s.machine.state().totals.games.jogadas_efectuadas, 1, "a refused clear changes nothing");
        let owed = s.machine.credit();
        assert!(owed > 0);
        s.ram_clear("0000", "lab reset").unwrap();
        // The new epoch: meters at zero, the standalone pool carried with
        // its money (M-20), the credit owed as a hand-pay (issue 21), and the
        // record of the clear with the meters before it.
        let st = s.machine.state();
        assert_eq!((st.credit, st.totals.games.jogadas_efectuadas, st.totals.dinheiro_entrado), (0, 0, 0));
        assert!(st.pools.contains_key("sevens"));
        assert_eq!(st.handpays.values().map(|h| h.amount).collect::<Vec<_>>(), vec![owed], "the credit is owed through the attendant");
        assert!(s.history.is_empty());
        let clears = s.machine.ram_clears().unwrap();
        assert_eq!(clears.len(), 1);
        assert!(clears[0].reason.contains("lab reset"), "{:?}", clears[0]);
        assert!(clears[0].meters_before.contains("\"jogadas_efectuadas\":1"), "{}", clears[0].meters_before);
        // Issue 74: the clear was made with the logic door open, and the new
        // epoch reads it open (play stopped) until it is closed.
        assert!(s.machine.state().doors_open.contains(&meters::Door::Logic));
        assert!(s.machine.play_block().is_some(), "play allowed with the logic door open after a clear");
        // It boots again from its files (issue 74: a clear with pools could not).
        s.machine.release().unwrap();
        s.machine = open_machine(&db, &s.config, s.lab_seed).unwrap();
        assert!(s.machine.state().pools.contains_key("sevens"));
        // The door is closed, the attendant pays and clears, and play goes
        // on, on the new epoch.
        s.toggle_door(meters::Door::Logic);
        s.attendant_clear();
        assert!(s.machine.state().handpays.is_empty());
        s.insert_note(500);
        assert!(s.play());
    }
}
