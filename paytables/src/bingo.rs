//! Video bingo (`BingoPaytable`): the variant (90, 80, 75 or 30 balls),
//! the balls drawn, the most cards, the patterns with their prizes per
//! credit bet on a card, the extra balls (how many, the house margin on
//! their value, the return floor of an offer), the bet per card.
//!
//! The exact figures are game-core's ([`game_core::bingo::odds`]): one
//! card's highest pattern over every set of its numbers the C(N, D) draws
//! can mark, which is the same for every card of the variant, so the
//! return of n cards is n times one card's exactly, whatever the card
//! generator does. Extra balls: every offer returns at least its floor of
//! its price by construction (the round offers nothing under it), so the
//! purchases return at least that floor under any policy; their return
//! when every offer is bought is the one-card chain's, in f64 (the
//! documented float exception: it is a figure, not the floor's proof).
//!
//! ```ron
//! BingoPaytable(id: "bingo-75", name: "Bingo 75", variant: SeventyFive, balls: 30, most_cards: 4,
//!     patterns: [(name: "linha", shape: Line(rows: true, columns: true, diagonals: true), pays: 1),
//!                (name: "bingo", shape: FullCard, pays: 500)],
//!     extra: Some((most: 5, margin_bp: 1000, offer_floor_bp: 8000)), minimum: 1, maximum: 10)
//! ```

