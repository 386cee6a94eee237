//! Identity, the games, the clock and the last bill (sas.md §5): LP 1F
//! and 53 (a game's ID, denomination, largest bet, paytable and base
//! percentage), 54 (SAS version and serial number), A0 (the features this
//! cabinet really has), 51/55/56 (games implemented, selected, enabled),
//! 7E/7F (the clock), 48 (the last bill accepted) and B1/B2 (the player
//! denominations), all from the host's snapshot.

use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time};

use crate::bcd;
use crate::codes;
use crate::meters::game_number;
use crate::snapshot::{Game, Snapshot};

/// The SAS version this EGM speaks (LP 54).
pub const VERSION: &[u8; 3] = b"602";

/// LP A0's feature bits this cabinet sets [R: bit positions as recalled
/// from the SAS 6.02 table; check before a floor goes live]. Features 1:
/// ticket redemption (bit 7: LP 70/71) and the validation style in bits
/// 5–6 (00 the cabinet numbers its tickets and reports them; 01 system
/// validation, LP 57/58; 10 secure-enhanced, LP 4C). Features 2:
/// extended meters (bit 3), AFT (bit 6) and multi-denomination extensions
/// (bit 7). Nothing else is claimed: no bonusing, tournament, component
/// authentication or 40 ms polling.
fn features(s: &Snapshot) -> [u8; 3] {
    let validation = match (s.system_validation, s.secure_enhanced) {
        (true, _) => 0b0010_0000,
        (false, true) => 0b0100_0000,
        (false, false) => 0,
    };
    [0b1000_0000 | validation, 0b1100_1000, 0x00]
}

