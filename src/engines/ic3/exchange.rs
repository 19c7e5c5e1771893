//! Lemmas shared between IC3 searches of one circuit, as multi-threaded
//! IC3 portfolios do (Chaki, Karimi, "Model Checking with Multi-threaded
//! IC3 Portfolios", VMCAI 2016; rIC3's portfolio): a lemma of level i
//! excludes no state reachable within i steps, whichever search found it,
//! so every search may take it.
//!
//! A search takes a lemma only as one of its own: after its own
//! relative-induction query at the level it would add it (`import` in
//! `mod.rs`), so its frames keep IC3's invariants (F_0 = Init, F_j ∧ T ⇒
//! F_{j+1}') and a convergence it reports is its own. A lemma that fails
//! that query is dropped: it costs one query and changes nothing.

use super::cube::Cube;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The level of a lemma that holds on every reachable state (the infinite
/// frame's).
pub const INFINITE: usize = usize::MAX;

/// The lemmas published so far, in the order they came.
#[derive(Debug, Default)]
pub struct LemmaPool {
    entries: Mutex<Vec<(usize, usize, Cube)>>,
    /// `entries.len()`, read without the lock.
    published: AtomicUsize,
}

impl LemmaPool {
    pub fn new() -> Arc<LemmaPool> {
        Arc::new(LemmaPool::default())
    }

    /// How many lemmas were published.
    pub fn published(&self) -> usize {
        self.published.load(Ordering::Acquire)
    }
}

/// One search's place at a [`LemmaPool`]: it publishes as `member` and
/// reads what the others published since its `cursor`.
#[derive(Clone, Debug)]
pub struct Exchange {
    pool: Arc<LemmaPool>,
    member: usize,
}

impl Exchange {
    pub fn new(pool: &Arc<LemmaPool>, member: usize) -> Exchange {
        Exchange {
            pool: pool.clone(),
            member,
        }
    }

    /// Publishes lemma `¬cube` of `level` ([`INFINITE`] for the infinite
    /// frame).
    pub fn publish(&self, level: usize, cube: &Cube) {
        let mut entries = self.pool.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.push((self.member, level, cube.clone()));
        self.pool.published.store(entries.len(), Ordering::Release);
    }

    /// Whether lemmas came after `cursor` (a cheap check, no lock).
    pub fn pending(&self, cursor: usize) -> bool {
        self.pool.published() > cursor
    }

    /// The others' lemmas after `cursor`, with their levels, and the new
    /// cursor.
    pub fn since(&self, cursor: usize) -> (Vec<(usize, Cube)>, usize) {
        let entries = self.pool.entries.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = entries[cursor.min(entries.len())..]
            .iter()
            .filter(|(from, _, _)| *from != self.member)
            .map(|(_, level, cube)| (*level, cube.clone()))
            .collect();
        (fresh, entries.len())
    }
}
