//! Craps's help page (seed 000 L936–1194): a round is one series of rolls
//! until every bet is decided; each spot with what it pays and its exact
//! return (game-core's integers: the host links no compiler), the bar of
//! don't pass, and what the cabinet does not offer (docs/craps.md).

use game_core::dice::craps::{Bar, FIGURES_OVER, Spot, figures};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::craps::Craps;
use crate::names::Lang;

/// A spot of the cloth: its name and what it pays (the text names the
/// chances in English; the cloth does too).
pub fn craps_label(spot: Spot, bar: Bar) -> String {
    let pays = spot.pays();
    match spot {
        Spot::PassLine => format!("PASS LINE\n{pays}"),
        Spot::DontPass => format!("DON'T PASS\nBAR {}  {pays}", bar.total()),
        Spot::Field => "FIELD  1:1\n2 3 4 9 10 11 12\n2, 12  2:1".into(),
        Spot::Big(n) => format!("BIG {n}\n{pays}"),
        Spot::UnderSeven => format!("UNDER 7\n2-6  {pays}"),
        Spot::OverSeven => format!("OVER 7\n8-12  {pays}"),
        Spot::AnySeven => format!("7\n{pays}"),
        Spot::AnyCraps => format!("CRAPS\n2 3 12  {pays}"),
        Spot::Hard(n) => format!("HARD {n}\n{}-{}  {pays}", n / 2, n / 2),
        Spot::Total(n) => format!("{n}\n{pays}"),
    }
}

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Craps>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas no pano e prima JOGAR: dois dados são lançados até todas as apostas estarem decididas, e cada lançamento é mostrado. Pass line ganha com 7 ou 11 no primeiro lançamento e perde com 2, 3 ou 12; outro total é o ponto, e ganha se o ponto sair de novo antes do 7. Don't pass é o contrário, e o total barrado empata. Big 6 e big 8 ganham se o número sair antes do 7; um hardway ganha com o par antes do 7 ou do mesmo total de outra forma. As outras apostas decidem-se no primeiro lançamento. A aposta ganha é devolvida com o prémio.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum));
    let rows = Spot::all()
        .into_iter()
        .filter(|&spot| g.0.offers(spot))
        .map(|spot| {
            let (back, _) = figures(spot, g.0.bar);
            vec![spot.name(pt), spot.pays().into(), format!("{:.2}%", back as f64 * 100.0 / FIGURES_OVER as f64)]
        })
        .collect();
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("retorno").into()], rows });
    b.push(Block::Text(format!("{} {}.", s.t("Don't pass: o total barrado é"), g.0.bar.total())));
    b.push(Block::Text(s.t("Nesta máquina não há apostas come, don't come, odds, place nem lay.").into()));
    Some(HelpDoc { blocks: b, double_up: None })
}
