//! The session controller: what each player, attendant or device action
//! does, in terms of the core (`meters::Machine`) and the games
//! (`game-core`). Bevy systems call these methods and draw the result; no
//! rule and no money movement lives in a system.
//!
//! A reel round: the whole outcome is drawn (`ReelGame::play`) and committed
//! with `begin_round` before the reels move; after the reveal a win is
//! collected (`settle_round`) or gambled (each gamble a committed step); a
//! round interrupted by a power loss is resumed at its last step on boot.

use std::path::PathBuf;

use game_core::double_up::{Colour, DoubleUpRule, Gamble};
use game_core::draw_poker::DrawPokerGame;
use game_core::reels::{Bet, ReelGame, ReelRound, StopTables};
use game_core::stud_poker::StudPokerGame;
use meters::{CashOut, Cents, CoreError, Door, Machine, PlayBlock, Tilt, WinComponent};
use serde::{Deserialize, Serialize};

use crate::config::CabinetConfig;
use crate::linked::LinkedPool;
use crate::poker::{DrawRound, StudRound};
use crate::verification::Report;

pub struct LoadedGame {
    pub game: ReelGame,
    pub tables: StopTables,
}

/// A game this cabinet hosts, as its approved artifact describes it.
pub enum HostedGame {
    Reels(LoadedGame),
    DrawPoker(DrawPokerGame),
    StudPoker(StudPokerGame),
}

impl HostedGame {
    pub fn id(&self) -> &str {
        match self {
            HostedGame::Reels(g) => &g.game.id,
            HostedGame::DrawPoker(g) => &g.id,
            HostedGame::StudPoker(g) => &g.id,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            HostedGame::Reels(g) => &g.game.name,
            HostedGame::DrawPoker(g) => &g.name,
            HostedGame::StudPoker(g) => &g.name,
        }
    }

    pub fn reels(&self) -> Option<&LoadedGame> {
        match self {
            HostedGame::Reels(g) => Some(g),
            _ => None,
        }
    }
}

/// What the first step of a reel round records: the bet and the outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SpinRecord {
    pub game: String,
    pub denom: Cents,
    pub bet: Bet,
    pub outcome: ReelRound,
}

/// The round in play, as the screen shows it.
#[derive(Clone, Debug)]
pub struct ActiveRound {
    pub id: u64,
    pub game: usize,
    pub denom: Cents,
    pub record: SpinRecord,
    /// The amount (credits) now at stake in the double-up, after gambles.
    pub at_stake: u64,
    pub gambles: Vec<Gamble>,
    pub resumed: bool,
    /// The reels have been shown to the end (all free games).
    pub revealed: bool,
    /// The player collected, and the round waits for a linked award from
    /// the progressive controller before it can settle.
    pub awaiting_controller: bool,
}

/// A finished round for the player's history (M-34) and the idle display (E-34).
#[derive(Clone, Debug)]
pub struct RoundSummary {
    pub round: u64,
    pub game: String,
    pub denom: Cents,
    pub stake: Cents,
    pub win: Cents,
    /// A reel round's outcome (the idle reels show the last one, E-34).
    pub outcome: Option<ReelRound>,
    /// A card round's cards and result, as the history shows them.
    pub detail: String,
    pub gambles: Vec<Gamble>,
}

pub use crate::names::Lang;

pub struct Session {
    pub machine: Machine,
    pub config: CabinetConfig,
    pub games: Vec<HostedGame>,
    pub selected: usize,
    pub denom: Cents,
    pub lines: u32,
    pub credits_per_line: u64,
    /// Draw poker: coins bet.
    pub coins: u32,
    /// Póquer sem descarte: the ante, in credits.
    pub ante: u64,
    /// The reel round in play.
    pub round: Option<ActiveRound>,
    /// The draw-poker round in play.
    pub draw: Option<DrawRound>,
    /// The póquer sem descarte round in play.
    pub stud: Option<StudRound>,
    /// The last card round, shown until the next one (E-34).
    pub last_card_round: Option<CardRound>,
    pub history: Vec<RoundSummary>,
    pub message: Option<String>,
    pub lang: Lang,
    /// Show amounts in currency (true) or credits (M-16).
    pub show_currency: bool,
    pub verification: Report,
    pub last_ticket: Option<String>,
    pub autoplay_left: u32,
    /// Linked progressive pools (M-19) and their controller links.
    pub linked: Vec<LinkedPool>,
    /// The latest linked award signalled on this machine (M-22), and when.
    pub linked_banner: Option<(String, std::time::Instant)>,
    /// Critical memory's file and the lab seed, to reopen after a RAM clear.
    pub db: PathBuf,
    pub lab_seed: Option<u64>,
    /// When the player last pressed anything (M-35 inactivity).
    pub last_activity: std::time::Instant,
    /// The M-38 warning now on screen, if any.
    pub warning: Option<String>,
    /// A ticket the printer failed to print (the cabinet is tilted until it is).
    pub unprinted: Option<meters::ticket::Ticket>,
}

/// Play credits a demonstration session starts with (M-39), in cents.
pub const DEMO_CREDIT: Cents = 10_000;

/// A finished card round, as its screen keeps showing it.
#[derive(Clone, Debug)]
pub enum CardRound {
    Draw(DrawRound),
    Stud(StudRound),
}

/// One progressive level as the HUD shows it (M-30).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressiveShown {
    pub name: String,
    /// None: a linked pool whose controller is unreachable.
    pub value: Option<Cents>,
    pub linked: bool,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.machine.power_down();
    }
}

