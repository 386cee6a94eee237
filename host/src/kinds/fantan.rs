//! Fantan (Macau 58/2004) on the host: the bet is a layout of chips on the
//! table's 38 chances (fan, nim, nga, sé-sam-hong, kuoc; decisions in
//! `docs/fantan.md`), each within the table's minimum and maximum; one
//! count of the heap, committed with the stake before the beads are
//! counted off, gives the remainder 1–4 (Art. 3.2) that settles every
//! chance, the bank keeping 5 % of each prize (Art. 9).
//!
//! Money: a prize less its 5 % is a fraction of a credit. Nothing is
//! rounded: each chance is taken only in whole steps of
//! [`Spot::cent_step`] cents, so every return is a whole number of cents,
//! and the win is settled in cents ([`GameKind::win_cents`]), as baccarat's
//! banca.

use game_core::fantan::{FantanGame, Spot, count};
use game_core::progressive::Trigger;
use meters::{Cents, Draw, WinComponent};
use serde::{Deserialize, Serialize};

use super::NoDecision;
use super::layout::{ChipLayout, SpotEdit};
use crate::kind::{BetControl, Decided, GameKind, Refusal, Shown};
use crate::names::Lang;
use crate::picture::{RoundPicture, Scene};

pub type FantanBet = ChipLayout<Spot>;

/// The remainder of the heap counted off by fours (1–4; none left counts
/// as 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heap {
    pub remainder: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FantanRound {
    pub bet: FantanBet,
    pub remainder: u8,
}

impl FantanRound {
    /// Each chance with its stake and what it returns in cents at `denom`
    /// (None: not whole cents, which `check_stake` never lets through).
    pub fn settlement(&self, denom: Cents) -> Vec<(Spot, u64, Option<Cents>)> {
        self.bet.spots.iter().map(|&(s, stake)| (s, stake, stake.checked_mul(denom).and_then(|c| s.returned_cents(c, self.remainder)))).collect()
    }
}

/// The remainder's colour in the history (sRGB): the four corners of the
/// table in the colours `docs/fantan.md` gives them.
pub fn remainder_colour(remainder: u8) -> [u8; 3] {
    match remainder {
        1 => [184, 16, 36],
        2 => [30, 110, 190],
        3 => [30, 140, 70],
        _ => [200, 150, 30],
    }
}

pub struct Fantan(pub FantanGame);

impl GameKind for Fantan {
    const OPENING: &'static str = "fantan-count";
    type Bet = FantanBet;
    type Deal = Heap;
    type Decision = NoDecision;
    type Edit = SpotEdit<Spot>;
    type Step = NoDecision;
    type Round = FantanRound;

    fn id(&self) -> &str {
        &self.0.id
    }

    fn name(&self) -> &str {
        &self.0.name
    }

