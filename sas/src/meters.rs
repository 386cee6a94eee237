//! The meter long polls (sas.md §4), answered from the snapshot the host
//! publishes after every commit: never from critical memory itself, so a
//! reply never waits on a round. Every SAS meter is one of the core's M-25
//! meters, read once (certification H-54; the table is in docs/install.md).
//!
//! 4-byte meters count credits of the accounting denomination (LP 1F):
//! cents divided by it, the remainder dropped [R: the digest's reading];
//! 5-byte ticket meters count cents; counts are counts. A value wider than
//! its field rolls over at 10^(2 × bytes) (the cabinet keeps `u64`, C-21).

use crate::bcd;
use crate::codes;
use crate::snapshot::{Scope, Snapshot};

/// The data of a meter long poll's reply (after the address and the
/// command, before the CRC), or `None` for a command that is not one or a
/// request it cannot answer.
pub fn reply_data(command: u8, request: &[u8], s: &Snapshot) -> Option<Vec<u8>> {
    let m4 = |v: u64| bcd::encode(v, 4);
    let m2 = |v: u64| bcd::encode(v, 2);
    let cat = |fields: &[Vec<u8>]| fields.concat();
    let m = &s.machine;
    Some(match command {
        // Canceled credits, coin in, coin out, drop, jackpot, games played.
        0x0F => cat(&[
            m4(s.credits(s.canceled_credits)),
            m4(s.credits(m.coin_in)),
            m4(s.credits(m.coin_out)),
            m4(s.credits(s.drop)),
            m4(s.credits(m.jackpot)),
            m4(m.games_played),
        ]),
        0x10 => m4(s.credits(s.canceled_credits)),
        0x11..=0x17 => m4(meter(long_poll_code(command)?, 0, s)?),
        0x18 => cat(&[m2(s.games_since_power_up), m2(s.games_since_door_close)]),
        0x19 => cat(&[m4(s.credits(m.coin_in)), m4(s.credits(m.coin_out)), m4(s.credits(s.drop)), m4(s.credits(m.jackpot)), m4(m.games_played)]),
        0x1A => m4(s.credits(s.credit)),
        0x1C => cat(&[
            m4(s.credits(m.coin_in)),
            m4(s.credits(m.coin_out)),
            m4(s.credits(s.drop)),
            m4(s.credits(m.jackpot)),
            m4(m.games_played),
            m4(m.games_won),
            m4(s.slot_door_opens),
            m4(s.power_resets),
        ]),
        // Counts of the $1, $5, $10, $20, $50 and $100 notes (a euro
        // cabinet's €5, €10, €20, €50 and €100 in the same places [R]).
        0x1E => cat(&[100, 500, 1_000, 2_000, 5_000, 10_000].map(|v| m4(s.notes_of(v)))),
        // The value of the notes in, in whole units of the currency [R].
        0x20 => m4(s.drop / 100),
        // True coin in and out: this cabinet has no coin acceptor and no
        // hopper; its hopper level is empty.
        0x2A..=0x2C => m4(0),
        // Hand-paid canceled credits of game N: a machine meter (game 0).
        0x2D => {
            let game = game_number(request)?;
            let value = if game == 0 { s.credits(s.handpaid_canceled_credits) } else { 0 };
            cat(&[request.get(..2)?.to_vec(), m4(value)])
        }
        // The count of one value of note (LP 31–45): a value this cabinet
        // never takes has taken none (issue 71: 3C–44 went unanswered).
        0x31..=0x45 => m4(codes::bill_of_long_poll(command).map_or(0, |cents| s.notes_of(cents))),
        // Game N's coin in, coin out, jackpot and games played (issue 71:
        // never answered); game 0 the machine.
        0x52 => {
            let game = game_number(request)?;
            let g = s.scope(game)?;
            cat(&[request.get(..2)?.to_vec(), m4(s.credits(g.coin_in)), m4(s.credits(g.coin_out)), m4(s.credits(g.jackpot)), m4(g.games_played)])
        }
        0x2F => selected(request, s)?,
        0x6F | 0xAF => extended(request, s)?,
        _ => return None,
    })
}

/// The 2F meter code of single-meter long polls 11–17 (13, the drop, is
/// a machine meter).
fn long_poll_code(command: u8) -> Option<u16> {
    Some(match command {
        0x11 => 0x00,
        0x12 => 0x01,
        0x14 => 0x02,
        0x13 => 0x24,
        0x15 => 0x05,
        0x16 => 0x06,
        0x17 => 0x07,
        _ => return None,
    })
}

