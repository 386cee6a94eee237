//! Póquer de 3 cartas's help page (seed 000, P3-4…10, 29): how a hand
//! counts, the 31 combinations with how often each is dealt, who wins, the
//! house's 5 % and the return counted over every pair of hands.

use game_core::poquer_3_cartas::{self as p3, combination_name};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::poquer_3_cartas::Poquer3Cartas;
use crate::names::Lang;

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Poquer3Cartas>()?;
    let pt = s.lang() == Lang::Pt;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Escolha a aposta e prima JOGAR: recebe três cartas e a banca outras três, do mesmo baralho baralhado para cada jogada. As figuras e os dez valem 0, o ás 1 e as outras cartas o seu valor; a pontuação é o último algarismo da soma. Três figuras é a melhor combinação; depois 9 com duas figuras, com uma, sem figura, e assim até 0 sem figura. Combinações iguais: ganha a carta mais alta (rei, dama, valete, 10 … 2, ás; espadas, copas, paus, ouros). Se as duas mãos forem 0 sem figura, ganha a banca.").into()));
    let antes = &g.0.antes;
    b.push(bet_range(s, antes.first().copied().unwrap_or(0), antes.last().copied().unwrap_or(0)));
    let dealt = p3::hands_of_each_combination();
    let rows =
        (1..=31u8).map(|n| vec![n.to_string(), combination_name(n, pt), format!("{:.2}%", f64::from(dealt[usize::from(n)]) * 100.0 / 22_100.0)]).collect();
    b.push(Block::Table { header: vec!["#".into(), s.t("combinação").into(), s.t("probabilidade").into()], rows });
    let (wins, pairs) = p3::player_wins_of_every_pair();
    b.push(Block::Text(format!(
        "{} {:.2}%; {} {:.2}%.",
        s.t("Uma aposta ganha paga 1 para 1, menos 5% de comissão da casa. Ganha"),
        wins as f64 * 100.0 / pairs as f64,
        s.t("das jogadas; retorno"),
        wins as f64 * 195.0 / pairs as f64
    )));
    Some(HelpDoc { blocks: b, double_up: None })
}