use game_core::bingo::extra::{ExtraFigures, OfferBounds};
use game_core::bingo::odds::{CardOdds, CardSets, Geometry};
use game_core::bingo::{BingoGame, ExtraBalls, Pattern, Shape, Variant};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::floor::{Floor, decimal};
use crate::locate::Path;
use crate::poker_compile::{check_name, parse};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternSource {
    pub name: String,
    pub shape: Shape,
    /// Credits per credit bet on the card.
    pub pays: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BingoPaytable {
    pub id: String,
    pub name: String,
    pub variant: Variant,
    pub balls: u8,
    pub most_cards: u8,
    pub patterns: Vec<PatternSource>,
    #[serde(default)]
    pub extra: Option<ExtraBalls>,
    pub minimum: u64,
    pub maximum: u64,
    #[serde(default)]
    pub symbols: Vec<String>,
}

pub fn compile_bingo(file: &str, src: &str) -> Result<BingoGame, PaytableError> {
    let p: BingoPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    check_name(&mut e, &p.id, &p.name);
    let v = p.variant;
    let most = p.extra.map_or(0, |x| x.most);
    if p.balls == 0 || u16::from(p.balls) + u16::from(most) > u16::from(v.balls()) {
        e.at(Path::default().field("balls"), format!("{} balls drawn and {most} extra: a {}-ball drum holds {} balls", p.balls, v.name(), v.balls()));
    }
    if !(1..=4).contains(&p.most_cards) {
        e.at(Path::default().field("most_cards"), format!("{} cards: a round plays 1 to 4 cards (decisions.md, Bingo)", p.most_cards));
    }
    if p.patterns.is_empty() {
        e.at(Path::default().field("patterns"), "no pattern: a bingo paytable pays at least one");
    }
    if p.patterns.len() > 32 {
        e.at(Path::default().field("patterns"), format!("{} patterns: at most 32", p.patterns.len()));
    }
    let mut patterns = Vec::new();
    for (i, s) in p.patterns.iter().enumerate() {
        let at = Path::default().field("patterns").index(i);
        if s.name.trim().is_empty() {
            e.at(at.clone().field("name"), "a pattern needs a name");
        }
        if p.patterns[..i].iter().any(|o| o.name == s.name) {
            e.at(at.clone().field("name"), format!("{:?} is named twice", s.name));
        }
        if s.pays == 0 {
            e.at(at.clone().field("pays"), "a pattern pays at least 1 credit per credit bet");
        }
        if s.pays > MAX_PAY_PER_CREDIT {
            e.at(at.clone().field("pays"), format!("a pay of {} credits per credit bet: at most {MAX_PAY_PER_CREDIT}", s.pays));
        }
        match s.shape.masks(v) {
            Ok(masks) => patterns.push(Pattern { name: s.name.clone(), masks, pays: s.pays }),
            Err(problem) => e.at(at.field("shape"), problem.to_string()),
        }
    }
    if let Some(x) = p.extra {
        let at = Path::default().field("extra");
        if x.most == 0 {
            e.at(at.clone().field("most"), "no extra ball: leave `extra` out instead");
        }
        if x.margin_bp > 10_000 {
            e.at(at.clone().field("margin_bp"), format!("a margin of {} basis points: at most 10000 (100 %)", x.margin_bp));
        }
        if !(8_000..=10_000).contains(&x.offer_floor_bp) {
            e.at(at.field("offer_floor_bp"), format!("an offer floor of {} basis points: from 8000 (the 80 % floor, M-17) to 10000", x.offer_floor_bp));
        }
    }
    if p.minimum == 0 || p.maximum < p.minimum {
        e.at(
            Path::default().field("minimum"),
            format!("a bet per card from {} to {} credits: the least is at least 1, the most at least the least", p.minimum, p.maximum),
        );
    }
    if p.maximum > MAX_BET_PER_CARD {
        e.at(Path::default().field("maximum"), format!("a bet per card of {} credits: at most {MAX_BET_PER_CARD}", p.maximum));
    }
    // Issue 49: a prize that can never be paid (only a card's highest
    // pattern pays, M-13) is refused at its line, as reels refuse theirs.
    if patterns.len() == p.patterns.len() {
        let drawable = u32::from(p.balls) + u32::from(most);
        for (i, why) in never_paid(&patterns, v, drawable) {
            e.at(Path::default().field("patterns").index(i).field("pays"), why);
        }
    }
    if !p.symbols.is_empty() {
        let distinct: std::collections::BTreeSet<&str> = p.symbols.iter().map(|s| s.trim()).collect();
        if v != Variant::Thirty {
            e.at(Path::default().field("symbols"), "symbols replace the numbers of 30-ball bingo only (B-80)");
        } else if p.symbols.len() != 30 || distinct.len() != 30 || distinct.contains("") {
            e.at(
                Path::default().field("symbols"),
                format!("{} symbols, {} distinct: 30-ball bingo needs 30 distinct symbols (B-80)", p.symbols.len(), distinct.len()),
            );
        }
    }
    e.result(|| BingoGame {
        id: p.id.clone(),
        name: p.name.clone(),
        variant: v,
        balls: p.balls,
        most_cards: p.most_cards,
        patterns,
        extra: p.extra,
        minimum: p.minimum,
        maximum: p.maximum,
        symbols: p.symbols.clone(),
    })
}

/// The most a pattern pays per credit bet on a card (the draw-poker bound:
/// every product of the exact math then fits its integers).
pub const MAX_PAY_PER_CREDIT: u64 = crate::poker_compile::MAX_PAY_PER_COIN;

/// The largest bet per card, in credits.
pub const MAX_BET_PER_CARD: u64 = 1_000_000;

/// The patterns no draw can pay, with why: every way to complete one also
/// completes a pattern paid before it (a higher pay, or the same pay
/// listed earlier: a card is paid its highest pattern only, M-13), or
/// needs more numbers than the drum can give (`drawable`: the balls drawn
/// and the extra balls).
pub fn never_paid(patterns: &[Pattern], variant: Variant, drawable: u32) -> Vec<(usize, String)> {
    let numbered = Geometry::of(variant).numbered.iter().fold(0u32, |m, &c| m | 1 << c);
    let before = |q: usize, p: usize| patterns[q].pays > patterns[p].pays || (patterns[q].pays == patterns[p].pays && q < p);
    let mut out = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        // The pattern paid before it that a completed mask also completes.
        let shadow = |m: u32| (0..patterns.len()).find(|&q| q != i && before(q, i) && patterns[q].masks.iter().any(|&qm| qm & numbered & !m == 0));
        let payable = p.masks.iter().any(|&m| (m & numbered).count_ones() <= drawable && shadow(m).is_none());
        if payable || p.masks.is_empty() {
            continue;
        }
        let first = p.masks[0];
        let why = match shadow(first) {
            Some(q) => format!(
                "{:?} can never be paid: completing it completes {:?} too, which pays {} and is paid instead (only a card's highest pattern pays, M-13)",
                p.name, patterns[q].name, patterns[q].pays
            ),
            None => format!("{:?} can never be paid: it needs {} numbers and at most {drawable} are drawn", p.name, (first & numbered).count_ones()),
        };
        out.push((i, why));
    }
    out
}

