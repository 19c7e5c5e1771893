//! VMT: transition systems as annotated SMT-LIB 2 (nuXmv, ic3ia, vmt-tools).
//!
//! `:next` pairs a state with its primed copy, `:init` and `:trans` terms are
//! AND-ed, `:invar-property N` is the invariant property N (kept as the bad
//! term `¬p`), `:live-property` and `:predicate` are kept. Declared constants
//! not paired by `:next` are inputs.

mod trace;
pub(crate) mod write;

pub use trace::{read_trace, write_trace, PartialTrace};
pub use write::{liveness_unwritable, write};

use crate::formats::smtlib::parse_script;
use crate::formats::{Location, ParseError};
use crate::ir::term::{Op, Sort};
use crate::ir::ts::{Property, StateVar, Ts};
use std::collections::HashMap;
use std::path::Path;

/// The annotations that make up the system (all but `:next` on Bool terms).
const KEYS: [&str; 5] = [
    "init",
    "trans",
    "invar-property",
    "live-property",
    "predicate",
];

/// Reads a VMT file.
pub fn read_file(path: &Path) -> Result<Ts, ParseError> {
    let (name, text) = crate::formats::read_text(path)?;
    read_str(&name, &text)
}

/// Reads VMT text; `file` names the source in error messages.
pub fn read_str(file: &str, text: &str) -> Result<Ts, ParseError> {
    let mut ts = Ts::default();
    let script = parse_script(file, text, &mut ts.terms)?;
    let at = |line: usize, m: String| ParseError::new(file, Location::Line(line), m);
    for &(t, line) in &script.asserts {
        if *ts.terms.op(t) != Op::Bool(true) {
            return Err(at(
                line,
                "an assert other than `(assert true)` is not part of a VMT transition system"
                    .into(),
            ));
        }
    }
    let mut by_name: HashMap<String, crate::ir::term::Term> = HashMap::new();
    for &v in &script.declared {
        by_name.insert(ts.terms.var_name(v).unwrap_or_default().to_string(), v);
    }
    let mut invar: Vec<(u64, Property)> = Vec::new();
    let mut live: Vec<(u64, Property)> = Vec::new();
    for a in &script.annotations {
        let index = || -> Result<u64, ParseError> {
            (a.value.as_deref())
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| at(a.line, format!(":{} needs a non-negative index", a.key)))
        };
        let boolean = *ts.terms.sort(a.term) == Sort::Bool;
        if !boolean && a.key != "next" && KEYS.contains(&a.key.as_str()) {
            return Err(at(
                a.line,
                format!(":{} annotates a term that is not Bool", a.key),
            ));
        }
        match a.key.as_str() {
            "next" => {
                if ts.terms.var_name(a.term).is_none() {
                    return Err(at(
                        a.line,
                        ":next annotates a term that is not a declared constant".into(),
                    ));
                }
                let Some(primed_name) = a.value.clone() else {
                    return Err(at(
                        a.line,
                        ":next needs the name of the next-state constant".into(),
                    ));
                };
                let sort = ts.terms.sort(a.term).clone();
                let primed = match by_name.get(&primed_name) {
                    Some(&p) if *ts.terms.sort(p) == sort => p,
                    Some(_) => {
                        return Err(at(
                            a.line,
                            format!("`{primed_name}` does not have the sort {sort} of its current-state constant"),
                        ))
                    }
                    // Undeclared: declared implicitly with the state's sort.
                    None => {
                        let p = ts.terms.var(&primed_name, sort);
                        by_name.insert(primed_name.clone(), p);
                        p
                    }
                };
                if ts.state_of(a.term).is_some() || ts.state_of(primed).is_some() {
                    return Err(at(
                        a.line,
                        format!("a second :next involving `{primed_name}`"),
                    ));
                }
                ts.states.push(StateVar {
                    var: a.term,
                    next_var: Some(primed),
                    init: None,
                    next: None,
                });
            }
            "init" => ts.init.push(a.term),
            "trans" => ts.trans.push(a.term),
            "invar-property" => {
                let bad = ts.terms.not(a.term);
                let i = index()?;
                invar.push((
                    i,
                    Property {
                        name: i.to_string(),
                        term: bad,
                    },
                ));
            }
            "live-property" => {
                let i = index()?;
                live.push((
                    i,
                    Property {
                        name: i.to_string(),
                        term: a.term,
                    },
                ));
            }
            "predicate" => ts.predicates.push(a.term),
            // Other attributes (:named, :source, tool extensions) carry no system part.
            _ => {}
        }
    }
    // Properties in index order, as ic3ia's `-n N` and vmt-tools number them.
    invar.sort_by_key(|(i, _)| *i);
    live.sort_by_key(|(i, _)| *i);
    ts.bad = invar.into_iter().map(|(_, p)| p).collect();
    ts.live = live.into_iter().map(|(_, p)| p).collect();
    for &v in &script.declared {
        if ts.state_of(v).is_none() {
            ts.inputs.push(v);
        }
    }
    Ok(ts)
}
