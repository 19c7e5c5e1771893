//! Inductive generalization: MIC by literal dropping (Bradley, VMCAI 2011;
//! Bradley and Manna, FMCAD 2007), in the `down` form that shrinks a failed
//! candidate to its intersection with the predecessor found, optionally
//! with counterexamples to generalization (Hassan, Bradley, Somenzi, "Better
//! Generalization in IC3", FMCAD 2013).
//!
//! Literals are tried least active first, except that the literals of the
//! *parent lemma* go last: a lemma one level down that excludes the cube
//! but did not propagate (as rIC3 orders them). Keeping its literals makes
//! the new lemma a strengthening of one that already held a level lower,
//! and on `beem frogs.5` it took IC3 from 25 lemmas and 2 s instead of 380
//! lemmas and more than 20 s. Every literal is tried (ic3ref stops after
//! three failed drops in a row; with domain restriction and the recorded
//! refutations below a drop costs little, and stopping early left lemmas
//! so long that IC3 opened 1,300 frames on `qspiflash … p122`, which it now
//! proves at frame 8). A literal whose drop failed is
//! *kept*: later candidates whose predecessor falsifies a kept literal fail
//! at once. Each refuted candidate leaves a pair (s, t) of its predecessor
//! (the cube of the latches the model needs) and successor; a later
//! candidate c with s outside c and t inside c is refuted by the same pair
//! without a SAT call (as rIC3 does). The pairs are valid while the frame
//! does not change, so a blocked CTG clears them.
//!
//! How much effort a cube gets is one of [`Generalization`]: plain `down`,
//! `down` with CTGs, or the choice made per obligation by its activity
//! (Su et al., dynamic generalization in rIC3): obligations that keep
//! coming back get CTGs, the others do not.

use super::cube::{Cube, StateLit};
use super::domain::{Consecution, Domain, Lift, Target, Want};
use super::{Ic3, Interrupted};
use std::time::Instant;

/// How much effort generalization spends (see the module header).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Generalization {
    /// `down` without CTGs.
    Down,
    /// `down` blocking up to `max_ctgs` CTGs per candidate, recursively up
    /// to `max_depth` (0: no CTGs).
    Ctg {
        /// CTGs blocked per literal-dropping attempt before joining.
        max_ctgs: usize,
        /// Recursion depth of CTG handling.
        max_depth: usize,
    },
    /// By obligation activity: below `threshold` plain `down`, above it
    /// CTGs whose number grows with the activity.
    Dynamic {
        /// The activity from which CTGs are used.
        threshold: f64,
    },
}

/// A refuted candidate's predecessor and successor, over the cube's latches.
struct Refutation {
    predecessor: Cube,
    successor: Cube,
}

/// The state of one generalization.
struct Mic {
    /// Literals whose drop failed.
    keep: Vec<StateLit>,
    /// Refutations gathered so far (see the module header).
    refutations: Vec<Refutation>,
    /// The cube's literals when generalization began (refutations are
    /// recorded over these latches).
    full: Vec<StateLit>,
    max_ctgs: usize,
    max_depth: usize,
}

impl<D: Domain> Ic3<D> {
    /// Generalizes `cube`, inductive relative to F_{level-1}, to a smaller
    /// cube that still is (and still excludes Init); `activity` is the
    /// activity of the obligation it came from.
    pub fn generalize(
        &mut self,
        cube: Cube,
        level: usize,
        activity: f64,
    ) -> Result<Cube, Interrupted> {
        let start = Instant::now();
        let before = cube.len();
        let (max_ctgs, max_depth) = match self.options.generalization {
            Generalization::Down => (0, 0),
            Generalization::Ctg {
                max_ctgs,
                max_depth,
            } => (max_ctgs, max_depth),
            Generalization::Dynamic { threshold } if activity >= threshold => {
                let more = ((activity - threshold) / threshold) as usize;
                (2 + more.min(3), 1)
            }
            Generalization::Dynamic { .. } => (0, 0),
        };
        let cube = self.mic(cube, level, 0, max_ctgs, max_depth)?;
        self.stats.literals_dropped += (before - cube.len()) as u64;
        self.stats.time_generalize += start.elapsed();
        Ok(cube)
    }