/// The exact figures of the base game, and the extra balls' at the least
/// bet.
#[derive(Clone, Debug)]
pub struct Figures {
    pub odds: CardOdds,
    /// The return per credit bet, for any number of cards.
    pub rtp: BigRational,
    /// Each pattern's probability on one card and its share of the return.
    pub patterns: Vec<(String, BigRational, BigRational)>,
    /// One card's hit frequency and standard deviation per credit bet.
    pub hit: BigRational,
    pub sd: f64,
    pub extra: Option<ExtraFigures>,
    /// One card's extra balls under the player's best policy: the highest
    /// return per credit any way of buying and stopping gets.
    pub best_policy: Option<ExtraFigures>,
    /// For 1 to `most_cards` cards, the least and the most return of any
    /// extra ball offered, at any bet: proven bounds on every policy.
    pub bounds: Vec<OfferBounds>,
}

fn frac(n: u128, d: u128) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d.max(1)))
}

pub fn figures(game: &BingoGame) -> Figures {
    // Every set of a card's numbers is visited once for both the base game
    // and the extra balls.
    let sets = CardSets::new(game);
    let odds = sets.odds();
    // In big integers: a pattern's ways times its pay (squared, for the
    // second moment) exceeded 128 bits for pays near 2^64 (issue 49).
    let draws = frac(odds.draws, 1);
    let paid = |p: &Pattern, w: u128| BigRational::from_integer(BigInt::from(w) * BigInt::from(p.pays)) / &draws;
    let patterns: Vec<(String, BigRational, BigRational)> =
        game.patterns.iter().zip(&odds.ways).map(|(p, &w)| (p.name.clone(), frac(w, odds.draws), paid(p, w))).collect();
    let rtp: BigRational = patterns.iter().map(|(_, _, share)| share.clone()).sum();
    let hit = frac(odds.draws - odds.none, odds.draws);
    let second: BigRational = game.patterns.iter().zip(&odds.ways).map(|(p, &w)| paid(p, w) * BigRational::from_integer(BigInt::from(p.pays))).sum();
    let variance = (&second - &rtp * &rtp).to_f64().unwrap_or(f64::NAN);
    let sd = variance.max(0.0).sqrt();
    let extra = game.extra.map(|x| sets.extra(&x, game.minimum));
    let best_policy = game.extra.zip(extra.as_ref()).map(|(x, every)| sets.best_policy(&x, game.minimum, every));
    let bounds = game.extra.map(|x| sets.offer_bounds(&x)).unwrap_or_default();
    Figures { odds, rtp, patterns, hit, sd, extra, best_policy, bounds }
}

/// The largest house margin (basis points, 0 to 10000) at which one card
/// buying every extra ball offered at the least bet returns at least
/// `target`, and that return; by bisection on the extra balls' chain (the
/// return falls as the margin rises, up to the rounding of prices). None
/// when the paytable sells no extra balls; margin 0 when even that
/// returns less.
pub fn margin_for(game: &BingoGame, target: f64) -> Option<(u32, f64)> {
    let extra = game.extra?;
    let sets = CardSets::new(game);
    let rtp = |bp: u32| sets.extra(&ExtraBalls { margin_bp: bp, ..extra }, game.minimum).rtp();
    let (mut lo, mut hi) = (0u32, 10_000u32);
    let at_most = rtp(hi);
    if at_most >= target {
        return Some((hi, at_most));
    }
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if rtp(mid) >= target { lo = mid } else { hi = mid }
    }
    Some((lo, rtp(lo)))
}

fn pct(x: &BigRational) -> String {
    decimal(&(x * BigRational::from_integer(100.into())), 5)
}

fn ratio_pct(r: Option<(u128, u128)>) -> String {
    r.map_or("—".to_owned(), |(a, b)| format!("{:.5}", a as f64 / b as f64 * 100.0))
}

