//! Arrays too large to expand, decided by lemmas on demand (Brummayer and
//! Biere, "Lemmas on Demand for the Extensional Theory of Arrays", JSAT
//! 2009; de Moura and Bjørner, "Generalized, Efficient Array Decision
//! Procedures", FMCAD 2009, for the upward rule).
//!
//! The in-house solver blasts arrays of small index sorts into words. An
//! array whose index is wider is never blasted: each `select` on it is a
//! fresh word of element bits (a *read*), each equality between arrays a
//! fresh literal, and the Boolean search runs on that abstraction. After
//! each satisfying assignment, [`ArrayTheory::check`] runs every read
//! through the array terms under the assignment: down through `store`
//! (past it when the indices differ), `ite` (along the chosen branch),
//! true equalities (both ways) and up into the `store`s and `ite`s built
//! on an array. Two reads meeting at one term and one index with different
//! values, a read of a `store` at its own index or of a constant array
//! that disagrees, give a lemma whose premises are the literals of the two
//! paths; the lemmas are valid in the theory of arrays, so they are added
//! for good and the search goes on. A false equality gets a witness index
//! when it is first seen (extensionality: `a ≠ b → a[k] ≠ b[k]`), and a
//! store reads back what it writes (`store(b, i, v)[i] = v`), so that what
//! it writes meets the reads of the arrays equal to it.
//!
//! When no lemma is left, the model is built term by term (a class of
//! equal arrays takes the value of one of its stores, `ite`s or constants,
//! or else its reads over a zero default) and every read and equality is
//! checked against it; a model that does not check answers `unknown`,
//! never a guess.

use crate::bitblast::{self, words_equal};
use crate::ir::aig::{Aig, Lit};
use crate::ir::term::eval::{ArrayValue, Value};
use crate::ir::term::{Sort, Term};
use std::collections::HashMap;
use std::sync::Arc;

/// An array term of the abstraction.
enum Kind {
    /// A variable (or a term the theory does not open).
    Var,
    Store {
        base: usize,
        index: Vec<Lit>,
        value: Vec<Lit>,
    },
    Ite {
        cond: Lit,
        then: usize,
        other: usize,
    },
    Const {
        value: Vec<Lit>,
    },
}

struct Node {
    term: Term,
    sort: Sort,
    kind: Kind,
    /// Stores and `ite`s over this array.
    parents: Vec<usize>,
    /// Equalities this array is a side of.
    eqs: Vec<usize>,
}

/// `select(node, index)`, its value a word of fresh circuit inputs.
struct Read {
    node: usize,
    index: Vec<Lit>,
    value: Vec<Lit>,
}

/// The literal of `a = b`.
struct Equality {
    lit: Lit,
    a: usize,
    b: usize,
}

/// One step of a read's walk: the term reached, the step before and the
/// literal (true in the model) that let it pass.
struct Step {
    node: usize,
    prev: Option<usize>,
    premise: Option<Lit>,
}

/// The arrays of one solver.
#[derive(Default)]
pub struct ArrayTheory {
    nodes: Vec<Node>,
    ids: HashMap<Term, usize>,
    reads: Vec<Read>,
    eqs: Vec<Equality>,
    /// Values of the variables in the last model that checked.
    model: HashMap<Term, Value>,
    /// Lemmas added, for the statistics.
    pub lemmas: u64,
}

/// Whether `sort` is an array the theory takes: Bool or bit-vector
/// indices and elements.
pub fn is_theory_array(sort: &Sort) -> bool {
    match sort {
        Sort::Array(i, e) => {
            matches!(**i, Sort::Bool | Sort::BitVec(_))
                && matches!(**e, Sort::Bool | Sort::BitVec(_))
        }
        _ => false,
    }
}

fn bits_of(model: &dyn Fn(Lit) -> bool, word: &[Lit]) -> Vec<bool> {
    word.iter().map(|&l| model(l)).collect()
}

/// An array term as the theory sees it, for [`ArrayTheory::add_node`].
pub enum Shape {
    Var,
    Store {
        base: Term,
        index: Vec<Lit>,
        value: Vec<Lit>,
    },
    Ite {
        cond: Lit,
        then: Term,
        other: Term,
    },
    Const {
        value: Vec<Lit>,
    },
}

