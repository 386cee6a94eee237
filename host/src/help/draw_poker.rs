//! Draw poker's help page.

use game_core::draw_poker::{DrawPokerGame, Wild};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::draw_poker::DrawPoker;
use crate::names::Lang;

/// Draw poker: rules, the bet in coins, every hand and its pay per coin.
fn draw_poker_help(s: &dyn HelpContext, g: &DrawPokerGame) -> Vec<Block> {
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Recebe cinco cartas de um baralho baralhado; toque nas que guarda e prima JOGAR: as outras são substituídas pelas cartas seguintes do mesmo baralho. A mão final paga só o prémio mais alto que faz.").into()));
    match g.wild {
        Wild::None => {}
        Wild::Deuces => b.push(Block::Text(s.t("Os quatro 2 são wild: substituem qualquer carta.").into())),
        Wild::Joker => b.push(Block::Text(s.t("Baralho de 53 cartas: o joker é wild e substitui qualquer carta.").into())),
    }
    if g.hands.len() > 1 {
        let hands: Vec<String> = g.hands.iter().map(u32::to_string).collect();
        b.push(Block::Text(format!(
            "{} {} {}",
            s.t("Jogo de várias mãos (setas cima/baixo):"),
            hands.join(", "),
            s.t("mãos. Todas partem das mesmas cinco cartas e guardam as mesmas; cada mão troca as outras de um baralho seu, sem as cinco dadas. A aposta é moedas × mãos, e cada mão paga o seu prémio.")
        )));
    }
    b.push(bet_range(s, u64::from(g.coins.first().copied().unwrap_or(1)), u64::from(g.max_coins())));
    b.push(Block::Heading(s.t("Prémios (créditos por moeda apostada)").into()));
    let header = std::iter::once(s.t("mão").to_owned()).chain(g.coins.iter().map(|c| format!("{c} {}", s.t("moeda(s)")))).collect();
    let rows = g
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            std::iter::once(e.name_in(s.lang() == Lang::Pt).to_owned())
                .chain(g.coins.iter().map(|&c| (g.pays_per_coin(i, c) * u64::from(c)).to_string()))
                .collect()
        })
        .collect();
    b.push(Block::Table { header, rows });
    b
}

/// The help page of a draw-poker game.
pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<DrawPoker>()?;
    let mut blocks = draw_poker_help(s, &g.0);
    // M-40: the RTP its approved paytable proves, under optimal play.
    blocks.extend(super::rtp_line(s, game));
    Some(HelpDoc { blocks, double_up: g.0.double_up })
}
