//! The session's card rounds: draw poker (deal, hold, draw, double-up) and
//! póquer sem descarte (ante, raise or fold, settlement), as
//! [`Session`] methods. As for reels, every card of the round is drawn by
//! game-core and committed with `begin_round` before anything is shown:
//! the draw poker deal holds the five replacements too, the stud deal the
//! dealer's hand. Each decision (the draw with its holds, raise or fold, a
//! gamble) is a committed step; a round interrupted by a power loss is
//! resumed at its last step and finished as recorded (M-36).

use std::convert::Infallible;

use game_core::double_up::Gamble;
use game_core::draw_poker::{Dealt, DrawPokerGame, Hold};
use game_core::stud_poker::{Decision, Outcome, Settlement, StudDeal, StudPokerGame};
use meters::{Cents, RoundRecall, Step, WinComponent};
use serde::{Deserialize, Serialize};

use crate::session::{HostedGame, RoundSummary, Session};

/// The first step of a draw-poker round: the bet and all ten cards.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DealRecord {
    pub game: String,
    pub denom: Cents,
    pub coins: u32,
    pub dealt: Dealt,
}

/// The draw step: the cards held and the final hand it makes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DrawRecord {
    pub hold: Hold,
    pub hand: [game_core::cards::Card; 5],
    pub win: u64,
}

#[derive(Clone, Debug)]
pub struct DrawRound {
    pub id: u64,
    pub game: usize,
    pub denom: Cents,
    pub record: DealRecord,
    /// The holds chosen on screen (committed with the draw).
    pub hold: Hold,
    /// The draw is committed: `hand` and `win` are final.
    pub drawn: bool,
    pub hand: [game_core::cards::Card; 5],
    /// Credits won by the final hand.
    pub win: u64,
    /// Credits now at stake in the double-up.
    pub at_stake: u64,
    pub gambles: Vec<Gamble>,
    pub resumed: bool,
    /// The player collected, and the round waits for a linked award from
    /// the progressive controller before it can settle.
    pub awaiting_controller: bool,
}

/// The first step of a póquer sem descarte round: the ante and both hands.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudRecord {
    pub game: String,
    pub denom: Cents,
    pub ante: u64,
    pub deal: StudDeal,
}

#[derive(Clone, Debug)]
pub struct StudRound {
    pub id: u64,
    pub game: usize,
    pub denom: Cents,
    pub record: StudRecord,
    pub decision: Option<Decision>,
    pub settlement: Option<Settlement>,
    pub resumed: bool,
}

/// Step names in the journal.
const DRAW_DEAL: &str = "deal";
const DRAW: &str = "draw";
const STUD_DEAL: &str = "stud-deal";
const RAISE: &str = "raise";
const FOLD: &str = "fold";

fn draw_game(games: &[HostedGame], i: usize) -> Option<&DrawPokerGame> {
    match games.get(i)? {
        HostedGame::DrawPoker(g) => Some(g),
        _ => None,
    }
}

fn stud_game(games: &[HostedGame], i: usize) -> Option<&StudPokerGame> {
    match games.get(i)? {
        HostedGame::StudPoker(g) => Some(g),
        _ => None,
    }
}

fn cards(hand: &[game_core::cards::Card]) -> String {
    hand.iter().map(|c| c.pretty()).collect::<Vec<_>>().join(" ")
}

impl Session {
    fn draw_game(&self, i: usize) -> Option<&DrawPokerGame> {
        draw_game(&self.games, i)
    }

    fn stud_game(&self, i: usize) -> Option<&StudPokerGame> {
        stud_game(&self.games, i)
    }

    /// The name of a draw-poker entry (the hand a final hand is paid as).
    pub fn draw_hand_name(&self, game: usize, hand: &[game_core::cards::Card; 5]) -> Option<String> {
        let g = self.draw_game(game)?;
        g.evaluate(hand).map(|e| g.entries[e].name.clone())
    }

    // ----- draw poker -----------------------------------------------------

