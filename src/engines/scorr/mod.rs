//! Signal correspondence: the latches and gates of a circuit that are equal
//! (or complementary, or constant) in every reachable state, for every input,
//! proved by induction together (van Eijk, "Sequential Equivalence Checking
//! Based on Structural Similarities", IEEE TCAD 2000; Mishchenko, Case,
//! Brayton, Jang, "Scalable and Scalably-Verifiable Sequential Synthesis",
//! ICCAD 2008, whose speculative reduction this uses; ABC's `scorr`).
//!
//! Random simulation from the initial states proposes classes of nodes with
//! equal signatures (up to complement). Then, as a greatest fixpoint:
//!
//! - base case: each member equals its class's representative in every
//!   initial state, for every input, in rounds as below but in one solver
//!   (no assumptions: a split re-encodes only what it changed, and a check
//!   whose query did not change is not made again);
//! - inductive step, in rounds: frame 0 is speculatively reduced (every node
//!   is read as its representative of the round's start, which assumes every
//!   equality in frame 0), frame 1 is the circuit itself, fed with frame 0's
//!   next states; each member is checked against its representative in
//!   frame 1. A model is a frame-1 state and input that separates the pair:
//!   simulating it splits every class it separates. A round without a split
//!   is the fixpoint: every equality follows from all of them one step
//!   earlier, and all hold initially.
//!
//! Invariant constraints (AIGER 1.9) restrict both: a simulated run ends
//! at the first step that breaks one, and every query assumes them, in the
//! frame under check through the unreduced circuit (see
//! `Frames::assume_constraints`). The equalities then hold wherever a run
//! that keeps the constraints goes, for inputs that keep them, which is
//! all a bad state needs (one counts only where the constraints hold).
//!
//! The equalities are an inductive invariant over latches and inputs (a
//! Certifaiger witness reads them as "bad ∨ ¬Eq"), stated over the checked
//! model's own nodes (see `preprocess::prepare::invariant_over`). When the bad property falls into the
//! constant-false class, the invariant proves it. A check that runs out of
//! its conflict budget waits for the end of its round, where it may take
//! longer; if it runs out there too, its member leaves its class: that only
//! weakens the candidate set, never the proof.
//!
//! Signal correspondence as a prover: when the equalities that
//! the search below proves inductive together make the bad
//! property constantly false, they are the proof (van Eijk, TCAD 2000;
//! Mishchenko et al., ICCAD 2008). HWMCC's industrial circuits (`cal226`,
//! `cal228`, `cal229`) reduce to nothing this way, while IC3 and
//! interpolation find no invariant in minutes: their invariants are
//! thousands of equalities between gates, which clauses over latches state
//! badly.
//!
//! The proof is the equalities; the invariant they make is stated over the
//! checked model's own gates (an equality between gates may read the
//! current input) and checked apart from this engine through its witness
//! circuit (`check::certificate`). Under
//! invariant constraints it holds where they do, which is what the
//! witness checks assume (Certifaiger's C_W in every frame).

mod classes;
mod frames;
mod search;
mod simulation;

use super::{interrupted_reason, Limits, Outcome, Proof, Stats, Verdict};
use crate::ir::aig::{map_lit, Aig, Lit};
use crate::ir::simulate::word_of;
use crate::util::budget::Budget;
use crate::util::rng::Rng;
use classes::Classes;
use frames::Mode;
use search::Search;
use simulation::{constraint_lanes, initial_lanes, simulate, Patterns, Signatures};
use std::time::{Duration, Instant};

/// Frames of the initial random simulation (64 runs in parallel).
const SIM_FRAMES: usize = 32;
/// Conflicts per SAT check before it waits for the end of the round (where
/// it may take longer before its member leaves its class).
const CHECK_CONFLICTS: u64 = 1000;

