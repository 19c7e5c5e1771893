//! Time limits and cancellation shared by engines and SAT solvers.

use super::memory;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
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
    /// The engines this one shares a core with, and its place among them.
    turn: Option<(Arc<Turns>, usize)>,
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
            turn: None,
        }
    }

    /// Expires `timeout` from now.
    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(timeout),
            stop: Arc::new(AtomicBool::new(false)),
            parents: Vec::new(),
            memory: None,
            turn: None,
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
    /// was requested. A budget that takes turns ([`Budget::taking_turn`])
    /// first waits here for its turn.
    pub fn expired(&self) -> bool {
        if let Some((turns, me)) = &self.turn {
            turns.take(*me, || self.spent());
        }
        self.spent()
    }

    fn spent(&self) -> bool {
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
            turn: self.turn.clone(),
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
            turn: self.turn.clone(),
        }
    }

    /// The same budget for member `me` of `turns`: its holder runs only
    /// during its turns (it waits inside [`Budget::expired`], which every
    /// engine and solver polls).
    pub fn taking_turn(&self, turns: &Arc<Turns>, me: usize) -> Budget {
        Budget {
            turn: Some((turns.clone(), me)),
            ..self.clone()
        }
    }

    /// Hands the rest of this member's turn ([`Budget::taking_turn`]) to the
    /// next member, for an engine that has nothing to do yet; a budget that
    /// takes no turns, or does not hold the turn, is left as it is.
    pub fn pass_turn(&self) {
        if let Some((turns, me)) = &self.turn {
            turns.hand_on(*me);
        }
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}

/// Engines that share one core by taking turns: each runs for a slice of
/// wall time, then waits while the next one runs. Unlike threads left to
/// the operating system, the turns leave the other cores to the engines
/// that own them. A waiting engine keeps its whole state; a member that
/// ends (its [`Seat`] is dropped) is skipped from then on.
#[derive(Debug)]
pub struct Turns {
    /// The member whose turn it is.
    holder: AtomicUsize,
    /// When the holder's slice began, in nanoseconds after `epoch`.
    since: AtomicU64,
    epoch: Instant,
    slice: u64,
    /// Per member: still running.
    live: Mutex<Vec<bool>>,
    handed_over: Condvar,
}

impl Turns {
    /// `members` engines taking turns of `slice`; member 0 begins.
    pub fn new(members: usize, slice: Duration) -> Arc<Turns> {
        Turns::with_first_turn(members, slice, slice)
    }

