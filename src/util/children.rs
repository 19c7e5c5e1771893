//! The child processes a run started (the C preprocessor, z3 and cvc5), so
//! that a run ended early by a signal, the time limit or the memory limit
//! leaves none behind. Each child leads its own process group, so killing
//! the group also ends what it started (gcc's `cc1`).

use std::sync::Mutex;

static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Records a running child (the leader of its own process group).
pub fn register(pid: u32) {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
}

/// Forgets a child that has ended or been killed.
pub fn unregister(pid: u32) {
    CHILDREN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&p| p != pid);
}

/// Kills the process group `leader` leads.
pub fn kill_group(leader: u32) {
    extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    if let Ok(pid) = i32::try_from(leader) {
        if pid > 0 {
            // SAFETY: kill(2) takes plain integers and touches no memory of ours.
            unsafe {
                kill(-pid, SIGKILL);
            }
        }
    }
}

/// Kills every recorded child's process group.
pub fn kill_all() {
    let pids = std::mem::take(&mut *CHILDREN.lock().unwrap_or_else(|e| e.into_inner()));
    for pid in pids {
        kill_group(pid);
    }
}
