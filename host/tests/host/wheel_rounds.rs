//! Boule and the wheel of fortune through the host's commands, headless on
//! real SQLite files (issue 72): layouts edited with `Command::EditBet`,
//! the limits refused by name, every settled round checked against an
//! independent reading of the texts' payouts (BO-8, BO-9; RS-5, RS-6) from
//! the committed compartment or section.

use crate::tables::{open, place, play_layout as play, select};

use game_host::command::Command;
use game_host::picture::Scene;
use game_host::session::Lang;
use serde_json::json;

/// BO-3 and BO-8 read again: the numbers a chance covers and what it pays
/// to 1; `docs/boule.md` for the cloth's groups and the colours (red: the
/// odd numbers of 1–12 and the even of 13–24).
fn boule_returned(spot: &serde_json::Value, stake: u64, ball: u64) -> u64 {
    let (numbers, pays): (Vec<u64>, u64) = match spot {
        serde_json::Value::String(s) => match s.as_str() {
            "Star" => return if ball == 0 { stake * 24 } else { 0 },
            "Odd" => ((1..=24).filter(|n| n % 2 == 1).collect(), 1),
            "Even" => ((1..=24).filter(|n| n % 2 == 0).collect(), 1),
            "Low" => ((1..=12).collect(), 1),
            "High" => ((13..=24).collect(), 1),
            "Red" => ((1..=24).filter(|&n| (n <= 12) == (n % 2 == 1)).collect(), 1),
            "Black" => ((1..=24).filter(|&n| (n <= 12) != (n % 2 == 1)).collect(), 1),
            other => panic!("{other}"),
        },
        other => {
            let (kind, v) = other.as_object().unwrap().iter().next().unwrap();
            match kind.as_str() {
                "Number" => (vec![v.as_u64().unwrap()], 23),
                "Two" => (vec![v[0].as_u64().unwrap(), v[1].as_u64().unwrap()], 11),
                "Row" => ((3 * v.as_u64().unwrap() - 2..=3 * v.as_u64().unwrap()).collect(), 7),
                "Four" => {
                    let n = v.as_u64().unwrap();
                    (vec![n, n + 1, n + 3, n + 4], 5)
                }
                "SixNumbers" => ((3 * v.as_u64().unwrap() - 2..=3 * v.as_u64().unwrap() + 3).collect(), 3),
                "Column" => ((0..8).map(|k| v.as_u64().unwrap() + 3 * k).collect(), 2),
                other => panic!("{other}"),
            }
        }
    };
    // BO-9: the star makes every other chance lose.
    if ball != 0 && numbers.contains(&ball) { stake * (pays + 1) } else { 0 }
}

#[test]
fn boule_spins_settle_every_chance_at_bo_8s_payout_and_the_star_takes_all_else() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 23);
    select(&mut s, "boule");
    s.insert_note(5_000);
    let denom = s.denom();
    let spots = [
        json!("Star"),
        json!({ "Number": 7 }),
        json!({ "Two": [7, 8] }),
        json!({ "Two": [4, 7] }),
        json!({ "Row": 3 }),
        json!({ "Four": 7 }),
        json!({ "SixNumbers": 3 }),
        json!({ "Column": 1 }),
        json!("Red"),
        json!("Even"),
        json!("High"),
    ];
    for spot in &spots {
        assert!(place(&mut s, spot.clone()), "{spot}: {:?}", s.message_text());
    }
    assert!(!place(&mut s, json!({ "Two": [3, 4] })), "3 and 4 stand in different rows and columns");
    assert!(s.message_text().unwrap().contains("não é uma aposta desta mesa"), "{:?}", s.message_text());
    assert!(!place(&mut s, json!({ "Number": 25 })));
    let mut balls = std::collections::BTreeSet::new();
    for _ in 0..150 {
        let credit = s.machine().credit();
        let (round, win, stake) = play(&mut s);
        let layout: Vec<(serde_json::Value, u64)> = serde_json::from_value(round["bet"]["spots"].clone()).unwrap();
        let ball = round["deal"]["compartment"].as_u64().unwrap();
        balls.insert(ball);
        let want: u64 = layout.iter().map(|(spot, stake)| boule_returned(spot, *stake, ball)).sum();
        assert_eq!(stake, 11 * denom);
        assert_eq!(win, want * denom, "ball {ball}");
        assert_eq!(s.machine().credit(), credit - stake + win);
        let picture = s.history().last().unwrap().picture(Lang::En);
        let Scene::Section { name, .. } = &picture.scene else { panic!("{:?}", picture.scene) };
        assert_eq!(*name, if ball == 0 { "★".to_owned() } else { ball.to_string() });
    }
    assert!(balls.contains(&0) && balls.len() > 20, "150 spins came to rest in {} compartments: {balls:?}", balls.len());
    // The table's maximum (50): doubling past it is refused by name.
    assert!(s.command(Command::EditBet { edit: json!("Clear") }));
    assert!(place(&mut s, json!("Odd")));
    for _ in 0..5 {
        assert!(s.command(Command::EditBet { edit: json!({ "Kind": "Double" }) }));
    }
    assert!(!s.command(Command::EditBet { edit: json!({ "Kind": "Double" }) }), "64 on odd is over 50");
    assert!(s.message_text().unwrap().contains("ímpar: acima do máximo de 50 créditos"), "{:?}", s.message_text());
}

#[test]
fn wheel_of_fortune_stops_pay_their_sections_odds_with_the_stake_returned() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 29);
    select(&mut s, "roda-da-sorte");
    s.insert_note(5_000);
    let denom = s.denom();
    // RS-5/RS-6 read again: what each kind of section pays to 1.
    let pays = [("One", 1u64), ("Three", 3), ("Five", 5), ("Ten", 10), ("Twenty", 20), ("Sun", 45), ("Moon", 45)];
    for (section, _) in pays {
        assert!(place(&mut s, json!(section)), "{section}: {:?}", s.message_text());
    }
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..120 {
        let credit = s.machine().credit();
        let (round, win, stake) = play(&mut s);
        let stop = round["deal"]["section"].as_u64().unwrap() as usize;
        assert!(stop < 52, "{stop}");
        let section = game_core::roda_da_sorte::WHEEL[stop];
        let name = serde_json::to_value(section).unwrap();
        seen.insert(name.as_str().unwrap().to_owned());
        let odds = pays.iter().find(|(p, _)| json!(p) == name).unwrap().1;
        // Every section holds a chip of 1: the section's odds and the stake.
        assert_eq!(stake, 7 * denom);
        assert_eq!(win, (odds + 1) * denom, "stopped at {stop} ({name})");
        assert_eq!(s.machine().credit(), credit - stake + win);
        let picture = s.history().last().unwrap().picture(Lang::En);
        assert!(matches!(picture.scene, Scene::Section { .. }), "{:?}", picture.scene);
    }
    assert!(seen.len() >= 4, "120 stops came to {seen:?}");
}
