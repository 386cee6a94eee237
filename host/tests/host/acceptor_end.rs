//! The acceptor's end of a pty for the host's tests and benchmark (issue
//! 70): the emulated ID-003 acceptor served on a thread, as `egm-acceptor`
//! serves it.
#![allow(clippy::unwrap_used, dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use peripherals::id003::{Emulator, emulator};

/// The acceptor's end of a pty, served on a thread.
pub struct AcceptorEnd {
    emulator: Arc<Mutex<Emulator>>,
    pub path: PathBuf,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    _pty: sas::transport::Pty,
}

impl AcceptorEnd {
    pub fn new() -> AcceptorEnd {
        let pty = sas::transport::Pty::open().unwrap();
        let emulator = Arc::new(Mutex::new(Emulator::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (line, emulator, stop) = (pty.master.try_clone().unwrap(), emulator.clone(), stop.clone());
            std::thread::spawn(move || emulator::serve(line, &emulator, &stop).unwrap())
        };
        AcceptorEnd { emulator, path: pty.path.clone(), stop, thread: Some(thread), _pty: pty }
    }

    pub fn with<T>(&self, f: impl FnOnce(&mut Emulator) -> T) -> T {
        f(&mut self.emulator.lock().unwrap())
    }
}

impl Drop for AcceptorEnd {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}