/// Every line under the floor (M-17) or over 100 %, named: the base game;
/// the extra balls' offer floor is checked at compile time (at least 80 %).
///
/// Each located in `src` (the file `file`) at the field that decides it
/// (issue 73): the base game's return at its patterns' pays, the extra
/// ball's at its `offer_floor_bp`.
pub fn refusals(file: &str, src: &str, game: &BingoGame, f: &Figures, floor: &Floor) -> Vec<String> {
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let pays = Path::default().field("patterns");
    let mut out = Vec::new();
    if &f.rtp < floor.value() {
        out.push(
            r.at(pays.clone(), format!("{}: the base game returns {}%, under the floor of {}% (M-17)", game.id, pct(&f.rtp), pct(floor.value()))).to_string(),
        );
    }
    // Issue 49: over 100 % is refused with its figure (certification.md
    // B-12), as every other kind refuses it.
    if f.rtp > BigRational::from_integer(1.into()) {
        out.push(r.at(pays, format!("{}: the base game returns {}%, over 100% (certification.md B-12)", game.id, pct(&f.rtp))).to_string());
    }
    if let Some(x) = game.extra {
        let offer = BigRational::new(BigInt::from(x.offer_floor_bp), BigInt::from(10_000));
        if &offer < floor.value() {
            out.push(
                r.at(
                    Path::default().field("extra").field("offer_floor_bp"),
                    format!("{}: an extra ball may return {}% of its price, under the floor of {}% (M-17)", game.id, pct(&offer), pct(floor.value())),
                )
                .to_string(),
            );
        }
    }
    out
}