/// The data of an identity long poll's reply, or `None` where it is not
/// one (or names a game the cabinet does not have). `now` is the
/// cabinet's clock, Unix seconds.
pub fn reply_data(command: u8, request: &[u8], s: &Snapshot, now: i64) -> Option<Vec<u8>> {
    Some(match command {
        // The machine as its selected game describes it, the largest bet
        // over every game.
        0x1F => {
            let game = s.game(s.selected_game).or_else(|| s.games.first())?;
            let max = s.games.iter().map(|g| g.max_bet_credits).max().unwrap_or(0);
            configuration(s, game, max)
        }
        0x53 => {
            let number = game_number(request)?;
            let game = s.game(number)?;
            [request.get(..2)?.to_vec(), configuration(s, game, game.max_bet_credits)].concat()
        }
        0x54 => {
            let serial: Vec<u8> = s.serial.bytes().filter(u8::is_ascii_graphic).take(40).collect();
            let mut out = vec![u8::try_from(VERSION.len() + serial.len()).ok()?];
            out.extend_from_slice(VERSION);
            out.extend(serial);
            out
        }
        0xA0 => {
            let number = game_number(request)?;
            if number != 0 {
                s.game(number)?;
            }
            // Game, features 1–3, three reserved bytes: 12 bytes on the
            // wire with the address, command and CRC, as a SAS 6.02 EGM
            // answers (issue 71: two reserved bytes made it 11, and a host
            // reading the fixed length refused it).
            [request.get(..2)?.to_vec(), features(s).to_vec(), vec![0, 0, 0]].concat()
        }
        // Issue 71: a game's extended information (the floor's start-up
        // traffic asks it): game, largest bet (2 BCD credits), SAS
        // progressive group and its levels, the game's name and its
        // paytable's, and no wager categories (LP B4 not supported).
        // Game 0 is the machine: every game's largest bet, no name.
        0xB5 => {
            let number = game_number(request)?;
            let (max, group, levels, name, paytable) = match number {
                0 => (s.games.iter().map(|g| g.max_bet_credits).max().unwrap_or(0), 0, 0, String::new(), String::new()),
                n => {
                    let g = s.game(n)?;
                    (g.max_bet_credits, g.progressive_group, g.progressive_levels, g.id.clone(), String::from_utf8_lossy(&g.paytable_id).into_owned())
                }
            };
            let ascii = |t: &str| -> Vec<u8> { t.bytes().filter(u8::is_ascii_graphic).take(40).collect() };
            let (name, paytable) = (ascii(&name), ascii(&paytable));
            let mut out = vec![0];
            out.extend(request.get(..2)?);
            out.extend(bcd::encode(max.min(9_999), 2));
            out.push(group);
            out.extend(levels.to_le_bytes());
            out.push(u8::try_from(name.len()).ok()?);
            out.extend(name);
            out.push(u8::try_from(paytable.len()).ok()?);
            out.extend(paytable);
            out.extend(bcd::encode(0, 2));
            out[0] = u8::try_from(out.len() - 1).ok()?;
            out
        }
        0x51 => bcd::encode(s.games.len() as u64, 2),
        0x55 => bcd::encode(u64::from(s.selected_game), 2),
        0x56 => {
            let enabled: Vec<u16> = (1..=s.games.len()).filter(|n| s.games[n - 1].enabled).filter_map(|n| u16::try_from(n).ok()).collect();
            let count = u8::try_from(enabled.len()).ok()?;
            let mut out = vec![count.checked_mul(2)?.checked_add(1)?, count];
            for n in enabled {
                out.extend(bcd::encode(u64::from(n), 2));
            }
            out
        }
        0x7E => clock_fields(now)?,
        // The last bill: country code [R: 00, the cabinet's currency is in
        // its configuration], bill code, how many of it were accepted.
        0x48 => match s.last_note {
            Some(cents) => [vec![0x00, codes::bill_code(cents).unwrap_or(0xFF)], bcd::encode(s.notes_of(cents), 4)].concat(),
            None => vec![0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        },
        0xB1 => vec![codes::denomination_code(s.player_denom)],
        0xB2 => {
            let denoms: Vec<u8> = s.player_denoms.iter().map(|d| codes::denomination_code(*d)).collect();
            let count = u8::try_from(denoms.len()).ok()?;
            [vec![count.checked_add(1)?, count], denoms].concat()
        }
        _ => return None,
    })
}

/// LP 1F's fields for `game` (53 puts the game number before them).
fn configuration(s: &Snapshot, game: &Game, max_bet: u64) -> Vec<u8> {
    let mut out = game.sas_id.to_vec();
    out.extend_from_slice(&game.additional_id);
    out.push(codes::denomination_code(s.accounting_denom));
    out.push(u8::try_from(max_bet).unwrap_or(0xFF));
    // The game's SAS progressive group (0: none); no options set.
    out.extend_from_slice(&[game.progressive_group, 0x00, 0x00]);
    out.extend_from_slice(&game.paytable_id);
    out.extend(format!("{:04}", game.base_percent.min(9_999)).bytes());
    out
}

/// LP 7E's and 7F's date and time: MMDDYYYY (4 BCD) and HHMMSS (3 BCD)
/// of the cabinet's clock, UTC [R: a floor that keeps local time sets the
/// cabinet's clock by LP 7F, which this EGM keeps as an offset].
pub fn clock_fields(unix: i64) -> Option<Vec<u8>> {
    let t = OffsetDateTime::from_unix_timestamp(unix).ok()?;
    let date = u64::from(u8::from(t.month())) * 1_000_000 + u64::from(t.day()) * 10_000 + u64::try_from(t.year()).ok()?;
    let hms = u64::from(t.hour()) * 10_000 + u64::from(t.minute()) * 100 + u64::from(t.second());
    Some([bcd::encode(date, 4), bcd::encode(hms, 3)].concat())
}

/// LP 7F's date and time as Unix seconds, `None` for a date or time that
/// does not exist.
pub fn parse_clock(fields: &[u8]) -> Option<i64> {
    let date = bcd::decode(fields.get(..4)?).ok()?;
    let hms = bcd::decode(fields.get(4..7)?).ok()?;
    let month = Month::try_from(u8::try_from(date / 1_000_000).ok()?).ok()?;
    let day = u8::try_from(date / 10_000 % 100).ok()?;
    let year = i32::try_from(date % 10_000).ok()?;
    let d = Date::from_calendar_date(year, month, day).ok()?;
    let t = Time::from_hms(u8::try_from(hms / 10_000).ok()?, u8::try_from(hms / 100 % 100).ok()?, u8::try_from(hms % 100).ok()?).ok()?;
    Some(PrimitiveDateTime::new(d, t).assume_utc().unix_timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cabinet() -> Snapshot {
        let game = |id: &str, sas: &[u8; 2], pct: u32, max: u64, enabled: bool| Game {
            progressive_levels: 0,
            id: id.into(),
            sas_id: *sas,
            additional_id: [b'0', sas[1], b'7'],
            paytable_id: *b"OT9650",
            base_percent: pct,
            max_bet_credits: max,
            progressive_group: if sas == b"OT" { 3 } else { 0 },
            enabled,
            meters: Default::default(),
        };
        Snapshot {
            accounting_denom: 1,
            games: vec![game("ocean-treasure", b"OT", 9_650, 500, true), game("jacks", b"JB", 9_954, 25, false), game("roulette", b"RL", 9_730, 100, true)],
            serial: "EGM-0001".into(),
            selected_game: 3,
            player_denom: 5,
            player_denoms: vec![1, 5, 25],
            notes: [(2_000, 3)].into(),
            last_note: Some(2_000),
            ..Snapshot::default()
        }
    }

    #[test]
    fn identity_polls_describe_the_configured_cabinet() {
        let s = cabinet();
        // 1F: the selected game (roulette), the largest bet of all (500 >
        // 255: FF), the cent's denomination code 01.
        let mut expected = b"RL0L7".to_vec();
        expected.extend([0x01, 0xFF, 0x00, 0x00, 0x00]);
        expected.extend(b"OT9650");
        expected.extend(b"9730");
        assert_eq!(reply_data(0x1F, &[], &s, 0), Some(expected));
        // 53 for game 2: its own largest bet, the game number first.
        let g2 = reply_data(0x53, &[0x00, 0x02], &s, 0).unwrap();
        assert_eq!(&g2[..7], [0x00, 0x02, b'J', b'B', b'0', b'B', b'7'], "its own additional ID");
        assert_eq!(g2[8], 25);
        assert_eq!(&g2[18..], b"9954");
        let g1 = reply_data(0x53, &[0x00, 0x01], &s, 0).unwrap();
        assert_eq!(g1[9], 3, "game 1's SAS progressive group");
        assert_eq!(g2[9], 0, "game 2 is in none");
        assert_eq!(reply_data(0x53, &[0x00, 0x04], &s, 0), None, "no game 4");
        assert_eq!(reply_data(0x54, &[], &s, 0), Some([vec![11], b"602EGM-0001".to_vec()].concat()));
        assert_eq!(reply_data(0x51, &[], &s, 0), Some(vec![0x00, 0x03]));
        assert_eq!(reply_data(0x55, &[], &s, 0), Some(vec![0x00, 0x03]));
        assert_eq!(reply_data(0x56, &[], &s, 0), Some(vec![5, 2, 0x00, 0x01, 0x00, 0x03]), "games 1 and 3 enabled");
        assert_eq!(reply_data(0xA0, &[0x00, 0x00], &s, 0), Some(vec![0x00, 0x00, 0x80, 0xC8, 0x00, 0x00, 0x00, 0x00]));
        let system = Snapshot { system_validation: true, ..s.clone() };
        assert_eq!(reply_data(0xA0, &[0x00, 0x00], &system, 0), Some(vec![0x00, 0x00, 0xA0, 0xC8, 0x00, 0x00, 0x00, 0x00]));
        let secure = Snapshot { secure_enhanced: true, ..s.clone() };
        assert_eq!(reply_data(0xA0, &[0x00, 0x00], &secure, 0), Some(vec![0x00, 0x00, 0xC0, 0xC8, 0x00, 0x00, 0x00, 0x00]));
        assert_eq!(reply_data(0x48, &[], &s, 0), Some(vec![0x00, 0x04, 0x00, 0x00, 0x00, 0x03]), "three €20 / $20 notes");
        assert_eq!(reply_data(0xB1, &[], &s, 0), Some(vec![0x02]));
        assert_eq!(reply_data(0xB2, &[], &s, 0), Some(vec![4, 3, 0x01, 0x02, 0x04]));
    }

    #[test]
    fn the_clock_reads_and_sets_as_bcd_date_and_time() {
        // 2026-11-27 17:56:19 UTC.
        let unix = 1_795_802_179;
        let fields = clock_fields(unix).unwrap();
        assert_eq!(fields, [0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x19]);
        assert_eq!(parse_clock(&fields), Some(unix));
        assert_eq!(parse_clock(&[0x02, 0x30, 0x20, 0x26, 0x00, 0x00, 0x00]), None, "30 February");
        assert_eq!(parse_clock(&[0x01, 0x01, 0x20, 0x26, 0x24, 0x00, 0x00]), None, "hour 24");
        assert_eq!(parse_clock(&[0x1A, 0x01, 0x20, 0x26, 0x00, 0x00, 0x00]), None, "not BCD");
    }
}
