//! The round lifecycle, written once for every kind of game (after the
//! G2S game-play states): the stake and the whole outcome committed in one
//! call to the core (`Machine::play_round`), the player's decisions as
//! committed steps with their extra stakes, the reveal, the double-up
//! (M-11), the progressive triggers (M-18, standalone and linked), the
//! settlement with its win components (M-15, M-33), and resume at the last
//! step or void after a restart (M-36). The kind's rules come from its
//! [`GameKind`]; nothing here knows which kind it runs.

use std::any::Any;

use game_core::double_up::{Colour, DoubleUpRule, Gamble};
use game_core::progressive::Trigger;
use meters::{Cents, Machine, RoundRecall, Step, WinComponent, WinPayment};
use serde::{Deserialize, Serialize};

use crate::config::ProgressiveSetup;
use crate::kind::{Award, BetControl, BetEdit, Decided, GameKind, Refusal};
use crate::linked::LinkedPool;
use crate::names::Lang;
use crate::notice::Notice;
use crate::picture::RoundPicture;

/// The journal's name for a double-up gamble, for every kind.
pub const GAMBLE: &str = "gamble";

/// Where a round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Stake and outcome committed (the round can no longer be cancelled,
    /// only completed or, after a restart that cannot resume it, voided);
    /// the player's decisions are awaited.
    Decisions,
    /// Decided; the screen is showing the outcome (the reels spin).
    Presenting,
    /// A win the player may gamble or collect (M-11).
    DoubleUp,
    /// Collected; the linked pool's award is awaited from its controller.
    ProgressivePending,
    /// Settled: the money is closed. The round stays on screen until the
    /// next one starts (E-34).
    Ended,
}

/// The first step of every round: the game, the bet and the whole outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening<B, D> {
    pub game: String,
    pub denom: Cents,
    pub bet: B,
    pub deal: D,
}

/// A round of kind `K`, as its screen shows it.
#[derive(Debug)]
pub struct Round<K: GameKind> {
    pub id: u64,
    pub denom: Cents,
    pub bet: K::Bet,
    pub deal: K::Deal,
    /// The round as the rules see it: the deal and every committed step.
    pub state: K::Round,
    pub phase: Phase,
    /// Credits now at stake in the double-up (the win, once decided).
    pub at_stake: u64,
    pub gambles: Vec<Gamble>,
    /// Resumed after a restart (the screen shows the outcome at once).
    pub resumed: bool,
    /// The whole win in cents, progressive awards included, once settled.
    pub settled_win: Option<Cents>,
}

impl<K: GameKind> Clone for Round<K> {
    fn clone(&self) -> Self {
        Round {
            id: self.id,
            denom: self.denom,
            bet: self.bet.clone(),
            deal: self.deal.clone(),
            state: self.state.clone(),
            phase: self.phase,
            at_stake: self.at_stake,
            gambles: self.gambles.clone(),
            resumed: self.resumed,
            settled_win: self.settled_win,
        }
    }
}

/// A round as the parts of the cabinet that do not know its kind see it
/// (the panel, the sounds, autoplay).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundInfo {
    pub id: u64,
    pub denom: Cents,
    pub phase: Phase,
    /// Credits staked so far, extras included.
    pub staked: u64,
    /// Credits at stake in the double-up.
    pub at_stake: u64,
    pub gambles: Vec<Gamble>,
    pub resumed: bool,
    pub settled_win: Option<Cents>,
}

/// A finished round for the player's history (M-34).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundSummary {
    pub round: u64,
    pub game: String,
    pub denom: Cents,
    pub stake: Cents,
    pub win: Cents,
    /// The round in one line (cards, symbols), in the session's language.
    pub detail: String,
    /// The round as the player saw it, for the history to draw, its
    /// words in Portuguese and in English (the player may switch).
    pub pictures: [RoundPicture; 2],
    pub gambles: Vec<Gamble>,
}

impl RoundSummary {
    /// The round's picture with its words in `lang`.
    pub fn picture(&self, lang: Lang) -> &RoundPicture {
        match lang {
            Lang::Pt => &self.pictures[0],
            Lang::En => &self.pictures[1],
        }
    }
}

/// What the lifecycle needs from the session: the core, the pools, and
/// whether autoplay runs (no double-up is offered then).
pub(crate) struct Services<'a> {
    pub machine: &'a mut Machine,
    pub progressives: &'a [ProgressiveSetup],
    pub linked: &'a mut [LinkedPool],
    /// The floor's SAS progressive group (issue 48), when the cabinet is in one.
    pub floor: Option<crate::floor::FloorLevels<'a>>,
    pub autoplay: bool,
    pub lang: Lang,
}

/// What a lifecycle action led to.
#[derive(Debug)]
pub(crate) enum Progress {
    /// The round goes on (or nothing was to be done).
    Open,
    /// The round waits for a linked pool's controller.
    Awaiting,
    /// Issue 46: the round is committed and waits for the controller's
    /// nonce before it is drawn.
    Committing,
    /// The round settled.
    Settled { summary: Box<RoundSummary>, payment: WinPayment, progressive: Cents },
}

/// What a kind made of an interrupted round.
pub(crate) enum Resumed {
    /// Not a round of this game.
    NotMine,
    /// Resumed at its last step; then what finishing it led to.
    Resumed(Result<Progress, Notice>),
}

