//! M-22 signalling at the database: the service's LISTEN connection,
//! which wakes on every award (cabinets watch the service instead).

use std::time::Duration;

use postgres::Client;

use crate::controller::{CHANNEL, Controller, LinkError};

/// M-22: a connection that LISTENs on [`CHANNEL`] and wakes when any
/// cabinet of a pool wins an award.
pub(crate) struct Listener {
    client: Client,
}

impl Listener {
    pub(crate) fn connect(url: &str) -> Result<Listener, LinkError> {
        let mut client = Controller::connect(url)?.client;
        client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
        Ok(Listener { client })
    }

    /// Wait up to `timeout` for notifications; returns the pools named
    /// (each once), empty when nothing came.
    pub(crate) fn wait(&mut self, timeout: Duration) -> Result<Vec<String>, LinkError> {
        use postgres::fallible_iterator::FallibleIterator;
        let mut pools: Vec<String> = Vec::new();
        let mut notes = self.client.notifications();
        // The first blocks up to the timeout; what queued with it is drained.
        let first = notes.timeout_iter(timeout).next()?;
        if let Some(n) = first {
            pools.push(n.payload().to_owned());
            let mut rest = notes.iter();
            while let Some(n) = rest.next()? {
                if !pools.iter().any(|p| p == n.payload()) {
                    pools.push(n.payload().to_owned());
                }
            }
        }
        Ok(pools)
    }
}
