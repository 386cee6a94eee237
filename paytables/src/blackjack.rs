//! Blackjack (`BlackjackPaytable`): the rules (game-core's [`Rules`], every
//! one named, the seed's by default in the samples), the table minimum
//! and the maximum as a multiple of it (BJ 8: at most 30).
//!
//! The figures are game-core's analysis ([`game_core::blackjack::odds`]):
//! the return under optimal composition-dependent play, enumerated over
//! the shoe as dealt, the one the cabinet's help shows. It is computed in
//! floating point (docs/blackjack.md says what is exact and what the
//! split approximation is); the artifact records it to nine decimals.
//! Three lines are held to the floor (M-17): the game with its bonus, the
//! game without the bonus, and insurance (even money included).
//!
//! ```ron
//! BlackjackPaytable(id: "blackjack", name: "Blackjack", minimum: 2, maximum_ratio: 30, rules: (decks: 6, …))
//! ```

use game_core::blackjack::odds::{Figures, Strategy, analyse};
use game_core::blackjack::{Action, BlackjackGame, Round, Rules};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::compile::Problems;
use crate::error::{PaytableError, Reporter};
use crate::floor::Floor;
use crate::locate::Path;
use crate::poker_compile::{check_name, parse};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlackjackPaytable {
    pub id: String,
    pub name: String,
    /// The table minimum in credits: every bet a multiple of it (BJ 17).
    pub minimum: u64,
    /// The maximum as a multiple of the minimum (BJ 8: at most 30).
    pub maximum_ratio: u64,
    pub rules: Rules,
}

pub fn compile_blackjack(file: &str, src: &str) -> Result<BlackjackGame, PaytableError> {
    let p: BlackjackPaytable = parse(file, src)?;
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let mut e = Problems::new(&r);
    check_name(&mut e, &p.id, &p.name);
    // A rule refused is named at its own field's line (issue 49); the
    // table minimum is checked against a step only a dealable payout has.
    if let Err(problem) = p.rules.check() {
        e.at(Path::default().field("rules").field(problem.field()), problem.to_string());
    }
    if p.minimum == 0 {
        e.at(Path::default().field("minimum"), "a table minimum of 0 credits: the least bet is at least 1 credit");
    } else if let Some(step) = p.rules.bet_step()
        && !p.minimum.is_multiple_of(step)
    {
        e.at(
            Path::default().field("minimum"),
            format!(
                "a table minimum of {} credits: it must be a multiple of {step} so that a blackjack's {}:{} and the halves of surrender and insurance pay whole credits",
                p.minimum,
                p.rules.blackjack_pays.reduced().win,
                p.rules.blackjack_pays.reduced().per
            ),
        );
    }
    if !(1..=30).contains(&p.maximum_ratio) {
        e.at(Path::default().field("maximum_ratio"), format!("a maximum of {} times the minimum: BJ 8 allows 1 to 30", p.maximum_ratio));
    }
    e.result(|| BlackjackGame { id: p.id.clone(), name: p.name.clone(), rules: p.rules, minimum: p.minimum, maximum_ratio: p.maximum_ratio })
}

/// A figure as the artifact records it: nine decimals, rounded down (the
/// enumeration's rounding error is below 10^-12, so the record never
/// claims more than the game returns, docs/blackjack.md).
pub fn fraction(x: f64) -> BigRational {
    let scaled = (x * 1e9).floor() as i64;
    BigRational::new(BigInt::from(scaled), BigInt::from(1_000_000_000i64))
}

/// The lines `paytable check` prints and the floor holds: (name, RTP).
pub fn lines(rules: &Rules, f: &Figures) -> Vec<(String, f64)> {
    let even_money = rules.even_money;
    let mut out = vec![
        ("jogo com o bónus / game with its bonus (optimal play)".to_owned(), f.rtp),
        ("jogo sem o bónus / game without the bonus".to_owned(), f.rtp - f.bonus),
    ];
    if let Some(i) = f.insurance {
        out.push((if even_money { "seguro e pagamento igual / insurance and even money" } else { "seguro / insurance" }.to_owned(), i));
    }
    out
}

