//! The ID-003 driver over a real serial line (issue 70): a pty carrying
//! what the UART carries, the cabinet's end opened as the acceptor's port
//! is (9,600 baud, 8E1, raw), the emulated acceptor answering frame by
//! frame at the other end — with garbage on the line once, and a reply
//! whose CRC is wrong once. Every note is credited once, the ticket given
//! back, and nothing is done on what did not read.
#![allow(clippy::unwrap_used)]

mod support;

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use peripherals::acceptor::NoteAcceptor;
use peripherals::id003::{Acceptor, Denomination, Emulator, Event, Frame, port};
use peripherals::serial::SerialLine;
use support::{Journal, react};

/// The acceptor's end: reads the controller's frames from `line`,
/// answers each; the 5th answer is preceded by garbage and the 9th sent
/// with its CRC broken.
fn acceptor_end(mut line: std::fs::File, acceptor: Arc<Mutex<Emulator>>, stop: Arc<AtomicBool>) {
    let mut pending = Vec::new();
    let mut answered = 0u32;
    let mut buf = [0u8; 256];
    while !stop.load(Ordering::SeqCst) {
        // Waits at most 10 ms, so that the end stops when told.
        let ready = {
            use std::os::fd::AsFd;
            let mut fds = [nix::poll::PollFd::new(line.as_fd(), nix::poll::PollFlags::POLLIN)];
            nix::poll::poll(&mut fds, nix::poll::PollTimeout::from(10u8)).unwrap()
        };
        let n = if ready == 0 { 0 } else { line.read(&mut buf).unwrap_or(0) };
        if n == 0 {
            std::thread::sleep(Duration::from_millis(2));
            continue;
        }
        pending.extend_from_slice(&buf[..n]);
        while let Ok((frame, used)) = Frame::decode(&pending) {
            let bytes = frame.encode();
            pending.drain(..used);
            let mut reply = acceptor.lock().unwrap().answer(&bytes).unwrap();
            if reply.is_empty() {
                continue;
            }
            answered += 1;
            if answered == 5 {
                line.write_all(&[0x00, 0x13, 0x37]).unwrap();
            }
            if answered == 9 {
                let last = reply.len() - 1;
                reply[last] ^= 0xFF;
            }
            line.write_all(&reply).unwrap();
        }
    }
}

#[test]
fn a_session_over_a_serial_line_credits_each_note_once() {
    let pty = peripherals::serial::Pty::open().unwrap();
    let acceptor = Arc::new(Mutex::new(Emulator::new()));
    {
        let mut a = acceptor.lock().unwrap();
        for d in [Denomination::Note(0x63), Denomination::Ticket("001234567890123456".into()), Denomination::Note(0x64)] {
            a.insert(d);
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let end = {
        let (master, acceptor, stop) = (pty.master.try_clone().unwrap(), acceptor.clone(), stop.clone());
        std::thread::spawn(move || acceptor_end(master, acceptor, stop))
    };
    let mut line = SerialLine::open_9600_8e1(&pty.path).unwrap();
    let (mut driver, mut journal) = (Acceptor::new(), Journal::default());
    driver.enable(true);
    let mut unreadable = 0;
    for _ in 0..120 {
        let events = port::poll(&mut driver, &mut line).unwrap();
        unreadable += events.iter().filter(|e| matches!(e, Event::Unreadable(_))).count();
        react(&mut driver, &mut journal, events);
    }
    stop.store(true, Ordering::SeqCst);
    end.join().unwrap();
    let a = acceptor.lock().unwrap();
    assert_eq!(journal.credited, [Denomination::Note(0x63), Denomination::Note(0x64)]);
    assert_eq!(a.stacked, journal.credited);
    assert_eq!(a.returned, [Denomination::Ticket("001234567890123456".into())]);
    assert_eq!(unreadable, 2, "the garbage and the broken CRC, each said once");
    assert!(journal.faults.is_empty(), "{:?}", journal.faults);
}

#[test]
fn a_port_that_is_not_a_serial_line_is_named() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let refused = SerialLine::open_9600_8e1(file.path()).unwrap_err().to_string();
    assert!(refused.contains("not a serial line"), "{refused}");
    let absent = SerialLine::open_9600_8e1(std::path::Path::new("/dev/egm-no-such-port")).unwrap_err().to_string();
    assert!(absent.contains("/dev/egm-no-such-port: cannot open it"), "{absent}");
}

/// What the acceptor sent before the cabinet opened its port answers
/// nothing the cabinet asked: the line opens without it, and reads what
/// comes after.
#[test]
fn a_line_opens_without_what_the_device_sent_before() {
    let pty = peripherals::serial::Pty::open().unwrap();
    let mut master = pty.master.try_clone().unwrap();
    let stale = Emulator::new().answer(&Frame::new(0x11, Vec::new()).unwrap().encode()).unwrap();
    assert!(!stale.is_empty());
    master.write_all(&stale).unwrap();
    let mut line = SerialLine::open_9600_8e1(&pty.path).unwrap();
    assert_eq!(line.receive(64, Duration::from_millis(50)).unwrap(), [] as [u8; 0], "a reply sent before the open was read");
    master.write_all(&[0xFC, 0x05]).unwrap();
    assert_eq!(line.receive(2, Duration::from_millis(500)).unwrap(), [0xFC, 0x05]);
}
