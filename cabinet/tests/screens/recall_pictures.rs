//! Issue 75: the audit menu's recall draws a baccarat coup, a banca
//! francesa golpe and a bingo round in pictures, not text: each round is
//! played, then recalled, and its picture read back from the screenshot
//! against the round the journal holds — every card of the coup found by
//! its art, every die of every throw on its face, every number of every
//! bingo card gold exactly when a ball drawn marked it.

use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

use game_core::cards::Card;
use paytables::artifact::{Artifact, CompiledGame};

use super::rig::{self, Rig, layout, stop, workspace};
use super::{menu_position, one_at_a_time};

/// The boxes (window pixels: x, y, w, h) of the connected regions of
/// `rgb` (each channel within `tol`) at least `w` × `h` large, top to
/// bottom then left to right.
fn boxes_of(path: &Path, rgb: [u8; 3], tol: u8, w: usize, h: usize) -> Vec<[usize; 4]> {
    let (width, px) = rig::shot_pixels(path);
    let height = px.len() / width;
    let like = |i: usize| px[i].iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= tol);
    let mut seen = vec![false; px.len()];
    let mut found = Vec::new();
    for start in 0..px.len() {
        if seen[start] || !like(start) {
            continue;
        }
        seen[start] = true;
        let (mut x0, mut y0, mut x1, mut y1) = (start % width, start / width, start % width, start / width);
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            let (x, y) = (i % width, i / width);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            let mut next = Vec::with_capacity(4);
            if x > 0 {
                next.push(i - 1);
            }
            if x + 1 < width {
                next.push(i + 1);
            }
            if y > 0 {
                next.push(i - width);
            }
            if y + 1 < height {
                next.push(i + width);
            }
            for j in next {
                if !seen[j] && like(j) {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        if x1 - x0 + 1 >= w && y1 - y0 + 1 >= h {
            found.push([x0, y0, x1 - x0 + 1, y1 - y0 + 1]);
        }
    }
    found.sort_by_key(|b| (b[1] / 20, b[0]));
    found
}

/// A box of window pixels as an area of the design screen (the window is
/// 1920 wide: one to one).
fn area(b: [usize; 4]) -> layout::Area {
    layout::Area::new(b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32)
}

/// The whole die whose face's paper is box `b`: the art's paper runs from
/// 8.5 to 191.5 of its 200 (inside its rim).
fn die_area(b: [usize; 4]) -> layout::Area {
    let k = b[2] as f32 / 183.0;
    layout::Area::new(b[0] as f32 - 8.5 * k, b[1] as f32 - 8.5 * k, 200.0 * k, 200.0 * k)
}

/// Play a round of the game on screen by pressing JOGAR (after `bet`),
/// answering any decision with `decide`; the round as the journal holds it.
fn play(rig: &Rig, bet: &dyn Fn(&Rig), decide: &dyn Fn(&Rig)) -> meters::RoundRecall {
    let before = rig.wait_for("no round open", |i| i.state().open_round.is_none()).state().last_round;
    bet(rig);
    rig.touch_button(layout::DeckButton::Play);
    for _ in 0..40 {
        std::thread::sleep(Duration::from_millis(700));
        let i = meters::inspect::Inspection::open(&rig.db()).unwrap();
        if i.state().open_round.is_none() && i.state().last_round > before {
            return i.recall(1).unwrap().remove(0);
        }
        decide(rig);
    }
    panic!("the round never ended");
}

/// The audit menu's recall of the newest round, shot.
fn recall_shot(rig: &Rig) -> std::path::PathBuf {
    std::thread::sleep(Duration::from_millis(800));
    let n = rig.shot_count();
    rig.key("k");
    rig.shot_of_mode("audit", n);
    // The menu opens on the tab it was left on: RECALL, by touch.
    rig.touch_text("RECALL");
    std::thread::sleep(Duration::from_millis(600));
    let shot = rig.shot();
    let n = rig.shot_count();
    rig.key("k");
    rig.shot_of_mode("idle", n);
    shot
}

/// Walk the menu from game `from` to game `to` (their places in it).
fn walk(rig: &Rig, from: usize, to: usize) {
    let key = if to > from { "Right" } else { "Left" };
    for _ in 0..from.abs_diff(to) {
        rig.key(key);
    }
    std::thread::sleep(Duration::from_millis(500));
}

#[test]
fn audit_recall_draws_a_coup_a_golpe_and_a_bingo_round_in_pictures() {
    let _one = one_at_a_time();
    let rig = Rig::new();
    // At 1920 × 1080: one window pixel to a design unit.
    let cab = rig.launch_sized(1920, 1080, &[]);
    rig.key("3");
    rig.wait_for("the note", |i| i.state().credit == 2_000);
    let nothing = |_: &Rig| {};
    // Baccarat: a chip on ponto (F1); the coup's six cards, as committed.
    let at = menu_position("bacara");
    walk(&rig, 0, at);
    let r = play(&rig, &|r: &Rig| r.key("F1"), &nothing);
    let cards: [Card; 6] = serde_json::from_value(r.steps[0].step.data["deal"]["cards"].clone()).unwrap();
    let coup = game_core::baccarat::Coup::play(&cards);
    let shot = recall_shot(&rig);
    // Issue 75: the round's times to the second, never in nanoseconds.
    let said = rig::text_beside(&shot);
    let nanoseconds = said.split_whitespace().find(|w| w.matches(':').count() == 2 && w.contains('.'));
    assert_eq!(nanoseconds, None, "{}: a time with its fraction of a second:\n{said}", shot.display());
    let faces = boxes_of(&shot, [251, 250, 245], 6, 80, 120);
    let mut seen: Vec<Card> = faces
        .iter()
        .map(|&b| {
            let (card, distance) = rig::card_at(&shot, area(b));
            assert!(distance < rig::ART_DISTANCE, "{}: the card at {b:?} is no card's art ({distance:.0})", shot.display());
            card
        })
        .collect();
    let mut dealt: Vec<Card> = coup.player.iter().chain(&coup.banker).copied().collect();
    seen.sort_by_key(|c| c.to_string());
    dealt.sort_by_key(|c| c.to_string());
    assert_eq!(seen, dealt, "{}: the recalled coup's cards", shot.display());
    // Banca francesa: pequeno, the golpe's every throw.
    let banca = menu_position("banca-francesa");
    walk(&rig, at, banca);
    let r = play(&rig, &|r: &Rig| r.touch_text("PEQUENO"), &|r: &Rig| r.touch_button(layout::DeckButton::Play));
    let throws: Vec<[u8; 3]> = serde_json::from_value(r.steps[0].step.data["deal"]["throws"].clone()).unwrap();
    let shot = recall_shot(&rig);
    let (width, pixels) = rig::shot_pixels(&shot);
    let dice = boxes_of(&shot, [251, 248, 240], 4, 50, 50);
    let shown: Vec<u8> = dice
        .iter()
        .map(|&b| {
            let (face, distance) = (1..=6u8)
                .map(|f| (f, rig::distance_to_art(width, &pixels, die_area(b), &format!("dice/die-{f}.svg"))))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            assert!(distance < rig::ART_DISTANCE, "{}: the die at {b:?} is no face's art ({distance:.0})", shot.display());
            face
        })
        .collect();
    let thrown: Vec<u8> = throws.iter().flatten().copied().collect();
    assert_eq!(shown, thrown, "{}: the recalled golpe's dice, throw by throw", shot.display());
    // Bingo 90: four cards, the balls of the base draw (stopped at the
    // extra ball's offer: none bought).
    let bingo = menu_position("bingo-90");
    walk(&rig, banca, bingo);
    let r = play(&rig, &nothing, &|r: &Rig| r.key("F2"));
    let bytes = std::fs::read(workspace().join("assets/paytables/compiled/bingo-90.json")).unwrap();
    let CompiledGame::Bingo(game) = serde_json::from_slice::<Artifact>(&bytes).unwrap().game else { panic!("bingo-90 is not bingo") };
    let deal = &r.steps[0].step.data["deal"];
    let cards: Vec<Vec<u8>> = deal["cards"].as_array().unwrap().iter().map(|c| serde_json::from_value(c["cells"].clone()).unwrap()).collect();
    let balls: Vec<u8> = serde_json::from_value(deal["balls"].clone()).unwrap();
    // F2 stops at an extra ball's offer: nothing bought, but counted.
    let bought = r.steps[1..].iter().filter(|st| st.step.data["decision"] == "Buy").count();
    let drawn = &balls[..usize::from(game.balls) + bought];
    let shot = recall_shot(&rig);
    let (width, pixels) = rig::shot_pixels(&shot);
    let like = |p: [u8; 3], rgb: [u8; 3]| p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 3);
    let (mut gold, mut cream) = (Vec::new(), Vec::new());
    for placed in rig::layout_beside(&shot).into_iter().filter(|p| p.source == "egui") {
        let Ok(n) = placed.text.parse::<u8>() else { continue };
        // The cell's paper just left of its number.
        let [x0, y0, _, y1] = placed.rect;
        let under = pixels[((y0 + y1) / 2.0) as usize * width + (x0 - 3.0) as usize];
        if like(under, [245, 210, 74]) {
            gold.push(n);
        } else if like(under, [247, 245, 235]) {
            cream.push(n);
        }
    }
    let mut on_cards: Vec<u8> = cards.iter().flatten().copied().filter(|&v| v != 0).collect();
    let mut marked: Vec<u8> = on_cards.iter().copied().filter(|v| drawn.contains(v)).collect();
    let mut unmarked: Vec<u8> = on_cards.iter().copied().filter(|v| !drawn.contains(v)).collect();
    for v in [&mut gold, &mut cream, &mut on_cards, &mut marked, &mut unmarked] {
        v.sort_unstable();
    }
    assert!(!marked.is_empty() && !unmarked.is_empty(), "a round marks some numbers and not others");
    assert_eq!(gold, marked, "{}: the numbers drawn gold are those the balls marked", shot.display());
    assert_eq!(cream, unmarked, "{}: the numbers left plain are those no ball marked", shot.display());
    stop(cab);
    rig.keep_screenshots("screen-recall-pictures", 3);
}
