//! The cabinet's wiring through the host (issue 70): the doors' switches
//! and optics, the attendant key, the deck's lamps and the tower light, on
//! the real core and a real SQLite file, with the lamps written to a
//! directory laid out as the kernel's LED class. The contacts come in
//! through `Session::panel_input`, the path the lab build's keys take (an
//! evdev device's reading thread feeds the same `PanelLink::apply`).

use crate::test_config;

use std::path::{Path, PathBuf};
use std::time::Duration;

use game_host::boot::{BootOptions, boot};
use game_host::command::Command;
use game_host::session::Session;
use meters::inspect::Inspection;
use meters::{Door, Entry, Tilt};
use peripherals::panel::doors::SETTLE;
use peripherals::panel::{Change, Contact};

const MAIN_SWITCH: Contact = Contact::Switch(0);
const MAIN_OPTIC: Contact = Contact::Switch(1);
const LOGIC_SWITCH: Contact = Contact::Key(704);
const ATTENDANT_KEY: Contact = Contact::Key(705);

/// The LED class's layout: one directory per LED with its files.
fn led_class(dir: &Path, names: &[&str]) -> PathBuf {
    let leds = dir.join("leds");
    for n in names {
        let led = leds.join(n);
        std::fs::create_dir_all(&led).unwrap();
        for (f, v) in [("brightness", "0\n"), ("max_brightness", "1\n"), ("trigger", "[none] timer\n")] {
            std::fs::write(led.join(f), v).unwrap();
        }
    }
    leds
}

fn config(dir: &Path) -> PathBuf {
    let leds = led_class(dir, &["deck:play", "deck:cash-out", "tower:top", "tower:bottom"]);
    let text = test_config::text(dir);
    let at = text.rfind(')').unwrap();
    let panel = format!(
        "    panel: Some((inputs: [], doors: [(door: Main, switch: Switch(0), optic: Some(Switch(1))), (door: Logic, switch: Key(704))], \
         attendant_key: Some(Key(705)), lamps: Some((dir: {:?}, buttons: {{Play: \"deck:play\", CashOut: \"deck:cash-out\"}}, \
         tower_top: Some(\"tower:top\"), tower_bottom: Some(\"tower:bottom\"))))),\n",
        leds.display().to_string()
    );
    test_config::write(dir, &format!("{}{panel}{}", &text[..at], &text[at..]))
}

fn start(dir: &Path) -> Session {
    boot(&BootOptions { config: config(dir), db: dir.join("egm.sqlite"), lab_seed: Some(7), demo: false }).unwrap()
}

fn set(s: &mut Session, contact: Contact, closed: bool) {
    s.panel_input(Change { contact, closed });
}

/// What a lamp shows: "on", "off", or "flash N" (its half period).
fn lamp(dir: &Path, name: &str) -> String {
    let read = |f: &str| std::fs::read_to_string(dir.join("leds").join(name).join(f)).unwrap();
    match (read("trigger").as_str(), read("brightness").as_str()) {
        ("timer", _) => format!("flash {}", read("delay_on")),
        ("none", "1") => "on".into(),
        ("none", "0") => "off".into(),
        other => panic!("{name}: {other:?}"),
    }
}

fn tower(dir: &Path) -> (String, String) {
    (lamp(dir, "tower:top"), lamp(dir, "tower:bottom"))
}

/// The journal's door entries, oldest first.
fn door_entries(dir: &Path) -> Vec<Entry> {
    let mut records = Inspection::open(&dir.join("egm.sqlite")).unwrap().events(100_000).unwrap();
    records.reverse();
    records.into_iter().map(|r| r.entry).filter(|e| matches!(e, Entry::DoorOpened { .. } | Entry::DoorClosed { .. })).collect()
}

fn close_all(s: &mut Session) {
    for c in [MAIN_SWITCH, MAIN_OPTIC, LOGIC_SWITCH] {
        set(s, c, true);
    }
}

