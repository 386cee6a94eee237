//! Draw poker: the deal draws all ten cards (the hand and its five
//! replacements in order); the player holds cards, then draws: the one
//! committed decision. The final hand is paid from the paytable by coins.

use game_core::cards::Card;
use game_core::double_up::DoubleUpRule;
use game_core::draw_poker::{Dealt, DrawPokerGame, Hold};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::{cards, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal};
use crate::names::Lang;

/// A decision at the draw-poker screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawDecision {
    /// Hold or release card `0..5` (not committed).
    Toggle(usize),
    /// Draw, keeping the cards held (committed).
    Draw,
}

/// The draw step: the cards held and the final hand it makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRecord {
    pub hold: Hold,
    pub hand: [Card; 5],
    /// Credits the final hand wins.
    pub win: u64,
}

/// A draw-poker round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawPokerRound {
    pub coins: u32,
    pub dealt: Dealt,
    /// The cards held on screen (committed with the draw).
    pub hold: Hold,
    /// The committed draw: the final hand and its win.
    pub drawn: Option<DrawRecord>,
}

impl DrawPokerRound {
    /// The hand on screen: the deal, or the final hand once drawn.
    pub fn hand(&self) -> [Card; 5] {
        self.drawn.as_ref().map_or_else(|| self.dealt.hand(), |d| d.hand)
    }
}

/// A draw-poker game (its approved paytable).
pub struct DrawPoker(pub DrawPokerGame);

impl DrawPoker {
    /// The paytable's name for a final hand, if it pays.
    pub fn hand_name(&self, hand: &[Card; 5]) -> Option<String> {
        self.0.evaluate(hand).map(|e| self.0.entries[e].name.clone())
    }
}

impl GameKind for DrawPoker {
    const OPENING: &'static str = "deal";
    type Bet = u32;
    type Deal = Dealt;
    type Decision = DrawDecision;
    type Step = DrawRecord;
    type Round = DrawPokerRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.pick("póquer de troca", "draw poker")
    }

    fn opening_bet(&self) -> u32 {
        self.0.max_coins()
    }

    fn adjust_bet(&self, coins: &u32, control: BetControl, delta: i32) -> u32 {
        match control {
            BetControl::Amount => step(&self.0.coins, *coins, delta),
            BetControl::Lines | BetControl::SideBet => *coins,
        }
    }

    fn offers(&self, coins: &u32) -> bool {
        self.0.coins.contains(coins)
    }

    fn stake(&self, coins: &u32) -> u64 {
        u64::from(*coins)
    }

    fn bet_text(&self, coins: &u32, lang: Lang) -> String {
        format!("{coins} {}", lang.pick("moedas", "coins"))
    }

    fn draw(&self, _coins: &u32, rng: &mut Draw<'_>) -> Result<Dealt, String> {
        Ok(self.0.deal(rng))
    }

    fn open(&self, coins: &u32, deal: &Dealt) -> DrawPokerRound {
        DrawPokerRound { coins: *coins, dealt: *deal, hold: Hold::default(), drawn: None }
    }

    fn play_decision(&self, round: &DrawPokerRound) -> Option<DrawDecision> {
        round.drawn.is_none().then_some(DrawDecision::Draw)
    }

    fn decide(&self, round: &mut DrawPokerRound, decision: &DrawDecision) -> Result<Decided<DrawRecord>, Refusal> {
        if round.drawn.is_some() {
            return Err(Refusal::new("As cartas já foram trocadas", "The cards are already drawn"));
        }
        match *decision {
            DrawDecision::Toggle(i) if i < 5 => {
                round.hold = round.hold.toggle(i);
                Ok(Decided::Chosen)
            }
            DrawDecision::Toggle(i) => Err(Refusal::new(format!("Não há carta {}", i + 1), format!("There is no card {}", i + 1))),
            DrawDecision::Draw => {
                let hand = round.dealt.draw(round.hold);
                let win = self.0.win(&hand, round.coins);
                Ok(Decided::Commit { step: DrawRecord { hold: round.hold, hand, win }, extra_stake: 0 })
            }
        }
    }

    fn step_name(&self, _step: &DrawRecord) -> &'static str {
        "draw"
    }

    /// The hand and its win are worked out again from the hold: on resume
    /// nothing but the player's decision is taken from the journal.
    fn apply(&self, round: &mut DrawPokerRound, step: &DrawRecord) {
        let hand = round.dealt.draw(step.hold);
        round.hold = step.hold;
        round.drawn = Some(DrawRecord { hold: step.hold, hand, win: self.0.win(&hand, round.coins) });
    }

    fn decided(&self, round: &DrawPokerRound) -> bool {
        round.drawn.is_some()
    }

    fn win(&self, round: &DrawPokerRound) -> u64 {
        round.drawn.as_ref().map_or(0, |d| d.win)
    }

    fn staked(&self, round: &DrawPokerRound) -> u64 {
        u64::from(round.coins)
    }

    fn components(&self, round: &DrawPokerRound, denom: Cents) -> Vec<WinComponent> {
        let Some(d) = round.drawn.as_ref().filter(|d| d.win > 0) else { return Vec::new() };
        let name = self.hand_name(&d.hand).unwrap_or_default();
        vec![WinComponent { label: format!("{name} ({} coins)", round.coins), amount: d.win * denom }]
    }

    fn double_up(&self) -> Option<DoubleUpRule> {
        self.0.double_up
    }

    fn hits(&self, round: &DrawPokerRound, trigger: &Trigger) -> bool {
        round.drawn.as_ref().is_some_and(|d| game_core::progressive::draw_hit(&self.0, &d.hand, round.coins, trigger))
    }

    fn trigger_name(&self, trigger: &Trigger) -> Option<String> {
        let Trigger::PokerHand { pattern, .. } = trigger else { return None };
        self.0.entries.iter().find(|e| e.pattern == *pattern).map(|e| e.name.clone())
    }

    fn describe(&self, round: &DrawPokerRound, _lang: Lang) -> String {
        let hand = round.hand();
        format!("{} → {} {}", cards(&round.dealt.hand()), cards(&hand), self.hand_name(&hand).unwrap_or_default())
    }
}