impl ArrayTheory {
    /// The node of `t`, if it was added.
    pub fn node(&self, t: Term) -> Option<usize> {
        self.ids.get(&t).copied()
    }

    /// Adds array term `t` of `sort`; the terms its shape names must have
    /// been added before.
    pub fn add_node(&mut self, t: Term, sort: Sort, shape: Shape) -> usize {
        if let Some(&id) = self.ids.get(&t) {
            return id;
        }
        let id = self.nodes.len();
        let kind = match shape {
            Shape::Var => Kind::Var,
            Shape::Store { base, index, value } => {
                let base = self.ids[&base];
                self.nodes[base].parents.push(id);
                // `store(b, i, v)[i] = v` as a read of its own: what it
                // writes then meets the reads of arrays equal to it.
                self.reads.push(Read {
                    node: id,
                    index: index.clone(),
                    value: value.clone(),
                });
                Kind::Store { base, index, value }
            }
            Shape::Ite { cond, then, other } => {
                let (then, other) = (self.ids[&then], self.ids[&other]);
                self.nodes[then].parents.push(id);
                if other != then {
                    self.nodes[other].parents.push(id);
                }
                Kind::Ite { cond, then, other }
            }
            Shape::Const { value } => Kind::Const { value },
        };
        self.nodes.push(Node {
            term: t,
            sort,
            kind,
            parents: Vec::new(),
            eqs: Vec::new(),
        });
        self.ids.insert(t, id);
        id
    }

    /// Adds the read `select(a, index)` whose value is `value`.
    pub fn add_read(&mut self, a: Term, index: Vec<Lit>, value: Vec<Lit>) {
        let node = self.ids[&a];
        self.reads.push(Read { node, index, value });
    }

    /// Adds the equality `a = b` as literal `lit`, and returns the fact of
    /// its extensionality (`lit ∨ a[k] ≠ b[k]` for a fresh index `k`) to
    /// assert for good.
    pub fn add_equality(&mut self, aig: &mut Aig, lit: Lit, a: Term, b: Term) -> Lit {
        let (a, b) = (self.ids[&a], self.ids[&b]);
        let e = self.eqs.len();
        self.eqs.push(Equality { lit, a, b });
        self.nodes[a].eqs.push(e);
        if b != a {
            self.nodes[b].eqs.push(e);
        }
        let (index, element) = self.sorts(a);
        let width = |s: &Sort| bitblast::width_of(s, "an array's index").unwrap_or(1);
        let k: Vec<Lit> = (0..width(&index)).map(|_| aig.add_input()).collect();
        let va: Vec<Lit> = (0..width(&element)).map(|_| aig.add_input()).collect();
        let vb: Vec<Lit> = (0..width(&element)).map(|_| aig.add_input()).collect();
        self.reads.push(Read {
            node: a,
            index: k.clone(),
            value: va.clone(),
        });
        self.reads.push(Read {
            node: b,
            index: k,
            value: vb.clone(),
        });
        let same = words_equal(aig, &va, &vb);
        aig.or(lit, !same)
    }

    /// The index and element sorts of node `x`.
    fn sorts(&self, x: usize) -> (Sort, Sort) {
        match &self.nodes[x].sort {
            Sort::Array(i, e) => ((**i).clone(), (**e).clone()),
            _ => unreachable!("array nodes have array sorts"),
        }
    }

