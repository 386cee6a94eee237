//! What the round tests share: a session booted in lab mode on a
//! configuration, and a game chosen by its id through the player's command.

use crate::test_config;

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::session::Session;

/// A session on the shipped configuration (no progressives), its database
/// in `dir`, the lab RNG seeded with `seed`.
pub fn open(dir: &std::path::Path, seed: u64) -> Session {
    let config = test_config::config(dir, "");
    open_with(dir, &config, seed)
}

/// A session on the configuration file `config`.
pub fn open_with(dir: &std::path::Path, config: &std::path::Path, seed: u64) -> Session {
    boot(&BootOptions { config: config.to_owned(), db: dir.join("egm.sqlite"), lab_seed: Some(seed), demo: false }).unwrap()
}

/// Chooses the game `id`, as the game menu does.
pub fn select(s: &mut Session, id: &str) {
    let index = s.games().iter().position(|g| g.id() == id).unwrap_or_else(|| panic!("{id} is not hosted"));
    assert!(s.command(Command::SelectGame { index }), "{id} could not be chosen");
}

/// A shipped reel game as its approved artifact holds it.
pub fn approved_reel_game(id: &str) -> game_core::reels::ReelGame {
    let bytes = std::fs::read(test_config::workspace().join(format!("assets/paytables/compiled/{id}.json"))).unwrap();
    match serde_json::from_slice::<paytables::artifact::Artifact>(&bytes).unwrap().game {
        paytables::artifact::CompiledGame::Reels(g) => g,
        other => panic!("{id} is not a reel game: {other:?}"),
    }
}

/// A ways window's win per credit of the unit counted here, and the cells
/// of its way wins: each regular symbol's run from the first reel (the
/// symbol itself there, it or the wild after), the product of each
/// reel's count, its pay.
pub fn ways_counted(g: &game_core::reels::ReelGame, window: &[Vec<u8>]) -> (u64, Vec<(usize, usize)>) {
    let wild = g.wild().unwrap().0;
    let (mut total, mut cells) = (0, Vec::new());
    for (x, s) in g.symbols.iter().enumerate() {
        if s.kind != game_core::reels::SymbolKind::Regular {
            continue;
        }
        let x = x as u8;
        let fits = |reel: usize, y: u8| y == x || (reel > 0 && y == wild);
        let counts: Vec<u64> =
            window.iter().enumerate().map_while(|(reel, c)| Some(c.iter().filter(|&&y| fits(reel, y)).count() as u64).filter(|&n| n > 0)).collect();
        let pay = g.pays[usize::from(x)].get(counts.len()).copied().unwrap_or(0);
        if pay > 0 {
            total += pay * counts.iter().product::<u64>();
            for (reel, column) in window.iter().enumerate().take(counts.len()) {
                for (row, &y) in column.iter().enumerate() {
                    if fits(reel, y) && !cells.contains(&(reel, row)) {
                        cells.push((reel, row));
                    }
                }
            }
        }
    }
    (total, cells)
}

/// Play one reel round through the player's commands (a note first when
/// the credit runs low) to its settlement, and read it back from critical
/// memory: the recall and the committed round.
pub fn play_reel_round(s: &mut Session, dir: &std::path::Path) -> (meters::RoundRecall, game_core::reels::ReelRound) {
    if s.machine().credit() < 1_000 {
        assert!(s.command(Command::InsertNote { cents: 5_000 }), "{:?}", s.message());
    }
    assert!(s.command(Command::Play));
    for _ in 0..10 {
        if !s.in_round() {
            break;
        }
        s.command(Command::Revealed);
        s.command(Command::Collect);
    }
    let i = meters::inspect::Inspection::open(&dir.join("egm.sqlite")).unwrap();
    let r = i.recall(1).unwrap().remove(0);
    let deal = serde_json::from_value(r.steps[0].step.data["deal"].clone()).unwrap();
    (r, deal)
}

/// A chip of the selected value on `spot` of a table's cloth (JSON, as
/// the kind's edit names it); whether the table took it.
pub fn place(s: &mut Session, spot: serde_json::Value) -> bool {
    s.command(Command::EditBet { edit: serde_json::json!({ "Kind": { "Place": { "spot": spot } } }) })
}

/// Play the layout on the cloth of a table decided by its draw (dice,
/// wheels); the settled round's bet and deal (JSON), its win and its stake.
pub fn play_layout(s: &mut Session) -> (serde_json::Value, u64, u64) {
    assert!(s.command(Command::Play), "{:?}", s.message_text());
    assert!(!s.command(Command::EditBet { edit: serde_json::json!("Clear") }), "no edit while the outcome is shown");
    s.command(Command::Revealed);
    assert!(!s.in_round());
    let r = s.machine().recall(1).unwrap().remove(0);
    let meters::RecallOutcome::Settled { win, .. } = r.outcome else { panic!("not settled: {:?}", r.outcome) };
    let opening: game_host::round::Opening<serde_json::Value, serde_json::Value> = serde_json::from_value(r.steps[0].step.data.clone()).unwrap();
    (serde_json::json!({ "bet": opening.bet, "deal": opening.deal }), win, r.stake)
}
