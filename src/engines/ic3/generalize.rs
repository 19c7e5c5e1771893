//! Inductive generalization: MIC by literal dropping, with counterexamples
//! to generalization (CTG). Hassan, Bradley, Somenzi, "Better Generalization
//! in IC3", FMCAD 2013; the structure follows ic3ref's `mic`/`ctgDown`.

use super::cube::{Cube, StateLit};
use super::query::{Consecution, Target};
use super::{Ic3, Interrupted};
use std::time::Instant;

impl Ic3<'_> {
    /// Generalizes `cube`, inductive relative to F_{level-1}, to a smaller
    /// cube that still is (and still excludes Init).
    pub fn generalize(&mut self, cube: Cube, level: usize) -> Result<Cube, Interrupted> {
        let start = Instant::now();
        let before = cube.len();
        let cube = self.mic(cube, level, 0)?;
        self.stats.literals_dropped += (before - cube.len()) as u64;
        self.stats.time_generalize += start.elapsed();
        Ok(cube)
    }

    fn mic(&mut self, mut cube: Cube, level: usize, depth: usize) -> Result<Cube, Interrupted> {
        // Try the least active literals first: literals that occur in many
        // lemmas are likely needed again (a heuristic, as in ic3ref).
        let mut order: Vec<StateLit> = cube.lits().to_vec();
        order.sort_by(|a, b| self.activity[a.latch()].total_cmp(&self.activity[b.latch()]));
        let mut failures = 0;
        for lit in order {
            if !cube.has_latch(lit.latch()) || cube.len() == 1 {
                continue;
            }
            let candidate = cube.without(lit.latch());
            match self.ctg_down(candidate, level, depth)? {
                Some(smaller) => {
                    cube = smaller;
                    failures = 0;
                }
                None => {
                    failures += 1;
                    if failures >= self.options.mic_attempts {
                        break;
                    }
                }
            }
        }
        Ok(cube)
    }

    /// Tries to make `cube` inductive relative to F_{level-1}, blocking
    /// counterexamples to generalization at lower levels or joining with them.
    fn ctg_down(
        &mut self,
        mut cube: Cube,
        level: usize,
        depth: usize,
    ) -> Result<Option<Cube>, Interrupted> {
        let mut ctgs = 0;
        loop {
            if cube.is_empty() || cube.intersects_init(&self.init) {
                return Ok(None);
            }
            let (state, inputs) = match self.relative_induction(&cube, level)? {
                Consecution::Inductive(core) => return Ok(Some(core)),
                Consecution::Predecessor { state, inputs } => (state, inputs),
            };
            if depth >= self.options.max_ctg_depth {
                return Ok(None);
            }
            let ctg = self.lift(&state, &inputs, Target::Cube(&cube))?;
            if ctgs < self.options.max_ctgs && level >= 2 && !ctg.intersects_init(&self.init) {
                if let Consecution::Inductive(core) = self.relative_induction(&ctg, level - 1)? {
                    ctgs += 1;
                    self.stats.ctgs += 1;
                    // Push the CTG's lemma as high as it goes, generalize it there.
                    let (core, at) = self.highest_inductive_level(core, level - 1)?;
                    let lemma = self.mic(core, at, depth + 1)?;
                    self.add_lemma(lemma, at);
                    continue;
                }
            }
            // Join: keep the literals the CTG state agrees with; at least one
            // differs because the state lies outside the cube.
            ctgs = 0;
            let joined: Vec<StateLit> = (cube.lits().iter().copied())
                .filter(|l| state[l.latch()] == l.value())
                .collect();
            if joined.len() == cube.len() {
                return Ok(None);
            }
            cube = Cube::new(joined);
        }
    }
}
