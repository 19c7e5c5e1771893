//! Liveness to safety (Biere, Artho, Schuppan, "Liveness Checking as Safety
//! Checking", FMICS 2002): a justice property (AIGER 1.9: a set of signals,
//! violated by an infinite run on which each holds infinitely often, every
//! fairness constraint too, and every invariant constraint always) becomes
//! a bad state of a larger circuit, so that every safety engine checks it:
//! a counterexample of the circuit is a lasso of the model, a proof is an
//! invariant of the circuit.
//!
//! The circuit adds an input `save` and latches: `saved` (the loop's start
//! has been chosen), a shadow copy of every latch (the state at that start)
//! and, per signal, `seen` (the signal held somewhere in the loop so far).
//! Bad: `saved`, the state equals its shadow, and every signal was seen. A
//! run reaching it at step k, the start chosen at step i, is a finite path
//! s_0 … s_k with s_k = s_i whose steps i … k−1 each signal meets: the loop
//! s_i … s_{k−1} repeated for ever is the lasso (the steps of the loop keep
//! the constraints, and repeating them repeats their inputs). Conversely an
//! infinite run with every signal infinitely often has, among its finitely
//! many states, one that recurs after every signal held: the same shape.

use super::aig::{lit_value, Aig, Lit};
use super::coi::mark_cone;

/// The safety circuit of one justice property, and where its parts are.
pub struct LivenessCircuit {
    /// The circuit: the model's inputs and latches first, at their
    /// positions, then `save` (the last input) and the added latches; one
    /// bad property, no justice and no fairness.
    pub aig: Aig,
    /// The model's inputs and latches (the prefix of `aig`'s).
    pub inputs: usize,
    /// The model's latches.
    pub latches: usize,
    /// Position of the `saved` latch in `aig`.
    pub saved: usize,
}

impl LivenessCircuit {
    /// The circuit for justice property `justice` of `model` (a circuit
    /// without reset functions: see `ir::resets`).
    pub fn new(model: &Aig, justice: usize) -> LivenessCircuit {
        let (mut aig, signals) = without_properties(model, justice);
        let save = aig.add_input();
        let saved = aig.add_latch(Some(false));
        let saved_pos = aig.latches.len() - 1;
        // The loop starts now: the start is taken in this step.
        let start = aig.and(save, !saved);
        let within = aig.or(saved, start);
        aig.set_next(saved_pos, within);
        // Only the latches the signals and constraints depend on need to
        // recur: the rest cannot change whether a loop meets the signals
        // (their loop is closed afterwards, by repeating it: `close_loop`).
        let cone = mark_cone(model, signals.iter().chain(&model.constraints).copied());
        let mut same = Lit::TRUE;
        for k in 0..model.latches.len() {
            if !cone[model.latches[k].var.0 as usize] {
                continue;
            }
            let current = Lit::new(model.latches[k].var, false);
            let shadow = aig.add_latch(None);
            let pos = aig.latches.len() - 1;
            let next = aig.ite(start, current, shadow);
            aig.set_next(pos, next);
            let equal = !aig.xor(current, shadow);
            same = aig.and(same, equal);
        }
        let mut all_seen = Lit::TRUE;
        for &s in &signals {
            let seen = aig.add_latch(Some(false));
            let pos = aig.latches.len() - 1;
            let now = aig.and(s, within);
            let next = aig.or(seen, now);
            aig.set_next(pos, next);
            all_seen = aig.and(all_seen, seen);
        }
        let closed = aig.and(saved, same);
        let bad = aig.and(closed, all_seen);
        aig.bad = vec![bad];
        LivenessCircuit {
            aig,
            inputs: model.inputs.len(),
            latches: model.latches.len(),
            saved: saved_pos,
        }
    }

    /// The lasso of a counterexample trace of the circuit (its latches'
    /// first values and inputs of every step, the bad state's step last):
    /// the model's first state, the model's inputs of the steps before the
    /// bad state, and the step where the loop starts.
    pub fn lasso(&self, init: &[bool], inputs: &[Vec<bool>]) -> Option<Lasso> {
        let steps = inputs.len().checked_sub(1)?;
        // The start: the one step where `save` was taken while not saved.
        let mut saved = false;
        let mut start = None;
        for (k, step) in inputs.iter().enumerate().take(steps) {
            if !saved && step[self.inputs] {
                start = Some(k);
                saved = true;
            }
        }
        Some(Lasso {
            init: init[..self.latches].to_vec(),
            inputs: (inputs[..steps].iter())
                .map(|v| v[..self.inputs].to_vec())
                .collect(),
            start: start?,
        })
    }
}