/// The figures as `paytable check` prints them.
pub fn report(game: &BingoGame, f: &Figures) -> String {
    let v = game.variant;
    let mut out = format!(
        "{} ({}): {}-ball bingo, {} balls drawn, 1 to {} cards, {} to {} credits a card\n",
        game.name,
        game.id,
        v.name(),
        game.balls,
        game.most_cards,
        game.minimum,
        game.maximum
    );
    out.push_str(&format!("{:<34} {:>8} {:>16} {:>12}\n", "pattern (one card)", "pays", "probability %", "RTP share %"));
    for ((name, p, share), pat) in f.patterns.iter().zip(&game.patterns) {
        out.push_str(&format!("{name:<34} {:>8} {:>16} {:>12}\n", pat.pays, pct(p), pct(share)));
    }
    out.push_str(&format!("base game RTP, any number of cards: {}% (= {})\n", pct(&f.rtp), f.rtp));
    let hit = num_traits::ToPrimitive::to_f64(&f.hit).unwrap_or(0.0);
    for n in 1..=u32::from(game.most_cards) {
        let nf = f64::from(n);
        if n == 1 {
            out.push_str(&format!("1 card: hit frequency {}%, standard deviation {:.4} per credit bet\n", pct(&f.hit), f.sd));
        } else {
            // The cards share the draw: the union bound and the triangle
            // inequality bound the round's figures (docs/bingo.md).
            out.push_str(&format!(
                "{n} cards: hit frequency between {:.5}% and {:.5}%, standard deviation at most {:.4} per credit bet (bounds: the cards share the draw; `paytable simulate --lines {n}` measures them)\n",
                hit * 100.0,
                (hit * nf).min(1.0) * 100.0,
                f.sd
            ));
        }
    }
    if let (Some(x), Some(e)) = (game.extra, &f.extra) {
        out.push_str(&format!(
            "extra balls: up to {}, margin {:.2}%, offered only when returning at least {:.2}% of the price\n",
            x.most,
            f64::from(x.margin_bp) / 100.0,
            f64::from(x.offer_floor_bp) / 100.0
        ));
        out.push_str(&format!(
            "  one card at {} credit{}: offered in {:.4}% of rounds; buying every offer returns {:.5}% ({:.4} credits value for {:.4} paid a round)\n",
            game.minimum,
            if game.minimum == 1 { "" } else { "s" },
            e.offered * 100.0,
            e.rtp() * 100.0,
            e.value,
            e.price
        ));
        if let Some(b) = &f.best_policy {
            out.push_str(&format!(
                "  the player's best policy (buying only where the ball and those after it return the most): {:.5}% ({:.4} credits value for {:.4} paid a round)\n",
                b.rtp() * 100.0,
                b.value,
                b.price
            ));
        }
        out.push_str(&format!(
            "  one offer returns at most {}% and no purchase under {}% (floor {:.2}%)\n",
            ratio_pct(e.best),
            ratio_pct(e.worst),
            f64::from(x.offer_floor_bp) / 100.0
        ));
        // Proven for any number of cards and any policy (docs/bingo.md).
        out.push_str(&format!("  any policy, at any bet from {} to {} credits a card, every offer returning between:\n", game.minimum, game.maximum));
        for b in &f.bounds {
            let cards = if b.cards == 1 { "card" } else { "cards" };
            out.push_str(&format!("    {} {cards}: {}% and {}%\n", b.cards, ratio_pct(Some(b.least)), ratio_pct(Some(b.most))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(src: &str) -> Result<BingoGame, PaytableError> {
        compile_bingo("t.ron", src)
    }

    const GOOD: &str = r#"BingoPaytable(id: "b", name: "B", variant: Thirty, balls: 15, most_cards: 4,
        patterns: [(name: "linha", shape: Line(rows: true, columns: true, diagonals: true), pays: 1), (name: "bingo", shape: FullCard, pays: 50)],
        extra: Some((most: 3, margin_bp: 1000, offer_floor_bp: 8000)), minimum: 1, maximum: 10)"#;

    #[test]
    fn a_good_paytable_compiles_and_bad_values_are_named() {
        let g = compile(GOOD).unwrap();
        assert_eq!(g.patterns[0].masks.len(), 8, "3 rows, 3 columns, 2 diagonals");
        for (from, to, names) in [
            ("balls: 15", "balls: 29", "balls"),
            ("most_cards: 4", "most_cards: 5", "most_cards"),
            ("pays: 50", "pays: 0", "pays"),
            ("offer_floor_bp: 8000", "offer_floor_bp: 7000", "offer_floor_bp"),
            ("variant: Thirty", "variant: Ninety", "only its rows are lines"),
            ("minimum: 1", "minimum: 0", "minimum"),
        ] {
            let e = compile(&GOOD.replace(from, to)).unwrap_err().to_string();
            assert!(e.contains(names), "{to}: {e}");
        }
        let e = compile(&GOOD.replace("FullCard", "Drawn([\"X.X\", \".X.\"])")).unwrap_err().to_string();
        assert!(e.contains("2 rows"), "{e}");
        let e = compile(&GOOD.replace("most_cards: 4,", "most_cards: 4, colour: 1,")).unwrap_err().to_string();
        assert!(e.contains("colour"), "{e}");
    }

    /// Issue 49, defect 1: pays that overflowed the exact math (exit 101
    /// in `check`, `par` and `compile`) are refused at their own line, as
    /// is a bet per card beyond the bound.
    #[test]
    fn pays_beyond_the_bound_are_refused_at_their_line() {
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/paytables/bingo-75.ron")).unwrap();
        let line = |text: &str, what: &str| text.lines().position(|l| l.contains(what)).unwrap() + 1;
        let huge = src.replace("balls: 42", "balls: 30").replace("FullCard, pays: 3000", "FullCard, pays: 18446744073709551615");
        let e = compile_bingo("b.ron", &huge).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "b.ron:{}: patterns[4].pays: a pay of 18446744073709551615 credits per credit bet: at most 1000000000",
                line(&huge, "FullCard")
            )),
            "{e}"
        );
        let both = src.replace("pays: 1)", "pays: 1000000000000)").replace("pays: 3000", "pays: 1000000000000");
        let e = compile_bingo("b.ron", &both).unwrap_err().to_string();
        assert!(e.contains("patterns[0].pays: a pay of 1000000000000") && e.contains("patterns[4].pays: a pay of 1000000000000"), "{e}");
        let e = compile_bingo("b.ron", &src.replace("maximum: 10", "maximum: 18446744073709551615")).unwrap_err().to_string();
        assert!(e.contains("maximum: a bet per card of 18446744073709551615 credits: at most 1000000"), "{e}");
        // At the bound the exact math holds (no overflow) on the largest drum.
        let g = compile_bingo("b.ron", &src.replace("pays: 3000", "pays: 1000000000")).unwrap();
        assert!(figures(&g).rtp > BigRational::from_integer(1.into()));
    }

    /// Issue 49, defect 3: a prize no draw can pay is refused at its line,
    /// naming why: a full card paying less than the line it contains, the
    /// same pattern twice (the lower pay never the highest), a pattern
    /// needing more numbers than the drum gives.
    #[test]
    fn a_prize_that_can_never_pay_is_refused_at_its_line() {
        let under = GOOD.replace("pays: 1)", "pays: 60)");
        let e = compile(&under).unwrap_err().to_string();
        assert!(e.contains("t.ron:2: patterns[1].pays: \"bingo\" can never be paid: completing it completes \"linha\" too, which pays 60"), "{e}");
        let twice = GOOD.replace("pays: 50)]", "pays: 50), (name: \"linha dupla\", shape: Line(rows: true, columns: true, diagonals: true), pays: 2)]");
        let e = compile(&twice).unwrap_err().to_string();
        assert!(e.contains("patterns[0].pays: \"linha\" can never be paid: completing it completes \"linha dupla\" too, which pays 2"), "{e}");
        assert!(!e.contains("patterns[2]"), "the higher of the two pays: {e}");
        let short = GOOD.replace("balls: 15", "balls: 5");
        let e = compile(&short).unwrap_err().to_string();
        assert!(e.contains("\"bingo\" can never be paid: it needs 9 numbers and at most 8 are drawn"), "{e}");
        // The same pay listed twice: the first is paid, the second never.
        let equal = GOOD.replace("pays: 50)]", "pays: 50), (name: \"cheio\", shape: FullCard, pays: 50)]");
        let e = compile(&equal).unwrap_err().to_string();
        assert!(e.contains("patterns[2].pays: \"cheio\" can never be paid: completing it completes \"bingo\" too"), "{e}");
    }

    /// Issue 49, defect 2: a table returning more than 100 % is refused
    /// with its figure (certification.md B-12): the issue's 75-ball line
    /// paying 3 at 42 balls.
    #[test]
    fn a_table_over_100_percent_is_refused_with_its_figure() {
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/paytables/bingo-75.ron")).unwrap();
        let start = src.find("patterns: [").unwrap();
        let end = start + src[start..].find("],").unwrap() + 2;
        let line_only =
            format!("{}patterns: [(name: \"linha\", shape: Line(rows: true, columns: true, diagonals: true), pays: 3)],{}", &src[..start], &src[end..]);
        let g = compile_bingo("b.ron", &line_only).unwrap();
        let f = figures(&g);
        let r = refusals("b.ron", &line_only, &g, &f, &Floor::legal_minimum());
        // Issue 73: located at the patterns' line, as every refusal is.
        let line = 1 + line_only.lines().position(|l| l.contains("patterns: [")).unwrap();
        assert!(
            r.iter().any(|r| r.starts_with(&format!("b.ron:{line}: patterns: "))
                && r.contains("the base game returns 156.90")
                && r.ends_with("over 100% (certification.md B-12)")),
            "{} {r:?}",
            pct(&f.rtp)
        );
        let sample = compile_bingo("b.ron", &src).unwrap();
        assert!(refusals("b.ron", &src, &sample, &figures(&sample), &Floor::legal_minimum()).is_empty());
    }

    /// B-80: 30-ball bingo may call 30 distinct symbols in place of the
    /// numbers; fewer, repeated, or on another variant is refused by name.
    #[test]
    fn thirty_ball_symbols_replace_the_numbers() {
        let names: Vec<String> = (1..=30).map(|k| format!("\"s{k}\"")).collect();
        let with = |list: &str| GOOD.replace("maximum: 10)", &format!("maximum: 10, symbols: [{list}])"));
        let g = compile(&with(&names.join(", "))).unwrap();
        assert_eq!((g.call(1), g.call(30)), ("s1".to_owned(), "s30".to_owned()));
        let e = compile(&with(&names[..29].join(", "))).unwrap_err().to_string();
        assert!(e.contains("29 symbols") && e.contains("B-80"), "{e}");
        let mut twice = names.clone();
        twice[29] = twice[0].clone();
        assert!(compile(&with(&twice.join(", "))).unwrap_err().to_string().contains("29 distinct"));
        let e = compile(&with(&names.join(", ")).replace("variant: Thirty", "variant: SeventyFive").replace("balls: 15", "balls: 40")).unwrap_err().to_string();
        assert!(e.contains("30-ball bingo only"), "{e}");
    }

    /// 30-ball, 15 balls, line 1 and bingo 50, by hand: P(full card) =
    /// C(21, 6)/C(30, 15); the RTP is Σ pays × P.
    #[test]
    fn the_figures_are_exact_fractions() {
        let g = compile(GOOD).unwrap();
        let f = figures(&g);
        let full = frac(game_core::bingo::odds::choose(21, 6), game_core::bingo::odds::choose(30, 15));
        assert_eq!(f.patterns[1].1, full);
        assert_eq!(f.rtp, &f.patterns[0].2 + &f.patterns[1].2);
        assert!(report(&g, &f).contains("base game RTP"));
    }

    /// The margin found for a target gives at least the target, and one
    /// basis point more gives less (or the search hit an end).
    #[test]
    fn the_margin_for_a_target_return_is_the_largest_that_reaches_it() {
        use game_core::bingo::extra::extra_figures;
        let mut g = compile(GOOD).unwrap();
        g.minimum = 10;
        let (bp, rtp) = margin_for(&g, 0.85).unwrap();
        let x = g.extra.unwrap();
        let at = |m: u32| extra_figures(&g, &ExtraBalls { margin_bp: m, ..x }, 10).rtp();
        assert!(rtp >= 0.85 && (at(bp) - rtp).abs() < 1e-12, "{bp}: {rtp}");
        assert!(bp == 10_000 || at(bp + 1) < 0.85, "{bp}");
    }
}