/// A meter any scope has (the machine, a game, a denomination).
fn game_meter(code: u16, g: &Scope, s: &Snapshot) -> Option<u64> {
    Some(match code {
        0x00 => s.credits(g.coin_in),
        0x01 => s.credits(g.coin_out),
        0x02 => s.credits(g.jackpot),
        0x05 => g.games_played,
        0x06 => g.games_won,
        0x07 => g.games_lost,
        _ => return None,
    })
}

/// A meter only the machine has.
fn machine_meter(code: u16, s: &Snapshot) -> Option<u64> {
    Some(match code {
        0x03 => s.credits(s.handpaid_canceled_credits),
        0x04 => s.credits(s.canceled_credits),
        // Credits from bills, and the total drop: notes only (no coins, and
        // tickets are not counted into the drop).
        0x0B | 0x24 => s.credits(s.drop),
        0x0C => s.credits(s.credit),
        0x25 => s.games_since_power_up,
        0x26 => s.games_since_door_close,
        0x40..=0x4B => s.notes_of(codes::bill_of_meter(code)?),
        // Tickets in and out, cashable: cents and counts (this cabinet's
        // tickets are all cashable).
        0x80 => s.tickets_in.cents,
        0x81 => s.tickets_in.count,
        0x86 => s.tickets_out.cents,
        0x87 => s.tickets_out.count,
        // AFT in-house cashable: to the cabinet, to the host.
        0xA0 => s.aft_in.cents,
        0xA1 => s.aft_in.count,
        0xB8 => s.aft_out.cents,
        0xB9 => s.aft_out.count,
        _ => return None,
    })
}

/// A meter of game `number` (0: the machine, every code; a game, the
/// game meters only), `None` where it has none.
pub fn meter(code: u16, number: u16, s: &Snapshot) -> Option<u64> {
    let scope = s.scope(number)?;
    game_meter(code, scope, s).or_else(|| if number == 0 { machine_meter(code, s) } else { None })
}

/// The width of a meter's field in LP 2F: 5 bytes for the cents meters
/// of tickets, hand-pays and transfers, 4 for the rest (sas.md §4).
pub fn width(code: u8) -> usize {
    match code {
        0x0D..=0x10 | 0x80 | 0x82 | 0x84 | 0x86 | 0x88 | 0x8C | 0x8E | 0x90 | 0x92 | 0xA0 | 0xA2 | 0xA4 | 0xAE | 0xB0 | 0xB8 | 0xBA | 0xBC => 5,
        _ => 4,
    }
}

/// The 2-BCD game number at the head of a request.
pub(crate) fn game_number(request: &[u8]) -> Option<u16> {
    u16::try_from(bcd::decode(request.get(..2)?).ok()?).ok()
}

/// LP 2F: `len game(2 BCD) code…` → `len game (code value)…`; a code this
/// cabinet has no meter for is left out [R]. A game it does not have gets
/// no reply.
fn selected(request: &[u8], s: &Snapshot) -> Option<Vec<u8>> {
    selected_from(request, |game| s.scope(game).is_some(), |game, code| meter(code, game, s))
}

/// LP 2F's frame for the games `has` allows, each meter `read` from
/// (game, code); the one layout serves the machine's and a
/// denomination's polls.
fn selected_from(request: &[u8], has: impl Fn(u16) -> bool, read: impl Fn(u16, u16) -> Option<u64>) -> Option<Vec<u8>> {
    let (&len, rest) = request.split_first()?;
    let body = rest.get(..usize::from(len))?;
    let game = game_number(body)?;
    if !has(game) {
        return None;
    }
    let mut out = vec![0, body[0], body[1]];
    for &code in body.get(2..)? {
        if let Some(value) = read(game, u16::from(code)) {
            out.push(code);
            out.extend(bcd::encode(value, width(code)));
        }
    }
    out[0] = u8::try_from(out.len() - 1).ok()?;
    Some(out)
}

/// The size of an extended meter (LP 6F / AF) in bytes: the meter's own,
/// as many as its digits (C-21: the configuration's 10 to 18) take
/// (issue 71: it was 9 bytes whatever the meter).
pub fn extended_width(meter_digits: u8) -> u8 {
    meter_digits.clamp(10, 18).div_ceil(2)
}