    fn mic(
        &mut self,
        mut cube: Cube,
        level: usize,
        depth: usize,
        max_ctgs: usize,
        max_depth: usize,
    ) -> Result<Cube, Interrupted> {
        // Least active first: literals that occur in many lemmas are likely
        // needed again (a heuristic, as in ic3ref and rIC3).
        let mut order: Vec<StateLit> = cube.lits().to_vec();
        order.sort_by(|a, b| self.activity[a.latch()].total_cmp(&self.activity[b.latch()]));
        let parent = match depth == 0 && (self.options.parent_lemma || self.options.predict) {
            true => self.frames.parent(&cube, level).cloned(),
            false => None,
        };
        if let (true, Some(parent)) = (self.options.parent_lemma, &parent) {
            // Stable: the activity order holds within each part.
            order.sort_by_key(|l| parent.lits().contains(l));
        }
        let mut mic = Mic {
            keep: Vec::new(),
            refutations: Vec::new(),
            full: order.clone(),
            max_ctgs,
            max_depth,
        };
        // Every cube tried below lies inside this one: its cone serves them
        // all (and makes the successor values of the refutations readable).
        let pinned = self.options.pin_domain;
        if pinned {
            self.domain.pin(&cube, level);
        }
        let result = self.shrink(&mut cube, order, parent.as_ref(), level, depth, &mut mic);
        if pinned {
            self.domain.unpin(level);
        }
        result.map(|()| cube)
    }

    /// MIC of `cube` inside the pinned cone, from the predicted lemma when
    /// there is one.
    fn shrink(
        &mut self,
        cube: &mut Cube,
        mut order: Vec<StateLit>,
        parent: Option<&Cube>,
        level: usize,
        depth: usize,
        mic: &mut Mic,
    ) -> Result<(), Interrupted> {
        if let (true, Some(parent)) = (self.options.predict, parent) {
            if let Some(lemma) = self.predict(cube, parent, level)? {
                // The prediction is short but not minimal: MIC goes on from
                // it (the paper stops here; on `qspiflash … p122` the
                // unminimized lemmas made IC3 open 1,195 frames instead of 10).
                *cube = lemma;
                order.retain(|l| cube.has_latch(l.latch()));
            }
        }
        self.drop_literals(cube, order, level, depth, mic)
    }

    /// Lemma prediction (Su, Yang, Ci, "Predicting Lemmas in Generalization
    /// of IC3", DAC 2024): the parent lemma `¬parent` held at `level - 1`
    /// but not at `level`; its counterexample to propagation steps from a
    /// state s of F_{level-1} ∧ ¬parent into a state t of `parent`. As
    /// `parent`'s literals are among `cube`'s, s lies outside `cube` too,
    /// and `cube` is inductive relative to F_{level-1}: so t is not in
    /// `cube`, and some literal of `cube` is false in t. `parent` with that
    /// literal added excludes t and is often inductive at `level`: a lemma
    /// one literal longer than the parent, found with a few queries instead
    /// of one per literal of `cube`.
    /// The counterexample is asked for again here (frames change, and the
    /// query must read t's values on `cube`'s latches, inside the pinned
    /// cone); if the parent itself is now inductive at `level`, it is the
    /// lemma.
    fn predict(
        &mut self,
        cube: &Cube,
        parent: &Cube,
        level: usize,
    ) -> Result<Option<Cube>, Interrupted> {
        const CANDIDATES: usize = 4;
        self.stats.predictions_tried += 1;
        let want = Want {
            model: false,
            lift: Lift::Nothing,
            next: cube.lits(),
        };
        let successor = match self.relative_induction(parent, level, want)? {
            Consecution::Inductive(core) => {
                self.stats.predictions_made += 1;
                return Ok(Some(core));
            }
            Consecution::Predecessor(model) => model.next,
        };
        // The literals of `cube` that t falsifies (none of the parent's: t
        // is in `parent`), most active first (the lemma then reuses atoms
        // of the frames).
        let mut differing: Vec<StateLit> = (cube.lits().iter().zip(&successor))
            .filter(|(l, t)| l.value() != t.value())
            .map(|(&l, _)| l)
            .collect();
        differing.sort_by(|a, b| self.activity[b.latch()].total_cmp(&self.activity[a.latch()]));
        for lit in differing.into_iter().take(CANDIDATES) {
            let mut lits = parent.lits().to_vec();
            lits.push(lit);
            let candidate = Cube::new(lits);
            if let Consecution::Inductive(core) =
                self.relative_induction(&candidate, level, Want::NOTHING)?
            {
                self.stats.predictions_made += 1;
                return Ok(Some(core));
            }
        }
        Ok(None)
    }

