//! The candidate classes: nodes with equal signatures (up to complement),
//! each pointing at its class's first member, split as refutations come.

use super::simulation::Signatures;
use crate::ir::aig::{Aig, Lit, Node};
use std::collections::HashMap;

/// The candidate classes: members in increasing node order, the first the
/// representative; `repr` per node as in [`Correspondence`]. A class that
/// falls apart between full refinements stays as an empty entry, so that
/// the others keep their index.
pub(super) struct Classes {
    pub(super) members: Vec<Vec<u32>>,
    pub(super) repr: Vec<Lit>,
    /// Each node's class (an index into `members`), `NO_CLASS` if alone.
    pub(super) index: Vec<u32>,
    /// Scratch marks of [`Classes::refine_separated`]'s traversal.
    pub(super) seen: Vec<bool>,
}

/// The class index of a node in no class.
pub(super) const NO_CLASS: u32 = u32::MAX;

impl Classes {
    /// Groups the candidate nodes (the constant, latches, gates) by
    /// normalized signature.
    pub(super) fn from_signatures(aig: &Aig, sigs: &Signatures) -> Classes {
        let n = aig.num_nodes();
        let mut buckets: HashMap<u64, Vec<Vec<u32>>> = HashMap::new();
        for (v, node) in aig.nodes().iter().enumerate() {
            if matches!(node, Node::Input(_)) {
                continue;
            }
            let key = (0..sigs.words.len()).fold(0xcbf2_9ce4_8422_2325u64, |h, w| {
                (h ^ sigs.normalized(w, v)).wrapping_mul(0x1000_0000_01b3)
            });
            let groups = buckets.entry(key).or_default();
            let same = |g: &Vec<u32>| {
                (0..sigs.words.len())
                    .all(|w| sigs.normalized(w, g[0] as usize) == sigs.normalized(w, v))
            };
            match groups.iter_mut().find(|g| same(g)) {
                Some(g) => g.push(v as u32),
                None => groups.push(vec![v as u32]),
            }
        }
        let mut members: Vec<Vec<u32>> = (buckets.into_values().flatten())
            .filter(|g| g.len() > 1)
            .collect();
        members.sort_unstable_by_key(|g| g[0]);
        let mut classes = Classes {
            members,
            repr: (0..n as u32)
                .map(|v| Lit::new(crate::ir::aig::Var(v), false))
                .collect(),
            index: vec![NO_CLASS; n],
            seen: vec![false; n],
        };
        classes.set_repr(sigs);
        classes.reindex();
        classes
    }

    /// Sets every node's class index from `members`.
    pub(super) fn reindex(&mut self) {
        self.index.fill(NO_CLASS);
        for (i, class) in self.members.iter().enumerate() {
            for &m in class {
                self.index[m as usize] = i as u32;
            }
        }
    }

    pub(super) fn set_repr(&mut self, sigs: &Signatures) {
        for i in 0..self.members.len() {
            self.set_class_repr(i, sigs);
        }
    }

    /// Points class `i`'s members at its first.
    pub(super) fn set_class_repr(&mut self, i: usize, sigs: &Signatures) {
        point_at_first(&mut self.repr, &self.members[i], sigs);
    }

    /// The index of the class `m` is in.
    pub(super) fn class_of(&self, m: u32) -> Option<usize> {
        let i = self.index[m as usize];
        (i != NO_CLASS).then_some(i as usize)
    }

    /// Splits every class by the latest word of `sigs`; whether any split.
    pub(super) fn refine(&mut self, sigs: &Signatures) -> bool {
        let w = sigs.words.len() - 1;
        let mut split = false;
        let mut next = Vec::with_capacity(self.members.len());
        for class in std::mem::take(&mut self.members) {
            if !class.is_empty() {
                split |= self.split(class, sigs, w, &mut next);
            }
        }
        self.members = next;
        self.reindex();
        split
    }

    /// Splits the class of `m` by the latest word of `sigs`; whether it
    /// split. (One class, not all: a separating pattern is added after
    /// each refuted check, thousands per round on industrial circuits,
    /// and a scan of every class after each took most of the base case.)
    pub(super) fn refine_class_of(&mut self, m: u32, sigs: &Signatures) -> bool {
        let Some(i) = self.class_of(m) else {
            return false;
        };
        let w = sigs.words.len() - 1;
        let class = std::mem::take(&mut self.members[i]);
        for &x in &class {
            self.index[x as usize] = NO_CLASS;
        }
        let mut next = Vec::new();
        let split = self.split(class, sigs, w, &mut next);
        let mut next = next.into_iter();
        // The first part keeps the index (or leaves it empty).
        if let Some(first) = next.next() {
            self.members[i] = first;
        }
        let appended = self.members.len();
        self.members.extend(next);
        for j in std::iter::once(i).chain(appended..self.members.len()) {
            for &x in &self.members[j] {
                self.index[x as usize] = j as u32;
            }
        }
        split
    }

