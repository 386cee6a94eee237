//! Issue 75: the overlap check over every screen of every game, not a
//! chosen few. Every game of the shipped menu is played at 1920 × 1080 as a
//! player plays it (a bet placed by touch or key, its decisions taken),
//! and the screen is shot as it stands: the game at rest, its round while
//! it plays (free games, cascades, the balls, the throws), its win, and the
//! double-up's offer wherever the game has one (each double-up game is
//! played until one is offered, a draw-poker game at its most hands). The
//! rig's own check then finds no two texts drawn over each other on any of
//! them (`Rig::keep_screenshots`), and the screens it covered are written
//! beside them (`covered.txt`).

use std::time::{Duration, Instant};

use paytables::artifact::{Artifact, CompiledGame};

use super::rig::{self, Rig, layout, stop, workspace};
use super::{one_at_a_time, roulette_cloth};

/// What a game of the menu is.
fn compiled(id: &str) -> CompiledGame {
    let bytes = std::fs::read(workspace().join(format!("assets/paytables/compiled/{id}.json"))).unwrap();
    serde_json::from_slice::<Artifact>(&bytes).unwrap().game
}

/// The cents of a money figure as the screens write it ("20 000.00 EUR").
pub(super) fn cents_of(shown: &str) -> Option<u64> {
    let digits: String = shown.trim().strip_suffix("EUR")?.chars().filter(|c| !c.is_whitespace()).collect();
    let (units, cents) = digits.split_once('.')?;
    Some(units.parse::<u64>().ok()? * 100 + cents.parse::<u64>().ok()?)
}

/// The figure a meter of the meters bar shows, in cents: the line under
/// the first line that starts with `label` ("CRÉDITO", "PRÉMIO", "APOSTA").
pub(super) fn meter(text: &str, label: &str) -> Option<u64> {
    let mut lines = text.lines().map(str::trim);
    lines.by_ref().find(|l| *l == label || l.starts_with(&format!("{label} ·")))?;
    cents_of(lines.next()?)
}

/// A table's itemised total ("TOTAL DEVOLVIDO …", in credits or in money),
/// in cents, if the frame shows one.
fn total_returned(text: &str) -> Option<u64> {
    let line = text.lines().find_map(|l| l.trim().strip_prefix("TOTAL DEVOLVIDO "))?;
    match line.strip_suffix(" créditos").or_else(|| line.strip_suffix(" crédito")) {
        Some(credits) => {
            let denom = text.lines().find_map(|l| l.trim().strip_prefix("Denominação ")).and_then(cents_of)?;
            Some(credits.trim().parse::<u64>().ok()? * denom)
        }
        None => cents_of(line),
    }
}

/// The table's gold (`table::GOLD`), as drawn.
const GOLD: [u8; 3] = [245, 209, 74];

/// Whether the baccarat spot whose label starts with `name` stands lit
/// (issue 75, defect 4): walking out of its label along its middle, left
/// and right, a run of the gold ring comes within the spot's half of the
/// way to the next spot's label, on both sides (a chip stands on one side
/// only, and is passed over). The spot's own fill may be the felt's green
/// (empate's), so the walk is bounded by the spots' spacing, not by the
/// felt's colour.
fn spot_lit(shot: &std::path::Path, name: &str) -> bool {
    let placed = rig::layout_beside(shot);
    let label = placed
        .iter()
        .find(|p| p.text.contains('\n') && p.text.split('\n').next() == Some(name))
        .unwrap_or_else(|| panic!("{}: no spot labelled {name}", shot.display()));
    let (width, px) = rig::shot_pixels(shot);
    let centre = |p: &rig::Placed| ((p.rect[0] + p.rect[2]) / 2.0, (p.rect[1] + p.rect[3]) / 2.0);
    let (cx, cy) = centre(label);
    // The other spots of its row: two-line labels centred on its line.
    let row: Vec<f32> =
        placed.iter().filter(|p| p.text.contains('\n') && (centre(p).1 - cy).abs() < 10.0).map(|p| centre(p).0).filter(|&x| (x - cx).abs() > 1.0).collect();
    let left = row.iter().filter(|&&x| x < cx).map(|&x| (cx - x) / 2.0).reduce(f32::min);
    let right = row.iter().filter(|&&x| x > cx).map(|&x| (x - cx) / 2.0).reduce(f32::min);
    let (left, right) = match (left, right) {
        (Some(l), Some(r)) => (l, r),
        (Some(l), None) => (l, l),
        (None, Some(r)) => (r, r),
        (None, None) => panic!("{}: {name} stands alone in its row", shot.display()),
    };
    let y = cy as usize;
    let gold = |x: usize| px[y * width + x].iter().zip(GOLD).all(|(a, b)| a.abs_diff(b) <= 12);
    let ring = |xs: &mut dyn Iterator<Item = usize>| {
        let mut run = 0;
        for x in xs {
            run = if gold(x) { run + 1 } else { 0 };
            if run >= 3 {
                return true;
            }
        }
        false
    };
    let (x0, x1) = (label.rect[0] as usize, label.rect[2] as usize);
    let (from, to) = ((cx - left).max(0.0) as usize, ((cx + right) as usize).min(width));
    ring(&mut (from..x0).rev()) && ring(&mut (x1..to))
}

