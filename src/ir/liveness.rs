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

/// The k-liveness monitor (Claessen, Sörensson, "A Liveness Checking
/// Algorithm that Counts", FMCAD 2012) of justice property `justice` of
/// `model`: the model, a latch per signal (the justice property's and the
/// fairness constraints) noting it since the last round, a round completed
/// when all have been met, and a saturating counter of the rounds. When no
/// run counts more than k rounds, no run meets every signal infinitely
/// often: the property holds. (A run that counts more proves nothing: a
/// larger k is asked.)
///
/// The circuit is the same for every k; only the bad property
/// ([`KLiveness::more_than`]) changes, so that what an IC3 run learnt of
/// the reachable states for one k holds for the next.
pub struct KLiveness {
    /// The monitored model; its one bad property is "at least one round".
    pub aig: Aig,
    /// Positions of the counter's latches in `aig`, least significant
    /// first.
    pub counter: Vec<usize>,
}

impl KLiveness {
    /// The monitor of justice property `justice` of `model` (a circuit
    /// without reset functions), its counter `width` bits wide.
    pub fn new(model: &Aig, justice: usize, width: usize) -> KLiveness {
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
        // The rounds completed before this step, in binary; it stops at
        // its largest value, so that "at least k" never turns false again.
        let count: Vec<(usize, Lit)> = (0..width)
            .map(|_| {
                let l = aig.add_latch(Some(false));
                (aig.latches.len() - 1, l)
            })
            .collect();
        let lits: Vec<Lit> = count.iter().map(|&(_, l)| l).collect();
        let full = lits.iter().fold(Lit::TRUE, |acc, &l| aig.and(acc, l));
        let mut carry = aig.and(round, !full);
        for &(pos, l) in &count {
            let sum = aig.xor(l, carry);
            carry = aig.and(l, carry);
            aig.set_next(pos, sum);
        }
        let some = at_least(&mut aig, &lits, 1);
        aig.bad = vec![some];
        KLiveness {
            aig,
            counter: count.iter().map(|&(pos, _)| pos).collect(),
        }
    }

    /// The largest k whose bad property the counter can express.
    pub fn max_bound(&self) -> usize {
        (1usize << self.counter.len().min(usize::BITS as usize - 2)) - 2
    }

    /// The monitor's bad property for bound `k`: more than `k` rounds.
    pub fn more_than(&self, aig: &mut Aig, counter: &[Lit], k: usize) -> Lit {
        debug_assert!(k <= self.max_bound());
        at_least(aig, counter, k + 1)
    }
}

/// `counter` (least significant bit first) ≥ `bound`, compared from the
/// least significant bit up: equal so far counts as at least.
pub fn at_least(aig: &mut Aig, counter: &[Lit], bound: usize) -> Lit {
    let mut ge = Lit::TRUE;
    for (bit, &c) in counter.iter().enumerate() {
        ge = if bound >> bit & 1 == 1 {
            aig.and(c, ge)
        } else {
            aig.or(c, ge)
        };
    }
    if bound >> counter.len().min(usize::BITS as usize - 1) != 0 {
        Lit::FALSE
    } else {
        ge
    }
}

/// The signals of justice property `justice` of `model`: its own and the
/// fairness constraints; a fair run meets each infinitely often.
fn signals(model: &Aig, justice: usize) -> Vec<Lit> {
    (model.justice[justice].iter())
        .chain(&model.fairness)
        .copied()
        .collect()
}

/// `model` (a circuit without reset functions) with no properties left,
/// and the signals of justice property `justice`: its own and the
/// fairness constraints.
fn without_properties(model: &Aig, justice: usize) -> (Aig, Vec<Lit>) {
    debug_assert!(!model.has_resets());
    let mut aig = model.clone();
    let signals = signals(model, justice);
    aig.bad.clear();
    aig.justice.clear();
    aig.fairness.clear();
    (aig, signals)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `at_least` against the integers, every 5-bit value and bound.
    #[test]
    fn at_least_compares_as_integers() {
        for bound in 0..40usize {
            let mut aig = Aig::new();
            let bits: Vec<Lit> = (0..5).map(|_| aig.add_input()).collect();
            let ge = at_least(&mut aig, &bits, bound);
            for value in 0..32usize {
                let inputs: Vec<bool> = (0..5).map(|b| value >> b & 1 == 1).collect();
                let values = aig.eval(&inputs, &[]);
                assert_eq!(lit_value(&values, ge), value >= bound, "{value} >= {bound}");
            }
        }
    }

    /// A model whose justice signal holds on every third step: the
    /// monitor's counter counts its rounds, one per three steps, and stops
    /// at its largest value.
    #[test]
    fn the_counter_counts_rounds_and_saturates() {
        let mut model = Aig::new();
        let a = model.add_latch(Some(false));
        let b = model.add_latch(Some(false));
        // a, b count 0, 1, 2, 0, …: (a, b) = 00 → 10 → 01 → 00.
        let zero = model.and(!a, !b);
        model.set_next(0, zero);
        model.set_next(1, a);
        model.justice = vec![vec![b]];
        let monitor = KLiveness::new(&model, 0, 3);
        let aig = &monitor.aig;
        let mut state: Vec<bool> = aig.latches.iter().map(|l| l.init == Some(true)).collect();
        for step in 0..40 {
            let count: usize = (monitor.counter.iter().enumerate())
                .map(|(bit, &p)| (state[p] as usize) << bit)
                .sum();
            // Rounds completed before this step: b held at steps 2, 5, 8, …
            assert_eq!(count, (step / 3).min(7), "step {step}");
            let values = aig.eval(&[], &state);
            assert_eq!(lit_value(&values, aig.bad[0]), count >= 1);
            state = aig
                .latches
                .iter()
                .map(|l| lit_value(&values, l.next))
                .collect();
        }
    }
}
