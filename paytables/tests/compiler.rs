//! The paytable compiler: errors that name file and line, the floor and
//! odds refusals, artifacts and the approved manifest, and the simulation
//! cross-check of both samples (issue 3).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use game_core::reels::{Bet, FastReels, StopTables};
use meters::StreamRng;
use num_traits::ToPrimitive;
use paytables::artifact::{self, Manifest, ManifestEntry};
use paytables::check::{Floor, Refusal, check};
use paytables::{PaytableError, compile};

fn sample(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(file)
}

fn classic_src() -> String {
    std::fs::read_to_string(sample("classic-sevens.ron")).unwrap()
}

fn line_of(src: &str, needle: &str) -> usize {
    src.lines().position(|l| l.contains(needle)).unwrap() + 1
}

fn invalid(src: &str) -> (usize, String) {
    match compile("bad.ron", src) {
        Err(PaytableError::Invalid { file, line, path, problem }) => {
            assert_eq!(file, "bad.ron");
            (line, format!("{path}: {problem}"))
        }
        other => panic!("expected a validation error, got {other:?}"),
    }
}

/// Issue 18: every problem of a file is reported at once, each with its
/// line, not only the first.
#[test]
fn every_problem_of_a_file_is_reported_at_once_with_its_line() {
    let src = classic_src()
        .replacen(r#"["7", "-", "B1", "-", "B2""#, r#"["7", "-", "B1", "-", "XX""#, 1)
        .replace("lines: [[0, 0, 0]],", "lines: [\n        [0, 1, 0],\n    ],")
        .replace(r#"(symbol: "B1", count: 3, pays: 12),"#, r#"(symbol: "B1", count: 3, pays: 0),"#)
        .replace("credits_per_line: [1, 2, 3]", "credits_per_line: [1, 0, 3]");
    let err = compile("bad.ron", &src).unwrap_err();
    let all: Vec<(usize, String)> = err
        .problems()
        .into_iter()
        .map(|p| match p {
            PaytableError::Invalid { line, path, problem, .. } => (*line, format!("{path}: {problem}")),
            other => panic!("not a located problem: {other:?}"),
        })
        .collect();
    let expected = [
        (line_of(&src, r#""XX""#), "unknown symbol \"XX\" on reel 3, stop 4"),
        (line_of(&src, "[0, 1, 0]"), "payline 1 uses row 1, outside the 1-row window"),
        (line_of(&src, "pays: 0)"), "a pay of 0 is not a prize"),
        (line_of(&src, "credits_per_line: [1, 0, 3]"), "credits per line must be at least 1"),
    ];
    assert_eq!(all.len(), expected.len(), "{all:#?}");
    for ((line, msg), (want_line, want)) in all.iter().zip(expected) {
        assert!(msg.contains(want), "{msg} should say {want}");
        assert_eq!(*line, want_line, "{msg}");
    }
    let text = err.to_string();
    assert!(text.starts_with("4 problems:") && text.matches("bad.ron:").count() == 4, "{text}");
}

#[test]
fn an_unknown_symbol_is_named_with_its_line() {
    let src = classic_src().replacen(r#"["7", "-", "B1", "-", "B2""#, r#"["7", "-", "B1", "-", "XX""#, 1);
    let (line, msg) = invalid(&src);
    assert_eq!(line, line_of(&src, r#""XX""#));
    assert!(msg.contains("unknown symbol \"XX\" on reel 3, stop 4"), "{msg}");
    assert!(msg.starts_with("reels[2][4]"), "{msg}");
}

#[test]
fn an_empty_strip_is_named_with_its_line() {
    let src = classic_src().replacen(
        r#"["7", "-", "B1", "-", "B2", "-", "B1", "-", "B3", "-", "CH", "-", "W", "-", "B1", "-", "B2", "-", "B1", "-", "B3", "-"],"#,
        "[],",
        1,
    );
    let (line, msg) = invalid(&src);
    assert_eq!(line, line_of(&src, "[],"));
    assert!(msg.contains("reel 3 is empty"), "{msg}");
}

#[test]
fn a_payline_outside_the_window_is_named_with_its_line() {
    let src = classic_src().replace("lines: [[0, 0, 0]],", "lines: [\n        [0, 1, 0],\n    ],");
    let (line, msg) = invalid(&src);
    assert_eq!(line, line_of(&src, "[0, 1, 0]"));
    assert!(msg.contains("payline 1 uses row 1, outside the 1-row window"), "{msg}");
}

#[test]
fn a_pay_for_an_impossible_combination_is_refused() {
    // No wild and no seven on reel 2 once the sevens and wilds are blanked there.
    let src = classic_src().replacen(
        r#"["7", "-", "B1", "-", "CH", "-", "B2", "-", "B1", "-", "B3", "-", "W", "-", "B1", "-", "B2", "-", "B3", "-", "B1", "-"]"#,
        r#"["-", "-", "B1", "-", "CH", "-", "B2", "-", "B1", "-", "B3", "-", "-", "-", "B1", "-", "B2", "-", "B3", "-", "B1", "-"]"#,
        1,
    );
    // Both the wilds' and the sevens' pays are impossible: both are named.
    let err = compile("bad.ron", &src).unwrap_err();
    let found: Vec<(usize, String)> = err
        .problems()
        .into_iter()
        .map(|p| match p {
            PaytableError::Invalid { line, problem, .. } => (*line, problem.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, line_of(&src, r#"(symbol: "W",  count: 3"#));
    assert_eq!(found[1].0, line_of(&src, r#"(symbol: "7",  count: 3"#));
    assert!(found.iter().all(|(_, m)| m.contains("impossible combination")), "{found:?}");
}

/// Issue 36, 1: a wild that sits only on a weight-0 stop still shows on
/// the middle row whenever the stop above it is drawn: the pay for it is
/// possible, and accepted. On a one-row window it can never show, and the
/// same pay is refused.
#[test]
fn a_symbol_a_neighbour_brings_into_the_window_is_possible() {
    let zero_wilds = classic_src()
        .replace("[2, 2, 6, 2, 3, 2, 5, 2, 6, 2, 3, 2, 1, 2, 6, 2, 3, 2, 4, 2, 3, 2]", "[2, 2, 6, 2, 3, 2, 5, 2, 6, 2, 3, 2, 0, 2, 6, 2, 3, 2, 4, 2, 3, 2]")
        .replace("[2, 2, 6, 2, 3, 2, 5, 2, 6, 2, 3, 2, 1, 2, 6, 2, 4, 2, 3, 2, 3, 2]", "[2, 2, 6, 2, 3, 2, 5, 2, 6, 2, 3, 2, 0, 2, 6, 2, 4, 2, 3, 2, 3, 2]")
        .replace("[2, 2, 6, 2, 5, 2, 6, 2, 3, 2, 2, 2, 1, 2, 6, 2, 5, 2, 3, 2, 3, 2]", "[2, 2, 6, 2, 5, 2, 6, 2, 3, 2, 2, 2, 0, 2, 6, 2, 5, 2, 3, 2, 3, 2]");
    assert_eq!(zero_wilds.matches(", 0, 2, 6, 2,").count(), 3);
    // One row: the wilds can never show, the pay for three is refused.
    let (line, problem) = invalid(&zero_wilds);
    assert_eq!(line, line_of(&zero_wilds, r#"(symbol: "W",  count: 3"#));
    assert!(problem.contains("impossible combination") && problem.contains("never show in the window"), "{problem}");
    // Three rows, the line on the middle row: the stop above each wild
    // brings it onto the line.
    let three_rows = zero_wilds.replace("rows: 1,", "rows: 3,").replace("lines: [[0, 0, 0]],", "lines: [[1, 1, 1]],");
    let game = compile("good.ron", &three_rows).unwrap_or_else(|e| panic!("a possible combination was refused: {e}"));
    assert_eq!(game.rows, 3);
}

/// Issue 36, 3: a longer run paying less than a shorter run of the same
/// symbol (here three cherries less than two) is refused at its line
/// (M-13: a line pays only its highest prize); a payline listed twice is
/// accepted with a warning.
#[test]
fn a_longer_run_paying_less_is_refused_and_a_payline_listed_twice_is_named() {
    let src = classic_src().replace(r#"(symbol: "CH", count: 3, pays: 10)"#, r#"(symbol: "CH", count: 3, pays: 4)"#);
    let (line, problem) = invalid(&src);
    assert_eq!(line, line_of(&src, r#"(symbol: "CH", count: 3"#));
    assert!(problem.contains("3 × CH pays 4, less than 2 × CH (5)") && problem.contains("M-13"), "{problem}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("twice.ron");
    let twice = classic_src().replace("lines: [[0, 0, 0]],", "lines: [[0, 0, 0], [0, 0, 0]],").replace("bet: (lines: [1],", "bet: (lines: [1, 2],");
    assert_ne!(twice, classic_src());
    std::fs::write(&file, twice).unwrap();
    let source = paytables::load_source(&file).unwrap();
    assert!(source.warnings.iter().any(|w| w.contains("paylines 1 and 2 are the same")), "{:?}", source.warnings);
    assert!(paytables::load_source(&sample("classic-sevens.ron")).unwrap().warnings.iter().all(|w| !w.contains("are the same")));
}

#[test]
fn syntax_errors_name_line_and_column() {
    let src = classic_src().replacen("rows: 1,", "rows: 1,,", 1);
    match compile("bad.ron", &src) {
        Err(PaytableError::Syntax { file, line, .. }) => {
            assert_eq!(file, "bad.ron");
            assert_eq!(line, line_of(&src, "rows: 1,,"));
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn unknown_fields_are_refused_by_name() {
    let src = classic_src().replacen("rows: 1,", "rows: 1,\n    colour: 3,", 1);
    let err = compile("bad.ron", &src).unwrap_err().to_string();
    assert!(err.contains("colour"), "{err}");
}

#[test]
fn the_floor_refuses_a_stingy_paytable_and_cannot_be_lowered() {
    let src =
        classic_src().replace("pays: 1000)", "pays: 100)").replace("pays: 50)", "pays: 20)").replace("pays: 20)", "pays: 10)").replace("pays: 12)", "pays: 5)");
    let game = compile("stingy.ron", &src).unwrap();
    let checked = check(&game, &Floor::legal_minimum(), None).unwrap();
    assert!(!checked.accepted());
    let msg = checked.refusals[0].to_string();
    assert!(matches!(checked.refusals[0], Refusal::UnderFloor { lines: 1, .. }), "{msg}");
    assert!(msg.contains("classic-sevens with 1 lines returns") && msg.contains("under the floor of 80.0000%"), "{msg}");
    assert!(Floor::from_percent("79.99").is_err());
    assert!(Floor::from_percent("abc").is_err());
    // Raised floors refuse more: the classic sample returns 95.3735%.
    let game = compile("classic.ron", &classic_src()).unwrap();
    assert!(check(&game, &Floor::from_percent("95.3").unwrap(), None).unwrap().accepted());
    assert!(!check(&game, &Floor::from_percent("95.4").unwrap(), None).unwrap().accepted());
}

/// B-15: the odds rule — a prize rarer than 1 in 100,000,000 is refused
/// unless the paytable carries its odds disclosure.
#[test]
fn a_prize_rarer_than_one_in_100_million_needs_an_odds_disclosure() {
    // Five reels of one-in-40 wilds: 5 wilds ≈ 1 in 10^8.
    let src = std::fs::read_to_string(sample("ocean-treasure.ron")).unwrap();
    let game = compile("ocean.ron", &src).unwrap();
    let checked = check(&game, &Floor::legal_minimum(), None).unwrap();
    assert!(checked.accepted(), "the sample's top award is 1 in ~10^5: {:?}", checked.refusals);
    // Make five wilds rare: a stop whose window shows the wild weighs 1,
    // every other stop 40 (weights belong to stops: the window's top row).
    // Five wilds on a line: about 1 in 10^15.
    let mut rare = game.clone();
    for reel in &mut rare.reels {
        let w: Vec<u64> = (0..reel.len()).map(|stop| if (0..3).any(|r| reel.at(stop, r) == 8) { 1 } else { 40 }).collect();
        reel.weights = Some(w);
    }
    let refused = check(&rare, &Floor::legal_minimum(), None).unwrap();
    let too_rare: Vec<_> = refused.refusals.iter().filter(|r| matches!(r, Refusal::TooRare { .. })).collect();
    assert!(!too_rare.is_empty(), "{:?}", refused.refusals);
    assert!(too_rare.iter().any(|r| r.to_string().contains("the prize 5 × Pérola (wild) has a probability of 1 in")), "{too_rare:?}");
    let disclosed = check(&rare, &Floor::legal_minimum(), Some("5 Pérolas: 1 em 10.000.000.000")).unwrap();
    assert!(disclosed.refusals.iter().all(|r| !matches!(r, Refusal::TooRare { .. })));
}

#[test]
fn artifacts_are_canonical_and_the_cabinet_loads_only_approved_ones() {
    let dir = tempfile::tempdir().unwrap();
    let source = paytables::load_source(&sample("classic-sevens.ron")).unwrap();
    let checked = check(&source.game, &Floor::legal_minimum(), None).unwrap();
    let rtp: Vec<(u64, _)> = checked.figures.configs.iter().map(|c| (u64::from(c.lines), c.rtp.clone())).collect();
    let a = artifact::build(&source.text, artifact::CompiledGame::Reels(source.game.clone()), &rtp, None, None);
    let b = artifact::build(&source.text, artifact::CompiledGame::Reels(source.game.clone()), &rtp, None, None);
    assert_eq!(artifact::canonical_bytes(&a), artifact::canonical_bytes(&b), "deterministic");
    let path = dir.path().join("classic.json");
    let bytes = artifact::canonical_bytes(&a);
    std::fs::write(&path, &bytes).unwrap();
    let digest = artifact::sha256_hex(&bytes);

    let empty = Manifest::default();
    assert!(matches!(artifact::load_approved(&path, &empty, &Floor::legal_minimum()), Err(artifact::ArtifactError::NotApproved { .. })));
    let manifest = Manifest {
        approved: vec![ManifestEntry { id: "classic-sevens".into(), file: "classic.json".into(), sha256: digest }],
        programs: vec![],
        signature: None,
    };
    let game = artifact::load_approved(&path, &manifest, &Floor::legal_minimum()).unwrap();
    assert_eq!(game, artifact::CompiledGame::Reels(source.game.clone()));
    // A cabinet with a higher floor refuses it again at load (decisions.md).
    let err = artifact::load_approved(&path, &manifest, &Floor::from_percent("96").unwrap()).unwrap_err();
    assert!(err.to_string().contains("under the floor of 96.0000%"), "{err}");
    // One byte changed: no longer approved.
    let mut tampered = bytes.clone();
    let i = tampered.iter().position(|&c| c == b'7').unwrap();
    tampered[i] = b'8';
    std::fs::write(&path, &tampered).unwrap();
    assert!(matches!(artifact::load_approved(&path, &manifest, &Floor::legal_minimum()), Err(artifact::ArtifactError::NotApproved { .. })));
}

/// Simulation through the production code lands within the 99% interval
/// of the exact RTP, for every sample.
#[test]
fn simulation_agrees_with_the_exact_figures() {
    for (file, lines, games) in [("classic-sevens.ron", 1, 3_000_000u64), ("ocean-treasure.ron", 20, 3_000_000), ("ocean-treasure.ron", 1, 3_000_000)] {
        let game = paytables::load(&sample(file)).unwrap();
        let exact = paytables::reel_math::analyse(&game).unwrap();
        let c = exact.configs.iter().find(|c| c.lines == lines).unwrap();
        let rtp = c.rtp.to_f64().unwrap();
        let sim = paytables::simulate::run_parallel(&game, lines, games, 2026, 2, &|_| {}).unwrap();
        let (lo, hi) = sim.ci99();
        assert!(lo <= rtp && rtp <= hi, "{file} at {lines} lines: exact {rtp} outside [{lo}, {hi}]");
        // The exact standard deviation agrees with the measured one to 5%.
        let sd = c.standard_deviation();
        assert!((sim.standard_deviation() - sd).abs() / sd < 0.05, "{file}: SD {} vs exact {sd}", sim.standard_deviation());
    }
}

/// The samples' rounds from the simulation path equal the production rounds.
#[test]
fn the_fast_path_equals_the_production_round_on_the_samples() {
    for file in ["classic-sevens.ron", "ocean-treasure.ron"] {
        let game = paytables::load(&sample(file)).unwrap();
        let tables = StopTables::new(&game).unwrap();
        let fast = FastReels::new(&game, &tables);
        let lines = *game.bet.lines.last().unwrap();
        let (mut a, mut b) = (StreamRng::from_seed(5), StreamRng::from_seed(5));
        for i in 0..100_000 {
            let round = game.play(&tables, &mut a, Bet { lines, credits_per_line: 1 }).unwrap();
            assert_eq!(fast.round(&mut b, lines as usize), round.win, "{file} round {i}");
        }
    }
}

/// Published figures of the samples, to catch any drift in the maths.
#[test]
fn the_samples_exact_figures() {
    let classic = paytables::load(&sample("classic-sevens.ron")).unwrap();
    let f = paytables::reel_math::analyse(&classic).unwrap();
    assert_eq!(f.cycle, 262_144);
    let ocean = paytables::load(&sample("ocean-treasure.ron")).unwrap();
    let f = paytables::reel_math::analyse(&ocean).unwrap();
    assert_eq!(f.cycle, 28u128.pow(5));
    for c in &f.configs {
        assert_eq!(paytables::reel_math::decimal(&c.rtp, 6), "0.921058", "{} lines", c.lines);
    }
}

/// Issue 18: a file saved with a UTF-8 byte-order mark is the same
/// paytable, for every kind; an error in it is still on its line.
#[test]
fn a_byte_order_mark_is_ignored() {
    let src = classic_src();
    let with_bom = format!("\u{feff}{src}");
    assert_eq!(compile("bom.ron", &with_bom).unwrap(), compile("plain.ron", &src).unwrap());
    for (file, kind) in [
        ("classic-sevens.ron", paytables::poker_compile::Kind::Reels),
        ("jacks-or-better-9-6.ron", paytables::poker_compile::Kind::DrawPoker),
        ("poquer-sem-descarte.ron", paytables::poker_compile::Kind::StudPoker),
    ] {
        let text = format!("\u{feff}{}", std::fs::read_to_string(sample(file)).unwrap());
        assert_eq!(paytables::poker_compile::kind_of(file, &text).unwrap(), kind, "{file}");
    }
    let bad = with_bom.replacen(r#"["7", "-", "B1", "-", "B2""#, r#"["7", "-", "B1", "-", "XX""#, 1);
    let (line, _) = invalid(&bad);
    assert_eq!(line, line_of(&bad, r#""XX""#));
}

/// Issue 18: a negative number says what the format allows, not only RON's
/// "Integer is out of bounds", and names its line.
#[test]
fn a_negative_number_is_explained_on_its_line() {
    let src = classic_src();
    let bad = src.replacen("pays: 1000)", "pays: -1000)", 1);
    assert_ne!(bad, src);
    match compile("neg.ron", &bad) {
        Err(PaytableError::Syntax { line, message, .. }) => {
            assert_eq!(line, line_of(&bad, "pays: -1000"));
            assert!(message.contains("no negative value"), "{message}");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

/// Issue 18: a pay with a fraction is named as such (RON alone said
/// "Expected comma"), in reel and in poker paytables.
#[test]
fn a_pay_with_a_fraction_is_named_on_its_line() {
    let src = classic_src();
    let bad = src.replacen("pays: 1000)", "pays: 1000.5)", 1);
    assert_ne!(bad, src);
    match compile("frac.ron", &bad) {
        Err(PaytableError::Syntax { line, message, .. }) => {
            assert_eq!(line, line_of(&bad, "pays: 1000.5"));
            assert!(message.contains("a number with a fraction") && message.contains("whole numbers"), "{message}");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
    let poker = std::fs::read_to_string(sample("jacks-or-better-9-6.ron")).unwrap();
    let bad = poker.replacen("pays: 250,", "pays: 2.5,", 1);
    assert_ne!(bad, poker);
    let err = paytables::poker_compile::compile_draw("frac.ron", &bad).unwrap_err().to_string();
    assert!(err.contains("a number with a fraction") && !err.contains("not one the format can express"), "{err}");
}

/// Issue 18: `tie_rule` is optional, as the format document says: SP-17's
/// suit order.
#[test]
fn a_stud_paytable_without_a_tie_rule_uses_suit_order() {
    let src = std::fs::read_to_string(sample("poquer-sem-descarte.ron")).unwrap();
    let without: String = src.lines().filter(|l| !l.trim_start().starts_with("tie_rule:")).map(|l| format!("{l}\n")).collect();
    assert_ne!(without, src);
    let a = paytables::poker_compile::compile_stud("a.ron", &src).unwrap().0;
    let b = paytables::poker_compile::compile_stud("b.ron", &without).unwrap().0;
    assert_eq!(a, b);
    assert_eq!(b.tie_rule, game_core::stud_poker::TieRule::SuitOrder);
}

/// The line rules exactly as docs/paytable-format.md states them, on its
/// worked examples (issue 18: the document and the code disagreed).
#[test]
fn the_line_rules_are_those_the_format_document_states() {
    let game = compile("classic-sevens.ron", &classic_src()).unwrap();
    let id = |s: &str| game.symbols.iter().position(|x| x.id == s).unwrap() as game_core::reels::SymbolId;
    let (w, seven, b1) = (id("W"), id("7"), id("B1"));
    let pay = |syms: &[game_core::reels::SymbolId]| game.line_pay(syms).map(|p| (p.symbol, p.count, p.pay));
    assert_eq!(pay(&[seven, seven, seven]), Some((seven, 3, 100)));
    assert_eq!(pay(&[w, seven, seven]), Some((seven, 3, 200)), "a wild in the run doubles it");
    assert_eq!(pay(&[w, w, seven]), Some((seven, 3, 200)));
    assert_eq!(pay(&[w, w, w]), Some((w, 3, 1000)), "the wild run's own pay, not doubled");
    assert_eq!(pay(&[w, b1, seven]), None, "the wild stands in for B1, the first non-wild symbol, only");
    assert_eq!(pay(&[seven, w, b1]), None, "the run of 7s is 7 W: 2 long, paid nothing");
}

/// Issue 18: the debatable line rules are the paytable's choice, each with
/// the worked example the format document gives.
#[test]
fn the_line_rule_options_change_exactly_what_the_document_says() {
    let src = classic_src();
    let stated = |wild_only_multiplied: bool, pays_longer_runs: bool| {
        let text = src.replace(
            "line_rules: Some((wild_only_multiplied: false, pays_longer_runs: false))",
            &format!("line_rules: Some((wild_only_multiplied: {wild_only_multiplied}, pays_longer_runs: {pays_longer_runs}))"),
        );
        if wild_only_multiplied || pays_longer_runs {
            assert_ne!(text, src, "the sample states its line rules");
        }
        compile("classic-sevens.ron", &text).unwrap()
    };
    let base = stated(false, false);
    let id = |s: &str| base.symbols.iter().position(|x| x.id == s).unwrap() as game_core::reels::SymbolId;
    let (w, seven, ch, b1) = (id("W"), id("7"), id("CH"), id("B1"));
    let pay = |g: &game_core::reels::ReelGame, syms: &[game_core::reels::SymbolId]| g.line_pay(syms).map(|p| p.pay);
    // wild_only_multiplied: `W W W` pays 1000 as written, 2000 when multiplied.
    assert_eq!(pay(&base, &[w, w, w]), Some(1000));
    assert_eq!(pay(&stated(true, false), &[w, w, w]), Some(2000));
    // …and nothing else changes: a run with a wild in it is doubled either way.
    assert_eq!(pay(&stated(true, false), &[w, seven, seven]), Some(200));
    // pays_longer_runs: 7 7 is paid nothing (no pay for 2); with the option a
    // pay for N also pays longer runs without a pay of their own: the
    // cherries pay 2 for 1, 5 for 2, 10 for 3 either way (each count has its
    // own pay), and nothing else gains a pay below its first paid count.
    assert_eq!(pay(&base, &[ch, b1, seven]), Some(2));
    assert_eq!(pay(&stated(false, true), &[ch, ch, b1]), Some(5));
    assert_eq!(stated(false, true).pays, base.pays, "Sevens Classic has no gap: the option changes nothing");
    // On a paytable with a gap (7 paid for 1 and 3, not 2), a run of 2 pays
    // the pay for 1 with the option, nothing without.
    let gap = src.replace(r#"(symbol: "CH", count: 2, pays: 5),"#, r#"(symbol: "7", count: 1, pays: 1),"#);
    let with_gap = |longer: bool| {
        let text = gap.replace("pays_longer_runs: false", &format!("pays_longer_runs: {longer}"));
        compile("gap.ron", &text).unwrap()
    };
    assert_eq!(pay(&with_gap(false), &[seven, seven, b1]), None, "a run's count is exact");
    assert_eq!(pay(&with_gap(true), &[seven, seven, b1]), Some(1), "the pay for 1 also pays a run of 2");
    assert_eq!(pay(&with_gap(true), &[ch, ch, b1]), Some(2), "CH lost its pay for 2 and now pays its pay for 1");
}

/// Without `line_rules`, a multiplying wild with pays of its own is warned
/// about: the designer must see that `W W W` is not multiplied.
#[test]
fn an_unstated_wild_rule_is_warned() {
    let src = classic_src();
    let unstated: String = src.lines().filter(|l| !l.trim_start().starts_with("line_rules:")).map(|l| format!("{l}\n")).collect();
    assert_ne!(unstated, src);
    let warnings = |s: &str| paytables::compile::warnings(&paytables::compile::parse("s.ron", s).unwrap(), &compile("s.ron", s).unwrap());
    assert!(warnings(&src).is_empty(), "{:?}", warnings(&src));
    let w = warnings(&unstated);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("line of W alone pays as written, not multiplied"), "{w:?}");
}

/// Issue 18: a gap in a symbol's pay counts is legal but is warned about.
#[test]
fn a_gap_in_a_symbols_pay_counts_is_warned() {
    let src = std::fs::read_to_string(sample("ocean-treasure.ron")).unwrap();
    let warnings = |file: &str, src: &str| paytables::compile::warnings(&paytables::compile::parse(file, src).unwrap(), &compile(file, src).unwrap());
    assert!(warnings("ocean.ron", &src).is_empty(), "the sample has no gap");
    let gap = src.replacen(r#"(symbol: "9",  count: 4, pays: 15),"#, "", 1);
    assert_ne!(gap, src);
    assert_eq!(
        warnings("gap.ron", &gap),
        vec!["symbol 9 is paid for 3 and 5 in a row but not for 4: a run of exactly 4 pays nothing (a run's count is exact; `line_rules: Some((pays_longer_runs: true, …))` pays it as 3)".to_owned()]
    );
}