/// Every line under the floor (M-17) or over 100 % (certification.md
/// B-12, issue 49: a table the house loses on is not a game), named with
/// its figure and located in `src` (the file `file`) at the field that
/// decides it (issue 73): a game's return at the blackjack's payout,
/// insurance's at `rules.insurance`.
pub fn refusals(file: &str, src: &str, game: &BlackjackGame, f: &Figures, floor: &Floor) -> Vec<String> {
    let r = Reporter { file, src: crate::compile::without_bom(src) };
    let floor_f = num_traits::ToPrimitive::to_f64(floor.value()).unwrap_or(1.0);
    let mut out = Vec::new();
    // `lines`: the game with and without its bonus, then insurance.
    for (k, (name, rtp)) in lines(&game.rules, f).into_iter().enumerate() {
        let at = Path::default().field("rules").field(if k >= 2 { "insurance" } else { "blackjack_pays" });
        if rtp < floor_f {
            out.push(
                r.at(at.clone(), format!("{}: {name} returns {:.4}%, under the floor of {:.4}% (M-17)", game.id, rtp * 100.0, floor_f * 100.0)).to_string(),
            );
        }
        if rtp > 1.0 {
            out.push(r.at(at, format!("{}: {name} returns {:.5}%, over 100% (certification.md B-12)", game.id, rtp * 100.0)).to_string());
        }
    }
    out
}

const UP: [&str; 10] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"];

/// The figures as `paytable check` prints them.
pub fn report(game: &BlackjackGame, f: &Figures) -> String {
    let mut out = format!("{} ({}): {}\n", game.name, game.id, rules_text(&game.rules));
    out.push_str(&format!("{:<56} {:>11}\n", "line", "RTP %"));
    for (name, rtp) in lines(&game.rules, f) {
        out.push_str(&format!("{name:<56} {:>11.5}\n", rtp * 100.0));
    }
    out.push_str(&format!("{:<56} {:>11.5}\n", "of which the 6-7-8 / 7-7-7 bonus", f.bonus * 100.0));
    out.push_str("player's expectation by up card (%):");
    for (up, ev) in f.by_up_card.iter().enumerate().skip(1).chain(f.by_up_card.iter().enumerate().take(1)) {
        out.push_str(&format!(" {}:{:+.3}", UP[up], ev * 100.0));
    }
    out.push('\n');
    out
}

/// The rules in one line.
pub fn rules_text(r: &Rules) -> String {
    use game_core::blackjack::rules::{DealerBlackjack, DoubleOn, HoleCard};
    let hole = match r.hole_card {
        HoleCard::Peek => "peek",
        HoleCard::NoPeek(DealerBlackjack::TakesAll) => "no hole card, blackjack takes all",
        HoleCard::NoPeek(DealerBlackjack::OriginalBetOnly) => "no hole card, original bet only",
    };
    let double = match r.double_on {
        DoubleOn::AnyTwo => "double any two",
        DoubleOn::NineToEleven if r.double_soft_as_hard => "double 9-11 (A-8, A-9 as hard)",
        DoubleOn::NineToEleven => "double 9-11",
        DoubleOn::TenToEleven => "double 10-11",
    };
    let split = r.split_hands.map_or("resplit without limit".to_owned(), |n| format!("split to {n} hands"));
    let surrender = match r.surrender {
        None => "no surrender".to_owned(),
        Some(s) => format!("{} surrender{}", if s.early { "early" } else { "late" }, if s.against_ace { "" } else { " (not against an ace)" }),
    };
    format!(
        "{} deck{}, {}, {hole}, {double}{}, {split}{}{}, {surrender}, blackjack {}:{}{}{}{}",
        r.decks,
        if r.decks == 1 { "" } else { "s" },
        if r.dealer_hits_soft_17 { "H17" } else { "S17" },
        if r.double_after_split { ", DAS" } else { "" },
        if r.resplit_aces { ", resplit aces" } else { "" },
        if r.hit_split_aces { ", hit split aces" } else { "" },
        r.blackjack_pays.reduced().win,
        r.blackjack_pays.reduced().per,
        if r.stand_from > 0 { format!(", stand from {}", r.stand_from) } else { String::new() },
        if r.bonus_678_777 > 0 { format!(", 6-7-8/7-7-7 bonus {}x", r.bonus_678_777) } else { String::new() },
        if r.insurance && !r.even_money { ", insurance but no even money" } else { "" },
    )
}