    /// Deal: all ten cards drawn and committed with the stake.
    pub fn deal_draw_poker(&mut self) -> bool {
        if self.in_round() {
            return false;
        }
        let gi = self.selected;
        let Some(g) = draw_game(&self.games, gi) else { return false };
        let (coins, denom) = (self.coins, self.denom);
        let game_id = g.id.clone();
        let dealt = self.machine.play_round(&game_id, denom, u64::from(coins) * denom, DRAW_DEAL, |rng| {
            Ok::<_, Infallible>(DealRecord { game: game_id.clone(), denom, coins, dealt: g.deal(rng) })
        });
        match dealt {
            Ok((id, record)) => {
                self.message = None;
                self.last_card_round = None;
                let hand = record.dealt.hand();
                self.draw = Some(DrawRound {
                    id,
                    game: gi,
                    denom: record.denom,
                    record,
                    hold: Hold::default(),
                    drawn: false,
                    hand,
                    win: 0,
                    at_stake: 0,
                    gambles: Vec::new(),
                    resumed: false,
                    awaiting_controller: false,
                });
                true
            }
            Err(e) => {
                self.fail(e);
                false
            }
        }
    }

    /// Hold or release card `i` (0..5) before the draw (touch or button).
    pub fn toggle_hold(&mut self, i: usize) {
        if let Some(d) = self.draw.as_mut().filter(|d| !d.drawn && i < 5) {
            d.hold = d.hold.toggle(i);
        }
    }

    /// Draw: the held cards stay, the others are replaced by the cards
    /// committed at the deal; the draw is a committed step.
    pub fn draw_cards(&mut self) {
        let Some(d) = self.draw.as_ref().filter(|d| !d.drawn) else { return };
        let Some(g) = self.draw_game(d.game) else { return };
        let hand = d.record.dealt.draw(d.hold);
        let win = g.win(&hand, d.record.coins);
        let step = DrawRecord { hold: d.hold, hand, win };
        let data = serde_json::to_value(&step).unwrap_or(serde_json::Value::Null);
        if let Err(e) = self.machine.record_step(d.id, Step::new(DRAW, data), 0) {
            self.fail(e);
            return;
        }
        if let Some(d) = self.draw.as_mut() {
            d.drawn = true;
            d.hand = hand;
            d.win = win;
            d.at_stake = win;
        }
        if win == 0 || !self.double_up_offered() {
            self.collect_draw();
        }
    }

    /// Settle the draw-poker round with the amount at stake (M-33), and
    /// the progressive levels its final hand wins (M-18: a standalone
    /// pool's level, or a linked pool's award from the controller).
    pub(crate) fn collect_draw(&mut self) {
        let Some(d) = self.draw.clone().filter(|d| d.drawn) else { return };
        let Some(g) = draw_game(&self.games, d.game) else { return };
        let name = g.evaluate(&d.hand).map(|e| g.entries[e].name.clone());
        let hit = |t: &game_core::progressive::Trigger| game_core::progressive::draw_hit(g, &d.hand, d.record.coins, t);
        let hits = self.standalone_hits(&g.id, hit);
        let machine_id = self.machine.config().machine_id.clone();
        let stake = u64::from(d.record.coins) * d.denom;
        let Some(linked) = crate::session::linked_awards_for(&mut self.linked, &machine_id, d.id, &g.id, stake, hit) else {
            if let Some(open) = self.draw.as_mut() {
                open.awaiting_controller = true;
            }
            self.message = Some(self.t("PROGRESSIVO LIGADO! A aguardar o controlador…", "LINKED PROGRESSIVE! Waiting for the controller…").to_owned());
            return;
        };
        let mut components = Vec::new();
        if let Some(n) = &name
            && d.win > 0
        {
            components.push(WinComponent { label: format!("{n} ({} coins)", d.record.coins), amount: d.win * d.denom });
        }
        if !d.gambles.is_empty() {
            components.push(WinComponent { label: format!("double-up ({} gambles)", d.gambles.len()), amount: d.at_stake * d.denom });
        }
        let base_win = d.at_stake * d.denom;
        match self.machine.settle_round_with_awards(d.id, base_win, components, &hits, &linked) {
            Ok(s) => {
                if s.win > base_win {
                    self.message = Some(format!("{} {}", self.t("PROGRESSIVO!", "PROGRESSIVE!"), self.show(s.win - base_win)));
                }
                self.note_handpay(&s.payment);
                self.history.push(RoundSummary {
                    round: d.id,
                    game: d.record.game.clone(),
                    denom: d.denom,
                    stake: u64::from(d.record.coins) * d.denom,
                    win: s.win,
                    outcome: None,
                    detail: format!("{} → {} {}", cards(&d.record.dealt.hand()), cards(&d.hand), name.unwrap_or_default()),
                    gambles: d.gambles.clone(),
                });
                self.last_card_round = Some(crate::session::CardRound::Draw(d));
                self.draw = None;
            }
            Err(e) => self.fail(e),
        }
    }