/// How a round's decisions are taken (a key, a touch, or none).
type Decide = Box<dyn Fn(&Rig)>;

/// The screens shot so far: the file and what it shows.
struct Covered(Vec<(String, String)>);

impl Covered {
    /// Shoot the screen as it stands; the screenshot.
    fn shoot_file(&mut self, rig: &Rig, game: &str, moment: &str) -> std::path::PathBuf {
        let shot = rig.shot();
        self.0.push((shot.file_name().unwrap().to_string_lossy().into_owned(), format!("{game}: {moment}")));
        shot
    }

    /// Shoot the screen as it stands; the text it drew.
    fn shoot(&mut self, rig: &Rig, game: &str, moment: &str) -> String {
        rig::text_beside(&self.shoot_file(rig, game, moment))
    }
}

/// Whether the screen's text shows the double-up's offer (its three
/// choices).
fn offers_double_up(text: &str) -> bool {
    ["VERMELHO", "PRETO", "RECEBER"].iter().all(|w| text.lines().any(|l| l.trim() == *w))
}

/// Play one round of `game` from the press of JOGAR to its end, shooting
/// the screen every moment, taking the round's decisions with `decide`;
/// whether the double-up was offered (it is shot, then collected).
fn play_round(rig: &Rig, covered: &mut Covered, game: &str, decide: &dyn Fn(&Rig)) -> bool {
    let before = rig.wait_for("no round open", |i| i.state().open_round.is_none()).state().last_round;
    rig.touch_button(layout::DeckButton::Play);
    let mut offered = false;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut k = 0;
    loop {
        std::thread::sleep(Duration::from_millis(900));
        k += 1;
        let text = covered.shoot(rig, game, &format!("round, moment {k}"));
        if offers_double_up(&text) {
            offered = true;
            covered.0.last_mut().unwrap().1 = format!("{game}: the double-up's offer");
            rig.key("Return");
            continue;
        }
        let i = meters::inspect::Inspection::open(&rig.db()).unwrap();
        if i.state().open_round.is_none() && i.state().last_round > before {
            // The win (or none) at rest, after the last of its screen.
            std::thread::sleep(Duration::from_millis(1_500));
            let text = covered.shoot(rig, game, "the round at rest");
            if offers_double_up(&text) {
                offered = true;
                rig.key("Return");
                std::thread::sleep(Duration::from_millis(600));
                covered.shoot(rig, game, "after collecting");
            }
            return offered;
        }
        decide(rig);
        assert!(Instant::now() < deadline, "{game}: the round never ended");
    }
}