fn code(a: Action, portuguese: bool) -> &'static str {
    match (a, portuguese) {
        (Action::Hit, false) => "H",
        (Action::Stand, false) => "S",
        (Action::Double, false) => "D",
        (Action::Split, false) => "P",
        (Action::Surrender, false) => "R",
        (Action::Hit, true) => "P",
        (Action::Stand, true) => "F",
        (Action::Double, true) => "D",
        (Action::Split, true) => "X",
        (Action::Surrender, true) => "R",
        (_, _) => "E",
    }
}

/// `paytable strategy FILE`: the optimal two-card decisions (hard totals,
/// soft hands, pairs) against every up card, in Portuguese then English.
/// A hard total shows its total-dependent decision (the best for the
/// total's hands together, weighted by their chances: the basic strategy
/// a player is taught); a `*` marks a total some of whose hands decide
/// otherwise at their best, each listed beneath as a composition-dependent
/// exception (issue 49: hard 12 stands against a 4, T-2 hits).
pub fn strategy_text(game: &BlackjackGame, s: &Strategy) -> String {
    let mut out = String::new();
    for pt in [true, false] {
        out.push_str(&if pt {
            format!("{} — estratégia ótima (P pedir, F ficar, D duplicar, X desdobrar, R desistir)\n", game.name)
        } else {
            format!("{} — optimal strategy (H hit, S stand, D double, P split, R surrender)\n", game.name)
        });
        let header = |title: &str| format!("{title:<8}") + &(1..10).chain(0..1).map(|u| format!("{:>3}", UP[u])).collect::<String>() + "\n";
        out.push_str(&header(if pt { "duros" } else { "hard" }));
        let mut notes = Vec::new();
        for t in 5..=20u8 {
            let hands: Vec<(u8, u8)> = (1..10u8).flat_map(|a| (a..10).map(move |b| (a, b))).filter(|&(a, b)| a != b && a + b + 2 == t).collect();
            if hands.is_empty() {
                continue;
            }
            out.push_str(&format!("{t:<8}"));
            for up in (1..10u8).chain(0..1) {
                let acts: Vec<Action> = hands.iter().map(|&(a, b)| s.first[&(up, a, b, false)]).collect();
                let main = s.hard_totals.get(&(up, t)).copied().unwrap_or(acts[0]);
                let mixed = acts.iter().any(|&x| x != main);
                out.push_str(&format!("{:>3}", format!("{}{}", code(main, pt), if mixed { "*" } else { "" })));
                if mixed {
                    for (&(a, b), &x) in hands.iter().zip(&acts).filter(|(_, x)| **x != main) {
                        notes.push(format!("{}-{} v {}: {}", UP[usize::from(a)], UP[usize::from(b)], UP[usize::from(up)], x.name(pt)));
                    }
                }
            }
            out.push('\n');
        }
        out.push_str(&header(if pt { "macios" } else { "soft" }));
        for b in 1..9u8 {
            out.push_str(&format!("{:<8}", format!("A-{}", UP[usize::from(b)])));
            for up in (1..10u8).chain(0..1) {
                out.push_str(&format!("{:>3}", code(s.first[&(up, 0, b, false)], pt)));
            }
            out.push('\n');
        }
        out.push_str(&header(if pt { "pares" } else { "pairs" }));
        for p in (1..10u8).chain(0..1) {
            out.push_str(&format!("{:<8}", format!("{}-{}", UP[usize::from(p)], UP[usize::from(p)])));
            for up in (1..10u8).chain(0..1) {
                out.push_str(&format!("{:>3}", code(s.first[&(up, p, p, false)], pt)));
            }
            out.push('\n');
        }
        if game.rules.bonus_678_777 > 0 {
            for (a, b) in [(5u8, 6u8), (5, 7), (6, 7)] {
                for up in (1..10u8).chain(0..1) {
                    let (off, on) = (s.first[&(up, a, b, false)], s.first[&(up, a, b, true)]);
                    if off != on {
                        notes.push(format!(
                            "{}-{} {} v {}: {}",
                            UP[usize::from(a)],
                            UP[usize::from(b)],
                            if pt { "do mesmo naipe" } else { "suited" },
                            UP[usize::from(up)],
                            on.name(pt)
                        ));
                    }
                }
            }
        }
        if !notes.is_empty() {
            out.push_str(if pt { "exceções pela composição:\n" } else { "composition-dependent exceptions:\n" });
            for n in notes {
                out.push_str(&format!("  {n}\n"));
            }
        }
        out.push('\n');
    }
    out
}

