//! Draw poker: the deal draws all ten cards (the hand and its five
//! replacements in order); the player holds cards, then draws: the one
//! committed decision. The final hand is paid from the paytable by coins.
//!
//! Multi-hand play (issue 18), when the paytable offers it: the bet is
//! coins a hand × hands; one deal, one hold for every hand, and each
//! further hand draws its replacements from its own copy of the deck less
//! the five dealt (`DrawPokerGame::deal_hands`), all drawn at the deal.
//! The win is the sum of every hand's. A single-hand bet, deal and draw
//! are journaled exactly as before multi-hand play existed.

use game_core::cards::Card;
use game_core::double_up::DoubleUpRule;
use game_core::draw_poker::{Dealt, DrawPokerGame, Hold, MultiDealt};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::{cards, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{Hand, RoundPicture, Scene};

/// A decision at the draw-poker screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawDecision {
    /// Hold or release card `0..5` (not committed).
    Toggle(usize),
    /// Draw, keeping the cards held (committed).
    Draw,
}

/// The bet: coins a hand, and hands (1 unless the paytable offers
/// multi-hand play). A single-hand bet is journaled as its coins alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "BetRecord", into = "BetRecord")]
pub struct DrawBet {
    pub coins: u32,
    pub hands: u32,
}

/// How a bet is journaled.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum BetRecord {
    Coins(u32),
    Hands { coins: u32, hands: u32 },
}

impl From<BetRecord> for DrawBet {
    fn from(r: BetRecord) -> Self {
        match r {
            BetRecord::Coins(coins) => DrawBet { coins, hands: 1 },
            BetRecord::Hands { coins, hands } => DrawBet { coins, hands },
        }
    }
}

impl From<DrawBet> for BetRecord {
    fn from(b: DrawBet) -> Self {
        if b.hands == 1 { BetRecord::Coins(b.coins) } else { BetRecord::Hands { coins: b.coins, hands: b.hands } }
    }
}

/// The deal: the first hand's ten cards, and each further hand's five
/// replacements (multi-hand play).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawDeal {
    #[serde(flatten)]
    pub first: Dealt,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<[Card; 5]>,
}

impl DrawDeal {
    /// Every hand's deal, as game-core draws them.
    pub fn hands(&self) -> MultiDealt {
        let mut replacements = vec![std::array::from_fn(|i| self.first.cards[5 + i])];
        replacements.extend(self.more.iter().copied());
        MultiDealt { dealt: self.first.hand(), replacements }
    }
}

/// The draw step: the cards held and the final hands they make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRecord {
    pub hold: Hold,
    /// The first hand's final cards.
    pub hand: [Card; 5],
    /// Every further hand's final cards (multi-hand play).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<[Card; 5]>,
    /// Credits every hand wins together.
    pub win: u64,
}

impl DrawRecord {
    /// Every final hand, the first first.
    pub fn hands(&self) -> Vec<[Card; 5]> {
        std::iter::once(self.hand).chain(self.more.iter().copied()).collect()
    }
}

/// A draw-poker round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawPokerRound {
    pub coins: u32,
    pub deal: DrawDeal,
    /// The cards held on screen (committed with the draw).
    pub hold: Hold,
    /// The committed draw: the final hands and their win.
    pub drawn: Option<DrawRecord>,
}

impl DrawPokerRound {
    /// The first hand on screen: the deal, or its final hand once drawn.
    pub fn hand(&self) -> [Card; 5] {
        self.drawn.as_ref().map_or_else(|| self.deal.first.hand(), |d| d.hand)
    }

    /// How many hands the round plays.
    pub fn hands(&self) -> u32 {
        1 + self.deal.more.len() as u32
    }
}

/// A draw-poker game (its approved paytable).
pub struct DrawPoker(pub DrawPokerGame);

impl DrawPoker {
    /// The paytable's name for a final hand, if it pays, in `lang`.
    pub fn hand_name(&self, hand: &[Card; 5], lang: Lang) -> Option<String> {
        self.0.evaluate(hand).map(|e| self.0.entries[e].name_in(lang == Lang::Pt).to_owned())
    }

