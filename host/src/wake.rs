//! Waking the screen (issue 45): a cabinet draws nothing while nothing
//! moves, so what changes with no touch — a linked pool's value, an award
//! on another machine (M-22), the link going down or coming back — must
//! say so. The cabinet gives the session a waker ([`Session::on_news`]);
//! the host's own threads call it when they have news, never anything
//! else (no money moves on a wake: the screen's next frame asks the
//! session, as every frame does).
//!
//! [`Session::on_news`]: crate::session::Session::on_news

use std::sync::{Arc, Mutex};

/// What the host calls when a thread of its own has news for the screen.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The session's waker, shared with its threads (none until the cabinet
/// gives one: a headless host is never asleep).
#[derive(Clone, Default)]
pub struct Wake(Arc<Mutex<Option<Waker>>>);

impl Wake {
    pub(crate) fn set(&self, waker: Waker) {
        if let Ok(mut w) = self.0.lock() {
            *w = Some(waker);
        }
    }

    /// Tell the screen there is news (nothing if it gave no waker).
    pub(crate) fn wake(&self) {
        let waker = self.0.lock().ok().and_then(|w| w.clone());
        if let Some(waker) = waker {
            waker();
        }
    }
}
