//! A reel game's help page: the rules of lines or ways, the bet range,
//! the lines, every pay, the wilds, scatter, cascades and the hold-and-spin
//! feature, from its paytable (M-8, M-31).

use game_core::reels::{ReelGame, SymbolKind};

use super::{Block, HelpContext, HelpDoc, bet_range, rtp_text};
use crate::catalogue::HostedGame;
use crate::kinds::reels::Reels;

/// Reel games: rules, bet range, lines, every prize, wild and scatter.
fn reel_help(s: &dyn HelpContext, g: &ReelGame, rtp: Option<&str>) -> Vec<Block> {
    let mut b = vec![Block::Heading(s.t("Regras").into())];
    if g.ways {
        // Issue 50: the ways rule, the window's ways, each reel's rows.
        b.push(Block::Text(format!("{} {}.", s.t("Paga-se por maneiras: um símbolo paga por cada maneira de o alinhar em rolos vizinhos a partir do primeiro, em qualquer linha; as maneiras de um símbolo são o produto de quantas vezes cada rolo o mostra. O wild substitui todos os símbolos excepto o scatter, do segundo rolo em diante. O scatter paga em qualquer posição, multiplicado pela aposta total. Maneiras"), g.ways_count())));
        if !g.reel_rows.is_empty() {
            b.push(Block::Text(format!("{}: {}", s.t("Linhas de cada rolo"), g.reel_rows.iter().map(u8::to_string).collect::<Vec<_>>().join("-"))));
        }
        if g.expanding_wild().is_some() {
            b.push(Block::Text(s.t("O wild expande-se: quando aparece, ocupa todas as posições do seu rolo.").into()));
        }
        if g.sticky_wild().is_some() {
            b.push(Block::Text(s.t("Nos jogos grátis o wild fixa-se: o rolo que preencher fica preenchido até ao último jogo grátis.").into()));
        }
    } else {
        b.push(Block::Text(s.t("Os prémios de linha pagam da esquerda para a direita a partir do primeiro rolo. Em cada linha paga-se só o prémio mais alto; os prémios de várias linhas somam-se. O wild substitui todos os símbolos excepto o scatter. O scatter paga em qualquer posição, multiplicado pela aposta total.").into()));
    }
    let min_bet = g.bet.lines.first().copied().unwrap_or(1) as u64 * g.bet.credits_per_line.first().copied().unwrap_or(1);
    let max_bet = g.bet.lines.last().copied().unwrap_or(1) as u64 * g.bet.credits_per_line.last().copied().unwrap_or(1);
    b.push(bet_range(s, min_bet, max_bet));
    // The RTP its approved paytable proves: the chosen variant's (issue 50).
    b.extend(rtp.map(|rtp| rtp_text(s, rtp)));
    if !g.ways {
        b.push(Block::Heading(s.t("Linhas").into()));
        b.push(Block::Lines { rows: g.rows, lines: g.lines.iter().map(|l| l.to_vec()).collect() });
    }
    // Every wild: its multiplier and, where it has one, its list (issue
    // 50); several in one way multiply or add.
    for w in &g.symbols {
        let SymbolKind::Wild { multiplier, substitutes, .. } = &w.kind else { continue };
        let mut line = format!("{}: wild, {} ×{multiplier}", s.lang().term(&w.name), s.t("prémios com wild multiplicados por"));
        if let Some(list) = substitutes {
            let names: Vec<&str> = list.iter().filter_map(|&x| g.symbols.get(usize::from(x))).map(|x| s.lang().term(&x.name)).collect();
            line.push_str(&format!("; {} {}", s.t("substitui só"), names.join(", ")));
        }
        b.push(Block::Text(line));
    }
    if g.symbols.iter().filter(|x| matches!(x.kind, SymbolKind::Wild { .. })).count() > 1 {
        let rule = match g.wild_multipliers {
            game_core::reels::WildMultipliers::Multiply => s.t("Vários wilds na mesma maneira: os multiplicadores multiplicam-se."),
            game_core::reels::WildMultipliers::Add => s.t("Vários wilds na mesma maneira: os multiplicadores somam-se."),
        };
        b.push(Block::Text(rule.into()));
    }
    let heading =
        if g.ways { s.t("Prémios (créditos por maneira, por crédito da unidade)") } else { s.t("Prémios (créditos por crédito apostado na linha)") };
    b.push(Block::Heading(heading.into()));
    let most = g.pays.iter().map(Vec::len).max().unwrap_or(0);
    let counts: Vec<usize> = (1..most).filter(|&c| g.pays.iter().any(|p| p.get(c).copied().unwrap_or(0) > 0)).collect();
    let header = std::iter::once(s.t("símbolo").to_owned()).chain(counts.iter().map(|c| format!("{c} ×"))).collect();
    let rows = g
        .pays
        .iter()
        .enumerate()
        .filter(|(_, pays)| pays.iter().any(|&p| p > 0))
        .map(|(sym, pays)| {
            std::iter::once(s.lang().term(&g.symbols[sym].name).to_owned())
                .chain(counts.iter().map(|&c| match pays.get(c).copied().unwrap_or(0) {
                    0 => "—".to_owned(),
                    pay => pay.to_string(),
                }))
                .collect()
        })
        .collect();
    b.push(Block::Table { header, rows });
    if let Some(sc) = &g.scatter {
        b.push(Block::Heading("Scatter".into()));
        let mut rows = Vec::new();
        for (count, &pay) in sc.pays.iter().enumerate() {
            let awards = sc.free_games.as_ref().and_then(|f| f.awards.get(count)).copied().unwrap_or(0);
            if pay > 0 || awards > 0 {
                rows.push(vec![
                    format!("{count} × {}", s.lang().term(&g.symbols[sc.symbol as usize].name)),
                    format!("{pay} × {}", s.t("aposta total")),
                    awards.to_string(),
                ]);
            }
        }
        b.push(Block::Table { header: vec![s.t("símbolos").into(), s.t("prémio|pays").into(), s.t("jogos grátis").into()], rows });
        if let Some(f) = &sc.free_games {
            b.push(Block::Text(format!(
                "{} ×{}{}",
                s.t("Prémios dos jogos grátis multiplicados por"),
                f.multiplier,
                if f.retrigger { s.t("; podem ser reactivados") } else { "" }
            )));
        }
    }
    // Issue 50: cascades and their multipliers.
    if let Some(c) = &g.cascade {
        b.push(Block::Heading(s.t("Cascatas").into()));
        let multipliers: Vec<String> = c.multipliers.iter().map(|m| format!("×{m}")).collect();
        b.push(Block::Text(format!(
            "{} {}. {} {}.",
            s.t("Os símbolos de cada prémio desaparecem, os de cima caem e cada rolo enche-se por cima; cada nova janela paga outra vez, com o multiplicador seguinte (o último repete-se):"),
            multipliers.join(", "),
            s.t("Cascatas por jogada, no máximo"),
            c.max_cascades
        )));
    }
    // Issue 50: the hold-and-spin feature, its values and its jackpots.
    if let Some(h) = &g.hold_and_spin {
        b.push(Block::Heading(s.t("Hold & Spin").into()));
        let bonus = g.symbols.get(usize::from(h.symbol)).map_or("", |x| s.lang().term(&x.name));
        b.push(Block::Text(format!(
            "{} {} × {bonus}. {} {}. {}",
            s.t("Começa com"),
            h.trigger,
            s.t("Os símbolos de bónus ficam retidos, cada um com um valor ou um jackpot; as restantes posições giram sozinhas. Cada novo símbolo de bónus fica retido e repõe as rodadas. Rodadas"),
            h.respins,
            s.t("Paga a soma dos valores retidos; com todas as posições preenchidas paga também o jackpot GRANDE.")
        )));
        let values: Vec<String> = h
            .values
            .iter()
            .filter_map(|(v, _)| match v {
                game_core::reels::CashValue::Credits(c) => Some(c.to_string()),
                _ => None,
            })
            .collect();
        b.push(Block::Text(format!("{}: {}", s.t("Valores (créditos por crédito da unidade)"), values.join(", "))));
        let j = h.jackpots;
        let rows = [("MINI", j.mini), ("MENOR", j.minor), ("MAIOR", j.major), ("GRANDE", j.grand)]
            .iter()
            .map(|(name, pay)| vec![s.t(name).to_owned(), pay.to_string()])
            .collect();
        b.push(Block::Table { header: vec!["jackpot".into(), s.t("créditos por crédito da unidade").into()], rows });
    }
    b
}

/// The help page of a reel game.
pub(crate) fn page(s: &dyn HelpContext, game: &HostedGame) -> Option<HelpDoc> {
    let g = game.rules::<Reels>()?;
    Some(HelpDoc { blocks: reel_help(s, &g.game, game.rtp()), double_up: g.game.double_up })
}