#[test]
fn every_screen_of_every_game_draws_no_text_over_another() {
    let _one = one_at_a_time();
    let rig = Rig::new();
    let cab = rig.launch_sized(1920, 1080, &[]);
    for key in ["4", "4"] {
        rig.key(key);
    }
    rig.wait_for("two notes", |i| i.state().credit == 10_000);
    let games = rig::menu_games();
    let mut covered = Covered(Vec::new());
    let mut double_ups = Vec::new();
    let nothing = |_: &Rig| {};
    for (g, id) in games.iter().enumerate() {
        if g > 0 {
            rig.key("Right");
        }
        std::thread::sleep(Duration::from_millis(800));
        let rest = covered.shoot_file(&rig, id, "at rest");
        let game = compiled(id);
        // Issue 75, defect 3: the paytable glass's title and subtitle stay
        // inside the glass (Floresta's ran past its frame on both sides).
        if let CompiledGame::Reels(r) = &game
            && let Some(glass) = layout::pay_glass(layout::reel_window(r.reels.len(), r.rows as usize))
        {
            let texts = rig::layout_beside(&rest);
            let heads: Vec<&rig::Placed> = texts.iter().filter(|p| p.text.starts_with("em créditos") || p.text.starts_with("PRÉMIO POR")).collect();
            assert!(!heads.is_empty() && heads.len().is_multiple_of(2), "{id}: each glass's title and subtitle: {heads:?}");
            for p in heads {
                let [x0, _, x1, _] = p.rect;
                let inside = glass.iter().any(|g| x0 >= g.x && x1 <= g.x + g.w);
                assert!(inside, "{id}: {:?} at {:?} runs out of its glass {glass:?}", p.text, p.rect);
            }
        }
        // The bet, placed as a player places it, and the round's decisions.
        let (decide, double_up): (Decide, bool) = match &game {
            CompiledGame::Reels(r) => (Box::new(nothing), r.double_up.is_some()),
            CompiledGame::DrawPoker(d) => {
                // The most hands the game deals (the lines control).
                for _ in 0..d.hands.len() {
                    rig.key("Up");
                }
                std::thread::sleep(Duration::from_millis(400));
                covered.shoot(&rig, id, "at its most hands");
                (Box::new(|r: &Rig| r.touch_button(layout::DeckButton::Play)), d.double_up.is_some())
            }
            CompiledGame::StudPoker(_) => (Box::new(|r: &Rig| r.key("F1")), false),
            // No insurance, then stand — or, on 11 or less, where the
            // rules let no hand stand (BJ 21), a card.
            CompiledGame::Blackjack(_) => (
                Box::new(|r: &Rig| {
                    r.key("F7");
                    r.key("F2");
                    r.key("F1");
                }),
                false,
            ),
            CompiledGame::Bingo(_) => (Box::new(|r: &Rig| r.key("F2")), false),
            CompiledGame::Poquer3Cartas(_) => (Box::new(nothing), false),
            // The tie bet on, by touch; war on equal cards (F1).
            CompiledGame::DesafioAoCasino(_) => {
                rig.touch_text("APOSTA DE EMPATE: NÃO");
                (Box::new(|r: &Rig| r.key("F1")), false)
            }
            CompiledGame::Baccarat(_) => {
                rig.key("F1");
                (Box::new(nothing), false)
            }
            CompiledGame::Roulette(r) => {
                for spot in [game_core::roulette::Spot::Red, game_core::roulette::Spot::Numbers(vec![17]), game_core::roulette::Spot::Dozen(2)] {
                    let ((x, y), _) = roulette_cloth::anchor(r.wheel, &spot).unwrap();
                    rig.touch(x, y);
                }
                (Box::new(nothing), false)
            }
            // Red on boule's cloth; the sun on the wheel of fortune's (the
            // wheels themselves carry no text); fan 1 on fantan's.
            CompiledGame::Boule(_) => {
                rig.touch_text("VERMELHO");
                (Box::new(|r: &Rig| r.touch_button(layout::DeckButton::Play)), false)
            }
            CompiledGame::RodaDaSorte(_) => {
                rig.touch_text("SOL");
                (Box::new(|r: &Rig| r.touch_button(layout::DeckButton::Play)), false)
            }
            CompiledGame::Fantan(_) => {
                rig.touch_text("FAN 1");
                (Box::new(|r: &Rig| r.touch_button(layout::DeckButton::Play)), false)
            }
            // Pass line and the field, touched on their labels.
            CompiledGame::Craps(_) => {
                rig.touch_text("PASS LINE");
                rig.touch_text("FIELD");
                (Box::new(|r: &Rig| r.touch_button(layout::DeckButton::Play)), false)
            }
            CompiledGame::BancaFrancesa(_) | CompiledGame::SicBo(_) | CompiledGame::FishPrawnCrab(_) => {
                // Pequeno, touched on its label (the three cloths name it first).
                rig.touch_text("PEQUENO");
                (Box::new(|r: &Rig| r.touch_button(layout::DeckButton::Play)), false)
            }
        };
        covered.shoot(&rig, id, "its bet placed");
        // The first reel game and the first draw-poker game with a
        // double-up are played until the offer comes (at most 30 rounds);
        // every other game, one round (its offer shot if it comes).
        let kind = if matches!(game, CompiledGame::Reels(_)) { "reels" } else { "cards" };
        let wanted = double_up && !double_ups.iter().any(|(k, _)| *k == kind);
        let mut offered = play_round(&rig, &mut covered, id, decide.as_ref());
        for _ in 0..30 {
            if !wanted || offered {
                break;
            }
            offered = play_round(&rig, &mut covered, id, decide.as_ref());
        }
        assert!(offered || !wanted, "{id}: no double-up offered in 30 rounds");
        if offered {
            double_ups.push((kind, id.clone()));
        }
        // Roulette's figures count the spin just played (issue 75: "Ainda
        // sem números nesta mesa." stood after a spin).
        if matches!(game, CompiledGame::Roulette(_)) {
            let text = covered.shoot(&rig, id, "its figures after the spin");
            assert!(!text.contains("Ainda sem números"), "{id}: the figures do not count the spin just played:\n{text}");
        }
    }
    stop(cab);
    // Every screenshot: those shot here and those the cabinet took on
    // each change of mode.
    let shots = rig.keep_screenshots("every-screen", covered.0.len());
    // The screens it covered, as the lab reads them.
    let list: Vec<String> = covered.0.iter().map(|(file, what)| format!("{file}  {what}")).collect();
    std::fs::write(workspace().join("target/cabinet-screenshots/every-screen/covered.txt"), list.join("\n") + "\n").unwrap();
    for (file, _) in &covered.0 {
        assert!(shots.iter().any(|s| s.file_name().is_some_and(|n| n.to_string_lossy() == *file)), "{file} was not checked");
    }
    let kinds: std::collections::BTreeSet<&str> = games
        .iter()
        .map(|id| match compiled(id) {
            CompiledGame::Reels(_) => "reels",
            CompiledGame::DrawPoker(_) => "draw poker",
            CompiledGame::StudPoker(_) => "stud poker",
            CompiledGame::Roulette(_) => "roulette",
            CompiledGame::BancaFrancesa(_) => "banca francesa",
            CompiledGame::SicBo(_) => "sic bo",
            CompiledGame::Baccarat(_) => "baccarat",
            CompiledGame::Blackjack(_) => "blackjack",
            CompiledGame::Bingo(_) => "bingo",
            CompiledGame::Boule(_) => "boule",
            CompiledGame::RodaDaSorte(_) => "wheel of fortune",
            CompiledGame::Fantan(_) => "fantan",
            CompiledGame::FishPrawnCrab(_) => "fish-prawn-crab",
            CompiledGame::Poquer3Cartas(_) => "póquer de 3 cartas",
            CompiledGame::DesafioAoCasino(_) => "desafio ao casino",
            CompiledGame::Craps(_) => "craps",
        })
        .collect();
    assert_eq!(kinds.len(), 16, "the menu holds every kind: {kinds:?}");
    for kind in ["reels", "cards"] {
        assert!(double_ups.iter().any(|(k, _)| *k == kind), "no double-up seen on a game of {kind}: {double_ups:?}");
    }
    // Issue 75, defect 4: a table's total returned stands only in a frame
    // whose PRÉMIO shows that same sum (baccarat showed "TOTAL DEVOLVIDO
    // 0.02 EUR" beside 0.00, roulette a second before PRÉMIO), and a
    // baccarat coup's winner stands lit with its result.
    let (mut totals, mut lights) = (0, 0);
    for (file, what) in &covered.0 {
        let shot = shots.iter().find(|s| s.file_name().is_some_and(|n| n.to_string_lossy() == *file)).unwrap();
        let text = rig::text_beside(shot);
        if let Some(total) = total_returned(&text) {
            // PRÉMIO rolls up to the win from the frame the total appears
            // (a 1-credit push can be shot at 0.00 in that frame): never
            // past the total while it rolls, equal to it once at rest.
            let shown = meter(&text, "PRÉMIO").unwrap_or_else(|| panic!("{file}: no PRÉMIO:\n{text}"));
            if what.ends_with("the round at rest") {
                assert_eq!(shown, total, "{file} ({what}): the total returned beside another PRÉMIO:\n{text}");
            } else {
                assert!(shown <= total, "{file} ({what}): PRÉMIO {shown} past the total returned {total}:\n{text}");
            }
            totals += 1;
        }
        let won = text.lines().find_map(|l| {
            let l = l.trim();
            [("PONTO GANHA", "PONTO"), ("BANCA GANHA", "BANCA"), ("EMPATE A", "EMPATE")].into_iter().find(|(said, _)| l.starts_with(said)).map(|(_, spot)| spot)
        });
        if let Some(winner) = won {
            for spot in ["PONTO", "BANCA", "EMPATE"] {
                assert_eq!(spot_lit(shot, spot), spot == winner, "{file} ({what}): {winner} won; {spot} lit is wrong");
            }
            lights += 1;
        }
    }
    assert!(totals > 0 && lights > 0, "no frame showed a table's total ({totals}) or a settled coup ({lights})");
    eprintln!("every-screen: {} screens of {} games checked:\n{}", covered.0.len(), games.len(), list.join("\n"));
}
