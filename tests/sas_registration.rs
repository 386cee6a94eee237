//! AFT registration over the floor's line (issue 71, sas.md §7): the
//! floor initialises and registers the cabinet under its asset number with
//! its key (LP 73); the registration is in critical memory before the
//! floor is told of it, and survives a power cut; a transfer that names a
//! key is taken only under the key registered (89 another, 88 none), and
//! every transfer only for this cabinet's asset number (93); an operator at
//! the cabinet acknowledges a registration the floor asked them to confirm
//! (6D), asks the floor for one (6C) or cancels it (6E).

use game_host::session::Session;
use meters::{Door, RegistrationStatus};
use sas::bcd;
use sas::host::Host;
use sas::registration::{request_73, status};

use super::{ADDRESS, ASSET, connected, data, drain, settle, start};

const KEY: [u8; 20] = *b"floor-host-key-0042!";

/// LP 73 as the floor sends it, again after no reply (a change is answered
/// once the core has journaled it, at the cabinet's next tend): the
/// status, the asset number, the key and the point of sale.
fn lp73(s: &mut Session, host: &mut Host, code: u8, asset: u32, pos_id: u32) -> (u8, u32, [u8; 20], u32) {
    for _ in 0..5 {
        host.sync().unwrap();
        let r = host.variable_poll(ADDRESS, 0x73, &request_73(code, asset, KEY, pos_id)[1..]).unwrap();
        if !r.bytes().is_empty() {
            let d = data(&r, 0x73);
            assert_eq!((d.len(), d[0]), (30, 0x1D), "LP 73's reply: {d:02X?}");
            return (d[1], u32::from_le_bytes(d[2..6].try_into().unwrap()), d[6..26].try_into().unwrap(), u32::from_le_bytes(d[26..30].try_into().unwrap()));
        }
        settle(s);
    }
    panic!("no reply to LP 73 {code:02X}");
}

/// An LP 72 transfer in of `cents` with the registration key `key`,
/// addressed to `asset`: its status (asked again after no reply).
fn keyed_in(s: &mut Session, host: &mut Host, id: &str, cents: u64, asset: u32, key: [u8; 20]) -> u8 {
    for _ in 0..5 {
        host.sync().unwrap();
        let r = host.variable_poll(ADDRESS, 0x72, &sas::aft::request_72_keyed(0x00, sas::aft::IN_HOUSE_TO_EGM, cents, id, asset, 0, key)).unwrap();
        if !r.bytes().is_empty() {
            let d = data(&r, 0x72);
            assert_eq!(bcd::decode(&d[5..10]).unwrap(), if d[2] == 0x40 { cents } else { 0 });
            return d[2];
        }
        settle(s);
    }
    panic!("no reply to LP 72 {id}");
}

#[test]
fn the_floor_registers_the_cabinet_in_critical_memory_and_transfers_only_under_its_key() {
    let (dir, _pty, cfg, mut s, mut host) = connected();
    let _ = drain(&mut s, &mut host);
    assert_eq!(lp73(&mut s, &mut host, 0xFF, 0, 0), (status::NOT_REGISTERED, ASSET, [0; 20], 0), "not registered: the cabinet's asset number");

    // Registered before initialised: refused, the status says why.
    assert_eq!(lp73(&mut s, &mut host, 0x01, ASSET, 7).0, status::NOT_REGISTERED);
    assert_eq!(lp73(&mut s, &mut host, 0x00, 0, 0).0, status::READY, "initialised");
    assert_eq!(lp73(&mut s, &mut host, 0x01, ASSET + 1, 7).0, status::READY, "another cabinet's asset number: not registered");
    assert_eq!(lp73(&mut s, &mut host, 0x01, ASSET, 7), (status::REGISTERED, ASSET, KEY, 7));
    assert_eq!(s.machine().aft_registration().status, RegistrationStatus::Registered, "in the core");
    assert_eq!(s.machine().aft_registration().key, KEY);

    // A power cut: the registration stays.
    s.power_cut();
    let mut s = start(dir.path(), &cfg);
    assert_eq!(lp73(&mut s, &mut host, 0xFF, 0, 0), (status::REGISTERED, ASSET, KEY, 7));

    // Transfers: another key (89), another asset number (93), none (93);
    // the registered key is taken, and so is no key (in-house).
    let mut other = KEY;
    other[19] ^= 1;
    assert_eq!(keyed_in(&mut s, &mut host, "REG-1", 1_000, ASSET, other), sas::aft::status::KEY_MISMATCH);
    assert_eq!(keyed_in(&mut s, &mut host, "REG-2", 1_000, ASSET + 1, KEY), sas::aft::status::ASSET_MISMATCH);
    assert_eq!(keyed_in(&mut s, &mut host, "REG-3", 1_000, 0, [0; 20]), sas::aft::status::ASSET_MISMATCH);
    assert_eq!(s.machine().credit(), 0, "nothing moved");
    assert_eq!(keyed_in(&mut s, &mut host, "REG-4", 1_000, ASSET, KEY), 0x40);
    settle(&mut s);
    assert_eq!(keyed_in(&mut s, &mut host, "REG-5", 500, ASSET, [0; 20]), 0x40);
    settle(&mut s);
    assert_eq!(s.machine().credit(), 1_500);
    let _ = drain(&mut s, &mut host);

    // The operator cancels it at the cabinet (a door open): 6E; a keyed
    // transfer is refused from now on (88).
    assert!(s.cancel_aft_registration().is_err(), "not with every door shut");
    s.toggle_door(Door::Main);
    s.cancel_aft_registration().unwrap();
    assert!(drain(&mut s, &mut host).contains(&0x6E));
    s.toggle_door(Door::Main);
    let _ = drain(&mut s, &mut host);
    assert_eq!(lp73(&mut s, &mut host, 0xFF, 0, 0).0, status::NOT_REGISTERED);
    assert_eq!(keyed_in(&mut s, &mut host, "REG-6", 1_000, ASSET, KEY), sas::aft::status::NOT_REGISTERED);

    // The floor asks for an operator's acknowledgement (40): pending until
    // the operator gives it at the cabinet (6D), then ready for the key;
    // and the operator may ask the floor to register the cabinet (6C).
    assert_eq!(lp73(&mut s, &mut host, 0x40, 0, 0).0, status::PENDING);
    assert_eq!(lp73(&mut s, &mut host, 0x01, ASSET, 7).0, status::PENDING, "no key before the operator acknowledged");
    s.toggle_door(Door::Main);
    s.acknowledge_aft_registration().unwrap();
    s.request_aft_registration().unwrap();
    let told = drain(&mut s, &mut host);
    assert!(told.contains(&0x6D) && told.contains(&0x6C), "{told:02X?}");
    assert!(s.acknowledge_aft_registration().is_err(), "nothing awaits acknowledgement now");
    s.toggle_door(Door::Main);
    assert_eq!(lp73(&mut s, &mut host, 0xFF, 0, 0).0, status::READY);
    assert_eq!(lp73(&mut s, &mut host, 0x01, ASSET, 9), (status::REGISTERED, ASSET, KEY, 9));
    s.machine().state().self_audit().unwrap();
}
