//! DimSpec (the I, U, G, T CNF sections of SAT-based planning and LLUMC):
//! a Boolean transition system over n state variables.
//!
//! Sections start with `i cnf N M`, `u cnf N M`, `g cnf N M` or
//! `t cnf 2N M`, each followed by M DIMACS clauses. I holds in the first
//! state, U in every state, G in the last, and T (over variables 1..2N, the
//! second half primed) between neighbours. Reading gives a [`Ts`] with Bool
//! states `x1..xN`, I as `init`, U as constraints, T as `trans` and G as the
//! one bad property.

use crate::formats::{Location, ParseError};
use crate::ir::aig::{Aig, Lit, Node};
use crate::ir::term::{Sort, Term, Terms};
use crate::ir::ts::{Property, StateVar, Ts};
use std::fmt::Write;
use std::path::Path;

/// The most state variables a DimSpec model may declare: each becomes two
/// named terms up front, so a header alone (fuzzing found `g cnf 3144071126
/// 2`) would otherwise take minutes and gigabytes before any clause is read.
/// Planning encodings stay far below it.
pub const MAX_STATE_VARS: u64 = 1 << 20;

/// Reads a DimSpec file.
pub fn read_file(path: &Path) -> Result<Ts, ParseError> {
    let (name, text) = crate::formats::read_text(path)?;
    read_str(&name, &text)
}

/// Reads DimSpec text; `file` names the source in error messages.
pub fn read_str(file: &str, text: &str) -> Result<Ts, ParseError> {
    let err = |line: usize, m: String| ParseError::new(file, Location::Line(line), m);
    // Per section (i, u, g, t): the clauses.
    let mut sections: [Option<Vec<Vec<i64>>>; 4] = [None, None, None, None];
    let mut n: Option<u64> = None;
    // (section, max var, header line, declared clauses)
    let mut current: Option<(usize, u64, usize, u64)> = None;
    // A section must hold the clauses its header declares: a header that
    // promises clauses which never come (fuzzing found `g cnf 635081 2`
    // and nothing after it) is not a model invar understood.
    let counted = |sections: &[Option<Vec<Vec<i64>>>; 4],
                   current: Option<(usize, u64, usize, u64)>| {
        let Some((pos, _, line, declared)) = current else {
            return Ok(());
        };
        let found = sections[pos].as_ref().map_or(0, Vec::len) as u64;
        if found == declared {
            return Ok(());
        }
        Err(err(
            line,
            format!(
                "the `{}` section declares {declared} clauses, found {found}",
                ["i", "u", "g", "t"][pos]
            ),
        ))
    };
    let mut clause: Vec<i64> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if let Some(pos) = ["i", "u", "g", "t"].iter().position(|s| *s == words[0]) {
            if !clause.is_empty() {
                return Err(err(
                    line_no,
                    "the previous clause is not terminated by 0".into(),
                ));
            }
            if words.len() != 4 || words[1] != "cnf" {
                return Err(err(
                    line_no,
                    format!("expected `{} cnf VARS CLAUSES`", words[0]),
                ));
            }
            counted(&sections, current)?;
            let (Ok(vars), Ok(declared)) = (words[2].parse::<u64>(), words[3].parse::<u64>())
            else {
                return Err(err(line_no, "expected two numbers after `cnf`".into()));
            };
            let state_vars = if pos == 3 {
                if vars % 2 != 0 {
                    return Err(err(
                        line_no,
                        format!("the t section needs 2N variables, not {vars}"),
                    ));
                }
                vars / 2
            } else {
                vars
            };
            if state_vars > MAX_STATE_VARS {
                return Err(err(
                    line_no,
                    format!(
                        "{state_vars} state variables; invar's DimSpec reader takes at most {MAX_STATE_VARS}"
                    ),
                ));
            }
            match n {
                Some(m) if m != state_vars => {
                    return Err(err(
                        line_no,
                        format!(
                            "this section has {state_vars} state variables, an earlier one {m}"
                        ),
                    ))
                }
                _ => n = Some(state_vars),
            }
            if sections[pos].is_some() {
                return Err(err(line_no, format!("a second `{}` section", words[0])));
            }
            sections[pos] = Some(Vec::new());
            current = Some((pos, vars, line_no, declared));
            continue;
        }
        let Some((pos, max, _, _)) = current else {
            return Err(err(
                line_no,
                format!("expected a section header (`i cnf N M`, …), found `{t}`"),
            ));
        };
        for w in words {
            let lit: i64 = w
                .parse()
                .map_err(|_| err(line_no, format!("expected a literal, found `{w}`")))?;
            if lit == 0 {
                sections[pos]
                    .as_mut()
                    .expect("open section")
                    .push(std::mem::take(&mut clause));
            } else if lit.unsigned_abs() > max {
                return Err(err(
                    line_no,
                    format!("literal {lit} exceeds the section's {max} variables"),
                ));
            } else {
                clause.push(lit);
            }
        }
    }
    if !clause.is_empty() {
        return Err(ParseError::new(
            file,
            Location::File,
            "the last clause is not terminated by 0",
        ));
    }
    counted(&sections, current)?;
    let Some(n) = n else {
        return Err(ParseError::new(
            file,
            Location::File,
            "no section (expected i, u, g and t)",
        ));
    };
    if sections[2].is_none() {
        return Err(ParseError::new(
            file,
            Location::File,
            "no goal section (`g cnf N M`)",
        ));
    }
    let mut ts = Ts::default();
    let mut current_vars = Vec::new();
    let mut primed = Vec::new();
    for v in 1..=n {
        let x = ts.terms.var(&format!("x{v}"), Sort::Bool);
        let p = ts.terms.var(&format!("x{v}'"), Sort::Bool);
        current_vars.push(x);
        primed.push(p);
        ts.states.push(StateVar {
            var: x,
            next_var: Some(p),
            init: None,
            next: None,
        });
    }
    let cnf = |terms: &mut Terms, clauses: &[Vec<i64>]| -> Term {
        let cs: Vec<Term> = clauses
            .iter()
            .map(|c| {
                let lits: Vec<Term> = c
                    .iter()
                    .map(|&l| {
                        let v = (l.unsigned_abs() - 1) as usize;
                        let t = if v < n as usize {
                            current_vars[v]
                        } else {
                            primed[v - n as usize]
                        };
                        if l < 0 {
                            terms.not(t)
                        } else {
                            t
                        }
                    })
                    .collect();
                terms.or_all(&lits)
            })
            .collect();
        terms.and_all(&cs)
    };
    let [i, u, g, t] = sections;
    if let Some(i) = i {
        let c = cnf(&mut ts.terms, &i);
        ts.init.push(c);
    }
    if let Some(u) = u {
        let c = cnf(&mut ts.terms, &u);
        ts.constraints.push(c);
    }
    if let Some(t) = t {
        let c = cnf(&mut ts.terms, &t);
        ts.trans.push(c);
    }
    let goal = cnf(&mut ts.terms, &g.expect("checked above"));
    ts.bad.push(Property {
        name: "goal".into(),
        term: goal,
    });
    Ok(ts)
}

