//! Runs several engines in parallel threads; the first conclusive verdict
//! stops the others.

use super::{Outcome, Verdict};
use crate::ir::aig::Aig;
use crate::util::budget::Budget;
use std::sync::mpsc;

/// An engine run as a closure over a shared circuit.
pub type EngineFn<'a> = Box<dyn FnOnce(&Aig) -> Outcome + Send + 'a>;

/// Runs `engines` on `aig` in parallel; returns the first conclusive outcome,
/// or the last inconclusive one. `budget` must be the budget the engines poll:
/// it is stopped once a verdict is in.
pub fn run(aig: &Aig, budget: &Budget, engines: Vec<EngineFn<'_>>) -> Outcome {
    let count = engines.len();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for engine in engines {
            let tx = tx.clone();
            scope.spawn(move || {
                let _ = tx.send(engine(aig));
            });
        }
        let mut last = None;
        for _ in 0..count {
            let Ok(outcome) = rx.recv() else { break };
            if !matches!(outcome.verdict, Verdict::Unknown(_)) {
                budget.stop();
                return outcome;
            }
            last = Some(outcome);
        }
        last.expect("at least one engine")
    })
}