    // ----- póquer sem descarte ----------------------------------------------

    /// Deal: both hands drawn and committed with the ante. The credit must
    /// cover the raise too, so the player can always choose.
    pub fn deal_stud(&mut self) -> bool {
        if self.in_round() {
            return false;
        }
        let gi = self.selected;
        let Some(g) = stud_game(&self.games, gi) else { return false };
        let (ante, denom) = (self.ante, self.denom);
        if self.machine.credit() < 3 * ante * denom {
            let text = format!(
                "{} {}",
                self.t("Crédito insuficiente para o ante e a aposta (3× o ante):", "Not enough credit for the ante and the raise (3× the ante):"),
                self.show(3 * ante * denom)
            );
            self.fail(text);
            return false;
        }
        let game_id = g.id.clone();
        let dealt = self.machine.play_round(&game_id, denom, ante * denom, STUD_DEAL, |rng| {
            Ok::<_, Infallible>(StudRecord { game: game_id.clone(), denom, ante, deal: g.deal(rng) })
        });
        match dealt {
            Ok((id, record)) => {
                self.message = None;
                self.last_card_round = None;
                self.stud = Some(StudRound { id, game: gi, denom, record, decision: None, settlement: None, resumed: false });
                true
            }
            Err(e) => {
                self.fail(e);
                false
            }
        }
    }

    /// Raise ("vou": twice the ante, a committed step with its stake) or
    /// fold ("passo"); then the dealer's hand is shown and the round settles.
    pub fn stud_decide(&mut self, decision: Decision) {
        let Some(r) = self.stud.as_ref().filter(|r| r.decision.is_none()) else { return };
        let (id, extra) = (r.id, if decision == Decision::Raise { 2 * r.record.ante * r.denom } else { 0 });
        let name = if decision == Decision::Raise { RAISE } else { FOLD };
        if let Err(e) = self.machine.record_step(id, Step::new(name, serde_json::json!({ "decision": decision })), extra) {
            self.fail(e);
            return;
        }
        self.finish_stud(decision);
    }

    /// Settle a decided stud round as game-core settles it.
    fn finish_stud(&mut self, decision: Decision) {
        let Some(r) = self.stud.clone() else { return };
        let Some(g) = self.stud_game(r.game) else { return };
        let s = g.settle(&r.record.deal, r.record.ante, decision);
        let label = match s.outcome {
            Outcome::Folded => "fold",
            Outcome::DealerDoesNotQualify => "dealer does not qualify: ante 1:1, raise returned",
            Outcome::PlayerWins => "player wins",
            Outcome::DealerWins => "dealer wins",
            Outcome::Push => "push",
        };
        let components =
            if s.returned > 0 { vec![WinComponent { label: format!("{label} ({})", s.player.name_en()), amount: s.returned * r.denom }] } else { Vec::new() };
        match self.machine.settle_round(r.id, s.returned * r.denom, components) {
            Ok(settled) => {
                self.note_handpay(&settled.payment);
                let mut done = r.clone();
                done.decision = Some(decision);
                done.settlement = Some(s);
                self.history.push(RoundSummary {
                    round: r.id,
                    game: r.record.game.clone(),
                    denom: r.denom,
                    stake: s.staked * r.denom,
                    win: settled.win,
                    outcome: None,
                    detail: format!(
                        "{} {} — {} {} — {label}",
                        cards(&r.record.deal.player),
                        s.player.name_pt(),
                        cards(&r.record.deal.dealer),
                        s.dealer.name_pt()
                    ),
                    gambles: Vec::new(),
                });
                self.last_card_round = Some(crate::session::CardRound::Stud(done));
                self.stud = None;
            }
            Err(e) => self.fail(e),
        }
    }

