//! The wheels' help pages: boule (BO-1…15) and the wheel of fortune
//! (RS-1…10). Each chance's return is counted here over the wheel's own
//! compartments or sections, never typed in.

use game_core::boule::{Spot, WHEEL as BOULE_WHEEL};
use game_core::roda_da_sorte::{Section, WHEEL as RODA_WHEEL};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::boule::Boule;
use crate::kinds::roda_da_sorte::{RodaDaSorte, section_name};
use crate::names::Lang;

/// A return as a percentage of the stake, from what one credit on the
/// chance gets back over `places` equally likely places.
fn percent(back: u64, places: usize) -> String {
    format!("{:.2}%", back as f64 * 100.0 / places as f64)
}

pub(crate) fn boule_page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Boule>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas no pano e prima JOGAR: a bola pára num dos 25 compartimentos da roda, os números de 1 a 24 e a estrela. Cada aposta paga como diz a tabela, a aposta devolvida. Quando sai a estrela, só ganha quem apostou na estrela: todas as outras apostas perdem.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum));
    let rows =
        [Spot::Star, Spot::Number(1), Spot::Two(1, 2), Spot::Row(1), Spot::Four(1), Spot::SixNumbers(1), Spot::Column(1), Spot::Red, Spot::Odd, Spot::Low]
            .into_iter()
            .map(|spot| {
                let back: u64 = BOULE_WHEEL.iter().map(|&c| spot.returned(1, c)).sum();
                vec![spot.name(pt), format!("{}:1", spot.pays()), percent(back, BOULE_WHEEL.len())]
            })
            .collect();
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("retorno").into()], rows });
    b.push(Block::Text(s.t("Dois números lado a lado ou um sobre o outro, três numa linha, quatro num quadrado, seis em duas linhas, oito numa coluna. Vermelho e preto, par e ímpar, pequeno (1 a 12) e grande (13 a 24) pagam 1 para 1.").into()));
    Some(HelpDoc { blocks: b, double_up: None })
}

pub(crate) fn roda_page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<RodaDaSorte>()?;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Coloque fichas nas secções que quiser e prima JOGAR: a roda dá pelo menos três voltas e pára com uma das suas 52 secções sob o ponteiro. Cada aposta na secção que sai paga como diz a tabela, a aposta devolvida; as outras perdem.").into()));
    b.push(bet_range(s, g.0.minimum, g.0.maximum));
    let rows = Section::ALL
        .into_iter()
        .map(|section| {
            let back: u64 = RODA_WHEEL.iter().map(|&w| section.returned(1, w)).sum();
            vec![section_name(section, s.lang()), section.sections().to_string(), format!("{}:1", section.pays()), percent(back, RODA_WHEEL.len())]
        })
        .collect();
    b.push(Block::Table { header: vec![s.t("secção").into(), s.t("secções na roda").into(), s.t("paga").into(), s.t("retorno").into()], rows });
    Some(HelpDoc { blocks: b, double_up: None })
}
