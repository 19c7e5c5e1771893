//! Large-block encoding (../shared/papers/large-block-encoding-thesis.txt):
//! the error-sink, sequence, choice and advanced-sequence rules, applied to a
//! fixpoint. Every rule keeps the reachability of the error location; the
//! sequence rules compose commands with `;` (the encoding renames variables
//! along a sequence), the choice rule joins parallel edges with `[]` (the
//! encoding keeps unassigned variables on each branch).

use super::{Cfa, Command, Edge, Loc};
use std::collections::{BTreeSet, HashMap};

/// Sizes before and after.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LbeStats {
    /// Live locations and edges before.
    pub before: (usize, usize),
    /// Live locations and edges after.
    pub after: (usize, usize),
}

/// Which rules to apply beyond the three standard ones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LbeOptions {
    /// The thesis's advanced sequence rule (locations with several incoming
    /// and several outgoing edges), where it does not multiply edges.
    pub advanced: bool,
}

impl Default for LbeOptions {
    fn default() -> Self {
        LbeOptions { advanced: true }
    }
}

/// Applies large-block encoding to `cfa` in place.
pub fn large_block_encoding(cfa: &mut Cfa, options: LbeOptions) -> LbeStats {
    let before = (cfa.live_locations().len(), cfa.edges.len());
    // Error sink: nothing after the error location matters.
    let error = cfa.error;
    cfa.edges.retain(|e| e.from != error);
    let mut graph = Graph::new(cfa, options.advanced);
    // The rules in a fixed order: the choice rule on the smallest pair of
    // locations with parallel edges, else the sequence rule on the
    // smallest location it applies to (the basic rule before the advanced
    // one). Degrees and candidates are kept up to date edge by edge: found
    // by scanning every edge per rule, a product line's 56,637 edges (once
    // inlined) were not encoded in 90 s.
    loop {
        if let Some(&(from, to)) = graph.parallel.first() {
            graph.choice(from, to);
        } else if let Some(&l) = graph.basic.first().or(graph.advanced.first()) {
            graph.sequence(l);
        } else {
            break;
        }
    }
    cfa.edges = graph.edges.into_iter().flatten().collect();
    LbeStats {
        before,
        after: (cfa.live_locations().len(), cfa.edges.len()),
    }
}

/// The automaton's edges as the rules rewrite them: an edge removed is
/// `None` (so that the others keep their order, the order the encoding
/// numbers them in), one added goes last.
struct Graph {
    edges: Vec<Option<Edge>>,
    /// Per location, the edges into and out of it (removed ones too,
    /// dropped when next read), in order.
    into: Vec<Vec<usize>>,
    out: Vec<Vec<usize>>,
    indeg: Vec<usize>,
    outdeg: Vec<usize>,
    self_loops: Vec<usize>,
    /// Live edges per pair of locations, and the pairs with more than one.
    pairs: HashMap<(Loc, Loc), usize>,
    parallel: BTreeSet<(Loc, Loc)>,
    /// Locations the basic and the advanced sequence rule apply to.
    basic: BTreeSet<Loc>,
    advanced: BTreeSet<Loc>,
    with_advanced: bool,
    init: Loc,
    error: Loc,
}

impl Graph {
    fn new(cfa: &mut Cfa, with_advanced: bool) -> Graph {
        let n = cfa.labels.len();
        let mut graph = Graph {
            edges: Vec::new(),
            into: vec![Vec::new(); n],
            out: vec![Vec::new(); n],
            indeg: vec![0; n],
            outdeg: vec![0; n],
            self_loops: vec![0; n],
            pairs: HashMap::new(),
            parallel: BTreeSet::new(),
            basic: BTreeSet::new(),
            advanced: BTreeSet::new(),
            with_advanced,
            init: cfa.init,
            error: cfa.error,
        };
        for e in std::mem::take(&mut cfa.edges) {
            graph.add(e);
        }
        graph
    }

    fn add(&mut self, e: Edge) {
        let (from, to) = (e.from, e.to);
        let k = self.edges.len();
        self.edges.push(Some(e));
        self.out[from.0 as usize].push(k);
        self.into[to.0 as usize].push(k);
        self.outdeg[from.0 as usize] += 1;
        self.indeg[to.0 as usize] += 1;
        if from == to {
            self.self_loops[from.0 as usize] += 1;
        }
        let count = self.pairs.entry((from, to)).or_default();
        *count += 1;
        if *count == 2 {
            self.parallel.insert((from, to));
        }
        self.touch(from);
        self.touch(to);
    }

    fn remove(&mut self, k: usize) -> Edge {
        let e = self.edges[k].take().expect("a live edge");
        let (from, to) = (e.from, e.to);
        self.outdeg[from.0 as usize] -= 1;
        self.indeg[to.0 as usize] -= 1;
        if from == to {
            self.self_loops[from.0 as usize] -= 1;
        }
        let count = self.pairs.get_mut(&(from, to)).expect("counted");
        *count -= 1;
        if *count == 1 {
            self.parallel.remove(&(from, to));
        }
        self.touch(from);
        self.touch(to);
        e
    }

