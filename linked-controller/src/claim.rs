//! What an award is checked against (issue 35, attack 1): the controller
//! knows what hits. The operator approves, per pool, the reel games whose
//! outcomes it checks (from their approved paytables), each level's
//! triggers and the amount above which an award waits for an attendant;
//! a cabinet's claim carries the round's committed outcome, which the
//! controller checks against them (`egm.reel_refusal` in `schema.sql`)
//! before it takes anything from a level.

use std::collections::BTreeMap;

use game_core::progressive::Trigger;
use game_core::reels::ReelGame;
use meters::Cents;
use serde::{Deserialize, Serialize};

use crate::controller::{Controller, LinkError, i64_of};

/// A reel game as the controller checks it: each reel's strip (symbol ids
/// from the first stop), the rows of the window, each payline's row on each
/// reel, the wild (substituting for the trigger's symbol) and the largest
/// bet per line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovedReelGame {
    pub rows: u8,
    pub strips: Vec<Vec<String>>,
    pub lines: Vec<Vec<u8>>,
    pub wild: Option<String>,
    pub max_credits_per_line: u64,
    /// Issue 50: a ways game (no paylines; `lines` in a bet is its cost).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ways: bool,
    /// The approved paytable itself: the service evaluates a claimed
    /// outcome with game-core on it, as the game pays (issue 46: a line of
    /// wilds is the wild's own win, never a trigger's symbol).
    #[serde(default)]
    pub paytable: Option<ReelGame>,
}

impl ApprovedReelGame {
    /// What the controller needs of a reel game's approved paytable.
    pub fn of(game: &ReelGame) -> ApprovedReelGame {
        let id = |s: &game_core::reels::SymbolId| game.symbols.get(usize::from(*s)).map_or_else(|| s.to_string(), |sym| sym.id.clone());
        ApprovedReelGame {
            rows: game.rows,
            strips: game.reels.iter().map(|strip| strip.symbols.iter().map(id).collect()).collect(),
            lines: game.lines.clone(),
            wild: game.wild().map(|(w, _)| id(&w)),
            max_credits_per_line: game.bet.credits_per_line.iter().copied().max().unwrap_or(0),
            ways: game.ways,
            paytable: Some(game.clone()),
        }
    }
}

/// Why the service's own evaluation finds that `claim` does not hit
/// `level`, or `None` when it does (or when the claim is not one it can
/// judge: the controller's own checks then refuse it, with their reason).
/// The outcome is evaluated with game-core on the approved paytable, the
/// game's own line evaluation, at the claimed bet (issue 46).
pub(crate) fn service_refusal(games: &BTreeMap<String, ApprovedReelGame>, triggers: &[ApprovedTrigger], claim: &ReelClaim, level: usize) -> Option<String> {
    let approved = games.get(&claim.game)?;
    let Some(game) = &approved.paytable else {
        return Some(format!("game {} was approved without its paytable: the operator approves it again (egm-progressive approve)", claim.game));
    };
    let stops_fit = claim.stops.len() == game.reels.len() && claim.stops.iter().zip(&game.reels).all(|(&s, strip)| (s as usize) < strip.len());
    let bet = game_core::reels::Bet { lines: claim.lines, credits_per_line: claim.credits_per_line };
    if !stops_fit || game.check_bet(bet).is_err() {
        return Some(format!(
            "the claimed outcome (stops {:?}, {} lines × {} credits) is not one game {} can show",
            claim.stops, claim.lines, claim.credits_per_line, claim.game
        ));
    }
    let spin = game.evaluate(&claim.stops, bet, false);
    let mine: Vec<&ApprovedTrigger> = triggers.iter().filter(|t| t.level == level).collect();
    if mine.is_empty() {
        return None;
    }
    let hit = mine.iter().any(|t| match t.trigger() {
        trigger @ Trigger::HoldAndSpinGrand { .. } => game_core::progressive::hold_grand_hits(game, bet, claim.hold.as_ref(), &trigger),
        trigger => game_core::progressive::spin_hits(game, bet, &spin, &trigger),
    });
    if !hit && mine.iter().all(|t| t.hold_and_spin_grand) {
        return Some("no hold-and-spin grand in the round (game-core's evaluation of the feature the service draws again from the revealed key)".to_owned());
    }
    (!hit).then(|| {
        let name = |s: game_core::reels::SymbolId| game.symbols.get(usize::from(s)).map_or("?", |s| s.id.as_str());
        let lines = spin.line_wins.iter().map(|w| format!("line {} {}×{}", w.line + 1, w.count, name(w.symbol)));
        let ways = spin.way_wins.iter().map(|w| format!("{} ways {}×{}", w.ways, w.count, name(w.symbol)));
        let paid: Vec<String> = lines.chain(ways).collect();
        format!(
            "the game pays {} there, no win of the trigger's symbol (game-core's evaluation)",
            if paid.is_empty() { "nothing".to_owned() } else { paid.join(", ") }
        )
    })
}

