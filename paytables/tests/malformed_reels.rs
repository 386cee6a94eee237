//! Issue 50: thirty malformed paytables of the new kinds (ways, reels of
//! their own heights, several wilds, expanding and sticky wilds, RTP
//! variants), each refused at its line with its reason; one valid
//! paytable holds them all, each case breaking one thing.
#![allow(clippy::unwrap_used)]

use paytables::check::{Floor, check};
use paytables::compile;

/// Every new kind at once: a 4-reel ways game whose reels are given their
/// heights, an expanding sticky wild, a second wild for A and K alone, the
/// wilds' multipliers added, free games, an RTP variant.
const BASE: &str = r#"ReelPaytable(
    id: "base-92",
    variant_of: Some("base"),
    name: "Base",
    rows: 3,
    reel_rows: Some([3, 3, 3, 3]),
    ways: true,
    wild_multipliers: Add,
    symbols: [
        (id: "A", name: "Ás"),
        (id: "K", name: "Rei"),
        (id: "Q", name: "Dama"),
        (id: "W", name: "Curinga", kind: Wild(multiplier: 1, expanding: true, sticky: true)),
        (id: "V", name: "Curinga real", kind: Wild(multiplier: 2, substitutes: Some(["A", "K"]))),
        (id: "S", name: "Dispersão", kind: Scatter),
    ],
    reels: [
        ["A", "K", "Q", "A", "S", "K"],
        ["K", "W", "A", "V", "Q", "S", "A"],
        ["Q", "A", "S", "K", "W", "V"],
        ["A", "Q", "K", "S", "W", "K"],
    ],
    pays: [
        (symbol: "A", count: 2, pays: 1),
        (symbol: "A", count: 3, pays: 4),
        (symbol: "A", count: 4, pays: 20),
        (symbol: "K", count: 3, pays: 3),
        (symbol: "K", count: 4, pays: 10),
        (symbol: "Q", count: 3, pays: 2),
        (symbol: "Q", count: 4, pays: 8),
    ],
    scatter: Some((symbol: "S", pays: {3: 5}, free_games: Some((awards: {3: 2, 4: 5}, multiplier: 2, retrigger: false)))),
    bet: (lines: [25], credits_per_line: [1, 2]),
)"#;

const PAYLINES: &str = "    lines: [[0, 0, 0, 0]],\n";