/// The kind-independent face of a hosted game, implemented once for every
/// kind by [`Hosted`].
pub(crate) trait Table: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn id(&self) -> &str;
    fn name(&self) -> &str;
    fn family(&self, lang: Lang) -> &'static str;
    fn animated(&self) -> bool;
    fn autoplay(&self) -> bool;
    fn side_pool_seed(&self) -> Option<u64>;
    fn largest_stake(&self) -> Option<u64>;
    /// C-26: the configured excessive increment of a play's coin-in, in
    /// cents (boot sets it from the configuration; none until then).
    fn set_coin_in_limit(&mut self, limit: Cents);
    /// B-16: the approved paytable's RTP per bet configuration, per bet of
    /// a table, and of its side bet.
    fn set_rtp_table(&mut self, rtp: Vec<(u64, u32)>, bets: Vec<(String, u32)>, side: Option<u32>);
    /// B-16 (issue 77): the bets of the table (each spot alone, A-10's
    /// single bets, and the opening bet) whose wager category the artifact
    /// proves no RTP for.
    fn unproven_bets(&self) -> Vec<String>;
    fn reset_bet(&mut self);
    /// A bet button's step, at `denom`: a bet whose round could reach the
    /// excessive increment limit (C-26) is not stepped to.
    fn adjust_bet(&mut self, control: BetControl, delta: i32, denom: Cents);
    /// Whether a bet button's step would change the bet (a button at its
    /// end is drawn disabled).
    fn bet_moves(&self, control: BetControl, delta: i32, denom: Cents) -> bool;
    /// The credits a round of the bet set needs on the credit meter.
    fn credit_needed(&self) -> u64;
    /// Whether the play button does something in the open round now (show
    /// the outcome at once, the kind's play decision: draw, or take a win
    /// offered for doubling).
    fn plays_in_round(&self) -> bool;
    fn set_bet(&mut self, bet: serde_json::Value, denom: Cents) -> Result<(), Refusal>;
    /// An edit of a bet of many spots (`BetEdit<K::Edit>` in JSON), at the
    /// denomination chosen: a bet the round would refuse at that
    /// denomination is refused now, when the chip is placed (issue 45).
    fn edit_bet(&mut self, edit: serde_json::Value, denom: Cents) -> Result<(), Refusal>;
    /// Whether the bet standing can be played at `denom` (a denomination
    /// change that would make it unplayable is refused).
    fn stake_fits(&self, denom: Cents) -> Result<(), Refusal>;
    fn stake(&self) -> u64;
    fn bet_text(&self, lang: Lang) -> String;
    fn round(&self) -> Option<RoundInfo>;
    /// Forget the last round shown (after a RAM clear it is of another epoch).
    fn forget_round(&mut self);
    fn trigger_name(&self, trigger: &Trigger) -> Option<String>;
    /// G-50: whether the bet standing can win what `trigger` wins.
    fn trigger_eligible(&self, trigger: &Trigger) -> bool;
    /// The credits of the bet standing that are a side bet.
    fn side_stake(&self) -> u64;
    fn start(&mut self, cx: &mut Services<'_>, denom: Cents) -> Result<Progress, Notice>;
    fn play_in_round(&mut self, cx: &mut Services<'_>) -> Option<Result<Progress, Notice>>;
    fn decide(&mut self, cx: &mut Services<'_>, decision: serde_json::Value) -> Result<Progress, Notice>;
    fn revealed(&mut self, cx: &mut Services<'_>) -> Result<Progress, Notice>;
    fn double_up(&self, autoplay: bool) -> Option<(u64, DoubleUpRule, u64, u8)>;
    fn gamble(&mut self, cx: &mut Services<'_>, pick: Colour) -> Result<Progress, Notice>;
    fn collect(&mut self, cx: &mut Services<'_>) -> Result<Progress, Notice>;
    fn resume(&mut self, cx: &mut Services<'_>, recall: &RoundRecall) -> Resumed;
}

/// A game of kind `K`: its rules, the bet set on the panel, and its round
/// (open, or the last one, shown until the next).
pub(crate) struct Hosted<K: GameKind> {
    pub rules: K,
    pub bet: K::Bet,
    pub round: Option<Round<K>>,
    /// The bets before each edit since the last round began (undo).
    pub undo: Vec<K::Bet>,
    /// The last round's bet (repeat).
    pub last_played: Option<K::Bet>,
    /// B-16: the approved paytable's RTP per bet configuration (its key,
    /// millionths rounded down), from its artifact.
    pub rtp: Vec<(u64, u32)>,
    /// B-16 (issue 77): each bet's RTP (millionths rounded down), by name,
    /// for a table whose round stakes on bets of several RTPs: the
    /// artifact's `bet_rtp`.
    pub wager_rtps: Vec<(String, u32)>,
    /// B-16 (issue 77): the side bet's RTP (millionths rounded down): the
    /// artifact's `side_bet_rtp`.
    pub side_rtp: Option<u32>,
    /// C-26: the configured limit of a play's coin-in, in cents.
    pub coin_in_limit: Cents,
}

/// B-16: the RTP (millionths) the approved paytable proves for the bet of
/// `key` in its RTP table.
fn rtp_of(rtp: &[(u64, u32)], key: u64) -> Option<u32> {
    rtp.iter().find(|(k, _)| *k == key).map(|&(_, r)| r)
}

impl<K: GameKind> Hosted<K> {
    pub fn new(rules: K) -> Self {
        let bet = rules.opening_bet();
        Hosted {
            rules,
            bet,
            round: None,
            undo: Vec::new(),
            last_played: None,
            rtp: Vec::new(),
            wager_rtps: Vec::new(),
            side_rtp: None,
            coin_in_limit: Cents::MAX,
        }
    }

    /// C-26: `bet` at `denom` unless its round could reach the excessive
    /// increment limit: the chip, the button or the denomination that
    /// would let it is refused before the round, never tilted in it.
    fn within_increment(&self, bet: &K::Bet, denom: Cents) -> Result<(), Refusal> {
        increment_refusal(self.rules.most_staked(bet), denom, self.coin_in_limit)
    }

    /// Whether `bet` can be staked at `denom`: the kind's own steps
    /// (`GameKind::check_stake`) and C-26's limit of the round.
    fn playable_at(&self, bet: &K::Bet, denom: Cents) -> Result<(), Refusal> {
        self.rules.check_stake(bet, denom)?;
        self.within_increment(bet, denom)
    }

    /// B-16: the wager categories of a round of `bet` at `denom` and each's
    /// part of its stake, in cents. A kind whose round stakes on bets of
    /// several RTPs (`GameKind::wagers`) meters each bet's stake at that
    /// bet's proven RTP (issue 77: a banca's 100 c on one chance was
    /// metered at its table's lowest, 85.64 % for 98.94 %); a kind of one
    /// wager, its bet configuration (`GameKind::rtp_key`) at the RTP the
    /// approved paytable proves for it; a kind that names neither is one
    /// category, "all bets", at the lowest it proves. Empty without an
    /// artifact's RTP.
    pub fn wagers(&self, bet: &K::Bet, denom: Cents) -> Vec<meters::Wager> {
        let cents = |credits: u64| credits.checked_mul(denom);
        let parts = self.rules.wagers(bet);
        if !parts.is_empty() {
            let mut out: Vec<meters::Wager> = Vec::new();
            for (name, credits) in parts {
                let (Some(&(_, rtp_ppm)), Some(stake)) = (self.wager_rtps.iter().find(|(n, _)| *n == name), cents(credits)) else {
                    // A bet the paytable's figures do not name: the whole
                    // round at the table's lowest, never above it.
                    out.clear();
                    break;
                };
                match out.iter_mut().find(|w| w.category.name == name) {
                    Some(w) => w.stake = w.stake.saturating_add(stake),
                    None => out.push(meters::Wager { category: meters::WagerCategory { name, rtp_ppm }, stake }),
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
        let category = match (self.rules.rtp_key(bet), self.rules.main_wager()) {
            (Some((key, unit)), _) => rtp_of(&self.rtp, key).map(|r| (format!("{key} {unit}"), r)),
            (None, Some((key, name))) => rtp_of(&self.rtp, key).map(|r| (name.to_owned(), r)),
            (None, None) => self.rtp.iter().map(|(_, r)| *r).min().map(|r| ("all bets".to_owned(), r)),
        };
        let (Some((name, rtp_ppm)), Some(stake)) = (category, cents(self.rules.stake(bet))) else { return Vec::new() };
        let wager = |name: String, rtp_ppm: u32, stake: Cents| meters::Wager { category: meters::WagerCategory { name, rtp_ppm }, stake };
        // Issue 77: a side bet staked beside the wager (stud's jackpot
        // bet) at the RTP its artifact proves for it.
        let side = cents(self.rules.side_stake(bet)).unwrap_or(0);
        match (self.rules.side_wager(), self.side_rtp) {
            (Some(side_name), Some(side_ppm)) if side > 0 && side < stake => {
                vec![wager(name, rtp_ppm, stake - side), wager(side_name.to_owned(), side_ppm, side)]
            }
            _ => vec![wager(name, rtp_ppm, stake)],
        }
    }

    /// B-16 (issue 77): the wager category of a decision's extra stake
    /// where it is a bet of its own (`GameKind::step_wager`), at the RTP
    /// the approved paytable proves for it; None where it is the round's
    /// bet's, or the artifact proves no RTP for it.
    fn step_category(rules: &K, rtp: &[(u64, u32)], step: &K::Step) -> Option<meters::WagerCategory> {
        let (key, name) = rules.step_wager(step)?;
        Some(meters::WagerCategory { name: name.to_owned(), rtp_ppm: rtp_of(rtp, key)? })
    }

    fn open_round(&mut self) -> Option<&mut Round<K>> {
        self.round.as_mut().filter(|r| r.phase != Phase::Ended)
    }

    /// The round is decided: its win is at stake; show it (the reels
    /// spin), or go on at once.
    fn decided(&mut self, cx: &mut Services<'_>) -> Result<Progress, Notice> {
        let animated = self.rules.animated();
        let Some(r) = self.round.as_mut().filter(|r| r.phase == Phase::Decisions) else { return Ok(Progress::Open) };
        r.at_stake = self.rules.win(&r.state);
        if animated {
            r.phase = Phase::Presenting;
            return Ok(Progress::Open);
        }
        self.after_reveal(cx)
    }

    /// The outcome is shown: offer the double-up on a win (M-11), or settle.
    fn after_reveal(&mut self, cx: &mut Services<'_>) -> Result<Progress, Notice> {
        let offered = self.offer(cx.autoplay).is_some();
        let Some(r) = self.open_round() else { return Ok(Progress::Open) };
        if offered {
            r.phase = Phase::DoubleUp;
            return Ok(Progress::Open);
        }
        r.phase = Phase::DoubleUp;
        self.collect(cx)
    }

    /// The double-up the decided open round may take now, whatever its
    /// phase: its round, rule, credits at stake and gambles so far.
    fn offer(&self, autoplay: bool) -> Option<(u64, DoubleUpRule, u64, u8)> {
        let r = self.round.as_ref().filter(|r| r.phase != Phase::Ended)?;
        let rule = self.rules.double_up()?;
        let done = u8::try_from(r.gambles.len()).ok()?;
        (!autoplay && self.rules.decided(&r.state) && rule.check(r.at_stake, done).is_ok()).then_some((r.id, rule, r.at_stake, done))
    }
}

impl<K: GameKind> Table for Hosted<K> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn id(&self) -> &str {
        self.rules.id()
    }

    fn name(&self) -> &str {
        self.rules.name()
    }

    fn family(&self, lang: Lang) -> &'static str {
        self.rules.family(lang)
    }

    fn animated(&self) -> bool {
        self.rules.animated()
    }

    fn autoplay(&self) -> bool {
        self.rules.autoplay()
    }

    fn side_pool_seed(&self) -> Option<u64> {
        self.rules.side_pool_seed()
    }

    fn largest_stake(&self) -> Option<u64> {
        self.rules.largest_stake()
    }

    fn unproven_bets(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for bet in self.rules.single_bets().into_iter().chain([self.rules.opening_bet()]) {
            for (name, _) in self.rules.wagers(&bet) {
                if !self.wager_rtps.iter().any(|(n, _)| *n == name) && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        out
    }

    fn set_coin_in_limit(&mut self, limit: Cents) {
        self.coin_in_limit = limit;
    }

    fn set_rtp_table(&mut self, rtp: Vec<(u64, u32)>, bets: Vec<(String, u32)>, side: Option<u32>) {
        self.rtp = rtp;
        self.wager_rtps = bets;
        self.side_rtp = side;
    }

    fn reset_bet(&mut self) {
        self.bet = self.rules.opening_bet();
    }

    fn adjust_bet(&mut self, control: BetControl, delta: i32, denom: Cents) {
        let next = self.rules.adjust_bet(&self.bet, control, delta);
        if self.within_increment(&next, denom).is_ok() {
            self.bet = next;
        }
    }

    fn bet_moves(&self, control: BetControl, delta: i32, denom: Cents) -> bool {
        let next = self.rules.adjust_bet(&self.bet, control, delta);
        next != self.bet && self.within_increment(&next, denom).is_ok()
    }

    fn credit_needed(&self) -> u64 {
        self.rules.credit_needed(&self.bet)
    }

    fn plays_in_round(&self) -> bool {
        self.round.as_ref().is_some_and(|r| match r.phase {
            // Show the outcome at once; take the win instead of doubling.
            Phase::Presenting | Phase::DoubleUp => true,
            Phase::Decisions => self.rules.play_decision(&r.state).is_some(),
            Phase::ProgressivePending | Phase::Ended => false,
        })
    }

    fn set_bet(&mut self, bet: serde_json::Value, denom: Cents) -> Result<(), Refusal> {
        let bet: K::Bet = serde_json::from_value(bet).map_err(|e| Refusal::new(format!("Aposta inválida: {e}"), format!("Not a bet of this game: {e}")))?;
        self.rules.check_bet(&bet)?;
        self.within_increment(&bet, denom)?;
        self.bet = bet;
        Ok(())
    }

    fn edit_bet(&mut self, edit: serde_json::Value, denom: Cents) -> Result<(), Refusal> {
        let edit: BetEdit<K::Edit> = serde_json::from_value(edit)
            .map_err(|e| Refusal::new(format!("Alteração de aposta inválida: {e}"), format!("Not a bet edit of this game: {e}")))?;
        let next = match edit {
            BetEdit::Kind(e) => self.rules.edit_bet(&self.bet, &e)?,
            BetEdit::Clear => self.rules.cleared_bet(&self.bet),
            BetEdit::Repeat => {
                let last =
                    self.last_played.clone().ok_or_else(|| Refusal::new("Não há jogada anterior para repetir", "There is no previous round to repeat"))?;
                self.rules.check_bet(&last)?;
                last
            }
            BetEdit::Undo => {
                let last = self.undo.last().ok_or_else(|| Refusal::new("Não há nada para desfazer", "There is nothing to undo"))?;
                self.playable_at(last, denom)?;
                if let Some(last) = self.undo.pop() {
                    self.bet = last;
                }
                return Ok(());
            }
        };
        self.playable_at(&next, denom)?;
        if next != self.bet {
            self.undo.push(std::mem::replace(&mut self.bet, next));
        }
        Ok(())
    }

    fn stake_fits(&self, denom: Cents) -> Result<(), Refusal> {
        self.playable_at(&self.bet, denom)
    }

    fn stake(&self) -> u64 {
        self.rules.stake(&self.bet)
    }

    fn bet_text(&self, lang: Lang) -> String {
        self.rules.bet_text(&self.bet, lang)
    }

    fn round(&self) -> Option<RoundInfo> {
        let r = self.round.as_ref()?;
        Some(RoundInfo {
            id: r.id,
            denom: r.denom,
            phase: r.phase,
            staked: self.rules.staked(&r.state),
            at_stake: r.at_stake,
            gambles: r.gambles.clone(),
            resumed: r.resumed,
            settled_win: r.settled_win,
        })
    }

    fn forget_round(&mut self) {
        if self.round.as_ref().is_some_and(|r| r.phase == Phase::Ended) {
            self.round = None;
        }
    }

    fn trigger_name(&self, trigger: &Trigger) -> Option<String> {
        self.rules.trigger_name(trigger)
    }

    fn trigger_eligible(&self, trigger: &Trigger) -> bool {
        self.rules.eligible(&self.bet, trigger)
    }

    fn side_stake(&self) -> u64 {
        self.rules.side_stake(&self.bet)
    }

    /// Stake and the whole outcome, committed in one call before anything
    /// is shown (C-22).
    fn start(&mut self, cx: &mut Services<'_>, denom: Cents) -> Result<Progress, Notice> {
        if self.open_round().is_some() {
            return Ok(Progress::Open);
        }
        // The bet that is staked is exactly the one on screen, checked again
        // (a bet of many spots may have been left empty).
        self.rules.check_bet(&self.bet).map_err(Notice::Refused)?;
        self.rules.check_stake(&self.bet, denom).map_err(Notice::Refused)?;
        if self.rules.stake(&self.bet) == 0 {
            return Err(Notice::Refused(Refusal::new("Faça uma aposta antes de jogar", "Place a bet before playing")));
        }
        let stake = self.rules.stake(&self.bet).checked_mul(denom).ok_or(Notice::CreditShort { needed: Cents::MAX })?;
        // M-19, issue 6: no progressive-eligible bet while the controller
        // of a linked pool the wager would feed is unreachable; or, where
        // the configuration says so (issue 46), the round is played without
        // that pool: it neither feeds it nor can win it.
        let mut unlinked = Vec::new();
        for p in cx.linked.iter().filter(|p| p.qualifies(self.rules.id(), stake) && !p.view().available()) {
            match p.setup.when_unreachable {
                crate::config::WhenUnreachable::Stop => return Err(Notice::LinkedUnavailable { pool: p.setup.pool.clone() }),
                crate::config::WhenUnreachable::PlayUnlinked => unlinked.push(p.setup.pool.clone()),
            }
        }
        let needed = self.rules.credit_needed(&self.bet).saturating_mul(denom);
        if needed > stake && cx.machine.credit() < needed {
            return Err(Notice::CreditShort { needed });
        }
        let (rules, bet) = (&self.rules, self.bet.clone());
        let game = rules.id().to_owned();
        let wagers = self.wagers(&bet, denom);
        if !wagers.is_empty() {
            cx.machine.set_wagers(&game, wagers);
        }
        let side = rules.side_stake(&bet).saturating_mul(denom);
        let opening = |rng: &mut meters::Draw<'_>| rules.draw(&bet, rng).map(|deal| Opening { game: game.clone(), denom, bet: bet.clone(), deal });
        // Issue 46: a round that feeds a linked pool whose controller draws
        // it again is committed first, and drawn from the controller's
        // nonce when it comes.
        let committed = cx
            .linked
            .iter()
            .position(|p| p.qualifies(&game, stake) && !unlinked.contains(&p.setup.pool))
            .and_then(|i| rules.committed_bet(&bet, denom).map(|b| (i, b)));
        let (id, opening) = match committed {
            None => cx.machine.play_round_unlinked(&game, denom, stake, side, K::OPENING, &unlinked, opening).map_err(Notice::Core)?,
            Some((i, reel_bet)) => {
                let pool = cx.linked[i].setup.pool.clone();
                let bet_text = serde_json::to_string(&bet).map_err(|e| Notice::Core(meters::CoreError::CriticalMemory(e.to_string())))?;
                let (round, commitment) = cx.machine.commit_linked_round(&pool, &game, denom, stake, side, &bet_text).map_err(Notice::Core)?;
                let call = crate::link_worker::Call::Commit { epoch: cx.machine.epoch_id().to_owned(), round, commitment, bet: reel_bet };
                match cx.linked[i].link.ask(&call) {
                    Some(crate::link_worker::Answer::Committed(Ok(nonce))) => {
                        cx.machine.play_round_committed(K::OPENING, &nonce, opening).map_err(Notice::Core)?
                    }
                    // The controller will never answer a nonce for it: no
                    // outcome exists, so the commitment is withdrawn.
                    Some(crate::link_worker::Answer::Committed(Err(linked_controller::LinkError::Refused(reason)))) => {
                        cx.machine.withdraw_linked_commitment(&reason).map_err(Notice::Core)?;
                        return Err(Notice::Linked { pool, error: reason });
                    }
                    // Asked of the link worker, or to be asked again: the
                    // session tries again at its next tending.
                    _ => return Ok(Progress::Committing),
                }
            }
        };
        let state = self.rules.open(&opening.bet, &opening.deal);
        self.last_played = Some(opening.bet.clone());
        self.undo.clear();
        self.round = Some(Round {
            id,
            denom,
            bet: opening.bet,
            deal: opening.deal,
            state,
            phase: Phase::Decisions,
            at_stake: 0,
            gambles: Vec::new(),
            resumed: false,
            settled_win: None,
        });
        if self.round.as_ref().is_some_and(|r| self.rules.decided(&r.state)) {
            return self.decided(cx);
        }
        Ok(Progress::Open)
    }

    fn play_in_round(&mut self, cx: &mut Services<'_>) -> Option<Result<Progress, Notice>> {
        let r = self.round.as_ref().filter(|r| r.phase == Phase::Decisions)?;
        let decision = self.rules.play_decision(&r.state)?;
        let value = serde_json::to_value(decision).ok()?;
        Some(self.decide(cx, value))
    }

    /// A player's decision: the kind checks it; a committed one is
    /// journaled with its extra stake before it takes effect.
    fn decide(&mut self, cx: &mut Services<'_>, decision: serde_json::Value) -> Result<Progress, Notice> {
        let decision: K::Decision = serde_json::from_value(decision)
            .map_err(|e| Notice::Refused(Refusal::new(format!("Decisão inválida: {e}"), format!("Not a decision of this game: {e}"))))?;
        let Some(r) = self.round.as_mut().filter(|r| r.phase == Phase::Decisions) else {
            return Err(Notice::Refused(Refusal::new("Nenhuma decisão é esperada agora", "No decision is awaited now")));
        };
        let mut state = r.state.clone();
        match self.rules.decide(&mut state, &decision).map_err(Notice::Refused)? {
            Decided::Chosen => {
                r.state = state;
                Ok(Progress::Open)
            }
            Decided::Commit { step, extra_stake } => {
                let extra = extra_stake.checked_mul(r.denom).ok_or(Notice::CreditShort { needed: Cents::MAX })?;
                // C-26: an extra stake no bet bounds beforehand (bingo's
                // extra ball) that would take the round's coin-in to the
                // limit is refused as a decision, not tilted as a fault.
                if extra > 0 {
                    let staked = self.rules.staked(&r.state);
                    increment_refusal(staked.saturating_add(extra_stake), r.denom, cx.machine.config().excessive_increment.coin_in).map_err(Notice::Refused)?;
                }
                let data = serde_json::to_value(&step).map_err(|e| Notice::Core(meters::CoreError::CriticalMemory(e.to_string())))?;
                let category = if extra > 0 { Self::step_category(&self.rules, &self.rtp, &step) } else { None };
                cx.machine.record_step_in(r.id, Step::new(self.rules.step_name(&step), data), extra, category).map_err(Notice::Core)?;
                self.rules.apply(&mut r.state, &step);
                if self.rules.decided(&r.state) {
                    return self.decided(cx);
                }
                Ok(Progress::Open)
            }
        }
    }

    /// The screen has shown the whole outcome.
    fn revealed(&mut self, cx: &mut Services<'_>) -> Result<Progress, Notice> {
        match self.open_round() {
            Some(r) if r.phase == Phase::Presenting => self.after_reveal(cx),
            _ => Ok(Progress::Open),
        }
    }

    /// The double-up of the open round when it is offered now (M-11).
    fn double_up(&self, autoplay: bool) -> Option<(u64, DoubleUpRule, u64, u8)> {
        self.round.as_ref().filter(|r| r.phase == Phase::DoubleUp)?;
        self.offer(autoplay)
    }

    /// Gamble the amount at stake on a colour: a committed step that
    /// draws; a loss, or the last gamble allowed, settles the round.
    fn gamble(&mut self, cx: &mut Services<'_>, pick: Colour) -> Result<Progress, Notice> {
        if self.round.as_ref().is_none_or(|r| r.phase != Phase::DoubleUp) {
            return Ok(Progress::Open);
        }
        let Some((id, rule, at_stake, done)) = self.double_up(cx.autoplay) else { return Ok(Progress::Open) };
        let g = cx.machine.draw_step(id, GAMBLE, 0, |rng| rule.gamble(rng, at_stake, done, pick)).map_err(Notice::Core)?;
        if let Some(r) = self.open_round() {
            r.gambles.push(g);
            r.at_stake = g.result;
        }
        if g.result == 0 || self.double_up(cx.autoplay).is_none() {
            return self.collect(cx);
        }
        Ok(Progress::Open)
    }

    /// Take the amount at stake: settle the round with its components and
    /// the progressive levels it wins (M-18, M-33).
    fn collect(&mut self, cx: &mut Services<'_>) -> Result<Progress, Notice> {
        let Some(r) = self.round.as_ref().filter(|r| r.phase != Phase::Ended && r.phase != Phase::Decisions) else { return Ok(Progress::Open) };
        let rules = &self.rules;
        let out_of_range = || Notice::Refused(Refusal::new("Prémio fora dos limites", "Win out of range"));
        // The kind's exact win in cents; after a double-up, what it left.
        let won = if r.gambles.is_empty() { rules.win_cents(&r.state, r.denom) } else { r.at_stake.checked_mul(r.denom) };
        let mut base_win = won.ok_or_else(out_of_range)?;
        let mut components = rules.components(&r.state, r.denom);
        if !r.gambles.is_empty() {
            components.push(WinComponent { label: format!("double-up ({} gambles)", r.gambles.len()), amount: base_win });
        }
        let hit = |t: &Trigger| rules.hits(&r.state, t);
        // Issue 50: a win the paytable counts at a fixed sum but a level
        // pays (the hold-and-spin's progressive grand) is owed at least
        // that sum, whichever pool pays it, or none.
        let minimum = rules.pooled_minimum(&r.state).checked_mul(r.denom).ok_or_else(out_of_range)?;
        let mut minimum_met = minimum == 0;
        // Each standalone level won: its share of the level, or the fixed
        // sum the paytable sets when that is greater (paid with the win).
        let mut hits = Vec::new();
        for (pool, level, trigger) in standalone_hits(cx.progressives, rules.id(), hit) {
            // The level's award is at least the fixed sum (the kind's `award`).
            minimum_met |= trigger.pays_at_least_fixed();
            let value = cx.machine.pools().get(&pool).and_then(|p| p.levels.get(level)).map_or(0, |l| l.current);
            let award = rules.award(&r.state, &trigger);
            match fixed_sum_instead(award, value, r.denom).ok_or_else(out_of_range)? {
                Some(fixed) => {
                    base_win = base_win.checked_add(fixed).ok_or_else(out_of_range)?;
                    components.push(WinComponent { label: format!("{pool} level {level}: fixed sum, greater than the pool's share"), amount: fixed });
                }
                None => hits.push((pool, level, award.share_ppm)),
            }
        }
        // The floor's SAS levels it won, at the amounts last broadcast; a
        // level not broadcast since it was last won: the round waits.
        let floor = match &cx.floor {
            Some(f) => f.awards(rules.id(), hit),
            None => Some(Vec::new()),
        };
        let Some(floor) = floor else {
            if let Some(open) = self.open_round() {
                open.phase = Phase::ProgressivePending;
            }
            return Ok(Progress::Awaiting);
        };
        let staked = rules.staked(&r.state).saturating_mul(r.denom);
        let claim = rules.claim(&r.state, r.denom).to_string();
        let Some(linked) = linked_awards_for(cx.machine, cx.linked, r.id, rules.id(), staked, &claim, hit) else {
            if let Some(open) = self.open_round() {
                open.phase = Phase::ProgressivePending;
            }
            return Ok(Progress::Awaiting);
        };
        if !minimum_met {
            let by_pools = paid_toward_minimum(cx, rules.id(), &linked, &floor, |t| t.pays_at_least_fixed() && hit(t));
            let top_up = minimum.saturating_sub(by_pools);
            if top_up > 0 {
                base_win = base_win.checked_add(top_up).ok_or_else(out_of_range)?;
                let label =
                    if by_pools > 0 { "progressive grand: the fixed sum above the pool's award" } else { "progressive grand: the fixed sum (no pool paid it)" };
                components.push(WinComponent { label: label.into(), amount: top_up });
            }
        }
        let settled = cx.machine.settle_round_with_floor(r.id, base_win, components, &hits, &linked, &floor).map_err(Notice::Core)?;
        let summary = RoundSummary {
            round: r.id,
            game: rules.id().to_owned(),
            denom: r.denom,
            stake: staked,
            win: settled.win,
            detail: rules.describe(&r.state, cx.lang),
            pictures: [rules.picture(&r.state, Lang::Pt), rules.picture(&r.state, Lang::En)],
            gambles: r.gambles.clone(),
        };
        if let Some(open) = self.round.as_mut() {
            open.phase = Phase::Ended;
            open.settled_win = Some(settled.win);
        }
        Ok(Progress::Settled { summary: Box::new(summary), payment: settled.payment, progressive: settled.win.saturating_sub(base_win) })
    }

    /// Rebuild an interrupted round from the journal with the same rules
    /// as live play: the opening, then each committed step in order.
    fn resume(&mut self, cx: &mut Services<'_>, recall: &RoundRecall) -> Resumed {
        let Some(first) = recall.steps.first().filter(|s| s.step.name == K::OPENING) else { return Resumed::NotMine };
        let Ok(opening) = serde_json::from_value::<Opening<K::Bet, K::Deal>>(first.step.data.clone()) else { return Resumed::NotMine };
        if opening.game != self.rules.id() {
            return Resumed::NotMine;
        }
        let mut state = self.rules.open(&opening.bet, &opening.deal);
        let mut gambles = Vec::new();
        for s in &recall.steps[1..] {
            if s.step.name == GAMBLE {
                match serde_json::from_value::<Gamble>(s.step.data.clone()) {
                    Ok(g) => gambles.push(g),
                    Err(_) => return Resumed::NotMine,
                }
            } else {
                match serde_json::from_value::<K::Step>(s.step.data.clone()) {
                    Ok(step) if self.rules.step_name(&step) == s.step.name => self.rules.apply(&mut state, &step),
                    _ => return Resumed::NotMine,
                }
            }
        }
        // The journaled bet is checked again as live play checks it, and
        // the stake the rules give it is the one the core took: a bet this
        // table does not offer is not resumed but voided and refunded.
        if self.rules.check_bet(&opening.bet).is_err()
            || self.rules.check_stake(&opening.bet, opening.denom).is_err()
            || self.rules.staked(&state).checked_mul(opening.denom) != Some(recall.stake)
        {
            tracing::warn!("round {}: its journaled bet is not one {} offers, or not the stake taken", recall.round, self.rules.id());
            return Resumed::NotMine;
        }
        if let Err(e) = cx.machine.resume_round(recall.round) {
            return Resumed::Resumed(Err(Notice::Core(e)));
        }
        let decided = self.rules.decided(&state);
        let win = if decided { self.rules.win(&state) } else { 0 };
        let at_stake = gambles.last().map_or(win, |g| g.result);
        let presenting = decided && gambles.is_empty() && self.rules.animated();
        self.bet = opening.bet.clone();
        self.round = Some(Round {
            id: recall.round,
            denom: opening.denom,
            bet: opening.bet,
            deal: opening.deal,
            state,
            phase: if !decided {
                Phase::Decisions
            } else if presenting {
                Phase::Presenting
            } else {
                Phase::DoubleUp
            },
            at_stake,
            gambles,
            resumed: true,
            settled_win: None,
        });
        // A decided round that may gamble no more is finished as recorded;
        // one still to be shown is shown first (the screen then reveals it).
        if decided && !presenting && self.offer(cx.autoplay).is_none() {
            return Resumed::Resumed(self.collect(cx));
        }
        Resumed::Resumed(Ok(Progress::Open))
    }
}

/// Whether a level won on these terms pays its fixed sum instead of its
/// share (`Some(cents)`: the fixed sum is greater than the share of a level
/// holding `value` cents); None on an overflow of the fixed sum.
pub(crate) fn fixed_sum_instead(award: Award, value: Cents, denom: Cents) -> Option<Option<Cents>> {
    let share = u128::from(value) * u128::from(award.share_ppm) / u128::from(meters::WHOLE_LEVEL);
    let fixed = award.at_least.checked_mul(denom)?;
    Some((u128::from(fixed) > share).then_some(fixed))
}

/// The standalone pools' levels of `game` whose trigger `hit` says the
/// committed outcome wins (M-18), with the trigger.
pub(crate) fn standalone_hits(progressives: &[ProgressiveSetup], game: &str, hit: impl Fn(&Trigger) -> bool) -> Vec<(String, usize, Trigger)> {
    let mut hits = Vec::new();
    for p in progressives.iter().filter(|p| p.pool.games.iter().any(|g| g == game)) {
        for (level, trigger) in &p.triggers {
            if hit(trigger) {
                hits.push((p.pool.id.clone(), *level, trigger.clone()));
            }
        }
    }
    hits
}

/// What the linked and floor levels a round won with a trigger `owed`
/// accepts paid toward its fixed minimum (issue 50), in cents.
fn paid_toward_minimum(cx: &Services<'_>, game: &str, linked: &[(String, usize, Cents)], floor: &[(u8, u8, Cents)], owed: impl Fn(&Trigger) -> bool) -> Cents {
    let linked_trigger = |pool: &str, level: usize| {
        cx.linked.iter().filter(|p| p.setup.pool == pool).flat_map(|p| p.setup.triggers.iter()).any(|(lv, t)| *lv == level && owed(t))
    };
    let by_linked = linked.iter().filter(|(pool, level, _)| linked_trigger(pool, *level)).fold(0u64, |a, (_, _, c)| a.saturating_add(*c));
    let owed_floor = cx.floor.as_ref().and_then(|f| f.awards(game, &owed)).unwrap_or_default();
    let by_floor = floor.iter().filter(|a| owed_floor.contains(a)).fold(0u64, |a, (_, _, c)| a.saturating_add(*c));
    by_linked.saturating_add(by_floor)
}

/// The awards the controller makes for a round's linked hits (pool, level,
/// amount); None while it does not answer (the round stays open, and is
/// collected again when the link is back). The pool's outbox is delivered
/// first: the controller awards only a round whose contribution it holds
/// (issue 13). Asking again for the same hit returns the same award, never
/// a second one; a level pays at most once per round.
pub(crate) fn linked_awards_for(
    machine: &mut Machine,
    linked: &mut [LinkedPool],
    round: u64,
    game: &str,
    stake: Cents,
    claim: &str,
    hit: impl Fn(&Trigger) -> bool,
) -> Option<Vec<(String, usize, Cents)>> {
    let mut awards: Vec<(String, usize, Cents)> = Vec::new();
    let epoch = machine.epoch_id().to_owned();
    for p in linked {
        // Only a pool the round fed (issue 46: not one it was played
        // without while its controller was unreachable).
        let fed = machine.open_round().is_some_and(|o| o.linked.contains(&p.setup.pool));
        if !p.qualifies(game, stake) || !fed {
            continue;
        }
        let pool = p.setup.pool.clone();
        let mut delivered = false;
        for (level, trigger) in &p.setup.triggers {
            if !hit(trigger) || awards.iter().any(|a| a.0 == pool && a.1 == *level) {
                continue;
            }
            // Asked of the pool's link worker: until it answers, the round
            // waits (`Progress::Awaiting`) and is collected again.
            if !delivered {
                p.link.deliver(machine, &pool).ok().flatten()?;
                delivered = true;
            }
            // Issue 46: a committed round's claim reveals its key; the
            // controller draws it again and judges it.
            let call = match machine.open_round().and_then(|o| o.committed.clone()).filter(|c| c.pool == pool) {
                Some(c) => crate::link_worker::Call::Reveal { epoch: epoch.clone(), round, level: *level, key: c.key },
                None => crate::link_worker::Call::Award { epoch: epoch.clone(), round, level: *level, claim: claim.to_owned() },
            };
            let crate::link_worker::Answer::Awarded(Ok(claimed)) = p.link.ask(&call)? else { return None };
            // Above the pool's confirmation amount the award waits for an
            // attendant (M-12): the round stays open, locked up, and is
            // asked again every second until the operator confirms it.
            p.confirming = claimed.pending.then_some(claimed.amount);
            if claimed.pending {
                return None;
            }
            awards.push((pool.clone(), *level, claimed.amount));
        }
    }
    Some(awards)
}

/// C-26: refused when a round staking `most` credits at `denom` would
/// reach the excessive increment limit of a play's coin-in (`limit`
/// cents): the refusal names the most the round may stake at `denom`.
pub(crate) fn increment_refusal(most: u64, denom: Cents, limit: Cents) -> Result<(), Refusal> {
    if most.checked_mul(denom).is_some_and(|cents| cents < limit) {
        return Ok(());
    }
    let cap = limit.saturating_sub(1) / denom.max(1);
    Err(Refusal::new(
        format!("A jogada poderia apostar {most} créditos: nesta denominação o máximo por jogada é {cap} (limite de incremento excessivo, C-26)"),
        format!("The round could stake {most} credits: at this denomination a round stakes at most {cap} (the excessive meter increment limit, C-26)"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C-26: a round reaching the limit is refused (at it, not only past
    /// it: "≥ $1,000 … within one play", certification.md 26), one credit
    /// under it is not, and the refusal names the most at that
    /// denomination; an overflow of credits × cents is refused too.
    #[test]
    fn a_round_that_could_reach_the_coin_in_limit_is_refused_naming_the_most() {
        let refused = |most: u64, denom: Cents, limit: Cents| increment_refusal(most, denom, limit).err();
        assert_eq!(refused(999, 200, 200_000), None);
        let r = refused(1_000, 200, 200_000).map(|r| (r.pt, r.en)).unwrap_or_default();
        assert!(r.1.contains("The round could stake 1000 credits") && r.1.contains("at most 999"), "{}", r.1);
        assert!(r.0.contains("o máximo por jogada é 999") && r.0.contains("C-26"), "{}", r.0);
        assert_eq!(refused(1_999, 100, 200_000), None);
        assert!(refused(2_000, 100, 200_000).is_some_and(|r| r.en.contains("at most 1999")));
        assert!(refused(3, 66_667, 200_000).is_some_and(|r| r.en.contains("at most 2")), "199,999 / 66,667 = 2 credits");
        assert!(refused(u64::MAX, 2, Cents::MAX).is_some(), "credits × cents past u64");
        assert_eq!(refused(0, 200, 200_000), None);
    }

    #[test]
    fn a_level_pays_the_greater_of_its_share_and_the_fixed_sum() {
        let royal = Award { share_ppm: meters::WHOLE_LEVEL, at_least: 10_000 };
        let straight_flush = Award { share_ppm: meters::WHOLE_LEVEL / 10, at_least: 1_000 };
        // A pool of 20,000 € at 1 cent a credit: the pool beats 100 €.
        assert_eq!(fixed_sum_instead(royal, 2_000_000, 1), Some(None));
        // At 5 € a credit the fixed 50,000 € is greater than the pool.
        assert_eq!(fixed_sum_instead(royal, 2_000_000, 500), Some(Some(5_000_000)));
        // 10% of 20,000 € is 2,000 €: the fixed 1,000 credits at 2 € ties it, the pool pays.
        assert_eq!(fixed_sum_instead(straight_flush, 2_000_000, 200), Some(None));
        assert_eq!(fixed_sum_instead(straight_flush, 1_999_990, 200), Some(Some(200_000)));
        assert_eq!(fixed_sum_instead(Award::WHOLE, 0, 1), Some(None), "a whole level with no fixed sum is the level");
        assert_eq!(fixed_sum_instead(Award { share_ppm: 1, at_least: u64::MAX }, 0, 2), None, "an overflowing fixed sum is refused");
    }
}
