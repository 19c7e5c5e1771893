//! A CFA as a transition system, functionally (as IC3 and BTOR2 like it):
//!
//! - a program counter `pc` over the live locations, one state per variable,
//!   and a state `valid` (initially true);
//! - an input `edge` picks the edge taken; each edge's command is executed
//!   symbolically (sequences substitute, so variables are renamed along the
//!   way; choices pick a branch by another input, and a branch keeps the
//!   variables it does not assign; `havoc` reads a fresh input);
//! - `valid' = valid ∧ (the picked edge leaves pc and its guard holds)`,
//!   `pc'` and the variables take the picked edge's values;
//! - the property is `pc != error`, so bad is `valid ∧ pc = error`.
//!
//! Large-block encoding copies a command into every branch that follows it,
//! so one block can hold many copies of the same command run from the same
//! state in mutually exclusive branches. Those copies are encoded once and
//! share their choice and havoc inputs (only one of them runs in a step);
//! encoded separately, byte_add-1's export was 3.5 MB, exponential in the
//! number of consecutive branches. Copies on one path are never shared: two
//! runs of a command in sequence need independent inputs.

use super::{Cfa, Command, Loc};
use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::{Property, StateVar, Ts};
use std::collections::HashMap;

/// Bits needed to number `n` things (at least 1).
fn bits_for(n: usize) -> u32 {
    let mut w = 1;
    while (1usize << w) < n {
        w += 1;
    }
    w
}

/// A symbolic state: the variables whose value differs from the variable
/// itself (the state at the edge's start), with their values. Kept sparse:
/// a product line inlines into thousands of variables, and a full map per
/// command (cloned, sorted, substituted) made encoding quadratic.
type State = HashMap<Term, Term>;

/// The value of `x` in `state`.
fn value_of(state: &State, x: Term) -> Term {
    state.get(&x).copied().unwrap_or(x)
}

/// `state` with `x` set to `t`.
fn set(state: &mut State, x: Term, t: Term) {
    match t == x {
        true => state.remove(&x),
        false => state.insert(x, t),
    };
}

/// Where in the nest of choices a command runs: (choice, branch) pairs from
/// the outside in; the top level is choice 0, branched by edge.
type ChoicePath = Vec<(usize, usize)>;

/// A command (by hash) and the state it runs from, as sorted pairs.
type MemoKey = (u64, Vec<(Term, Term)>);

/// An encoded command: where it ran, its guard and the values after it.
struct Encoded {
    command: Command,
    path: ChoicePath,
    guard: Term,
    after: HashMap<Term, Term>,
}

struct Encoder<'a> {
    terms: &'a mut Terms,
    inputs: Vec<Term>,
    fresh: usize,
    /// The current choice path.
    path: ChoicePath,
    /// Choices numbered so far.
    choices: usize,
    /// Encoded compound commands by (hash of command, state).
    memo: HashMap<MemoKey, Vec<Encoded>>,
}

/// Whether two choice paths lie in different branches of one choice.
fn exclusive(a: &ChoicePath, b: &ChoicePath) -> bool {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some(((ca, ba), (cb, bb))) => ca == cb && ba != bb,
        None => false,
    }
}

impl Encoder<'_> {
    fn fresh_input(&mut self, prefix: &str, sort: Sort) -> Term {
        let t = self.terms.var(&format!("{prefix}!{}", self.fresh), sort);
        self.fresh += 1;
        self.inputs.push(t);
        t
    }

    fn constant(&mut self, width: u32, value: usize) -> Term {
        self.terms.bv(BvValue::from_u64(width, value as u64))
    }

    /// Executes `command` from `state`, reusing the encoding of an equal
    /// command from the same state in an exclusive branch.
    fn execute(&mut self, command: &Command, state: &State) -> (Term, State) {
        if !matches!(command, Command::Seq(_) | Command::Choice(_)) {
            return self.run(command, state);
        }
        let mut key_state: Vec<(Term, Term)> = state.iter().map(|(&k, &v)| (k, v)).collect();
        key_state.sort_unstable();
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(command, &mut hasher);
        let key = (std::hash::Hasher::finish(&hasher), key_state);
        if let Some(done) = self.memo.get(&key) {
            let path = &self.path;
            if let Some(e) = done
                .iter()
                .find(|e| &e.command == command && exclusive(&e.path, path))
            {
                return (e.guard, e.after.clone());
            }
        }
        let (guard, after) = self.run(command, state);
        self.memo.entry(key).or_default().push(Encoded {
            command: command.clone(),
            path: self.path.clone(),
            guard,
            after: after.clone(),
        });
        (guard, after)
    }

    /// Executes `command` from `state`: the guard under which it runs and the
    /// variables' values after it.
    fn run(&mut self, command: &Command, state: &State) -> (Term, State) {
        let substitute =
            |terms: &mut Terms, t: Term, state: &State| terms.substitute(&[t], state)[0];
        match command {
            Command::Assume(b) => (substitute(self.terms, *b, state), state.clone()),
            Command::Assign(x, e) => {
                let mut next = state.clone();
                let value = substitute(self.terms, *e, state);
                set(&mut next, *x, value);
                (self.terms.bool(true), next)
            }
            Command::Havoc(x) => {
                let sort = self.terms.sort(*x).clone();
                let name = format!("havoc.{}", self.terms.var_name(*x).unwrap_or("v"));
                let value = self.fresh_input(&name, sort);
                let mut next = state.clone();
                set(&mut next, *x, value);
                (self.terms.bool(true), next)
            }
            Command::Seq(parts) => {
                let mut guards = Vec::new();
                let mut cur = state.clone();
                for p in parts {
                    let (g, next) = self.execute(p, &cur);
                    guards.push(g);
                    cur = next;
                }
                (self.terms.and_all(&guards), cur)
            }
            Command::Choice(branches) => {
                self.choices += 1;
                let id = self.choices;
                let mut results = Vec::new();
                for (i, b) in branches.iter().enumerate() {
                    self.path.push((id, i));
                    results.push(self.execute(b, state));
                    self.path.pop();
                }
                let width = bits_for(branches.len());
                let pick = self.fresh_input("choice", Sort::BitVec(width));
                // Branch i runs when pick = i; the last branch takes the other values.
                let is: Vec<Term> = (0..results.len() - 1)
                    .map(|i| {
                        let c = self.constant(width, i);
                        self.terms.eq(pick, c)
                    })
                    .collect();
                let (mut guard, last) = results.last().expect("a choice has branches");
                for (i, (g, _)) in results.iter().enumerate().rev().skip(1) {
                    guard = self.terms.mk(Op::Ite, &[is[i], *g, guard]);
                }
                // Only a variable some branch assigns can differ between them.
                let mut assigned: Vec<Term> =
                    results.iter().flat_map(|r| r.1.keys()).copied().collect();
                assigned.sort_unstable();
                assigned.dedup();
                let mut values = State::new();
                for x in assigned {
                    let mut v = value_of(last, x);
                    for (i, (_, vals)) in results.iter().enumerate().rev().skip(1) {
                        let mine = value_of(vals, x);
                        if mine != v {
                            v = self.terms.mk(Op::Ite, &[is[i], mine, v]);
                        }
                    }
                    set(&mut values, x, v);
                }
                (guard, values)
            }
        }
    }
}

