//! Replays an AIGER witness by three-valued simulation of the file as read.
//!
//! `x` inputs and uninitialised `x` latches stay unknown, so a property
//! counts as reached only if it is 1 under every completion of the `x`s,
//! and constraints must be 1 (not unknown) in every step up to that point.

use crate::formats::aiger::{Aiger, Reset};
use crate::ir::trace::Trace;

const ZERO: u8 = 0;
const ONE: u8 = 1;
const UNKNOWN: u8 = 2;

fn from_bit(b: Option<bool>) -> u8 {
    match b {
        Some(false) => ZERO,
        Some(true) => ONE,
        None => UNKNOWN,
    }
}

/// A literal's three-valued value given every variable's.
fn lit_value(value: &[u8], l: u32) -> u8 {
    let v = value[(l >> 1) as usize];
    if v == UNKNOWN {
        UNKNOWN
    } else {
        v ^ (l & 1) as u8
    }
}

/// Computes every gate, in `order` (topological), from inputs and latches.
fn simulate_gates(aiger: &Aiger, order: &[usize], value: &mut [u8]) {
    for &g in order {
        let g = aiger.ands[g];
        let (a, b) = (lit_value(value, g.rhs0), lit_value(value, g.rhs1));
        value[(g.lhs >> 1) as usize] = if a == ZERO || b == ZERO {
            ZERO
        } else if a == ONE && b == ONE {
            ONE
        } else {
            UNKNOWN
        };
    }
}

/// What a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// Watched bad properties that are 1 at `step` (0-based), the first step
    /// where any is, with all constraints holding in steps `0..=step`.
    Reached {
        /// The step.
        step: usize,
        /// The properties that are 1 there.
        properties: Vec<usize>,
    },
    /// No bad property is reached; the reason says what happened.
    NotReached(String),
}

/// [`replay`] of a complete trace (every latch and input value given).
pub fn replay_trace(aiger: &Aiger, watched: &[usize], trace: &Trace) -> Replay {
    let init: Vec<Option<bool>> = trace.init.iter().map(|&b| Some(b)).collect();
    let inputs: Vec<Vec<Option<bool>>> = (trace.inputs.iter())
        .map(|v| v.iter().map(|&b| Some(b)).collect())
        .collect();
    replay(aiger, watched, &init, &inputs)
}

/// Simulates `aiger` from `init` under `inputs` until one of the bad
/// properties `watched` (indices into [`Aiger::bad_properties`]) is 1.
pub fn replay(
    aiger: &Aiger,
    watched: &[usize],
    init: &[Option<bool>],
    inputs: &[Vec<Option<bool>>],
) -> Replay {
    let bad = aiger.bad_properties();
    if let Some(&p) = watched.iter().find(|&&p| p >= bad.len()) {
        return Replay::NotReached(format!("the model has no bad property b{p}"));
    }
    if init.len() != aiger.latches.len() {
        return Replay::NotReached(format!(
            "the witness gives {} latch values for {} latches",
            init.len(),
            aiger.latches.len()
        ));
    }
    let order = aiger.topological_ands();
    let mut value = vec![ZERO; aiger.maxvar as usize + 1];
    let mut state = Vec::with_capacity(init.len());
    for (k, (latch, &bit)) in aiger.latches.iter().zip(init).enumerate() {
        let reset = match latch.reset {
            Reset::Zero => ZERO,
            Reset::One => ONE,
            Reset::Uninitialized | Reset::Function(_) => UNKNOWN,
        };
        let v = from_bit(bit);
        if reset != UNKNOWN && v != UNKNOWN && v != reset {
            return Replay::NotReached(format!(
                "latch {k} resets to {reset} but the witness starts it at {v}"
            ));
        }
        state.push(if v == UNKNOWN { reset } else { v });
    }
    let lit = lit_value;
    for (step, vector) in inputs.iter().enumerate() {
        if vector.len() != aiger.inputs.len() {
            return Replay::NotReached(format!(
                "step {step} gives {} input values for {} inputs",
                vector.len(),
                aiger.inputs.len()
            ));
        }
        for (&i, &bit) in aiger.inputs.iter().zip(vector) {
            value[(i >> 1) as usize] = from_bit(bit);
        }
        for (latch, &v) in aiger.latches.iter().zip(&state) {
            value[(latch.lit >> 1) as usize] = v;
        }
        let simulate = |value: &mut Vec<u8>| simulate_gates(aiger, &order, value);
        simulate(&mut value);
        if step == 0 {
            if let Err(why) = first_state(aiger, &mut value, simulate) {
                return Replay::NotReached(why);
            }
        }
        for (c, &l) in aiger.constraints.iter().enumerate() {
            match lit(&value, l) {
                ONE => {}
                ZERO => return Replay::NotReached(format!("constraint {c} fails at step {step}")),
                _ => {
                    return Replay::NotReached(format!(
                        "constraint {c} is undetermined at step {step} (x values)"
                    ))
                }
            }
        }
        let reached: Vec<usize> = (watched.iter().copied())
            .filter(|&p| lit(&value, bad[p]) == ONE)
            .collect();
        if !reached.is_empty() {
            return Replay::Reached {
                step,
                properties: reached,
            };
        }
        state = aiger.latches.iter().map(|l| lit(&value, l.next)).collect();
    }
    Replay::NotReached(format!(
        "no watched bad property is 1 in {} steps",
        inputs.len()
    ))
}

