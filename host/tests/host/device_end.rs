//! A device's end of a pty for the host's tests and benchmark (issue 70):
//! an emulated device served on a thread, as `egm-acceptor` serves the
//! acceptor — the ID-003 acceptor ([`AcceptorEnd`]) or the TCL printer
//! ([`PrinterEnd`]). The acceptor's end can take a player's notes and
//! tickets on a control socket, as `egm-acceptor --control` does
//! (`note CODE`, `ticket DIGITS`): the cabinet's lab keys feed it there.
#![allow(clippy::unwrap_used, dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use peripherals::{id003, tcl};

/// How an emulator is served on the far end of its pty.
type Serve<E> = fn(std::fs::File, &Mutex<E>, &AtomicBool) -> std::io::Result<()>;

/// A device's end of a pty, served on a thread.
pub struct DeviceEnd<E: Send + 'static> {
    emulator: Arc<Mutex<E>>,
    pub path: PathBuf,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The control socket's thread, if one serves.
    control: Option<std::thread::JoinHandle<()>>,
    _pty: peripherals::serial::Pty,
}

pub type AcceptorEnd = DeviceEnd<id003::Emulator>;
pub type PrinterEnd = DeviceEnd<tcl::Emulator>;

impl<E: Send + 'static> DeviceEnd<E> {
    fn serving(emulator: E, serve: Serve<E>) -> DeviceEnd<E> {
        let pty = peripherals::serial::Pty::open().unwrap();
        let emulator = Arc::new(Mutex::new(emulator));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (line, emulator, stop) = (pty.master.try_clone().unwrap(), emulator.clone(), stop.clone());
            std::thread::spawn(move || serve(line, &emulator, &stop).unwrap())
        };
        DeviceEnd { emulator, path: pty.path.clone(), stop, thread: Some(thread), control: None, _pty: pty }
    }

    pub fn with<T>(&self, f: impl FnOnce(&mut E) -> T) -> T {
        f(&mut self.emulator.lock().unwrap())
    }
}

impl DeviceEnd<id003::Emulator> {
    pub fn new() -> AcceptorEnd {
        DeviceEnd::serving(id003::Emulator::new(), id003::emulator::serve)
    }

    /// Take a player's notes (`note CODE`, CODE the escrow code, `0x63`)
    /// and tickets (`ticket DIGITS`) on the Unix socket `socket`, one a
    /// line, each offered as at a real acceptor: not drawn in while it is
    /// inhibited (`id003::Emulator::offer`). Anything else is left unread
    /// and named on standard error.
    pub fn with_control(mut self, socket: &std::path::Path) -> AcceptorEnd {
        let listener = std::os::unix::net::UnixListener::bind(socket).unwrap();
        listener.set_nonblocking(true).unwrap();
        let (emulator, stop) = (self.emulator.clone(), self.stop.clone());
        self.control = Some(std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let Ok((stream, _)) = listener.accept() else {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    continue;
                };
                stream.set_nonblocking(false).unwrap();
                for line in std::io::BufRead::lines(std::io::BufReader::new(stream)).map_while(Result::ok) {
                    let offered = match line.split_whitespace().collect::<Vec<_>>()[..] {
                        ["note", code] => u8::from_str_radix(code.trim_start_matches("0x"), 16).ok().map(id003::Denomination::Note),
                        ["ticket", digits] => Some(id003::Denomination::Ticket(digits.to_owned())),
                        _ => None,
                    };
                    match offered {
                        Some(d) => {
                            emulator.lock().unwrap().offer(d);
                        }
                        None => eprintln!("the acceptor's control socket: {line:?} is not a note or a ticket"),
                    }
                }
            }
        }));
        self
    }
}

impl DeviceEnd<tcl::Emulator> {
    pub fn new() -> PrinterEnd {
        DeviceEnd::serving(tcl::Emulator::new(), tcl::emulator::serve)
    }
}

impl<E: Send + 'static> Drop for DeviceEnd<E> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in [self.thread.take(), self.control.take()].into_iter().flatten() {
            t.join().unwrap();
        }
    }
}
