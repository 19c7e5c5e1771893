//! API traces of the core and their replay against another solver (as
//! CaDiCaL's `CADICAL_API_TRACE` and its model-based tester do).
//!
//! With `INVAR_CORE_TRACE=DIR` in the environment, every core that
//! [`Backend::create`](crate::sat::Backend) makes writes its calls to a file
//! in DIR, one per line: `v` (new variable), `d VAR LITS` (definition
//! clause of gate VAR), `c LITS` (clause), `p LITS` / `u` (pin the domain
//! to the cone of LITS / unpin it), `q a|c LITS ; LITS` (a query rooted at the assumptions or at the
//! clause: assumptions, then the temporary clause, `-` for none) followed by
//! `r sat|unsat|interrupted`. Literals are DIMACS integers.
//!
//! [`replay`] runs a trace on a fresh core and checks each answer against a
//! reference backend: the same answer; a model that, completed by evaluating
//! the gates outside the query's domain, satisfies every clause, the
//! temporary clause and the assumptions; a failed core that is
//! unsatisfiable on the reference. This is how queries asked by IC3 on the
//! benchmark sets are checked (`scripts/core-fuzz.sh`).

use super::{Core, Value};
use crate::sat::{Backend, Lit, Roots, SolveResult, Solver};
use crate::util::budget::Budget;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The writer of a core's trace, if tracing is on.
pub(super) type TraceOut = Option<Box<dyn Write + Send>>;

/// A trace file in the folder `util::settings` names for them, if any.
pub(super) fn if_asked() -> TraceOut {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = crate::util::settings::get().core_trace.as_ref()?;
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!("core-{}-{n}.trace", std::process::id()));
    let file = std::fs::File::create(path).ok()?;
    Some(Box::new(std::io::BufWriter::new(file)))
}

pub(super) fn lits_text(lits: &[Lit]) -> String {
    let words: Vec<String> = lits.iter().map(|l| l.dimacs().to_string()).collect();
    words.join(" ")
}

/// Counts of a replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayStats {
    /// Queries checked.
    pub queries: u64,
    /// Of which answered SAT (model checked) and UNSAT (core checked).
    pub sat: u64,
    /// UNSAT answers.
    pub unsat: u64,
}

/// The gate definitions seen so far, for completing partial models.
#[derive(Default)]
struct Definitions {
    clauses: Vec<Vec<Vec<Lit>>>,
}

impl Definitions {
    /// `values` with every unassigned gate evaluated from its fanins (in
    /// variable order, falling back to a fixpoint when a gate precedes a
    /// fanin), free variables at their assumed value or false.
    fn complete(&self, core: &Core, assumptions: &[Lit], vars: u32) -> Vec<Option<bool>> {
        let mut value: Vec<Option<bool>> = (0..=vars)
            .map(|v| match v {
                0 => None,
                v => match core.value(Lit::positive(v)) {
                    Value::True => Some(true),
                    Value::False => Some(false),
                    Value::Unassigned => None,
                },
            })
            .collect();
        for a in assumptions {
            let v = a.var() as usize;
            if value[v].is_none() && self.clauses.get(v).is_none_or(|c| c.is_empty()) {
                value[v] = Some(!a.is_negative());
            }
        }
        let holds =
            |value: &[Option<bool>], l: Lit| value[l.var() as usize].map(|b| b ^ l.is_negative());
        loop {
            let mut changed = false;
            for v in 1..=vars as usize {
                if value[v].is_some() {
                    continue;
                }
                let defs = self.clauses.get(v).map(Vec::as_slice).unwrap_or(&[]);
                if defs.is_empty() {
                    value[v] = Some(false);
                    changed = true;
                    continue;
                }
                let fanins_known = defs
                    .iter()
                    .flatten()
                    .all(|l| l.var() as usize == v || value[l.var() as usize].is_some());
                if !fanins_known {
                    continue;
                }
                let satisfies = |b: bool, value: &mut Vec<Option<bool>>| {
                    value[v] = Some(b);
                    let ok = defs
                        .iter()
                        .all(|c| c.iter().any(|&l| holds(value, l) == Some(true)));
                    value[v] = None;
                    ok
                };
                // If neither value satisfies the definition, the check of
                // the clauses below reports it.
                let b = !satisfies(false, &mut value);
                value[v] = Some(b);
                changed = true;
            }
            if !changed {
                return value;
            }
        }
    }
}

fn parse_lits(words: &str, line: usize) -> Result<Vec<Lit>, String> {
    let words = words.trim();
    if words == "-" || words.is_empty() {
        return Ok(Vec::new());
    }
    words
        .split_whitespace()
        .map(|w| match w.parse::<i32>() {
            Ok(d) if d != 0 => Ok(Lit::from_dimacs(d)),
            _ => Err(format!("line {line}: bad literal {w:?}")),
        })
        .collect()
}

