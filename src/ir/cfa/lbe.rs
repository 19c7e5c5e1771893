//! Large-block encoding (../shared/papers/large-block-encoding-thesis.txt):
//! the error-sink, sequence, choice and advanced-sequence rules, applied to a
//! fixpoint. Every rule keeps the reachability of the error location; the
//! sequence rules compose commands with `;` (the encoding renames variables
//! along a sequence), the choice rule joins parallel edges with `[]` (the
//! encoding keeps unassigned variables on each branch).

use super::{Cfa, Command, Edge, Loc};
use std::collections::HashMap;

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

fn degrees(cfa: &Cfa) -> (HashMap<Loc, usize>, HashMap<Loc, usize>) {
    let (mut indeg, mut outdeg) = (HashMap::new(), HashMap::new());
    for e in &cfa.edges {
        *outdeg.entry(e.from).or_default() += 1;
        *indeg.entry(e.to).or_default() += 1;
    }
    (indeg, outdeg)
}

/// Applies large-block encoding to `cfa` in place.
pub fn large_block_encoding(cfa: &mut Cfa, options: LbeOptions) -> LbeStats {
    let before = (cfa.live_locations().len(), cfa.edges.len());
    // Error sink: nothing after the error location matters.
    let error = cfa.error;
    cfa.edges.retain(|e| e.from != error);
    while choice(cfa) || sequence(cfa, options.advanced) {}
    LbeStats {
        before,
        after: (cfa.live_locations().len(), cfa.edges.len()),
    }
}

/// The choice rule: parallel edges become one edge with a choice.
fn choice(cfa: &mut Cfa) -> bool {
    let mut groups: HashMap<(Loc, Loc), Vec<usize>> = HashMap::new();
    for (i, e) in cfa.edges.iter().enumerate() {
        groups.entry((e.from, e.to)).or_default().push(i);
    }
    let Some(((from, to), indices)) = groups
        .into_iter()
        .filter(|(_, v)| v.len() > 1)
        .min_by_key(|(k, _)| *k)
    else {
        return false;
    };
    let branches = (indices.iter())
        .map(|&i| cfa.edges[i].command.clone().into_sequence())
        .collect();
    let merged = factor(branches);
    let mut k = 0;
    cfa.edges.retain(|_| {
        k += 1;
        !indices.contains(&(k - 1))
    });
    cfa.add_edge(from, merged, to);
    true
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

/// The sequence rule (one incoming edge) or, if allowed, the advanced
/// sequence rule (several incoming and several outgoing edges): the location
/// disappears and each incoming edge is composed with each outgoing one.
fn sequence(cfa: &mut Cfa, advanced: bool) -> bool {
    let (indeg, outdeg) = degrees(cfa);
    let eligible = |l: Loc, basic: bool| {
        let (i, o) = (
            indeg.get(&l).copied().unwrap_or(0),
            outdeg.get(&l).copied().unwrap_or(0),
        );
        let self_loop = cfa.edges.iter().any(|e| e.from == l && e.to == l);
        // The advanced rule only where it does not multiply edges (i·o ≤ i+o):
        // composing every incoming with every outgoing command copies them,
        // and on soft_float_1-1 the unrestricted rule grew a 70 MB export.
        let degrees_fit = if basic {
            i == 1 && o >= 1
        } else {
            i > 1 && o > 1 && i * o <= i + o
        };
        l != cfa.init && l != cfa.error && !self_loop && degrees_fit
    };
    let locations = || (0..cfa.labels.len() as u32).map(Loc);
    // The basic rule first: it never adds edges; the advanced one may.
    let candidate = locations().find(|&l| eligible(l, true)).or_else(|| {
        if advanced {
            locations().find(|&l| eligible(l, false))
        } else {
            None
        }
    });
    let Some(l) = candidate else { return false };
    let incoming: Vec<Edge> = cfa.edges.iter().filter(|e| e.to == l).cloned().collect();
    let outgoing: Vec<Edge> = cfa.edges.iter().filter(|e| e.from == l).cloned().collect();
    cfa.edges.retain(|e| e.from != l && e.to != l);
    for a in &incoming {
        for b in &outgoing {
            cfa.add_edge(a.from, a.command.clone().then(b.command.clone()), b.to);
        }
    }
    true
}
