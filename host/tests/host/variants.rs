//! RTP variants (issue 50): Floresta Encantada is configured in three
//! approved variants (96.00 %, 93.99 %, 92.00 %); the menu offers one, the
//! first listed, until an operator chooses another — refused with the
//! logic door shut or a round open; then logged in critical memory, offered
//! at the same place with its own RTP on the help page, played, and still
//! offered after a restart.

use crate::tables::{open, select};

use game_host::command::Command;
use game_host::session::VariantChoice;
use meters::inspect::Inspection;
use meters::{Door, Entry};

/// The round on screen shown and its win collected.
fn finish(s: &mut game_host::session::Session) {
    for _ in 0..10 {
        if !s.in_round() {
            return;
        }
        s.command(Command::Revealed);
        s.command(Command::Collect);
    }
    panic!("the round did not end: {:?}", s.machine().play_block());
}

#[test]
fn an_operator_chooses_a_game_s_rtp_variant_with_the_logic_door_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = open(dir.path(), 21);
    let place = s.games().iter().position(|g| g.id() == "floresta-243").expect("the first variant listed is offered");
    assert!(s.games().iter().all(|g| !g.id().starts_with("floresta-243-")), "one variant of a game on the menu");
    let aside: Vec<&str> = s.variants_aside().iter().map(|g| g.id()).collect();
    assert_eq!(aside, ["floresta-243-94", "floresta-243-92", "dragao-1024-94", "dragao-1024-92", "minas-cascata-94", "minas-cascata-92"]);
    let rtp = |id: &str, r: &str, offered: bool| (id.to_owned(), Some(r.to_owned()), offered);
    assert_eq!(
        s.variant_choices(),
        [
            VariantChoice {
                family: "floresta-243".into(),
                variants: vec![rtp("floresta-243", "96.00 %", true), rtp("floresta-243-94", "93.99 %", false), rtp("floresta-243-92", "92.00 %", false)],
            },
            VariantChoice {
                family: "dragao-1024".into(),
                variants: vec![rtp("dragao-1024", "95.99 %", true), rtp("dragao-1024-94", "94.01 %", false), rtp("dragao-1024-92", "92.01 %", false)],
            },
            VariantChoice {
                family: "minas-cascata".into(),
                variants: vec![rtp("minas-cascata", "96.00 %", true), rtp("minas-cascata-94", "93.99 %", false), rtp("minas-cascata-92", "92.00 %", false)],
            },
        ]
    );
    // The logic door shut: refused, nothing logged.
    let e = s.choose_variant("floresta-243-92").unwrap_err();
    assert!(e.contains("logic door"), "{e}");
    assert!(s.choose_variant("bingo-90-95").unwrap_err().contains("not a variant this cabinet is configured with"));
    // A round open (the door opened while it plays): refused.
    assert!(s.command(Command::InsertNote { cents: 2_000 }));
    select(&mut s, "floresta-243");
    assert!(s.command(Command::Play), "{:?}", s.machine().play_block());
    assert!(s.in_round());
    assert!(s.command(Command::ToggleDoor { door: Door::Logic }));
    let e = s.choose_variant("floresta-243-92").unwrap_err();
    assert!(e.contains("is open"), "{e}");
    s.command(Command::ToggleDoor { door: Door::Logic });
    s.command(Command::AttendantClear);
    finish(&mut s);
    // Between rounds, the door open: chosen, logged, at the same place.
    assert!(s.command(Command::ToggleDoor { door: Door::Logic }));
    s.choose_variant("floresta-243-92").unwrap();
    assert_eq!(s.games()[place].id(), "floresta-243-92");
    assert_eq!(s.game().id(), "floresta-243-92", "the game on screen is the chosen variant");
    assert_eq!(s.game().rtp(), Some("92.00 %"));
    assert_eq!(s.art_family("floresta-243-92"), "floresta-243");
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert_eq!(i.state().variants.get("floresta-243").map(String::as_str), Some("floresta-243-92"));
    let logged = i.events(100).unwrap().into_iter().find_map(|r| match r.entry {
        Entry::VariantChosen { family, game, sha256, by } => Some((family, game, sha256, by)),
        _ => None,
    });
    let (family, game, sha256, by) = logged.expect("the choice is in the event log");
    assert_eq!((family.as_str(), game.as_str(), by.as_str()), ("floresta-243", "floresta-243-92", s.machine().config().operator.operator_id.as_str()));
    let manifest = std::fs::read_to_string(crate::test_config::workspace().join("assets/paytables/approved.ron")).unwrap();
    assert!(manifest.contains(&sha256), "the logged digest is the approved one");
    // It plays as itself: its own meters and recall.
    s.command(Command::ToggleDoor { door: Door::Logic });
    s.command(Command::AttendantClear);
    assert!(s.command(Command::Play), "{:?}", s.machine().play_block());
    finish(&mut s);
    let i = Inspection::open(&dir.path().join("egm.sqlite")).unwrap();
    assert_eq!(i.recall(1).unwrap()[0].game, "floresta-243-92");
    // After a restart, the choice stands.
    drop(s);
    let s = open(dir.path(), 22);
    assert_eq!(s.games()[place].id(), "floresta-243-92");
    assert!(s.variants_aside().iter().any(|g| g.id() == "floresta-243"));
}
