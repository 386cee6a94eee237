//! Banca francesa, sic bo and fish-prawn-crab through the host's commands, headless on real
//! SQLite files (issue 30): layouts edited with `Command::EditBet`, the
//! limits refused by name, every settled round checked against an
//! independent reading of the text's payouts from the committed dice.

use crate::tables::{open, place, play_layout as play, select};

use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::picture::Scene;
use game_host::session::Lang;
use serde_json::json;

/// §5.2 read again: the sum of the last throw decides ases (3), pequeno
/// (5–7) or grande (14–16), paying 61:1 or 1:1, the stake kept.
fn banca_returned(spots: &[(String, u64)], throws: &[[u8; 3]]) -> u64 {
    let sums: Vec<u8> = throws.iter().map(|t| t.iter().sum()).collect();
    let decisive = |s: u8| s == 3 || (5..=7).contains(&s) || (14..=16).contains(&s);
    assert!(sums[..sums.len() - 1].iter().all(|&s| !decisive(s)), "a decisive throw before the last: {sums:?}");
    let last = *sums.last().unwrap();
    assert!(decisive(last), "the golpe ends undecided: {sums:?}");
    spots
        .iter()
        .map(|(c, stake)| match (c.as_str(), last) {
            ("Ases", 3) => stake * 62,
            ("Pequeno", 5..=7) | ("Grande", 14..=16) => stake * 2,
            _ => 0,
        })
        .sum()
}

#[test]
fn banca_francesa_golpes_settle_on_their_decisive_throw_within_bf_12() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 21);
    select(&mut s, "banca-francesa");
    s.insert_note(5_000);
    let denom = s.denom();
    // Chips of 5: ases takes at most 6 × the minimum of 1.
    s.command(Command::AdjustBet { control: BetControl::Amount, delta: 2 });
    assert!(place(&mut s, json!("Ases")));
    assert!(!place(&mut s, json!("Ases")), "10 on ases is over 6 × the minimum");
    assert!(s.message_text().unwrap().contains("ases: acima do máximo de 6 créditos"), "{:?}", s.message_text());
    assert!(place(&mut s, json!("Pequeno")) && place(&mut s, json!("Grande")) && place(&mut s, json!("Grande")));
    assert!(!place(&mut s, json!("Linha")), "no line bets");
    let mut throws_seen = 0;
    for _ in 0..40 {
        let credit = s.machine().credit();
        let (round, win, stake) = play(&mut s);
        let spots: Vec<(String, u64)> = serde_json::from_value(round["bet"]["spots"].clone()).unwrap();
        let throws: Vec<[u8; 3]> = serde_json::from_value(round["deal"]["throws"].clone()).unwrap();
        throws_seen += throws.len();
        // Issue 45, defect 4: the history draws every throw, the deciding one last.
        let picture = s.history().last().unwrap().picture(Lang::Pt);
        assert_eq!(picture.scene, Scene::Dice(throws.iter().map(|t| t.to_vec()).collect()));
        assert_eq!(stake, 20 * denom);
        assert_eq!(win, banca_returned(&spots, &throws) * denom, "{throws:?}");
        assert_eq!(s.machine().credit(), credit - stake + win);
    }
    assert!(throws_seen > 40, "non-decisive throws are thrown again ({throws_seen} throws in 40 golpes)");
}

