//! A device's end of a pty for the host's tests and benchmark (issue 70):
//! an emulated device served on a thread, as `egm-acceptor` serves the
//! acceptor — the ID-003 acceptor ([`AcceptorEnd`]) or the TCL printer
//! ([`PrinterEnd`]).
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
    _pty: sas::transport::Pty,
}

pub type AcceptorEnd = DeviceEnd<id003::Emulator>;
pub type PrinterEnd = DeviceEnd<tcl::Emulator>;

impl<E: Send + 'static> DeviceEnd<E> {
    fn serving(emulator: E, serve: Serve<E>) -> DeviceEnd<E> {
        let pty = sas::transport::Pty::open().unwrap();
        let emulator = Arc::new(Mutex::new(emulator));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (line, emulator, stop) = (pty.master.try_clone().unwrap(), emulator.clone(), stop.clone());
            std::thread::spawn(move || serve(line, &emulator, &stop).unwrap())
        };
        DeviceEnd { emulator, path: pty.path.clone(), stop, thread: Some(thread), _pty: pty }
    }

    pub fn with<T>(&self, f: impl FnOnce(&mut E) -> T) -> T {
        f(&mut self.emulator.lock().unwrap())
    }
}

impl DeviceEnd<id003::Emulator> {
    pub fn new() -> AcceptorEnd {
        DeviceEnd::serving(id003::Emulator::new(), id003::emulator::serve)
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
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}
