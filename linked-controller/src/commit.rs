//! Commit and reveal (issue 46): awards the controller verifies itself.
//! Before a linked-eligible round is drawn, the cabinet's core draws a
//! fresh key `k` and sends SHA-256(k) with the round's bet; the service
//! records them and answers its own random nonce `n`; the core draws the
//! round from HMAC-SHA256(k, n) (`meters::rng::CommittedStream`). A claim
//! reveals `k`: the service checks it against the commitment, draws the
//! round again with game-core on the approved paytable at the recorded
//! bet, and pays only what that outcome triggers, once. Neither side
//! chooses the outcome, and a forged or replayed claim has nothing to
//! reveal.

use serde::{Deserialize, Serialize};

use meters::Cents;
use meters::rng::CommittedStream;

use crate::claim::{Claimed, ReelClaim};
use crate::controller::{Controller, LinkError, i64_of};

/// The bet a committed reel round fixed before its nonce.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReelBet {
    pub game: String,
    pub lines: u32,
    pub credits_per_line: u64,
    pub denom: Cents,
}

impl ReelBet {
    /// Lines × credits per line × denomination, in cents.
    pub fn wager(&self) -> Option<Cents> {
        u64::from(self.lines).checked_mul(self.credits_per_line)?.checked_mul(self.denom)
    }
}

/// 32 bytes from 64 hexadecimal digits.
fn hex32(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    hex::decode(text).ok()?.try_into().ok()
}

impl Controller {
    /// The service: commit the calling cabinet's `round` (its key's
    /// SHA-256, hex) with `bet`, and answer the round's nonce (hex): a
    /// fresh one the first time, the same for the same commitment and bet
    /// ever after; another key or bet for the round is refused.
    ///
    /// The bet must be one the approved game offers (its lines and credits
    /// per line, by game-core) at one of the cabinet's denominations; the
    /// commitment is the round's contribution (`egm.commit`).
    ///
    /// `pace` is the service's committed rounds a second, which the
    /// controller holds per cabinet across every instance (issue 69).
    pub(crate) fn commit(&mut self, pool: &str, epoch: &str, round: u64, commitment: &str, bet: &ReelBet, pace: u64) -> Result<String, LinkError> {
        let wager = bet.wager().ok_or_else(|| LinkError::Refused(format!("the bet of round {round} overflows")))?;
        let (games, _) = self.approval(pool)?;
        let refusal = match games.get(&bet.game).and_then(|g| g.paytable.as_ref()) {
            None => Some(format!("game {} is not approved with its paytable for pool {pool}", crate::service::prefix(&bet.game, 64))),
            Some(game) => game
                .check_bet(game_core::reels::Bet { lines: bet.lines, credits_per_line: bet.credits_per_line })
                .err()
                .map(|e| format!("the bet of {} lines × {} credits is not one game {} offers: {e}", bet.lines, bet.credits_per_line, bet.game)),
        };
        let mut nonce = [0u8; 32];
        getrandom::fill(&mut nonce).map_err(|e| LinkError::Invalid(format!("the service's entropy: {e}")))?;
        let bet_json = serde_json::to_string(bet).map_err(|e| LinkError::Invalid(e.to_string()))?;
        let row = self.client().query_one(
            "SELECT out_nonce, out_refusal FROM egm.commit($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            &[&pool, &epoch, &i64_of(round, "round")?, &commitment, &bet_json, &i64_of(wager, "wager")?, &hex::encode(nonce), &refusal, &i64_of(pace, "pace")?],
        )?;
        match (row.get::<_, Option<String>>(0), row.get::<_, Option<String>>(1)) {
            (_, Some(reason)) => Err(LinkError::Refused(reason)),
            (Some(nonce), None) => Ok(nonce),
            (None, None) => Err(LinkError::Invalid("the controller answered neither a nonce nor a refusal".into())),
        }
    }

    /// The service: a claim of `level` for the calling cabinet's committed
    /// `round`, revealing its key (hex). The round is drawn again from the
    /// key and the nonce on the approved paytable at the committed bet, and
    /// the award is made (or refused) on that outcome alone.
    pub(crate) fn reveal(&mut self, pool: &str, epoch: &str, round: u64, level: usize, key: &str) -> Result<Claimed, LinkError> {
        let row =
            self.client().query_opt("SELECT out_commitment, out_nonce, out_bet FROM egm.commitment($1, $2, $3)", &[&pool, &epoch, &i64_of(round, "round")?])?;
        let Some(row) = row else {
            return Err(self.refuse_claim(
                pool,
                epoch,
                round,
                &format!("round {round} of epoch {epoch} was not committed: a claim reveals a committed round's key"),
            ));
        };
        let (commitment, nonce, bet): (String, String, String) = (row.get(0), row.get(1), row.get(2));
        let Some(k) = hex32(key) else { return Err(self.refuse_claim(pool, epoch, round, "the revealed key is not 64 hexadecimal digits")) };
        if hex::encode(CommittedStream::commitment(&k)) != commitment {
            return Err(self.refuse_claim(pool, epoch, round, &format!("the revealed key is not round {round}'s commitment")));
        }
        let (Some(n), Ok(bet)) = (hex32(&nonce), serde_json::from_str::<ReelBet>(&bet)) else {
            return Err(LinkError::Invalid(format!("round {round}'s commitment is not readable")));
        };
        let (games, _) = self.approval(pool)?;
        let Some(game) = games.get(&bet.game).and_then(|g| g.paytable.as_ref()) else {
            return Err(self.refuse_claim(pool, epoch, round, &format!("game {} is not approved with its paytable for pool {pool}", bet.game)));
        };
        let drawn = game_core::reels::StopTables::new(game).map_err(|e| e.to_string()).and_then(|tables| {
            let reel_bet = game_core::reels::Bet { lines: bet.lines, credits_per_line: bet.credits_per_line };
            game.play(&tables, &mut CommittedStream::new(&k, &n), reel_bet).map_err(|e| e.to_string())
        });
        let drawn = match drawn {
            Ok(r) => r,
            Err(why) => return Err(self.refuse_claim(pool, epoch, round, &format!("round {round} cannot be drawn again on game {}: {why}", bet.game))),
        };
        let claim =
            ReelClaim { game: bet.game, stops: drawn.base.stops, lines: bet.lines, credits_per_line: bet.credits_per_line, denom: bet.denom, hold: drawn.hold };
        self.award_claim(pool, epoch, round, level, &claim)
    }

    /// Log a claim refused before the award's own checks; the refusal.
    pub(crate) fn refuse_claim(&mut self, pool: &str, epoch: &str, round: u64, reason: &str) -> LinkError {
        let logged = i64_of(round, "round")
            .and_then(|r| Ok(self.client().query_one("SELECT egm.refuse_claim($1, $2, $3, $4)", &[&pool, &epoch, &r, &reason])?.get::<_, String>(0)));
        match logged {
            Ok(reason) => LinkError::Refused(reason),
            Err(e) => e,
        }
    }
}