    /// Splits the class of every node the check of `m` read (its own
    /// gate's cone, each node through `read`, the representatives the
    /// check's frames read it as) that the latest word of `sigs` separates
    /// from its representative; whether any split. A model of a reduced
    /// check can separate a member's own gate from its representative
    /// through a lower member that differs from its own: if no node it
    /// read differs from its reading, simulation agrees with the reduced
    /// reading and separates `m`'s class itself. (Refining every class
    /// after each such model, 48,000 of them on `cal226` in 10,000
    /// refutations, took most of its search; then a scan of every node
    /// below `m`, 7% of it.)
    pub(super) fn refine_separated(
        &mut self,
        aig: &Aig,
        m: u32,
        read: &[Lit],
        sigs: &Signatures,
    ) -> bool {
        // The nodes reached, in the order reached: the worklist too.
        let mut visited = vec![m];
        let mut found = Vec::new();
        self.seen[m as usize] = true;
        let mut next = 0;
        while let Some(&x) = visited.get(next) {
            next += 1;
            if x != m && self.index[x as usize] != NO_CLASS && self.separated(x, sigs) {
                found.push(x);
            }
            // A node read as another is read no further; `m` is read as
            // its own gate and as its representative.
            let r = read[x as usize].var().0;
            let fanins = match aig.nodes()[x as usize] {
                Node::And(a, b) if x == m || r == x => [a.var().0, b.var().0],
                _ => [r, r],
            };
            for y in [r, fanins[0], fanins[1]] {
                if !self.seen[y as usize] {
                    self.seen[y as usize] = true;
                    visited.push(y);
                }
            }
        }
        for v in visited {
            self.seen[v as usize] = false;
        }
        // In node order, as a full refinement would: a split may change
        // the representatives of nodes found later.
        found.sort_unstable();
        let mut split = false;
        for x in found {
            if self.index[x as usize] != NO_CLASS && self.separated(x, sigs) {
                split |= self.refine_class_of(x, sigs);
            }
        }
        split
    }

    /// Whether the latest word of `sigs` separates `m` from its
    /// representative.
    pub(super) fn separated(&self, m: u32, sigs: &Signatures) -> bool {
        let w = sigs.words.len() - 1;
        let r = self.repr[m as usize].var().0 as usize;
        sigs.normalized(w, m as usize) != sigs.normalized(w, r)
    }

    /// Splits `class` by word `w` into `next` (classes of two or more),
    /// pointing every member at its new representative; whether it split.
    pub(super) fn split(
        &mut self,
        class: Vec<u32>,
        sigs: &Signatures,
        w: usize,
        next: &mut Vec<Vec<u32>>,
    ) -> bool {
        let first = sigs.normalized(w, class[0] as usize);
        if class
            .iter()
            .all(|&m| sigs.normalized(w, m as usize) == first)
        {
            next.push(class);
            return false;
        }
        let mut groups: Vec<(u64, Vec<u32>)> = Vec::new();
        for &m in &class {
            let value = sigs.normalized(w, m as usize);
            match groups.iter_mut().find(|(x, _)| *x == value) {
                Some((_, g)) => g.push(m),
                None => groups.push((value, vec![m])),
            }
        }
        for (_, g) in groups {
            if g.len() == 1 {
                self.repr[g[0] as usize] = Lit::new(crate::ir::aig::Var(g[0]), false);
            } else {
                point_at_first(&mut self.repr, &g, sigs);
                next.push(g);
            }
        }
        true
    }

    /// Takes `m` out of its class.
    pub(super) fn remove(&mut self, m: u32, sigs: &Signatures) {
        let r = self.repr[m as usize].var().0;
        let Some(i) = self.class_of(m) else {
            return;
        };
        self.members[i].retain(|&x| x != m);
        self.repr[m as usize] = Lit::new(crate::ir::aig::Var(m), false);
        self.index[m as usize] = NO_CLASS;
        if self.members[i].len() < 2 {
            for &x in &self.members[i] {
                self.repr[x as usize] = Lit::new(crate::ir::aig::Var(x), false);
                self.index[x as usize] = NO_CLASS;
            }
            self.members[i].clear();
        } else if r == m {
            // The representative left: the next member leads the class.
            self.set_class_repr(i, sigs);
        }
    }
}

/// Points every member of `class` at its first, with the phase that makes
/// their signatures equal.
pub(super) fn point_at_first(repr: &mut [Lit], class: &[u32], sigs: &Signatures) {
    let r = class[0] as usize;
    for &m in class {
        let phase = sigs.phase(m as usize) != sigs.phase(r);
        repr[m as usize] = Lit::new(crate::ir::aig::Var(r as u32), phase);
    }
}