/// LP 6F / AF: `len game(2 BCD) code(2 LE)…` → `len game (code(2 LE)
/// size value)…`, the value as the meter shows it (modulo 10^digits, its
/// rollover); an unknown code comes back with size 0 [R].
fn extended(request: &[u8], s: &Snapshot) -> Option<Vec<u8>> {
    extended_from(request, s, |game| s.scope(game).is_some(), |game, code| meter(code, game, s))
}

/// LP 6F/AF's frame for the games `has` allows, each meter `read` from
/// (game, code): the machine's poll and a denomination's (LP B0).
fn extended_from(request: &[u8], s: &Snapshot, has: impl Fn(u16) -> bool, read: impl Fn(u16, u16) -> Option<u64>) -> Option<Vec<u8>> {
    let (&len, rest) = request.split_first()?;
    let body = rest.get(..usize::from(len))?;
    let game = game_number(body)?;
    if !has(game) {
        return None;
    }
    let codes = body.get(2..)?;
    if codes.len() % 2 != 0 {
        return None;
    }
    let mut out = vec![0, body[0], body[1]];
    for pair in codes.chunks_exact(2) {
        let code = u16::from_le_bytes([pair[0], pair[1]]);
        out.extend_from_slice(pair);
        match read(game, code) {
            Some(value) => {
                let width = extended_width(s.meter_digits);
                let shown = 10u64.checked_pow(u32::from(s.meter_digits.clamp(10, 18))).map_or(value, |m| value % m);
                out.push(width);
                out.extend(bcd::encode(shown, usize::from(width)));
            }
            None => out.push(0),
        }
    }
    out[0] = u8::try_from(out.len() - 1).ok()?;
    Some(out)
}