    /// Whether the theory has anything to check.
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty() && self.eqs.is_empty()
    }

    /// Every literal whose model value the check reads (the solver makes
    /// sure the core has them).
    pub fn watched(&self) -> Vec<Lit> {
        let mut out = Vec::new();
        for n in &self.nodes {
            match &n.kind {
                Kind::Store { index, value, .. } => {
                    out.extend(index);
                    out.extend(value);
                }
                Kind::Ite { cond, .. } => out.push(*cond),
                Kind::Const { value } => out.extend(value),
                Kind::Var => {}
            }
        }
        for r in &self.reads {
            out.extend(&r.index);
            out.extend(&r.value);
        }
        out.extend(self.eqs.iter().map(|e| e.lit));
        out
    }

    /// Checks the model `model` gives the circuit's literals: the lemmas it
    /// violates (each a literal to assert for good), at most `limit`. An
    /// empty answer with `Ok` means the model extends to the arrays (its
    /// values are then kept for [`ArrayTheory::value`]); `Err` means no lemma
    /// was found and no model either.
    pub fn check(
        &mut self,
        aig: &mut Aig,
        model: &dyn Fn(Lit) -> bool,
        limit: usize,
    ) -> Result<Vec<Lit>, String> {
        let mut lemmas = Vec::new();
        let mut steps: Vec<Step> = Vec::new();
        // Per node and index: the read that reached it first, and its step.
        let mut met: Vec<HashMap<Vec<bool>, (usize, usize)>> =
            (0..self.nodes.len()).map(|_| HashMap::new()).collect();
        let read_index: Vec<Vec<bool>> = (self.reads.iter())
            .map(|r| bits_of(model, &r.index))
            .collect();
        let read_value: Vec<Vec<bool>> = (self.reads.iter())
            .map(|r| bits_of(model, &r.value))
            .collect();
        for r in 0..self.reads.len() {
            if lemmas.len() >= limit {
                break;
            }
            let j = &read_index[r];
            let start = steps.len();
            steps.push(Step {
                node: self.reads[r].node,
                prev: None,
                premise: None,
            });
            let mut stack = vec![start];
            let mut visited = std::collections::HashSet::new();
            while let Some(s) = stack.pop() {
                let x = steps[s].node;
                if !visited.insert(x) {
                    continue;
                }
                match met[x].get(j) {
                    Some(&(r2, s2)) => {
                        if read_value[r2] != read_value[r] {
                            let lemma = self.meeting(aig, &steps, (r, s), (r2, s2));
                            lemmas.push(lemma);
                            continue;
                        }
                        // The same value at the same index went on from
                        // here before: nothing new below.
                        continue;
                    }
                    None => {
                        met[x].insert(j.clone(), (r, s));
                    }
                }
                let mut go = |steps: &mut Vec<Step>, node: usize, premise: Option<Lit>| {
                    steps.push(Step {
                        node,
                        prev: Some(s),
                        premise,
                    });
                    stack.push(steps.len() - 1);
                };
                match &self.nodes[x].kind {
                    Kind::Store { base, index, value } => {
                        let same = words_equal(aig, index, &self.reads[r].index);
                        if bits_of(model, index) == *j {
                            if bits_of(model, value) != read_value[r] {
                                // i = j → read = value.
                                let agree = words_equal(aig, &self.reads[r].value, value);
                                let mut clause = self.premises(&steps, s);
                                clause.push(!same);
                                lemmas.push(disjunction(aig, &clause, agree));
                            }
                        } else {
                            go(&mut steps, *base, Some(!same));
                        }
                    }
                    Kind::Ite { cond, then, other } => {
                        if model(*cond) {
                            go(&mut steps, *then, Some(*cond));
                        } else {
                            go(&mut steps, *other, Some(!*cond));
                        }
                    }
                    Kind::Const { value } => {
                        if bits_of(model, value) != read_value[r] {
                            let agree = words_equal(aig, &self.reads[r].value, value);
                            let clause = self.premises(&steps, s);
                            lemmas.push(disjunction(aig, &clause, agree));
                        }
                    }
                    Kind::Var => {}
                }
                for &e in &self.nodes[x].eqs {
                    let eq = &self.eqs[e];
                    if model(eq.lit) {
                        let other = if eq.a == x { eq.b } else { eq.a };
                        go(&mut steps, other, Some(eq.lit));
                    }
                }
                for &p in &self.nodes[x].parents {
                    match &self.nodes[p].kind {
                        Kind::Store { index, .. } if bits_of(model, index) != *j => {
                            let same = words_equal(aig, index, &self.reads[r].index);
                            go(&mut steps, p, Some(!same));
                        }
                        Kind::Ite { cond, then, other } => {
                            let c = model(*cond);
                            if c && *then == x {
                                go(&mut steps, p, Some(*cond));
                            } else if !c && *other == x {
                                go(&mut steps, p, Some(!*cond));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        self.lemmas += lemmas.len() as u64;
        if !lemmas.is_empty() {
            return Ok(lemmas);
        }
        self.build_model(model, &read_index, &read_value, &met)?;
        Ok(Vec::new())
    }

    /// The premises of the walk ending at step `s`, negated (the clause's
    /// literals).
    fn premises(&self, steps: &[Step], mut s: usize) -> Vec<Lit> {
        let mut out = Vec::new();
        loop {
            if let Some(p) = steps[s].premise {
                out.push(!p);
            }
            match steps[s].prev {
                Some(q) => s = q,
                None => return out,
            }
        }
    }

    /// The lemma of two reads meeting at one node and one index with
    /// different values: both paths and `j1 = j2` imply `v1 = v2`.
    fn meeting(
        &self,
        aig: &mut Aig,
        steps: &[Step],
        (r1, s1): (usize, usize),
        (r2, s2): (usize, usize),
    ) -> Lit {
        let (a, b) = (&self.reads[r1], &self.reads[r2]);
        let mut clause = self.premises(steps, s1);
        clause.extend(self.premises(steps, s2));
        let same = words_equal(aig, &a.index, &b.index);
        clause.push(!same);
        let agree = words_equal(aig, &a.value, &b.value);
        disjunction(aig, &clause, agree)
    }

    /// The values of every array term in the model, checked against every
    /// read and equality; the variables' values are kept.
    fn build_model(
        &mut self,
        model: &dyn Fn(Lit) -> bool,
        read_index: &[Vec<bool>],
        read_value: &[Vec<bool>],
        met: &[HashMap<Vec<bool>, (usize, usize)>],
    ) -> Result<(), String> {
        let n = self.nodes.len();
        // Classes of arrays equal in the model.
        let mut class: Vec<usize> = (0..n).collect();
        fn find(class: &mut [usize], mut x: usize) -> usize {
            while class[x] != x {
                class[x] = class[class[x]];
                x = class[x];
            }
            x
        }
        for e in &self.eqs {
            if model(e.lit) {
                let (a, b) = (find(&mut class, e.a), find(&mut class, e.b));
                class[a] = b;
            }
        }
        let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
        for x in 0..n {
            let c = find(&mut class, x);
            members.entry(c).or_default().push(x);
        }
        let mut value: Vec<Option<Arc<ArrayValue>>> = vec![None; n];
        let mut class_value: HashMap<usize, Arc<ArrayValue>> = HashMap::new();
        let mut chosen = HashMap::new();
        for x in 0..n {
            self.value_of(
                x,
                model,
                &mut class,
                &members,
                met,
                read_value,
                &mut value,
                &mut class_value,
                &mut chosen,
            );
        }
        for (r, read) in self.reads.iter().enumerate() {
            let (isort, esort) = self.sorts(read.node);
            let array = value[read.node].as_ref().expect("valued above");
            let i = bitblast::word_value(&isort, &read_index[r]);
            if *array.get(&i) != bitblast::word_value(&esort, &read_value[r]) {
                return Err("the array model could not be completed".into());
            }
        }
        for e in &self.eqs {
            let same = value[e.a] == value[e.b];
            if same != model(e.lit) {
                return Err("the array model could not be completed".into());
            }
        }
        self.model.clear();
        for (x, node) in self.nodes.iter().enumerate() {
            if let Kind::Var = node.kind {
                let v = value[x].clone().expect("valued above");
                self.model.insert(node.term, Value::Array(v));
            }
        }
        Ok(())
    }

    /// The value of node `x` (memoised in `value`): a store, `ite` or
    /// constant from its arguments; a variable from its class (another
    /// member's value, else the reads that met the class's variables).
    #[allow(clippy::too_many_arguments)]
    fn value_of(
        &self,
        x: usize,
        model: &dyn Fn(Lit) -> bool,
        class: &mut [usize],
        members: &HashMap<usize, Vec<usize>>,
        met: &[HashMap<Vec<bool>, (usize, usize)>],
        read_value: &[Vec<bool>],
        value: &mut [Option<Arc<ArrayValue>>],
        class_value: &mut HashMap<usize, Arc<ArrayValue>>,
        chosen: &mut HashMap<usize, usize>,
    ) -> Arc<ArrayValue> {
        // Iterative over a work stack: chains of stores are as long as
        // the unrolling is deep.
        let mut work = vec![(x, false)];
        while let Some((y, expanded)) = work.pop() {
            if value[y].is_some() {
                continue;
            }
            let (isort, esort) = self.sorts(y);
            match &self.nodes[y].kind {
                Kind::Store {
                    base,
                    index,
                    value: v,
                } => {
                    match value[*base].clone() {
                        Some(b) => {
                            let i = bitblast::word_value(&isort, &bits_of(model, index));
                            let e = bitblast::word_value(&esort, &bits_of(model, v));
                            value[y] = Some(Arc::new(b.store(i, e)));
                        }
                        None if !expanded => {
                            work.push((y, true));
                            work.push((*base, false));
                        }
                        // Not reached: a base is valued before its store
                        // is looked at again; the final check would catch it.
                        None => {
                            let e = Value::default_of(&esort);
                            value[y] = Some(Arc::new(ArrayValue::constant(&isort, e)));
                        }
                    }
                }
                Kind::Ite { cond, then, other } => {
                    let pick = if model(*cond) { *then } else { *other };
                    match value[pick].clone() {
                        Some(v) => value[y] = Some(v),
                        None if !expanded => {
                            work.push((y, true));
                            work.push((pick, false));
                        }
                        None => {
                            let e = Value::default_of(&esort);
                            value[y] = Some(Arc::new(ArrayValue::constant(&isort, e)));
                        }
                    }
                }
                Kind::Const { value: v } => {
                    let e = bitblast::word_value(&esort, &bits_of(model, v));
                    value[y] = Some(Arc::new(ArrayValue::constant(&isort, e)));
                }
                Kind::Var => {
                    let c = {
                        let mut z = y;
                        while class[z] != z {
                            z = class[z];
                        }
                        z
                    };
                    if let Some(v) = class_value.get(&c) {
                        value[y] = Some(v.clone());
                        continue;
                    }
                    // A member that is not a variable gives the class its
                    // value, unless the class is being valued already (a
                    // cycle of equalities through stores).
                    let from_member = if expanded {
                        chosen.get(&c).and_then(|&m| value[m].clone())
                    } else {
                        let defining = (members[&c].iter().copied())
                            .find(|&m| !matches!(self.nodes[m].kind, Kind::Var));
                        match (chosen.entry(c), defining) {
                            (std::collections::hash_map::Entry::Vacant(slot), Some(m)) => {
                                slot.insert(m);
                                work.push((y, true));
                                work.push((m, false));
                                continue;
                            }
                            _ => None,
                        }
                    };
                    let v = match from_member {
                        Some(v) => v,
                        None => {
                            let mut a = ArrayValue::constant(&isort, Value::default_of(&esort));
                            for &m in &members[&c] {
                                if !matches!(self.nodes[m].kind, Kind::Var) {
                                    continue;
                                }
                                for (j, &(r, _)) in &met[m] {
                                    let i = bitblast::word_value(&isort, j);
                                    let e = bitblast::word_value(&esort, &read_value[r]);
                                    a = a.store(i, e);
                                }
                            }
                            Arc::new(a)
                        }
                    };
                    class_value.insert(c, v.clone());
                    value[y] = Some(v);
                }
            }
        }
        value[x].clone().expect("valued above")
    }

    /// The value of array variable `t` in the last model that checked.
    pub fn value(&self, t: Term) -> Option<&Value> {
        self.model.get(&t)
    }
}

/// The literal of the clause `lits ∨ last`.
fn disjunction(aig: &mut Aig, lits: &[Lit], last: Lit) -> Lit {
    let mut acc = last;
    for &l in lits {
        acc = aig.or(acc, l);
    }
    acc
}