/// The lasso with its loop closed on every latch: a loop found on the
/// signals' cone is repeated (its inputs again) until the whole state after
/// a round is the state after an earlier round, within `max_steps` steps
/// of simulation in all (`None` past that). Latches outside the cone follow
/// the cone's inputs deterministically, so repeating the loop can only
/// revisit finitely many states.
pub fn close_loop(model: &Aig, lasso: &Lasso, max_steps: usize) -> Option<Lasso> {
    let step = |state: &[bool], inputs: &[bool]| -> Vec<bool> {
        let v = model.eval(inputs, state);
        model
            .latches
            .iter()
            .map(|l| lit_value(&v, l.next))
            .collect()
    };
    let mut state = lasso.init.clone();
    for inputs in &lasso.inputs[..lasso.start] {
        state = step(&state, inputs);
    }
    let body = &lasso.inputs[lasso.start..];
    if body.is_empty() {
        return None;
    }
    // The state at the start of each round.
    let mut rounds: Vec<Vec<bool>> = vec![state.clone()];
    let mut simulated = lasso.start;
    loop {
        for inputs in body {
            state = step(&state, inputs);
        }
        simulated += body.len();
        if let Some(r) = rounds.iter().position(|s| *s == state) {
            let mut inputs = lasso.inputs[..lasso.start].to_vec();
            for _ in 0..rounds.len() {
                inputs.extend(body.iter().cloned());
            }
            return Some(Lasso {
                init: lasso.init.clone(),
                inputs,
                start: lasso.start + r * body.len(),
            });
        }
        if simulated > max_steps {
            return None;
        }
        rounds.push(state.clone());
    }
}

/// A lasso: from `init` under `inputs`, the state after the last step
/// equals the state at step `start`, and repeating steps `start..` runs
/// for ever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    /// The first state's latch values.
    pub init: Vec<bool>,
    /// The inputs of each step.
    pub inputs: Vec<Vec<bool>>,
    /// The step the loop returns to.
    pub start: usize,
}

/// The safety circuit of k-liveness (Claessen, Sörensson, "A Liveness
/// Checking Algorithm that Counts", FMCAD 2012) for justice property
/// `justice` of `model`: a monitor notes each signal (the justice
/// property's and the fairness constraints) since the last round and
/// completes a round when all have been met; bad is a round completed after
/// `k` others. When no run completes more than `k` rounds, no run meets every
/// signal infinitely often: the property holds. (A counterexample proves
/// nothing: the next `k` is asked.)
pub fn k_liveness(model: &Aig, justice: usize, k: usize) -> Aig {
    let (mut aig, signals) = without_properties(model, justice);
    // Round: every signal met since the last round, this step included.
    let seen: Vec<(usize, Lit)> = (0..signals.len())
        .map(|_| {
            let l = aig.add_latch(Some(false));
            (aig.latches.len() - 1, l)
        })
        .collect();
    let mut round = Lit::TRUE;
    let mut met = Vec::with_capacity(signals.len());
    for (&(_, l), &s) in seen.iter().zip(&signals) {
        let m = aig.or(l, s);
        met.push(m);
        round = aig.and(round, m);
    }
    for (&(pos, _), &m) in seen.iter().zip(&met) {
        let next = aig.and(m, !round);
        aig.set_next(pos, next);
    }
    // The rounds completed before this step, in binary (wide enough for k).
    let width = (usize::BITS - k.leading_zeros()).max(1) as usize;
    let count: Vec<(usize, Lit)> = (0..width)
        .map(|_| {
            let l = aig.add_latch(Some(false));
            (aig.latches.len() - 1, l)
        })
        .collect();
    let mut carry = round;
    let mut at_k = Lit::TRUE;
    for (bit, &(pos, l)) in count.iter().enumerate() {
        let sum = aig.xor(l, carry);
        carry = aig.and(l, carry);
        aig.set_next(pos, sum);
        at_k = aig.and(at_k, l.xor(k >> bit & 1 == 0));
    }
    let bad = aig.and(round, at_k);
    aig.bad = vec![bad];
    aig
}

/// `model` (a circuit without reset functions) with no properties left,
/// and the signals of justice property `justice`: its own and the
/// fairness constraints.
fn without_properties(model: &Aig, justice: usize) -> (Aig, Vec<Lit>) {
    debug_assert!(!model.has_resets());
    let mut aig = model.clone();
    let signals: Vec<Lit> = (model.justice[justice].iter())
        .chain(&model.fairness)
        .copied()
        .collect();
    aig.bad.clear();
    aig.justice.clear();
    aig.fairness.clear();
    (aig, signals)
}
