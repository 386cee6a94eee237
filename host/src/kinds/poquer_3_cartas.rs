//! Póquer de 3 cartas on the host, banked by the house (P3-20): the bet is
//! an ante of the table's; the six cards are drawn when betting closes and
//! committed with the stake before the first is turned; no decision. A win
//! returns the ante and its prize less the house's 5 % (P3-29) in cents,
//! the ante staked in whole steps of 20 cents so nothing is rounded (as
//! baccarat's commission, decisions.md Money).

use game_core::poquer_3_cartas::{self as p3, Deal3, Poquer3CartasGame, Winner};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::{NoDecision, cards, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{Hand, RoundPicture, Scene};

/// The bet: the ante in credits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poquer3Bet {
    pub ante: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poquer3Round {
    pub ante: u64,
    pub deal: Deal3,
}

impl Poquer3Round {
    pub fn winner(&self) -> Winner {
        p3::winner(&self.deal.player, &self.deal.bank)
    }
}

/// How the round is announced: who wins, each hand's combination.
pub fn announce(round: &Poquer3Round, lang: Lang) -> String {
    let pt = lang == Lang::Pt;
    let (p, b) = (p3::combination(&round.deal.player), p3::combination(&round.deal.bank));
    let who = match round.winner() {
        Winner::Player => lang.t("O JOGADOR GANHA"),
        Winner::Bank => lang.t("A BANCA GANHA"),
    };
    format!("{who}: {} {} {}", p3::combination_name(p, pt), lang.t("contra"), p3::combination_name(b, pt))
}

pub struct Poquer3Cartas(pub Poquer3CartasGame);

impl GameKind for Poquer3Cartas {
    const OPENING: &'static str = "poquer-3-cartas-deal";
    type Bet = Poquer3Bet;
    type Deal = Deal3;
    type Decision = NoDecision;
    type Edit = crate::kind::NoEdit;
    type Step = NoDecision;
    type Round = Poquer3Round;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("contra a banca")
    }

    fn opening_bet(&self) -> Poquer3Bet {
        Poquer3Bet { ante: self.0.antes.first().copied().unwrap_or(p3::CENT_STEP) }
    }

    fn adjust_bet(&self, bet: &Poquer3Bet, control: BetControl, delta: i32) -> Poquer3Bet {
        match control {
            BetControl::Amount => Poquer3Bet { ante: step(&self.0.antes, bet.ante, delta) },
            BetControl::Lines | BetControl::SideBet => *bet,
        }
    }

    fn offers(&self, bet: &Poquer3Bet) -> bool {
        self.0.antes.contains(&bet.ante)
    }

    /// P3-29: the 5 % of a win in whole cents — the ante in steps of 20.
    fn check_stake(&self, bet: &Poquer3Bet, denom: Cents) -> Result<(), Refusal> {
        let step = p3::CENT_STEP;
        if bet.ante.checked_mul(denom).is_none_or(|c| !c.is_multiple_of(step)) {
            return Err(Refusal::new(
                format!("A aposta tem de ser múltipla de {step} cêntimos, para a comissão ser em cêntimos inteiros"),
                format!("The stake must be a multiple of {step} cents, so that the commission is whole cents"),
            ));
        }
        Ok(())
    }

    fn stake(&self, bet: &Poquer3Bet) -> u64 {
        bet.ante
    }

    /// C-26: no decision adds a stake: the round stakes its bet.
    fn most_staked(&self, bet: &Poquer3Bet) -> u64 {
        self.stake(bet)
    }

    fn bet_text(&self, bet: &Poquer3Bet, lang: Lang) -> String {
        format!("{} {} {}", lang.t("ante"), bet.ante, lang.t("créd."))
    }

    fn draw(&self, _bet: &Poquer3Bet, rng: &mut Draw<'_>) -> Result<Deal3, String> {
        Ok(self.0.deal(rng))
    }

    fn open(&self, bet: &Poquer3Bet, deal: &Deal3) -> Poquer3Round {
        Poquer3Round { ante: bet.ante, deal: *deal }
    }

    super::decided_by_the_draw!(Poquer3Round);

    /// The whole credits of the win, for the screen; the core settles
    /// [`Poquer3Cartas::win_cents`].
    fn win(&self, round: &Poquer3Round) -> u64 {
        match round.winner() {
            Winner::Player => round.ante.saturating_mul(39) / 20,
            Winner::Bank => 0,
        }
    }

    fn win_cents(&self, round: &Poquer3Round, denom: Cents) -> Option<Cents> {
        p3::returned_cents(round.ante.checked_mul(denom)?, round.winner())
    }

    fn staked(&self, round: &Poquer3Round) -> u64 {
        round.ante
    }

    fn components(&self, round: &Poquer3Round, denom: Cents) -> Vec<WinComponent> {
        match self.win_cents(round, denom) {
            Some(c) if c > 0 => vec![WinComponent { label: format!("ante ({} staked, 1:1 less 5%)", round.ante), amount: c }],
            _ => Vec::new(),
        }
    }

    fn hits(&self, _round: &Poquer3Round, _trigger: &Trigger) -> bool {
        false
    }

    /// The player's three cards and the bank's at their places.
    fn shown(&self, deal: &Deal3) -> Vec<Shown> {
        let mut out = Shown::cards("player card", &deal.player, 52);
        out.extend(Shown::cards("bank card", &deal.bank, 52));
        out
    }

    fn describe(&self, round: &Poquer3Round, lang: Lang) -> String {
        format!("{} — {}: {} / {}: {}", announce(round, lang), lang.t("jogador"), cards(&round.deal.player), lang.t("banca|banker"), cards(&round.deal.bank))
    }

    fn picture(&self, round: &Poquer3Round, lang: Lang) -> RoundPicture {
        let hands = vec![Hand::new(lang.t("JOGADOR"), &round.deal.player), Hand::new(lang.t("BANCA|banker"), &round.deal.bank)];
        RoundPicture { scene: Scene::Cards(hands), caption: announce(round, lang) }
    }
}