    /// Brings the rules' candidate sets up to date for `l`.
    fn touch(&mut self, l: Loc) {
        let (i, o) = (self.indeg[l.0 as usize], self.outdeg[l.0 as usize]);
        let open = l != self.init && l != self.error && self.self_loops[l.0 as usize] == 0;
        match open && i == 1 && o >= 1 {
            true => self.basic.insert(l),
            false => self.basic.remove(&l),
        };
        // The advanced rule only where it does not multiply edges (i·o ≤ i+o):
        // composing every incoming with every outgoing command copies them,
        // and on soft_float_1-1 the unrestricted rule grew a 70 MB export.
        match self.with_advanced && open && i > 1 && o > 1 && i * o <= i + o {
            true => self.advanced.insert(l),
            false => self.advanced.remove(&l),
        };
    }

    /// The live edges of a location's list, in order.
    fn live(edges: &[Option<Edge>], list: &mut Vec<usize>) -> Vec<usize> {
        list.retain(|&k| edges[k].is_some());
        list.clone()
    }

    /// The choice rule on the parallel edges from `from` to `to`.
    fn choice(&mut self, from: Loc, to: Loc) {
        let mut indices = Graph::live(&self.edges, &mut self.out[from.0 as usize]);
        indices.retain(|&k| self.edges[k].as_ref().is_some_and(|e| e.to == to));
        let branches = (indices.into_iter())
            .map(|k| self.remove(k).command.into_sequence())
            .collect();
        self.add(Edge {
            from,
            command: factor(branches),
            to,
        });
    }

    /// The sequence rule (or the advanced one) on `l`: the location
    /// disappears and each incoming edge is composed with each outgoing one.
    fn sequence(&mut self, l: Loc) {
        let incoming = Graph::live(&self.edges, &mut self.into[l.0 as usize]);
        let outgoing = Graph::live(&self.edges, &mut self.out[l.0 as usize]);
        let incoming: Vec<Edge> = incoming.into_iter().map(|k| self.remove(k)).collect();
        let outgoing: Vec<Edge> = outgoing.into_iter().map(|k| self.remove(k)).collect();
        for a in &incoming {
            for b in &outgoing {
                self.add(Edge {
                    from: a.from,
                    command: a.command.clone().then(b.command.clone()),
                    to: b.to,
                });
            }
        }
    }
}

/// The choice among `branches` (each a sequence of commands), with shared
/// prefixes and suffixes moved out of it: `(p; x; s) [] (p; y; s)` is
/// `p; (x [] y); s`, the same relation.
/// The sequence rule copies a location's incoming command into each of its
/// outgoing edges, so branches that meet again share their prefix; kept
/// inside the choice, each `if` doubled it, and a block of n checks in
/// sequence (test_locks_14's loop body) became a tree of 2^n copies that
/// IC3CFA's path formulas spelled out (a 2.4 MB query). Branches are
/// grouped by their first command, as in a trie, so that the error edge of
/// n checks, whose i-th branch passes checks 0..i and fails check i, stays
/// linear too.
fn factor(branches: Vec<Vec<Command>>) -> Command {
    // A branch that is itself a choice contributes its alternatives.
    let mut flat: Vec<Vec<Command>> = Vec::new();
    for b in branches {
        match <[Command; 1]>::try_from(b) {
            Ok([Command::Choice(alternatives)]) => {
                flat.extend(alternatives.into_iter().map(Command::into_sequence))
            }
            Ok([single]) => flat.push(vec![single]),
            Err(b) => flat.push(b),
        }
    }
    flat.dedup();
    if flat.len() == 1 {
        return Command::Seq(flat.pop().expect("one"));
    }
    // The suffix all branches share.
    let shortest = flat.iter().map(Vec::len).min().unwrap_or(0);
    let suffix = (0..shortest)
        .take_while(|&i| {
            let first = &flat[0][flat[0].len() - 1 - i];
            flat.iter().all(|p| p[p.len() - 1 - i] == *first)
        })
        .count();
    let tail: Vec<Command> = flat[0][flat[0].len() - suffix..].to_vec();
    for b in &mut flat {
        b.truncate(b.len() - suffix);
    }
    // Branches grouped by their first command, in order of appearance.
    let mut groups: Vec<(Option<Command>, Vec<Vec<Command>>)> = Vec::new();
    for mut b in flat {
        let first = (!b.is_empty()).then(|| b.remove(0));
        match groups.iter_mut().find(|(f, _)| *f == first) {
            Some((_, members)) => members.push(b),
            None => groups.push((first, vec![b])),
        }
    }
    let mut alternatives: Vec<Command> = Vec::new();
    for (first, members) in groups {
        let Some(first) = first else {
            // The empty branch: skip.
            alternatives.push(Command::Seq(Vec::new()));
            continue;
        };
        let rest = match members.len() {
            1 => Command::Seq(members.into_iter().next().expect("one")),
            _ => factor(members),
        };
        alternatives.push(first.then(rest));
    }
    let choice = match alternatives.len() {
        1 => alternatives.pop().expect("one"),
        _ => Command::Choice(alternatives),
    };
    let mut seq = choice.into_sequence();
    seq.extend(tail);
    match seq.len() {
        1 => seq.pop().expect("one"),
        _ => Command::Seq(seq),
    }
}
