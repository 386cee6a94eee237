//! Blackjack's help page: the rules of the table and the return under
//! optimal play.

use std::collections::BTreeMap;
use std::sync::Mutex;

use game_core::blackjack::BlackjackGame;
use game_core::blackjack::odds::analyse;
use game_core::blackjack::rules::{DealerBlackjack, DoubleOn, HoleCard, Rules};

use super::{Block, HelpContext, HelpDoc, bet_range};
use crate::catalogue::HostedGame;
use crate::kinds::blackjack::Blackjack;

/// The return under optimal play of each rule set, from game-core's
/// analysis (the compiler's own), computed once.
fn return_of(rules: &Rules) -> (f64, f64) {
    static FIGURES: Mutex<BTreeMap<String, (f64, f64)>> = Mutex::new(BTreeMap::new());
    let key = format!("{rules:?}");
    let Ok(mut cache) = FIGURES.lock() else { return (f64::NAN, f64::NAN) };
    *cache.entry(key).or_insert_with(|| {
        let f = analyse(rules);
        (f.rtp, f.bonus)
    })
}

fn blackjack_help(s: &dyn HelpContext, g: &BlackjackGame) -> Vec<Block> {
    let r = &g.rules;
    let pt = |key: &'static str| s.t(key).to_owned();
    let mut b = vec![Block::Heading(pt("Regras"))];
    b.push(Block::Text(format!(
        "{} {} {}",
        pt("Jogue contra a banca: chegue mais perto de 21 do que ela sem passar. Ás vale 1 ou 11, figuras 10. Baralho de"),
        r.decks,
        pt("baralhos, baralhado antes de cada mão.")
    )));
    let mut rules = vec![
        if r.dealer_hits_soft_17 { pt("A banca pede carta com 17 macio.") } else { pt("A banca fica com qualquer 17.") },
        match r.hole_card {
            HoleCard::Peek => pt("A banca verifica o blackjack antes das suas decisões."),
            HoleCard::NoPeek(DealerBlackjack::TakesAll) => pt("A segunda carta da banca é virada no fim: um blackjack da banca ganha todas as apostas."),
            HoleCard::NoPeek(DealerBlackjack::OriginalBetOnly) => {
                pt("A segunda carta da banca é virada no fim: um blackjack da banca ganha só a aposta inicial.")
            }
        },
        match r.double_on {
            DoubleOn::AnyTwo => pt("Duplicar com as duas primeiras cartas."),
            DoubleOn::NineToEleven => pt("Duplicar com 9, 10 ou 11 (A-8 e A-9 como 9 e 10)."),
            DoubleOn::TenToEleven => pt("Duplicar com 10 ou 11."),
        },
        match r.split_hands {
            None => pt("Desdobrar cartas do mesmo valor, sem limite."),
            Some(n) => format!("{} {n} {}", pt("Desdobrar cartas iguais até"), pt("mãos.")),
        },
        pt("Ases desdobrados recebem uma carta cada."),
        format!("Blackjack {}:{}.", r.blackjack_pays.win, r.blackjack_pays.per),
    ];
    if r.stand_from > 0 {
        rules.push(pt("Não pode ficar com 11 ou menos."));
    }
    if r.surrender.is_some() {
        rules.push(pt("Desistir devolve metade da aposta."));
    }
    if r.insurance {
        rules.push(pt("Seguro contra um ás: até metade da aposta, paga 2:1."));
        // Even money, a parameter (BJ 47, issue 49).
        rules.push(pt(if r.even_money {
            "Um blackjack contra um ás pode receber pagamento igual: 1:1 de imediato."
        } else {
            "Sem pagamento igual: um blackjack contra um ás pode fazer seguro como qualquer mão."
        }));
    }
    if r.bonus_678_777 > 0 {
        rules.push(format!("{} {}×.", pt("6-7-8 do mesmo naipe ou 7-7-7 nas três primeiras cartas paga"), r.bonus_678_777));
    }
    b.extend(rules.into_iter().map(Block::Text));
    b.push(bet_range(s, g.minimum, g.maximum()));
    let (rtp, bonus) = return_of(r);
    b.push(Block::Heading(pt("Retorno ao jogador")));
    b.push(Block::Table {
        header: vec![pt("jogo ótimo"), "%".into()],
        rows: vec![vec![pt("com o bónus"), format!("{:.3}", rtp * 100.0)], vec![pt("sem o bónus"), format!("{:.3}", (rtp - bonus) * 100.0)]],
    });
    b
}

/// The help page of a blackjack game.
pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Blackjack>()?;
    Some(HelpDoc { blocks: blackjack_help(s, &g.0), double_up: None })
}