#[test]
fn doors_are_what_their_sensors_read_and_the_lamps_say_what_can_be_done() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut s = start(d);
    // E-37: sensors never read count as open: both wired doors are open,
    // the logic door's tilt stands, the tower flashes both tiers.
    assert_eq!(door_entries(d), [Entry::DoorOpened { door: Door::Main }, Entry::DoorOpened { door: Door::Logic }]);
    assert!(s.machine().state().tilts.contains(&Tilt::LogicDoorAccess));
    assert_eq!(tower(d), ("flash 250".into(), "flash 250".into()));
    // The main door's switch alone does not close it: its optic still reads open.
    set(&mut s, MAIN_SWITCH, true);
    assert!(s.machine().state().doors_open.contains(&Door::Main));
    close_all(&mut s);
    assert!(s.machine().state().doors_open.is_empty());
    assert_eq!(door_entries(d)[2..], [Entry::DoorClosed { door: Door::Main }, Entry::DoorClosed { door: Door::Logic }]);
    assert_eq!(tower(d), ("flash 250".into(), "flash 250".into()), "the logic door's tilt still stands");
    // The attendant turns the key: the cabinet is told, in order.
    set(&mut s, ATTENDANT_KEY, true);
    set(&mut s, ATTENDANT_KEY, true);
    set(&mut s, ATTENDANT_KEY, false);
    assert_eq!(s.take_attendant_key_moves(), [true, false]);
    assert!(s.take_attendant_key_moves().is_empty());
    s.attendant_clear();
    assert!(s.machine().state().tilts.is_empty(), "{:?}", s.machine().state().tilts);
    s.tend_panel();
    assert_eq!(tower(d), ("on".into(), "off".into()), "in service");
    assert_eq!((lamp(d, "deck:play"), lamp(d, "deck:cash-out")), ("off".into(), "off".into()), "no credit: neither play nor cash-out does anything");
    assert!(s.command(Command::InsertNote { cents: 1_000 }));
    s.tend_panel();
    assert_eq!((lamp(d, "deck:play"), lamp(d, "deck:cash-out")), ("on".into(), "on".into()));
    // A door opened stops play: its lamps go out, the tower's top flashes.
    set(&mut s, LOGIC_SWITCH, false);
    assert_eq!((lamp(d, "deck:play"), lamp(d, "deck:cash-out")), ("off".into(), "off".into()));
    assert!(s.machine().state().doors_open.contains(&Door::Logic));
    assert_eq!(lamp(d, "tower:top"), "flash 250");
    assert_eq!(s.machine().state().totals.aberturas_porta.get(&Door::Logic), Some(&2), "opened at boot and once since");
    // The lab build's door key moves the door's sensors, as the door would.
    s.toggle_door(Door::Logic);
    assert!(!s.machine().state().doors_open.contains(&Door::Logic));
    s.toggle_door(Door::Main);
    assert!(s.machine().state().doors_open.contains(&Door::Main));
    s.toggle_door(Door::Main);
    s.tend_panel();
    assert!(s.machine().state().doors_open.is_empty());
    std::thread::sleep(SETTLE + Duration::from_millis(100));
    s.tend_panel();
    assert!(!s.machine().state().tilts.contains(&Tilt::DoorSensors(Door::Main)), "the key moves switch and optic together");
    assert_eq!(s.machine().state().totals.aberturas_porta.get(&Door::Main), Some(&2));
}

#[test]
fn a_switch_and_an_optic_that_disagree_tilt_until_they_agree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut s = start(d);
    close_all(&mut s);
    s.attendant_clear();
    assert!(s.machine().state().tilts.is_empty());
    // The door opens: the optic sees it; the switch is held shut by hand.
    set(&mut s, MAIN_OPTIC, false);
    assert!(s.machine().state().doors_open.contains(&Door::Main), "the optic's open is the door's");
    assert!(!s.machine().state().tilts.contains(&Tilt::DoorSensors(Door::Main)), "a door moving is no alarm yet");
    std::thread::sleep(SETTLE + Duration::from_millis(100));
    s.tend_panel();
    assert!(s.machine().state().tilts.contains(&Tilt::DoorSensors(Door::Main)));
    assert_eq!(s.block_text().as_deref(), Some("PORTA ABERTA (porta principal)"), "the door counts as open while the optic says so");
    let set_once = |d: &Path| {
        let mut records = Inspection::open(&d.join("egm.sqlite")).unwrap().events(100_000).unwrap();
        records.retain(|r| matches!(r.entry, Entry::TiltSet { tilt: Tilt::DoorSensors(Door::Main), .. }));
        records.len()
    };
    s.tend_panel();
    assert_eq!(set_once(d), 1, "set once, not each frame");
    // The attendant cannot clear it while the two still disagree.
    s.attendant_clear();
    assert!(s.machine().state().tilts.contains(&Tilt::DoorSensors(Door::Main)));
    set(&mut s, MAIN_OPTIC, true);
    s.attendant_clear();
    assert!(s.machine().state().tilts.is_empty(), "{:?}", s.machine().state().tilts);
    assert!(s.machine().state().doors_open.is_empty());
}

#[test]
fn a_panel_wired_wrong_is_named_at_boot() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = test_config::text(d);
    let at = text.rfind(')').unwrap();
    let wired_twice = "    panel: Some((inputs: [], doors: [(door: Main, switch: Switch(0)), (door: Belly, switch: Switch(0))])),\n";
    let config = test_config::write(d, &format!("{}{wired_twice}{}", &text[..at], &text[at..]));
    let Err(e) = boot(&BootOptions { config, db: d.join("egm.sqlite"), lab_seed: Some(7), demo: false }) else { panic!("a contact wired twice booted") };
    assert!(e.contains("Switch(0)") && e.contains("wired twice"), "{e}");
    let no_lamp = format!(
        "    panel: Some((inputs: [], doors: [], lamps: Some((dir: {:?}, tower_top: Some(\"tower:red\"))))),\n",
        led_class(d, &["tower:top"]).display().to_string()
    );
    let config = test_config::write(d, &format!("{}{no_lamp}{}", &text[..at], &text[at..]));
    let Err(e) = boot(&BootOptions { config, db: d.join("egm2.sqlite"), lab_seed: Some(7), demo: false }) else { panic!("an absent lamp booted") };
    assert!(e.contains("tower:red"), "{e}");
    let no_device = "    panel: Some((inputs: [\"/dev/input/event-absent\"], doors: [(door: Main, switch: Switch(0))])),\n";
    let config = test_config::write(d, &format!("{}{no_device}{}", &text[..at], &text[at..]));
    let Err(e) = boot(&BootOptions { config, db: d.join("egm3.sqlite"), lab_seed: Some(7), demo: false }) else { panic!("an absent input device booted") };
    assert!(e.contains("/dev/input/event-absent"), "{e}");
}
