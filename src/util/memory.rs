//! The process's memory for `--memory`: its resident set, sampled by a
//! thread every 10 ms from `/proc/self/statm`, so that memory taken by the
//! C++ solvers counts as much as invar's own. Once the resident set passes
//! the limit the budget stays spent (engines stop and answer unknown with
//! the reason), even if memory is freed while they unwind.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;
use std::time::Duration;

static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static SPENT: AtomicBool = AtomicBool::new(false);
static SAMPLER: Once = Once::new();

/// Bytes resident now (`None` where `/proc` is not available).
pub fn resident() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = text.split_whitespace().nth(1)?.parse().ok()?;
    // Linux on the machines invar targets uses 4 KiB pages.
    Some(pages.saturating_mul(4096))
}

/// Limits the process's resident set to `bytes` from now on (the lowest
/// limit asked for wins) and starts the sampler.
pub fn limit(bytes: usize) {
    LIMIT.fetch_min(bytes, Ordering::SeqCst);
    SAMPLER.call_once(|| {
        std::thread::spawn(|| loop {
            if resident().is_some_and(|r| r > LIMIT.load(Ordering::SeqCst)) {
                SPENT.store(true, Ordering::SeqCst);
            }
            std::thread::sleep(Duration::from_millis(10));
        });
    });
}

/// Whether the resident set has passed the limit.
pub fn spent() -> bool {
    SPENT.load(Ordering::Relaxed)
}
