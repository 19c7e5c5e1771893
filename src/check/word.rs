//! Replay of a word-level trace on the word-level model with the concrete
//! evaluator: the check of every UNSAFE answer on BTOR2, VMT and DimSpec
//! models. It shares no code with the bit-blaster, so a bit-blasting bug
//! shows up here as a trace that does not replay.

use crate::ir::term::eval::{EvalError, Evaluator, Value};
use crate::ir::ts::{Ts, WordTrace};

/// Where a replayed trace first violates a property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The step (0-based) of the violation.
    pub step: usize,
    /// The bad properties true in that step.
    pub properties: Vec<usize>,
}

fn value_text(v: &Value) -> String {
    v.to_string()
}

/// Replays `trace` on `ts`: checks the initial state, every transition and
/// every constraint, and returns the first step where a bad property among
/// `watched` holds. An error says which condition the trace breaks.
pub fn replay(ts: &Ts, trace: &WordTrace, watched: &[usize]) -> Result<Reached, String> {
    let mut ev = Evaluator::new(&ts.terms);
    let e = |e: EvalError| format!("cannot evaluate: {e}");
    for k in 0..trace.len() {
        ev.clear();
        for (s, v) in ts.states.iter().zip(&trace.states[k]) {
            ev.set(s.var, v.clone());
        }
        for (&i, v) in ts.inputs.iter().zip(&trace.inputs[k]) {
            ev.set(i, v.clone());
        }
        let next_states = trace.states.get(k + 1);
        if let Some(next) = next_states {
            for (s, v) in ts.states.iter().zip(next) {
                if let Some(primed) = s.next_var {
                    ev.set(primed, v.clone());
                }
            }
        }
        if k == 0 {
            for (i, s) in ts.states.iter().enumerate() {
                if let Some(init) = s.init {
                    let want = ev.eval(init).map_err(e)?;
                    if want != trace.states[0][i] {
                        return Err(format!(
                            "state {} starts at {} but its init is {}",
                            ts.terms.var_name(s.var).unwrap_or("?"),
                            value_text(&trace.states[0][i]),
                            value_text(&want)
                        ));
                    }
                }
            }
            for (n, &init) in ts.init.iter().enumerate() {
                if ev.eval(init).map_err(e)? != Value::Bool(true) {
                    return Err(format!("initial condition {n} is false in step 0"));
                }
            }
        }
        for (n, &c) in ts.constraints.iter().enumerate() {
            if ev.eval(c).map_err(e)? != Value::Bool(true) {
                return Err(format!("constraint {n} is violated in step {k}"));
            }
        }
        let mut hit = Vec::new();
        for &p in watched {
            if ev.eval(ts.bad[p].term).map_err(e)? == Value::Bool(true) {
                hit.push(p);
            }
        }
        if !hit.is_empty() {
            return Ok(Reached {
                step: k,
                properties: hit,
            });
        }
        let Some(next) = next_states else { break };
        for (i, s) in ts.states.iter().enumerate() {
            if let Some(f) = s.next {
                let want = ev.eval(f).map_err(e)?;
                if want != next[i] {
                    return Err(format!(
                        "state {} is {} in step {} but its next function gives {}",
                        ts.terms.var_name(s.var).unwrap_or("?"),
                        value_text(&next[i]),
                        k + 1,
                        value_text(&want)
                    ));
                }
            }
        }
        for (n, &t) in ts.trans.iter().enumerate() {
            if ev.eval(t).map_err(e)? != Value::Bool(true) {
                return Err(format!(
                    "transition condition {n} is false from step {k} to {}",
                    k + 1
                ));
            }
        }
    }
    Err(format!(
        "no watched bad property holds in any of the {} steps",
        trace.len()
    ))
}

/// Completes a partial witness into a trace by simulation: step 0 takes the
/// given state values, else the init term, else zero; later steps take the
/// next function, else the given value, else zero. Missing inputs are zero.
pub fn simulate(
    ts: &Ts,
    states: &[Vec<Option<Value>>],
    inputs: &[Vec<Option<Value>>],
) -> Result<WordTrace, String> {
    let mut ev = Evaluator::new(&ts.terms);
    let e = |e: EvalError| format!("cannot evaluate: {e}");
    let given = |frames: &[Vec<Option<Value>>], k: usize, i: usize| {
        frames.get(k).and_then(|f| f.get(i)).cloned().flatten()
    };
    let mut trace = WordTrace {
        states: Vec::new(),
        inputs: Vec::new(),
    };
    let mut current: Vec<Value> = Vec::new();
    for k in 0..inputs.len() {
        ev.clear();
        if k == 0 {
            let mut pending = Vec::new();
            for (i, s) in ts.states.iter().enumerate() {
                let v = match (given(states, 0, i), s.init) {
                    (Some(v), _) => v,
                    (None, Some(init)) => {
                        pending.push((i, init));
                        Value::default_of(ts.terms.sort(s.var))
                    }
                    (None, None) => Value::default_of(ts.terms.sort(s.var)),
                };
                ev.set(s.var, v.clone());
                current.push(v);
            }
            for (i, init) in pending {
                current[i] = ev.eval(init).map_err(e)?;
            }
            ev.clear();
        }
        for (s, v) in ts.states.iter().zip(&current) {
            ev.set(s.var, v.clone());
        }
        let ins: Vec<Value> = (ts.inputs.iter().enumerate())
            .map(|(i, &v)| {
                given(inputs, k, i).unwrap_or_else(|| Value::default_of(ts.terms.sort(v)))
            })
            .collect();
        for (&i, v) in ts.inputs.iter().zip(&ins) {
            ev.set(i, v.clone());
        }
        let mut next = Vec::with_capacity(current.len());
        for (i, s) in ts.states.iter().enumerate() {
            next.push(match (s.next, given(states, k + 1, i)) {
                (Some(f), _) => ev.eval(f).map_err(e)?,
                (None, Some(v)) => v,
                (None, None) => Value::default_of(ts.terms.sort(s.var)),
            });
        }
        trace.states.push(std::mem::replace(&mut current, next));
        trace.inputs.push(ins);
    }
    Ok(trace)
}
