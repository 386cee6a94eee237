//! From a designer's poker RON to game-core's poker models, with every
//! check the rules ask for; each error names its file and line.

use game_core::cards::Card;
use game_core::double_up::DoubleUpRule;
use game_core::draw_poker::{ALL_RANKS, DrawPokerGame, Facts, IN_REVERSE, IN_SEQUENCE, Pattern, PayEntry, RankMask, Wild};
use game_core::stud_poker::{JackpotRule, StudPokerGame, TieRule};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::format::{DrawPokerPaytable, HandSource, SequenceSource, StudPokerPaytable, TieRuleSource, WildSource};
use crate::locate::Path;

pub(crate) fn parse<T: serde::de::DeserializeOwned>(file: &str, src: &str) -> Result<T, PaytableError> {
    let src = crate::compile::without_bom(src);
    ron::from_str(src).map_err(|e| {
        let mut err = crate::compile::syntax_error(file, src, &e);
        // A hand the format cannot express fails as RON syntax ("Expected
        // comma", "unknown variant"): name what is supported instead, when
        // RON stopped inside the `hand:` value.
        let in_hand = |line: usize, column: usize| {
            src.lines()
                .nth(line.saturating_sub(1))
                .is_some_and(|l| l.find("hand:").is_some_and(|start| column > start && l[start..].find(", name:").is_none_or(|end| column <= start + end + 1)))
        };
        if let PaytableError::Syntax { line, column, message, .. } = &mut err
            && in_hand(*line, *column)
        {
            message.push_str(&format!("; {UNSUPPORTED_HAND}"));
        }
        err
    })
}

/// What a draw-poker `hand:` may be, for a designer who wrote another.
const UNSUPPORTED_HAND: &str = "this hand is not one the format can express. A hand is SequentialRoyalFlush(order: LeftToRight or EitherWay), \
RoyalFlush, FourWilds, FourWildsWith(kickers: \"A\"), WildRoyalFlush, FiveOfAKind, FiveOfAKindOf(ranks: \"A\"), StraightFlush, \
FourOfAKind(ranks: \"any\", kickers: \"any\"), FullHouse, Flush, Straight, ThreeOfAKind, TwoPair or Pair(ranks: \"J-A\"); no other pattern is supported";

/// The largest pay per coin a draw-poker entry may have.
pub const MAX_PAY_PER_COIN: u64 = 1_000_000_000;

/// Parse a rank set: "any", "A", "2-4", "J-A", "A,2-4".
pub fn rank_set(s: &str) -> Result<RankMask, String> {
    let rank = |t: &str| -> Result<u8, String> {
        let t = t.trim().to_ascii_uppercase();
        let t = if t == "10" { "T".to_owned() } else { t };
        "23456789TJQKA".find(t.as_str()).filter(|_| t.len() == 1).map(|i| i as u8).ok_or_else(|| format!("{t:?} is not a rank (2…9, T or 10, J, Q, K, A)"))
    };
    if s.trim().eq_ignore_ascii_case("any") {
        return Ok(ALL_RANKS);
    }
    let mut mask = 0;
    for part in s.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (rank(a)?, rank(b)?);
                if a > b {
                    return Err(format!("the range {part:?} runs downwards: write the lower rank first (ace is high)"));
                }
                for r in a..=b {
                    mask |= 1 << r;
                }
            }
            None => mask |= 1 << rank(part)?,
        }
    }
    Ok(mask)
}

pub(crate) fn check_name(e: &mut Problems<'_>, id: &str, name: &str) {
    if id.trim().is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        e.at(Path::default().field("id"), "the id must be non-empty letters, digits, '-' or '_'");
    }
    if name.trim().is_empty() {
        e.at(Path::default().field("name"), "the name must not be empty");
    }
}