/// The value of `pc` at each live location of `cfa` in its encoded system
/// (the locations in [`Cfa::live_locations`] order).
pub fn pc_numbers(cfa: &Cfa) -> HashMap<Loc, usize> {
    (cfa.live_locations().into_iter().enumerate())
        .map(|(i, l)| (l, i))
        .collect()
}

/// The transition system of `cfa`.
pub fn encode(cfa: &Cfa) -> Ts {
    let mut ts = Ts {
        terms: cfa.terms.clone(),
        ..Ts::default()
    };
    let index = pc_numbers(cfa);
    let pc_width = bits_for(index.len());
    let pc = ts.terms.var("pc", Sort::BitVec(pc_width));
    let valid = ts.terms.var("valid", Sort::Bool);
    let mut enc = Encoder {
        terms: &mut ts.terms,
        inputs: Vec::new(),
        fresh: 0,
        path: Vec::new(),
        choices: 0,
        memo: HashMap::new(),
    };
    let edge_width = bits_for(cfa.edges.len().max(1));
    let pick = enc.terms.var("edge", Sort::BitVec(edge_width));
    enc.inputs.push(pick);
    let identity = State::new();
    let mut taken = Vec::new();
    let mut next_pc = enc.constant(pc_width, index[&cfa.error]);
    // Each variable's next value chains only the edges that assign it: the
    // edge input picks one edge, so the others fall through to the
    // variable's current value. (A link per edge and variable was 15,794
    // edges times 3,718 variables for a product line.)
    let mut next_vars = State::new();
    for (k, e) in cfa.edges.iter().enumerate().rev() {
        // Edges are the branches of choice 0: one is taken per step.
        enc.path = vec![(0, k)];
        let (guard, values) = enc.execute(&e.command, &identity);
        let kc = enc.constant(edge_width, k);
        let is_k = enc.terms.eq(pick, kc);
        let from = enc.constant(pc_width, index[&e.from]);
        let at_from = enc.terms.eq(pc, from);
        taken.push(enc.terms.and_all(&[is_k, at_from, guard]));
        let to = enc.constant(pc_width, index[&e.to]);
        next_pc = enc.terms.mk(Op::Ite, &[is_k, to, next_pc]);
        for (&x, &mine) in &values {
            let v = value_of(&next_vars, x);
            if mine != v {
                next_vars.insert(x, enc.terms.mk(Op::Ite, &[is_k, mine, v]));
            }
        }
    }
    let some_edge = enc.terms.or_all(&taken);
    let next_valid = enc.terms.and_all(&[valid, some_edge]);
    let inputs = std::mem::take(&mut enc.inputs);
    let init_pc = enc.constant(pc_width, index[&cfa.init]);
    let error_pc = enc.constant(pc_width, index[&cfa.error]);
    let at_error = enc.terms.eq(pc, error_pc);
    let yes = enc.terms.bool(true);
    let bad = enc.terms.and_all(&[valid, at_error]);
    ts.states.push(StateVar {
        var: pc,
        next_var: None,
        init: Some(init_pc),
        next: Some(next_pc),
    });
    ts.states.push(StateVar {
        var: valid,
        next_var: None,
        init: Some(yes),
        next: Some(next_valid),
    });
    for &v in &cfa.vars {
        ts.states.push(StateVar {
            var: v,
            next_var: None,
            init: None,
            next: Some(value_of(&next_vars, v)),
        });
    }
    ts.inputs = inputs;
    ts.bad.push(Property {
        name: "error".into(),
        term: bad,
    });
    // The affine equalities among the variables at each location (Karr's
    // analysis) are predicates for abstraction (VMT's `:predicate`): IC3+IA
    // starts from relations such as `k + j = i` between counters, which
    // its refinement, seeing paths of one length at a time, would learn as
    // one bound per length.
    for eqs in super::affine::analyse_cfa(cfa).equalities {
        for e in eqs {
            let t = e.term(&mut ts.terms);
            if !ts.predicates.contains(&t) {
                ts.predicates.push(t);
            }
        }
    }
    ts
}
