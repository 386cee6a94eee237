//! Video roulette on the host (AR 1–60, FR 1–54): the bet is a layout of
//! chips on the cloth, edited spot by spot (`Command::EditBet`) and checked
//! against the table's limits, each refusal naming its limit (AR 21,
//! FR 19–20); the pocket is drawn once the bet is fixed ("rien ne va plus",
//! AR 16, FR 16) and committed with the stake before the wheel turns; the
//! layout settles spot by spot (AR 42, FR 33, FR 41).

use game_core::progressive::Trigger;
use game_core::roulette::{CallBet, LimitError, PocketColour, RouletteGame, Spot, colour, pocket_name};
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::layout::{ChipLayout, SpotEdit, chip_offered};
use super::{NoDecision, step};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

/// The bet: the chip value the player places with, and the layout, each
/// spot once with its stake in credits (ascending by spot).
pub type RouletteBet = ChipLayout<Spot>;

/// The kind's own edits of the layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RouletteEdit {
    /// A chip of the selected value on a spot.
    Place { spot: Spot },
    /// Every chip off one spot.
    Remove { spot: Spot },
    /// A call bet, as its chips of the selected value (AR 20, FR 40).
    Call { bet: CallBet },
    /// Every stake doubled.
    Double,
}

/// The drawn outcome: the pocket the ball stops in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouletteDeal {
    pub pocket: u8,
}

/// A roulette round: the layout staked and the pocket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouletteRound {
    pub bet: RouletteBet,
    pub pocket: u8,
}

impl RouletteRound {
    /// Every spot with its stake and what it returns (AR 42).
    pub fn settlement(&self) -> Vec<(Spot, u64, u64)> {
        RouletteGame::settle(&self.bet.spots, self.pocket)
    }
}

/// A roulette table (its approved paytable).
pub struct Roulette(pub RouletteGame);

/// A limit broken, named in both languages.
pub fn refusal(game: &RouletteGame, e: &LimitError) -> Refusal {
    match e {
        LimitError::NotOnCloth(s) => {
            Refusal::new(format!("{} não é uma aposta desta mesa", s.name(true)), format!("{} is not a bet of this table", s.name(false)))
        }
        // FR 19: the table minimum; AR 21 c: the call bets' units.
        LimitError::UnderMinimum { spot, minimum } => Refusal::new(
            format!("{}: abaixo do mínimo da mesa de {minimum} créditos", spot.name(true)),
            format!("{}: under the table minimum of {minimum} credits", spot.name(false)),
        ),
        LimitError::OverMaximum { spot, maximum } => Refusal::new(
            format!("{}: acima do máximo de {maximum} créditos ({} × o mínimo por número, AR 21)", spot.name(true), game.ratio_per_number),
            format!("{}: over the maximum of {maximum} credits ({} × the minimum per number, AR 21)", spot.name(false), game.ratio_per_number),
        ),
        LimitError::OddHalfPay { spot } => Refusal::new(
            format!("{}: paga ½:1, a aposta tem de ser um número par de créditos", spot.name(true)),
            format!("{}: pays ½:1, so its stake must be an even number of credits", spot.name(false)),
        ),
        LimitError::NoCallBets => Refusal::new(
            "Esta mesa não aceita apostas anunciadas (só com numeração francesa, AR 20)",
            "This table takes no call bets (French numbering only, AR 20)",
        ),
        LimitError::SeriesOverMaximum { bet, units, maximum } => Refusal::new(
            format!("{}: {units} unidades do mínimo por ficha, o máximo é {maximum}", bet.name(true)),
            format!("{}: {units} table minimums a chip, the most is {maximum}", bet.name(false)),
        ),
        LimitError::NotACallBet(bet) => {
            Refusal::new(format!("{} não é uma aposta anunciada do texto", bet.name(true)), format!("{} is not a call bet of the text", bet.name(false)))
        }
    }
}

/// The pocket and its colour as the dealer announces it (AR 17, AR 52).
pub fn announce(pocket: u8, lang: Lang) -> String {
    let colour = match colour(pocket) {
        PocketColour::Red => lang.t("encarnado"),
        PocketColour::Black => lang.t("preto"),
        PocketColour::Zero => lang.t("zero"),
    };
    if colour == "zero" { pocket_name(pocket) } else { format!("{} {colour}", pocket_name(pocket)) }
}