/// The DimSpec text of a circuit's bad property `bad`: a state holds every
/// latch, input and AND gate; U defines the gates (Tseitin) and holds the
/// constraints, T copies next-state functions, I fixes the resets, G is the
/// bad literal.
pub fn write_from_aig(aig: &Aig, bad: Lit) -> String {
    // DimSpec variable of each AIG node (1-based); node 0 (FALSE) gets one too.
    let n = aig.num_nodes() as u64;
    let var = |l: Lit| -> i64 {
        let v = l.var().0 as i64 + 1;
        if l.is_negated() {
            -v
        } else {
            v
        }
    };
    let mut u: Vec<Vec<i64>> = vec![vec![-1]];
    for (v, node) in aig.nodes().iter().enumerate() {
        if let Node::And(a, b) = *node {
            let g = v as i64 + 1;
            u.push(vec![-g, var(a)]);
            u.push(vec![-g, var(b)]);
            u.push(vec![g, -var(a), -var(b)]);
        }
    }
    for &c in &aig.constraints {
        u.push(vec![var(c)]);
    }
    let mut i = Vec::new();
    let mut t = Vec::new();
    for l in &aig.latches {
        let x = l.var.0 as i64 + 1;
        if let Some(b) = l.init {
            i.push(vec![if b { x } else { -x }]);
        }
        let next = var(l.next);
        let primed = x + n as i64;
        t.push(vec![-primed, next]);
        t.push(vec![primed, -next]);
    }
    let g = vec![vec![var(bad)]];
    let mut out = String::from("c DimSpec written by invar\n");
    for (name, vars, clauses) in [("i", n, &i), ("u", n, &u), ("g", n, &g), ("t", 2 * n, &t)] {
        writeln!(out, "{name} cnf {vars} {}", clauses.len()).expect("string");
        for c in clauses.iter() {
            for l in c {
                write!(out, "{l} ").expect("string");
            }
            out += "0\n";
        }
    }
    out
}