/// A level's trigger: `count` of `symbol` in a row from the first reel on
/// a played line, at the largest bet per line when `max_bet_only`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovedTrigger {
    pub level: usize,
    pub symbol: String,
    pub count: u8,
    pub max_bet_only: bool,
    /// Issue 50: the level is the hold-and-spin's progressive grand (a
    /// grand pearl held or a full screen), judged on the feature the
    /// service draws again from the round's revealed key; `symbol` and
    /// `count` are then unused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hold_and_spin_grand: bool,
}

impl ApprovedTrigger {
    /// A cabinet's trigger for `level`, as the controller checks it: only
    /// reel combinations are checked (`None` for any other kind, whose
    /// linked awards the controller then refuses).
    pub fn of(level: usize, trigger: &Trigger) -> Option<ApprovedTrigger> {
        match trigger {
            Trigger::ReelCombination { symbol, count, max_bet_only } => {
                Some(ApprovedTrigger { level, symbol: symbol.clone(), count: *count, max_bet_only: *max_bet_only, hold_and_spin_grand: false })
            }
            Trigger::HoldAndSpinGrand { max_bet_only } => {
                Some(ApprovedTrigger { level, symbol: String::new(), count: 0, max_bet_only: *max_bet_only, hold_and_spin_grand: true })
            }
            _ => None,
        }
    }

    /// The game-core trigger it approves.
    pub fn trigger(&self) -> Trigger {
        if self.hold_and_spin_grand {
            Trigger::HoldAndSpinGrand { max_bet_only: self.max_bet_only }
        } else {
            Trigger::ReelCombination { symbol: self.symbol.clone(), count: self.count, max_bet_only: self.max_bet_only }
        }
    }
}

/// The longest claimed outcome taken, in bytes (the database's bound too).
const MAX_CLAIM: usize = 4096;

/// A round's committed reel outcome, as a claim carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReelClaim {
    pub game: String,
    /// The base spin's stops, one per reel.
    pub stops: Vec<u32>,
    pub lines: u32,
    pub credits_per_line: u64,
    pub denom: Cents,
    /// Issue 50: the round's hold-and-spin, as the service drew it again
    /// from the revealed key (a claim that carries its own is refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<game_core::reels::HoldAndSpin>,
}

/// What the operator approved for a pool: its games, its triggers, and
/// whether it takes claims that carry their outcome.
pub(crate) type Approval = (BTreeMap<String, ApprovedReelGame>, Vec<ApprovedTrigger>, bool);

/// The controller's answer to a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claimed {
    pub amount: Cents,
    /// Above the pool's confirmation amount: reserved, and paid only once
    /// an operator's login confirms it after the attendant's check at the
    /// cabinet (M-12); asking again says when.
    pub pending: bool,
}

/// An award waiting for an attendant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingAward {
    pub machine: String,
    pub epoch: String,
    pub round: u64,
    pub level: usize,
    pub amount: Cents,
    /// The outcome it was claimed with (JSON).
    pub outcome: String,
}

impl Controller {
    /// Operator: approve `games` (id → reel game) and `triggers` for
    /// `pool`'s awards, and the amount above which an award waits for an
    /// attendant. Logged; replaces the last approval.
    pub fn approve_games(
        &mut self,
        pool: &str,
        games: &std::collections::BTreeMap<String, ApprovedReelGame>,
        triggers: &[ApprovedTrigger],
        confirm_above: Cents,
    ) -> Result<(), LinkError> {
        let games = serde_json::to_string(games).map_err(|e| LinkError::Invalid(e.to_string()))?;
        let triggers = serde_json::to_string(triggers).map_err(|e| LinkError::Invalid(e.to_string()))?;
        self.client().execute("SELECT egm.approve_games($1, $2, $3, $4)", &[&pool, &games, &triggers, &i64_of(confirm_above, "the confirmation amount")?])?;
        Ok(())
    }