    /// The draw under `hold`: every hand's final cards and their win,
    /// worked out from the deal (on resume nothing but the player's hold is
    /// taken from the journal).
    fn finals(&self, round: &DrawPokerRound, hold: Hold) -> DrawRecord {
        let mut finals = round.deal.hands().draw(hold);
        let win = self.0.win_hands(&finals, round.coins);
        let hand = finals.remove(0);
        DrawRecord { hold, hand, more: finals, win }
    }
}

impl GameKind for DrawPoker {
    const OPENING: &'static str = "deal";
    type Bet = DrawBet;
    type Deal = DrawDeal;
    type Decision = DrawDecision;
    type Edit = crate::kind::NoEdit;
    type Step = DrawRecord;
    type Round = DrawPokerRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("póquer de troca")
    }

    /// The most coins, on the fewest hands the paytable offers.
    fn opening_bet(&self) -> DrawBet {
        DrawBet { coins: self.0.max_coins(), hands: self.0.hands.iter().copied().min().unwrap_or(1) }
    }

    /// The amount control sets the coins a hand; the lines control, the hands.
    fn adjust_bet(&self, bet: &DrawBet, control: BetControl, delta: i32) -> DrawBet {
        match control {
            BetControl::Amount => DrawBet { coins: step(&self.0.coins, bet.coins, delta), ..*bet },
            BetControl::Lines => DrawBet { hands: step(&self.0.hands, bet.hands, delta), ..*bet },
            BetControl::SideBet => *bet,
        }
    }

    fn offers(&self, bet: &DrawBet) -> bool {
        self.0.coins.contains(&bet.coins) && self.0.hands.contains(&bet.hands)
    }

    fn stake(&self, bet: &DrawBet) -> u64 {
        u64::from(bet.coins) * u64::from(bet.hands)
    }

    /// C-26: no decision adds a stake: the round stakes its bet.
    fn most_staked(&self, bet: &DrawBet) -> u64 {
        self.stake(bet)
    }

    /// B-16: the artifact proves an RTP per coins a hand (the royal's
    /// bonus at the most coins).
    fn rtp_key(&self, bet: &DrawBet) -> Option<(u64, &'static str)> {
        Some((u64::from(bet.coins), "coins"))
    }

    fn largest_stake(&self) -> Option<u64> {
        Some(u64::from(*self.0.coins.iter().max()?) * u64::from(*self.0.hands.iter().max()?))
    }

    fn bet_text(&self, bet: &DrawBet, lang: Lang) -> String {
        let coins = format!("{} {}", bet.coins, lang.t("moedas"));
        if bet.hands == 1 { coins } else { format!("{coins} × {} {}", bet.hands, lang.t("mãos")) }
    }

    /// One hand draws exactly as before multi-hand play; more hands draw
    /// the first's ten cards the same way, then their own replacements.
    fn draw(&self, bet: &DrawBet, rng: &mut Draw<'_>) -> Result<DrawDeal, String> {
        if bet.hands <= 1 {
            return Ok(DrawDeal { first: self.0.deal(rng), more: Vec::new() });
        }
        let all = self.0.deal_hands(rng, bet.hands as usize);
        let mut cards = [Card::JOKER; 10];
        cards[..5].copy_from_slice(&all.dealt);
        cards[5..].copy_from_slice(&all.replacements[0]);
        Ok(DrawDeal { first: Dealt { cards }, more: all.replacements[1..].to_vec() })
    }

    fn open(&self, bet: &DrawBet, deal: &DrawDeal) -> DrawPokerRound {
        DrawPokerRound { coins: bet.coins, deal: deal.clone(), hold: Hold::default(), drawn: None }
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
            DrawDecision::Draw => Ok(Decided::Commit { step: self.finals(round, round.hold), extra_stake: 0 }),
        }
    }

    fn step_name(&self, _step: &DrawRecord) -> &'static str {
        "draw"
    }

    /// The hand and its win are worked out again from the hold: on resume
    /// nothing but the player's decision is taken from the journal.
    fn apply(&self, round: &mut DrawPokerRound, step: &DrawRecord) {
        round.hold = step.hold;
        round.drawn = Some(self.finals(round, step.hold));
    }

    fn decided(&self, round: &DrawPokerRound) -> bool {
        round.drawn.is_some()
    }

    fn win(&self, round: &DrawPokerRound) -> u64 {
        round.drawn.as_ref().map_or(0, |d| d.win)
    }

    fn staked(&self, round: &DrawPokerRound) -> u64 {
        u64::from(round.coins) * u64::from(round.hands())
    }

    /// One component per winning hand (M-14: every hand's prize shown).
    fn components(&self, round: &DrawPokerRound, denom: Cents) -> Vec<WinComponent> {
        let Some(d) = round.drawn.as_ref() else { return Vec::new() };
        let several = !d.more.is_empty();
        d.hands()
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                let win = self.0.win(h, round.coins);
                // The journal's label is the paytable's own name.
                let name = self.hand_name(h, Lang::En)?;
                let label = if several { format!("hand {}: {name} ({} coins)", i + 1, round.coins) } else { format!("{name} ({} coins)", round.coins) };
                (win > 0).then(|| WinComponent { label, amount: win * denom })
            })
            .collect()
    }

    fn double_up(&self) -> Option<DoubleUpRule> {
        self.0.double_up
    }

    fn hits(&self, round: &DrawPokerRound, trigger: &Trigger) -> bool {
        round.drawn.as_ref().is_some_and(|d| d.hands().iter().any(|h| game_core::progressive::draw_hit(&self.0, h, round.coins, trigger)))
    }

    fn eligible(&self, bet: &DrawBet, trigger: &Trigger) -> bool {
        game_core::progressive::draw_eligible(&self.0, bet.coins, trigger)
    }

    fn trigger_name(&self, trigger: &Trigger) -> Option<String> {
        let Trigger::PokerHand { pattern, .. } = trigger else { return None };
        self.0.entries.iter().find(|e| e.pattern == *pattern).map(|e| e.name.clone())
    }

    /// The five dealt and the five first replacements at their places,
    /// then each further hand's replacements, over the game's deck.
    fn shown(&self, deal: &DrawDeal) -> Vec<Shown> {
        let deck = self.0.deck_size() as u64;
        let mut out = Shown::cards("card", &deal.first.cards, deck);
        for (h, more) in deal.more.iter().enumerate() {
            out.extend(Shown::cards(&format!("hand {} replacement", h + 2), more, deck));
        }
        out
    }

    fn describe(&self, round: &DrawPokerRound, lang: Lang) -> String {
        let dealt = cards(&round.deal.first.hand());
        match round.drawn.as_ref() {
            Some(d) if !d.more.is_empty() => {
                let finals: Vec<String> = d.hands().iter().map(|h| format!("{} {}", cards(h), self.hand_name(h, lang).unwrap_or_default())).collect();
                format!("{dealt} → {}", finals.join(" | "))
            }
            _ => {
                let hand = round.hand();
                format!("{dealt} → {} {}", cards(&hand), self.hand_name(&hand, lang).unwrap_or_default())
            }
        }
    }

    /// Every hand's final cards with its name, the first hand first.
    fn picture(&self, round: &DrawPokerRound, lang: Lang) -> RoundPicture {
        let finals = match round.drawn.as_ref() {
            Some(d) => d.hands(),
            None => vec![round.hand()],
        };
        let many = finals.len() > 1;
        let hands = finals
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let who = if many { format!("{} {}", lang.t("MÃO"), i + 1) } else { String::new() };
                let name = self.hand_name(h, lang).unwrap_or_default();
                Hand::new(format!("{who} {name}").trim().to_owned(), h)
            })
            .collect();
        let caption = if many { lang.count(finals.len() as u64, "mão", "mãos") } else { String::new() };
        RoundPicture { scene: Scene::Cards(hands), caption }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use meters::{Machine, MachineConfig, SeedChoice};
    use paytables::artifact::CompiledGame;

    /// The shipped 9/6 Jacks or Better, offering `hands`.
    fn jacks(hands: Vec<u32>) -> DrawPoker {
        let ws = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let manifest = paytables::artifact::read_manifest(&ws.join("assets/paytables/approved.ron")).unwrap();
        let floor = paytables::floor::Floor::legal_minimum();
        let path = ws.join("assets/paytables/compiled/jacks-or-better-9-6.json");
        let CompiledGame::DrawPoker(mut g) = paytables::artifact::load_approved(&path, &manifest, &floor).unwrap() else { panic!("not draw poker") };
        g.hands = hands;
        DrawPoker(g)
    }

    /// Issue 18: a sequential royal flush is paid by the order its cards
    /// are shown in, the replacements filling the discarded places from
    /// left to right, in every hand of a multi-hand round; out of order the
    /// same cards are a royal flush.
    #[test]
    fn a_sequential_royal_is_paid_by_the_order_shown() {
        let mut rules = jacks(vec![1, 3]);
        rules.0.entries.insert(
            0,
            game_core::draw_poker::PayEntry {
                name_pt: None,
                name: "Sequential Royal".into(),
                pattern: game_core::draw_poker::Pattern::SequentialRoyalFlush { either_way: false },
                pays: 250,
                max_coin_pays: Some(10_000),
            },
        );
        let h = |s: &str| game_core::cards::parse_hand(&[s.to_owned()]).unwrap();
        let deal = |dealt: &str, first: &str, more: &[&str]| DrawDeal {
            first: Dealt { cards: std::array::from_fn(|i| if i < 5 { h(dealt)[i] } else { h(first)[i - 5] }) },
            more: more.iter().map(|m| h(m)).collect(),
        };
        let bet = DrawBet { coins: 5, hands: 3 };
        let play = |deal: &DrawDeal| {
            let mut r = rules.open(&bet, deal);
            for i in 0..4 {
                rules.decide(&mut r, &DrawDecision::Toggle(i)).unwrap();
            }
            let Decided::Commit { step, .. } = rules.decide(&mut r, &DrawDecision::Draw).unwrap() else { panic!("the draw is committed") };
            rules.apply(&mut r, &step);
            (step, rules.components(&r, 1).into_iter().map(|c| c.label).collect::<Vec<_>>())
        };
        // T J Q K held in their places: the ace drawn to the fifth place is
        // the sequential royal (10,000 per coin), the nine a straight flush.
        let (step, labels) = play(&deal("Ts Js Qs Ks 4d", "As 2c 3c 5c 6c", &["9s 2d 3d 5d 6d", "2h 3h 5h 6h 7h"]));
        assert_eq!(step.hand, h("Ts Js Qs Ks As"));
        assert_eq!(step.win, 50_000 + 250);
        assert_eq!(labels, vec!["hand 1: Sequential Royal (5 coins)", "hand 2: Straight Flush (5 coins)"]);
        // The same cards in another order: a royal flush (800 per coin).
        let (step, labels) = play(&deal("Ks Qs Js Ts 4d", "As 2c 3c 5c 6c", &["2h 3h 5h 6h 7h", "As 2d 3d 5d 6d"]));
        assert_eq!(step.win, 4_000 + 4_000);
        assert_eq!(labels, vec!["hand 1: Royal Flush (5 coins)", "hand 3: Royal Flush (5 coins)"]);
    }

    /// A single-hand bet, deal and draw are journaled exactly as before
    /// multi-hand play; a multi-hand one says its hands.
    #[test]
    fn a_single_hand_round_is_journaled_as_before() {
        assert_eq!(serde_json::to_value(DrawBet { coins: 5, hands: 1 }).unwrap(), serde_json::json!(5));
        assert_eq!(serde_json::from_value::<DrawBet>(serde_json::json!(5)).unwrap(), DrawBet { coins: 5, hands: 1 });
        let three = DrawBet { coins: 5, hands: 3 };
        assert_eq!(serde_json::to_value(three).unwrap(), serde_json::json!({ "coins": 5, "hands": 3 }));
        assert_eq!(serde_json::from_value::<DrawBet>(serde_json::to_value(three).unwrap()).unwrap(), three);

        let rules = jacks(vec![1]);
        let dir = tempfile::tempdir().unwrap();
        let mut m = Machine::open(&dir.path().join("m.sqlite"), MachineConfig::default(), SeedChoice::Lab(4)).unwrap();
        m.insert_note(1_000).unwrap();
        let bet = rules.opening_bet();
        let (_, deal) = m.play_round(rules.id(), 1, rules.stake(&bet), "deal", |rng| rules.draw(&bet, rng)).unwrap();
        let json = serde_json::to_value(&deal).unwrap();
        assert_eq!(json.as_object().unwrap().keys().collect::<Vec<_>>(), vec!["cards"]);
        assert_eq!(serde_json::from_value::<Dealt>(json).unwrap(), deal.first);
        let mut r = rules.open(&bet, &deal);
        let Decided::Commit { step, .. } = rules.decide(&mut r, &DrawDecision::Draw).unwrap() else { panic!("the draw is committed") };
        let json = serde_json::to_value(&step).unwrap();
        assert_eq!(json.as_object().unwrap().keys().collect::<Vec<_>>(), vec!["hand", "hold", "win"]);
    }

    /// Issue 18: three hands from one deal, one hold; each further hand
    /// draws from its own deck less the five dealt; the win is every
    /// hand's pay added up, and a resume works it all out again.
    #[test]
    fn a_multi_hand_round_draws_every_hand_from_its_own_deck_and_pays_each() {
        let rules = jacks(vec![1, 3, 10]);
        let bet = rules.opening_bet();
        assert_eq!(bet, DrawBet { coins: 5, hands: 1 });
        let bet = rules.adjust_bet(&bet, BetControl::Lines, 1);
        assert_eq!(bet, DrawBet { coins: 5, hands: 3 });
        assert_eq!(rules.stake(&bet), 15);
        assert!(rules.offers(&bet) && !rules.offers(&DrawBet { coins: 5, hands: 2 }));
        assert_eq!(rules.bet_text(&bet, Lang::En), "5 coins × 3 hands");

        let dir = tempfile::tempdir().unwrap();
        let mut m = Machine::open(&dir.path().join("m.sqlite"), MachineConfig::default(), SeedChoice::Lab(9)).unwrap();
        m.insert_note(1_000).unwrap();
        let (_, deal) = m.play_round(rules.id(), 1, rules.stake(&bet), "deal", |rng| rules.draw(&bet, rng)).unwrap();
        assert_eq!(m.credit(), 1_000 - 15);
        let mut r = rules.open(&bet, &deal);
        assert_eq!(r.hands(), 3);
        for i in [0, 1] {
            assert_eq!(rules.decide(&mut r, &DrawDecision::Toggle(i)).unwrap(), Decided::Chosen);
        }
        let Decided::Commit { step, .. } = rules.decide(&mut r, &DrawDecision::Draw).unwrap() else { panic!("the draw is committed") };
        let dealt = deal.first.hand();
        let finals = step.hands();
        assert_eq!(finals.len(), 3);
        assert_eq!(finals[0], deal.first.draw(Hold(0b11)), "the first hand draws as a single hand does");
        for h in &finals {
            assert_eq!((h[0], h[1]), (dealt[0], dealt[1]), "the held cards stay in every hand");
            for (i, c) in h.iter().enumerate().skip(2) {
                assert!(!dealt.contains(c), "a dealt card came back as a replacement");
                assert!(!h[..i].contains(c), "a card twice in one hand: {h:?}");
            }
        }
        assert!(finals[1] != finals[0] || finals[2] != finals[0], "the further hands did not draw their own cards");
        // The win: every hand's pay by the paytable, added up.
        let expected: u64 = finals.iter().map(|h| rules.0.evaluate(h).map_or(0, |e| rules.0.pays_per_coin(e, 5) * 5)).sum();
        assert_eq!(step.win, expected);
        assert_eq!(
            rules.win(&{
                let mut done = r.clone();
                rules.apply(&mut done, &step);
                done
            }),
            expected
        );
        // A resume from the journal works the same hands out from the hold.
        let journaled: DrawRecord = serde_json::from_value(serde_json::to_value(&step).unwrap()).unwrap();
        let deal_again: DrawDeal = serde_json::from_value(serde_json::to_value(&deal).unwrap()).unwrap();
        let mut resumed = rules.open(&bet, &deal_again);
        rules.apply(&mut resumed, &journaled);
        assert_eq!(resumed.drawn.as_ref(), Some(&step));
        assert_eq!(rules.staked(&resumed), 15);
        let won: u64 = rules.components(&resumed, 1).iter().map(|c| c.amount).sum();
        assert_eq!(won, expected);
    }
}
