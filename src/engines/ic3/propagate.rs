//! Clause propagation: push each lemma to the next level when it is inductive
//! relative to its own frame. An emptied level means F_i = F_{i+1}: the
//! lemmas above it form an inductive invariant.
//!
//! Levels below the lowest one that gained a lemma since the last round are
//! skipped (as rIC3 does): their lemmas failed to move last time, and
//! retrying them rarely pays. But a lemma added at level j strengthens
//! F_1..F_j, so a lower level's lemmas may move now, and a level that has
//! become equal to the next one is only emptied by retrying it: with the
//! skip alone IC3 never ends on some circuits (a random 4-latch circuit,
//! case 95709 of the differential test, opened thousands of frames with
//! one lemma each). So every round whose top level is a power of two
//! retries all levels, which keeps IC3 complete (a full round at k beyond
//! the number of distinct frames empties a level) at the cost of a
//! logarithmic number of full rounds.
//!
//! Counterexamples to propagation (`Ctp`) strengthen a level so a lemma
//! can move; `Ctp::Stuck` looks for them only on lemmas that already
//! failed to push in an earlier round, since a lemma that fails once often
//! moves later on its own, and every CTP lemma can keep its level from
//! emptying (measured: docs/decisions/counterexamples-to-propagation-measured-off.md
//! and auto-s-second-ic3-counterexamples-to-propagation-of-stuck.md).
//!
//! With `push_witnesses`, a lemma that fails to push keeps the state of
//! its frame that stepped into it. The lemma cannot move while that state
//! stays in the frame, that is while no lemma added since at its level or
//! above excludes the state, and that is checked on the lemmas themselves,
//! without a query. The witness is exact: every latch outside the query's
//! domain is free, so the model's values, those latches read as false,
//! form a real state of the frame (`sat/core/domain.rs`).
//!
//! After propagation, the largest subset of the top level's lemmas that is
//! inductive together with the infinite frame (found by dropping
//! non-inductive lemmas, Houdini-style, for a bounded number of rounds)
//! moves to the infinite frame.

use super::cube::Cube;
use super::domain::{Consecution, Domain, Lift, Target, Want};
use super::{Ctp, Ic3, Interrupted};
use std::time::Instant;

/// Counterexamples to propagation blocked per lemma and round.
const CTP_ATTEMPTS: usize = 3;

/// A state of the frame at `level`, outside a lemma of that level, that
/// steps into the lemma's cube: the lemma cannot move up while the state
/// stays in the frame.
pub(super) struct PushWitness {
    level: usize,
    /// The domain's atoms when found: a refinement may change the abstract
    /// step, so the witness then no longer counts.
    atoms: usize,
    /// The sequence number, in `Ic3::added`, of the first lemma added after
    /// the witness was found.
    since: u64,
    /// The value of every atom, packed.
    state: Vec<u64>,
}

impl PushWitness {
    fn value(&self, atom: usize) -> bool {
        self.state[atom / 64] >> (atom % 64) & 1 == 1
    }

    /// Whether the state lies in `cube`.
    fn in_cube(&self, cube: &Cube) -> bool {
        cube.lits()
            .iter()
            .all(|l| self.value(l.latch()) == l.value())
    }
}