    /// Operator: `pool`'s configuration as it was set up (its levels'
    /// reset values, increments, reserves and ceilings): what an approval
    /// weighs (issue 69).
    pub fn pool_config(&mut self, pool: &str) -> Result<meters::PoolConfig, LinkError> {
        let text: Option<String> = self.client().query_one("SELECT egm.pool_config($1)", &[&pool])?.get(0);
        let text = text.ok_or_else(|| LinkError::Refused(format!("no linked pool {pool}: set it up first")))?;
        serde_json::from_str(&text).map_err(|e| LinkError::Invalid(format!("pool {pool}'s configuration does not read: {e}")))
    }

    /// Operator, issue 69: keep the approval's `figures` (JSON) with the
    /// games approved last, and the denominations (cents) they were
    /// weighed at: a committed round at any other is refused.
    pub fn record_approval(&mut self, pool: &str, figures: &str, denominations: &[Cents]) -> Result<(), LinkError> {
        let denominations = denominations.iter().map(|d| i64_of(*d, "a denomination")).collect::<Result<Vec<i64>, _>>()?;
        self.client().execute("SELECT egm.record_approval($1, $2, $3)", &[&pool, &figures, &denominations])?;
        Ok(())
    }

    /// Operator: the figures kept with `pool`'s approval (JSON), if any.
    pub fn approval_figures(&mut self, pool: &str) -> Result<Option<String>, LinkError> {
        Ok(self.client().query_one("SELECT egm.approval_figures($1)", &[&pool])?.get(0))
    }

    /// Cabinet: the award for a hit of `level` in `round` of this cabinet's
    /// epoch, claimed with the round's committed `outcome` (JSON: a
    /// [`ReelClaim`]): the level's whole cents, once; asking again returns
    /// the same answer. Refused (logged) for a round that made no
    /// contribution, or whose outcome does not hit the level.
    pub fn award(&mut self, pool: &str, epoch: &str, round: u64, level: usize, outcome: &str) -> Result<Claimed, LinkError> {
        // Issue 69, attack 3: one parser for what is judged and what is
        // stored. The claim is read once, here; what is judged and what the
        // database checks and keeps is that reading, written out again —
        // never the cabinet's text (a duplicate key once failed this parse,
        // skipped the verdict, and PostgreSQL's jsonb kept the last value
        // and paid it). A claim that does not read is refused and logged.
        if outcome.len() > MAX_CLAIM {
            return Err(self.refuse_claim(pool, epoch, round, &format!("a claim carries the round's committed outcome, of at most {MAX_CLAIM} characters")));
        }
        let claim = match serde_json::from_str::<ReelClaim>(outcome) {
            Ok(claim) => claim,
            Err(e) => return Err(self.refuse_claim(pool, epoch, round, &format!("the claimed outcome is not a reel outcome ({e})"))),
        };
        self.award_claim(pool, epoch, round, level, &claim)
    }

    /// [`Self::award`] for a claim already read: the cabinet's, parsed once,
    /// or the service's own (a revealed round drawn again).
    pub(crate) fn award_claim(&mut self, pool: &str, epoch: &str, round: u64, level: usize, claim: &ReelClaim) -> Result<Claimed, LinkError> {
        // The service's own evaluation of the claim, on the approved
        // paytables (issue 46), before the controller's checks.
        let (games, triggers) = self.approval(pool)?;
        let verdict = service_refusal(&games, &triggers, claim, level);
        let stored = serde_json::to_string(claim).map_err(|e| LinkError::Invalid(e.to_string()))?;
        let level = i32::try_from(level).map_err(|_| LinkError::Invalid(format!("level {level} is out of range")))?;
        let row = self.client().query_one(
            "SELECT out_amount, out_refusal, out_pending FROM egm.award($1, $2, $3, $4, $5, $6)",
            &[&pool, &epoch, &i64_of(round, "round")?, &level, &stored, &verdict],
        )?;
        match (row.get::<_, Option<i64>>(0), row.get::<_, Option<String>>(1), row.get::<_, Option<bool>>(2)) {
            (_, Some(reason), _) => Err(LinkError::Refused(reason)),
            (Some(a), None, pending) => {
                Ok(Claimed { amount: u64::try_from(a).map_err(|_| LinkError::Invalid(format!("a negative award {a}")))?, pending: pending.unwrap_or(false) })
            }
            (None, None, _) => Err(LinkError::Invalid("the controller answered neither an award nor a refusal".into())),
        }
    }