pub fn compile_draw(file: &str, src: &str) -> Result<(DrawPokerGame, Option<String>), PaytableError> {
    let p: DrawPokerPaytable = parse(file, src)?;
    let game = validate_draw(&Reporter { file, src: crate::compile::without_bom(src) }, &p)?;
    Ok((game, p.odds_disclosure))
}

/// What a valid draw-poker paytable is warned about (issue 36, point 3;
/// `poker_warnings`): each with its file and line.
pub fn draw_warnings(file: &str, src: &str) -> Vec<String> {
    parse::<DrawPokerPaytable>(file, src).map(|p| crate::poker_warnings::draw_warnings(file, src, &p)).unwrap_or_default()
}

pub fn validate_draw(r: &Reporter<'_>, p: &DrawPokerPaytable) -> Result<DrawPokerGame, PaytableError> {
    let root = Path::default;
    let mut e = Problems::new(r);
    check_name(&mut e, &p.id, &p.name);
    let wild = match p.wild {
        WildSource::None => Wild::None,
        WildSource::Deuces => Wild::Deuces,
        WildSource::Joker => Wild::Joker,
    };
    if p.coins.is_empty() || p.coins.contains(&0) || p.coins.iter().any(|&c| c > 100) {
        e.at(root().field("coins"), "coins must list 1 to 100 coins per bet, at least one choice");
    }
    let mut coins = p.coins.clone();
    coins.sort_unstable();
    coins.dedup();
    if p.pays.is_empty() {
        e.at(root().field("pays"), "a paytable needs at least one winning hand");
    }
    let mut entries: Vec<PayEntry> = Vec::new();
    for (i, pay) in p.pays.iter().enumerate() {
        let at = root().field("pays").index(i);
        let mut set = |s: &str, what: &str| -> RankMask {
            match rank_set(s) {
                Ok(0) => {
                    e.at(at.clone().field("hand"), format!("the {what} set {s:?} is empty"));
                    0
                }
                Ok(m) => m,
                Err(problem) => {
                    e.at(at.clone().field("hand"), format!("{what}: {problem}"));
                    0
                }
            }
        };
        let pattern = match &pay.hand {
            HandSource::SequentialRoyalFlush { order } => Pattern::SequentialRoyalFlush { either_way: *order == SequenceSource::EitherWay },
            HandSource::RoyalFlush => Pattern::RoyalFlush,
            HandSource::FourWilds => Pattern::FourWilds,
            HandSource::FourWildsWith { kickers } => Pattern::FourWildsWith { kickers: set(kickers, "kickers") },
            HandSource::WildRoyalFlush => Pattern::WildRoyalFlush,
            HandSource::FiveOfAKind => Pattern::FiveOfAKind,
            HandSource::FiveOfAKindOf { ranks } => Pattern::FiveOfAKindOf { ranks: set(ranks, "ranks") },
            HandSource::StraightFlush => Pattern::StraightFlush,
            HandSource::FourOfAKind { ranks, kickers } => Pattern::FourOfAKind { ranks: set(ranks, "ranks"), kickers: set(kickers, "kickers") },
            HandSource::FullHouse => Pattern::FullHouse,
            HandSource::Flush => Pattern::Flush,
            HandSource::Straight => Pattern::Straight,
            HandSource::ThreeOfAKind => Pattern::ThreeOfAKind,
            HandSource::TwoPair => Pattern::TwoPair,
            HandSource::Pair { ranks } => Pattern::Pair { ranks: set(ranks, "ranks") },
        };
        match (pattern, wild) {
            (Pattern::FourWilds | Pattern::FourWildsWith { .. }, w) if w != Wild::Deuces => {
                e.at(at.clone().field("hand"), "pay for an impossible hand: four wild cards needs wild: Deuces");
            }
            (Pattern::WildRoyalFlush | Pattern::FiveOfAKind | Pattern::FiveOfAKindOf { .. }, Wild::None) => {
                e.at(at.clone().field("hand"), "pay for an impossible hand: it needs wild cards (wild: Deuces or Joker)");
            }
            _ => {}
        }
        if pay.name.trim().is_empty() {
            e.at(at.clone().field("name"), "every winning hand needs the name the player sees (M-8)");
        }
        if pay.pays == 0 || pay.max_coin_pays == Some(0) {
            e.at(at.clone().field("pays"), "a pay of 0 is not a prize: remove it");
        }
        if pay.pays > MAX_PAY_PER_COIN || pay.max_coin_pays.is_some_and(|m| m > MAX_PAY_PER_COIN) {
            // The exact analysis's sums are bounded by it (draw_math).
            e.at(at.clone().field("pays"), format!("a pay over {MAX_PAY_PER_COIN} credits per coin is not a draw-poker prize"));
        }
        if pay.max_coin_pays.is_some_and(|m| m < pay.pays) {
            e.at(at.clone().field("max_coin_pays"), "the maximum-coin pay is lower than the normal pay");
        }
        if entries.iter().any(|x| x.pattern == pattern) {
            e.at(at.clone().field("hand"), format!("{:?} is paid twice", pay.hand));
        } else if matches!(pattern, Pattern::SequentialRoyalFlush { .. }) && entries.iter().any(|x| matches!(x.pattern, Pattern::SequentialRoyalFlush { .. })) {
            e.at(at.clone().field("hand"), "a paytable pays at most one sequential royal flush (LeftToRight or EitherWay)");
        }
        if matches!(pattern, Pattern::SequentialRoyalFlush { .. }) {
            // A hand is paid as the first entry it makes: below an entry
            // every royal flush makes, the sequential royal is never paid.
            let royal = Facts::of(&[8, 9, 10, 11, 12].map(|r| Card::new(r, 0)), wild);
            if let Some(above) = entries.iter().find(|x| royal.makes(x.pattern)) {
                e.at(
                    at.clone().field("hand"),
                    format!(
                        "the sequential royal flush is listed below {:?}, which every royal flush makes, so it would never be paid: list it first (M-13)",
                        above.name
                    ),
                );
            }
        }
        entries.push(PayEntry { name: pay.name.clone(), name_pt: pay.name_pt.clone(), pattern, pays: pay.pays, max_coin_pays: pay.max_coin_pays });
    }
    let double_up = match p.double_up {
        None => None,
        Some(d) => {
            if d.max_doubles == 0 || d.max_doubles > 5 {
                e.at(root().field("double_up").field("max_doubles"), "the double-up allows 1 to 5 doubles (decisions.md)");
            }
            Some(DoubleUpRule { max_doubles: d.max_doubles, max_win_credits: d.max_win_credits })
        }
    };
    let mut hands = p.hands.clone();
    if hands.is_empty() || hands.iter().any(|&h| h == 0 || h > 100) {
        e.at(root().field("hands"), "hands must list 1 to 100 hands per deal, at least one choice");
    }
    hands.sort_unstable();
    hands.dedup();
    let game = DrawPokerGame { id: p.id.clone(), name: p.name.clone(), wild, entries, coins, double_up, hands };
    // The order check needs every entry well formed.
    e.result(|| ())?;
    let mut e = Problems::new(r);
    let mut reported = std::collections::BTreeSet::new();
    // M-13: a hand is paid only its highest prize, and the game pays the
    // first entry a hand makes; so wherever one hand makes several entries,
    // the first of them must pay at least as much as each other, at every
    // coin count. Only the first is compared: entries below it are never
    // paid for that hand (issue 36: a flush paying more than a straight
    // was refused with a straight flush, which the straight flush's entry
    // above both pays, as its example).
    for (made, example) in made_sets(&game) {
        let listed: Vec<usize> = (0..game.entries.len()).filter(|i| made & (1 << i) != 0).collect();
        if let Some((&i, rest)) = listed.split_first() {
            for &j in rest {
                for &c in &game.coins {
                    let (above, below) = (game.pays_per_coin(i, c), game.pays_per_coin(j, c));
                    if below > above && reported.insert((i, j)) {
                        let hand: Vec<String> = example.iter().map(|c| c.to_string()).collect();
                        e.at(
                            root().field("pays").index(j),
                            format!(
                                "{:?} pays {below} per coin at {c} coin(s), more than {:?} listed above it ({above}), and a hand such as {} makes both: list hands from the highest pay down (M-13)",
                                game.entries[j].name,
                                game.entries[i].name,
                                hand.join(" ")
                            ),
                        );
                    }
                }
            }
        }
    }
    e.result(|| game)
}