    fn drop_literals(
        &mut self,
        cube: &mut Cube,
        order: Vec<StateLit>,
        level: usize,
        depth: usize,
        mic: &mut Mic,
    ) -> Result<(), Interrupted> {
        let mut failures = 0;
        for lit in order {
            if !cube.has_latch(lit.latch()) || cube.len() == 1 {
                continue;
            }
            let candidate = cube.without(lit.latch());
            match self.down(candidate, level, depth, mic)? {
                Some(smaller) => {
                    *cube = smaller;
                    failures = 0;
                }
                None => {
                    mic.keep.push(lit);
                    failures += 1;
                    if failures >= self.options.mic_attempts {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Shrinks `cube` until it is inductive relative to F_{level-1}, by
    /// blocking counterexamples to generalization at lower levels or
    /// intersecting it with the predecessors found; `None` if it fails.
    fn down(
        &mut self,
        mut cube: Cube,
        level: usize,
        depth: usize,
        mic: &mut Mic,
    ) -> Result<Option<Cube>, Interrupted> {
        let mut ctgs = 0;
        loop {
            if cube.is_empty() || self.domain.intersects_init(&cube)? {
                return Ok(None);
            }
            if mic.refutations.iter().any(|r| refutes(r, &cube)) {
                self.stats.refutation_hits += 1;
                return Ok(None);
            }
            let record = self.options.pin_domain;
            let want = Want {
                model: true,
                lift: Lift::Only(&mic.full),
                next: if record { &mic.full } else { &[] },
            };
            let model = match self.relative_induction(&cube, level, want)? {
                Consecution::Inductive(core) => return Ok(Some(core)),
                Consecution::Predecessor(model) => model,
            };
            if depth < mic.max_depth && ctgs < mic.max_ctgs && level >= 2 {
                let ctg = self.lift(&model, Target::Cube(&cube), false)?;
                if !self.domain.intersects_init(&ctg)? {
                    let blocked = self.relative_induction(&ctg, level - 1, Want::NOTHING)?;
                    if let Consecution::Inductive(core) = blocked {
                        ctgs += 1;
                        self.stats.ctgs += 1;
                        // Push the CTG's lemma as high as it goes, generalize it there.
                        let (core, at) = self.highest_inductive_level(core, level - 1)?;
                        let lemma = self.mic(core, at, depth + 1, mic.max_ctgs, mic.max_depth)?;
                        self.publish(at, &lemma);
                        self.add_lemma(lemma, at);
                        // The frames changed: old predecessors may be gone.
                        mic.refutations.clear();
                        continue;
                    }
                }
            }
            ctgs = 0;
            // Join: keep the literals the predecessor agrees with (and needs);
            // at least one differs, as the predecessor lies outside the cube.
            let agrees = |l: &StateLit| model.state[l.latch()] == l.value();
            if mic
                .keep
                .iter()
                .any(|l| cube.has_latch(l.latch()) && !agrees(l))
            {
                return Ok(None);
            }
            let joined: Vec<StateLit> = (cube.lits().iter().copied())
                .filter(|l| agrees(l) && (model.needed[l.latch()] || mic.keep.contains(l)))
                .collect();
            if record {
                let predecessor = (mic.full.iter())
                    .filter(|l| model.needed[l.latch()])
                    .map(|l| StateLit::new(l.latch(), model.state[l.latch()]))
                    .collect();
                mic.refutations.push(Refutation {
                    predecessor: Cube::new(predecessor),
                    successor: Cube::new(model.next),
                });
            }
            if joined.len() == cube.len() {
                return Ok(None);
            }
            cube = Cube::new(joined);
        }
    }
}

/// Whether refutation `r` shows `candidate` not inductive: its predecessor
/// lies outside the candidate (some literal of it is false or free there)
/// and steps into it.
fn refutes(r: &Refutation, candidate: &Cube) -> bool {
    !candidate.is_subset_of(&r.predecessor) && candidate.is_subset_of(&r.successor)
}