/// Rule 8 read again from the digest's table.
fn sic_bo_returned(spot: &serde_json::Value, stake: u64, d: [u8; 3]) -> u64 {
    let sum: u8 = d.iter().sum();
    let n = |f: u64| d.iter().filter(|&&x| u64::from(x) == f).count() as u64;
    let triple = d[0] == d[1] && d[1] == d[2];
    let pays = match spot {
        serde_json::Value::String(s) if s == "Small" => u64::from((4..=10).contains(&sum) && !triple),
        serde_json::Value::String(s) if s == "Big" => u64::from((11..=17).contains(&sum) && !triple),
        serde_json::Value::String(s) if s == "AnyTriple" => 32 * u64::from(triple),
        other => {
            let (kind, v) = other.as_object().unwrap().iter().next().unwrap();
            match kind.as_str() {
                "Single" => n(v.as_u64().unwrap()),
                "Pair" => 5 * u64::from(n(v[0].as_u64().unwrap()) > 0 && n(v[1].as_u64().unwrap()) > 0),
                "Double" => [0, 0, 10, 30][n(v.as_u64().unwrap()) as usize],
                "Triple" => 190 * u64::from(n(v.as_u64().unwrap()) == 3),
                "Total" if v.as_u64().unwrap() == u64::from(sum) => [0, 0, 0, 0, 65, 32, 19, 12, 8, 7, 6, 6, 7, 8, 12, 19, 32, 65][usize::from(sum)],
                _ => 0,
            }
        }
    };
    if pays == 0 { 0 } else { stake * (pays + 1) }
}

#[test]
fn sic_bo_throws_settle_every_spot_at_rule_8s_payout() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 21);
    select(&mut s, "cussec");
    s.insert_note(5_000);
    let denom = s.denom();
    for spot in [
        json!("Small"),
        json!("Big"),
        json!("AnyTriple"),
        json!({ "Single": 3 }),
        json!({ "Pair": [2, 5] }),
        json!({ "Double": 4 }),
        json!({ "Triple": 6 }),
        json!({ "Total": 10 }),
        json!({ "Total": 4 }),
    ] {
        assert!(place(&mut s, spot.clone()), "{spot}: {:?}", s.message_text());
    }
    assert!(!place(&mut s, json!({ "Pair": [3, 3] })), "a pair of one face is no spot");
    assert!(s.message_text().unwrap().contains("não é uma aposta desta mesa"), "{:?}", s.message_text());
    assert!(!place(&mut s, json!({ "Total": 3 })));
    for _ in 0..60 {
        let credit = s.machine().credit();
        let (round, win, stake) = play(&mut s);
        let spots: Vec<(serde_json::Value, u64)> = serde_json::from_value(round["bet"]["spots"].clone()).unwrap();
        let d: [u8; 3] = serde_json::from_value(round["deal"]["dice"].clone()).unwrap();
        let want: u64 = spots.iter().map(|(spot, stake)| sic_bo_returned(spot, *stake, d)).sum();
        let picture = s.history().last().unwrap().picture(Lang::En);
        assert_eq!(picture.scene, Scene::Dice(vec![d.to_vec()]), "the history draws the dice thrown");
        let won = spots.iter().filter(|(spot, stake)| sic_bo_returned(spot, *stake, d) > 0).count();
        let bets = if won == 1 { "1 won" } else { &format!("{won} won") };
        assert_eq!(picture.caption, format!("total {} — 9 bets: {bets}", d.iter().sum::<u8>()), "{d:?}");
        assert_eq!(stake, 9 * denom);
        assert_eq!(win, want * denom, "{d:?}");
        assert_eq!(s.machine().credit(), credit - stake + win);
    }
    // The maximum of the table (200): doubling past it is refused by name.
    s.command(Command::MaxBet);
    assert!(s.command(Command::EditBet { edit: json!("Clear") }));
    assert!(place(&mut s, json!("Big")));
    for _ in 0..3 {
        assert!(s.command(Command::EditBet { edit: json!({ "Kind": "Double" }) }));
    }
    assert!(!s.command(Command::EditBet { edit: json!({ "Kind": "Double" }) }), "400 on big is over 200");
    assert!(s.message_text().unwrap().contains("acima do máximo de 200 créditos"), "{:?}", s.message_text());
}

