//! Boule on the host (BO-1…15): the bet is a layout of chips on the cloth's
//! chances (decisions in `docs/boule.md`), each within the table's minimum
//! and maximum (BO-12); one spin of the ball into one of the wheel's 25
//! compartments, committed with the stake before the wheel turns, settles
//! every chance at its payout; when the star wins, every other chance
//! loses (BO-9).

use game_core::boule::{BouleGame, STAR, Spot, red, spin};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::NoDecision;
use super::layout::{ChipLayout, SpotEdit};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type BouleBet = ChipLayout<Spot>;

/// The compartment the ball came to rest in (0 the star, 1–24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ball {
    pub compartment: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BouleRound {
    pub bet: BouleBet,
    pub compartment: u8,
}

impl BouleRound {
    /// Each chance with its stake and what it returns, in credits.
    pub fn settlement(&self) -> Vec<(Spot, u64, u64)> {
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, s.returned(stake, self.compartment))).collect()
    }
}

/// A compartment as the wheel marks it: the star (★), or its number.
pub fn compartment_name(compartment: u8) -> String {
    if compartment == STAR { "★".to_owned() } else { compartment.to_string() }
}

/// A compartment's colour on the wheel (sRGB): the star blue (decided in
/// `docs/boule.md`), the numbers red or black (BO-3).
pub fn compartment_colour(compartment: u8) -> [u8; 3] {
    if compartment == STAR {
        [20, 60, 170]
    } else if red(compartment) {
        [184, 16, 36]
    } else {
        [26, 26, 26]
    }
}

pub struct Boule(pub BouleGame);

impl GameKind for Boule {
    const OPENING: &'static str = "boule-spin";
    type Bet = BouleBet;
    type Deal = Ball;
    type Decision = NoDecision;
    type Edit = SpotEdit<Spot>;
    type Step = NoDecision;
    type Round = BouleRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("boule")
    }

    super::layout::one_limit_layout!(on_cloth: Spot::on_cloth, name: Spot::name, spots: Spot::all());

    fn draw(&self, _bet: &BouleBet, rng: &mut Draw<'_>) -> Result<Ball, String> {
        Ok(Ball { compartment: spin(rng) })
    }

    fn open(&self, bet: &BouleBet, deal: &Ball) -> BouleRound {
        BouleRound { bet: bet.clone(), compartment: deal.compartment }
    }

    super::decided_by_the_draw!(BouleRound);

    super::layout::settled_by_spots!(BouleRound);

    /// The compartment, each of the 25 alike (BO-2).
    fn shown(&self, deal: &Ball) -> Vec<Shown> {
        vec![Shown::uniform("compartment", u64::from(deal.compartment), 25)]
    }

    fn describe(&self, round: &BouleRound, lang: Lang) -> String {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count();
        format!(
            "{} — {}, {}",
            compartment_name(round.compartment),
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won as u64, "ganhou", "ganharam")
        )
    }

    fn picture(&self, round: &BouleRound, lang: Lang) -> RoundPicture {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count() as u64;
        let caption = format!("{}: {}", lang.count(round.bet.spots.len() as u64, "aposta", "apostas"), lang.count(won, "ganhou", "ganharam"));
        RoundPicture { scene: Scene::Section { name: compartment_name(round.compartment), fill: compartment_colour(round.compartment) }, caption }
    }
}
