//! Time limits and cancellation shared by engines and SAT solvers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A deadline and a stop flag; clones share the flag.
///
/// Engines poll [`Budget::expired`] between steps and SAT backends poll it
/// while searching, so a run stops soon after the deadline or a
/// [`Budget::stop`] from another thread (for instance a portfolio sibling).
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::unlimited()
    }
}

impl Budget {
    /// No deadline; stops only when asked.
    pub fn unlimited() -> Budget {
        Budget {
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Expires `timeout` from now.
    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(timeout),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the deadline passed or a stop was requested.
    pub fn expired(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Asks every holder of this budget to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}
