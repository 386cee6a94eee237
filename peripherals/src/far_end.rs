//! The device's end of a line, for the emulators (issue 70): bytes read
//! as they come (never blocking longer than 10 ms, so the end stops when
//! told), each complete message answered, what starts no message dropped.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};

/// What an emulator makes of the bytes read so far.
pub(crate) enum Reading {
    /// One message taken (`used` bytes), and what to answer (maybe nothing).
    Answered { used: usize, reply: Vec<u8> },
    /// A message begun: more bytes are needed.
    Incomplete,
    /// These bytes start no message: dropped.
    Skip(usize),
}

/// Serve `line` until `stop`, `read` making what it can of the bytes
/// pending.
pub(crate) fn serve(mut line: File, stop: &AtomicBool, mut read: impl FnMut(&[u8]) -> std::io::Result<Reading>) -> std::io::Result<()> {
    let mut pending = Vec::new();
    let mut buf = [0u8; 256];
    while !stop.load(Ordering::SeqCst) {
        let ready = {
            let mut fds = [nix::poll::PollFd::new(line.as_fd(), nix::poll::PollFlags::POLLIN)];
            nix::poll::poll(&mut fds, nix::poll::PollTimeout::from(10u8)).map_err(std::io::Error::from)?
        };
        if ready == 0 {
            continue;
        }
        let n = line.read(&mut buf)?;
        if n == 0 {
            std::thread::sleep(std::time::Duration::from_millis(5));
            continue;
        }
        pending.extend_from_slice(&buf[..n]);
        while !pending.is_empty() {
            match read(&pending)? {
                Reading::Answered { used, reply } => {
                    pending.drain(..used.min(pending.len()));
                    if !reply.is_empty() {
                        line.write_all(&reply)?;
                    }
                }
                Reading::Incomplete => break,
                Reading::Skip(n) => {
                    pending.drain(..n.clamp(1, pending.len()));
                }
            }
        }
    }
    Ok(())
}

/// The emulator's state behind its lock.
pub(crate) fn locked<E>(emulator: &std::sync::Mutex<E>) -> std::io::Result<std::sync::MutexGuard<'_, E>> {
    emulator.lock().map_err(|_| std::io::Error::other("the emulator's state was poisoned"))
}
