//! Fantan's help page (Macau 58/2004): the chances with their prizes, the
//! bank's 5 % (Art. 9) and each chance's return counted over the four
//! remainders, with the cent step a stake is taken in.

use game_core::fantan::Spot;

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::fantan::Fantan;
use crate::names::Lang;

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Fantan>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas no pano e prima JOGAR: um monte de contas é separado de quatro em quatro; o resto, de 1 a 4 (nenhuma conta restante conta como 4), decide as apostas. Fan ganha num número; nim ganha num e empata noutro; nga ganha em dois e empata num terceiro; sé-sam-hong ganha em três; kuoc ganha em dois vizinhos. Num empate a aposta é devolvida. A banca retém 5% de cada prémio.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum));
    let rows = [Spot::Fan(1), Spot::Nim(1, 2), Spot::Nga(1, 2, 3), Spot::SeSamHong(1, 2, 3), Spot::Kuoc(1, 2)]
        .into_iter()
        .map(|spot| {
            let (p, q) = spot.prize();
            let prize = if q == 1 { format!("{p}:1") } else { format!("{p}:{q}") };
            // What a stake of one cent step gets back over the four
            // remainders, as a share of four stakes.
            let step = spot.cent_step();
            let back: u64 = (1..=4).filter_map(|r| spot.returned_cents(step, r)).sum();
            let least = spot.least_stake_cents(s.denom());
            vec![spot.name(pt), prize, format!("{:.2}%", back as f64 * 100.0 / (4 * step) as f64), s.currency().format(least)]
        })
        .collect();
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("retorno").into(), s.t("aposta em múltiplos de").into()], rows });
    b.push(Block::Text(
        s.t("Os prémios são pagos menos os 5% da banca; cada aposta faz-se em múltiplos do valor indicado, para que os 5% sejam cêntimos inteiros.").into(),
    ));
    Some(HelpDoc { blocks: b, double_up: None })
}
