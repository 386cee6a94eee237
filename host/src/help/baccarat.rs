//! Baccarat's help page, and what each spot pays as the table writes it.

use std::collections::BTreeMap;
use std::sync::Mutex;

use game_core::baccarat::odds::{Outcomes, Shoe as OddsShoe, outcomes};
use game_core::baccarat::{BaccaratGame, Commission, Payouts, Spot};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::baccarat::Baccarat;
use crate::names::Lang;
use game_core::ratio::gcd;

/// What a spot pays, written as the player's language writes numbers.
pub fn pays(spot: Spot, table: Payouts, lang: Lang) -> &'static str {
    match (spot, table.commission) {
        (Spot::Player, _) => "1:1",
        (Spot::Banker, Commission::FivePercent) => lang.t("0,95:1"),
        (Spot::Banker, Commission::HalfOnFive) => lang.t("1:1 (com 5: 0,5:1)"),
        (Spot::Banker, Commission::HalfOnSix) => lang.t("1:1 (com 6: 0,5:1)"),
        (Spot::Banker, Commission::EzThreeCardSeven) => lang.t("1:1 (7 com três cartas: empata)"),
        (Spot::Tie, _) if table.tie_pays == 9 => "9:1",
        (Spot::Tie, _) => "8:1",
        (Spot::PlayerPair | Spot::BankerPair, _) => "11:1",
        (Spot::EitherPair, _) => "5:1",
        (Spot::PerfectPair, _) => "25:1 / 200:1",
        (Spot::Dragon7, _) => "40:1",
        (Spot::Panda8, _) => "25:1",
    }
}

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g: &BaccaratGame = &game.rules::<Baccarat>()?.0;
    let pt = s.lang() == Lang::Pt;
    let figures = returns(g);
    let mut b = vec![Block::Heading(s.t("Regras (ponto e banca)").into())];
    b.push(Block::Text(
        s.t("Coloque fichas e prima JOGAR. Dão-se duas cartas a cada mão, alternadamente, começando pelo ponto; o ás vale 1, o 10 e as figuras 0, as outras o seu número; conta o algarismo das unidades. Com 8 ou 9 (natural) ninguém tira. O ponto tira uma carta com 0 a 5; a banca tira pela tabela de Macau. Ganha o total mais alto. No empate, as apostas no ponto e na banca são devolvidas. O baralho é novo em cada jogada.")
        .into(),
    ));
    b.push(Block::Text(
        s.t(match g.commission {
            Commission::FivePercent => "A banca paga 0,95 para 1 (comissão de 5%); por isso a aposta na banca faz-se em múltiplos de 20 cêntimos, para a comissão ser em cêntimos inteiros.",
            Commission::HalfOnFive => "A banca paga 1 para 1, e metade quando ganha com 5.",
            Commission::HalfOnSix => "Sem comissão: a banca paga 1 para 1, e metade quando ganha com 6.",
            Commission::EzThreeCardSeven => "Sem comissão (EZ): a banca paga 1 para 1; quando ganha com um 7 de três cartas, a aposta na banca é devolvida.",
        })
        .into(),
    ));
    if g.tie_pays == 9 {
        b.push(Block::Text(s.t("O empate paga 9 para 1.").into()));
    }
    for side in &g.side_bets {
        b.push(Block::Text(
            s.t(match side {
                Spot::EitherPair => "Qualquer par paga 5 para 1 quando as duas primeiras cartas do ponto ou da banca são um par.",
                Spot::PerfectPair => "Par perfeito paga 25 para 1 quando as duas primeiras cartas de uma mão são a mesma carta (valor e naipe), e 200 para 1 quando as das duas mãos o são.",
                Spot::Dragon7 => "Dragão 7 paga 40 para 1 quando a banca ganha com um 7 de três cartas.",
                _ => "Panda 8 paga 25 para 1 quando o ponto ganha com um 8 de três cartas.",
            })
            .into(),
        ));
    }
    b.push(bet_range(s, g.minimum, g.maximum(Spot::Player)));
    let rows = g
        .spots()
        .into_iter()
        .zip(&figures)
        .map(|(spot, rtp)| {
            let step = spot.cent_step(g.commission);
            vec![
                spot.name(pt).to_owned(),
                pays(spot, g.payouts(), s.lang()).to_owned(),
                limits(g.minimum, g.maximum(spot), step, s.denom(), s.lang()),
                rtp.clone(),
            ]
        })
        .collect();
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("limites (créd.)").into(), s.t("retorno").into()], rows });
    Some(HelpDoc { blocks: b, double_up: None })
}

/// A spot's limits in credits at `denom`. A spot whose return needs its
/// stake in whole steps of `step` cents (the banker's 5 % commission: 20
/// cents, `Spot::cent_step`) takes only the multiples of the credits that
/// make one (issue 77: "1 – 70" at 1 cent, where the banker takes 20, 40
/// and 60); a spot no stake within its limits can be at `denom` says so.
fn limits(min: u64, max: u64, step: u64, denom: u64, lang: Lang) -> String {
    let k = step / gcd(step.max(1), denom.max(1));
    if k <= 1 {
        return format!("{min} – {max}");
    }
    let (lo, hi) = (min.div_ceil(k).saturating_mul(k), max / k * k);
    match (lo <= hi, lang) {
        (false, Lang::Pt) => "não nesta denominação".to_owned(),
        (false, Lang::En) => "not at this denomination".to_owned(),
        (true, Lang::Pt) => format!("{lo} – {hi}, de {k} em {k}"),
        (true, Lang::En) => format!("{lo} – {hi}, in steps of {k}"),
    }
}

/// Each offered spot's return, exact from the shoe's enumeration
/// (`game_core::baccarat::odds`, the compiler's own), worked out once per
/// shoe size; shown to two decimals.
fn returns(g: &BaccaratGame) -> Vec<String> {
    static SHOES: Mutex<BTreeMap<u8, Outcomes>> = Mutex::new(BTreeMap::new());
    let Ok(mut shoes) = SHOES.lock() else { return Vec::new() };
    let o = shoes.entry(g.decks).or_insert_with(|| outcomes(&OddsShoe::decks(g.decks)));
    g.spots()
        .into_iter()
        .map(|spot| {
            let (n, d) = o.rtp(spot, g.payouts());
            format!("{:.2}%", n as f64 * 100.0 / d.max(1) as f64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The banker at 5 % commission needs 20-cent steps: at 1 cent a
    /// credit its 1 – 70 are the multiples of 20 within them; at 5 cents
    /// of 4; at 20 cents every credit; without room for one step, none.
    #[test]
    fn a_spot_in_cent_steps_shows_the_stakes_it_takes_at_the_denomination() {
        assert_eq!(limits(1, 70, 20, 1, Lang::Pt), "20 – 60, de 20 em 20");
        assert_eq!(limits(1, 70, 20, 1, Lang::En), "20 – 60, in steps of 20");
        assert_eq!(limits(1, 70, 20, 5, Lang::En), "4 – 68, in steps of 4");
        assert_eq!(limits(1, 70, 20, 25, Lang::En), "4 – 68, in steps of 4", "gcd(20, 25) = 5");
        assert_eq!(limits(1, 70, 20, 20, Lang::En), "1 – 70");
        assert_eq!(limits(1, 70, 2, 1, Lang::En), "2 – 70, in steps of 2");
        assert_eq!(limits(1, 70, 1, 1, Lang::En), "1 – 70");
        assert_eq!(limits(1, 10, 20, 1, Lang::En), "not at this denomination");
    }
}
