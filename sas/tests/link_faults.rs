//! Link faults against the EGM's state machine (issue 48, proof "link
//! faults"): garbage of every kind, truncated frames, frames for other
//! addresses, bad CRCs, the line pulled mid-frame. Whatever arrives, the
//! EGM never panics, never answers for another address, never sends a
//! frame whose CRC does not check, and answers the next good poll
//! correctly.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use proptest::prelude::*;
use sas::egm::Egm;
use sas::snapshot::Snapshot;
use sas::wire::{Decoder, mark_message};

const ADDRESS: u8 = 5;

/// Feeds `read` (bytes as the transport reads them) with `gaps` µs
/// between them; every reply the EGM sends.
fn feed(egm: &mut Egm, decoder: &mut Decoder, read: &[u8], gaps: &[u16], now: &mut u64) -> Vec<Vec<u8>> {
    let mut replies = Vec::new();
    for (i, b) in read.iter().enumerate() {
        *now += u64::from(gaps.get(i % gaps.len().max(1)).copied().unwrap_or(573));
        if let Ok(Some(byte)) = decoder.push(*b)
            && let Some(reply) = egm.on_byte(byte, *now)
        {
            replies.push(reply);
        }
    }
    replies
}

/// What a reply from this EGM may be: one byte (an exception code or
/// 00, an ACK — the address —, a NACK — the address with its top bit), or
/// a frame that starts with the address and whose CRC checks.
fn well_formed(reply: &[u8]) -> bool {
    match reply {
        [_] => true,
        [a, ..] if *a == ADDRESS => sas::crc::checks(reply),
        _ => false,
    }
}

fn egm() -> Egm {
    let mut e = Egm::new(ADDRESS).unwrap();
    e.publish(Arc::new(Snapshot { accounting_denom: 1, credit: 4_321, ..Snapshot::default() }));
    e
}

/// The good poll after the fault: a sync poll, then LP 1A, well apart.
fn recovers(egm: &mut Egm, decoder: &mut Decoder, now: &mut u64) {
    // The marked grammar may be left mid-escape: one plain byte ends it.
    let _ = decoder.push(0x00);
    *now += 50_000;
    feed(egm, decoder, &mark_message(&[0x80]), &[573], now);
    *now += 50_000;
    let replies = feed(egm, decoder, &mark_message(&[ADDRESS, 0x1A]), &[573], now);
    assert_eq!(replies, [sas::crc::sealed(&[ADDRESS, 0x1A, 0x00, 0x00, 0x43, 0x21])]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// Raw garbage, as the line reads it (any byte, escapes included).
    #[test]
    fn garbage_never_breaks_the_link(read in proptest::collection::vec(any::<u8>(), 0..400), gaps in proptest::collection::vec(0u16..8_000, 1..8)) {
        let (mut e, mut d, mut now) = (egm(), Decoder::new(), 0u64);
        for reply in feed(&mut e, &mut d, &read, &gaps, &mut now) {
            prop_assert!(well_formed(&reply), "{reply:02X?}");
        }
        recovers(&mut e, &mut d, &mut now);
    }

    /// Messages well marked but wrong: other addresses, corrupted CRCs,
    /// truncated frames, unknown commands, in any order.
    #[test]
    fn wrong_messages_get_no_wrong_reply(messages in proptest::collection::vec((0u8..=0xFF, any::<u8>(), proptest::collection::vec(any::<u8>(), 0..12), any::<bool>()), 0..40)) {
        let (mut e, mut d, mut now) = (egm(), Decoder::new(), 0u64);
        for (first, command, data, seal) in messages {
            let mut m = vec![first, command];
            m.extend(&data);
            let m = if seal { sas::crc::sealed(&m) } else { m };
            now += 40_000;
            let replies = feed(&mut e, &mut d, &mark_message(&m), &[573], &mut now);
            for reply in &replies {
                prop_assert!(well_formed(reply), "{m:02X?} → {reply:02X?}");
            }
            // A message to another address (not a broadcast general poll
            // to us) is never answered.
            let ours = first == ADDRESS || first == (0x80 | ADDRESS);
            prop_assert!(ours || replies.is_empty(), "{m:02X?} answered {replies:02X?}");
        }
        recovers(&mut e, &mut d, &mut now);
    }

    /// The line pulled mid-frame: a good long poll cut anywhere, silence
    /// over 5 ms, then a good poll.
    #[test]
    fn a_frame_cut_anywhere_is_dropped(cut in 1usize..10) {
        let (mut e, mut d, mut now) = (egm(), Decoder::new(), 0u64);
        let lp = sas::crc::sealed(&[ADDRESS, 0x7F, 0x11, 0x27, 0x20, 0x26, 0x17, 0x56, 0x19]);
        let marked = mark_message(&lp);
        let part = &marked[..cut.min(marked.len() - 1)];
        prop_assert!(feed(&mut e, &mut d, part, &[573], &mut now).is_empty());
        now += 6_000;
        recovers(&mut e, &mut d, &mut now);
    }
}