/// A simulation of `cards` cards a round at the least bet, through the
/// production deal and round on the core's generator: the base game, and
/// the extra balls bought whenever offered (or never).
#[derive(Clone, Debug, PartialEq)]
pub struct BingoSim {
    /// The base game, per credit bet.
    pub base: crate::simulate::SimResult,
    /// Σ of the extra balls' gains and prices per round, and the sums of
    /// squares and products for the ratio's interval.
    pub extra_gain: f64,
    pub extra_price: f64,
    pub gg: f64,
    pub pp: f64,
    pub gp: f64,
}

impl BingoSim {
    fn empty(cards: u8) -> BingoSim {
        let base = crate::simulate::SimResult { games: 0, lines: u32::from(cards), total_win: 0, sum_sq: 0, hits: 0 };
        BingoSim { base, extra_gain: 0.0, extra_price: 0.0, gg: 0.0, pp: 0.0, gp: 0.0 }
    }

    /// The extra balls' measured return, and its 99 % interval (the
    /// ratio's delta method).
    pub fn extra_rtp(&self) -> Option<(f64, f64, f64)> {
        if self.extra_price <= 0.0 {
            return None;
        }
        let n = self.base.games as f64;
        let r = self.extra_gain / self.extra_price;
        let mean_p = self.extra_price / n;
        let var = (self.gg - 2.0 * r * self.gp + r * r * self.pp) / n;
        let half = 2.575_829_3 * (var / n).max(0.0).sqrt() / mean_p;
        Some((r, r - half, r + half))
    }
}

