//! The BTOR2 witness format (btorsim, HWMCC word-level tracks), both ways.
//!
//! Positions count `state` and `input` declarations in file order, not node
//! ids. Frame k lists, after `#k`, the states it fixes (all of them at k = 0,
//! later only those without a next function) and, after `@k`, every input.

use crate::formats::{Location, ParseError};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::{ArrayValue, Value};
use crate::ir::term::Sort;
use crate::ir::ts::{Ts, WordTrace};
use std::sync::Arc;

fn bits(v: &Value) -> Option<String> {
    match v {
        Value::Bv(b) => Some(b.to_binary()),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.into()),
        _ => None,
    }
}

/// The witness lines of a value at `pos`: one line, or for an array its
/// default (`[*]`) and each entry that differs from it (`[index]`).
fn value_lines(pos: usize, v: &Value, label: &str) -> String {
    match v {
        Value::Array(a) => {
            let mut out = String::new();
            if let Some(d) = bits(&a.default) {
                out += &format!("{pos} [*] {d} {label}\n");
            }
            for (i, e) in &a.entries {
                if let (Some(i), Some(e)) = (bits(i), bits(e)) {
                    out += &format!("{pos} [{i}] {e} {label}\n");
                }
            }
            out
        }
        other => match bits(other) {
            Some(b) => format!("{pos} {b} {label}\n"),
            None => String::new(),
        },
    }
}

/// The witness text of `trace`, which violates the properties `claim`
/// names (`b0 b2`, or `j0` for a lasso whose last step leads back to an
/// earlier one).
pub fn write_witness(ts: &Ts, claim: &str, trace: &WordTrace) -> String {
    let mut out = format!("sat\n{claim}\n");
    for k in 0..trace.len() {
        out += &format!("#{k}\n");
        for (pos, state) in ts.states.iter().enumerate() {
            if k > 0 && state.next.is_some() {
                continue;
            }
            let name = ts.terms.var_name(state.var).unwrap_or("");
            out += &value_lines(pos, &trace.states[k][pos], &format!("{name}#{k}"));
        }
        out += &format!("@{k}\n");
        for (pos, &input) in ts.inputs.iter().enumerate() {
            let name = ts.terms.var_name(input).unwrap_or("");
            out += &value_lines(pos, &trace.inputs[k][pos], &format!("{name}@{k}"));
        }
    }
    out += ".\n";
    out
}

/// A parsed witness: the claimed properties and the values per frame
/// (`None` where the witness leaves a value open).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Btor2Witness {
    /// Claimed bad properties (`b<i>`).
    pub props: Vec<usize>,
    /// Per frame, the state values the witness fixes.
    pub states: Vec<Vec<Option<Value>>>,
    /// Per frame, the input values.
    pub inputs: Vec<Vec<Option<Value>>>,
}

/// Reads the first witness of `text` against the model `ts`.
pub fn read_witness(file: &str, text: &str, ts: &Ts) -> Result<Btor2Witness, ParseError> {
    let err = |line: usize, m: String| ParseError::new(file, Location::Line(line), m);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split(';').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    match lines.next() {
        Some((_, "sat")) => {}
        Some((n, other)) => return Err(err(n, format!("expected `sat`, found `{other}`"))),
        None => return Err(ParseError::new(file, Location::File, "empty witness")),
    }
    let mut w = Btor2Witness {
        props: Vec::new(),
        states: Vec::new(),
        inputs: Vec::new(),
    };
    let Some((n, props)) = lines.next() else {
        return Err(ParseError::new(
            file,
            Location::File,
            "expected the property line after `sat`",
        ));
    };
    for p in props.split_whitespace() {
        let idx = p
            .strip_prefix('b')
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|&i| i < ts.bad.len())
            .ok_or_else(|| {
                err(
                    n,
                    format!(
                        "expected a bad property b0..b{}, found `{p}`",
                        ts.bad.len().saturating_sub(1)
                    ),
                )
            })?;
        w.props.push(idx);
    }
    // Which part of which frame value lines belong to.
    let mut part: Option<(bool, usize)> = None;
    let mut ended = false;
    for (n, line) in lines {
        if line == "." {
            ended = true;
            break;
        }
        if let Some(k) = line.strip_prefix('#').or_else(|| line.strip_prefix('@')) {
            let k: usize = k
                .parse()
                .map_err(|_| err(n, format!("expected a frame number in `{line}`")))?;
            let is_state = line.starts_with('#');
            let expected = if is_state {
                w.states.len()
            } else {
                w.inputs.len()
            };
            if k != expected {
                return Err(err(n, format!("expected frame {expected}, found `{line}`")));
            }
            if is_state {
                w.states.push(vec![None; ts.states.len()]);
            } else {
                if w.states.len() < k {
                    w.states.push(vec![None; ts.states.len()]);
                }
                w.inputs.push(vec![None; ts.inputs.len()]);
            }
            part = Some((is_state, k));
            continue;
        }
        let Some((is_state, k)) = part else {
            return Err(err(n, format!("expected `#0` or `@0`, found `{line}`")));
        };
        let mut tokens = line.split_whitespace();
        let pos: usize = tokens
            .next()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| err(n, format!("expected `<position> <value>`, found `{line}`")))?;
        let mut value = tokens
            .next()
            .ok_or_else(|| err(n, format!("expected a value after position {pos}")))?;
        // Arrays: `[index] value` sets one element, `[*] value` all of them.
        let element_index = match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            Some(index) => {
                value = tokens
                    .next()
                    .ok_or_else(|| err(n, format!("expected an element value after `{value}`")))?;
                Some(index)
            }
            None => None,
        };
        let (var, slot) = if is_state {
            let var = ts.states.get(pos).map(|s| s.var);
            (var, w.states[k].get_mut(pos))
        } else {
            let var = ts.inputs.get(pos).copied();
            (var, w.inputs[k].get_mut(pos))
        };
        let (Some(var), Some(slot)) = (var, slot) else {
            let kind = if is_state { "state" } else { "input" };
            return Err(err(n, format!("there is no {kind} at position {pos}")));
        };
        let sort = ts.terms.sort(var).clone();
        let parse = |text: &str, sort: &Sort| {
            BvValue::from_binary(text)
                .filter(|v| Some(v.width()) == sort.bv_width())
                .map(Value::Bv)
        };
        let bad = |what: &str| {
            err(
                n,
                format!("`{what}` is not a value of the sort {sort} at position {pos}"),
            )
        };
        match (&sort, element_index) {
            (Sort::Array(index, element), Some(i)) => {
                let e = parse(value, element).ok_or_else(|| bad(value))?;
                let current = match slot.take() {
                    Some(Value::Array(a)) => (*a).clone(),
                    _ => ArrayValue::constant(index, Value::default_of(element)),
                };
                let updated = if i == "*" {
                    ArrayValue::constant(index, e)
                } else {
                    let i = parse(i, index).ok_or_else(|| bad(i))?;
                    current.store(i, e)
                };
                *slot = Some(Value::Array(Arc::new(updated)));
            }
            (Sort::Array(index, element), None) => {
                let e = parse(value, element).ok_or_else(|| bad(value))?;
                *slot = Some(Value::Array(Arc::new(ArrayValue::constant(index, e))));
            }
            (_, Some(_)) => return Err(bad(value)),
            (_, None) => *slot = Some(parse(value, &sort).ok_or_else(|| bad(value))?),
        }
    }
    if !ended {
        return Err(ParseError::new(
            file,
            Location::File,
            "the witness does not end with `.`",
        ));
    }
    w.states.truncate(w.inputs.len().max(1));
    Ok(w)
}