/// What the correspondence computation did.
#[derive(Clone, Debug, Default)]
pub struct ScorrStats {
    /// Candidate nodes (latches and gates) in classes after simulation.
    pub candidates: usize,
    /// Proved equalities (class members other than representatives).
    pub proved: usize,
    /// Latches among them.
    pub latches: usize,
    /// Inductive rounds.
    pub rounds: usize,
    /// SAT checks, refuted ones and undecided ones.
    pub checks: u64,
    /// Checks answered by a separating state.
    pub refuted: u64,
    /// Checks that ran out of conflicts at first and waited for the end
    /// of their round.
    pub deferred: u64,
    /// Checks that ran out of conflicts there too (their members left
    /// their classes).
    pub undecided: u64,
    /// Checks answered by structural hashing alone.
    pub structural: u64,
    /// Time spent.
    pub time: Duration,
}

/// Inductive equalities of a circuit's nodes.
#[derive(Clone, Debug)]
pub struct Correspondence {
    /// Each node's representative (itself when alone), with the phase that
    /// makes them equal: node v equals `repr[v]` in every reachable state.
    pub repr: Vec<Lit>,
    /// What it took.
    pub stats: ScorrStats,
}

impl Correspondence {
    /// Whether `lit` is false in every reachable state.
    pub fn is_false(&self, lit: Lit) -> bool {
        map_lit(&self.repr, lit) == Lit::FALSE
    }
}

/// Proves the property by signal correspondence, or says why not.
pub fn check(aig: &Aig, limits: &Limits) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome(super::EngineId::Scorr, limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let verdict = match correspondence(aig, &limits.budget) {
        None => Verdict::Unknown(interrupted_reason(&limits.budget)),
        Some(c) if c.is_false(aig.bad[0]) => Verdict::Safe(Proof::Correspondence(c.repr)),
        Some(c) => Verdict::Unknown(format!(
            "signal correspondence proved {} equalities ({} of latches) in {} rounds; \
             the property is not among them",
            c.stats.proved, c.stats.latches, c.stats.rounds
        )),
    };
    let stats = Stats {
        time: start.elapsed(),
        ..Stats::default()
    };
    let outcome = Outcome {
        verdict,
        engine: super::EngineId::Scorr,
        // Its SAT checks run on invar's core: the proof's check must not.
        backend: crate::sat::Backend::Core,
        stats,
    };
    super::sabotage(aig, outcome)
}

/// The inductive correspondences of `aig`, or `None` if `budget` ran out
/// first. Under invariant constraints, they hold in every state a run that
/// keeps the constraints reaches, for every input that keeps them there
/// (AIGER 1.9: a bad state counts only where the constraints hold).
pub fn correspondence(aig: &Aig, budget: &Budget) -> Option<Correspondence> {
    search(aig, budget, true, CHECK_CONFLICTS)
}

