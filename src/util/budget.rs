//! Time limits and cancellation shared by engines and SAT solvers.

use super::memory;
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
    /// The stop flags of the budgets this one was made a child of.
    parents: Vec<Arc<AtomicBool>>,
    /// Resident bytes past which the budget is spent (`util::memory`).
    memory: Option<usize>,
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
            parents: Vec::new(),
            memory: None,
        }
    }

    /// Expires `timeout` from now.
    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(timeout),
            stop: Arc::new(AtomicBool::new(false)),
            parents: Vec::new(),
            memory: None,
        }
    }

    /// The same budget, also spent once the process's resident memory
    /// passes `bytes` (`util::memory`).
    pub fn with_memory(mut self, bytes: usize) -> Budget {
        memory::limit(bytes);
        self.memory = Some(bytes);
        self
    }

    /// The memory limit, if any.
    pub fn memory(&self) -> Option<usize> {
        self.memory
    }

    /// Whether the deadline passed, the heap outgrew its limit, or a stop
    /// was requested.
    pub fn expired(&self) -> bool {
        self.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d) || self.memory_spent()
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || (self.parents.iter()).any(|p| p.load(Ordering::Relaxed))
    }

    fn memory_spent(&self) -> bool {
        self.memory.is_some() && memory::spent()
    }

    /// Why the budget is spent, for an unknown answer.
    pub fn reason(&self) -> &'static str {
        if self.memory_spent() {
            "memory limit reached"
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            "time limit reached"
        } else {
            "stopped"
        }
    }

    /// Asks every holder of this budget to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// A budget for one phase of the run: it shares this one's stop flag
    /// and memory limit, and expires after `timeout` or at this one's
    /// deadline, whichever comes first.
    pub fn narrowed(&self, timeout: Duration) -> Budget {
        let own = Instant::now().checked_add(timeout);
        Budget {
            deadline: match (self.deadline, own) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            stop: self.stop.clone(),
            parents: self.parents.clone(),
            memory: self.memory,
        }
    }

    /// A budget for one engine of a portfolio: this one's deadline, memory
    /// limit and stop, and a stop of its own that leaves this one running.
    pub fn child(&self) -> Budget {
        let mut parents = self.parents.clone();
        parents.push(self.stop.clone());
        Budget {
            deadline: self.deadline,
            stop: Arc::new(AtomicBool::new(false)),
            parents,
            memory: self.memory,
        }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}
