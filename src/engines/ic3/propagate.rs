//! Clause propagation: push each lemma to the next level when it is inductive
//! relative to its own frame. An emptied level means F_i = F_{i+1}: the
//! lemmas above it form an inductive invariant.

use super::query::Consecution;
use super::{Ic3, Interrupted};
use std::time::Instant;

impl Ic3<'_> {
    /// Propagates levels `1..top`; returns the emptied level, if any.
    pub(super) fn propagate(&mut self) -> Result<Option<usize>, Interrupted> {
        let start = Instant::now();
        let top = self.frames.top();
        let mut result = None;
        for level in 1..top {
            let mut cubes = self.frames.take(level);
            // Shorter lemmas first: they are the likelier to push and subsume.
            cubes.sort_by_key(|c| c.len());
            let mut stay = Vec::new();
            for (n, cube) in cubes.iter().enumerate() {
                match self.relative_induction(cube, level + 1) {
                    Ok(Consecution::Inductive(core)) => {
                        self.stats.propagated += 1;
                        self.add_lemma(core, level + 1);
                    }
                    Ok(Consecution::Predecessor { .. }) => stay.push(cube.clone()),
                    Err(e) => {
                        stay.extend(cubes[n..].iter().cloned());
                        self.frames.put_back(level, stay);
                        return Err(e);
                    }
                }
            }
            // Lemmas added above may subsume ones that stay; re-add with checks.
            for cube in stay {
                if !self.frames.blocks(&cube, level + 1) {
                    self.frames.put_back(level, vec![cube]);
                }
            }
            if self.frames.at(level).is_empty() {
                result = Some(level);
                break;
            }
        }
        self.stats.time_propagate += start.elapsed();
        Ok(result)
    }
}
