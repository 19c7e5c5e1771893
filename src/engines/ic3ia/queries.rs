//! The abstract domain's queries, as IC3 asks them (the [`Domain`]
//! trait): initiation, the bad states, relative induction with its core and
//! a predecessor, lifting, lemmas, and the counterexample check that
//! refinement answers.

use super::{lit_term, Predicates, REBUILD_AFTER};
use crate::engines::ic3::{
    Consecution, Counterexample, Cube, Domain, Frames, Ic3Stats, Interrupted, Model, StateLit,
    Step, Target, Want,
};
use crate::ir::term::Term;
use crate::ir::ts::WordTrace;
use std::collections::HashSet;

impl Domain for Predicates {
    type Trace = WordTrace;

    fn atoms(&self) -> usize {
        self.preds.len()
    }

    fn intersects_init(&mut self, cube: &Cube) -> Result<bool, Interrupted> {
        if let Some(&known) = self.init_cache.get(cube) {
            return Ok(known);
        }
        let lits = self.current_lits(cube);
        let result = self.init_solver.check(self.u.terms(), &lits);
        let meets = self.answer(result)?;
        self.init_cache.insert(cube.clone(), meets);
        Ok(meets)
    }

    fn bad_state(
        &mut self,
        level: usize,
        _activity: &[f64],
    ) -> Result<Option<(Cube, Vec<bool>)>, Interrupted> {
        let mut assumptions = self.frame(level);
        assumptions.push(self.bad);
        if !self.ask(&assumptions)? {
            return Ok(None);
        }
        let values = self.valuation()?;
        Ok(Some((Cube::from_values(&values), Vec::new())))
    }

    fn relative_induction(
        &mut self,
        cube: &Cube,
        level: usize,
        want: Want,
        activity: &[f64],
        frames: &Frames,
    ) -> Result<Consecution, Interrupted> {
        let order = cube.by_activity(activity);
        let primed: Vec<Term> = (order.iter())
            .map(|&l| lit_term(self.u.terms_mut(), &self.next, l))
            .collect();
        let clause = self.clause(cube);
        self.solver.push();
        self.solver.assert(self.u.terms(), clause);
        let mut assumptions = primed.clone();
        assumptions.extend(self.frame(level - 1));
        assumptions.push(self.step);
        let answer = match self.ask(&assumptions) {
            Err(e) => Err(e),
            Ok(true) => {
                let mut model = Model {
                    state: Vec::new(),
                    inputs: Vec::new(),
                    needed: Vec::new(),
                    next: Vec::new(),
                };
                let mut read = || -> Result<(), Interrupted> {
                    for &l in want.next {
                        let v = self.bool_value(self.next[l.latch()])?;
                        model.next.push(StateLit::new(l.latch(), v));
                    }
                    if want.model {
                        model.state = self.valuation()?;
                        model.needed = vec![true; model.state.len()];
                    }
                    Ok(())
                };
                read().map(|()| Consecution::Predecessor(model))
            }
            Ok(false) => {
                let core: HashSet<Term> = self.solver.unsat_core().into_iter().collect();
                let kept: Vec<StateLit> = (order.iter().zip(&primed))
                    .filter(|(_, t)| core.contains(t))
                    .map(|(&l, _)| l)
                    .collect();
                Ok(Consecution::Inductive(Cube::new(kept)))
            }
        };
        self.solver.pop();
        self.scopes += 1;
        let answer = match answer? {
            Consecution::Inductive(core) if self.intersects_init(&core)? => {
                // Add back what Init needs to exclude the cube.
                let mut lits = core.lits().to_vec();
                for l in self.init_core(cube)? {
                    if !core.has_latch(l.latch()) {
                        lits.push(l);
                    }
                }
                Consecution::Inductive(Cube::new(lits))
            }
            other => other,
        };
        if self.scopes > REBUILD_AFTER {
            self.load(frames);
        }
        Ok(answer)
    }

    /// An abstract predecessor is its whole valuation: there is no
    /// concrete state to lift.
    fn lift(
        &mut self,
        model: &Model,
        _target: Target,
        _activity: &[f64],
        _thorough: bool,
    ) -> Result<Cube, Interrupted> {
        Ok(Cube::from_values(&model.state))
    }

    fn add_lemma(&mut self, cube: &Cube, level: usize) {
        let act = self.levels[level];
        self.assert_lemma(cube, act);
    }

    fn add_level(&mut self, level: usize, _frames: &Frames) {
        while self.levels.len() <= level {
            let name = format!("ic3ia@level{}", self.levels.len());
            let act = self.u.fresh_bool(&name);
            self.levels.push(act);
        }
    }

    fn add_infinite(&mut self, cubes: &[Cube]) {
        for cube in cubes {
            self.assert_lemma(cube, self.infinite);
        }
    }

    fn closed_under_step(
        &mut self,
        _infinite: &[Cube],
        candidates: &[Cube],
    ) -> Result<Vec<bool>, Interrupted> {
        self.solver.push();
        for cube in candidates {
            let clause = self.clause(cube);
            self.solver.assert(self.u.terms(), clause);
        }
        let mut closed = Vec::with_capacity(candidates.len());
        let mut result = Ok(());
        for cube in candidates {
            let mut assumptions: Vec<Term> = (cube.lits().iter())
                .map(|&l| lit_term(self.u.terms_mut(), &self.next, l))
                .collect();
            assumptions.extend([self.infinite, self.step]);
            match self.ask(&assumptions) {
                Ok(steps_into) => closed.push(!steps_into),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.solver.pop();
        self.scopes += 1;
        result.map(|()| closed)
    }

    fn counterexample(&mut self, chain: &[Step]) -> Result<Counterexample<WordTrace>, Interrupted> {
        if let Some(trace) = self.simulate(chain)? {
            return Ok(Counterexample::Real(trace));
        }
        if self.refine(chain) == 0 && self.bit_predicates() == 0 {
            self.gave_up = Some(format!(
                "IC3+IA: a spurious abstract counterexample of {} steps, and no new predicate to refine it",
                chain.len()
            ));
            return Err(Interrupted);
        }
        Ok(Counterexample::Spurious)
    }

    fn add_stats(&self, stats: &mut Ic3Stats) {
        let (checks, time) = self.checks();
        stats.sat.calls += checks;
        stats.sat.time += time;
    }
}
