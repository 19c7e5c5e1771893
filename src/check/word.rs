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
    for k in 0..trace.len() {
        let next_states = trace.states.get(k + 1);
        load(&mut ev, ts, trace, k, next_states.map(Vec::as_slice));
        if k == 0 {
            check_first(&mut ev, ts, &trace.states[0])?;
        }
        check_constraints(&mut ev, ts, k)?;
        let mut hit = Vec::new();
        for &p in watched {
            if ev.eval(ts.bad[p].term).map_err(eval_error)? == Value::Bool(true) {
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
        check_step(&mut ev, ts, k, next)?;
    }
    Err(format!(
        "no watched bad property holds in any of the {} steps",
        trace.len()
    ))
}

/// Replays `lasso`, a counterexample of liveness property `j`
/// ([`Ts::liveness_signals`]), on `ts`: every step as [`replay`] checks it,
/// and a last transition from the last step back to an earlier one, from
/// which on every signal of the property and every fairness constraint
/// holds in some step. Returns the first such loop start; the loop, taken
/// for ever, is an infinite run that violates the property.
pub fn replay_lasso(ts: &Ts, j: usize, lasso: &WordTrace) -> Result<usize, String> {
    let signals = ts
        .liveness_signals(j)
        .ok_or_else(|| format!("the model has no liveness property {j}"))?;
    let n = lasso.len();
    if n == 0 {
        return Err("the lasso has no step".into());
    }
    let mut ev = Evaluator::new(&ts.terms);
    // Per step, which signals hold.
    let mut held: Vec<Vec<bool>> = Vec::with_capacity(n);
    for k in 0..n {
        let next_states = lasso.states.get(k + 1);
        load(&mut ev, ts, lasso, k, next_states.map(Vec::as_slice));
        if k == 0 {
            check_first(&mut ev, ts, &lasso.states[0])?;
        }
        check_constraints(&mut ev, ts, k)?;
        let mut now = Vec::with_capacity(signals.len());
        for &(term, value) in &signals {
            now.push(ev.eval(term).map_err(eval_error)? == Value::Bool(value));
        }
        held.push(now);
        if let Some(next) = next_states {
            check_step(&mut ev, ts, k, next)?;
        }
    }
    for i in 0..n {
        if !(0..signals.len()).all(|s| held[i..].iter().any(|h| h[s])) {
            continue;
        }
        load(&mut ev, ts, lasso, n - 1, Some(&lasso.states[i]));
        if check_step(&mut ev, ts, n - 1, &lasso.states[i]).is_ok() {
            return Ok(i);
        }
    }
    Err(format!(
        "no step of the {n} is a loop start: the last step leads back to none with every signal of liveness property {j} after it"
    ))
}

fn eval_error(e: EvalError) -> String {
    format!("cannot evaluate: {e}")
}

/// Sets `ev` to step `k` of `trace`: its states and inputs, and the primed
/// states to `next` when given.
fn load(ev: &mut Evaluator, ts: &Ts, trace: &WordTrace, k: usize, next: Option<&[Value]>) {
    ev.clear();
    for (s, v) in ts.states.iter().zip(&trace.states[k]) {
        ev.set(s.var, v.clone());
    }
    for (&i, v) in ts.inputs.iter().zip(&trace.inputs[k]) {
        ev.set(i, v.clone());
    }
    if let Some(next) = next {
        for (s, v) in ts.states.iter().zip(next) {
            if let Some(primed) = s.next_var {
                ev.set(primed, v.clone());
            }
        }
    }
}

/// Checks that `first` (loaded in `ev`) is an initial state.
fn check_first(ev: &mut Evaluator, ts: &Ts, first: &[Value]) -> Result<(), String> {
    for (i, s) in ts.states.iter().enumerate() {
        if let Some(init) = s.init {
            let want = ev.eval(init).map_err(eval_error)?;
            if want != first[i] {
                return Err(format!(
                    "state {} starts at {} but its init is {}",
                    ts.terms.var_name(s.var).unwrap_or("?"),
                    value_text(&first[i]),
                    value_text(&want)
                ));
            }
        }
    }
    for (n, &init) in ts.init.iter().enumerate() {
        if ev.eval(init).map_err(eval_error)? != Value::Bool(true) {
            return Err(format!("initial condition {n} is false in step 0"));
        }
    }
    Ok(())
}

/// Checks the constraints in step `k` (loaded in `ev`).
fn check_constraints(ev: &mut Evaluator, ts: &Ts, k: usize) -> Result<(), String> {
    for (n, &c) in ts.constraints.iter().enumerate() {
        if ev.eval(c).map_err(eval_error)? != Value::Bool(true) {
            return Err(format!("constraint {n} is violated in step {k}"));
        }
    }
    Ok(())
}

/// Checks that step `k` (loaded in `ev`, with `next` as its primed states)
/// leads to the states `next`: the next functions and the transition
/// conditions.
fn check_step(ev: &mut Evaluator, ts: &Ts, k: usize, next: &[Value]) -> Result<(), String> {
    for (i, s) in ts.states.iter().enumerate() {
        if let Some(f) = s.next {
            let want = ev.eval(f).map_err(eval_error)?;
            if want != next[i] {
                return Err(format!(
                    "state {} is {} after step {k} but its next function gives {}",
                    ts.terms.var_name(s.var).unwrap_or("?"),
                    value_text(&next[i]),
                    value_text(&want)
                ));
            }
        }
    }
    for (n, &t) in ts.trans.iter().enumerate() {
        if ev.eval(t).map_err(eval_error)? != Value::Bool(true) {
            return Err(format!(
                "transition condition {n} is false from step {k} to {}",
                k + 1
            ));
        }
    }
    Ok(())
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
    let e = eval_error;
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
