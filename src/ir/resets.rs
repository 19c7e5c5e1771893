//! Reset functions (AIGER 1.9.23): a latch that starts at the value of a
//! literal (an input, a latch, a gate) in the first state. The engines see
//! none: [`Aig::without_resets`] lowers them to one more latch, `first`
//! (1 in the first state, 0 ever after), and one invariant constraint per
//! such latch, `first → (latch ↔ reset)`, the latch itself uninitialised.
//!
//! Why a lowering, not a richer initial state in every engine:
//! - It is exact. AIGER evaluates a reset function in the first state under
//!   the first step's inputs (aigsim checks a witness's first state that
//!   way), and constraints hold in every step, the first included; so the
//!   lowered circuit's runs are the file's runs with `first` added.
//! - IC3's initial states stay a cube of literals (`first` and the constant
//!   latches), so its initial-state test stays a literal test. It is
//!   conservative on the lowered circuit (a cube with `first` = 1 meets the
//!   cube even where the constraint rules it out), which costs nothing that
//!   matters: every state after the first has `first` = 0, which clashes
//!   with the initial cube, so the lemmas that block them keep that literal.
//! - Every engine and every preprocessing step (cone of influence, latch
//!   merging, SAT sweeping) treats constraints already, and so honours the
//!   resets without a change of its own.
//!
//! The cost: one latch, and signal correspondence, which `auto` runs only
//! without constraints, stays out. Certificates keep the reset functions
//! (`verify::certificate`): a witness circuit built on the lowered circuit,
//! its first latches given the model's reset functions back, is a
//! Certifaiger witness of the model as read.

use super::aig::{Aig, Lit};

impl Aig {
    /// Whether some latch has a reset function.
    pub fn has_resets(&self) -> bool {
        self.latches.iter().any(|l| l.reset.is_some())
    }

    /// The circuit with its reset functions lowered (see the module
    /// header): the latches keep their positions and the `first` latch comes
    /// last; a circuit without resets is returned as it is.
    pub fn without_resets(&self) -> Aig {
        let mut out = self.clone();
        if !self.has_resets() {
            return out;
        }
        let first = out.add_latch(Some(true));
        for (k, latch) in self.latches.iter().enumerate() {
            if let Some(reset) = latch.reset {
                let current = Lit::new(latch.var, false);
                let same = !out.xor(current, reset);
                let holds = out.or(!first, same);
                out.constraints.push(holds);
                out.latches[k].init = None;
                out.latches[k].reset = None;
            }
        }
        out
    }
}

impl Aig {
    /// The circuit with every latch reset to a constant, for tools that
    /// predate reset functions or read uninitialised latches as 0 (Debian's
    /// ABC): a latch with a reset function, or with none, keeps its
    /// position and resets to 0, and everything that reads it reads
    /// `first ? start : latch` instead, where `start` is the function's
    /// value (or a new input, for a latch that starts anywhere) and `first`
    /// a new last latch, 1 in the first state only. No constraint is added,
    /// so the runs are the model's with `first` and the new inputs added.
    /// `None` when reset functions depend on each other in a cycle.
    pub fn with_constant_resets(&self) -> Option<Aig> {
        let starts_free = |l: &super::aig::Latch| l.init.is_none();
        if !self.latches.iter().any(starts_free) {
            return Some(self.clone());
        }
        let mut out = Aig::new();
        let mut map: Vec<Option<Lit>> = vec![None; self.num_nodes()];
        map[0] = Some(Lit::FALSE);
        for &v in &self.inputs {
            map[v.0 as usize] = Some(out.add_input());
        }
        let stored: Vec<Lit> = (self.latches.iter())
            .map(|l| out.add_latch(Some(l.init.unwrap_or(false))))
            .collect();
        let first = out.add_latch(Some(true));
        let first_index = out.latches.len() - 1;
        for (k, latch) in self.latches.iter().enumerate() {
            if latch.init.is_some() {
                map[latch.var.0 as usize] = Some(stored[k]);
            } else if latch.reset.is_none() {
                let start = out.add_input();
                map[latch.var.0 as usize] = Some(out.ite(first, start, stored[k]));
            }
        }
        // The latches with functions, each after what its function reads:
        // depth first, a node on the path met again is a cycle.
        let image =
            |map: &[Option<Lit>], l: Lit| map[l.var().0 as usize].map(|x| x.xor(l.is_negated()));
        let mut on_path = vec![false; self.num_nodes()];
        let mut stack: Vec<usize> = (0..self.num_nodes()).rev().collect();
        while let Some(&v) = stack.last() {
            if map[v].is_some() {
                stack.pop();
                continue;
            }
            let reads: Vec<Lit> = match self.nodes()[v] {
                super::aig::Node::And(a, b) => vec![a, b],
                super::aig::Node::Latch(k) => vec![self.latches[k as usize].reset?],
                _ => Vec::new(),
            };
            let missing: Vec<usize> = (reads.iter())
                .map(|l| l.var().0 as usize)
                .filter(|&u| map[u].is_none())
                .collect();
            if missing.is_empty() {
                map[v] = Some(match self.nodes()[v] {
                    super::aig::Node::And(..) => {
                        let (a, b) = (image(&map, reads[0])?, image(&map, reads[1])?);
                        out.and(a, b)
                    }
                    super::aig::Node::Latch(k) => {
                        let start = image(&map, reads[0])?;
                        out.ite(first, start, stored[k as usize])
                    }
                    _ => return None,
                });
                on_path[v] = false;
                stack.pop();
            } else {
                if on_path[v] {
                    return None;
                }
                on_path[v] = true;
                stack.extend(missing);
            }
        }
        let all: Vec<Lit> = map.into_iter().map(|l| l.unwrap_or(Lit::FALSE)).collect();
        for (k, latch) in self.latches.iter().enumerate() {
            out.set_next(k, super::aig::map_lit(&all, latch.next));
        }
        out.set_next(first_index, Lit::FALSE);
        out.copy_properties(self, &all);
        Some(out)
    }
}
