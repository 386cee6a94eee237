//! Desafio ao casino (casino war) on the host: the bet is an ante of the
//! table's and, where offered, the tie bet (the side-bet control); the ten
//! cards a round can need are drawn and committed with the stake at the
//! deal. Unequal first cards settle the round (DC-9, DC-10); equal ones
//! ask the player to go to war — the raise, equal to the ante, committed
//! with the decision as an extra stake, as stud's raise is — or to
//! surrender half the ante (DC-12…14). The tie bet settles on the first
//! two cards alone (DC-11; docs/desafio-ao-casino.md).

use game_core::desafio_ao_casino::{DesafioAoCasinoGame, Returns, TieChoice, WarDeal, settle};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::step;
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{Hand, RoundPicture, Scene};

/// B-16: the table's two wager categories, as its artifact names them
/// (`paytables::table_bet::wager_categories`).
const ANTE: &str = "aposta inicial / ante";
const TIE_BET: &str = "aposta de empate / tie bet";

/// The bet: the ante in credits and whether the tie bet rides beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarBet {
    pub ante: u64,
    #[serde(default)]
    pub tie: bool,
}

/// The committed decision on equal cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarStep {
    pub choice: TieChoice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarRound {
    pub ante: u64,
    /// The tie bet staked, in credits (0: none).
    pub tie_bet: u64,
    pub deal: WarDeal,
    /// The decision on equal cards, once committed.
    pub choice: Option<TieChoice>,
}

impl WarRound {
    pub fn returns(&self) -> Returns {
        settle(&self.deal, self.choice)
    }
}

/// How the round stands, in words: who won the first cards, the question
/// on a tie, then the war's or the surrender's end (DC-9…14).
pub fn announce(round: &WarRound, lang: Lang) -> &'static str {
    let (p, h) = (round.deal.player.rank(), round.deal.house.rank());
    if p != h {
        return if p > h { lang.t("O JOGADOR GANHA") } else { lang.t("A BANCA GANHA") };
    }
    match round.choice {
        None => lang.t("EMPATE: GUERRA OU DESISTIR?"),
        Some(TieChoice::Surrender) => lang.t("DESISTIU: METADE DO ANTE DEVOLVIDA"),
        Some(TieChoice::War) => match round.deal.player_war.rank().cmp(&round.deal.house_war.rank()) {
            std::cmp::Ordering::Greater => lang.t("O JOGADOR GANHA A GUERRA"),
            std::cmp::Ordering::Equal => lang.t("EMPATE NA GUERRA: BÓNUS IGUAL AO ANTE"),
            std::cmp::Ordering::Less => lang.t("A BANCA GANHA A GUERRA"),
        },
    }
}

pub struct DesafioAoCasino(pub DesafioAoCasinoGame);

impl DesafioAoCasino {
    fn tie_stake(&self, bet: &WarBet) -> u64 {
        match self.0.tie_bet {
            Some(t) if bet.tie => t,
            _ => 0,
        }
    }
}