impl<D: Domain> Ic3<D> {
    /// Propagates levels `1..top`; returns the emptied level, if any.
    pub(super) fn propagate(&mut self) -> Result<Option<usize>, Interrupted> {
        let start = Instant::now();
        let top = self.frames.top();
        let mut result = None;
        if self.options.push_witnesses {
            self.keep_live_witnesses();
        }
        let from = match self.options.skip_unchanged_levels && !top.is_power_of_two() {
            true => self.frames.earliest_change.max(1),
            false => 1,
        };
        self.frames.earliest_change = top;
        for level in from..top {
            let mut cubes = self.frames.take(level);
            // Shorter lemmas first: they are the likelier to push and subsume.
            cubes.sort_by_key(|c| c.len());
            let mut stay = Vec::new();
            for (n, cube) in cubes.iter().enumerate() {
                match self.push_lemma(cube, level) {
                    Ok(Some(core)) => {
                        self.stats.propagated += 1;
                        self.add_lemma(core, level + 1);
                    }
                    Ok(None) => stay.push(cube.clone()),
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
        if result.is_none() && self.options.infinite_frame {
            let start = Instant::now();
            let pushed = self.push_to_infinite();
            self.stats.time_infinite += start.elapsed();
            pushed?;
        }
        self.stats.time_propagate += start.elapsed();
        Ok(result)
    }

    /// Drops the witnesses of lemmas that are gone or moved, and the lemmas
    /// of `added` that no witness needs.
    fn keep_live_witnesses(&mut self) {
        let mut old = std::mem::take(&mut self.witnesses);
        for level in 1..=self.frames.top() {
            for cube in self.frames.at(level) {
                if let Some((key, witness)) = old.remove_entry(cube) {
                    if witness.level == level {
                        self.witnesses.insert(key, witness);
                    }
                }
            }
        }
        let now = self.added_dropped + self.added.len() as u64;
        let oldest = self.witnesses.values().map(|w| w.since).min();
        let oldest = oldest.unwrap_or(now);
        self.added.drain(..(oldest - self.added_dropped) as usize);
        self.added_dropped = oldest;
    }

    /// Whether `cube`'s witness at `level` is still a state of that frame:
    /// no lemma added since at `level` or above excludes it.
    fn witness_holds(&self, cube: &Cube, level: usize) -> bool {
        let Some(w) = self.witnesses.get(cube) else {
            return false;
        };
        if w.level != level || w.atoms != self.domain.atoms() {
            return false;
        }
        let from = (w.since - self.added_dropped) as usize;
        (self.added[from..].iter())
            .filter(|(l, _)| *l >= level)
            .all(|(_, lemma)| !w.in_cube(lemma))
    }

    /// Whether lemma `¬cube` of `level` holds at `level + 1`, with the
    /// reduced cube if so. Where [`Ctp`] asks, a counterexample to propagation (a
    /// state of F_level stepping into the cube) that is itself unreachable
    /// within `level` steps is blocked by a lemma at `level`, and the push
    /// is tried again, up to [`CTP_ATTEMPTS`] times (Suda, "Triggered
    /// Clause Pushing for IC3", 2013; rIC3's `--ic3-ctp`).
    fn push_lemma(&mut self, cube: &Cube, level: usize) -> Result<Option<Cube>, Interrupted> {
        // At level 1 a CTP would be blocked against the initial states
        // alone; none is looked for there.
        let ctp = level >= 2
            && match self.options.ctp {
                Ctp::Off => false,
                Ctp::Stuck => self.stuck.contains(cube),
                Ctp::Every => true,
            };
        let witnesses = self.options.push_witnesses && !ctp;
        if witnesses && self.witness_holds(cube, level) {
            self.stats.push_witness_hits += 1;
            return Ok(None);
        }
        let want = match ctp || witnesses {
            true => Want {
                model: true,
                lift: Lift::Nothing,
                next: &[],
            },
            false => Want::NOTHING,
        };
        for _ in 0..=CTP_ATTEMPTS {
            let model = match self.relative_induction(cube, level + 1, want)? {
                Consecution::Inductive(core) => {
                    if ctp {
                        self.stuck.remove(cube);
                    }
                    if witnesses {
                        self.witnesses.remove(cube);
                    }
                    return Ok(Some(core));
                }
                Consecution::Predecessor(model) => model,
            };
            if witnesses {
                let mut state = vec![0u64; model.state.len().div_ceil(64)];
                for (i, _) in model.state.iter().enumerate().filter(|(_, &v)| v) {
                    state[i / 64] |= 1 << (i % 64);
                }
                let witness = PushWitness {
                    level,
                    atoms: self.domain.atoms(),
                    since: self.added_dropped + self.added.len() as u64,
                    state,
                };
                self.witnesses.insert(cube.clone(), witness);
            }
            if self.options.ctp == Ctp::Stuck && !ctp && level >= 2 {
                self.stuck.insert(cube.clone());
            }
            if !ctp {
                break;
            }
            let state = self.lift(&model, Target::Cube(cube), false)?;
            if self.domain.intersects_init(&state)? {
                break;
            }
            let Consecution::Inductive(core) =
                self.relative_induction(&state, level, Want::NOTHING)?
            else {
                break;
            };
            self.stats.ctps += 1;
            let lemma = self.generalize(core, level, 0.0)?;
            self.add_lemma(lemma, level);
        }
        Ok(None)
    }

    /// Moves the top level's largest self-inductive subset (relative to the
    /// infinite frame) to the infinite frame.
    fn push_to_infinite(&mut self) -> Result<(), Interrupted> {
        const ROUNDS: usize = 7;
        let top = self.frames.top();
        let mut candidates: Vec<Cube> = self.frames.at(top).to_vec();
        for round in 0..ROUNDS {
            if candidates.is_empty() {
                return Ok(());
            }
            // The first round asks the top frame's own solver: F_top holds
            // the infinite frame and exactly these candidates (and lemmas
            // they imply), so the question is the one of propagating each
            // candidate one level up, and no solver has to be built. Only
            // when some fail do the later rounds need a solver without them.
            let closed = if round == 0 {
                let mut closed = Vec::with_capacity(candidates.len());
                for cube in &candidates {
                    let answer = self.relative_induction(cube, top + 1, Want::NOTHING)?;
                    closed.push(matches!(answer, Consecution::Inductive(_)));
                }
                closed
            } else {
                (self.domain).closed_under_step(self.frames.infinite(), &candidates)?
            };
            let kept: Vec<Cube> = (candidates.iter().zip(&closed))
                .filter(|&(_, &c)| c)
                .map(|(cube, _)| cube.clone())
                .collect();
            if kept.len() == candidates.len() {
                self.stats.to_infinite += kept.len() as u64;
                for cube in &kept {
                    self.publish(super::exchange::INFINITE, cube);
                }
                self.domain.add_infinite(&kept);
                self.frames.move_to_infinite(kept);
                return Ok(());
            }
            candidates = kept;
        }
        Ok(())
    }
}
