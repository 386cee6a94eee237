//! The machine's standalone progressive pools (M-18): set up once, never
//! reset (M-20), transferred only as M-23 allows, reported as a liability.

use super::{CoreError, Machine};
use crate::anchor::AnchorReason;
use crate::journal::{Entry, TransferTarget};
use crate::money::Cents;
use crate::progressive::PoolConfig;
use crate::rng::GameRng;

impl Machine {
    /// Set up a progressive pool on this machine (M-18), each level at its
    /// start value. A pool id is set up once: its money is never reset (M-20).
    pub fn configure_pool(&mut self, config: PoolConfig) -> Result<(), CoreError> {
        config.validate().map_err(|e| CoreError::Progressive(e.to_string()))?;
        if self.state.pools.contains_key(&config.id) {
            return Err(CoreError::Progressive(format!("pool {} already exists: its money cannot be reset (M-20)", config.id)));
        }
        // Mystery levels: their first hidden values, drawn now (journaled).
        let mut mystery_at = Vec::new();
        for l in &config.levels {
            mystery_at.push(match (l.mystery, l.ceiling) {
                (true, Some(hi)) => Some(l.reset_value.min(l.start_value) + self.rng.lock().uniform(hi - l.reset_value.min(l.start_value) + 1)),
                _ => None,
            });
        }
        if mystery_at.iter().all(Option::is_none) {
            mystery_at.clear();
        }
        self.commit(vec![Entry::PoolConfigured { pool: config, mystery_at }])
    }

    /// Move pool money out of a level (M-23): to a pool of the same game
    /// model and bet type, or to a target with an authority reference.
    pub fn transfer_pool(&mut self, pool: &str, level: usize, amount: Cents, to: TransferTarget, by: &str) -> Result<(), CoreError> {
        if by.trim().is_empty() {
            return Err(CoreError::Progressive("a transfer names the operator who makes it (M-23)".into()));
        }
        let entry = Entry::PoolTransfer { pool: pool.to_owned(), level, amount, to, by: by.to_owned() };
        // Check on a copy, so that a refused transfer is never journaled.
        let mut probe = self.state.clone();
        probe.apply(&entry).map_err(|e| CoreError::Progressive(e.problem))?;
        self.anchor(AnchorReason::TransferOut, vec![entry]).map(|_| ())
    }

    /// The pools and their levels, meters and last hits.
    pub fn pools(&self) -> &std::collections::BTreeMap<String, crate::progressive::Pool> {
        &self.state.pools
    }

    /// The liability report (M-24): every pool and level now.
    pub fn liability_report(&self) -> Vec<crate::progressive::LiabilityLine> {
        crate::progressive::liability_report(self.state.pools.values())
    }
}
