//! The run's monitor: one thread that ends the run when it must, whatever
//! the main thread is doing (parsing, a long solver call). On SIGINT or
//! SIGTERM, past the deadline (with a grace for the engines to stop on
//! their own) or when the heap stays above `--memory`, it kills every child
//! process, prints the unknown answer `check` registered (if no verdict was
//! printed yet) with the reason on stderr, and exits.

use super::json::JsonObject;
use super::{print_verdict_with, EXIT_UNKNOWN};
use invar::util::{children, memory};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Time past the deadline before the monitor answers on its own: the
/// engines poll the same deadline and usually answer first.
pub const GRACE: Duration = Duration::from_millis(800);

/// How long the run may go on once memory passed the limit, while the
/// engines unwind (they see the same limit in their budget); twice the
/// limit resident ends the run at once.
const MEMORY_GRACE: Duration = Duration::from_secs(1);

/// What the monitor enforces; `check` fills it in.
struct Watch {
    deadline: Option<Instant>,
    memory: Option<usize>,
    /// The unknown answer to print, and whether as JSON.
    unknown: Option<(Arc<Mutex<String>>, bool)>,
    /// When the heap first went above the limit.
    over_since: Option<Instant>,
}

static WATCH: Mutex<Watch> = Mutex::new(Watch {
    deadline: None,
    memory: None,
    unknown: None,
    over_since: None,
});

/// The last signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

extern "C" fn on_signal(signal: i32) {
    // Only an atomic store: all a signal handler may safely do here.
    SIGNAL.store(signal, Ordering::SeqCst);
}

/// Installs the signal handlers and starts the monitor thread.
pub fn start() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    let handler = on_signal as extern "C" fn(i32) as usize;
    // SAFETY: the handler only stores into an atomic.
    unsafe {
        signal(SIGINT, handler);
        signal(SIGTERM, handler);
    }
    std::thread::spawn(|| loop {
        std::thread::sleep(Duration::from_millis(20));
        tick();
    });
}

/// Enforces `deadline` (plus [`GRACE`]) and `memory` from now on, answering
/// with `unknown` (text, or a JSON object when `json`).
pub fn watch(
    deadline: Option<Instant>,
    memory: Option<usize>,
    unknown: Arc<Mutex<String>>,
    json: bool,
) {
    let mut w = WATCH.lock().unwrap_or_else(|e| e.into_inner());
    w.deadline = deadline;
    w.memory = memory;
    w.unknown = Some((unknown, json));
}

fn tick() {
    let mut w = WATCH.lock().unwrap_or_else(|e| e.into_inner());
    let now = Instant::now();
    let signal = SIGNAL.load(Ordering::SeqCst);
    let reason = if signal != 0 {
        Some(match signal {
            SIGINT => "interrupted (SIGINT)",
            _ => "terminated (SIGTERM)",
        })
    } else if w.deadline.is_some_and(|d| now >= d + GRACE) {
        Some("time limit reached")
    } else if let Some(limit) = w.memory.filter(|_| memory::spent()) {
        let since = *w.over_since.get_or_insert(now);
        let used = memory::resident().unwrap_or(0);
        (used > limit.saturating_mul(2) || now - since >= MEMORY_GRACE)
            .then_some("memory limit reached")
    } else {
        None
    };
    let Some(reason) = reason else {
        return;
    };
    // The answer is claimed before any child is killed: a killed solver
    // would otherwise let the main thread print an unknown of its own
    // ("z3 ended unexpectedly") first.
    match &w.unknown {
        Some((text, json)) => {
            // Read while no part of the verdict is being printed: what a
            // part answered is no longer in the text.
            let text = || {
                if *json {
                    let mut o = JsonObject::default();
                    o.string("verdict", "unknown").string("reason", reason);
                    o.finish()
                } else {
                    text.lock().unwrap_or_else(|e| e.into_inner()).clone()
                }
            };
            // If the verdict is out already, the main thread is exiting.
            if print_verdict_with(text) {
                eprintln!("invar: {reason}");
                children::kill_all();
                std::process::exit(EXIT_UNKNOWN);
            }
        }
        None => {
            children::kill_all();
            eprintln!("invar: {reason}");
            // The shell's convention for a command ended by a signal.
            std::process::exit(128 + signal.max(1));
        }
    }
}