/// Every distinct set of entries some hand of the deck makes at once, with
/// one such hand.
fn made_sets(game: &DrawPokerGame) -> Vec<(u32, [Card; 5])> {
    // What a hand makes depends only on its class (its ranks, and whether
    // its natural cards share a suit): one hand of each class suffices.
    let mut seen: std::collections::BTreeMap<u32, [Card; 5]> = std::collections::BTreeMap::new();
    game_core::draw_poker::each_class(game, |_, f, hand| {
        // A class has no order; a natural royal flush may be shown in
        // sequence either way, so its class makes the sequential royal too.
        let f = Facts { sequence: IN_SEQUENCE | IN_REVERSE, ..*f };
        let made = game.entries.iter().enumerate().filter(|(_, x)| f.makes(x.pattern)).fold(0u32, |m, (i, _)| m | 1 << i);
        if made.count_ones() > 1 {
            seen.entry(made).or_insert(hand);
        }
    });
    seen.into_iter().collect()
}

pub fn compile_stud(file: &str, src: &str) -> Result<(StudPokerGame, Option<String>), PaytableError> {
    let p: StudPokerPaytable = parse(file, src)?;
    let game = validate_stud(&Reporter { file, src: crate::compile::without_bom(src) }, &p)?;
    Ok((game, p.odds_disclosure))
}

