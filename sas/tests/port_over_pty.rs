//! A SAS port on its own thread over a real pty, driven by the reference
//! host through the marked grammar (sas.md §1.7): the bytes a lab's host
//! writes are the bytes the cabinet reads.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use sas::egm::Event;
use sas::exceptions::Exception;
use sas::host::{Host, Reply};
use sas::port::Port;
use sas::snapshot::Snapshot;
use sas::transport::{Line, LineError, Pty, SerialLine};

/// The digest's own CRC, a nibble at a time (sas.md §2), written here
/// apart from the crate's: the ROM signature is checked against it.
fn nibble_crc(seed: u16, bytes: &[u8]) -> u16 {
    let mut r = seed;
    for &b in bytes {
        for nibble in [b & 0x0F, b >> 4] {
            let q = (r ^ u16::from(nibble)) & 0x0F;
            r = (r >> 4) ^ (q * 0x1081);
        }
    }
    r
}

fn wait_for<T>(mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "nothing came in 10 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_host_polls_a_port_on_its_thread_through_a_pty() {
    let dir = tempfile::tempdir().unwrap();
    let (program, paytable) = (dir.path().join("cabinet"), dir.path().join("game.json"));
    let program_bytes: Vec<u8> = (0..300_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    std::fs::write(&program, &program_bytes).unwrap();
    std::fs::write(&paytable, b"{\"game\":\"ocean-treasure\"}").unwrap();

    let pty = Pty::open().unwrap();
    let line = SerialLine::open(&pty.path, Line::Marked).unwrap();
    let port = Port::start(line, 1, vec![program.clone(), paytable.clone()], Box::new(|| {})).unwrap();
    port.publish(Snapshot { accounting_denom: 1, credit: 1_250, ..Snapshot::default() });
    port.raise(vec![Exception::new(0x11, 41), Exception::new(0x12, 42)]);
    let mut host = Host::new(SerialLine::marked(pty.master.try_clone().unwrap()));

    // The link comes up on a sync poll and a poll to this address.
    host.sync().unwrap();
    let credits = wait_for(|| match host.read_poll(1, 0x1A).unwrap() {
        Reply::Bytes(b) if b.len() == 8 => Some(b),
        _ => None,
    });
    // sas.md §2's worked frame.
    assert_eq!(credits, [0x01, 0x1A, 0x00, 0x00, 0x12, 0x50, 0x67, 0x08]);
    assert!(wait_for(|| port.link_up().then_some(true)));
    assert_eq!(host.drain_exceptions(1).unwrap(), [0x11, 0x12]);
    let mut reported = wait_for(|| {
        let r = port.take_reported();
        (!r.is_empty()).then_some(r)
    });
    if reported.len() < 2 {
        reported.extend(wait_for(|| {
            let r = port.take_reported();
            (!r.is_empty()).then_some(r)
        }));
    }
    assert_eq!(reported, [41, 42]);

    // LP 21: an ACK now, the signature at a later general poll, equal to
    // the digest's nibble CRC chained over the program then the paytable.
    assert_eq!(host.long_poll(1, 0x21, &[0x34, 0x12]).unwrap(), Reply::Bytes(vec![0x01]));
    let expected = nibble_crc(nibble_crc(0x1234, &program_bytes), &std::fs::read(&paytable).unwrap());
    let delayed = wait_for(|| match host.general_poll(1).unwrap() {
        Reply::Bytes(b) if b.len() == 6 => Some(b),
        _ => {
            host.sync().unwrap();
            None
        }
    });
    assert_eq!(delayed, sas::crc::sealed(&[0x01, 0x21, expected.to_le_bytes()[0], expected.to_le_bytes()[1]]));
    host.sync().unwrap();

    // Shutdown and startup reach the game host as events.
    assert_eq!(host.long_poll(1, 0x01, &[]).unwrap(), Reply::Bytes(vec![0x01]));
    let events = wait_for(|| {
        let e = port.take_events();
        e.contains(&Event::PlayEnabled(false)).then_some(e)
    });
    assert!(events.contains(&Event::LinkUp(true)) || port.link_up());

    // Garbage on the line: bytes that break the grammar, polls to others,
    // truncated frames. The port neither panics nor answers them, and
    // answers the next good poll.
    let mut x: u32 = 0x1234_5678;
    let mut garbage = Vec::new();
    for _ in 0..5_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        garbage.push(x as u8);
    }
    let mut raw = SerialLine::marked(pty.master.try_clone().unwrap());
    raw.write_raw(&garbage).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    host.sync().unwrap();
    let again = wait_for(|| match host.read_poll(1, 0x1A).unwrap() {
        Reply::Bytes(b) if b.len() == 8 => Some(b),
        _ => {
            host.sync().unwrap();
            None
        }
    });
    assert_eq!(again, credits);
    let timing = port.timing();
    assert!(timing.replies >= 5);
    assert!(timing.reply_start_us.iter().all(|us| *us < 20_000), "every reply started within 20 ms: {:?}", timing.reply_start_us);
}

