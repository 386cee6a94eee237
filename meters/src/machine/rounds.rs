//! The game cycle: a round's outcome drawn by the core and committed with
//! its stake before anything is shown (C-22), its further steps, its
//! settlement with any progressive award, and the resumption of a round a
//! power loss interrupted (M-36).
//!
//! Issue 47, hole 6: there is no void. A round's outcome is committed when
//! it begins, so a round is always finished with it: voiding one after its
//! outcome is known (a power cut before a losing round's settlement, or a
//! configuration edited to drop its game) turned losses into refunds. The
//! host refuses a configuration that drops the game of an open round.

use super::{CoreError, Machine, Settled};
use crate::journal::{Entry, HandpayKind, ProgressiveAward, Step, WHOLE_LEVEL, WinComponent, WinPayment};
use crate::money::Cents;
use crate::rng::{Draw, GameRng};
use crate::state::OpenRound;

/// 32 bytes from 64 hexadecimal digits.
pub(super) fn hex32(text: &str) -> Option<[u8; 32]> {
    hex::decode(text).ok()?.try_into().ok()
}

impl Machine {
    /// Play a round: the stake leaves the credit meter, the game's `draw`
    /// runs under the RNG lock, and its whole outcome is committed with the
    /// stake and the count of RNG values it took, in one transaction,
    /// before anything is shown. This is the only way a round begins: no
    /// host can commit an outcome drawn elsewhere.
    ///
    /// Every check (play block, denomination, stake, credit, the journal's
    /// end, the self-audit) runs before the draw. A draw that fails is
    /// recorded as `DrawDiscarded` with the values it took, and nothing else
    /// is committed.
    pub fn play_round<T, E>(
        &mut self,
        game: &str,
        denom: Cents,
        stake: Cents,
        step: &str,
        draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>,
    ) -> Result<(u64, T), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        self.play_round_with_side_bet(game, denom, stake, 0, step, draw)
    }

    /// [`Self::play_round`] where `side_stake` of the `stake` is a side bet
    /// (a stud jackpot bet, PSD 35–42): it feeds the side-bet pools alone,
    /// and the rest of the stake is the main wager.
    pub fn play_round_with_side_bet<T, E>(
        &mut self,
        game: &str,
        denom: Cents,
        stake: Cents,
        side_stake: Cents,
        step: &str,
        draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>,
    ) -> Result<(u64, T), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        self.play_round_unlinked(game, denom, stake, side_stake, step, &[], draw)
    }

    /// [`Self::play_round_with_side_bet`] without feeding the linked pools
    /// `unlinked`, whose controller is unreachable, where the configuration
    /// plays on without linked eligibility (issue 46): the round neither
    /// contributes to them nor can win them.
    #[allow(clippy::too_many_arguments)]
    pub fn play_round_unlinked<T, E>(
        &mut self,
        game: &str,
        denom: Cents,
        stake: Cents,
        side_stake: Cents,
        step: &str,
        unlinked: &[String],
        draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>,
    ) -> Result<(u64, T), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        self.ensure_idle()?;
        self.check_round(game, denom, stake, side_stake)?;
        self.refuse_excessive_play(stake)?;
        if let Some(p) = unlinked.iter().find(|p| !self.state.linked.contains_key(*p)) {
            return Err(CoreError::Progressive(format!("this machine has not joined linked pool {p}")));
        }
        self.verify_before_money_moves()?;
        let (outcome, data, draws) = self.draw(game, draw)?;
        self.begin(game, denom, stake, side_stake, step, data, draws, None, unlinked.to_vec()).map(|round| (round, outcome))
    }

    /// Every check a round's bet passes before anything is drawn.
    pub(super) fn check_round(&self, game: &str, denom: Cents, stake: Cents, side_stake: Cents) -> Result<(), CoreError> {
        if side_stake > 0 && side_stake >= stake {
            return Err(CoreError::SideBetNotBeside { stake, side_stake });
        }
        if !side_stake.is_multiple_of(denom) {
            return Err(CoreError::StakeNotWholeCredits { stake: side_stake, denom });
        }
        if game.trim().is_empty() {
            return Err(CoreError::UnknownGame(game.to_owned()));
        }
        if !self.config.denominations.contains(&denom) {
            return Err(CoreError::UnknownDenomination(denom));
        }
        if stake == 0 {
            return Err(CoreError::ZeroStake);
        }
        if !stake.is_multiple_of(denom) {
            return Err(CoreError::StakeNotWholeCredits { stake, denom });
        }
        if stake > self.state.credit {
            return Err(CoreError::InsufficientCredit { credit: self.state.credit, needed: stake });
        }
        Ok(())
    }

    /// Commit a drawn round's opening with its stake.
    #[allow(clippy::too_many_arguments)]
    fn begin(
        &mut self,
        game: &str,
        denom: Cents,
        stake: Cents,
        side_stake: Cents,
        step: &str,
        data: serde_json::Value,
        draws: u64,
        committed: Option<crate::journal::CommittedDraw>,
        unlinked: Vec<String>,
    ) -> Result<u64, CoreError> {
        let round = self.state.last_round + 1;
        let step = Step::new(step, data);
        // B-16: one category holds the whole stake, whatever part it was
        // set with; several share it out, their parts summing to it (the
        // journal's fold refuses them otherwise, and the round with them).
        let (category, wagers) = match self.next_wagers.take().filter(|(g, _)| g == game).map(|(_, w)| w) {
            Some(mut w) if w.len() == 1 => (w.pop().map(|w| w.category), Vec::new()),
            Some(w) => (None, w),
            None => (None, Vec::new()),
        };
        self.commit(vec![Entry::RoundBegun {
            round,
            game: game.to_owned(),
            denom,
            stake,
            credit_before: self.state.credit,
            step,
            draws,
            side_stake,
            committed,
            unlinked,
            category,
            wagers,
        }])?;
        Ok(round)
    }

    /// B-16: the next round of `game` is played in `category` (its bet
    /// configuration and the RTP its approved paytable proves for it); its
    /// coin-in and theoretical payback are metered when it settles. Used
    /// by the next round of that game begun, and by no other.
    pub fn set_wager_category(&mut self, game: &str, category: crate::journal::WagerCategory) {
        self.next_wagers = Some((game.to_owned(), vec![crate::journal::Wager { category, stake: 0 }]));
    }

    /// B-16 (issue 77): the next round of `game` stakes on bets of several
    /// RTPs: each wager's part of its stake (in cents, the parts summing to
    /// the round's stake) is metered in its own category, at the RTP its
    /// approved paytable proves for that bet. A round whose parts do not
    /// sum to its stake is refused before anything is staked.
    pub fn set_wagers(&mut self, game: &str, wagers: Vec<crate::journal::Wager>) {
        self.next_wagers = Some((game.to_owned(), wagers));
    }

    /// Issue 46: play the round committed to a linked pool's controller
    /// (`Machine::commit_linked_round`), drawn from its key and the
    /// controller's `nonce` (32 bytes, hex): the game's `draw` runs on
    /// `rng::CommittedStream::new(key, nonce)`, through the same scaling,
    /// and the outcome is committed with the stake and the nonce as
    /// `play_round` commits any round.
    pub fn play_round_committed<T, E>(&mut self, step: &str, nonce: &str, draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>) -> Result<(u64, T), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        if let Some(b) = self.play_block() {
            return Err(b.into());
        }
        let c = self.state.linked_commitment.clone().ok_or_else(|| CoreError::Progressive("no round is committed to a linked pool".into()))?;
        let key = hex32(&c.key).ok_or_else(|| CoreError::Progressive(format!("round {}'s committed key is not 32 bytes of hex", c.round)))?;
        let n = hex32(nonce).ok_or_else(|| CoreError::Progressive(format!("the controller's nonce for round {} is not 32 bytes of hex", c.round)))?;
        self.check_round(&c.game, c.denom, c.stake, c.side_stake)?;
        self.refuse_excessive_play(c.stake)?;
        self.verify_before_money_moves()?;
        let (outcome, data, draws) = self.draw_with(&c.game, Draw::committed(crate::rng::CommittedStream::new(&key, &n)), draw)?;
        let committed = crate::journal::CommittedDraw { pool: c.pool.clone(), nonce: hex::encode(n) };
        self.begin(&c.game, c.denom, c.stake, c.side_stake, step, data, draws, Some(committed), Vec::new()).map(|round| (round, outcome))
    }

    /// Run a game's draw under the RNG lock and count what it took; a
    /// failed draw is journaled with its count.
    fn draw<T, E>(&mut self, game: &str, draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>) -> Result<(T, serde_json::Value, u64), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        let tapping = self.tapped.is_some();
        let (result, draws, misuse, tap) = {
            let mut d = Draw::new(self.rng.lock());
            if tapping {
                d = d.tapped();
            }
            let result = draw(&mut d);
            (result, d.values(), d.misuse().map(str::to_owned), d.take_tap())
        };
        if let (Some(all), Some(tap)) = (self.tapped.as_mut(), tap) {
            all.extend(tap);
        }
        self.recorded(game, result, draws, misuse)
    }

    /// Issue 51, lab mode only: record every scaled draw the games make
    /// from now on (range, value), through the production calls, for
    /// [`Machine::take_tapped_draws`]. Refused outside lab mode.
    pub fn tap_draws(&mut self) -> Result<(), CoreError> {
        if !self.config.mode.is_lab() {
            return Err(CoreError::Refused("outcome collection is a lab mode tool".into()));
        }
        self.tapped.get_or_insert_with(Vec::new);
        Ok(())
    }

    /// The draws recorded since the last call (empty when not tapping).
    pub fn take_tapped_draws(&mut self) -> Vec<(u64, u64)> {
        self.tapped.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Run a game's draw on a committed round's stream (issue 46).
    fn draw_with<T, E>(
        &mut self,
        game: &str,
        mut d: Draw<'static>,
        draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>,
    ) -> Result<(T, serde_json::Value, u64), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        let result = draw(&mut d);
        let (draws, misuse) = (d.values(), d.misuse().map(str::to_owned));
        self.recorded(game, result, draws, misuse)
    }

    /// A draw's result as committed: its outcome and data, or journaled as
    /// discarded.
    fn recorded<T, E>(&mut self, game: &str, result: Result<T, E>, draws: u64, misuse: Option<String>) -> Result<(T, serde_json::Value, u64), CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        // A misused generator, a failed draw or an outcome that cannot be
        // recorded: the draw is journaled as discarded, nothing else.
        let recorded = match (misuse, result) {
            (Some(reason), _) => Err(reason),
            (None, Err(e)) => Err(e.to_string()),
            (None, Ok(outcome)) => serde_json::to_value(&outcome).map(|data| (outcome, data)).map_err(|e| format!("the outcome cannot be recorded: {e}")),
        };
        match recorded {
            Ok((outcome, data)) => Ok((outcome, data, draws)),
            Err(reason) => {
                self.commit(vec![Entry::DrawDiscarded { game: game.to_owned(), draws, reason: reason.clone() }])?;
                Err(CoreError::DrawFailed(reason))
            }
        }
    }

    /// Commit a further step of the open round that draws (a gamble, an
    /// extra ball, a hit card): `draw` runs under the RNG lock and its
    /// outcome is committed with its draw count and `extra_stake`, which
    /// leaves the credit meter with it.
    pub fn draw_step<T, E>(&mut self, round: u64, step: &str, extra_stake: Cents, draw: impl FnOnce(&mut Draw<'_>) -> Result<T, E>) -> Result<T, CoreError>
    where
        T: serde::Serialize,
        E: std::fmt::Display,
    {
        let open = self.check_step(round, extra_stake)?;
        self.verify_in_round()?;
        if extra_stake > 0 {
            self.refuse_excessive_play(open.stake.saturating_add(extra_stake))?;
        }
        let (outcome, data, draws) = self.draw(&open.game, draw)?;
        self.commit(vec![Entry::RoundStep { round, step: Step::new(step, data), extra_stake, draws, category: None }])?;
        Ok(outcome)
    }

    /// Commit a decision of the open round that draws nothing (a hold, a
    /// raise or fold). `extra_stake` leaves the credit meter with it.
    pub fn record_step(&mut self, round: u64, step: Step, extra_stake: Cents) -> Result<(), CoreError> {
        self.record_step_in(round, step, extra_stake, None)
    }

    /// B-16 (issue 77): [`Machine::record_step`] for an extra stake that is
    /// a bet of its own (blackjack's insurance): metered in `category`, at
    /// the RTP its approved paytable proves for that bet, when the round
    /// settles. `None`: the stake is part of the round's first wager.
    pub fn record_step_in(&mut self, round: u64, step: Step, extra_stake: Cents, category: Option<crate::journal::WagerCategory>) -> Result<(), CoreError> {
        let open = self.check_step(round, extra_stake)?;
        if let Some(c) = &category {
            // The journal's fold refuses the same (`state.rs`): refused
            // here before anything is committed.
            if !c.well_formed() || extra_stake == 0 {
                return Err(CoreError::Refused(format!(
                    "the extra stake's wager category {:?} at {} ppm: a category is named, returns at most 100% and has a stake",
                    c.name, c.rtp_ppm
                )));
            }
        }
        self.verify_in_round()?;
        if extra_stake > 0 {
            self.refuse_excessive_play(open.stake.saturating_add(extra_stake))?;
        }
        self.commit(vec![Entry::RoundStep { round, step, extra_stake, draws: 0, category }])
    }

    /// C-26, before anything is drawn: a play whose stakes (`play`, the
    /// round's coin-in with this stake) reach the excessive-increment limit
    /// is refused and play stops until an attendant clears the tilt. (The
    /// journal's writer judges every increment again:
    /// `Machine::excessive_increment`.)
    pub(super) fn refuse_excessive_play(&mut self, play: Cents) -> Result<(), CoreError> {
        let Some(why) = self.excessive_coin_in(play) else { return Ok(()) };
        self.commit(vec![Entry::TiltSet { tilt: crate::journal::Tilt::ExcessiveMeterIncrement, detail: why.clone() }])?;
        Err(CoreError::ExcessiveIncrement(why))
    }

    fn check_step(&self, round: u64, extra_stake: Cents) -> Result<OpenRound, CoreError> {
        let open = self.open_round_checked(round)?;
        if !extra_stake.is_multiple_of(open.denom) {
            return Err(CoreError::StakeNotWholeCredits { stake: extra_stake, denom: open.denom });
        }
        if extra_stake > self.state.credit {
            return Err(CoreError::InsufficientCredit { credit: self.state.credit, needed: extra_stake });
        }
        Ok(open)
    }

    /// Settle the open round: the stake enters créditos jogados and the win
    /// créditos ganhos, and the win is paid at once (M-33) or locked up for
    /// a hand-pay at or above the limit (M-12, F-44).
    pub fn settle_round(&mut self, round: u64, win: Cents, components: Vec<WinComponent>) -> Result<Settled, CoreError> {
        self.settle_round_with_progressive(round, win, components, &[])
    }

    /// Settle a round whose outcome also hit progressive levels (`hits`:
    /// pool id and level). Each award is the level's whole value at this
    /// moment (M-21), paid in the same transaction as the round's base win
    /// and counted in "prémios acumulados progressivos"; the level restarts
    /// at its reset value.
    pub fn settle_round_with_progressive(
        &mut self,
        round: u64,
        base_win: Cents,
        components: Vec<WinComponent>,
        hits: &[(String, usize)],
    ) -> Result<Settled, CoreError> {
        self.settle_round_with_awards(round, base_win, components, hits, &[])
    }

    /// [`Self::settle_round_with_progressive`], also paying awards the
    /// linked progressive controller made for this round (`linked`: pool,
    /// level, amount).
    pub fn settle_round_with_awards(
        &mut self,
        round: u64,
        base_win: Cents,
        components: Vec<WinComponent>,
        hits: &[(String, usize)],
        linked: &[(String, usize, Cents)],
    ) -> Result<Settled, CoreError> {
        let hits: Vec<(String, usize, u32)> = hits.iter().map(|(p, l)| (p.clone(), *l, WHOLE_LEVEL)).collect();
        self.settle_round_with_shares(round, base_win, components, &hits, linked)
    }

    /// [`Self::settle_round_with_awards`] where each standalone hit takes a
    /// share of its level, in millionths (`WHOLE_LEVEL` for all of it): a
    /// stud side bet's straight flush takes 10% of the jackpot.
    pub fn settle_round_with_shares(
        &mut self,
        round: u64,
        base_win: Cents,
        components: Vec<WinComponent>,
        hits: &[(String, usize, u32)],
        linked: &[(String, usize, Cents)],
    ) -> Result<Settled, CoreError> {
        self.settle_round_with_floor(round, base_win, components, hits, linked, &[])
    }

    /// [`Self::settle_round_with_shares`], also paying levels of the
    /// floor's SAS progressive group the round won (`floor`: group, level
    /// 1–32, the amount the floor's controller last broadcast; issue 48,
    /// sas.md §8). Such a round locks up: its whole win waits for an
    /// attendant, whatever the hand-pay limit, because the amount came
    /// over a serial line no one signs (M-12).
    pub fn settle_round_with_floor(
        &mut self,
        round: u64,
        base_win: Cents,
        mut components: Vec<WinComponent>,
        hits: &[(String, usize, u32)],
        linked: &[(String, usize, Cents)],
        floor: &[(u8, u8, Cents)],
    ) -> Result<Settled, CoreError> {
        let open = self.open_round_checked(round)?;
        self.verify_in_round()?;
        let time = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        let mut progressive = Vec::new();
        // Award on a copy first: two hits of one level in a round get the
        // full value and then the reset value.
        let mut pools = self.state.pools.clone();
        let mut win = base_win;
        for (pool_id, level, amount) in linked {
            if !self.state.linked.contains_key(pool_id) {
                return Err(CoreError::Progressive(format!("this machine is not in linked pool {pool_id}")));
            }
            win = win.checked_add(*amount).ok_or_else(|| CoreError::CriticalMemory("win overflow".into()))?;
            components.push(WinComponent { label: format!("progressive {pool_id} level {level} (linked)"), amount: *amount });
            progressive.push(ProgressiveAward {
                pool: pool_id.clone(),
                level: *level,
                amount: *amount,
                time,
                linked: true,
                next_mystery_at: None,
                share_ppm: WHOLE_LEVEL,
                floor_group: None,
            });
        }
        for (group, level, amount) in floor {
            if !crate::state::floor_level_valid(*group, *level) {
                return Err(CoreError::Progressive(format!("SAS group {group} level {level} is not a floor progressive level (group 1-255, level 1-32)")));
            }
            if floor.iter().filter(|f| f.0 == *group && f.1 == *level).count() > 1 {
                return Err(CoreError::Progressive(format!("SAS group {group} level {level} is won twice in one round")));
            }
            win = win.checked_add(*amount).ok_or_else(|| CoreError::CriticalMemory("win overflow".into()))?;
            components.push(WinComponent { label: format!("SAS progressive group {group} level {level}"), amount: *amount });
            progressive.push(ProgressiveAward {
                pool: format!("SAS {group}"),
                level: usize::from(*level),
                amount: *amount,
                time,
                linked: false,
                next_mystery_at: None,
                share_ppm: WHOLE_LEVEL,
                floor_group: Some(*group),
            });
        }
        // Mystery levels this round's wager took past their hidden value.
        let mut hits: Vec<(String, usize, u32)> = hits.to_vec();
        let explicit = hits.len();
        for (id, pool) in &self.state.pools {
            for (l, level) in pool.levels.iter().enumerate() {
                if level.mystery_due == Some(round) && !hits.iter().any(|h| h.0 == *id && h.1 == l) {
                    hits.push((id.clone(), l, WHOLE_LEVEL));
                }
            }
        }
        for (nth, (pool_id, level, share_ppm)) in hits.iter().enumerate() {
            let pool = pools.get_mut(pool_id).ok_or_else(|| CoreError::Progressive(format!("no pool {pool_id}")))?;
            if !pool.qualifies(&open.game, pool.wager(open.stake, open.side_stake)) {
                return Err(CoreError::Progressive(format!("round {round} on {} does not qualify for pool {pool_id}", open.game)));
            }
            let amount = pool.award_share(*level, *share_ppm, time, &self.state.machine_id, round).map_err(|e| CoreError::Progressive(e.to_string()))?;
            let next_mystery_at = match pool.mystery_range(*level) {
                Some((lo, hi)) => Some(lo + self.rng.lock().uniform(hi - lo + 1)),
                None => None,
            };
            if next_mystery_at.is_some() {
                pool.set_mystery(*level, next_mystery_at).map_err(|e| CoreError::Progressive(e.to_string()))?;
            }
            win = win.checked_add(amount).ok_or_else(|| CoreError::CriticalMemory("win overflow".into()))?;
            let name = pool.config.levels.get(*level).map_or_else(String::new, |l| l.name.clone());
            let mystery = if nth >= explicit { " (mystery)" } else { "" };
            components.push(WinComponent { label: format!("progressive {pool_id} {name}{mystery}"), amount });
            progressive.push(ProgressiveAward {
                pool: pool_id.clone(),
                level: *level,
                amount,
                time,
                linked: false,
                next_mystery_at,
                share_ppm: *share_ppm,
                floor_group: None,
            });
        }
        if win > self.config.max_win {
            return Err(CoreError::WinAboveMaximum { win, max: self.config.max_win });
        }
        let mut entries = Vec::new();
        let payment = if win >= self.config.handpay_limit || !floor.is_empty() {
            let id = self.state.last_handpay + 1;
            entries.push(Entry::HandpayLocked { id, handpay: HandpayKind::Jackpot { round, game: open.game.clone(), denom: open.denom }, amount: win });
            WinPayment::Handpay { id }
        } else {
            WinPayment::Credited { jackpot: win > 0 && win >= self.config.jackpot_threshold }
        };
        let credit_after = match payment {
            WinPayment::Credited { .. } => self.state.credit.checked_add(win).ok_or_else(|| CoreError::CriticalMemory("credit meter overflow".into()))?,
            WinPayment::Handpay { .. } => self.state.credit,
        };
        entries.insert(0, Entry::RoundSettled { round, win, components, payment, credit_after, progressive });
        self.commit(entries)?;
        // The round is settled whatever the tick does; a tick that cannot
        // be made stops play with a critical-memory fault (see anchor).
        let _ = self.tick_if_due();
        Ok(Settled { round, win, payment, credit_after })
    }

    /// Record that an interrupted round is being resumed after a restart (M-36).
    pub fn resume_round(&mut self, round: u64) -> Result<(), CoreError> {
        let open = self.open_round_checked(round)?;
        self.commit(vec![Entry::RoundResumed { round, at_step: open.steps }])
    }

    fn open_round_checked(&self, round: u64) -> Result<OpenRound, CoreError> {
        if let Some(f) = &self.fault {
            return Err(CoreError::CriticalMemory(f.clone()));
        }
        match &self.state.open_round {
            Some(open) if open.round == round => Ok(open.clone()),
            _ => Err(CoreError::NoSuchRound(round)),
        }
    }
}

#[cfg(all(test, feature = "lab"))]
mod tests {
    use super::*;
    use crate::{MachineConfig, Mode, SeedChoice};

    /// Issue 48: the fold itself refuses a floor progressive level paid to
    /// the credit meter, or one that claims to be a linked pool's too: a
    /// journal written by anything but this core's settlement is not
    /// taken, whoever holds the key.
    #[test]
    fn the_fold_refuses_a_floor_level_credited_without_an_attendant() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
        let mut m = Machine::open(&dir.path().join("egm.sqlite"), config, SeedChoice::Lab(1)).expect("a lab machine");
        m.insert_note(1_000).expect("a note");
        let (round, ()) = m.play_round("g", 1, 10, "outcome", |_| Ok::<_, String>(())).expect("a round");
        let award = |linked| ProgressiveAward {
            pool: "SAS 3".into(),
            level: 2,
            amount: 750,
            time: 0,
            linked,
            next_mystery_at: None,
            share_ppm: WHOLE_LEVEL,
            floor_group: Some(3),
        };
        let settled = |award| Entry::RoundSettled {
            round,
            win: 770,
            components: vec![],
            payment: WinPayment::Credited { jackpot: false },
            credit_after: 990 + 770,
            progressive: vec![award],
        };
        let credited = m.state.clone().apply(&settled(award(false))).expect_err("credited at once");
        assert!(credited.problem.contains("credited without an attendant's hand-pay"), "{credited}");
        let both = m.state.clone().apply(&settled(award(true))).expect_err("a linked floor level");
        assert!(both.problem.contains("is not a floor progressive level"), "{both}");
        // The core's own settlement of the same win is taken.
        m.settle_round_with_floor(round, 20, vec![], &[], &[], &[(3, 2, 750)]).expect("locked up for an attendant");
    }

    /// B-16 (issue 77): the fold refuses an extra stake's wager category
    /// that is unnamed, returns more than 100 % or has no stake, as
    /// `Machine::record_step_in` does: the category's theoretical payback
    /// cannot be raised by a step the core would not have written.
    #[test]
    fn the_fold_refuses_a_step_category_the_core_would_not_write() {
        use crate::journal::WagerCategory;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config = MachineConfig { mode: Mode::Lab, ..MachineConfig::default() };
        let mut m = Machine::open(&dir.path().join("egm.sqlite"), config, SeedChoice::Lab(1)).expect("a lab machine");
        m.insert_note(1_000).expect("a note");
        let (round, ()) = m.play_round("g", 1, 10, "outcome", |_| Ok::<_, String>(())).expect("a round");
        let step = |name: &str, rtp_ppm: u32, extra_stake: Cents| Entry::RoundStep {
            round,
            step: Step::new("insurance", serde_json::json!({})),
            extra_stake,
            draws: 0,
            category: Some(WagerCategory { name: name.into(), rtp_ppm }),
        };
        for (name, ppm, stake) in [("", 926_045, 5), ("insurance", 1_000_001, 5), ("insurance", 926_045, 0)] {
            let e = m.state.clone().apply(&step(name, ppm, stake)).expect_err("refused");
            assert!(e.problem.contains("extra stake's wager category"), "{name:?} {ppm} {stake}: {e}");
            let refused =
                m.record_step_in(round, Step::new("insurance", serde_json::json!({})), stake, Some(WagerCategory { name: name.into(), rtp_ppm: ppm }));
            assert!(matches!(&refused, Err(CoreError::Refused(why)) if why.contains("extra stake's wager category")), "{refused:?}");
        }
        assert_eq!(m.state.credit, 990, "nothing was staked by a refused step");
        m.state.clone().apply(&step("insurance", 926_045, 5)).expect("a named category at most 100 %, with a stake");
    }
}