/// Open critical memory and set up what the configuration asks of it:
/// standalone pools (once; their money stays, M-20) and linked pools.
pub fn open_machine(db: &std::path::Path, config: &CabinetConfig, lab_seed: Option<u64>) -> Result<Machine, String> {
    let seed = lab_seed.map_or(meters::SeedChoice::Entropy, meters::SeedChoice::Lab);
    let mut machine = Machine::open(db, config.machine.clone(), seed).map_err(|e| match e {
        meters::BootError::RamError(i) => {
            format!("ERRO DE MEMÓRIA CRÍTICA / RAM ERROR: {i}. Jogo desactivado; limpeza da RAM: egm-lab ram-clear {}", db.display())
        }
        other => other.to_string(),
    })?;
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

/// The awards the controller makes for a round's linked hits (pool, level,
/// amount); None while it does not answer (the round stays open, and is
/// collected again when the link is back). Asking again for the same hit
/// returns the same award, never a second one.
pub(crate) fn linked_awards_for(
    linked: &mut [LinkedPool],
    machine_id: &str,
    round: u64,
    game: &str,
    stake: Cents,
    hit: impl Fn(&game_core::progressive::Trigger) -> bool,
) -> Option<Vec<(String, usize, Cents)>> {
    let mut awards: Vec<(String, usize, Cents)> = Vec::new();
    for p in linked {
        if !p.qualifies(game, stake) {
            continue;
        }
        for (level, trigger) in &p.setup.triggers {
            if !hit(trigger) {
                continue;
            }
            let nth = awards.iter().filter(|a| a.0 == p.setup.pool && a.1 == *level).count() as u32;
            let pool = p.setup.pool.clone();
            let amount = p.link.call(|c| c.award(machine_id, round, &pool, *level, nth)).ok()?;
            awards.push((pool, *level, amount));
        }
    }
    Some(awards)
}

/// Millionths as a percentage for the player, without trailing zeros:
/// 12_345 → "1.2345", 10_000 → "1".
fn ppm_percent(ppm: u32) -> String {
    let text = meters::progressive::ppm_as_percent(u64::from(ppm));
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A reel game's opening bet: every line, the smallest credits per line.
fn default_bet(game: &ReelGame) -> (u32, u64) {
    (game.bet.lines.last().copied().unwrap_or(1), game.bet.credits_per_line.first().copied().unwrap_or(1))
}

/// The option `delta` places from `current` in `options`, held at the ends;
/// `current` itself when it is not offered.
fn step<T: Copy + PartialEq>(options: &[T], current: T, delta: i32) -> T {
    match options.iter().position(|&o| o == current) {
        Some(i) => options[(i as i32 + delta).clamp(0, options.len() as i32 - 1) as usize],
        None => current,
    }
}

impl Session {
    pub fn new(machine: Machine, config: CabinetConfig, games: Vec<HostedGame>, verification: Report) -> Self {
        let denom = machine.config().denominations.iter().copied().find(|&d| d >= 1).unwrap_or(1);
        let lang = if config.language == "en" { Lang::En } else { Lang::Pt };
        let mut s = Session {
            machine,
            config,
            games,
            selected: 0,
            denom,
            lines: 1,
            credits_per_line: 1,
            coins: 1,
            ante: 1,
            round: None,
            draw: None,
            stud: None,
            last_card_round: None,
            history: Vec::new(),
            message: None,
            lang,
            show_currency: true,
            verification,
            last_ticket: None,
            autoplay_left: 0,
            linked: Vec::new(),
            linked_banner: None,
            db: PathBuf::new(),
            lab_seed: None,
            last_activity: std::time::Instant::now(),
            warning: None,
            unprinted: None,
        };
        s.linked = s.config.linked_progressives.iter().cloned().map(LinkedPool::start).collect();
        s.opening_bet();
        s.resume_interrupted_round();
        s
    }

    pub fn t<'a>(&self, pt: &'a str, en: &'a str) -> &'a str {
        self.lang.pick(pt, en)
    }

    pub fn game(&self) -> &HostedGame {
        &self.games[self.selected.min(self.games.len().saturating_sub(1))]
    }

    /// The selected game when it is a reel game.
    pub fn reel_game(&self) -> Option<&LoadedGame> {
        self.game().reels()
    }

    /// Whether any round is open on screen.
    pub fn in_round(&self) -> bool {
        self.round.is_some() || self.draw.is_some() || self.stud.is_some()
    }

    /// The id of the round open on screen, whatever its kind.
    pub fn open_round_id(&self) -> Option<u64> {
        self.round.as_ref().map(|r| r.id).or(self.draw.as_ref().map(|d| d.id)).or(self.stud.as_ref().map(|r| r.id))
    }

    pub fn bet(&self) -> Bet {
        Bet { lines: self.lines, credits_per_line: self.credits_per_line }
    }

    /// The stake of the next round, in credits: lines × credits per line,
    /// coins, or the ante (a raise later adds twice the ante).
    pub fn stake_credits(&self) -> u64 {
        match self.game() {
            HostedGame::Reels(_) => self.bet().total_credits(),
            HostedGame::DrawPoker(_) => u64::from(self.coins),
            HostedGame::StudPoker(_) => self.ante,
        }
    }

    pub fn stake_cents(&self) -> Cents {
        self.stake_credits() * self.denom
    }

    /// The bet as the HUD describes it.
    pub fn bet_text(&self) -> String {
        match self.game() {
            HostedGame::Reels(_) => format!("{} {} × {} {}", self.lines, self.t("linhas", "lines"), self.credits_per_line, self.t("créd./linha", "cr/line")),
            HostedGame::DrawPoker(_) => format!("{} {}", self.coins, self.t("moedas", "coins")),
            HostedGame::StudPoker(_) => {
                format!("{} {} {} ({} {})", self.t("ante", "ante"), self.ante, self.t("créd.", "cr"), self.t("aposta 2×:", "raise 2×:"), 2 * self.ante)
            }
        }
    }

    /// The selected game's opening bet.
    fn opening_bet(&mut self) {
        match self.game() {
            HostedGame::Reels(g) => (self.lines, self.credits_per_line) = default_bet(&g.game),
            HostedGame::DrawPoker(g) => self.coins = g.max_coins(),
            HostedGame::StudPoker(g) => self.ante = g.antes.first().copied().unwrap_or(1),
        }
    }

    /// Amount as the player chose to see it: currency or credits (M-16).
    pub fn show(&self, cents: Cents) -> String {
        let c = &self.machine.config().currency;
        if self.show_currency {
            c.format(cents)
        } else {
            let v = meters::money::credits_at(cents, self.denom);
            if v.remainder_cents > 0 { format!("{} cr + {}", v.credits, c.format(v.remainder_cents)) } else { format!("{} cr", v.credits) }
        }
    }

    pub(crate) fn fail(&mut self, e: impl std::fmt::Display) {
        self.message = Some(e.to_string());
    }

    // ----- player -----------------------------------------------------

    /// Game and denomination change only in idle (M-9, E-41).
    pub fn select_game(&mut self, delta: i32) {
        if self.in_round() || self.games.is_empty() {
            return;
        }
        let n = self.games.len() as i32;
        self.choose_game(((self.selected as i32 + delta).rem_euclid(n)) as usize);
    }

    /// Choose a game by its place in the menu.
    pub fn choose_game(&mut self, i: usize) {
        if self.in_round() || i >= self.games.len() {
            return;
        }
        self.selected = i;
        self.opening_bet();
    }

    /// Choose one of the configured denominations.
    pub fn choose_denomination(&mut self, d: Cents) {
        if !self.in_round() && self.machine.config().denominations.contains(&d) {
            self.denom = d;
        }
    }

    pub fn change_denomination(&mut self, delta: i32) {
        if self.in_round() {
            return;
        }
        self.denom = step(&self.machine.config().denominations, self.denom, delta);
    }

    pub fn change_lines(&mut self, delta: i32) {
        if self.in_round() {
            return;
        }
        if let HostedGame::Reels(g) = self.game() {
            self.lines = step(&g.game.bet.lines, self.lines, delta);
        }
    }

    /// The bet button: credits per line, coins, or the ante.
    pub fn change_credits_per_line(&mut self, delta: i32) {
        if self.in_round() {
            return;
        }
        match self.game() {
            HostedGame::Reels(g) => self.credits_per_line = step(&g.game.bet.credits_per_line, self.credits_per_line, delta),
            HostedGame::DrawPoker(g) => self.coins = step(&g.coins, self.coins, delta),
            HostedGame::StudPoker(g) => self.ante = step(&g.antes, self.ante, delta),
        }
    }

    /// The play button: spin the reels, deal the cards, or draw.
    pub fn play(&mut self) -> bool {
        match self.game() {
            HostedGame::Reels(_) => self.spin(),
            HostedGame::DrawPoker(_) if self.draw.is_some() => {
                self.draw_cards();
                true
            }
            HostedGame::DrawPoker(_) => self.deal_draw_poker(),
            HostedGame::StudPoker(_) => self.deal_stud(),
        }
    }

    /// Draw the round and commit it, before anything moves.
    pub fn spin(&mut self) -> bool {
        if self.in_round() {
            return false;
        }
        let bet = self.bet();
        let denom = self.denom;
        // M-19, issue 6: no progressive-eligible bet while the controller
        // of a linked pool the wager would feed is unreachable.
        let (game_id, stake) = (self.game().id().to_owned(), self.stake_cents());
        if let Some(p) = self.linked.iter().find(|p| p.qualifies(&game_id, stake) && !p.view().available()) {
            let text = format!(
                "{} ({})",
                self.t("Progressivo ligado indisponível: apostas suspensas", "Linked progressive unavailable: bets suspended"),
                p.setup.pool
            );
            self.autoplay_left = 0;
            tracing::warn!("bet refused: {text}");
            self.fail(text);
            return false;
        }
        let Some(HostedGame::Reels(g)) = self.games.get(self.selected) else { return false };
        let game_id = g.game.id.clone();
        let played = self.machine.play_round(&game_id, denom, bet.total_credits() * denom, "spin", |rng| {
            g.game.play(&g.tables, rng, bet).map(|outcome| SpinRecord { game: game_id.clone(), denom, bet, outcome })
        });
        match played {
            Ok((id, record)) => {
                self.message = None;
                let at_stake = record.outcome.win;
                self.round = Some(ActiveRound {
                    id,
                    game: self.selected,
                    denom,
                    record,
                    at_stake,
                    gambles: Vec::new(),
                    resumed: false,
                    revealed: false,
                    awaiting_controller: false,
                });
                self.deliver_linked();
                true
            }
            Err(e) => {
                self.autoplay_left = 0;
                self.fail(e);
                false
            }
        }
    }

    /// The reels have shown the whole outcome: settle, unless the player
    /// may double up (then they choose).
    pub fn revealed(&mut self) {
        let Some(r) = self.round.as_mut() else { return };
        r.revealed = true;
        let offer = self.double_up_offered();
        if !offer {
            self.collect();
        }
    }

    /// The double-up of the round in play: (round, its rule, credits at
    /// stake, gambles so far), once its outcome has been shown.
    fn double_up_state(&self) -> Option<(u64, DoubleUpRule, u64, u8)> {
        if let Some(r) = &self.round {
            let rule = self.games.get(r.game).and_then(|g| g.reels()).and_then(|g| g.game.double_up)?;
            return r.revealed.then_some((r.id, rule, r.at_stake, r.gambles.len() as u8));
        }
        let d = self.draw.as_ref()?;
        let HostedGame::DrawPoker(g) = self.games.get(d.game)? else { return None };
        let rule = g.double_up?;
        d.drawn.then_some((d.id, rule, d.at_stake, d.gambles.len() as u8))
    }

    /// Whether the double-up is offered now (shown before the player chooses, M-11).
    pub fn double_up_offered(&self) -> bool {
        self.autoplay_left == 0 && self.double_up_state().is_some_and(|(_, rule, at_stake, done)| rule.check(at_stake, done).is_ok())
    }

    /// Take the amount at stake: settle the round (M-33).
    pub fn collect(&mut self) {
        if self.draw.is_some() {
            self.collect_draw();
            return;
        }
        let Some(r) = self.round.clone() else { return };
        let base_win = r.at_stake * r.denom;
        let components = self.components(&r);
        let hits = self.progressive_hits(&r);
        let Some(linked) = self.linked_awards(&r) else {
            if let Some(a) = self.round.as_mut() {
                a.awaiting_controller = true;
            }
            self.message = Some(self.t("PROGRESSIVO LIGADO! A aguardar o controlador…", "LINKED PROGRESSIVE! Waiting for the controller…").to_owned());
            return;
        };
        match self.machine.settle_round_with_awards(r.id, base_win, components, &hits, &linked) {
            Ok(s) => {
                let win = s.win;
                if win > base_win {
                    self.message = Some(format!("{} {}", self.t("PROGRESSIVO!", "PROGRESSIVE!"), self.show(win - base_win)));
                }
                self.note_handpay(&s.payment);
                self.history.push(RoundSummary {
                    round: r.id,
                    game: r.record.game.clone(),
                    denom: r.denom,
                    stake: r.record.bet.total_credits() * r.denom,
                    win,
                    outcome: Some(r.record.outcome.clone()),
                    detail: String::new(),
                    gambles: r.gambles.clone(),
                });
                self.round = None;
            }
            Err(e) => self.fail(e),
        }
    }

    /// M-12: a win at or above the limit waits for an attendant.
    pub(crate) fn note_handpay(&mut self, payment: &meters::WinPayment) {
        if let meters::WinPayment::Handpay { .. } = payment {
            self.message = Some(self.t("Prémio a pagar manualmente: chame o empregado", "Hand-pay: call an attendant").to_owned());
        }
    }

    /// The progressive levels the round's committed outcome wins (the
    /// core adds any mystery level the round's wager passed).
    fn progressive_hits(&self, r: &ActiveRound) -> Vec<(String, usize)> {
        let Some(g) = self.games.get(r.game).and_then(|g| g.reels()) else { return Vec::new() };
        self.standalone_hits(&g.game.id, |t| game_core::progressive::reels_hit(&g.game, &r.record.outcome, t))
    }

    /// The standalone pools' levels of `game` whose trigger `hit` says the
    /// committed outcome wins (M-18).
    pub(crate) fn standalone_hits(&self, game: &str, hit: impl Fn(&game_core::progressive::Trigger) -> bool) -> Vec<(String, usize)> {
        let mut hits = Vec::new();
        for p in self.config.progressives.iter().filter(|p| p.pool.games.iter().any(|g| g == game)) {
            for (level, trigger) in &p.triggers {
                if hit(trigger) {
                    hits.push((p.pool.id.clone(), *level));
                }
            }
        }
        hits
    }

    fn linked_awards(&mut self, r: &ActiveRound) -> Option<Vec<(String, usize, Cents)>> {
        let Some(HostedGame::Reels(g)) = self.games.get(r.game) else { return Some(Vec::new()) };
        let machine_id = self.machine.config().machine_id.clone();
        let stake = r.record.bet.total_credits() * r.denom;
        linked_awards_for(&mut self.linked, &machine_id, r.id, &g.game.id, stake, |t| game_core::progressive::reels_hit(&g.game, &r.record.outcome, t))
    }

    /// Send every linked pool's queued contributions (kept in critical
    /// memory until the controller acknowledges them).
    pub fn deliver_linked(&mut self) {
        for i in 0..self.linked.len() {
            let pool = self.linked[i].setup.pool.clone();
            if let Err(e) = linked_controller::deliver_outbox(&mut self.machine, &mut self.linked[i].link, &pool) {
                self.fail(e);
            }
        }
    }

    /// Every second: deliver the outbox, finish a round that waits for a
    /// linked award, and signal any new award of a linked pool (M-22).
    pub fn tend_linked(&mut self) {
        if self.linked.is_empty() {
            return;
        }
        self.deliver_linked();
        if self.round.as_ref().is_some_and(|r| r.awaiting_controller) || self.draw.as_ref().is_some_and(|d| d.awaiting_controller) {
            self.collect();
        }
        let cur = self.machine.config().currency.clone();
        for i in 0..self.linked.len() {
            let view = self.linked[i].view();
            if view.last_answer.is_none() {
                continue;
            }
            let p = &mut self.linked[i];
            let seq = view.last_award.as_ref().map(|a| a.seq);
            // The first answer sets the baseline: awards made before this
            // cabinet started are not news.
            if !std::mem::replace(&mut p.heard, true) {
                p.shown_award = seq;
                continue;
            }
            let Some(a) = view.last_award.clone() else { continue };
            if p.shown_award.is_some_and(|s| s >= a.seq) {
                continue;
            }
            p.shown_award = Some(a.seq);
            let level = view.levels.iter().find(|l| l.level == a.level).map_or_else(|| a.level.to_string(), |l| l.name.clone());
            let text = format!("{} {level} {} — {} {}", self.t("JACKPOT", "JACKPOT"), cur.format(a.amount), self.t("máquina", "machine"), a.machine);
            tracing::info!(
                "M-22 linked award shown: pool {} award #{} level {} {} cents machine {}",
                self.linked[i].setup.pool,
                a.seq,
                a.level,
                a.amount,
                a.machine
            );
            self.linked_banner = Some((text, std::time::Instant::now()));
        }
    }

    /// How each progressive level of the current game is won (M-31).
    pub fn progressive_conditions(&self) -> Vec<String> {
        use game_core::progressive::Trigger;
        let id = self.game().id().to_owned();
        let describe = |t: &Trigger| -> String {
            match t {
                Trigger::ReelCombination { symbol, count, max_bet_only } => format!(
                    "{count} × {symbol} {}{}",
                    self.t("numa linha jogada", "on a played line"),
                    if *max_bet_only { self.t(", com a aposta máxima por linha", ", at the largest bet per line") } else { "" }
                ),
                Trigger::PokerHand { pattern, max_coins_only } => {
                    // The hand by its name in this game's paytable.
                    let name = match self.game() {
                        HostedGame::DrawPoker(g) => g.entries.iter().find(|e| e.pattern == *pattern).map(|e| e.name.clone()),
                        _ => None,
                    };
                    let name = name.unwrap_or_else(|| self.t("mão do prémio", "the prize hand").to_owned());
                    format!("{name}{}", if *max_coins_only { self.t(", com o máximo de moedas", ", at the most coins") } else { "" })
                }
                Trigger::StudSideBet => {
                    self.t("aposta lateral: sequência real 100%, sequência de cor 10%", "side bet: royal flush 100%, straight flush 10%").to_owned()
                }
                Trigger::BingoWithin { balls } => format!("bingo {} {balls} {}", self.t("em", "within"), self.t("bolas", "balls")),
            }
        };
        let mut out = Vec::new();
        for p in self.config.progressives.iter().filter(|p| p.pool.games.contains(&id)) {
            for (i, l) in p.pool.levels.iter().enumerate() {
                let share = format!("{}% {}", ppm_percent(l.increment_ppm), self.t("de cada aposta", "of each bet"));
                let how: Vec<String> = p.triggers.iter().filter(|(lv, _)| *lv == i).map(|(_, t)| describe(t)).collect();
                let how = if l.mystery {
                    self.t(
                        "mistério: ganho pela aposta que o faz passar um valor oculto, sorteado entre o valor de reinício e o tecto",
                        "mystery: won by the bet that takes it past a hidden value drawn between its reset value and its ceiling",
                    )
                    .to_owned()
                } else {
                    how.join("; ")
                };
                out.push(format!("{} — {how}; {share}", l.name));
            }
        }
        for p in self.linked.iter().filter(|p| p.setup.games.contains(&id)) {
            let view = p.view();
            for (lv, t) in &p.setup.triggers {
                let name = view.levels.iter().find(|l| l.level == *lv).map_or_else(|| lv.to_string(), |l| l.name.clone());
                out.push(format!("{name} ({}) — {}", self.t("ligado a outras máquinas", "linked to other machines"), describe(t)));
            }
        }
        out
    }

    /// The progressive levels shown with the current game (M-30): the
    /// standalone pools' values, and the linked pools' as last heard.
    pub fn progressives_shown(&self) -> Vec<ProgressiveShown> {
        let id = &self.game().id().to_owned();
        let mut out = Vec::new();
        for pool in self.machine.pools().values().filter(|p| p.config.games.contains(id)) {
            for (cfg, level) in pool.config.levels.iter().zip(&pool.levels) {
                out.push(ProgressiveShown { name: cfg.name.clone(), value: Some(level.current), linked: false });
            }
        }
        for p in self.linked.iter().filter(|p| p.setup.games.contains(id)) {
            let view = p.view();
            let up = view.available();
            for l in &view.levels {
                out.push(ProgressiveShown { name: l.name.clone(), value: up.then_some(l.value), linked: true });
            }
            if view.levels.is_empty() {
                out.push(ProgressiveShown { name: p.setup.pool.clone(), value: None, linked: true });
            }
        }
        out
    }

    fn components(&self, r: &ActiveRound) -> Vec<WinComponent> {
        let o = &r.record.outcome;
        let mut c = Vec::new();
        for w in &o.base.line_wins {
            c.push(WinComponent { label: format!("line {} {}×{}", w.line + 1, w.count, w.symbol), amount: w.win * r.denom });
        }
        if o.base.scatter_win > 0 {
            c.push(WinComponent { label: "scatter".into(), amount: o.base.scatter_win * r.denom });
        }
        let free: u64 = o.free_spins.iter().map(|s| s.win).sum();
        if free > 0 {
            c.push(WinComponent { label: format!("free games ({})", o.free_spins.len()), amount: free * r.denom });
        }
        if !r.gambles.is_empty() {
            c.push(WinComponent { label: format!("double-up ({} gambles)", r.gambles.len()), amount: r.at_stake * r.denom });
        }
        c
    }

    /// Gamble the amount at stake on a colour: a committed step; a loss ends the round.
    pub fn gamble(&mut self, pick: Colour) {
        if !self.double_up_offered() {
            return;
        }
        let Some((id, rule, at_stake, done)) = self.double_up_state() else { return };
        let g = match self.machine.draw_step(id, "gamble", 0, |rng| rule.gamble(rng, at_stake, done, pick)) {
            Ok(g) => g,
            Err(e) => {
                self.fail(e);
                return;
            }
        };
        if let Some(r) = self.round.as_mut() {
            r.gambles.push(g);
            r.at_stake = g.result;
        }
        if let Some(d) = self.draw.as_mut() {
            d.gambles.push(g);
            d.at_stake = g.result;
        }
        if g.result == 0 || !self.double_up_offered() {
            self.collect();
        }
    }

    /// Resume the round a power loss interrupted, at its step (M-36), or
    /// void it when it cannot be resumed.
    fn resume_interrupted_round(&mut self) {
        let Some(open) = self.machine.open_round().cloned() else { return };
        let recall = self.machine.recall(1).ok().and_then(|mut r| r.pop());
        if self.resume_card_round(open.round, recall.as_ref()) {
            return;
        }
        let parsed = recall.as_ref().and_then(|rr| {
            let first = rr.steps.first()?;
            let record: SpinRecord = serde_json::from_value(first.step.data.clone()).ok()?;
            let gambles: Vec<Gamble> = rr.steps[1..].iter().filter_map(|s| serde_json::from_value(s.step.data.clone()).ok()).collect();
            Some((record, gambles))
        });
        let game = parsed.as_ref().and_then(|(rec, _)| self.games.iter().position(|g| g.reels().is_some_and(|l| l.game.id == rec.game)));
        match (parsed, game) {
            (Some((record, gambles)), Some(gi)) if recall.as_ref().and_then(|r| r.steps.first()).is_some_and(|st| st.step.name == "spin") => {
                if let Err(e) = self.machine.resume_round(open.round) {
                    self.fail(e);
                    return;
                }
                let at_stake = gambles.last().map_or(record.outcome.win, |g| g.result);
                self.selected = gi;
                self.denom = record.denom;
                self.lines = record.bet.lines;
                self.credits_per_line = record.bet.credits_per_line;
                self.message = Some(self.t("Jogada interrompida retomada", "Interrupted game resumed").to_owned());
                self.round = Some(ActiveRound {
                    id: open.round,
                    game: gi,
                    denom: record.denom,
                    record,
                    at_stake,
                    gambles,
                    resumed: true,
                    revealed: false,
                    awaiting_controller: false,
                });
            }
            _ => self.void_interrupted(open.round),
        }
    }

    /// M-36: a round that cannot be resumed is voided and its stakes refunded.
    pub(crate) fn void_interrupted(&mut self, round: u64) {
        let reason = "the interrupted game cannot be resumed on this cabinet";
        match self.machine.void_round(round, reason) {
            Ok(refund) => self.message = Some(format!("{}: {}", self.t("Jogada anulada, aposta devolvida", "Game voided, stake refunded"), self.show(refund))),
            Err(e) => self.fail(e),
        }
    }

    // ----- the session (M-35, M-38, M-39) ------------------------------

    /// The player pressed something: the inactivity clock restarts.
    pub fn touch(&mut self) {
        self.last_activity = std::time::Instant::now();
    }

    /// Whether this is a demonstration cabinet (M-39).
    pub fn demo(&self) -> bool {
        self.config.demo
    }

    fn refuse_in_demo(&mut self) -> bool {
        if self.demo() {
            self.message =
                Some(self.t("Modo de demonstração: sem dinheiro, bilhetes nem pagamentos", "Demonstration mode: no money, tickets or payments").to_owned());
        }
        self.demo()
    }

    /// Once a second: the M-38 warnings, and the end of an idle session
    /// (M-35: the operator may end it when no play is made in the set time;
    /// the credit is cashed out on a ticket).
    pub fn tend_session(&mut self) {
        let credit = self.machine.credit();
        if self.in_round() || credit == 0 {
            self.touch();
        }
        let timeout = u64::from(self.config.inactivity_timeout_s);
        let idle = self.last_activity.elapsed().as_secs();
        let lead = (timeout / 2).min(30);
        let mut warning = None;
        if timeout > 0 && credit > 0 && idle >= timeout {
            tracing::warn!("M-35 session ended: no play for {idle} s; credit {credit} cents cashed out");
            self.touch();
            if self.demo() {
                self.message = Some(self.t("Demonstração terminada por inactividade", "Demonstration ended for inactivity").to_owned());
            } else {
                self.cash_out();
                let printed = self.message.clone().unwrap_or_default();
                self.message = Some(format!("{} {printed}", self.t("Sessão terminada por inactividade.", "Session ended for inactivity.")));
            }
        } else if timeout > 0 && credit > 0 && idle + lead >= timeout {
            warning = Some(format!(
                "{} {} s — {}",
                self.t("A sessão termina por inactividade dentro de", "The session ends for inactivity in"),
                timeout - idle,
                self.t("prima qualquer tecla para continuar", "press any key to continue")
            ));
        } else if credit > 0 && credit < self.stake_cents() && !self.in_round() {
            warning = Some(
                self.t(
                    "Crédito insuficiente para a aposta escolhida: reduza a aposta, introduza notas ou receba o crédito (C)",
                    "Not enough credit for the chosen bet: lower the bet, insert notes or cash out (C)",
                )
                .to_owned(),
            );
        } else if let Some(p) = self.linked.iter().find(|p| p.setup.games.iter().any(|g| g == self.game().id()) && !p.view().available()) {
            warning = Some(format!(
                "{} ({})",
                self.t("Sem ligação ao progressivo: as apostas neste jogo estão suspensas", "No link to the progressive: bets on this game are suspended"),
                p.setup.pool
            ));
        }
        if warning.is_some() && warning != self.warning {
            tracing::info!("M-38 warning: {}", warning.as_deref().unwrap_or_default());
        }
        self.warning = warning;
    }

    // ----- money and devices -------------------------------------------

    pub fn insert_note(&mut self, cents: Cents) {
        if self.refuse_in_demo() {
            return;
        }
        match self.machine.insert_note(cents) {
            Ok(_) => self.message = None,
            Err(e) => self.fail(e),
        }
    }

    /// The ticket reader: a ticket by validation number.
    pub fn insert_ticket(&mut self, validation: &str) {
        if self.refuse_in_demo() {
            return;
        }
        match self.machine.insert_ticket(validation) {
            Ok(_) => self.message = None,
            Err(e) => self.fail(e),
        }
    }

    pub fn cash_out(&mut self) {
        if self.refuse_in_demo() {
            return;
        }
        match self.machine.cash_out() {
            Ok(CashOut::Ticket(t)) => {
                self.last_ticket = Some(t.validation.clone());
                self.print_ticket(t);
            }
            Ok(CashOut::Handpay { amount, .. }) => {
                self.message = Some(format!("{} {}", self.t("Pagamento manual:", "Hand-pay:"), self.show(amount)));
            }
            Err(CoreError::NothingToCashOut) => {}
            Err(e) => self.fail(e),
        }
    }

    /// Print an issued ticket. The core has already moved the credit to the
    /// ticket, so a printer that fails must not lose it: the cabinet tilts
    /// (device fault, naming the ticket's value and validation number) and
    /// keeps the ticket until the attendant key prints it again.
    fn print_ticket(&mut self, t: meters::ticket::Ticket) {
        let dir = PathBuf::from(&self.config.ticket_dir);
        match crate::ticket_printer::print(&t, &self.machine.config().currency, &dir) {
            Ok(p) => {
                self.message = Some(format!("{} {}", self.t("Bilhete impresso:", "Ticket printed:"), p.display()));
                self.unprinted = None;
            }
            Err(e) => {
                let detail = format!("printer: {e}; ticket {} of {} not printed", t.validation, self.machine.config().currency.format(t.value));
                tracing::error!("{detail}");
                if let Err(e) = self.machine.set_tilt(Tilt::DeviceFault, &detail) {
                    self.fail(e);
                }
                self.message = Some(detail);
                self.unprinted = Some(t);
            }
        }
    }

    pub fn toggle_door(&mut self, door: Door) {
        let r = if self.machine.state().doors_open.contains(&door) { self.machine.close_door(door) } else { self.machine.open_door(door) };
        if let Err(e) = r {
            self.fail(e);
        }
    }

    /// The attendant key: print a ticket the printer failed on, pay every
    /// pending hand-pay, clear what can be cleared.
    pub fn attendant_clear(&mut self) {
        if let Some(t) = self.unprinted.take() {
            self.print_ticket(t);
            if self.unprinted.is_some() {
                return;
            }
        }
        let ids: Vec<u64> = self.machine.state().handpays.keys().copied().collect();
        for id in ids {
            if let Err(e) = self.machine.pay_handpay(id, "attendant") {
                self.fail(e);
            }
        }
        let tilts: Vec<Tilt> = self.machine.state().tilts.iter().copied().collect();
        for t in tilts {
            if t == Tilt::ProgramVerification && !self.verification.failures().is_empty() {
                continue;
            }
            let _ = self.machine.clear_tilt(t, "attendant");
        }
    }

    /// RAM clear from the audit menu (D-32): the operator's PIN, a reason,
    /// a confirmation. The core records the meters before it, archives the
    /// journal and starts a new epoch; the cabinet then boots on it again
    /// (pools set up anew, the session's rounds and history gone).
    pub fn ram_clear(&mut self, pin: &str, reason: &str) -> Result<u64, String> {
        if self.in_round() {
            return Err(self.t("Há uma jogada em curso", "A round is in progress").to_owned());
        }
        if reason.trim().is_empty() {
            return Err(self.t("Indique o motivo", "Give a reason").to_owned());
        }
        let config = self.config.machine.clone();
        if !config.operator.accepts(&config.operator.operator_id, pin) {
            return Err(self.t("PIN errado", "Wrong PIN").to_owned());
        }
        self.machine.power_down().map_err(|e| e.to_string())?;
        let epoch = Machine::ram_clear(&self.db, &config, &config.operator.operator_id, pin, reason).map_err(|e| e.to_string())?;
        let mut machine = open_machine(&self.db, &self.config, self.lab_seed)?;
        let (passed, detail) = self.verification.detail("(after a RAM clear)");
        machine.record_verification(passed, &detail).map_err(|e| e.to_string())?;
        self.machine = machine;
        self.history.clear();
        self.last_card_round = None;
        self.autoplay_left = 0;
        tracing::warn!("RAM clear by {}: {reason} (new epoch {epoch})", config.operator.operator_id);
        self.message = Some(format!("{} ({})", self.t("Memória crítica limpa", "Critical memory cleared"), reason));
        Ok(epoch)
    }

    /// What stops play now, in the player's language.
    pub fn block_text(&self) -> Option<String> {
        let b = self.machine.play_block()?;
        Some(match b {
            PlayBlock::DoorOpen(d) => format!("{} ({})", self.t("PORTA ABERTA", "DOOR OPEN"), crate::names::door(d, self.lang)),
            PlayBlock::Tilt(Tilt::ProgramVerification) => {
                let f = self.verification.failures().first().map(|c| format!(": {} — {} ≠ {}", c.file.display(), c.expected, c.actual)).unwrap_or_default();
                format!("{}{f}", self.t("FALHA NA VERIFICAÇÃO DO PROGRAMA", "PROGRAM VERIFICATION FAILURE"))
            }
            PlayBlock::Tilt(Tilt::DeviceFault) => format!(
                "{}{}",
                self.t("AVARIA DE DISPOSITIVO: chame o empregado", "DEVICE FAULT: call an attendant"),
                self.unprinted
                    .as_ref()
                    .map(|t| format!(" — {} {} ({})", self.t("bilhete por imprimir", "ticket not printed"), self.show(t.value), t.validation))
                    .unwrap_or_default()
            ),
            PlayBlock::Tilt(Tilt::LogicDoorAccess) => self.t("ACESSO À PORTA LÓGICA: chame o empregado", "LOGIC DOOR ACCESSED: call an attendant").to_owned(),
            PlayBlock::Tilt(t) => format!("TILT: {}", crate::names::tilt(t, self.lang)),
            PlayBlock::HandpayPending(id) => {
                let amount = self.machine.state().handpays.get(&id).map_or(0, |h| h.amount);
                format!("{} {}", self.t("PAGAMENTO MANUAL PENDENTE:", "HAND-PAY PENDING:"), self.show(amount))
            }
            PlayBlock::CriticalMemory(m) => format!("{} {m}", self.t("ERRO DE MEMÓRIA CRÍTICA:", "CRITICAL MEMORY ERROR:")),
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
        config.paytable_dir = ws.join("assets/paytables/compiled");
        config.manifest = ws.join("assets/paytables/approved.ron");
        let manifest = crate::verification::read_manifest(&config.manifest).unwrap();
        let floor = paytables::check::Floor::legal_minimum();
        let game = match paytables::artifact::load_approved(&config.paytable_dir.join("classic-sevens.json"), &manifest, &floor).unwrap() {
            paytables::artifact::CompiledGame::Reels(g) => g,
            other => panic!("{other:?}"),
        };
        let tables = StopTables::new(&game).unwrap();
        let report = crate::verification::verify(&config.games, &config.paytable_dir, &manifest, false);
        let machine = open_machine(db, &config, Some(3)).unwrap();
        let mut s = Session::new(machine, config, vec![HostedGame::Reels(LoadedGame { game, tables })], report);
        s.db = db.to_owned();
        s
    }

    #[test]
    fn ram_clear_needs_the_pin_and_a_reason_and_starts_a_new_epoch() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("egm.sqlite");
        let mut s = session(&db);
        s.insert_note(2_000);
        assert!(s.spin());
        s.revealed();
        s.collect();
        assert!(!s.in_round());
        let played = s.machine.state().totals.games.jogadas_efectuadas;
        assert_eq!(played, 1);
        assert_eq!(s.ram_clear("1234", "test").unwrap_err(), "PIN errado");
        assert_eq!(s.ram_clear("0000", "  ").unwrap_err(), "Indique o motivo");
        assert_eq!(s.machine.state().totals.games.jogadas_efectuadas, 1, "a refused clear changes nothing");
        s.ram_clear("0000", "lab reset").unwrap();
        // The new epoch: meters at zero, the standalone pool set up again,
        // and the record of the clear with the meters before it.
        let st = s.machine.state();
        assert_eq!((st.credit, st.totals.games.jogadas_efectuadas, st.totals.dinheiro_entrado), (0, 0, 0));
        assert!(st.pools.contains_key("sevens"));
        assert!(s.history.is_empty());
        let clears = s.machine.ram_clears().unwrap();
        assert_eq!(clears.len(), 1);
        assert!(clears[0].reason.contains("lab reset"), "{:?}", clears[0]);
        assert!(clears[0].meters_before.contains("\"jogadas_efectuadas\":1"), "{}", clears[0].meters_before);
        // And play goes on, on the new epoch.
        s.insert_note(500);
        assert!(s.spin());
    }

    #[test]
    fn ppm_as_percent_is_exact() {
        assert_eq!(ppm_percent(10_000), "1");
        assert_eq!(ppm_percent(12_345), "1.2345");
        assert_eq!(ppm_percent(5_000), "0.5");
        assert_eq!(ppm_percent(1), "0.0001");
    }
}
