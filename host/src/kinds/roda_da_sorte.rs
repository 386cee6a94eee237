//! The wheel of fortune (roda da sorte, RS-1…10) on the host: the bet is a
//! layout of chips on the seven kinds of section (1, 3, 5, 10, 20, the sun
//! and the moon), each within the table's minimum and maximum; one stop of
//! the wheel among its 52 sections, committed with the stake before the
//! wheel turns, pays the sections of its kind at their odds with the stake
//! returned (RS-5, RS-6).

use game_core::progressive::Trigger;
use game_core::roda_da_sorte::{RodaDaSorteGame, Section, WHEEL, spin};
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::NoDecision;
use super::layout::{ChipLayout, SpotEdit};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type RodaBet = ChipLayout<Section>;

/// Where the wheel stopped: the index of the section under the pointer,
/// 0–51 in the order of [`WHEEL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stop {
    pub section: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RodaRound {
    pub bet: RodaBet,
    /// The index of the section under the pointer.
    pub stop: usize,
}

impl RodaRound {
    /// The kind of section the wheel stopped at.
    pub fn section(&self) -> Section {
        WHEEL[self.stop % WHEEL.len()]
    }

    /// Each bet with its stake and what it returns, in credits.
    pub fn settlement(&self) -> Vec<(Section, u64, u64)> {
        let stopped = self.section();
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, s.returned(stake, stopped))).collect()
    }
}

/// A section as the wheel shows it: its odds, the sun or the moon.
pub fn section_name(section: Section, lang: Lang) -> String {
    match section {
        Section::Sun => lang.t("SOL").to_owned(),
        Section::Moon => lang.t("LUA").to_owned(),
        other => other.name(true),
    }
}

/// A section's colour on the wheel (sRGB), one per kind (RS-3 names them by
/// their odds; the colours are decided in `docs/roda-da-sorte.md`).
pub fn section_colour(section: Section) -> [u8; 3] {
    match section {
        Section::One => [200, 170, 40],
        Section::Three => [30, 110, 190],
        Section::Five => [150, 40, 160],
        Section::Ten => [30, 140, 70],
        Section::Twenty => [200, 90, 20],
        Section::Sun => [220, 40, 40],
        Section::Moon => [40, 40, 60],
    }
}

pub struct RodaDaSorte(pub RodaDaSorteGame);

impl GameKind for RodaDaSorte {
    const OPENING: &'static str = "roda-da-sorte-spin";
    type Bet = RodaBet;
    type Deal = Stop;
    type Decision = NoDecision;
    type Edit = SpotEdit<Section>;
    type Step = NoDecision;
    type Round = RodaRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("roda da sorte")
    }

    // Every kind of section is a bet of the table (RS-4).
    super::layout::one_limit_layout!(on_cloth: |s: Section| Section::ALL.contains(&s), name: Section::name, spots: Section::ALL);

    fn draw(&self, _bet: &RodaBet, rng: &mut Draw<'_>) -> Result<Stop, String> {
        Ok(Stop { section: spin(rng) })
    }

    fn open(&self, bet: &RodaBet, deal: &Stop) -> RodaRound {
        RodaRound { bet: bet.clone(), stop: deal.section }
    }

    super::decided_by_the_draw!(RodaRound);

    super::layout::settled_by_spots!(RodaRound);

    /// The section, each of the 52 alike (RS-7).
    fn shown(&self, deal: &Stop) -> Vec<Shown> {
        vec![Shown::uniform("section", deal.section as u64, 52)]
    }

    fn describe(&self, round: &RodaRound, lang: Lang) -> String {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count();
        format!(
            "{} — {}, {}",
            section_name(round.section(), lang),
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won as u64, "ganhou", "ganharam")
        )
    }

    fn picture(&self, round: &RodaRound, lang: Lang) -> RoundPicture {
        let won = round.settlement().iter().filter(|(_, _, r)| *r > 0).count() as u64;
        let caption = format!("{}: {}", lang.count(round.bet.spots.len() as u64, "aposta", "apostas"), lang.count(won, "ganhou", "ganharam"));
        RoundPicture { scene: Scene::Section { name: section_name(round.section(), lang), fill: section_colour(round.section()) }, caption }
    }
}