impl GameKind for Roulette {
    const OPENING: &'static str = "roulette-spin";
    type Bet = RouletteBet;
    type Deal = RouletteDeal;
    type Decision = NoDecision;
    type Edit = RouletteEdit;
    type Step = NoDecision;
    type Round = RouletteRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("roleta")
    }

    /// No chip on the cloth; the smallest chip selected.
    fn opening_bet(&self) -> RouletteBet {
        RouletteBet::empty(self.0.chips.first().copied().unwrap_or(self.0.minimum))
    }

    fn single_bets(&self) -> Vec<Self::Bet> {
        let spots = game_core::roulette::Chance::ALL.into_iter().filter_map(|c| self.0.representative_spot(c));
        super::layout::single_bets(self.opening_bet().chip, self.0.minimum, spots, |b| self.check_bet(b).is_ok())
    }

    /// The amount buttons choose the chip value.
    fn adjust_bet(&self, bet: &RouletteBet, control: BetControl, delta: i32) -> RouletteBet {
        match control {
            BetControl::Amount => RouletteBet { chip: step(&self.0.chips, bet.chip, delta), spots: bet.spots.clone() },
            BetControl::Lines | BetControl::SideBet => bet.clone(),
        }
    }

    fn offers(&self, bet: &RouletteBet) -> bool {
        self.check_bet(bet).is_ok()
    }

    fn check_bet(&self, bet: &RouletteBet) -> Result<(), Refusal> {
        chip_offered(bet.chip, &self.0.chips)?;
        self.0.check(&bet.spots).map_err(|e| refusal(&self.0, &e))
    }

    fn edit_bet(&self, bet: &RouletteBet, edit: &RouletteEdit) -> Result<RouletteBet, Refusal> {
        let name = |s: &Spot, pt: bool| s.name(pt);
        let next = match edit {
            RouletteEdit::Place { spot } => bet.edited(&SpotEdit::Place { spot: spot.clone() }, name)?,
            RouletteEdit::Remove { spot } => bet.edited(&SpotEdit::Remove { spot: spot.clone() }, name)?,
            RouletteEdit::Double => bet.edited(&SpotEdit::Double, name)?,
            RouletteEdit::Call { bet: call } => {
                let mut next = bet.clone();
                for (spot, stake) in self.0.call_chips(*call, bet.chip).map_err(|e| refusal(&self.0, &e))? {
                    next.add(spot, stake);
                }
                next
            }
        };
        self.check_bet(&next)?;
        Ok(next)
    }

    fn cleared_bet(&self, bet: &RouletteBet) -> RouletteBet {
        RouletteBet::empty(bet.chip)
    }

    fn stake(&self, bet: &RouletteBet) -> u64 {
        RouletteGame::staked(&bet.spots)
    }

    /// B-16: each spot's stake at the RTP of its chance (a call bet is
    /// its chips, each on its spot).
    fn wagers(&self, bet: &RouletteBet) -> Vec<(String, u64)> {
        bet.spots
            .iter()
            .map(|(s, stake)| {
                let (pt, en) = s.chance().names();
                (format!("{pt} / {en}"), *stake)
            })
            .collect()
    }

    /// C-26: no decision adds a stake: the round stakes its bet.
    fn most_staked(&self, bet: &RouletteBet) -> u64 {
        self.stake(bet)
    }

    fn bet_text(&self, bet: &RouletteBet, lang: Lang) -> String {
        format!("{} {} — {} {}", lang.count(bet.spots.len() as u64, "aposta", "apostas"), lang.t("na mesa"), lang.t("ficha"), bet.chip)
    }

    /// Rien ne va plus: the layout is fixed; one pocket, uniformly.
    fn draw(&self, _bet: &RouletteBet, rng: &mut Draw<'_>) -> Result<RouletteDeal, String> {
        Ok(RouletteDeal { pocket: self.0.spin(rng) })
    }

    fn open(&self, bet: &RouletteBet, deal: &RouletteDeal) -> RouletteRound {
        RouletteRound { bet: bet.clone(), pocket: deal.pocket }
    }

    super::decided_by_the_draw!(RouletteRound);

    fn win(&self, round: &RouletteRound) -> u64 {
        round.settlement().iter().fold(0u64, |t, (_, _, r)| t.saturating_add(*r))
    }

    fn staked(&self, round: &RouletteRound) -> u64 {
        RouletteGame::staked(&round.bet.spots)
    }

    /// Each winning spot on its own line: its chance, stake and return
    /// (FR 25, FR 31).
    fn components(&self, round: &RouletteRound, denom: Cents) -> Vec<WinComponent> {
        round
            .settlement()
            .into_iter()
            .filter(|(_, _, r)| *r > 0)
            .map(|(spot, stake, r)| WinComponent { label: format!("{} ({stake} staked)", spot.name(false)), amount: r.saturating_mul(denom) })
            .collect()
    }

    fn hits(&self, _round: &RouletteRound, _trigger: &Trigger) -> bool {
        false
    }

    /// The pocket, each alike (AR 4).
    fn shown(&self, deal: &RouletteDeal) -> Vec<Shown> {
        vec![Shown::uniform("pocket", u64::from(deal.pocket), self.0.wheel.pockets())]
    }

    fn describe(&self, round: &RouletteRound, lang: Lang) -> String {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count();
        format!(
            "{} — {}, {}",
            announce(round.pocket, lang),
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won as u64, "ganhou", "ganharam")
        )
    }

    fn picture(&self, round: &RouletteRound, lang: Lang) -> RoundPicture {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count() as u64;
        let caption = format!("{}: {}", lang.count(round.bet.spots.len() as u64, "aposta", "apostas"), lang.count(won, "ganhou", "ganharam"));
        RoundPicture { scene: Scene::Pocket { name: pocket_name(round.pocket), colour: colour(round.pocket) }, caption }
    }
}
