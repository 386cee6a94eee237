//! The `paytable` program as a game designer runs it.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::Command;

fn paytable(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_paytable")).args(args).output().unwrap()
}

fn sample(f: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables").join(f).display().to_string()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn check_accepts_the_samples_with_their_exact_figures() {
    let out = paytable(&["check", &sample("classic-sevens.ron")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("95.3735") && s.contains("ACCEPTED"), "{s}");
    let out = paytable(&["check", &sample("ocean-treasure.ron"), "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["accepted"], true);
    let configs = v["report"]["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 5);
    assert!(configs.iter().all(|c| c["rtp_percent"] == "92.1058"));
    assert_eq!(configs[4]["share_free_games_percent"], "17.8293");
}

#[test]
fn check_refuses_with_a_clear_message_and_a_non_zero_exit() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(sample("classic-sevens.ron")).unwrap();
    let stingy = dir.path().join("stingy.ron");
    std::fs::write(&stingy, src.replace("pays: 50)", "pays: 5)").replace("pays: 20)", "pays: 2)").replace("pays: 12)", "pays: 1)")).unwrap();
    let out = paytable(&["check", stingy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(e.contains("REFUSED") && e.contains("classic-sevens with 1 lines returns") && e.contains("under the floor of 80.0000%"), "{e}");

    let broken = dir.path().join("broken.ron");
    std::fs::write(&broken, src.replacen(r#"["7", "-", "B1""#, r#"["7", "-", "B9""#, 1)).unwrap();
    let out = paytable(&["check", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    let line = src.lines().position(|l| l.contains(r#"["7", "-", "B1""#)).unwrap() + 1;
    assert!(e.contains(&format!("broken.ron:{line}: reels[0][2]: unknown symbol \"B9\"")), "{e}");

    let out = paytable(&["check", &sample("classic-sevens.ron"), "--floor", "79"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot be set below 80%"));
    let out = paytable(&["check", "/nonexistent.ron"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent.ron"));
}

/// Issue 36, point 2: a refusal of the exact analysis names the line and
/// the value that causes it, and which limit it is.
#[test]
fn analysis_refusals_name_their_line_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let sevens = std::fs::read_to_string(sample("classic-sevens.ron")).unwrap();
    let ocean = std::fs::read_to_string(sample("ocean-treasure.ron")).unwrap();
    let line_of = |src: &str, needle: &str| src.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let refusal = |name: &str, src: &str| {
        let file = dir.path().join(name);
        std::fs::write(&file, src).unwrap();
        let out = paytable(&["check", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name} was accepted");
        text(&out.stderr)
    };
    // A pay times the wild's multiplier that overflows.
    let huge = sevens.replace("pays: 1000)", "pays: 18446744073709551615)");
    let e = refusal("huge.ron", &huge);
    let at = format!(
        "huge.ron:{}: pays[0].pays: pays too large for an exact analysis: the pay 18446744073709551615 × the wild's multiplier 2",
        line_of(&huge, "18446744073709551615")
    );
    assert!(e.contains(&at), "{e}");
    // Weights whose product no exact sum can hold.
    let heavy = sevens
        .replace("[2, 2, 6, 2, 3, 2, 5, 2, 6", "[1152921504606846976, 2, 6, 2, 3, 2, 5, 2, 6")
        .replace("[2, 2, 6, 2, 5, 2, 6", "[1152921504606846976, 2, 6, 2, 5, 2, 6");
    let e = refusal("heavy.ron", &heavy);
    assert!(e.contains(&format!("heavy.ron:{}: weights: the game cycle (3 reels", line_of(&heavy, "weights: Some("))) && e.contains("too large"), "{e}");
    // Free games that retrigger more than one free game per free game.
    let endless = ocean.replace("awards: {3: 10, 4: 15, 5: 20}", "awards: {3: 500, 4: 800, 5: 1000}");
    let e = refusal("endless.ron", &endless);
    assert!(
        e.contains(&format!("endless.ron:{}: scatter.free_games.awards: free games retrigger", line_of(&endless, "awards: {3: 500")))
            && e.contains("never end"),
        "{e}"
    );
    // 65 lines: the analysis's own limit of 64, said as such.
    let many =
        sevens.replace("lines: [[0, 0, 0]],", &format!("lines: [{}],", vec!["[0, 0, 0]"; 65].join(", "))).replace("bet: (lines: [1],", "bet: (lines: [1, 65],");
    let e = refusal("many.ron", &many);
    let at = format!(
        "many.ron:{}: bet.lines[1]: 65 lines played, but the exact analysis handles at most 64 lines (its limit, not the game's)",
        line_of(&many, "bet: (lines: [1, 65]")
    );
    assert!(e.contains(&at), "{e}");
    assert!(!e.contains("too large for exact enumeration"), "{e}");
}

/// Issue 36, point 3: what is legal but almost always a slip is warned,
/// on stderr and in `--json`, with its line: a flush paying more than a
/// full house; a payline listed twice.
#[test]
fn designer_slips_are_warned_with_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let job = std::fs::read_to_string(sample("jacks-or-better-9-6.ron")).unwrap();
    let slipped = job
        .replace(r#"name_pt: Some("Full"), pays: 9)"#, r#"name_pt: Some("Full"), pays: 6)"#)
        .replace(r#"name_pt: Some("Cor"), pays: 6)"#, r#"name_pt: Some("Cor"), pays: 7)"#);
    assert_ne!(slipped, job, "the slips were made");
    let file = dir.path().join("job-7-6.ron");
    std::fs::write(&file, &slipped).unwrap();
    let line_of = |needle: &str| slipped.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let expected = format!(
        "{}:{}: warning: pays[4]: \"Flush\" (a flush) pays 7 per coin, more than \"Full House\" (a full house, line {}) pays 6: a lower-ranked hand pays more",
        file.display(),
        line_of(r#"name: "Flush""#),
        line_of(r#"name: "Full House""#)
    );
    let out = paytable(&["check", file.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["accepted"], true);
    assert_eq!(v["warnings"], serde_json::json!([expected]));
    assert!(text(&out.stderr).contains(&expected));
    // The shipped table: no word.
    let v: serde_json::Value = serde_json::from_slice(&paytable(&["check", &sample("jacks-or-better-9-6.ron"), "--json"]).stdout).unwrap();
    assert_eq!(v["warnings"], serde_json::json!([]));

    // A payline listed twice, in a reel game's report as well.
    let sevens = std::fs::read_to_string(sample("classic-sevens.ron")).unwrap();
    let twice = dir.path().join("twice.ron");
    std::fs::write(&twice, sevens.replace("lines: [[0, 0, 0]],", "lines: [[0, 0, 0], [0, 0, 0]],")).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&paytable(&["check", twice.to_str().unwrap(), "--json"]).stdout).unwrap();
    let warnings = v["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].as_str().unwrap().contains("paylines 1 and 2 are the same ([0, 0, 0])"), "{warnings:?}");
}

#[test]
fn par_writes_a_sheet_tables_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("classic-sevens.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = std::fs::read_to_string(dir.path().join("classic-sevens-par.md")).unwrap();
    assert!(md.contains("| 1 | 95.3735 |"), "{md}");
    assert!(md.contains("3 × Duplo") && md.contains("Top award"));
    let combos = std::fs::read_to_string(dir.path().join("classic-sevens-combinations.csv")).unwrap();
    // Three wilds: one stop of weight 1 per reel → 1 combination of 262,144.
    assert!(combos.lines().any(|l| l.starts_with("Duplo,3,1000,1,")), "{combos}");
    for svg in ["classic-sevens-win-distribution.svg", "classic-sevens-rtp-convergence.svg"] {
        let s = std::fs::read_to_string(dir.path().join(svg)).unwrap();
        assert!(s.starts_with("<svg") && s.len() > 2_000, "{svg}");
    }
}

#[test]
fn simulate_reports_the_measured_rtp_next_to_the_exact_one() {
    let out = paytable(&["simulate", &sample("ocean-treasure.ron"), "--games", "400000", "--seed", "9", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 400_000);
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let again = paytable(&["simulate", &sample("ocean-treasure.ron"), "--games", "400000", "--seed", "9", "--json"]);
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["measured_rtp"], w["measured_rtp"], "a seed reproduces the run");
    let out = paytable(&["simulate", &sample("ocean-treasure.ron"), "--games", "10", "--lines", "7"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("7 lines is not a bet"));
}

/// B-19: the committed artifacts are exactly what the compiler makes of
/// the committed sources (deterministic, canonical), and their SHA-256
/// digests are the approved manifest's.
#[test]
fn committed_artifacts_match_their_sources_and_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = std::fs::read_to_string(sample("approved.ron")).unwrap();
    for id in [
        "classic-sevens",
        "ocean-treasure",
        "jacks-or-better-9-6",
        "deuces-wild",
        "poquer-sem-descarte",
        "roleta-francesa",
        "roleta-americana",
        "banca-francesa",
        "cussec",
        "peixe-camarao-caranguejo",
        "poquer-3-cartas",
        "desafio-ao-casino",
        "craps",
        "bacara",
        "bacara-6-sem-comissao",
        "bacara-macau",
        "bacara-ez",
        "bacara-empate-9",
        "blackjack",
        "blackjack-classico",
        "bingo-30",
        "bingo-75",
        "bingo-80",
        "bingo-90",
    ] {
        let out_path = dir.path().join(format!("{id}.json"));
        let out = paytable(&["compile", &sample(&format!("{id}.ron")), "-o", out_path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let digest = text(&out.stdout).split_whitespace().next().unwrap().to_owned();
        assert!(manifest.contains(&digest), "{id}: {digest} not in approved.ron");
        let committed = std::fs::read(sample(&format!("compiled/{id}.json"))).unwrap();
        assert_eq!(std::fs::read(&out_path).unwrap(), committed, "{id}: compiled artifact differs from the committed one");
    }
}

/// B-18 from the command line: each game's pockets, cards or balls,
/// counted through its own draw, stand exactly at the live game's chances
/// (the shipped games; `compile` above refuses a game that does not), and
/// a reel game is said to be outside what B-18 names.
#[test]
fn fidelity_sets_each_games_draw_against_the_live_game() {
    let within = "each within 0.001 percentage points of the live game's chance (largest difference 0.00000000 points; certification.md B-18)";
    for (id, what) in [
        ("roleta-francesa", "37 pockets"),
        ("roleta-americana", "38 pockets"),
        ("blackjack-classico", "52 cards"),
        ("bacara", "52 cards"),
        ("desafio-ao-casino", "52 cards"),
        ("jacks-or-better-9-6", "52 cards"),
        ("joker-poker", "53 cards"),
        ("poquer-3-cartas", "52 cards"),
        ("bingo-75", "75 balls"),
        ("bingo-90", "90 balls"),
    ] {
        let out = paytable(&["fidelity", &sample(&format!("{id}.ron"))]);
        assert!(out.status.success(), "{id}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout).trim(), format!("{id}: {what}, {within}"));
    }
    let out = paytable(&["fidelity", &sample("classic-sevens.ron")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("B-18 names no live game"), "{}", text(&out.stdout));
}

/// Bingo from the command line (issue 33): the exact base RTP as a
/// fraction (30-ball, 15 balls: line 1 and full card 1100 give 433/460,
/// checked here by hand from C(21, 6)/C(30, 15) for the full card), and
/// 200,000 rounds of 4 cards through the production round inside the 99 %
/// interval, every extra ball bought.
#[test]
fn bingo_check_and_simulate_from_the_command_line() {
    let out = paytable(&["check", &sample("bingo-30.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rtp"], "433/460");
    // C(21, 6) = 54264 of C(30, 15) = 155117520 draws cover the card.
    assert_eq!(v["patterns"][1]["probability"], "7/20010");
    assert_eq!(54_264u64 * 20_010, 7 * 155_117_520);
    // Every offer to 1 to 4 cards, at any bet, returns between the sample's
    // 80 % offer floor and 1 / 1.1 (its 10 % margin, the price rounded up).
    let bounds = v["offer_bounds"].as_array().unwrap();
    assert_eq!(bounds.iter().map(|b| b["cards"].as_u64().unwrap()).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    for b in bounds {
        let (least, most) = (b["least"].as_f64().unwrap(), b["most"].as_f64().unwrap());
        assert!(0.8 <= least && least <= most && most <= 1.0 / 1.1 + 1e-12, "{b}");
    }
    let out = paytable(&["simulate", &sample("bingo-30.ron"), "--games", "200000", "--seed", "33", "--json"]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inside"], true, "{v}");
    let extra = v["extra_rtp"].as_f64().unwrap();
    assert!((0.8..1.0).contains(&extra), "{v}");
    // The PAR sheet, and the margin that gives a target extra-ball return.
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("bingo-30.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let par = std::fs::read_to_string(dir.path().join("bingo-30-par.md")).unwrap();
    assert!(par.contains("433/460") && par.contains("linha"), "{par}");
    let out = paytable(&["check", &sample("bingo-30.ron"), "--json", "--extra-target", "85"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["margin_for_target"]["rtp"].as_f64().unwrap() >= 0.85, "{v}");
    let out = paytable(&["check", &sample("bingo-30.ron"), "--extra-target", "70"]);
    assert!(!out.status.success() && text(&out.stderr).contains("from 80 to 100"), "{}", text(&out.stderr));
    // One card: the extra balls' exact chain is inside the interval too.
    let out = paytable(&["simulate", &sample("bingo-30.ron"), "--games", "300000", "--seed", "34", "--lines", "1", "--json"]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (x, ci) = (v["extra_exact"].as_f64().unwrap(), v["extra_ci99"].as_array().unwrap().clone());
    assert!(ci[0].as_f64().unwrap() <= x && x <= ci[1].as_f64().unwrap(), "{v}");
}

/// Blackjack from the command line (issue 32): each line held to the
/// floor, the strategy in both languages, and the strategy played through
/// the production round.
#[test]
fn blackjack_check_strategy_and_simulate_from_the_command_line() {
    let out = paytable(&["check", &sample("blackjack-classico.ron")]);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(s.contains("game with its bonus (optimal play)       99.59758") && s.contains("insurance and even money         92.60450"), "{s}");
    assert!(s.contains("ACCEPTED"), "{s}");
    let out = paytable(&["check", &sample("blackjack.ron"), "--floor", "99.75"]);
    assert!(!out.status.success());
    // Issue 73: each refusal at the line of the field that decides it.
    let said = text(&out.stderr);
    assert!(said.contains("blackjack.ron:26: REFUSED: rules.blackjack_pays: blackjack: jogo sem o bónus / game without the bonus returns 99.6996%"), "{said}");
    assert!(said.contains("blackjack.ron:29: REFUSED: rules.insurance: blackjack: seguro e pagamento igual"), "{said}");
    let out = paytable(&["strategy", &sample("blackjack-classico.ron")]);
    let s = text(&out.stdout);
    assert!(s.contains("estratégia ótima") && s.contains("optimal strategy"), "{s}");
    assert!(s.contains("8-8       P  P  P  P  P  P  P  P  P  P") && s.contains("8-8       X  X  X  X  X  X  X  X  X  X"), "{s}");
    assert!(s.contains("11        D  D  D  D  D  D  D  D  D  H"), "{s}");
    // Issue 49: hard 12 stands against a 4 (the total-dependent decision,
    // the docs' and the published chart's), starred, with T-2 hitting
    // (2-T) listed as the exception.
    assert!(s.contains("12        H  H S*  S  S  H  H  H  H  H") && s.contains("2-T v 4: hit"), "{s}");
    let out = paytable(&["simulate", &sample("blackjack.ron"), "--games", "300000", "--seed", "5", "--threads", "2"]);
    let s = text(&out.stdout);
    assert!(out.status.success() && s.contains("inside the interval"), "{s}{}", text(&out.stderr));
}

#[test]
fn poker_check_and_strategy_from_the_command_line() {
    let out = paytable(&["check", &sample("jacks-or-better-9-6.ron")]);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(s.contains("0.9954390") && s.contains("ACCEPTED"), "{s}");

    let out = paytable(&["strategy", &sample("jacks-or-better-9-6.ron"), "Ah", "Kh", "Qh", "Jh", "2h"]);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Four to the royal beats the pat flush (6). Of the 47 draws: Th makes
    // the royal (800), seven other hearts a flush (6 each), three tens a
    // straight (4 each), twelve J/Q/K/A a high pair (1 each): 866/47.
    let best = s.lines().find(|l| l.starts_with("best")).unwrap();
    assert!(best.contains("Ah  Kh  Qh  Jh  --") && best.contains("866/47"), "{s}");
    assert!(s.lines().any(|l| l.contains("Ah  Kh  Qh  Jh  2h") && l.contains("6/1")), "{s}");
    assert_eq!(s.lines().skip(2).filter(|l| l.contains('/')).count(), 32, "one line per hold");

    let out = paytable(&["strategy", &sample("jacks-or-better-9-6.ron"), "Ah", "Kh", "Qh", "Jh", "1x"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("\"1x\" is not a card"), "{}", text(&out.stderr));

    // Issue 77, defect 8: the poker games' PAR sheets, the same on every
    // run. 9/6 Jacks or Better's published figures: 99.5439 % at five
    // coins, a royal 1 in 40,390.5, hits 45.4565 %.
    let dir = tempfile::tempdir().unwrap();
    let par = |file: &str, extra: &[&str]| {
        let mut args = vec!["par", file, "-o", dir.path().to_str().unwrap()];
        args.extend(extra);
        paytable(&args)
    };
    let out = par(&sample("jacks-or-better-9-6.ron"), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sheet = dir.path().join("jacks-or-better-9-6-par.md");
    let md = std::fs::read_to_string(&sheet).unwrap();
    assert!(md.starts_with("# PAR sheet — Jacks or Better 9/6 (jacks-or-better-9-6)"), "{md}");
    assert!(md.contains("     5    99.5439   0.9954390    45.4565   4.4175"), "{md}");
    assert!(md.lines().any(|l| l.starts_with("Royal Flush") && l.contains("40390.5")), "{md}");
    assert!(!md.contains("exact analysis"), "{md}");
    // The command the sheet shows for the play runs as shown.
    let shown = md.split("`paytable ").nth(1).and_then(|rest| rest.split('`').next()).unwrap();
    let args: Vec<&str> = shown.split_whitespace().collect();
    assert_eq!(args[0], "strategy", "{md}");
    let out = paytable(&args);
    assert!(out.status.success() && text(&out.stdout).lines().any(|l| l.starts_with("best")), "{shown}: {}", text(&out.stderr));
    assert!(par(&sample("jacks-or-better-9-6.ron"), &[]).status.success());
    assert_eq!(std::fs::read_to_string(&sheet).unwrap(), md, "the same sheet on every run");
    // Under the floor: refused, each coin count named, no sheet written.
    std::fs::remove_file(&sheet).unwrap();
    let out = par(&sample("jacks-or-better-9-6.ron"), &["--floor", "99"]);
    assert!(!out.status.success());
    assert_eq!(text(&out.stderr).matches("REFUSED").count(), 4, "{}", text(&out.stderr));
    assert!(!sheet.exists());

    let out = par(&sample("poquer-sem-descarte.ron"), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = std::fs::read_to_string(dir.path().join("poquer-sem-descarte-par.md")).unwrap();
    assert!(md.contains("5.2241") && md.contains("80.4245%") && md.contains("## Play"), "{md}");
}

/// Issue 18: a sequential royal, where the order the cards are shown in
/// counts.
#[test]
fn sequential_royal_check_and_strategy_read_the_order_shown() {
    let file = sample("jacks-or-better-sequential.ron");
    let out = paytable(&["check", &file]);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(s.contains("0.9977938") && s.contains("in each of their 120 orders") && s.contains("ACCEPTED"), "{s}");
    // T J Q K of spades in their places, the 4 in the ace's: of the 47
    // draws As is the sequential royal (10,000), 9s a straight flush (50),
    // seven low spades a flush (6 each), three aces and three nines a
    // straight (4 each), nine J/Q/K a high pair (1 each): 10,125/47.
    let out = paytable(&["strategy", &file, "Ts", "Js", "Qs", "Ks", "4d"]);
    let s = text(&out.stdout);
    let best = s.lines().find(|l| l.starts_with("best")).unwrap();
    assert!(best.contains("Ts  Js  Qs  Ks  --") && best.contains("10125/47"), "{s}");
    // The same cards out of order: the ace makes a plain royal (800): 925/47.
    let out = paytable(&["strategy", &file, "Ks", "Js", "Qs", "Ts", "4d"]);
    let s = text(&out.stdout);
    let best = s.lines().find(|l| l.starts_with("best")).unwrap();
    assert!(best.contains("Ks  Js  Qs  Ts  --") && best.contains("925/47"), "{s}");
}

#[test]
fn check_reports_the_progressive_on_its_own_line() {
    let pool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/progressive/linked-sevens.ron").display().to_string();
    let out = paytable(&["check", &sample("classic-sevens.ron"), "--progressive", &pool]);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Grande 0.5% increment + 0.1% hidden reserve, Mini 2%: all of it the
    // players' money, outside the base RTP (decisions.md).
    assert!(s.contains("progressive linked-sevens: 2.6000% of each qualifying wager (Grande 0.6000%, Mini 2.0000%), not part of the base RTP"), "{s}");
    assert!(s.contains("95.3735"), "the base RTP is unchanged: {s}");
}

/// Issue 18: `--max-seconds` stops a long exact analysis with how far it
/// came and what it would need; never a figure, never "ACCEPTED".
#[test]
fn check_stops_at_max_seconds_with_a_clear_message() {
    let out = paytable(&["check", &sample("ocean-treasure.ron"), "--max-seconds", "0"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("stopped after 0 s") && err.contains("parts of the walk") && err.contains("would take about"), "{err}");
    assert!(!text(&out.stdout).contains("ACCEPTED"));
    // With time enough, the same file is analysed to the end.
    let out = paytable(&["check", &sample("ocean-treasure.ron"), "--max-seconds", "600"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("92.1058"));
}

/// Issue 18: strips of commercial length. Ocean Treasure with every strip
/// repeated nine times (252 stops: the cycle is 9⁵ times larger, and every
/// window appears exactly nine times as often) has exactly the figures of
/// the original, which the full walk computes: the analysis from symbol
/// counts must print the very same exact RTP fractions and SD, say which
/// figures it skipped, and accept it.
#[test]
fn check_gives_the_exact_rtp_of_long_strips_from_symbol_counts() {
    let original = std::fs::read_to_string(sample("ocean-treasure.ron")).unwrap();
    // Each strip rewritten by `f` (its symbols, as written).
    let rewrite = |f: &dyn Fn(&str) -> String| -> String {
        original
            .lines()
            .map(|l| match l.trim().strip_prefix('[').and_then(|x| x.strip_suffix("],")) {
                Some(inner) if inner.starts_with('"') => format!("        [{}],", f(inner)),
                _ => l.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Listed 9 times over: 9^5 times the stop combinations, the same windows.
    let long = rewrite(&|inner| [inner; 9].join(", "));
    assert_eq!(long.matches("\"Q\", \"J\", \"10\", \"9\", \"SH\"").count(), 9, "the first strip is not repeated");
    // Followed by its first four stops again: a few new windows on every
    // reel, enough to take the walk past its limit (and the RTP past 100%).
    let mirrored = rewrite(&|inner| {
        let head: Vec<&str> = inner.split(", ").take(4).collect();
        format!("{inner}, {}", head.join(", "))
    });
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        file.display().to_string()
    };
    let (long_file, mirrored_file) = (write("ocean-long.ron", &long), write("ocean-mirrored.ron", &mirrored));
    let json = |path: &str| -> serde_json::Value {
        let out = paytable(&["check", path, "--json"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["accepted"], true, "{path}");
        v["report"].clone()
    };
    let (short, long) = (json(&sample("ocean-treasure.ron")), json(&long_file));
    // (Refused, over 100%: its report is still given.)
    let mirrored: serde_json::Value = serde_json::from_slice(&paytable(&["check", &mirrored_file, "--json"]).stdout).unwrap();
    let mirrored = mirrored["report"].clone();
    // Issue 36, point 4: the long strips are walked by their distinct
    // windows, and every figure is the short game's, the hit frequency and
    // the largest base win included.
    assert_eq!((short["method"].as_str(), long["method"].as_str()), (Some("FullCycle"), Some("FullCycle")));
    assert_eq!(short["walk"], long["walk"]);
    let configs = short["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 5);
    // Issue 73: the game's figure alone is named "rtp"; its parts are shares.
    for c in configs {
        let rtp: Vec<&String> = c.as_object().unwrap().keys().filter(|k| k.contains("rtp")).collect();
        assert_eq!(rtp, ["rtp_exact", "rtp_percent"], "{c}");
    }
    for (a, b) in configs.iter().zip(long["configs"].as_array().unwrap()) {
        for figure in ["rtp_exact", "share_free_games_percent", "hit_frequency_percent", "max_base_win_credits_per_line_credit", "standard_deviation"] {
            assert_eq!(a[figure], b[figure], "lines {}: {figure}", a["lines"]);
        }
        assert!(!b["hit_frequency_percent"].is_null());
    }
    // The mirrored strips are past the walk: the RTP and the SD come from
    // symbol counts, and the report says exactly why the rest is not given.
    assert_eq!(mirrored["method"], "SymbolCounts");
    let walk: u128 = mirrored["walk"].as_str().unwrap().parse().unwrap();
    assert!(walk > mirrored["walk_limit"].as_str().unwrap().parse().unwrap());
    assert!(mirrored["configs"].as_array().unwrap().iter().all(|c| c["hit_frequency_percent"].is_null()));
    let out = paytable(&["check", &mirrored_file]);
    let s = text(&out.stdout);
    assert!(s.contains("exact from symbol counts") && s.contains(&format!("{walk} here, past the limit of 20000000")), "{s}");
}

/// Issue 30: a roulette table's check gives every chance and call bet its
/// exact RTP as a fraction (36/37 on the French wheel, 18/19 on 0 and 00),
/// refuses a floor above them by naming each bet, and `par` and `simulate`
/// work for roulette as for reels.
#[test]
fn roulette_check_par_and_simulate() {
    let out = paytable(&["check", &sample("roleta-francesa.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bets = v["bets"].as_array().unwrap();
    assert_eq!(bets.len(), 18, "ten chances and eight call bets");
    assert!(bets.iter().all(|b| b["rtp_exact"] == "36/37"), "{bets:?}");
    assert!(bets.iter().any(|b| b["bet"].as_str().unwrap().contains("órfãos") && b["covers"] == 8));
    let out = paytable(&["check", &sample("roleta-americana.ron")]);
    let s = text(&out.stdout);
    assert!(out.status.success() && s.contains("18/19") && s.contains("94.7368") && !s.contains("36/37"), "{s}");
    let out = paytable(&["check", &sample("roleta-americana.ron"), "--floor", "95"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.matches("REFUSED").count(), 10, "every chance named: {err}");
    assert!(err.contains("the bet pleno / straight-up returns 94.7368%, under the floor of 95.0000%"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("roleta-francesa.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = std::fs::read_to_string(dir.path().join("roleta-francesa-par.md")).unwrap();
    assert!(md.contains("| órfãos / orphelins | 8 | 5 chips | 36/37 | 97.2973 |"), "{md}");
    assert_eq!(std::fs::read_to_string(dir.path().join("roleta-francesa-bets.csv")).unwrap().lines().count(), 19);
    let out = paytable(&["simulate", &sample("roleta-francesa.ron"), "--games", "300000", "--seed", "3", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 300_000);
    assert!((v["exact_rtp"].as_f64().unwrap() - 36.0 / 37.0).abs() < 1e-12);
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
}

/// Issue 30: the dice tables' checks, exact over the 216 throws; the floor
/// names every bet under it; par and simulate work for them.
#[test]
fn dice_check_par_and_simulate() {
    let out = paytable(&["check", &sample("banca-francesa.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bets = v["bets"].as_array().unwrap();
    assert_eq!(bets.len(), 3);
    assert!(bets.iter().all(|b| b["rtp_exact"] == "62/63"), "{bets:?}");
    let out = paytable(&["check", &sample("cussec.ron"), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bets"].as_array().unwrap().len(), 50);
    assert_eq!(v["lowest_rtp_exact"], "5/6");
    let small = v["bets"].as_array().unwrap().iter().find(|b| b["bet"].as_str().unwrap().starts_with("pequeno")).unwrap().clone();
    assert_eq!(small["rtp_exact"], "35/36");
    let out = paytable(&["check", &sample("cussec.ron"), "--floor", "90"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    // Under 90%: the 15 combinations (5/6), the 6 triples (191/216) and the
    // totals 8, 10, 11, 13 (7/8); totals 7 and 14 (65/72) stay just over.
    assert_eq!(err.matches("REFUSED").count(), 15 + 6 + 4, "{err}");
    assert!(!err.contains("total 7 /"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("cussec.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("cussec-bets.csv")).unwrap().lines().count(), 51);
    for file in ["banca-francesa.ron", "cussec.ron"] {
        let out = paytable(&["simulate", &sample(file), "--games", "200000", "--seed", "8", "--json"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["exact_inside_ci99"], true, "{file}: {v}");
    }
}

/// Boule (issue 72, BO-8/BO-9): `check` lists the cloth's 100 chances, each
/// at exactly 24/25, and refuses every one by name under a 97% floor;
/// `par` writes them; `simulate` of the production draw lies inside its
/// 99% interval; `compile` makes an artifact at 24/25 that a cabinet's
/// catalogue refuses by name, boule not being hosted yet.
#[test]
fn boule_check_par_simulate_and_compile() {
    let out = paytable(&["check", &sample("boule.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bets = v["bets"].as_array().unwrap();
    assert_eq!(bets.len(), 100);
    assert!(bets.iter().all(|b| b["rtp_exact"] == "24/25"), "{bets:?}");
    let star = bets.iter().find(|b| b["bet"] == "estrela / star").unwrap();
    assert_eq!((star["pays"].as_str(), star["hit_percent"].as_str()), (Some("23:1"), Some("4.0000")));
    let out = paytable(&["check", &sample("boule.ron"), "--floor", "97"]);
    assert!(!out.status.success());
    assert_eq!(text(&out.stderr).matches("REFUSED").count(), 100);
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("boule.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("boule-bets.csv")).unwrap().lines().count(), 101);
    let out = paytable(&["simulate", &sample("boule.ron"), "--games", "200000", "--seed", "8", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let artifact = dir.path().join("boule.json");
    let out = paytable(&["compile", &sample("boule.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "24/25".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name(), hosted.family(game_host::names::Lang::Pt)), ("boule", "Boule", "boule"));
}

/// Fantan (issue 72, Macau 58/2004): `check` gives the 38 chances the
/// digest's figures (fan 77/80 the lowest), a 97% floor refuses the four
/// fans by name; `par` and `simulate` work; the artifact is refused by a
/// cabinet's catalogue by name, fantan not being hosted yet.
#[test]
fn fantan_check_par_simulate_and_compile() {
    let out = paytable(&["check", &sample("fantan.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bets = v["bets"].as_array().unwrap();
    assert_eq!(bets.len(), 38);
    let rtp = |name: &str| bets.iter().find(|b| b["bet"].as_str().unwrap().starts_with(name)).unwrap()["rtp_exact"].as_str().unwrap().to_owned();
    assert_eq!([rtp("fan 4"), rtp("nim 1"), rtp("nga 2-4"), rtp("sé-sam-hong"), rtp("kuoc")], ["77/80", "39/40", "79/80", "79/80", "39/40"]);
    assert_eq!(v["lowest_rtp_exact"], "77/80");
    let out = paytable(&["check", &sample("fantan.ron"), "--floor", "97"]);
    assert!(!out.status.success());
    assert_eq!(text(&out.stderr).matches("REFUSED").count(), 4);
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("fantan.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("fantan-bets.csv")).unwrap().lines().count(), 39);
    let out = paytable(&["simulate", &sample("fantan.ron"), "--games", "200000", "--seed", "8", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let artifact = dir.path().join("fantan.json");
    let out = paytable(&["compile", &sample("fantan.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "77/80".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name(), hosted.family(game_host::names::Lang::En)), ("fantan", "Fantan", "fan-tan"));
}

/// Desafio ao casino (issue 72, DC-1…14): `check` gives the ante's exact
/// return going to war and surrendering, and the tie bet's; with 4 decks
/// the tie bet is refused by its line; `simulate` (war on every tie) lies
/// inside its 99 % interval; the artifact is hosted by the catalogue.
#[test]
fn desafio_ao_casino_check_simulate_and_compile() {
    let out = paytable(&["check", &sample("desafio-ao-casino.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rtp: Vec<&str> = v["bets"].as_array().unwrap().iter().map(|b| b["rtp_exact"].as_str().unwrap()).collect();
    assert_eq!(rtp, ["521662/533231", "599/622", "253/311"]);
    let dir = tempfile::tempdir().unwrap();
    let four = dir.path().join("four.ron");
    std::fs::write(&four, std::fs::read_to_string(sample("desafio-ao-casino.ron")).unwrap().replace("decks: 6", "decks: 4")).unwrap();
    let out = paytable(&["check", four.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("four.ron:12:") && text(&out.stderr).contains("79.7101% (55/69) with 4 decks"), "{}", text(&out.stderr));
    let out = paytable(&["simulate", &sample("desafio-ao-casino.ron"), "--games", "200000", "--seed", "6", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let artifact = dir.path().join("w.json");
    let out = paytable(&["compile", &sample("desafio-ao-casino.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "253/311".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name()), ("desafio-ao-casino", "Desafio ao Casino"));
}

/// Craps (issue 72, seed 000 rules 19–25): `check` gives every spot's
/// exact return (the digest's pass 488/495, don't pass 217/220, field
/// 17/18), a spot the cloth has not is refused by its line, `simulate`
/// rolls series inside the 99 % interval, the artifact is hosted.
#[test]
fn craps_check_simulate_and_compile() {
    let out = paytable(&["check", &sample("craps.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rtp: Vec<&str> = v["bets"].as_array().unwrap().iter().map(|b| b["rtp_exact"].as_str().unwrap()).collect();
    assert_eq!(&rtp[..3], ["488/495", "217/220", "17/18"]);
    assert_eq!(v["lowest_rtp_exact"], "5/6");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, std::fs::read_to_string(sample("craps.ron")).unwrap().replace("Hard(10),", "Hard(10), Hard(5),")).unwrap();
    let out = paytable(&["check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("bad.ron:17:") && text(&out.stderr).contains("Hard(5) is no spot of the cloth"), "{}", text(&out.stderr));
    let out = paytable(&["simulate", &sample("craps.ron"), "--games", "200000", "--seed", "8", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let artifact = dir.path().join("c.json");
    let out = paytable(&["compile", &sample("craps.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "5/6".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name()), ("craps", "Craps"));
}

/// Póquer de 3 cartas (issue 72, P3-1…29 banked by the house): `check`
/// gives the ante's exact return (97.3164 %), `simulate` lies inside its
/// 99 % interval, the artifact records the figure and is hosted.
#[test]
fn poquer_3_cartas_check_simulate_and_compile() {
    let out = paytable(&["check", &sample("poquer-3-cartas.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lowest_rtp_exact"], "152401359/156604000");
    let out = paytable(&["simulate", &sample("poquer-3-cartas.ron"), "--games", "200000", "--seed", "4", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let dir = tempfile::tempdir().unwrap();
    let artifact = dir.path().join("p3.json");
    let out = paytable(&["compile", &sample("poquer-3-cartas.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "152401359/156604000".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name()), ("poquer-3-cartas", "Póquer de 3 Cartas"));
}

/// Peixe-camarão-caranguejo (issue 72, Macau 59/2004): `check` gives the
/// shipped table's 14 bets their exact figures (the totals 9 and 12 the
/// lowest at 175/216); a file offering every bet of the text is refused,
/// each bet under 80% by its line with its figure (M-17); `par` and
/// `simulate` work; the artifact is hosted.
#[test]
fn fish_prawn_crab_check_par_simulate_compile_and_the_texts_bets_refused() {
    let out = paytable(&["check", &sample("peixe-camarao-caranguejo.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rtp: Vec<&str> = v["bets"].as_array().unwrap().iter().map(|b| b["rtp_exact"].as_str().unwrap()).collect();
    assert_eq!(rtp, ["35/36", "35/36", "199/216", "8/9", "8/9", "8/9", "65/72", "7/8", "175/216", "7/8", "7/8", "175/216", "7/8", "65/72"]);
    assert_eq!(v["lowest_rtp_exact"], "175/216");
    // Every bet of Art. 5: the compiler names the nine under the floor.
    let dir = tempfile::tempdir().unwrap();
    let every = std::fs::read_to_string(sample("peixe-camarao-caranguejo.ron")).unwrap().replace(
        "        Total(7), Total(8),",
        "        ThreeOfColour, FigureTriple, AnyTriple,\n        Total(4), Total(5), Total(6), Total(15), Total(16), Total(17),\n        Total(7), Total(8),",
    );
    let file = dir.path().join("every-bet.ron");
    std::fs::write(&file, every).unwrap();
    let out = paytable(&["check", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    let refused: Vec<&str> = err.lines().filter(|l| l.contains("(M-17)")).collect();
    assert_eq!(refused.len(), 9, "{err}");
    for (line, what) in [
        (18, "three dice of a chosen colour returns 77.7778% (7/9)"),
        (18, "three dice of a chosen figure returns 69.9074% (151/216)"),
        (18, "any three equal figures returns 69.4444% (25/36)"),
        (19, "total 4 returns 70.8333% (17/24)"),
        (19, "total 16 returns 52.7778% (19/36)"),
    ] {
        assert!(refused.iter().any(|l| l.contains(&format!("every-bet.ron:{line}:")) && l.contains(what)), "{what} at line {line}: {err}");
    }
    let out = paytable(&["par", &sample("peixe-camarao-caranguejo.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("peixe-camarao-caranguejo-bets.csv")).unwrap().lines().count(), 15);
    let out = paytable(&["simulate", &sample("peixe-camarao-caranguejo.ron"), "--games", "200000", "--seed", "8", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let artifact = dir.path().join("pcc.json");
    let out = paytable(&["compile", &sample("peixe-camarao-caranguejo.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "175/216".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name()), ("peixe-camarao-caranguejo", "Peixe-Camarão-Caranguejo"));
}

/// Roda da sorte (issue 72, RS-3/RS-10): `check` gives the seven bets the
/// digest's figures, the 20 the lowest at 42/52; an 85% floor refuses the
/// 10 and the 20 by name; `par` writes them; `simulate` of the production
/// draw lies inside its 99% interval; the artifact is refused by a
/// cabinet's catalogue by name, the wheel not being hosted yet.
#[test]
fn roda_da_sorte_check_par_simulate_and_compile() {
    let out = paytable(&["check", &sample("roda-da-sorte.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rtp: Vec<&str> = v["bets"].as_array().unwrap().iter().map(|b| b["rtp_exact"].as_str().unwrap()).collect();
    assert_eq!(rtp, ["12/13", "12/13", "12/13", "11/13", "21/26", "23/26", "23/26"]);
    assert_eq!(v["lowest_rtp_exact"], "21/26");
    let out = paytable(&["check", &sample("roda-da-sorte.ron"), "--floor", "85"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.matches("REFUSED").count(), 2, "{err}");
    assert!(err.contains("the bet 20 / 20 returns 80.7692%"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("roda-da-sorte.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("roda-da-sorte-bets.csv")).unwrap().lines().count(), 8);
    let out = paytable(&["simulate", &sample("roda-da-sorte.ron"), "--games", "200000", "--seed", "8", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
    let artifact = dir.path().join("roda.json");
    let out = paytable(&["compile", &sample("roda-da-sorte.ron"), "-o", artifact.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(&artifact).unwrap()).unwrap();
    assert_eq!(a.rtp, vec![(0, "21/26".to_owned())]);
    let hosted = game_host::catalogue::HostedGame::from_artifact(a.game).unwrap();
    assert_eq!((hosted.id(), hosted.name(), hosted.family(game_host::names::Lang::En)), ("roda-da-sorte", "Roda da Sorte", "wheel of fortune"));
}

/// Baccarat (issue 31): `check` gives each bet's exact RTP as a fraction
/// (the published 8-deck figures: banca 98.94%, ponto 98.76%, empate
/// 85.64%; the pairs (4d−1)/(52d−1) × 12), refuses the pairs and the tie
/// under a 90% floor by name; `par` writes every bet; `simulate` of 10^6
/// coups through the production deal lies inside its 99% interval.
#[test]
fn baccarat_check_par_and_simulate() {
    let out = paytable(&["check", &sample("bacara.ron"), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bets = v["bets"].as_array().unwrap();
    let pct: Vec<&str> = bets.iter().map(|b| b["rtp_percent"].as_str().unwrap()).collect();
    assert!(pct[0].starts_with("98.76") && pct[1].starts_with("98.94") && pct[2].starts_with("85.64"), "{pct:?}");
    assert_eq!(bets[3]["rtp_exact"], "372/415");
    assert_eq!(v["lowest_rtp_exact"], bets[2]["rtp_exact"]);
    let out = paytable(&["check", &sample("bacara-6-sem-comissao.ron"), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["bets"][1]["rtp_percent"].as_str().unwrap().starts_with("99.06"), "{v}");
    assert_eq!(v["bets"][3]["rtp_exact"], "276/311");
    let out = paytable(&["check", &sample("bacara.ron"), "--floor", "90"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.matches("REFUSED").count(), 3, "{err}");
    assert!(err.contains("the bet empate / tie returns 85.6404%"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = paytable(&["par", &sample("bacara.ron"), "-o", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("bacara-bets.csv")).unwrap().lines().count(), 6);
    let out = paytable(&["simulate", &sample("bacara.ron"), "--games", "1000000", "--seed", "8", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exact_inside_ci99"], true, "{v}");
}

/// Issue 50: `paytable generate` writes strips at the RTP asked, which
/// `paytable check` then proves on its own; a target out of reach or a
/// malformed one is refused with its reason.
#[test]
fn generate_writes_strips_that_check_proves_at_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("floresta-94.ron");
    let run = paytable(&["generate", &sample("floresta-243.ron"), "-o", &out.display().to_string(), "--rtp", "94.00", "--hit", "30..36", "--seed", "7"]);
    assert!(run.status.success(), "{}{}", text(&run.stdout), text(&run.stderr));
    assert!(text(&run.stdout).contains("every target met"), "{}", text(&run.stdout));
    let check = paytable(&["check", &out.display().to_string(), "--json"]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    let v: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let rtp: f64 = v["report"]["configs"][0]["rtp_percent"].as_str().unwrap().parse().unwrap();
    assert!((rtp - 94.0).abs() <= 0.01, "checked RTP {rtp} %");
    // Issue 73: the file written is an RTP variant with an id of its own
    // (the file's name), approved beside its source without an edit.
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("    id: \"floresta-94\",\n    variant_of: Some(\"floresta-243\"),"), "{written}");
    let manifest = dir.path().join("approved.ron");
    for (src, id) in [(sample("floresta-243.ron"), "floresta-243"), (out.display().to_string(), "floresta-94")] {
        let artifact = dir.path().join(format!("{id}.json"));
        let run = paytable(&["compile", &src, "-o", &artifact.display().to_string(), "--approve-into", &manifest.display().to_string()]);
        assert!(run.status.success(), "{id}: {}", text(&run.stderr));
    }
    let approved = std::fs::read_to_string(&manifest).unwrap();
    assert!(approved.contains("id: \"floresta-243\"") && approved.contains("id: \"floresta-94\""), "{approved}");
    let a: paytables::artifact::Artifact = serde_json::from_slice(&std::fs::read(dir.path().join("floresta-94.json")).unwrap()).unwrap();
    let paytables::artifact::CompiledGame::Reels(g) = a.game else { panic!("not a reel game") };
    assert_eq!(g.variant_of.as_deref(), Some("floresta-243"));
    // An output named after the source's game would take its id: refused.
    let same = dir.path().join("floresta-243.ron");
    let run = paytable(&["generate", &sample("floresta-243.ron"), "-o", &same.display().to_string(), "--rtp", "94.00", "--steps", "5"]);
    assert!(!run.status.success() && text(&run.stderr).contains("needs an id of its own"), "{}", text(&run.stderr));
    // Out of reach: the file is still written, the miss named, exit 1.
    let run = paytable(&["generate", &sample("floresta-243.ron"), "-o", &out.display().to_string(), "--rtp", "99.99", "--hit", "90..95", "--steps", "50"]);
    assert_eq!(run.status.code(), Some(1));
    let said = text(&run.stdout);
    assert!(said.contains("not met: RTP 99.9900 % asked") && said.contains("not met: hit frequency 90.00–95.00 % asked"), "{said}");
    // Malformed targets.
    let run = paytable(&["generate", &sample("floresta-243.ron"), "-o", &out.display().to_string(), "--rtp", "70"]);
    assert!(!run.status.success() && text(&run.stderr).contains("--rtp 70"), "{}", text(&run.stderr));
    let run = paytable(&["generate", &sample("floresta-243.ron"), "-o", &out.display().to_string(), "--rtp", "94", "--hit", "40..30"]);
    assert!(text(&run.stderr).contains("the band's low end is above its high end"), "{}", text(&run.stderr));
}

/// M-40: each game's rules page, published from its paytable in both
/// languages — the help screen's own blocks (`game_host::help`): the
/// rules, the bet range, every pay, the exact RTP (classic sevens 95.3735%,
/// shown to two decimals as on the help screen; jacks or better 9/6
/// 99.5439% at five coins, Ethier's published figure, 98.37% below, where
/// the royal pays 250 a coin), the odds disclosure. A paytable the
/// compiler refuses has no page.
#[test]
fn rules_publish_each_game_s_page_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rules");
    for game in [
        "classic-sevens",
        "floresta-243",
        "dragao-1024",
        "jacks-or-better-9-6",
        "poquer-sem-descarte",
        "roleta-francesa",
        "banca-francesa",
        "cussec",
        "bacara",
        "blackjack",
        "bingo-90",
    ] {
        let run = paytable(&[
            "rules",
            &sample(&format!("{game}.ron")),
            "-o",
            out.to_str().unwrap(),
            "--approved",
            &sample("approved.ron"),
            "--compiled",
            &sample("compiled"),
        ]);
        assert!(run.status.success(), "{game}: {}", text(&run.stderr));
        let pt = std::fs::read_to_string(out.join(format!("{game}.pt.md"))).unwrap();
        let en = std::fs::read_to_string(out.join(format!("{game}.en.md"))).unwrap();
        // Issue 77: an approved paytable's page is no draft.
        assert!(!pt.contains("RASCUNHO") && !en.contains("DRAFT") && !text(&run.stderr).contains("not approved"), "{game}: {en}");
        assert!(pt.contains("\n## Regras") && pt.contains("Aposta mínima") && pt.contains("## Reclamações"), "{game}: {pt}");
        assert!(en.contains("\n## Rules") && en.contains("Minimum bet") && en.contains("## Complaints"), "{game}: {en}");
        // Written apart from a cabinet: what a cabinet attaches is said to
        // be its configuration's, not that there is none.
        assert!(en.contains("are those of each machine's configuration"), "{game}: {en}");
    }
    let sevens = std::fs::read_to_string(out.join("classic-sevens.en.md")).unwrap();
    assert!(sevens.starts_with("# Sevens Classic\n"), "{sevens}");
    assert!(sevens.contains("Theoretical return to player (RTP): 95.37 %"), "{sevens}");
    assert!(sevens.contains("| Seven | — | — | 100 |"), "{sevens}");
    assert!(sevens.contains("Minimum bet 1 credit (0.01 EUR)"), "{sevens}");
    let jacks = std::fs::read_to_string(out.join("jacks-or-better-9-6.pt.md")).unwrap();
    assert!(jacks.contains("Retorno teórico ao jogador (RTP): 98.37 – 99.54 %"), "{jacks}");
    let jacks = std::fs::read_to_string(out.join("jacks-or-better-9-6.en.md")).unwrap();
    assert!(jacks.contains("| Royal Flush | 250 | 500 | 750 | 1000 | 4000 |"), "{jacks}");
    // Roulette: each chance returns 36/37 = 97.2972…%, 97.30% to two decimals (M-40 rounds).
    let roulette = std::fs::read_to_string(out.join("roleta-francesa.en.md")).unwrap();
    assert!(roulette.contains("| straight-up | 1 | 35:1 | 1 – 30 | 97.30% |"), "{roulette}");

    // One language, at a denomination, to standard output.
    let run = paytable(&["rules", &sample("classic-sevens.ron"), "--lang", "pt", "--denom", "25"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let s = text(&run.stdout);
    assert!(s.contains("Aposta mínima 1 crédito (0,25 EUR)") || s.contains("Aposta mínima 1 crédito (0.25 EUR)"), "{s}");
    assert!(!s.contains("## Rules"), "{s}");

    // Issue 77: published for a configuration, the page lists the levels
    // it attaches to the game and what each asks of the bet (the shipped
    // Grande: three sevens at the largest bet per line, G-50); a game it
    // attaches none to says so; a configuration that cannot be read is named.
    let shipped = sample("../config/cabinet.ron");
    let run = paytable(&["rules", &sample("classic-sevens.ron"), "--lang", "pt", "--config", &shipped]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let s = text(&run.stdout);
    assert!(s.contains("Grande — 3 × 7 numa linha jogada, com a aposta máxima por linha; 1% de cada aposta"), "{s}");
    assert!(s.contains("Mistério — mistério: ganho pela aposta que o faz passar um valor oculto"), "{s}");
    assert!(!s.contains("são os da configuração de cada máquina"), "{s}");
    let run = paytable(&["rules", &sample("classic-sevens.ron"), "--lang", "en", "--config", &shipped]);
    assert!(text(&run.stdout).contains("Grand — 3 × 7 on a played line, at the largest bet per line; 1% of each bet"), "{}", text(&run.stdout));
    let run = paytable(&["rules", &sample("roleta-francesa.ron"), "--lang", "pt", "--config", &shipped]);
    assert!(text(&run.stdout).contains("Este jogo não está ligado a nenhum progressivo."), "{}", text(&run.stdout));
    let run = paytable(&["rules", &sample("classic-sevens.ron"), "--config", &sample("no-such-cabinet.ron")]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("no-such-cabinet.ron"), "{}", text(&run.stderr));

    // The odds disclosure a paytable carries is published with its rules.
    let src = std::fs::read_to_string(sample("classic-sevens.ron")).unwrap();
    let disclosed = dir.path().join("disclosed.ron");
    let end = src.rfind(')').unwrap();
    std::fs::write(&disclosed, format!("{}    odds_disclosure: Some(\"The top award is won about once in 8,000 games.\"),\n{}", &src[..end], &src[end..]))
        .unwrap();
    let run = paytable(&["rules", disclosed.to_str().unwrap(), "--lang", "en", "--approved", &sample("approved.ron"), "--compiled", &sample("compiled")]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(text(&run.stdout).contains("## Odds\n\nThe top award is won about once in 8,000 games."), "{}", text(&run.stdout));
    // Issue 77: edited, it is no longer the approved paytable: its page is
    // headed as a draft, and the designer told why.
    assert!(text(&run.stdout).starts_with("# Sevens Classic\n\n**DRAFT — paytable not approved**"), "{}", text(&run.stdout));
    assert!(
        text(&run.stderr).contains("disclosed.ron: not approved in") && text(&run.stderr).contains("the page is headed as a draft"),
        "{}",
        text(&run.stderr)
    );

    // A refused paytable has no page, and the refusal is named.
    let stingy = dir.path().join("stingy.ron");
    std::fs::write(&stingy, src.replace("pays: 50)", "pays: 5)").replace("pays: 20)", "pays: 2)").replace("pays: 12)", "pays: 1)")).unwrap();
    let run = paytable(&["rules", stingy.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("under the floor of 80.0000%"), "{}", text(&run.stderr));
    assert!(run.stdout.is_empty());
    let run = paytable(&["rules", &sample("classic-sevens.ron"), "--denom", "0"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("--denom must be at least 1 cent"), "{}", text(&run.stderr));
}

/// Issue 76: every command the README and its guides show runs as shown.
/// Each `tools/` script named is there and executable; each program of
/// the workspace a shell block runs (by `cargo run … --bin NAME --` or by
/// its name) answers `--help` for the subcommand named (every one of
/// `a|b|c`), and knows each long option the line gives it.
#[cfg(feature = "lab")]
#[test]
fn every_command_the_guides_show_runs_as_shown() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let programs: [(&str, &str); 6] = [
        ("paytable", env!("CARGO_BIN_EXE_paytable")),
        ("egm-lab", env!("CARGO_BIN_EXE_egm-lab")),
        ("egm-progressive", env!("CARGO_BIN_EXE_egm-progressive")),
        ("egm-acceptor", env!("CARGO_BIN_EXE_egm-acceptor")),
        ("egm-printer", env!("CARGO_BIN_EXE_egm-printer")),
        ("egm-sas-host", env!("CARGO_BIN_EXE_egm-sas-host")),
    ];
    let mut helps: std::collections::HashMap<Vec<String>, (bool, String)> = std::collections::HashMap::new();
    let mut help = |args: &[String]| -> (bool, String) {
        helps
            .entry(args.to_vec())
            .or_insert_with(|| {
                let exe = programs.iter().find(|(n, _)| *n == args[0]).map(|(_, e)| *e).unwrap();
                let out = std::process::Command::new(exe).args(&args[1..]).arg("--help").output().unwrap();
                (out.status.success(), format!("{}{}", text(&out.stdout), text(&out.stderr)))
            })
            .clone()
    };
    let subcommands = |help_text: &str| -> Vec<String> {
        help_text
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.strip_prefix("  ").and_then(|l| l.split_whitespace().next()).map(str::to_owned))
            .collect()
    };
    let mut guides = vec![root.join("README.md")];
    guides.extend(["install", "operate", "certify", "design", "develop"].map(|g| root.join("docs").join(format!("{g}.md"))));
    let (mut checked, mut wrong) = (0, Vec::new());
    for guide in &guides {
        let body = std::fs::read_to_string(guide).unwrap_or_else(|e| panic!("{}: {e}", guide.display()));
        let mut shell = false;
        for (n, line) in body.lines().enumerate() {
            if line.starts_with("```") {
                shell = line.trim() == "```sh";
                continue;
            }
            if !shell || line.starts_with('#') || line.starts_with(' ') {
                continue;
            }
            let at = format!("{}:{}", guide.display(), n + 1);
            let code = line.split("  #").next().unwrap_or(line);
            let tokens: Vec<&str> = code.split_whitespace().map(|t| t.trim_matches(|c| matches!(c, '"' | '$' | '(' | ')'))).collect();
            for t in tokens.iter().filter(|t| t.starts_with("tools/")) {
                checked += 1;
                let script = root.join(t);
                let executable = std::fs::metadata(&script).is_ok_and(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0);
                if !executable {
                    wrong.push(format!("{at}: {t} is not an executable script"));
                }
            }
            let (program, rest): (&str, &[&str]) = match tokens.iter().position(|t| *t == "--bin") {
                Some(i) => {
                    let after = tokens[i..].iter().position(|t| *t == "--").map_or(tokens.len(), |d| i + d + 1);
                    (tokens.get(i + 1).copied().unwrap_or(""), &tokens[after..])
                }
                None => match tokens.iter().position(|t| programs.iter().any(|(p, _)| p == t)) {
                    Some(i) => (tokens[i], &tokens[i + 1..]),
                    None => continue,
                },
            };
            checked += 1;
            let top = help(&[program.to_owned()]);
            let subs = subcommands(&top.1);
            let named: Vec<String> =
                rest.iter().map(|t| t.split('|').map(str::to_owned).collect::<Vec<_>>()).find(|alts| alts.iter().all(|a| subs.contains(a))).unwrap_or_default();
            let asked: Vec<Vec<String>> =
                if named.is_empty() { vec![vec![program.to_owned()]] } else { named.iter().map(|s| vec![program.to_owned(), s.clone()]).collect() };
            for args in asked {
                let (ok, answer) = help(&args);
                if !ok {
                    wrong.push(format!("{at}: `{} --help` fails", args.join(" ")));
                    continue;
                }
                for option in rest.iter().filter(|t| t.starts_with("--") && t.len() > 2).map(|t| t.split('=').next().unwrap_or(t)) {
                    let knows = |h: &str| h.split(|c: char| !(c.is_alphanumeric() || c == '-')).any(|w| w == option);
                    if !knows(&answer) && !knows(&top.1) {
                        wrong.push(format!("{at}: `{}` has no option {option}", args.join(" ")));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 70, "{checked} commands checked: the guides' shell blocks were not read");
}