    fn family(&self, lang: Lang) -> &'static str {
        lang.t("fantan")
    }

    super::layout::one_limit_layout!(on_cloth: Spot::on_cloth, name: Spot::name, spots: Spot::all());

    /// Art. 9: each chance in whole steps of its cent step, so that the
    /// prize less the bank's 5 % is whole cents (decisions.md, Money).
    fn check_stake(&self, bet: &FantanBet, denom: Cents) -> Result<(), Refusal> {
        for &(s, stake) in &bet.spots {
            let step = s.cent_step();
            if stake.checked_mul(denom).is_none_or(|c| !c.is_multiple_of(step)) {
                return Err(Refusal::new(
                    format!("{}: a aposta tem de ser múltipla de {step} cêntimos, para os 5% da banca serem cêntimos inteiros", s.name(true)),
                    format!("{}: the stake must be a multiple of {step} cents, so that the bank's 5% is whole cents", s.name(false)),
                ));
            }
        }
        Ok(())
    }

    fn draw(&self, _bet: &FantanBet, rng: &mut Draw<'_>) -> Result<Heap, String> {
        Ok(Heap { remainder: count(rng) })
    }

    fn open(&self, bet: &FantanBet, deal: &Heap) -> FantanRound {
        FantanRound { bet: bet.clone(), remainder: deal.remainder }
    }

    super::decided_by_the_draw!(FantanRound);

    /// The whole credits of the win, for the screen; the core settles
    /// [`Fantan::win_cents`].
    fn win(&self, round: &FantanRound) -> u64 {
        round
            .bet
            .spots
            .iter()
            .map(|&(s, stake)| {
                let (n, d) = s.returns(round.remainder);
                stake.saturating_mul(n) / d
            })
            .fold(0u64, u64::saturating_add)
    }

    fn win_cents(&self, round: &FantanRound, denom: Cents) -> Option<Cents> {
        round.settlement(denom).into_iter().try_fold(0u64, |t, (_, _, r)| t.checked_add(r?))
    }

    fn components(&self, round: &FantanRound, denom: Cents) -> Vec<WinComponent> {
        round
            .settlement(denom)
            .into_iter()
            .filter_map(|(s, stake, r)| r.filter(|&c| c > 0).map(|c| WinComponent { label: format!("{} ({stake} staked)", s.name(false)), amount: c }))
            .collect()
    }

    fn hits(&self, _round: &FantanRound, _trigger: &Trigger) -> bool {
        false
    }

    /// The remainder, 1–4 each alike.
    fn shown(&self, deal: &Heap) -> Vec<Shown> {
        vec![Shown::uniform("remainder", u64::from(deal.remainder.saturating_sub(1)), 4)]
    }

    fn describe(&self, round: &FantanRound, lang: Lang) -> String {
        let won = round.bet.spots.iter().filter(|(s, _)| s.wins(round.remainder)).count();
        format!(
            "{} {} — {}, {}",
            lang.t("resto"),
            round.remainder,
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won as u64, "ganhou", "ganharam")
        )
    }

    fn picture(&self, round: &FantanRound, lang: Lang) -> RoundPicture {
        let won = round.bet.spots.iter().filter(|(s, _)| s.wins(round.remainder)).count() as u64;
        let caption = format!(
            "{} {} — {}: {}",
            lang.t("resto"),
            round.remainder,
            lang.count(round.bet.spots.len() as u64, "aposta", "apostas"),
            lang.count(won, "ganhou", "ganharam")
        );
        RoundPicture { scene: Scene::Section { name: round.remainder.to_string(), fill: remainder_colour(round.remainder) }, caption }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn game() -> Fantan {
        Fantan(FantanGame { id: "fantan".into(), name: "Fantan".into(), minimum: 1, maximum: 500, chips: vec![1, 5, 20, 60] })
    }

    /// Art. 6–9 read again: what a stake of `cents` on each chance returns
    /// for each remainder, the prize less the bank's 5 % (a win of p:q
    /// returns the stake and p/q of it less 5 %), a tie the stake.
    fn returned(spot: Spot, cents: u64, r: u8) -> u64 {
        let win = |p: u64, q: u64| cents + cents * p * 95 / (q * 100);
        match spot {
            Spot::Fan(n) if n == r => win(3, 1),
            Spot::Nim(w, _) if w == r => win(2, 1),
            Spot::Nim(_, t) if t == r => cents,
            Spot::Nga(a, b, _) if a == r || b == r => win(1, 2),
            Spot::Nga(_, _, t) if t == r => cents,
            Spot::SeSamHong(a, b, c) if a == r || b == r || c == r => win(1, 3),
            Spot::Kuoc(a, b) if a == r || b == r => win(1, 1),
            _ => 0,
        }
    }

    #[test]
    fn every_chance_settles_in_whole_cents_less_the_banks_five_percent() {
        let g = game();
        // 120 credits of a cent: a whole number of every chance's step
        // (20, 10, 40, 60 and 20 cents).
        for spot in Spot::all() {
            let bet = FantanBet { chip: 1, spots: vec![(spot, 120)] };
            assert_eq!(g.check_stake(&bet, 1), Ok(()), "{spot:?}");
            for r in 1..=4 {
                let round = g.open(&bet, &Heap { remainder: r });
                let want = returned(spot, 120, r);
                assert_eq!(g.win_cents(&round, 1), Some(want), "{spot:?} on {r}");
                assert_eq!(g.win(&round), want, "at a cent a credit the whole credits are the cents");
            }
        }
        // 60 on fan 2 when 2 comes: 60 + 180 less 9 = 231 cents.
        let bet = FantanBet { chip: 60, spots: vec![(Spot::Fan(2), 60)] };
        assert_eq!(g.win_cents(&g.open(&bet, &Heap { remainder: 2 }), 1), Some(231));
    }

    #[test]
    fn a_stake_off_its_chances_cent_step_is_refused_by_name() {
        let g = game();
        // Fan's step is 20 cents: 5 credits of 1 cent is refused, of 4
        // cents (20) taken.
        let bet = FantanBet { chip: 5, spots: vec![(Spot::Fan(1), 5)] };
        let refused = g.check_stake(&bet, 1).unwrap_err();
        assert!(refused.en.starts_with("fan 1: the stake must be a multiple of 20 cents"), "{}", refused.en);
        assert_eq!(g.check_stake(&bet, 4), Ok(()));
        // Sé-sam-hong's is 60.
        let bet = FantanBet { chip: 20, spots: vec![(Spot::SeSamHong(1, 2, 3), 20)] };
        assert!(g.check_stake(&bet, 1).unwrap_err().pt.contains("múltipla de 60 cêntimos"));
        // A chance not on the table, by name.
        let bet = FantanBet { chip: 1, spots: vec![(Spot::Kuoc(3, 1), 1)] };
        assert_eq!(g.check_bet(&bet).unwrap_err().en, "kuoc 3-1 is not a bet of this table");
    }
}