    // ----- recovery -------------------------------------------------------

    /// An interrupted round's first record and the hosted game it belongs
    /// to; None (and the round voided, M-36) when either is missing.
    fn interrupted<T: serde::de::DeserializeOwned>(
        &mut self,
        round: u64,
        data: &serde_json::Value,
        is_its_game: impl Fn(&HostedGame, &T) -> bool,
    ) -> Option<(T, usize)> {
        let found = serde_json::from_value::<T>(data.clone()).ok().and_then(|r| self.games.iter().position(|g| is_its_game(g, &r)).map(|gi| (r, gi)));
        if found.is_none() {
            self.void_interrupted(round);
        }
        found
    }

    /// Resume an interrupted card round at its last step (M-36); true when
    /// the round was a card round (resumed or voided).
    pub(crate) fn resume_card_round(&mut self, round: u64, recall: Option<&RoundRecall>) -> bool {
        let Some(rr) = recall else { return false };
        let Some(first) = rr.steps.first() else { return false };
        match first.step.name.as_str() {
            DRAW_DEAL => {
                let Some((record, gi)) =
                    self.interrupted::<DealRecord>(round, &first.step.data, |g, r| matches!(g, HostedGame::DrawPoker(d) if d.id == r.game))
                else {
                    return true;
                };
                let draw: Option<DrawRecord> = rr.steps.iter().find(|s| s.step.name == DRAW).and_then(|s| serde_json::from_value(s.step.data.clone()).ok());
                let gambles: Vec<Gamble> =
                    rr.steps.iter().filter(|s| s.step.name == "gamble").filter_map(|s| serde_json::from_value(s.step.data.clone()).ok()).collect();
                if let Err(e) = self.machine.resume_round(round) {
                    self.fail(e);
                    return true;
                }
                let (hold, drawn, hand, win) = match &draw {
                    Some(d) => (d.hold, true, d.hand, d.win),
                    None => (Hold::default(), false, record.dealt.hand(), 0),
                };
                let at_stake = gambles.last().map_or(win, |g| g.result);
                self.selected = gi;
                self.denom = record.denom;
                self.coins = record.coins;
                self.draw = Some(DrawRound {
                    id: round,
                    game: gi,
                    denom: record.denom,
                    record,
                    hold,
                    drawn,
                    hand,
                    win,
                    at_stake,
                    gambles,
                    resumed: true,
                    awaiting_controller: false,
                });
                self.message = Some(self.t("Jogada interrompida retomada", "Interrupted game resumed").to_owned());
                true
            }
            STUD_DEAL => {
                let Some((record, gi)) =
                    self.interrupted::<StudRecord>(round, &first.step.data, |g, r| matches!(g, HostedGame::StudPoker(d) if d.id == r.game))
                else {
                    return true;
                };
                let decision = rr.steps.iter().find_map(|s| match s.step.name.as_str() {
                    RAISE => Some(Decision::Raise),
                    FOLD => Some(Decision::Fold),
                    _ => None,
                });
                if let Err(e) = self.machine.resume_round(round) {
                    self.fail(e);
                    return true;
                }
                self.selected = gi;
                self.denom = record.denom;
                self.ante = record.ante;
                self.stud = Some(StudRound { id: round, game: gi, denom: record.denom, record, decision: None, settlement: None, resumed: true });
                self.message = Some(self.t("Jogada interrompida retomada", "Interrupted game resumed").to_owned());
                // A decision already committed is finished as recorded.
                if let Some(d) = decision {
                    self.finish_stud(d);
                }
                true
            }
            _ => false,
        }
    }
}