/// The first state under reset functions, as aigsim reads them: each latch
/// with one holds its reset literal's value in the first state, under the
/// first step's inputs. A latch the witness leaves `x` takes that value
/// (repeated until nothing changes: stratified resets settle within their
/// depth); one it gives must agree with it, and with every completion of
/// the `x`s. `simulate` recomputes the gates.
fn first_state(
    aiger: &Aiger,
    value: &mut Vec<u8>,
    simulate: impl Fn(&mut Vec<u8>),
) -> Result<(), String> {
    let of = lit_value;
    loop {
        let mut changed = false;
        for latch in &aiger.latches {
            if let Reset::Function(r) = latch.reset {
                let (v, want) = (of(value, latch.lit), of(value, r));
                if v == UNKNOWN && want != UNKNOWN {
                    value[(latch.lit >> 1) as usize] = want;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
        simulate(value);
    }
    for (k, latch) in aiger.latches.iter().enumerate() {
        if let Reset::Function(r) = latch.reset {
            let (v, want) = (of(value, latch.lit), of(value, r));
            if v == UNKNOWN || want == UNKNOWN {
                return Err(format!(
                    "latch {k}'s first value is undetermined under its reset function {r} (x values)"
                ));
            }
            if v != want {
                return Err(format!(
                    "latch {k} starts at {v} but its reset function {r} gives {want}"
                ));
            }
        }
    }
    Ok(())
}

/// Replays a lasso for justice property `justice` (an index into
/// [`Aiger::justice`]) as aigsim does: from `init` under `inputs`, every
/// constraint holds in every step, and the state after the last step is
/// the state of some earlier step i such that each of the property's
/// signals and each fairness constraint holds in some step from i on. The
/// first such i, or why there is none. Values must all be known.
pub fn replay_lasso(
    aiger: &Aiger,
    justice: usize,
    init: &[bool],
    inputs: &[Vec<bool>],
) -> Result<usize, String> {
    let Some(signals) = aiger.justice.get(justice) else {
        return Err(format!("the model has no justice property j{justice}"));
    };
    let signals: Vec<u32> = signals.iter().chain(&aiger.fairness).copied().collect();
    if init.len() != aiger.latches.len() {
        return Err(format!(
            "the lasso gives {} latch values for {} latches",
            init.len(),
            aiger.latches.len()
        ));
    }
    let order = aiger.topological_ands();
    let lit = lit_value;
    let simulate = |value: &mut Vec<u8>| simulate_gates(aiger, &order, value);
    let mut state: Vec<u8> = init.iter().map(|&b| b as u8).collect();
    for (latch, &v) in aiger.latches.iter().zip(&state) {
        let reset = match latch.reset {
            Reset::Zero => ZERO,
            Reset::One => ONE,
            _ => v,
        };
        if reset != v {
            return Err(format!(
                "latch {} starts at {v}, not at its reset",
                latch.lit
            ));
        }
    }
    let mut states = Vec::with_capacity(inputs.len());
    // Per step, which signals hold.
    let mut held: Vec<Vec<bool>> = Vec::with_capacity(inputs.len());
    for (step, vector) in inputs.iter().enumerate() {
        if vector.len() != aiger.inputs.len() {
            return Err(format!("step {step} gives {} input values", vector.len()));
        }
        let mut value = vec![ZERO; aiger.maxvar as usize + 1];
        for (&i, &b) in aiger.inputs.iter().zip(vector) {
            value[(i >> 1) as usize] = b as u8;
        }
        for (latch, &v) in aiger.latches.iter().zip(&state) {
            value[(latch.lit >> 1) as usize] = v;
        }
        simulate(&mut value);
        if step == 0 {
            first_state(aiger, &mut value, simulate)?;
        }
        for (c, &l) in aiger.constraints.iter().enumerate() {
            if lit(&value, l) != ONE {
                return Err(format!("constraint {c} fails at step {step}"));
            }
        }
        held.push(signals.iter().map(|&s| lit(&value, s) == ONE).collect());
        states.push(state.clone());
        state = aiger.latches.iter().map(|l| lit(&value, l.next)).collect();
    }
    (0..states.len())
        .find(|&i| {
            states[i] == state
                && (0..signals.len()).all(|s| held[i..].iter().any(|h| h[s]))
        })
        .ok_or_else(|| {
            format!(
                "no step of the {} is a loop start: the last state recurs nowhere with every signal of j{justice} after it",
                inputs.len()
            )
        })
}