#[test]
fn a_silent_line_gets_chirps_every_200_ms_after_5_s() {
    let pty = Pty::open().unwrap();
    let port = Port::start(SerialLine::open(&pty.path, Line::Marked).unwrap(), 9, Vec::new(), Box::new(|| {})).unwrap();
    let mut master = SerialLine::marked(pty.master.try_clone().unwrap());
    let start = Instant::now();
    let mut chirps = Vec::new();
    let mut buf = [0u8; 64];
    while start.elapsed() < Duration::from_millis(6_100) {
        let n = master.read(&mut buf, Duration::from_millis(5)).unwrap();
        if n > 0 {
            assert_eq!(&buf[..n], [0xFF, 0x00, 0x09], "the address with its wake-up bit");
            chirps.push(start.elapsed());
        }
    }
    drop(port);
    assert!((5..=7).contains(&chirps.len()), "five to seven chirps in 5.0–6.1 s: {chirps:?}");
    assert!(chirps[0] >= Duration::from_millis(4_950) && chirps[0] <= Duration::from_millis(5_300), "first at 5 s: {:?}", chirps[0]);
    for pair in chirps.windows(2) {
        let period = pair[1] - pair[0];
        assert!(period >= Duration::from_millis(180) && period <= Duration::from_millis(260), "every 200 ms: {period:?}");
    }
}

#[test]
fn a_bad_port_is_a_clear_error() {
    let missing = std::path::Path::new("/dev/ttyS-no-such-port");
    let e = SerialLine::open(missing, Line::Uart).unwrap_err();
    assert!(matches!(e, LineError::Open { .. }));
    assert!(e.to_string().contains("/dev/ttyS-no-such-port"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-tty");
    std::fs::write(&file, b"").unwrap();
    let e = SerialLine::open(&file, Line::Uart).unwrap_err();
    assert!(matches!(e, LineError::NotSerial { .. }), "{e}");
    assert!(e.to_string().contains("not a serial line"), "{e}");
    // A pty takes the UART's settings (it ignores the stick parity).
    let pty = Pty::open().unwrap();
    assert!(SerialLine::open(&pty.path, Line::Uart).is_ok());
}

#[test]
fn the_uart_settings_read_back_as_19200_baud_8_bits() {
    use nix::sys::termios::{BaudRate, ControlFlags, InputFlags, tcgetattr};
    use std::os::fd::AsFd;
    let pty = Pty::open().unwrap();
    let _line = SerialLine::open(&pty.path, Line::Uart).unwrap();
    let other = std::fs::File::open(&pty.path).unwrap();
    let t = tcgetattr(other.as_fd()).unwrap();
    // The speed bits (cfgetospeed is not called: see transport.rs).
    assert_eq!((t.control_flags & ControlFlags::CBAUD).bits(), BaudRate::B19200 as nix::libc::tcflag_t);
    assert!(t.control_flags.contains(ControlFlags::CS8));
    assert!(t.input_flags.contains(InputFlags::INPCK | InputFlags::PARMRK | InputFlags::IGNBRK));
    assert!(!t.input_flags.contains(InputFlags::ISTRIP));
    // sas.md §1.7: a pty clears the stick parity it cannot carry.
}