/// Replays `trace` on a fresh core and checks every query against
/// `reference`; the first discrepancy is an error naming its line.
pub fn replay(trace: &str, reference: Backend) -> Result<ReplayStats, String> {
    let mut core = Core::new(Budget::unlimited());
    let mut mirror: Box<dyn Solver> = reference.create(Budget::unlimited());
    // The core's own first variable (its activation literal), mirrored so
    // that numbers agree.
    mirror.new_var();
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    let mut defs = Definitions {
        clauses: vec![Vec::new(); core.num_vars() as usize + 1],
    };
    let mut stats = ReplayStats::default();
    let mut lines = trace.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let n = i + 1;
        let (tag, rest) = line.split_at(line.len().min(1));
        let rest = rest.trim();
        match tag {
            "v" => {
                core.new_var();
                mirror.new_var();
                defs.clauses.push(Vec::new());
            }
            "d" => {
                let (var, lits) = rest
                    .split_once(' ')
                    .ok_or(format!("line {n}: bad definition"))?;
                let var: u32 = var.parse().map_err(|_| format!("line {n}: bad variable"))?;
                let lits = parse_lits(lits, n)?;
                core.add_definition(var, &lits);
                mirror.add_clause(&lits);
                if defs.clauses.len() <= var as usize {
                    defs.clauses.resize(var as usize + 1, Vec::new());
                }
                defs.clauses[var as usize].push(lits.clone());
                clauses.push(lits);
            }
            "c" => {
                let lits = parse_lits(rest, n)?;
                Solver::add_clause(&mut core, &lits);
                mirror.add_clause(&lits);
                clauses.push(lits);
            }
            "p" => core.pin_domain(&parse_lits(rest, n)?),
            "u" => core.unpin_domain(),
            "q" => {
                let (mode, rest) = rest.split_at(1);
                let roots = if mode == "c" {
                    Roots::Clause
                } else {
                    Roots::Assumptions
                };
                let (a, t) = rest.split_once(';').ok_or(format!("line {n}: bad query"))?;
                let assumptions = parse_lits(a, n)?;
                let temporary = (t.trim() != "-").then(|| parse_lits(t, n)).transpose()?;
                let recorded = match lines.next() {
                    Some((_, r)) if r.starts_with("r ") => r[2..].trim().to_string(),
                    _ => return Err(format!("line {n}: query without its answer")),
                };
                if recorded == "interrupted" {
                    continue;
                }
                let answer = core.solve_with_temporary(&assumptions, temporary.as_deref(), roots);
                let word = match answer {
                    SolveResult::Sat => "sat",
                    SolveResult::Unsat => "unsat",
                    SolveResult::Interrupted => "interrupted",
                };
                if word != recorded {
                    return Err(format!(
                        "line {n}: the core answered {word} on replay, {recorded} when traced"
                    ));
                }
                check_answer(
                    &mut core,
                    &mut mirror,
                    &clauses,
                    &defs,
                    &assumptions,
                    temporary.as_deref(),
                    answer,
                )
                .map_err(|e| format!("line {n}: {e}"))?;
                stats.queries += 1;
                match answer {
                    SolveResult::Sat => stats.sat += 1,
                    _ => stats.unsat += 1,
                }
            }
            "r" | "" => {}
            _ => return Err(format!("line {n}: unknown record {tag:?}")),
        }
    }
    Ok(stats)
}

fn check_answer(
    core: &mut Core,
    mirror: &mut Box<dyn Solver>,
    clauses: &[Vec<Lit>],
    defs: &Definitions,
    assumptions: &[Lit],
    temporary: Option<&[Lit]>,
    answer: SolveResult,
) -> Result<(), String> {
    // The reference: a fresh activation literal guards the temporary clause.
    let act = mirror.new_var();
    if let Some(t) = temporary {
        let mut guarded = vec![!act];
        guarded.extend_from_slice(t);
        mirror.add_clause(&guarded);
    }
    let mut with_act = vec![act];
    with_act.extend_from_slice(assumptions);
    let expected = mirror.solve(&with_act);
    let result = if expected != answer {
        Err(format!(
            "the core answered {answer:?}, {} {expected:?}",
            mirror.name()
        ))
    } else if answer == SolveResult::Sat {
        let value = defs.complete(core, assumptions, core.num_vars());
        let holds = |l: &Lit| value[l.var() as usize].map(|b| b ^ l.is_negative()) == Some(true);
        let violated = clauses
            .iter()
            .map(Vec::as_slice)
            .chain(temporary)
            .find(|c| !c.iter().any(holds));
        match violated {
            Some(c) => Err(format!("the model violates clause {}", lits_text(c))),
            None => match assumptions.iter().find(|a| !holds(a)) {
                Some(a) => Err(format!("the model violates assumption {a}")),
                None => Ok(()),
            },
        }
    } else {
        let failed: Vec<Lit> = (assumptions.iter().copied())
            .filter(|&a| core.failed(a))
            .collect();
        let mut with_act = vec![act];
        with_act.extend_from_slice(&failed);
        match mirror.solve(&with_act) {
            SolveResult::Unsat => Ok(()),
            _ => Err(format!(
                "the failed core {} is satisfiable",
                lits_text(&failed)
            )),
        }
    };
    mirror.add_clause(&[!act]);
    result
}
