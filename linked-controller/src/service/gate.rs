//! The work a connection may cost before it is authenticated (issue 69):
//! 1,025 connections that sent a ClientHello and nothing more once filled
//! the handshake bound, each for its whole timeout, and honest cabinets
//! were turned away (2 to 4 of 18 got in).
//!
//! * **per source address**: at most [`Limits::handshakes_per_address`]
//!   handshakes at once; one more from the same address takes the place of
//!   that address's **oldest** (a floor gives each cabinet its own address;
//!   behind a shared one, an honest cabinet's new handshake still gets in);
//! * **in all**: at most [`Limits::handshakes`]; when they are all taken, a
//!   new connection is admitted and the **oldest** pending handshake is
//!   dropped.
//!
//! An honest handshake takes milliseconds, a stalled one holds its place
//! until it is the oldest: a flood that stalls evicts its own connections
//! first, and to evict an honest one it must open more connections than
//! the bound within that handshake's milliseconds.
//!
//! [`Limits::handshakes_per_address`]: crate::service::Limits::handshakes_per_address
//! [`Limits::handshakes`]: crate::service::Limits::handshakes

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// The pending handshakes.
pub(crate) struct Gate {
    total: usize,
    per_address: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next: u64,
    /// Oldest first: (ticket, address, how to drop it).
    pending: VecDeque<(u64, IpAddr, oneshot::Sender<()>)>,
    per_address: HashMap<IpAddr, usize>,
}

impl State {
    /// Forget ticket `id`; whether it was pending.
    fn remove(&mut self, id: u64) -> Option<oneshot::Sender<()>> {
        let at = self.pending.iter().position(|(i, ..)| *i == id)?;
        let (_, address, evict) = self.pending.remove(at)?;
        self.release(address);
        Some(evict)
    }

    fn release(&mut self, address: IpAddr) {
        if let Some(n) = self.per_address.get_mut(&address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per_address.remove(&address);
            }
        }
    }
}

/// A handshake's place at the gate, given back when it ends (or when a
/// newer connection takes it: `evicted` then resolves).
pub(crate) struct Ticket {
    gate: Arc<Gate>,
    id: u64,
    pub(crate) evicted: oneshot::Receiver<()>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if let Ok(mut s) = self.gate.state.lock() {
            let _ = s.remove(self.id);
        }
    }
}

/// Why a connection was not let in to its handshake: the gate could not
/// be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unavailable;

impl Gate {
    pub(crate) fn new(total: usize, per_address: usize) -> Arc<Gate> {
        Arc::new(Gate { total: total.max(1), per_address: per_address.max(1), state: Mutex::new(State::default()) })
    }

    /// A place for a handshake from `address`: at the address's bound its
    /// oldest pending handshake, at the total bound the oldest of all, is
    /// told to go (its `evicted` resolves) and this one takes its place.
    pub(crate) fn enter(self: &Arc<Self>, address: IpAddr) -> Result<Ticket, Unavailable> {
        let mut s = self.state.lock().map_err(|_| Unavailable)?;
        if s.per_address.get(&address).copied().unwrap_or(0) >= self.per_address
            && let Some(at) = s.pending.iter().position(|(_, a, _)| *a == address)
            && let Some((_, _, evict)) = s.pending.remove(at)
        {
            s.release(address);
            let _ = evict.send(());
        }
        while s.pending.len() >= self.total {
            let Some((_, oldest, evict)) = s.pending.pop_front() else { break };
            s.release(oldest);
            let _ = evict.send(());
        }
        let id = s.next;
        s.next = s.next.wrapping_add(1);
        let (evict, evicted) = oneshot::channel();
        s.pending.push_back((id, address, evict));
        *s.per_address.entry(address).or_insert(0) += 1;
        Ok(Ticket { gate: self.clone(), id, evicted })
    }

    /// Handshakes pending now.
    #[cfg(test)]
    fn pending(&self) -> usize {
        self.state.lock().map(|s| s.pending.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 1, last])
    }

    #[test]
    fn one_address_holds_its_bound_and_a_full_gate_drops_its_oldest() {
        let gate = Gate::new(4, 2);
        let mut a1 = gate.enter(ip(1)).unwrap();
        let mut a2 = gate.enter(ip(1)).unwrap();
        // The address's third: its oldest (a1) goes, the newcomer gets in.
        let mut a3 = gate.enter(ip(1)).unwrap();
        assert_eq!(a1.evicted.try_recv(), Ok(()));
        assert!(a2.evicted.try_recv().is_err());
        assert_eq!(gate.pending(), 2);
        let mut b1 = gate.enter(ip(2)).unwrap();
        let _b2 = gate.enter(ip(2)).unwrap();
        assert_eq!(gate.pending(), 4);
        // Full: the oldest of all (a2) is told to go, the newcomer gets in.
        let _c1 = gate.enter(ip(3)).unwrap();
        assert_eq!(a2.evicted.try_recv(), Ok(()));
        assert!(b1.evicted.try_recv().is_err() && a3.evicted.try_recv().is_err(), "only the oldest goes");
        assert_eq!(gate.pending(), 4);
        // An evicted ticket's end gives nothing back twice.
        drop(a1);
        drop(a2);
        assert_eq!(gate.pending(), 4);
        // A handshake that ends gives its place back.
        drop(b1);
        assert_eq!(gate.pending(), 3);
    }
}
