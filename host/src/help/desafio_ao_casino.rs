//! Desafio ao casino's help page (seed 000, DC-1…14): the deal from the
//! shoe, who wins, war or surrender on equal cards with what each ending
//! pays, the tie bet, and the returns the compiler proved for this shoe
//! (removal included; docs/desafio-ao-casino.md), from game-core's
//! integers: the host links no compiler.

use game_core::desafio_ao_casino::{ante_return, tie_odds};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::desafio_ao_casino::DesafioAoCasino;

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<DesafioAoCasino>()?;
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    b.push(Block::Text(s.t("Escolha o ante e prima JOGAR: o jogador e a banca recebem uma carta cada, de um sapato baralhado para cada jogada. Ganha a carta mais alta (o ás é a mais alta; os naipes não contam) e o ante paga 1:1. Com cartas iguais, escolha GUERRA (uma segunda aposta igual ao ante) ou DESISTIR (recebe metade do ante). Na guerra queimam-se três cartas antes da carta de cada lado: a carta do jogador mais alta ganha a segunda aposta 1:1 e devolve o ante; cartas iguais ganham a segunda aposta e um bónus igual ao ante; mais baixa, perde as duas.").into()));
    b.push(Block::Text(format!("{} {}.", s.t("Baralhos no sapato:"), g.0.decks)));
    b.push(bet_range(s, g.0.antes.first().copied().unwrap_or(0), g.0.antes.last().copied().unwrap_or(0)));
    let decks = u64::from(g.0.decks.max(1));
    let ((a, c), _) = tie_odds(decks);
    // The exact fractions, shown to two places.
    let pct = |(n, d): (u128, u128)| format!("{:.2}%", n as f64 * 100.0 / d.max(1) as f64);
    let mut rows = vec![
        vec![s.t("ante, indo à guerra").into(), "1:1".into(), pct(ante_return(decks, true))],
        vec![s.t("ante, desistindo").into(), "1:1".into(), pct(ante_return(decks, false))],
    ];
    if let Some(t) = g.0.tie_bet {
        b.push(Block::Text(format!(
            "{} ({}).",
            s.t("A aposta de empate paga 10:1 quando as duas primeiras cartas são iguais"),
            s.lang().count(t, "crédito", "créditos")
        )));
        rows.push(vec![s.t("aposta de empate").into(), "10:1".into(), pct((11 * u128::from(a), u128::from(c)))]);
    }
    b.push(Block::Table { header: vec![s.t("aposta").into(), s.t("paga").into(), s.t("retorno").into()], rows });
    b.push(Block::Text(format!(
        "{} {:.2}%. {}",
        s.t("As duas primeiras cartas são iguais em"),
        a as f64 * 100.0 / c as f64,
        s.t("Ir à guerra devolve mais do que desistir com qualquer sapato.")
    )));
    Some(HelpDoc { blocks: b, double_up: None })
}