    /// The games and triggers the operator approved for `pool` (empty when
    /// none).
    pub(crate) fn approval(&mut self, pool: &str) -> Result<(BTreeMap<String, ApprovedReelGame>, Vec<ApprovedTrigger>), LinkError> {
        self.approval_and_claims(pool).map(|(g, t, _)| (g, t))
    }

    /// [`Self::approval`], and whether the pool takes claims that carry
    /// their outcome (issue 46).
    pub(crate) fn approval_and_claims(&mut self, pool: &str) -> Result<Approval, LinkError> {
        let row = self.client().query_opt("SELECT out_games, out_triggers, out_plain_claims FROM egm.approval($1)", &[&pool])?;
        let Some(row) = row else { return Ok((BTreeMap::new(), Vec::new(), false)) };
        let (games, triggers): (Option<String>, Option<String>) = (row.get(0), row.get(1));
        let games = games.and_then(|g| serde_json::from_str(&g).ok()).unwrap_or_default();
        let triggers = triggers.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
        Ok((games, triggers, row.get(2)))
    }

    /// Operator, issue 46: allow claims that carry their outcome on `pool`
    /// (cabinets of an earlier version), or refuse them again (the default:
    /// a claim reveals its committed round's key). Logged.
    pub fn allow_plain_claims(&mut self, pool: &str, allow: bool) -> Result<(), LinkError> {
        self.client().execute("SELECT egm.allow_plain_claims($1, $2)", &[&pool, &allow])?;
        Ok(())
    }

    /// The service: a claim that carries its round's outcome, taken only
    /// where the operator allows it (issue 46).
    pub(crate) fn plain_award(&mut self, pool: &str, epoch: &str, round: u64, level: usize, outcome: &str) -> Result<Claimed, LinkError> {
        let (_, _, plain) = self.approval_and_claims(pool)?;
        // Issue 50: a hold-and-spin is judged only as the service draws it
        // again from a revealed key, never as a cabinet says it went.
        let carries_hold = serde_json::from_str::<ReelClaim>(outcome).is_ok_and(|c| c.hold.is_some());
        if carries_hold {
            let reason = "a hold-and-spin's grand is claimed by revealing the committed round's key: the service draws the feature again";
            let logged = self.client().query_one("SELECT egm.refuse_claim($1, $2, $3, $4)", &[&pool, &epoch, &i64_of(round, "round")?, &reason])?;
            return Err(LinkError::Refused(logged.get(0)));
        }
        if !plain {
            let reason = "a claim reveals its committed round's key (issue 46): a claimed outcome is not taken on this pool";
            let logged = self.client().query_one("SELECT egm.refuse_claim($1, $2, $3, $4)", &[&pool, &epoch, &i64_of(round, "round")?, &reason])?;
            return Err(LinkError::Refused(logged.get(0)));
        }
        self.award(pool, epoch, round, level, outcome)
    }

    /// Operator: the awards of `pool` waiting for an attendant.
    pub fn pending_awards(&mut self, pool: &str) -> Result<Vec<PendingAward>, LinkError> {
        let rows = self.client().query("SELECT out_machine, out_epoch, out_round, out_level, out_amount, out_outcome FROM egm.pending_awards($1)", &[&pool])?;
        Ok(rows
            .iter()
            .map(|r| PendingAward {
                machine: r.get(0),
                epoch: r.get(1),
                round: r.get::<_, i64>(2) as u64,
                level: r.get::<_, i32>(3) as usize,
                amount: r.get::<_, i64>(4) as Cents,
                outcome: r.get(5),
            })
            .collect())
    }

    /// Operator: the attendant checked the cabinet and confirms the pending
    /// award (`confirm`), or refuses it (it goes back to its level). Logged
    /// under this login with `note`. Returns the amount.
    pub fn decide_award(&mut self, award: &PendingAward, pool: &str, confirm: bool, note: &str) -> Result<Cents, LinkError> {
        let level = i32::try_from(award.level).map_err(|_| LinkError::Invalid(format!("level {} is out of range", award.level)))?;
        let row = self.client().query_one(
            "SELECT egm.decide_award($1, $2, $3, $4, $5, $6, $7)",
            &[&award.machine, &award.epoch, &i64_of(award.round, "round")?, &pool, &level, &confirm, &note],
        )?;
        Ok(row.get::<_, i64>(0) as Cents)
    }
}