/// The scope of one player denomination, as LP B0 wraps a meter poll
/// (sas.md §4: layout [R]): LP 2F, 6F/AF (issue 71: a host reads the
/// extended meters per denomination too) and 11–17 over the games played
/// at that denomination.
pub fn denomination_reply_data(command: u8, request: &[u8], cents: u64, s: &Snapshot) -> Option<Vec<u8>> {
    let none = Scope::default();
    let scope = s.denominations.get(&cents).unwrap_or(&none);
    match command {
        0x11 | 0x12 | 0x14..=0x17 => Some(bcd::encode(game_meter(long_poll_code(command)?, scope, s)?, 4)),
        // Game 0 only, and only the game meters: a denomination has no
        // drop or credit.
        0x2F => selected_from(request, |game| game == 0, |_, code| game_meter(code, scope, s)),
        0x6F | 0xAF => extended_from(request, s, |game| game == 0, |_, code| game_meter(code, scope, s)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    use crate::snapshot::{Counted, Game};

    pub(crate) fn played() -> Snapshot {
        // A cent cabinet (the accounting denomination 0.01): 250.00 wagered
        // over 100 games, 40 won, 212.50 won to the credit meter, 12.50
        // credit left, 20.00 + 50.00 in notes, 50.00 cashed out by ticket.
        let machine = Scope { coin_in: 25_000, coin_out: 21_250, jackpot: 0, games_played: 100, games_won: 40, games_lost: 60 };
        let reels = Scope { coin_in: 15_000, coin_out: 11_250, jackpot: 0, games_played: 60, games_won: 25, games_lost: 35 };
        let poker = Scope { coin_in: 10_000, coin_out: 10_000, jackpot: 0, games_played: 40, games_won: 15, games_lost: 25 };
        Snapshot {
            accounting_denom: 1,
            machine,
            games: vec![
                Game { id: "reels".into(), meters: reels.clone(), ..Game::default() },
                Game { id: "poker".into(), meters: poker.clone(), ..Game::default() },
            ],
            denominations: BTreeMap::from([(1, reels), (5, poker)]),
            canceled_credits: 5_000,
            handpaid_canceled_credits: 0,
            drop: 7_000,
            games_since_power_up: 100,
            games_since_door_close: 37,
            credit: 1_250,
            slot_door_opens: 2,
            power_resets: 3,
            notes: BTreeMap::from([(2_000, 1), (5_000, 1)]),
            tickets_out: Counted { cents: 5_000, count: 1 },
            ..Snapshot::default()
        }
    }

    fn reply(address: u8, command: u8, s: &Snapshot) -> Option<Vec<u8>> {
        let mut frame = vec![address, command];
        frame.extend(reply_data(command, &[], s)?);
        Some(crate::crc::sealed(&frame))
    }

    #[test]
    fn the_current_credits_reply_is_the_digests_worked_frame() {
        // sas.md §2: the reply to LP 1A at address 1 for 1,250 credits.
        assert_eq!(reply(1, 0x1A, &played()), Some(vec![0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]));
        // In credits of the accounting denomination: at 0.05, 1,250 cents
        // are 250 credits.
        let nickel = Snapshot { accounting_denom: 5, ..played() };
        assert_eq!(reply_data(0x1A, &[], &nickel), Some(vec![0x00, 0x00, 0x02, 0x50]));
    }

    #[test]
    fn every_meter_poll_reads_the_snapshot_field_by_field() {
        let s = played();
        let bcd4 = |v: u64| bcd::encode(v, 4);
        assert_eq!(reply_data(0x0F, &[], &s).unwrap(), [bcd4(5_000), bcd4(25_000), bcd4(21_250), bcd4(7_000), bcd4(0), bcd4(100)].concat());
        for (command, value) in [(0x10, 5_000), (0x11, 25_000), (0x12, 21_250), (0x13, 7_000), (0x14, 0), (0x15, 100), (0x16, 40), (0x17, 60)] {
            assert_eq!(reply_data(command, &[], &s).unwrap(), bcd4(value), "LP {command:02X}");
        }
        assert_eq!(reply_data(0x18, &[], &s).unwrap(), [0x01, 0x00, 0x00, 0x37]);
        assert_eq!(reply_data(0x1C, &[], &s).unwrap().len(), 32);
        assert_eq!(&reply_data(0x1C, &[], &s).unwrap()[24..], [bcd4(2), bcd4(3)].concat());
        assert_eq!(reply_data(0x1E, &[], &s).unwrap(), [bcd4(0), bcd4(0), bcd4(0), bcd4(1), bcd4(1), bcd4(0)].concat());
        assert_eq!(reply_data(0x20, &[], &s).unwrap(), bcd4(70), "70.00 in notes: 70 units");
        assert_eq!(reply_data(0x35, &[], &s).unwrap(), bcd4(1), "the $20 / €20 count");
        assert_eq!(reply_data(0x31, &[], &s).unwrap(), bcd4(0));
        assert_eq!(reply_data(0x2D, &[0x00, 0x00], &s).unwrap(), [vec![0, 0], bcd4(0)].concat());
        assert_eq!(reply_data(0x99, &[], &s), None);
    }

    /// Issue 71, defect 5: every single-bill poll (31–45) is answered:
    /// the notes of its value, none for a value this cabinet does not count.
    #[test]
    fn every_single_bill_poll_is_answered() {
        let s = Snapshot { notes: std::collections::BTreeMap::from([(2_000, 3), (50_000, 1)]), ..played() };
        for command in 0x31..=0x45u8 {
            let want = match command {
                0x35 => 3,
                0x38 => 1,
                _ => 0,
            };
            assert_eq!(reply_data(command, &[], &s), Some(bcd::encode(want, 4)), "LP {command:02X}");
        }
    }

    #[test]
    fn the_digests_2f_request_reads_three_machine_meters() {
        // sas.md §2's frame: game 0000, meters 00 01 05.
        let s = played();
        let data = reply_data(0x2F, &[0x05, 0x00, 0x00, 0x00, 0x01, 0x05], &s).unwrap();
        assert_eq!(data, [vec![0x11, 0x00, 0x00, 0x00], bcd::encode(25_000, 4), vec![0x01], bcd::encode(21_250, 4), vec![0x05], bcd::encode(100, 4)].concat());
        // Game 2 (poker) has its own; a machine meter (04, canceled
        // credits) is left out for a game, a ticket meter is 5 bytes.
        let poker = reply_data(0x2F, &[0x05, 0x00, 0x02, 0x00, 0x04, 0x05], &s).unwrap();
        assert_eq!(poker, [vec![0x0C, 0x00, 0x02, 0x00], bcd::encode(10_000, 4), vec![0x05], bcd::encode(40, 4)].concat());
        let tickets = reply_data(0x2F, &[0x04, 0x00, 0x00, 0x86, 0x87], &s).unwrap();
        assert_eq!(tickets, [vec![0x0D, 0x00, 0x00, 0x86], bcd::encode(5_000, 5), vec![0x87], bcd::encode(1, 4)].concat());
        // A game the cabinet does not have: no reply.
        assert_eq!(reply_data(0x2F, &[0x03, 0x00, 0x03, 0x00], &s), None);
        // Machine totals equal the sum over the games (C-27).
        for code in [0x00, 0x01, 0x02, 0x05, 0x06, 0x07] {
            assert_eq!(meter(code, 0, &s), Some(meter(code, 1, &s).unwrap() + meter(code, 2, &s).unwrap()), "meter {code:02X}");
        }
    }

    #[test]
    fn extended_meters_are_the_meters_own_size_and_an_unknown_code_has_size_zero() {
        // 18 digits kept: 9 bytes, the whole value.
        let s = Snapshot { machine: Scope { coin_in: 123_456_789_012_345, ..played().machine }, meter_digits: 18, ..played() };
        let data = reply_data(0x6F, &[0x06, 0x00, 0x00, 0x00, 0x00, 0xFF, 0x0F], &s).unwrap();
        assert_eq!(data, [vec![0x11, 0x00, 0x00, 0x00, 0x00, 0x09], bcd::encode(123_456_789_012_345, 9), vec![0xFF, 0x0F, 0x00]].concat());
        assert_eq!(reply_data(0xAF, &[0x06, 0x00, 0x00, 0x00, 0x00, 0xFF, 0x0F], &s), Some(data));
        // Issue 71: 10 digits kept (the default): 5 bytes, the value as the
        // meter shows it (rolled over past 10^10 - 1, C-21); 13 digits: 7.
        let s = Snapshot { meter_digits: 10, ..s };
        let data = reply_data(0x6F, &[0x04, 0x00, 0x00, 0x00, 0x00], &s).unwrap();
        assert_eq!(data, [vec![0x0A, 0x00, 0x00, 0x00, 0x00, 0x05], bcd::encode(6_789_012_345, 5)].concat());
        let s = Snapshot { meter_digits: 13, ..s };
        let data = reply_data(0xAF, &[0x04, 0x00, 0x00, 0x00, 0x00], &s).unwrap();
        assert_eq!(data, [vec![0x0C, 0x00, 0x00, 0x00, 0x00, 0x07], bcd::encode(3_456_789_012_345, 7)].concat());
    }

    /// Issue 71: LP 52 was framed and never answered.
    #[test]
    fn lp_52_reads_one_games_four_meters() {
        let s = played();
        assert_eq!(
            reply_data(0x52, &[0x00, 0x02], &s),
            Some([vec![0x00, 0x02], bcd::encode(10_000, 4), bcd::encode(10_000, 4), bcd::encode(0, 4), bcd::encode(40, 4)].concat())
        );
        assert_eq!(reply_data(0x52, &[0x00, 0x00], &s).map(|d| d[2..6].to_vec()), Some(bcd::encode(25_000, 4)), "game 0: the machine");
        assert_eq!(reply_data(0x52, &[0x00, 0x03], &s), None, "no game 3");
    }

    #[test]
    fn a_denomination_reads_its_own_games() {
        let s = Snapshot { meter_digits: 10, ..played() };
        // Issue 71: the extended meters too (coin in, games played).
        assert_eq!(
            denomination_reply_data(0x6F, &[0x06, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00], 5, &s),
            Some([vec![0x12, 0x00, 0x00, 0x00, 0x00, 0x05], bcd::encode(10_000, 5), vec![0x05, 0x00, 0x05], bcd::encode(40, 5)].concat())
        );
        assert_eq!(denomination_reply_data(0xAF, &[0x04, 0x00, 0x01, 0x00, 0x00], 5, &s), None, "game 0 only");
        assert_eq!(denomination_reply_data(0x11, &[], 5, &s), Some(bcd::encode(10_000, 4)));
        assert_eq!(denomination_reply_data(0x15, &[], 1, &s), Some(bcd::encode(60, 4)));
        assert_eq!(denomination_reply_data(0x15, &[], 25, &s), Some(bcd::encode(0, 4)), "never played: zero");
        let sum: u64 = s.denominations.values().map(|d| d.coin_in).sum();
        assert_eq!(sum, s.machine.coin_in, "the denominations add up to the machine");
    }

    #[test]
    fn a_meter_wider_than_its_field_rolls_over_and_no_denomination_reads_zero() {
        let s = Snapshot { machine: Scope { coin_in: 123_456_789_012, ..played().machine }, ..played() };
        assert_eq!(reply_data(0x11, &[], &s).unwrap(), [0x56, 0x78, 0x90, 0x12]);
        let unset = Snapshot { accounting_denom: 0, ..played() };
        assert_eq!(reply_data(0x1A, &[], &unset).unwrap(), [0, 0, 0, 0]);
    }
}