pub fn validate_stud(r: &Reporter<'_>, p: &StudPokerPaytable) -> Result<StudPokerGame, PaytableError> {
    let root = Path::default;
    let mut e = Problems::new(r);
    check_name(&mut e, &p.id, &p.name);
    // SP-15: the royal flush pays 50 to 100 to 1 (operator's choice).
    if !(50..=100).contains(&p.royal_flush_pays) {
        e.at(root().field("royal_flush_pays"), format!("the royal flush pays 50 to 100 to 1 (SP-15), not {}", p.royal_flush_pays));
    }
    let mut antes = p.antes.clone();
    antes.sort_unstable();
    antes.dedup();
    match (antes.first(), antes.last()) {
        (Some(&min), Some(&max)) => {
            if min == 0 {
                e.at(root().field("antes"), "an ante of 0 credits is not a bet");
            } else if max > 25 * min {
                // PSD 20: the largest ante at most 25 times the smallest.
                e.at(root().field("antes"), format!("the largest ante ({max}) is more than 25 times the smallest ({min}) (PSD 20)"));
            }
        }
        _ => e.at(root().field("antes"), "at least one ante is needed"),
    }
    if p.max_win_credits == Some(0) {
        e.at(root().field("max_win_credits"), "a cap of 0 credits would pay nothing");
    }
    let jackpot = match &p.jackpot {
        None => None,
        Some(j) => {
            let at = root().field("jackpot");
            if j.bet_credits == 0 {
                e.at(at.clone().field("bet_credits"), "the side bet must be at least 1 credit");
            } else if j.start_value_credits < 10_000 * j.bet_credits {
                // PSD 41, seed 004 §10: the start value is at least 10,000 × the side bet.
                e.at(
                    at.field("start_value_credits"),
                    format!("the start value {} is under 10,000 × the side bet ({}) (PSD 41)", j.start_value_credits, 10_000 * j.bet_credits),
                );
            }
            Some(JackpotRule {
                bet_credits: j.bet_credits,
                royal_fixed: j.royal_fixed,
                straight_flush_fixed: j.straight_flush_fixed,
                four_of_a_kind: j.four_of_a_kind,
                full_house: j.full_house,
                flush: j.flush,
                start_value_credits: j.start_value_credits,
                pays_on_fold: j.pays_on_fold,
            })
        }
    };
    e.result(|| StudPokerGame {
        id: p.id.clone(),
        name: p.name.clone(),
        // PSD 30 / SP-15, high card first.
        raise_pays: [1, 1, 2, 3, 4, 5, 7, 20, 50, p.royal_flush_pays],
        tie_rule: match p.tie_rule {
            TieRuleSource::SuitOrder => TieRule::SuitOrder,
            TieRuleSource::Push => TieRule::Push,
        },
        antes,
        max_win_credits: p.max_win_credits,
        jackpot,
    })
}