#[test]
fn thirty_malformed_paytables_of_the_new_kinds_are_refused_at_their_lines() {
    compile("base.ron", BASE).unwrap();
    // (what is broken, the text replaced, its replacement, the line, the reason)
    let cases: [(&str, &str, &str, usize, &str); 29] = [
        ("a sticky wild that does not expand", "expanding: true, sticky", "expanding: false, sticky", 13, "is sticky but does not expand"),
        ("a sticky wild with retriggers", "retrigger: false", "retrigger: true", 13, "the free games retrigger"),
        (
            "a sticky wild without free games",
            ", free_games: Some((awards: {3: 2, 4: 5}, multiplier: 2, retrigger: false))",
            "",
            13,
            "sticky in free games, and the game has none",
        ),
        ("a wild substituting for itself", "Some([\"A\", \"K\"])", "Some([\"A\", \"V\"])", 14, "the wild V substitutes for itself"),
        ("a wild substituting for a wild", "Some([\"A\", \"K\"])", "Some([\"A\", \"W\"])", 14, "another wild"),
        ("a wild substituting for the scatter", "Some([\"A\", \"K\"])", "Some([\"S\"])", 14, "the scatter: a scatter pays anywhere"),
        ("a wild substituting for an unknown symbol", "Some([\"A\", \"K\"])", "Some([\"A\", \"J\"])", 14, "\"J\", which is not a symbol of the game"),
        ("a symbol listed twice", "Some([\"A\", \"K\"])", "Some([\"K\", \"K\"])", 14, "lists \"K\" twice"),
        ("an empty substitution list", "Some([\"A\", \"K\"])", "Some([])", 14, "substitutes nothing"),
        ("a wild multiplying by 0", "Wild(multiplier: 2,", "Wild(multiplier: 0,", 14, "a wild multiplier must be at least 1"),
        ("two expanding wilds", "Wild(multiplier: 2,", "Wild(multiplier: 2, expanding: true,", 14, "at most one expanding wild"),
        ("reel heights for too few reels", "Some([3, 3, 3, 3])", "Some([3, 3, 3])", 6, "reel_rows gives 3 reels, the game has 4"),
        ("a reel of no rows", "Some([3, 3, 3, 3])", "Some([3, 0, 3, 3])", 6, "a reel shows 1 to 8 rows, not 0"),
        ("a reel of nine rows", "Some([3, 3, 3, 3])", "Some([3, 9, 3, 3])", 6, "a reel shows 1 to 8 rows, not 9"),
        ("rows other than the tallest reel", "    rows: 3,\n", "    rows: 4,\n", 6, "rows is the tallest reel's rows: 3 here, not 4"),
        (
            "paylines on a ways game",
            "    wild_multipliers: Add,\n",
            "    wild_multipliers: Add,\n    lines: [[0, 0, 0, 0]],\n",
            9,
            "a ways game pays in any row: it has no paylines",
        ),
        ("two costs for the ways bet", "lines: [25]", "lines: [25, 50]", 33, "the one cost of its ways bet"),
        ("a wild paid on its own", "(symbol: \"A\", count: 2, pays: 1),", "(symbol: \"V\", count: 2, pays: 1),", 24, "never starts a way"),
        ("a variant of itself", "Some(\"base\")", "Some(\"base-92\")", 3, "an id other than its own"),
        ("a variant of nothing", "Some(\"base\")", "Some(\"\")", 3, "variant_of names the game"),
        ("a variant of a malformed id", "Some(\"base\")", "Some(\"base 92\")", 3, "variant_of names the game"),
        ("wild multipliers on a payline game", "    ways: true,\n", PAYLINES, 8, "it is for ways games"),
        ("an expanding wild on a payline game", "    ways: true,\n", PAYLINES, 13, "expanding wilds are built for ways games"),
        ("a sticky wild on a payline game", "    ways: true,\n", PAYLINES, 13, "sticky wilds are built for ways games"),
        ("a substitution list on a payline game", "    ways: true,\n", PAYLINES, 14, "substitution lists are built for ways games"),
        ("a second wild on a payline game", "    ways: true,\n", PAYLINES, 14, "a payline game has one wild symbol"),
        ("reel heights on a payline game", "    ways: true,\n", PAYLINES, 6, "reel_rows is for ways games"),
        ("an unknown way of combining multipliers", "wild_multipliers: Add", "wild_multipliers: Sum", 8, "Sum"),
        ("a sticky flag that is not a yes or no", "sticky: true", "sticky: 1", 13, "Expected boolean"),
    ];
    for (what, from, to, line, reason) in cases {
        let src = BASE.replacen(from, to, 1);
        assert_ne!(src, BASE, "{what}: nothing replaced");
        let e = match compile("bad.ron", &src) {
            Ok(_) => panic!("{what}: accepted"),
            Err(e) => e.to_string(),
        };
        let at = format!("bad.ron:{line}:");
        assert!(e.lines().any(|l| l.contains(&at) && l.contains(reason)), "{what}: no {reason:?} at {at}\n{e}");
    }
    // The thirtieth: a variant under the floor, refused by the check that
    // proves every variant on its own (M-17), named by its own id.
    // (The same pays for a ways bet 400 times as dear.)
    let stingy = BASE.replace("lines: [25]", "lines: [10000]").replace("pays: {3: 5}", "pays: {3: 1}");
    let game = compile("stingy.ron", &stingy).unwrap();
    let checked = check(&game, &Floor::legal_minimum(), None).unwrap();
    let refusals: Vec<String> = checked.refusals.iter().map(|r| r.to_string()).collect();
    assert!(refusals.iter().any(|r| r.starts_with("base-92 with 10000 lines returns ") && r.contains("under the floor of 80.0000%")), "{refusals:?}");
}