    /// The same, member 0's first turn lasting `first` (at least a slice).
    pub fn with_first_turn(members: usize, slice: Duration, first: Duration) -> Arc<Turns> {
        let (slice, first) = (slice.as_nanos() as u64, first.as_nanos() as u64);
        Arc::new(Turns {
            holder: AtomicUsize::new(0),
            // A turn ends `slice` after `since`: the first one, `first`
            // after the start.
            since: AtomicU64::new(first.saturating_sub(slice)),
            epoch: Instant::now(),
            slice,
            live: Mutex::new(vec![true; members]),
            handed_over: Condvar::new(),
        })
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// Returns once member `me` holds the turn, passing it on first if its
    /// slice is over and another member runs; or once `give_up` says the
    /// run is over (the wait then ends within a few milliseconds).
    fn take(&self, me: usize, give_up: impl Fn() -> bool) {
        let now = self.now();
        let holder = self.holder.load(Ordering::Acquire);
        if holder == me && now.saturating_sub(self.since.load(Ordering::Relaxed)) < self.slice {
            return;
        }
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if self.holder.load(Ordering::Acquire) == me {
            self.pass(me, &live, now);
        }
        while self.holder.load(Ordering::Acquire) != me && !give_up() {
            let waited = self
                .handed_over
                .wait_timeout(live, Duration::from_millis(10));
            live = waited.unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Gives the turn of `me` to the next live member (or keeps it for a new
    /// slice when there is none).
    fn pass(&self, me: usize, live: &[bool], now: u64) {
        let n = live.len();
        let next = (1..=n).map(|k| (me + k) % n).find(|&m| live[m] && m != me);
        self.since.store(now, Ordering::Relaxed);
        if let Some(next) = next {
            self.holder.store(next, Ordering::Release);
            self.handed_over.notify_all();
        }
    }

    /// Member `me`, if it holds the turn, passes it on now.
    fn hand_on(&self, me: usize) {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if self.holder.load(Ordering::Acquire) == me {
            self.pass(me, &live, self.now());
        }
    }

    /// Retires member `me` when the returned guard is dropped, so the others
    /// stop waiting for it however its engine ends (a panic included).
    pub fn seat(&self, me: usize) -> Seat<'_> {
        Seat { turns: self, me }
    }

    /// Member `me` has ended: the others no longer wait for it.
    fn retire(&self, me: usize) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live[me] = false;
        if self.holder.load(Ordering::Acquire) == me {
            let now = self.now();
            self.pass(me, &live, now);
        }
    }
}

/// A member's place in [`Turns`]; dropping it retires the member.
pub struct Seat<'a> {
    turns: &'a Turns,
    me: usize,
}

impl Drop for Seat<'_> {
    fn drop(&mut self) {
        self.turns.retire(self.me);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two members counting while they run: each gets about half of the
    /// time, never both at once, and the one left alone runs on.
    #[test]
    fn members_take_turns() {
        let turns = Turns::new(2, Duration::from_millis(5));
        let budget = Budget::with_timeout(Duration::from_secs(2));
        let running = Arc::new(AtomicUsize::new(0));
        let overlap = Arc::new(AtomicBool::new(false));
        let counts: Vec<u64> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..2)
                .map(|me| {
                    let b = budget.taking_turn(&turns, me);
                    let (running, overlap, turns) =
                        (running.clone(), overlap.clone(), turns.clone());
                    scope.spawn(move || {
                        let _seat = turns.seat(me);
                        let mut count = 0u64;
                        // Member 1 ends early; member 0 must then run alone.
                        let end = if me == 1 { 100 } else { u64::MAX };
                        while count < end && !b.expired() {
                            if running.fetch_add(1, Ordering::SeqCst) != 0 {
                                overlap.store(true, Ordering::SeqCst);
                            }
                            std::thread::sleep(Duration::from_micros(100));
                            running.fetch_sub(1, Ordering::SeqCst);
                            count += 1;
                        }
                        count
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert!(!overlap.load(Ordering::SeqCst), "both members ran at once");
        assert_eq!(
            counts[1], 100,
            "member 1 did not finish its work: {counts:?}"
        );
        // Member 0 ran in its turns and then alone until the deadline.
        assert!(counts[0] > counts[1], "member 0 ran too little: {counts:?}");
    }

    /// Member 0's first turn lasts as long as asked: member 1 first runs
    /// after it (an hour-long first turn would hold it until the deadline,
    /// a 5 ms one would not), and turns are of the slice from then on.
    #[test]
    fn the_first_turn_lasts_as_asked() {
        let turns = Turns::with_first_turn(2, Duration::from_millis(5), Duration::from_millis(300));
        let budget = Budget::with_timeout(Duration::from_secs(5));
        let start = Instant::now();
        let first_run: Vec<Duration> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..2)
                .map(|me| {
                    let b = budget.taking_turn(&turns, me);
                    let turns = turns.clone();
                    scope.spawn(move || {
                        let _seat = turns.seat(me);
                        // Member 1 notes when it first runs; member 0 runs
                        // for a second in all.
                        let mut first = None;
                        let until = start + Duration::from_secs(1);
                        while Instant::now() < until && !b.expired() {
                            first.get_or_insert(start.elapsed());
                            if me == 1 {
                                break;
                            }
                            std::thread::sleep(Duration::from_micros(100));
                        }
                        first.unwrap_or_default()
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert!(
            first_run[1] >= Duration::from_millis(300),
            "member 1 ran before member 0's first turn ended: {first_run:?}"
        );
        assert!(
            first_run[1] < Duration::from_millis(900),
            "member 1 waited past the first turn: {first_run:?}"
        );
    }

    /// A member whose engine panics is retired by its seat: the other stops
    /// waiting (with a turn of an hour, it would wait until the deadline).
    #[test]
    fn a_panicking_member_is_retired() {
        let turns = Turns::new(2, Duration::from_secs(3600));
        let budget = Budget::with_timeout(Duration::from_secs(60));
        let holder = budget.taking_turn(&turns, 0);
        let waiting = budget.taking_turn(&turns, 1);
        let seats = turns.clone();
        let start = Instant::now();
        let crashed = std::thread::spawn(move || {
            let _seat = seats.seat(0);
            assert!(!holder.expired());
            std::thread::sleep(Duration::from_millis(50));
            panic!("engine bug");
        })
        .join();
        assert!(crashed.is_err());
        assert!(!waiting.expired());
        assert!(start.elapsed() < Duration::from_secs(30));
    }

    /// A member that passes its turn hands the core on at once: the other
    /// runs although the holder's slice (an hour) has just begun.
    #[test]
    fn a_passed_turn_goes_to_the_next_member() {
        let turns = Turns::new(2, Duration::from_secs(3600));
        let budget = Budget::with_timeout(Duration::from_secs(60));
        let holder = budget.taking_turn(&turns, 0);
        let waiting = budget.taking_turn(&turns, 1);
        assert!(!holder.expired());
        let start = Instant::now();
        let other = std::thread::spawn(move || waiting.expired());
        std::thread::sleep(Duration::from_millis(50));
        holder.pass_turn();
        assert!(!other.join().unwrap());
        assert!(start.elapsed() < Duration::from_secs(30));
        // Passing a turn one does not hold changes nothing.
        holder.pass_turn();
        assert_eq!(turns.holder.load(Ordering::Acquire), 1);
    }

    /// A member waiting for its turn notices the stop of the run.
    #[test]
    fn a_waiting_member_sees_the_stop() {
        let turns = Turns::new(2, Duration::from_secs(3600));
        let budget = Budget::unlimited();
        let waiting = budget.taking_turn(&turns, 1);
        let stopper = budget.clone();
        let start = Instant::now();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stopper.stop();
        });
        assert!(waiting.expired());
        assert!(start.elapsed() < Duration::from_secs(2));
    }
}
