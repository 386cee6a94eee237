//! Bingo's help page.

use std::collections::BTreeMap;
use std::sync::Mutex;

use game_core::bingo::BingoGame;

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::bingo::Bingo;

/// The exact return of a bingo paytable (the compiler's own figures),
/// computed once per game.
fn return_of(g: &BingoGame) -> f64 {
    static FIGURES: Mutex<BTreeMap<String, f64>> = Mutex::new(BTreeMap::new());
    let Ok(mut cache) = FIGURES.lock() else { return f64::NAN };
    *cache.entry(g.id.clone()).or_insert_with(|| match game_core::bingo::odds::card_odds(g).rtp(&g.patterns) {
        Some((n, d)) => n as f64 / d as f64,
        // An approved paytable's sum always fits (the compiler bounds its
        // pays); otherwise no figure is shown rather than a wrong one.
        None => f64::NAN,
    })
}

pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = &game.rules::<Bingo>()?.0;
    let pt = |key: &'static str| s.t(key).to_owned();
    let mut b = vec![Block::Heading(pt("Regras"))];
    b.push(Block::Text(format!(
        "{} {} {} {} {}",
        pt("Bingo de"),
        g.variant.balls(),
        pt("bolas. Em cada jogo saem"),
        g.balls,
        pt("bolas, uma a uma. Os números são marcados e os prémios pagos automaticamente. Cada cartão paga só o seu prémio mais alto; os prémios dos cartões somam-se.")
    )));
    b.push(Block::Text(format!("{} 1 {} {} {}", pt("Jogue de"), pt("a"), g.most_cards, pt("cartões."))));
    b.push(bet_range(s, g.minimum, g.maximum));
    b.push(Block::Table {
        header: vec![pt("figura"), pt("paga por crédito")],
        rows: g.patterns.iter().map(|p| vec![s.lang().term(&p.name).to_owned(), format!("{}×", p.pays)]).collect(),
    });
    if let Some(x) = g.extra {
        b.push(Block::Text(format!(
            "{} {} {} {}%.",
            pt("Bolas extra: depois do sorteio, quando um prémio está a uma bola, pode comprar até"),
            x.most,
            pt("bolas, uma a uma. O preço é o valor esperado da próxima bola sobre o que vê, mais a margem da casa, arredondado ao crédito; cada bola devolve em média pelo menos"),
            x.offer_floor_bp / 100
        )));
    }
    b.push(Block::Heading(pt("Retorno ao jogador")));
    b.push(Block::Text(format!("{} {:.3}%", pt("Jogo base, qualquer número de cartões:"), return_of(g) * 100.0)));
    Some(HelpDoc { blocks: b, double_up: None })
}