/// Macau 59/2004 Art. 1 and 6–7 read again: faces 1 and 6 red, 2 and 5
/// green, 3 and 4 blue; a figure pays one to three times by its dice, one
/// or two of a colour 1:1 and 3:1, three of one colour 7:1, a total its
/// own prize; small and big lose on three equal figures.
fn fish_prawn_crab_returned(spot: &serde_json::Value, stake: u64, d: [u8; 3]) -> u64 {
    let sum: u8 = d.iter().sum();
    let triple = d[0] == d[1] && d[1] == d[2];
    let colour = |f: u8| ["Red", "Green", "Blue", "Blue", "Green", "Red"][usize::from(f - 1)];
    let of = |c: &str| d.iter().filter(|&&f| colour(f) == c).count() as u64;
    let pays = match spot {
        serde_json::Value::String(s) if s == "Small" => u64::from((4..=10).contains(&sum) && !triple),
        serde_json::Value::String(s) if s == "Big" => u64::from((11..=17).contains(&sum) && !triple),
        serde_json::Value::String(s) if s == "ThreeSameColour" => 7 * u64::from(["Red", "Green", "Blue"].iter().any(|c| of(c) == 3)),
        other => {
            let (kind, v) = other.as_object().unwrap().iter().next().unwrap();
            match kind.as_str() {
                "Figure" => d.iter().filter(|&&f| u64::from(f) == v.as_u64().unwrap()).count() as u64,
                "OneOfColour" => u64::from(of(v.as_str().unwrap()) == 1),
                "TwoOfColour" => 3 * u64::from(of(v.as_str().unwrap()) == 2),
                "Total" if v.as_u64().unwrap() == u64::from(sum) => [0, 0, 0, 0, 50, 18, 14, 12, 8, 6, 6, 6, 6, 8, 12, 14, 18, 50][usize::from(sum)],
                _ => 0,
            }
        }
    };
    if pays == 0 { 0 } else { stake * (pays + 1) }
}

/// Issue 72: the shipped fish-prawn-crab table takes the bets its paytable
/// offers and refuses the text's others by name (they return under 80 %);
/// each throw settles every place as the text reads, the history drawing
/// the dice and naming their figures.
#[test]
fn fish_prawn_crab_throws_settle_every_place_at_art_6s_prize() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 23);
    select(&mut s, "peixe-camarao-caranguejo");
    s.insert_note(5_000);
    let denom = s.denom();
    let offered = [
        json!("Small"),
        json!("Big"),
        json!("ThreeSameColour"),
        json!({ "Figure": 1 }),
        json!({ "Figure": 5 }),
        json!({ "OneOfColour": "Red" }),
        json!({ "TwoOfColour": "Blue" }),
        json!({ "Total": 7 }),
        json!({ "Total": 10 }),
        json!({ "Total": 14 }),
    ];
    for spot in &offered {
        assert!(place(&mut s, spot.clone()), "{spot}: {:?}", s.message_text());
    }
    for refused in [json!({ "ThreeOfColour": "Green" }), json!({ "FigureTriple": 2 }), json!("AnyTriple"), json!({ "Total": 4 }), json!({ "Total": 16 })] {
        assert!(!place(&mut s, refused.clone()), "{refused} is under the floor and not offered");
        assert!(s.message_text().unwrap().contains("não é uma aposta desta mesa"), "{:?}", s.message_text());
    }
    for _ in 0..80 {
        let credit = s.machine().credit();
        let (round, win, stake) = play(&mut s);
        let spots: Vec<(serde_json::Value, u64)> = serde_json::from_value(round["bet"]["spots"].clone()).unwrap();
        let d: [u8; 3] = serde_json::from_value(round["deal"]["dice"].clone()).unwrap();
        let want: u64 = spots.iter().map(|(spot, stake)| fish_prawn_crab_returned(spot, *stake, d)).sum();
        let picture = s.history().last().unwrap().picture(Lang::En);
        assert_eq!(picture.scene, Scene::Dice(vec![d.to_vec()]), "the history draws the dice thrown");
        let figure = |f: u8| ["fish", "prawn", "gourd", "coin", "crab", "rooster"][usize::from(f - 1)];
        assert!(picture.caption.starts_with(&format!("{}, {}, {} — 10 bets", figure(d[0]), figure(d[1]), figure(d[2]))), "{}", picture.caption);
        assert_eq!(stake, 10 * denom);
        assert_eq!(win, want * denom, "{d:?}");
        assert_eq!(s.machine().credit(), credit - stake + win);
    }
}