/// Which kind of paytable a source is, from its leading struct name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Reels,
    DrawPoker,
    StudPoker,
    Roulette,
    BancaFrancesa,
    SicBo,
    Baccarat,
    Blackjack,
    Bingo,
    Boule,
    RodaDaSorte,
    Fantan,
    FishPrawnCrab,
    Poquer3Cartas,
    DesafioAoCasino,
    Craps,
}

impl Kind {
    /// Whether the table lists fixed-payout bets with their exact figures
    /// (`table_bet::TableBet`): `paytable check`, `par` and `compile` read
    /// every such kind the same way.
    pub fn lists_its_bets(self) -> bool {
        matches!(
            self,
            Kind::BancaFrancesa
                | Kind::SicBo
                | Kind::Baccarat
                | Kind::Boule
                | Kind::RodaDaSorte
                | Kind::Fantan
                | Kind::FishPrawnCrab
                | Kind::Poquer3Cartas
                | Kind::DesafioAoCasino
                | Kind::Craps
        )
    }
}

pub fn kind_of(file: &str, src: &str) -> Result<Kind, PaytableError> {
    let src = crate::compile::without_bom(src);
    let mut rest = src;
    // Skip whitespace and comments before the first identifier.
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |x| x.1);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |x| x.1);
        } else if rest.starts_with("#!") {
            rest = rest.split_once('\n').map_or("", |x| x.1);
        } else {
            break;
        }
    }
    let ident: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    match ident.as_str() {
        "ReelPaytable" => Ok(Kind::Reels),
        "DrawPokerPaytable" => Ok(Kind::DrawPoker),
        "StudPokerPaytable" => Ok(Kind::StudPoker),
        "RoulettePaytable" => Ok(Kind::Roulette),
        "BancaFrancesaPaytable" => Ok(Kind::BancaFrancesa),
        "SicBoPaytable" => Ok(Kind::SicBo),
        "BaccaratPaytable" => Ok(Kind::Baccarat),
        "BlackjackPaytable" => Ok(Kind::Blackjack),
        "BingoPaytable" => Ok(Kind::Bingo),
        "BoulePaytable" => Ok(Kind::Boule),
        "RodaDaSortePaytable" => Ok(Kind::RodaDaSorte),
        "FantanPaytable" => Ok(Kind::Fantan),
        "FishPrawnCrabPaytable" => Ok(Kind::FishPrawnCrab),
        "Poquer3CartasPaytable" => Ok(Kind::Poquer3Cartas),
        "DesafioAoCasinoPaytable" => Ok(Kind::DesafioAoCasino),
        "CrapsPaytable" => Ok(Kind::Craps),
        other => Err(PaytableError::Invalid {
            file: file.to_owned(),
            line: 1 + src.as_bytes()[..src.len() - rest.len()].iter().filter(|&&b| b == b'\n').count(),
            path: "(root)".into(),
            problem: format!(
                "the file starts with {:?}: a paytable is ReelPaytable(…), DrawPokerPaytable(…), StudPokerPaytable(…), RoulettePaytable(…), BancaFrancesaPaytable(…), SicBoPaytable(…), BaccaratPaytable(…), BlackjackPaytable(…), BingoPaytable(…), BoulePaytable(…), RodaDaSortePaytable(…), FantanPaytable(…), FishPrawnCrabPaytable(…), Poquer3CartasPaytable(…), DesafioAoCasinoPaytable(…) or CrapsPaytable(…)",
                if other.is_empty() { rest.chars().take(12).collect::<String>() } else { other.to_owned() }
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_sets() {
        assert_eq!(rank_set("any"), Ok(ALL_RANKS));
        assert_eq!(rank_set("A"), Ok(1 << 12));
        assert_eq!(rank_set("2-4"), Ok(0b111));
        assert_eq!(rank_set("J-A"), Ok(0b1111 << 9));
        assert_eq!(rank_set("A, 2-4"), Ok((1 << 12) | 0b111));
        assert_eq!(rank_set("10"), Ok(1 << 8));
        assert!(rank_set("A-2").unwrap_err().contains("downwards"));
        assert!(rank_set("X").unwrap_err().contains("not a rank"));
    }

    #[test]
    fn kinds_are_recognised_and_strangers_named() {
        assert_eq!(kind_of("f", "// c\nDrawPokerPaytable(").unwrap(), Kind::DrawPoker);
        assert_eq!(kind_of("f", "  StudPokerPaytable(").unwrap(), Kind::StudPoker);
        assert_eq!(kind_of("f", "ReelPaytable(").unwrap(), Kind::Reels);
        let e = kind_of("f.ron", "\n\nBingo(").unwrap_err().to_string();
        assert!(e.starts_with("f.ron:3:"), "{e}");
        assert!(e.contains("\"Bingo\""), "{e}");
    }

    fn draw_err(src: &str) -> String {
        compile_draw("t.ron", src).unwrap_err().to_string()
    }

    /// Issue 18: every problem of a poker paytable at once, each at its line.
    #[test]
    fn every_problem_of_a_poker_paytable_is_reported_at_once() {
        let bad = "DrawPokerPaytable(\n id: \"t\",\n name: \"\",\n coins: [0],\n pays: [\n  (hand: FourWilds, name: \"Royal\", pays: 800),\n  (hand: Pair(ranks: \"J-Z\"), name: \"Jacks\", pays: 0),\n ],\n)";
        let err = compile_draw("t.ron", bad).unwrap_err();
        let lines: Vec<usize> = err
            .problems()
            .iter()
            .map(|p| match p {
                PaytableError::Invalid { line, .. } => *line,
                other => panic!("{other:?}"),
            })
            .collect();
        // The name (3), the coins (4), four deuces without deuces (6), the
        // bad rank and the pay of 0 (7).
        assert_eq!(lines, vec![3, 4, 6, 7, 7], "{err}");
        let stud = "StudPokerPaytable(\n id: \"s\",\n name: \"S\",\n royal_flush_pays: 40,\n antes: [1, 30],\n max_win_credits: Some(0),\n)";
        let err = compile_stud("s.ron", stud).unwrap_err();
        assert_eq!(err.problems().len(), 3, "{err}");
        let text = err.to_string();
        assert!(text.contains("SP-15") && text.contains("PSD 20") && text.contains("a cap of 0"), "{text}");
    }

    #[test]
    fn draw_errors_name_the_line_and_problem() {
        let ok = "DrawPokerPaytable(\n id: \"t\",\n name: \"T\",\n coins: [1],\n pays: [\n  (hand: RoyalFlush, name: \"Royal\", pays: 800),\n  (hand: Pair(ranks: \"J-A\"), name: \"Jacks\", pays: 1),\n ],\n)";
        assert!(compile_draw("t.ron", ok).is_ok());
        let rising = ok.replace("RoyalFlush", "TwoPair").replace("pays: 1),\n ]", "pays: 900),\n ]");
        let e = draw_err(&rising);
        assert!(e.starts_with("t.ron:7:") && e.contains("M-13") && e.contains("makes both"), "{e}");
        // A hand can never be both a royal flush and a pair: no order needed.
        assert!(compile_draw("t.ron", &ok.replace("pays: 1),\n ]", "pays: 900),\n ]")).is_ok());
        let e = draw_err(&ok.replace("RoyalFlush", "FourWilds"));
        assert!(e.starts_with("t.ron:6:") && e.contains("Deuces"), "{e}");
        let e = draw_err(&ok.replace("J-A", "J-Z"));
        assert!(e.starts_with("t.ron:7:") && e.contains("\"Z\" is not a rank"), "{e}");
        let e = draw_err(&ok.replace("coins: [1]", "coins: []"));
        assert!(e.starts_with("t.ron:4:"), "{e}");
        let e = draw_err(&ok.replace("Pair(ranks: \"J-A\")", "RoyalFlush"));
        assert!(e.contains("paid twice"), "{e}");
        let e = draw_err(&ok.replace("pays: 800", "pays: 0"));
        assert!(e.starts_with("t.ron:6:") && e.contains("not a prize"), "{e}");
    }

    /// Issue 36: only the first entry a hand makes is paid, so only it is
    /// compared with the others. A straight listed above a flush that pays
    /// more is accepted while a straight flush entry above both pays every
    /// hand that makes the two; without that entry the order is refused,
    /// with a hand that makes exactly the two entries named.
    #[test]
    fn only_the_entry_a_hand_is_paid_for_is_held_to_m13() {
        let table = |straight_flush: &str| {
            format!(
                "DrawPokerPaytable(\n id: \"t\",\n name: \"T\",\n coins: [1],\n pays: [\n{straight_flush}  (hand: Straight, name: \"Straight\", pays: 4),\n  (hand: Flush, name: \"Flush\", pays: 6),\n ],\n)"
            )
        };
        assert!(compile_draw("t.ron", &table("  (hand: StraightFlush, name: \"Straight Flush\", pays: 50),\n")).is_ok());
        let e = draw_err(&table(""));
        assert!(e.contains("\"Flush\" pays 6") && e.contains("\"Straight\" listed above it") && e.contains("M-13"), "{e}");
        // The example makes a straight and a flush: a straight flush, the
        // only such hand, and this table has no entry of its own for it.
        let hand = e.split("a hand such as ").nth(1).and_then(|h| h.split(" makes").next()).unwrap_or_default();
        assert_eq!(hand.split(' ').count(), 5, "{e}");
    }

    #[test]
    fn stud_errors_name_the_rule() {
        let ok = "StudPokerPaytable(\n id: \"s\",\n name: \"S\",\n royal_flush_pays: 100,\n tie_rule: SuitOrder,\n antes: [1, 25],\n jackpot: Some((bet_credits: 1, royal_fixed: 0, straight_flush_fixed: 0, four_of_a_kind: 100, full_house: 75, flush: 50, start_value_credits: 10000, pays_on_fold: true)),\n)";
        assert!(compile_stud("s.ron", ok).is_ok());
        let e = compile_stud("s.ron", &ok.replace("100,\n tie", "40,\n tie")).unwrap_err().to_string();
        assert!(e.starts_with("s.ron:4:") && e.contains("SP-15"), "{e}");
        let e = compile_stud("s.ron", &ok.replace("[1, 25]", "[1, 26]")).unwrap_err().to_string();
        assert!(e.starts_with("s.ron:6:") && e.contains("PSD 20"), "{e}");
        let e = compile_stud("s.ron", &ok.replace("10000", "9999")).unwrap_err().to_string();
        assert!(e.starts_with("s.ron:7:") && e.contains("PSD 41"), "{e}");
    }
}