impl GameKind for DesafioAoCasino {
    const OPENING: &'static str = "war-deal";
    type Bet = WarBet;
    type Deal = WarDeal;
    type Decision = TieChoice;
    type Edit = crate::kind::NoEdit;
    type Step = WarStep;
    type Round = WarRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("contra a banca")
    }

    fn opening_bet(&self) -> WarBet {
        WarBet { ante: self.0.antes.first().copied().unwrap_or(2), tie: false }
    }

    fn adjust_bet(&self, bet: &WarBet, control: BetControl, delta: i32) -> WarBet {
        match control {
            BetControl::Amount => WarBet { ante: step(&self.0.antes, bet.ante, delta), ..*bet },
            BetControl::SideBet => WarBet { tie: !bet.tie && self.0.tie_bet.is_some(), ..*bet },
            BetControl::Lines => *bet,
        }
    }

    fn offers(&self, bet: &WarBet) -> bool {
        self.0.antes.contains(&bet.ante) && (!bet.tie || self.0.tie_bet.is_some())
    }

    fn stake(&self, bet: &WarBet) -> u64 {
        bet.ante.saturating_add(self.tie_stake(bet))
    }

    /// B-16: the ante (and the war's raise on it) apart from the tie bet,
    /// each at its own RTP: the ante at the lower of going to war and
    /// surrendering, the player's choice.
    fn wagers(&self, bet: &WarBet) -> Vec<(String, u64)> {
        let mut w = vec![(ANTE.to_owned(), bet.ante)];
        if self.tie_stake(bet) > 0 {
            w.push((TIE_BET.to_owned(), self.tie_stake(bet)));
        }
        w
    }

    /// C-26: the ante, the war's raise (the ante again, DC-13) and the tie bet.
    fn most_staked(&self, bet: &WarBet) -> u64 {
        self.credit_needed(bet)
    }

    fn side_stake(&self, bet: &WarBet) -> u64 {
        self.tie_stake(bet)
    }

    /// The ante, the tie bet and the raise a war may ask for.
    fn credit_needed(&self, bet: &WarBet) -> u64 {
        bet.ante.saturating_mul(2).saturating_add(self.tie_stake(bet))
    }

    fn bet_text(&self, bet: &WarBet, lang: Lang) -> String {
        match self.tie_stake(bet) {
            0 => format!("{} {} {}", lang.t("ante"), bet.ante, lang.t("créd.")),
            t => format!("{} {} {} + {} {t}", lang.t("ante"), bet.ante, lang.t("créd."), lang.t("empate")),
        }
    }

    fn draw(&self, _bet: &WarBet, rng: &mut Draw<'_>) -> Result<WarDeal, String> {
        Ok(self.0.deal(rng))
    }

    fn open(&self, bet: &WarBet, deal: &WarDeal) -> WarRound {
        WarRound { ante: bet.ante, tie_bet: self.tie_stake(bet), deal: *deal, choice: None }
    }

    fn decide(&self, round: &mut WarRound, decision: &TieChoice) -> Result<Decided<WarStep>, Refusal> {
        if !round.deal.tied() || round.choice.is_some() {
            return Err(Refusal::new("Não há decisão a tomar", "There is no decision to make"));
        }
        // DC-13: going to war adds a stake equal to the ante.
        let extra_stake = if *decision == TieChoice::War { round.ante } else { 0 };
        Ok(Decided::Commit { step: WarStep { choice: *decision }, extra_stake })
    }

    fn step_name(&self, step: &WarStep) -> &'static str {
        match step.choice {
            TieChoice::War => "war",
            TieChoice::Surrender => "surrender",
        }
    }

    fn apply(&self, round: &mut WarRound, step: &WarStep) {
        round.choice = Some(step.choice);
    }

    fn decided(&self, round: &WarRound) -> bool {
        !round.deal.tied() || round.choice.is_some()
    }

    /// The cards turn (and a war's burned cards and war cards are laid)
    /// before the round settles.
    fn animated(&self) -> bool {
        true
    }

    /// The ante's half-antes and the tie bet's return, in credits (antes
    /// are even, so a surrender's half is whole).
    fn win(&self, round: &WarRound) -> u64 {
        let r = round.returns();
        let tie = if round.deal.tied() { round.tie_bet.saturating_mul(r.tie_bets) } else { 0 };
        (round.ante / 2).saturating_mul(r.half_antes).saturating_add(tie)
    }

    fn staked(&self, round: &WarRound) -> u64 {
        round.ante.saturating_mul(round.returns().antes_staked).saturating_add(round.tie_bet)
    }

    fn components(&self, round: &WarRound, denom: Cents) -> Vec<WinComponent> {
        let r = round.returns();
        let mut out = Vec::new();
        let ante = (round.ante / 2).saturating_mul(r.half_antes);
        if ante > 0 {
            out.push(WinComponent { label: format!("ante ({} staked)", round.ante), amount: ante.saturating_mul(denom) });
        }
        if round.tie_bet > 0 && round.deal.tied() {
            out.push(WinComponent {
                label: format!("tie bet ({} staked, 10:1)", round.tie_bet),
                amount: round.tie_bet.saturating_mul(11).saturating_mul(denom),
            });
        }
        out
    }

    fn hits(&self, _round: &WarRound, _trigger: &Trigger) -> bool {
        false
    }

    /// The cards at their places: the player's, the house's, the six
    /// burned, the two of the war.
    fn shown(&self, deal: &WarDeal) -> Vec<Shown> {
        let mut cards = vec![deal.player, deal.house];
        cards.extend(deal.burned);
        cards.extend([deal.player_war, deal.house_war]);
        Shown::cards("card", &cards, 52)
    }

    fn describe(&self, round: &WarRound, lang: Lang) -> String {
        let d = &round.deal;
        let war = match round.choice {
            Some(TieChoice::War) => format!(" — {}: {} / {}", lang.t("guerra"), d.player_war.pretty(), d.house_war.pretty()),
            Some(TieChoice::Surrender) => format!(" — {}", lang.t("desistiu")),
            None => String::new(),
        };
        format!("{} / {}{war}", d.player.pretty(), d.house.pretty())
    }

    fn picture(&self, round: &WarRound, lang: Lang) -> RoundPicture {
        let d = &round.deal;
        let (player, house) = match round.choice {
            Some(TieChoice::War) => (vec![d.player, d.player_war], vec![d.house, d.house_war]),
            _ => (vec![d.player], vec![d.house]),
        };
        let caption = self.describe(round, lang);
        RoundPicture { scene: Scene::Cards(vec![Hand::new(lang.t("JOGADOR"), &player), Hand::new(lang.t("BANCA|banker"), &house)]), caption }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn game() -> DesafioAoCasino {
        DesafioAoCasino(DesafioAoCasinoGame { id: "w".into(), name: "W".into(), decks: 6, antes: vec![2, 10], tie_bet: Some(1) })
    }

    fn round(p: &str, h: &str, pw: &str, hw: &str, tie: bool) -> WarRound {
        let c = |s: &str| s.parse().unwrap();
        let deal = WarDeal { player: c(p), house: c(h), burned: [c("2c"); 6], player_war: c(pw), house_war: c(hw) };
        game().open(&WarBet { ante: 10, tie }, &deal)
    }

    /// DC-9…14 in credits: the ante 10, the tie bet 1.
    #[test]
    fn each_outcome_pays_in_credits() {
        let g = game();
        let won = round("Ah", "Ks", "2c", "2c", true);
        assert!(g.decided(&won));
        assert_eq!((g.win(&won), g.staked(&won)), (20, 11), "the ante 1:1, the tie bet lost");
        let mut tied = round("9h", "9s", "Kc", "2c", true);
        assert!(!g.decided(&tied));
        let Ok(Decided::Commit { step, extra_stake }) = g.decide(&mut tied, &TieChoice::War) else { panic!("war refused") };
        assert_eq!(extra_stake, 10, "DC-13: the raise equals the ante");
        g.apply(&mut tied, &step);
        assert_eq!((g.win(&tied), g.staked(&tied)), (30 + 11, 21), "DC-14 a and the tie bet 10:1");
        let mut surrendered = round("9h", "9s", "Kc", "2c", false);
        let Ok(Decided::Commit { step, extra_stake: 0 }) = g.decide(&mut surrendered, &TieChoice::Surrender) else { panic!() };
        g.apply(&mut surrendered, &step);
        assert_eq!((g.win(&surrendered), g.staked(&surrendered)), (5, 10), "half the ante back");
        assert!(g.decide(&mut surrendered, &TieChoice::War).is_err(), "one decision");
        let mut lost = round("2h", "3s", "Kc", "2c", false);
        assert!(g.decide(&mut lost, &TieChoice::War).is_err(), "no decision without a tie");
        let said: Vec<&str> = [&won, &lost, &surrendered, &tied].iter().map(|r| announce(r, Lang::Pt)).collect();
        assert_eq!(said, ["O JOGADOR GANHA", "A BANCA GANHA", "DESISTIU: METADE DO ANTE DEVOLVIDA", "O JOGADOR GANHA A GUERRA"]);
        let mut war_tied = round("9h", "9s", "5c", "5d", false);
        assert_eq!(announce(&war_tied, Lang::Pt), "EMPATE: GUERRA OU DESISTIR?");
        war_tied.choice = Some(TieChoice::War);
        assert_eq!((announce(&war_tied, Lang::En), g.win(&war_tied)), ("WAR TIED: A BONUS EQUAL TO THE ANTE", 40), "DC-14 b");
    }
}