/// The fixpoint; without `step`, the candidates after the base case only
/// (for tests: equalities that a checker must reject when they fail).
fn search(aig: &Aig, budget: &Budget, step: bool, conflicts: u64) -> Option<Correspondence> {
    let start = Instant::now();
    let mut rng = Rng::new(0x5c0e_e1a7);
    // Random runs from the initial states. A run whose step breaks an
    // invariant constraint ends there (the step is no behaviour of the
    // circuit: its lane takes another lane's values, which splits nothing)
    // and starts again from an initial state.
    let mut sigs = Signatures { words: Vec::new() };
    let mut latches = initial_lanes(aig, &mut rng);
    for _ in 0..SIM_FRAMES {
        let inputs: Vec<u64> = aig.inputs.iter().map(|_| rng.next_u64()).collect();
        let mut word = simulate(aig, &inputs, &latches);
        let lanes = constraint_lanes(aig, &word);
        let restart = initial_lanes(aig, &mut rng);
        latches = (aig.latches.iter().zip(restart))
            .map(|(l, init)| word_of(&word, l.next) & lanes | init & !lanes)
            .collect();
        if lanes == 0 {
            continue;
        }
        if lanes != u64::MAX {
            let copy = lanes.trailing_zeros();
            for w in &mut word {
                let fill = 0u64.wrapping_sub(*w >> copy & 1);
                *w = *w & lanes | fill & !lanes;
            }
        }
        sigs.words.push(word);
    }
    if sigs.words.is_empty() {
        // No random step kept the constraints: no candidates.
        return Some(Correspondence {
            repr: (0..aig.num_nodes() as u32)
                .map(|v| Lit::new(crate::ir::aig::Var(v), false))
                .collect(),
            stats: ScorrStats {
                time: start.elapsed(),
                ..ScorrStats::default()
            },
        });
    }
    // A reachable state (run 0's last), for latches a model leaves open.
    let reachable: Vec<bool> = latches.iter().map(|w| w & 1 == 1).collect();
    let classes = Classes::from_signatures(aig, &sigs);
    let mut search = Search {
        aig,
        stats: ScorrStats {
            candidates: classes.members.iter().map(Vec::len).sum(),
            ..ScorrStats::default()
        },
        classes,
        sigs,
        patterns: Patterns::new(),
        reachable,
        rng,
        conflicts,
    };
    // The base case holds for every refinement of the classes it proved
    // (members of a class stay equal initially when it splits).
    if !search.rounds(Mode::Initial, budget) || (step && !search.rounds(Mode::Step, budget)) {
        return None;
    }
    let Search {
        classes, mut stats, ..
    } = search;
    stats.proved = (0..aig.num_nodes())
        .filter(|&v| classes.repr[v].var().0 as usize != v)
        .count();
    stats.latches = (aig.latches.iter())
        .filter(|l| classes.repr[l.var.0 as usize].var() != l.var)
        .count();
    stats.time = start.elapsed();
    Some(Correspondence {
        repr: classes.repr,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::aig::{identity_images, lit_value};
    use crate::preprocess::prepare::invariant_over;

    /// A random circuit with redundant state: two copies of one small
    /// machine, some latches of the second fed by the first's gates, and a
    /// bad property that compares them (a sequential miter) or is random;
    /// `constrained`: with an invariant constraint over gates of both
    /// copies, true in most steps.
    fn random_circuit(rng: &mut Rng, constrained: bool) -> Aig {
        let mut aig = Aig::new();
        let inputs: Vec<Lit> = (0..1 + rng.below(3)).map(|_| aig.add_input()).collect();
        let n = 1 + rng.below(4) as usize;
        let inits: Vec<Option<bool>> = (0..n)
            .map(|_| (rng.below(5) != 0).then(|| rng.coin()))
            .collect();
        let mut copies = Vec::new();
        for _ in 0..2 {
            let latches: Vec<Lit> = inits.iter().map(|&i| aig.add_latch(i)).collect();
            copies.push(latches);
        }
        let shape: Vec<(usize, bool, usize, bool)> = (0..3 + rng.below(12) as usize)
            .map(|k| {
                let pick = |rng: &mut Rng| rng.below((inputs.len() + n + 1 + k) as u64) as usize;
                (pick(rng), rng.coin(), pick(rng), rng.coin())
            })
            .collect();
        // A 6-bit counter from 0: its top value comes after the random
        // simulation's 32 steps, so candidates that hold only before it
        // must fall to the inductive step.
        let counter: Vec<Lit> = (0..6).map(|_| aig.add_latch(Some(false))).collect();
        let mut carry = Lit::TRUE;
        for (i, &bit) in counter.iter().enumerate() {
            let next = aig.xor(bit, carry);
            carry = aig.and(carry, bit);
            aig.set_next(2 * n + i, next);
        }
        let top = (counter.iter()).fold(Lit::TRUE, |acc, &b| aig.and(acc, b));
        let mut outs = Vec::new();
        for (c, latches) in copies.iter().enumerate() {
            let mut lits: Vec<Lit> = inputs.iter().chain(latches).copied().collect();
            lits.push(top);
            for &(a, pa, b, pb) in &shape {
                // The second copy builds some gates the other way round.
                let (x, y) = (lits[a].xor(pa), lits[b].xor(pb));
                let g = if c == 1 && rng.coin() {
                    let t = aig.and(!x, !y);
                    let u = aig.or(t, !x);
                    aig.and(!u, y)
                } else {
                    aig.and(x, y)
                };
                lits.push(g);
            }
            outs.push(lits);
        }
        for c in 0..2 {
            for i in 0..n {
                let k = rng.below(outs[c].len() as u64) as usize;
                let next = if rng.below(8) == 0 {
                    outs[1 - c][k]
                } else {
                    outs[c][k]
                };
                aig.set_next(c * n + i, next);
            }
        }
        let pick = |rng: &mut Rng, c: usize| outs[c][rng.below(outs[c].len() as u64) as usize];
        if constrained {
            let (x, y) = (pick(rng, 0), pick(rng, 1));
            let c = aig.or(x, y);
            aig.constraints.push(c);
        }
        aig.bad = vec![if rng.coin() {
            let k = rng.below(outs[0].len() as u64) as usize;
            aig.xor(outs[0][k], outs[1][k])
        } else {
            let (x, y) = (pick(rng, 0), pick(rng, 1));
            aig.and(x, y)
        }];
        aig
    }

    /// The values of `aig`'s nodes for state `s` and each input that keeps
    /// the invariant constraints.
    fn valuations<'a>(aig: &'a Aig, s: &'a [bool]) -> impl Iterator<Item = Vec<bool>> + 'a {
        (0..1u32 << aig.inputs.len()).filter_map(move |bits| {
            let ins: Vec<bool> = (0..aig.inputs.len()).map(|i| bits >> i & 1 == 1).collect();
            let v = aig.eval(&ins, s);
            (aig.constraints.iter().all(|&c| lit_value(&v, c))).then_some(v)
        })
    }

    /// Every state of `aig` (latch values) that a run keeping the invariant
    /// constraints reaches, by explicit search.
    fn reachable(aig: &Aig) -> Vec<Vec<bool>> {
        let nl = aig.latches.len();
        let free: Vec<usize> = (0..nl).filter(|&i| aig.latches[i].init.is_none()).collect();
        let mut seen = std::collections::HashSet::new();
        let mut stack = Vec::new();
        for bits in 0..1u32 << free.len() {
            let mut s: Vec<bool> = aig.latches.iter().map(|l| l.init == Some(true)).collect();
            for (j, &i) in free.iter().enumerate() {
                s[i] = bits >> j & 1 == 1;
            }
            if seen.insert(s.clone()) {
                stack.push(s);
            }
        }
        while let Some(s) = stack.pop() {
            for v in valuations(aig, &s) {
                let t: Vec<bool> = aig.latches.iter().map(|l| lit_value(&v, l.next)).collect();
                if seen.insert(t.clone()) {
                    stack.push(t);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// Each proved equality holds in every reachable state for every input
    /// (explicit search is the oracle), and a property found constant is
    /// never reached; the generator gives the search something to prove
    /// (measured: 2,265 equalities and 84 properties without constraints,
    /// 3,075 and 109 with).
    fn proved_correspondences_hold(seed: u64, constrained: bool, conflicts: u64) -> ScorrStats {
        let mut rng = Rng::new(seed);
        let (mut proved, mut properties) = (0, 0);
        let mut total = ScorrStats::default();
        for case in 0..200 {
            let aig = random_circuit(&mut rng, constrained);
            let c = search(&aig, &Budget::unlimited(), true, conflicts).expect("no budget");
            total.deferred += c.stats.deferred;
            total.undecided += c.stats.undecided;
            let states = reachable(&aig);
            for s in &states {
                for v in valuations(&aig, s) {
                    for node in 0..aig.num_nodes() {
                        let x = lit_value(&v, Lit::new(crate::ir::aig::Var(node as u32), false));
                        assert_eq!(
                            x,
                            lit_value(&v, c.repr[node]),
                            "case {case}: node {node} differs from {:?} in a reachable state",
                            c.repr[node]
                        );
                    }
                }
            }
            proved += c.stats.proved;
            if c.is_false(aig.bad[0]) {
                properties += 1;
            }
        }
        eprintln!("{proved} equalities, {properties} properties");
        assert!(
            proved > 1000 && properties > 20,
            "{proved} equalities, {properties} properties"
        );
        total
    }

    /// A base case that simulation cannot settle: AND chains over many
    /// uninitialised latches that keep their values (random runs rarely
    /// set enough of them, so the chain's upper gates all look constant),
    /// in a random order and polarity. The base case refutes the lowest
    /// such gate, the split changes how every gate above it reads, and
    /// each of those, proved in the first round through the gate below
    /// read as the constant, must be checked again: kept, it would be an
    /// equality that fails initially yet passes the step (the chain keeps
    /// its value). Explicit search over every initial state is the oracle.
    #[test]
    fn base_case_checks_again_what_a_split_changes() {
        let mut rng = Rng::new(0xba5e);
        let mut refuted = 0;
        for case in 0..40 {
            let mut aig = Aig::new();
            let n = 9 + rng.below(4) as usize;
            let latches: Vec<Lit> = (0..n).map(|_| aig.add_latch(None)).collect();
            for (i, &l) in latches.iter().enumerate() {
                aig.set_next(i, l);
            }
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut chain = latches[order[0]];
            let mut gates = Vec::new();
            for &i in &order[1..] {
                chain = aig.and(chain, latches[i].xor(rng.below(8) == 0));
                gates.push(chain);
            }
            aig.bad = vec![chain];
            let c = search(&aig, &Budget::unlimited(), true, CHECK_CONFLICTS).expect("no budget");
            refuted += c.stats.refuted;
            for s in reachable(&aig) {
                let v = aig.eval(&[], &s);
                for &g in &gates {
                    let r = map_lit(&c.repr, g);
                    assert_eq!(
                        lit_value(&v, g),
                        lit_value(&v, r),
                        "case {case}: gate {g:?} differs from {r:?} in an initial state"
                    );
                }
            }
        }
        // Measured: 199 refutations over the 40 chains.
        assert!(
            refuted >= 40,
            "the base case refuted only {refuted} candidates"
        );
    }

    #[test]
    fn proved_correspondences_hold_in_every_reachable_state() {
        proved_correspondences_hold(11, false, CHECK_CONFLICTS);
    }

    /// The same when checks run out of conflicts (one each at first): the
    /// deferred ones are decided at the end of the round or drop their
    /// member, and what is left still holds (measured: 2,136 equalities
    /// and 83 properties, 2,694 checks deferred, 154 of them undecided).
    #[test]
    fn proved_correspondences_hold_when_checks_run_out_of_conflicts() {
        let stats = proved_correspondences_hold(11, false, 1);
        eprintln!("{} deferred, {} undecided", stats.deferred, stats.undecided);
        assert!(
            stats.undecided > 0 && stats.deferred > 10 * stats.undecided,
            "{stats:?}"
        );
    }

    /// The same under an invariant constraint: states reached by runs that
    /// keep it, inputs that keep it.
    #[test]
    fn proved_correspondences_hold_under_constraints() {
        proved_correspondences_hold(13, true, CHECK_CONFLICTS);
    }

    /// The candidates after the base case alone, where explicit search
    /// finds one false in a reachable state: their invariant circuit must
    /// fail the certificate checks (on both backends), though it holds
    /// initially.
    #[test]
    fn the_certificate_check_rejects_correspondences_that_are_not_inductive() {
        use crate::check::certificate::{check_witness, witness_from_circuit};
        use crate::sat::Backend;
        let mut rng = Rng::new(12);
        let mut rejected = 0;
        for case in 0..300 {
            // A third under an invariant constraint.
            let aig = random_circuit(&mut rng, case % 3 == 2);
            let c = search(&aig, &Budget::unlimited(), false, CHECK_CONFLICTS).expect("no budget");
            let states = reachable(&aig);
            let holds = states.iter().all(|s| {
                valuations(&aig, s).all(|v| {
                    (0..aig.num_nodes()).all(|n| {
                        lit_value(&v, Lit::new(crate::ir::aig::Var(n as u32), false))
                            == lit_value(&v, c.repr[n])
                    })
                })
            });
            // Checked against "no bad" only where the invariant excludes it.
            if !c.is_false(aig.bad[0]) {
                continue;
            }
            let witness = witness_from_circuit(
                &aig,
                &aig.bad,
                &invariant_over(&aig, &aig, &identity_images(&aig), &c.repr),
            );
            for backend in [Backend::Core, Backend::Cadical] {
                let verdict = check_witness(&aig, &witness, backend, &Budget::unlimited());
                if !holds {
                    assert!(
                        verdict.is_err(),
                        "case {case}: a false invariant was accepted"
                    );
                    rejected += 1;
                }
            }
        }
        // (The fixpoint's own proofs pass: tests/differential.rs.)
        assert!(rejected >= 20, "{rejected} rejected");
    }
}