/// A simulation's sums, in units of the original bet.
#[derive(Clone, Debug, Default)]
pub struct BlackjackSim {
    pub hands: u64,
    /// The original bet of every hand, in units.
    pub bet: u64,
    /// Σ (returned − staked) and Σ of its square, in units.
    pub net: i128,
    pub net_sq: u128,
    /// Σ bonus paid, in units.
    pub bonus: u64,
}

impl BlackjackSim {
    /// The measured return per unit of the original bet.
    pub fn rtp(&self) -> f64 {
        1.0 + self.net as f64 / (self.hands as f64 * self.bet as f64)
    }

    /// The bonus's measured share of the return.
    pub fn bonus_rtp(&self) -> f64 {
        self.bonus as f64 / (self.hands as f64 * self.bet as f64)
    }

    /// A hand's standard deviation, in original bets.
    pub fn standard_deviation(&self) -> f64 {
        let n = self.hands as f64;
        let mean = self.net as f64 / n;
        ((self.net_sq as f64 / n - mean * mean) * n / (n - 1.0).max(1.0)).max(0.0).sqrt() / self.bet as f64
    }

    pub fn ci99(&self) -> (f64, f64) {
        let half = 2.575_829_3 * self.standard_deviation() / (self.hands as f64).sqrt();
        (self.rtp() - half, self.rtp() + half)
    }
}

/// The cards a simulated hand deals first: the production shuffle's prefix
/// (`draw_without_replacement` is a partial Fisher–Yates, so the first 40
/// cards of the whole shoe's shuffle from the same stream). A hand that
/// needs more is dealt again from the whole shuffle of the same stream.
const PREFIX: usize = 40;

