//! Póquer sem descarte's help page.

use game_core::poker::Category;
use game_core::stud_poker::{StudPokerGame, TieRule};

use super::{Block, HelpContext, HelpDoc, bet_range, category_name};
use crate::catalogue::HostedGame;
use crate::kinds::stud_poker::StudPoker;

/// Póquer sem descarte: the seed rules, the raise's pays, the cap.
fn stud_help(s: &dyn HelpContext, g: &StudPokerGame) -> Vec<Block> {
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Aposte o ante e receba cinco cartas; o croupier recebe cinco, uma delas à vista. Escolha APOSTAR (uma segunda aposta de duas vezes o ante) ou DESISTIR (perde o ante). O croupier qualifica-se com ás e rei ou melhor; se não se qualificar, o ante é pago 1:1 e a aposta devolvida. Se se qualificar e a sua mão for melhor, o ante paga 1:1 e a aposta conforme a tabela; se for pior, perde as duas.").into()));
    b.push(Block::Text(
        match g.tie_rule {
            TieRule::SuitOrder => s.t("Mãos da mesma categoria e valor: decide o naipe (espadas, copas, paus, ouros)."),
            TieRule::Push => s.t("Mãos iguais: empate, as apostas são devolvidas."),
        }
        .into(),
    ));
    b.push(bet_range(s, g.antes.first().copied().unwrap_or(1), g.antes.last().copied().unwrap_or(1) * 3));
    b.push(Block::Heading(s.t("A aposta paga (por 1)").into()));
    let rows = g.raise_pays.iter().enumerate().rev().map(|(i, &pay)| vec![category_name(s.lang(), Category::ALL[i]).to_owned(), format!("{pay}:1")]).collect();
    b.push(Block::Table { header: vec![s.t("mão").into(), s.t("paga").into()], rows });
    if let Some(cap) = g.max_win_credits {
        b.push(Block::Text(format!("{} {cap} {}", s.t("Prémio máximo por jogada:"), s.t("créditos"))));
    }
    if let Some(j) = &g.jackpot {
        b.push(Block::Heading(s.t("Aposta no jackpot (tecla J)").into()));
        b.push(Block::Text(format!(
            "{} {} {}. {}",
            s.t("Com o ante, uma aposta fixa de"),
            j.bet_credits,
            s.t("créditos"),
            s.t("Paga pela mão do jogador, qualifique-se ou não o croupier: sequência real 100% do jackpot, sequência de cor 10% (ou as somas fixas, se maiores); poker, full e cor, somas fixas.")
        )));
        let rows = [
            (Category::RoyalFlush, j.royal_fixed),
            (Category::StraightFlush, j.straight_flush_fixed),
            (Category::FourOfAKind, j.four_of_a_kind),
            (Category::FullHouse, j.full_house),
            (Category::Flush, j.flush),
        ]
        .into_iter()
        .map(|(cat, pay)| vec![category_name(s.lang(), cat).to_owned(), format!("{pay} {}", s.t("créditos"))])
        .collect();
        b.push(Block::Table { header: vec![s.t("mão").into(), s.t("paga").into()], rows });
        if !j.pays_on_fold {
            b.push(Block::Text(s.t("Uma mão que desiste não ganha o jackpot.").into()));
        }
    }
    b
}

/// The help page of a póquer sem descarte game.
pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<StudPoker>()?;
    let mut blocks = stud_help(s, &g.0);
    blocks.extend(super::rtp_line(s, game));
    Some(HelpDoc { blocks, double_up: None })
}