pub fn simulate(game: &BingoGame, cards: u8, buy: bool, rounds: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> BingoSim {
    let threads = threads.max(1) as u64;
    let parts: Vec<BingoSim> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let n = rounds / threads + u64::from(t < rounds % threads);
                scope.spawn(move || {
                    let mut rng = meters::rng::StreamRng::from_seed(seed.wrapping_add(t.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
                    let mut sim = BingoSim::empty(cards);
                    for i in 0..n {
                        let (set, balls) = game.deal(usize::from(cards), &mut rng);
                        let mut r = game_core::bingo::Round::new(game, 1, set, balls);
                        let base = r.win();
                        sim.base.games += 1;
                        sim.base.total_win += u128::from(base);
                        sim.base.sum_sq += u128::from(base) * u128::from(base);
                        sim.base.hits += u64::from(base > 0);
                        let mut paid = 0u64;
                        while buy && r.offer().is_some() {
                            match r.buy() {
                                Ok(price) => paid += price,
                                Err(_) => break,
                            }
                        }
                        let (g, p) = ((r.win() - base) as f64, paid as f64);
                        sim.extra_gain += g;
                        sim.extra_price += p;
                        sim.gg += g * g;
                        sim.pp += p * p;
                        sim.gp += g * p;
                        if t == 0 && i % 65_536 == 0 {
                            progress(i * threads);
                        }
                    }
                    sim
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut all = BingoSim::empty(cards);
    for p in parts {
        all.base.merge(&p.base);
        all.extra_gain += p.extra_gain;
        all.extra_price += p.extra_price;
        all.gg += p.gg;
        all.pp += p.pp;
        all.gp += p.gp;
    }
    all
}