/// Play `hands` rounds of the shipped strategy through the production
/// round ([`Round`]) on the core's generator, at the table's bet step.
pub fn simulate(game: &BlackjackGame, s: &Strategy, hands: u64, seed: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> BlackjackSim {
    use meters::GameRng;
    let n = game.shoe_size();
    let cards =
        |idx: Vec<usize>| idx.into_iter().map(|i| game_core::cards::Card::from_index((i % 52) as u8).unwrap_or(game_core::cards::Card::JOKER)).collect();
    // A compiled table's rules are checked: its step exists (1 if not).
    let bet = game.rules.bet_step().unwrap_or(1);
    let parts = crate::simulate::across_threads(hands, threads, |t, share| {
        let mut rng = meters::StreamRng::from_seed(seed.wrapping_add(t));
        let mut sum = BlackjackSim { bet, ..BlackjackSim::default() };
        for i in 0..share {
            let saved = rng.clone();
            let mut round = play(game, s, bet, cards(rng.draw_without_replacement(n, PREFIX)));
            if round.void {
                rng = saved;
                round = play(game, s, bet, cards(rng.draw_without_replacement(n, n)));
            }
            let st = round.settlement().unwrap_or(game_core::blackjack::Settlement { hands: Vec::new(), insurance: None, bonus: 0 });
            let net = st.returned() as i128 - st.staked() as i128;
            sum.hands += 1;
            sum.net += net;
            sum.net_sq += (net * net) as u128;
            sum.bonus += st.bonus;
            if (i + 1) % 100_000 == 0 {
                progress(100_000);
            }
        }
        sum
    });
    let mut total = BlackjackSim { bet, ..BlackjackSim::default() };
    for p in parts {
        total.hands += p.hands;
        total.net += p.net;
        total.net_sq += p.net_sq;
        total.bonus += p.bonus;
    }
    total
}

fn play(game: &BlackjackGame, s: &Strategy, bet: u64, shoe: Vec<game_core::cards::Card>) -> Round {
    let mut round = Round::deal(game.rules, bet, shoe);
    while round.phase != game_core::blackjack::Phase::Done {
        if round.act(s.decide(&round)).is_err() {
            break;
        }
    }
    round
}

/// The figures of a compiled game.
pub fn figures(game: &BlackjackGame) -> Figures {
    analyse(&game.rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> String {
        std::fs::read_to_string(format!("{}/../assets/paytables/{name}.ron", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn a_paytable_off_the_rules_is_refused_by_name() {
        let good = sample("blackjack");
        let game = compile_blackjack("blackjack.ron", &good).unwrap();
        assert_eq!(game.rules, Rules::seed(), "the sample is the seed's rules exactly");
        let bad = good.replace("decks: 6", "decks: 9").replace("minimum: 2", "minimum: 3").replace("maximum_ratio: 30", "maximum_ratio: 40");
        let e = compile_blackjack("b.ron", &bad).unwrap_err().to_string();
        assert!(e.contains("9 decks: a shoe holds 1 to 8 decks"), "{e}");
        assert!(e.contains("a table minimum of 3 credits: it must be a multiple of 2"), "{e}");
        assert!(e.contains("a maximum of 40 times the minimum: BJ 8 allows 1 to 30"), "{e}");
        let unknown = good.replace("insurance: true", "insurance: true, peek: true");
        assert!(compile_blackjack("b.ron", &unknown).is_err(), "an unknown rule is refused, never ignored");
        let classic = compile_blackjack("c.ron", &sample("blackjack-classico")).unwrap();
        assert!(classic.rules.peeks() && classic.rules.split_hands == Some(4));
    }

    /// Issue 49, defects 1 and 4: payouts whose terms overflowed the
    /// check or the bet step (exit 101 before) are refusals at the line of
    /// `blackjack_pays`, the field's own; a zero minimum is named as such,
    /// never "a multiple of 0".
    #[test]
    fn extreme_payouts_and_a_zero_minimum_are_refused_at_their_lines() {
        let good = sample("blackjack");
        let line = |field: &str| good.lines().position(|l| l.trim_start().starts_with(field)).unwrap() + 1;
        for (pays, named) in [
            ("(win: 18446744073709551615, per: 18446744073709551615)", None),
            ("(win: 1, per: 9223372036854775809)", Some("a blackjack paying 1:9223372036854775809 is not a payout")),
            ("(win: 18446744073709551615, per: 0)", Some("a blackjack paying 18446744073709551615:0 is not a payout")),
            ("(win: 151, per: 101)", Some("a blackjack paying 151:101 is not a payout")),
        ] {
            let bad = good.replace("blackjack_pays: (win: 3, per: 2)", &format!("blackjack_pays: {pays}"));
            match (compile_blackjack("b.ron", &bad), named) {
                (Ok(game), None) => assert_eq!(game.rules.bet_step(), Some(2), "{pays}: 1:1 in large terms is even money"),
                (Err(e), Some(named)) => {
                    let e = e.to_string();
                    assert!(e.contains(&format!("b.ron:{}: rules.blackjack_pays: {named}", line("blackjack_pays"))), "{e}");
                    assert!(!e.contains("multiple of"), "no step of a refused payout: {e}");
                }
                (other, _) => panic!("{pays}: {other:?}"),
            }
        }
        let e = compile_blackjack("b.ron", &good.replace("decks: 6", "decks: 0")).unwrap_err().to_string();
        assert!(e.contains(&format!("b.ron:{}: rules.decks: 0 decks", line("decks: 6"))), "{e}");
        let e = compile_blackjack("b.ron", &good.replace("minimum: 2,", "minimum: 0,")).unwrap_err().to_string();
        assert!(e.contains("a table minimum of 0 credits: the least bet is at least 1 credit") && !e.contains("multiple of 0"), "{e}");
        let single = compile_blackjack("b.ron", &good.replace("decks: 6", "decks: 1")).unwrap();
        assert!(rules_text(&single.rules).starts_with("1 deck, S17"), "{}", rules_text(&single.rules));
    }

    /// Issue 49, defect 2: a table that returns more than 100 % under
    /// optimal play is refused with its figure (certification.md B-12),
    /// as reels and poker are: the issue's tables, the classic game (6D
    /// S17 peek DAS, 3:2) dealt from a single deck or paying 2:1, at the
    /// issue's figures, and the seed's game with a 100x bonus.
    #[test]
    fn a_table_over_100_percent_is_refused_with_its_figure() {
        for (name, edit, figure) in [
            ("blackjack-classico", ("decks: 6", "decks: 1"), "100.18444"),
            ("blackjack-classico", ("blackjack_pays: (win: 3, per: 2)", "blackjack_pays: (win: 2, per: 1)"), "101.86"),
            // The issue's 100x-bonus table is not named; the seed's game
            // with a 100x bonus is refused the same way.
            ("blackjack", ("bonus_678_777: 3", "bonus_678_777: 100"), "returns 10"),
        ] {
            let src = sample(name).replace(edit.0, edit.1);
            let game = compile_blackjack("b.ron", &src).unwrap();
            let r = refusals("b.ron", &src, &game, &figures(&game), &Floor::legal_minimum());
            // Issue 73: located at the payout's line, as every refusal is.
            let line = 1 + src.lines().position(|l| l.contains("blackjack_pays")).unwrap();
            assert!(
                r.iter().any(|r| r.starts_with(&format!("b.ron:{line}: rules.blackjack_pays: "))
                    && r.contains("game with its bonus (optimal play) returns")
                    && r.contains(figure)
                    && r.ends_with("over 100% (certification.md B-12)")),
                "{edit:?}: {r:?}"
            );
        }
    }

    /// Issue 49: even money withheld is a rule of the file, named in the
    /// rules' text and in the insurance line; at 3:2 it changes nothing.
    #[test]
    fn even_money_is_a_parameter_named_in_the_figures() {
        let classic = compile_blackjack("c.ron", &sample("blackjack-classico")).unwrap();
        let src = sample("blackjack-classico").replace("insurance: true,", "insurance: true,\n        even_money: false,");
        let game = compile_blackjack("c.ron", &src).unwrap();
        assert!(classic.rules.even_money && !game.rules.even_money);
        assert!(rules_text(&game.rules).ends_with(", insurance but no even money"), "{}", rules_text(&game.rules));
        let f = figures(&game);
        assert_eq!(lines(&game.rules, &f)[2].0, "seguro / insurance");
        assert_eq!(lines(&classic.rules, &figures(&classic))[2].0, "seguro e pagamento igual / insurance and even money");
        assert_eq!(f.rtp, figures(&classic).rtp);
    }

    /// Every line held to the floor: a 6:5 game under a raised floor is
    /// refused by its lines, named.
    #[test]
    fn the_floor_holds_each_line() {
        let src = sample("blackjack");
        let game = compile_blackjack("blackjack.ron", &src).unwrap();
        let f = figures(&game);
        assert_eq!(lines(&game.rules, &f).len(), 3);
        assert!(refusals("blackjack.ron", &src, &game, &f, &Floor::legal_minimum()).is_empty());
        let high = Floor::from_percent("99.75").unwrap();
        let r = refusals("blackjack.ron", &src, &game, &f, &high);
        assert_eq!(r.len(), 2, "{r:?}");
        let line = |field: &str| 1 + src.lines().position(|l| l.trim_start().starts_with(field)).unwrap();
        assert!(
            r[0].contains("game without the bonus returns 99.69")
                && r[0].starts_with(&format!("blackjack.ron:{}: rules.blackjack_pays", line("blackjack_pays"))),
            "{r:?}"
        );
        assert!(r[1].contains("insurance") && r[1].starts_with(&format!("blackjack.ron:{}: rules.insurance", line("insurance"))), "{r:?}");
        assert_eq!(fraction(0.75), BigRational::new(3.into(), 4.into()));
        assert_eq!(fraction(0.9999999999), BigRational::new(999_999_999.into(), 1_000_000_000.into()), "rounded down, never up");
    }

    /// The shipped strategy through the production round: 400,000 hands
    /// of the seed game fall inside the 99% interval of the exact figure,
    /// and its bonus is paid about as often as the analysis says.
    #[test]
    fn the_strategy_through_the_production_round_returns_the_exact_figure() {
        let game = compile_blackjack("blackjack.ron", &sample("blackjack")).unwrap();
        let f = figures(&game);
        let r = simulate(&game, &f.strategy, 400_000, 7, 2, &|_| {});
        let (lo, hi) = r.ci99();
        assert!(lo <= f.rtp && f.rtp <= hi, "exact {} outside [{lo}, {hi}]", f.rtp);
        assert!((r.bonus_rtp() - f.bonus).abs() < 0.0006, "bonus {} against {}", r.bonus_rtp(), f.bonus);
        assert!((1.0..1.3).contains(&r.standard_deviation()), "sd {}", r.standard_deviation());
    }
}
