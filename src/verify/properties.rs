//! Several properties of one model decided together (`--property all`).
//!
//! Property grouping as in Cabodi, Nocco, "Optimized Model Checking of
//! Multiple Properties", DATE 2011, and ABC's `pdr -a`: the properties
//! still open are checked as one disjunction, which one run proves for all
//! at once; a counterexample settles the properties it reaches and the rest
//! of the group goes on; a group that its slice of time does not decide is
//! split in two for the next round, with a longer slice for each half, so a
//! hard property costs the others at most a share of the time.
//!
//! - On an AIGER model, the preprocessing (constant and equivalent latches,
//!   SAT sweeping) runs once for all the properties first: each property
//!   it reduces to constant false holds by its facts, checked as an
//!   inductive invariant that excludes it. On HWMCC'13's multi-property
//!   circuits these are most of the properties (12,964 of 6s355's 13,356).
//! - On an AIGER model, after the first round, BMC asks for all open
//!   properties at once on one unrolling, each model settling the
//!   properties it reaches, while counterexamples keep coming (ABC's
//!   `bmc3 -a` does this alone): on circuits where many properties fail
//!   (`bob12m14m`: 70 of 106), each costs one question instead of one run.
//! - A counterexample of an AIGER model is replayed on the model for every
//!   property still open: each one it reaches gets the trace cut at the
//!   first step that reaches it.
//! - A proof that is an inductive invariant over the latches is asked, by
//!   the checker's own encoding, which open properties it also excludes;
//!   those hold by the same invariant (Cabodi and Nocco's reuse of
//!   invariants).
//! - With `tuning.properties_cone_order`, groups are split in the order of
//!   their cones' min-hash fingerprints, so a half holds properties whose
//!   cones overlap (measured without gain on HWMCC'13's circuits: off).
//! - With `tuning.properties_assume` (off: measured without gain on
//!   HWMCC'13's circuits), on an AIGER model, the invariant of every
//!   property proved (clauses over the latches) is assumed while the others
//!   are checked: its clauses over a run's cone become
//!   constraints of the reduced circuit, which cut no reachable state since
//!   every reachable state satisfies them. A proof found so is inductive
//!   only together with what it assumed, so its evidence, check and
//!   certificate include the assumed invariants whole; each answer names
//!   the properties whose proofs it assumed. Properties not yet proved are
//!   never assumed (that would be circular).
//!
//! Every answer passes the pipeline's checks before it is reported, and is
//! reported as soon as it is known.

use super::{check, circuit, Answer, Evidence, Log, Model, Request, Run, Witness};
use crate::check::{invariant, replay};
use crate::engines::{bmc, EngineId, Limits};
use crate::formats::aiger::Aiger;
use crate::ir::aig::{Aig, Lit};
use crate::ir::coi;
use crate::ir::trace::Trace;
use crate::sat::Backend;
use std::cell::Cell;
use std::collections::{BTreeSet, HashSet};
use std::time::{Duration, Instant};

/// The first round's slice when the run has no deadline; each round
/// doubles it.
const UNBOUNDED_SLICE: Duration = Duration::from_secs(10);

/// Where [`check_each`] hands each answer: the properties it settles, the
/// run, and the properties whose proofs it assumed.
pub type Report<'a> = &'a mut dyn FnMut(&[usize], &Run, &[usize]);

/// No group's slice is shorter: preprocessing alone takes a while.
const MIN_SLICE: Duration = Duration::from_millis(500);

/// Decides each of `request.properties` of `model` and hands each answer
/// to `report` as it comes: the properties it settles and the run that
/// gave it (a proof settles several at once, and with
/// `request.certificate` its certificate covers every one of them; a
/// counterexample settles one, cut at its first bad step) and the
/// properties whose proofs it assumed (none for a counterexample). A
/// property left undecided when the budget ends is reported unknown. With
/// `tuning.properties_together` off, the properties are decided one after
/// another, each with what is left of the budget.
pub fn check_each(
    model: &Model,
    request: &Request,
    log: Log,
    report: Report,
) -> Result<(), String> {
    let budget = &request.budget;
    // An AIGER model's circuit, reset functions lowered, as the pipeline
    // checks proofs on it.
    let lowered = match model {
        Model::Circuit(aiger) => Some((aiger, aiger.to_aig().without_resets())),
        _ => None,
    };
    let mut assumed = Assumed {
        on: lowered.is_some() && request.tuning.properties_assume,
        ..Assumed::default()
    };
    let one = |group: Vec<usize>, slice: Option<Duration>, assumed: &Assumed| Request {
        properties: group,
        // The portfolio stops its budget once a verdict is in, which must
        // not stop the next group's run.
        budget: match slice {
            Some(s) => budget.child().narrowed(s),
            None => budget.child(),
        },
        assumed: assumed.cubes.clone(),
        ..request.clone()
    };
    if !request.tuning.properties_together {
        for (k, &p) in request.properties.iter().enumerate() {
            if budget.expired() {
                report(
                    &request.properties[k..],
                    &Run::unknown(budget.reason().into()),
                    &[],
                );
                break;
            }
            let run = check(model, &one(vec![p], None, &assumed), log)?;
            report(&[p], &run, assumed.used(&run));
            assumed.add(&[p], &run);
        }
        return Ok(());
    }
    let mut open: BTreeSet<usize> = request.properties.iter().copied().collect();
    // First, those the preprocessing of all of them settles (on HWMCC'13's
    // multi-property circuits, most: their bad signals read latches that
    // are constant in every reachable state).
    if let (Some((_, full)), true) = (&lowered, open.len() > 1) {
        // At most half the time: where it runs out, the groups' runs
        // prepare their own cones.
        let share = budget
            .deadline()
            .map(|d| d.saturating_duration_since(Instant::now()) / 2);
        let (settled, mut run) = circuit::settled_by_preparation(
            full,
            &request.properties,
            &one(Vec::new(), share, &assumed),
            log,
        )?;
        if !settled.is_empty() {
            for q in &settled {
                open.remove(q);
            }
            certify(&lowered, &settled, &mut run, request);
            // Not assumed: these facts are what each run's preprocessing
            // finds again over its own cone.
            report(&settled, &run, &[]);
        }
    }
    let mut groups: Vec<Vec<usize>> = vec![in_cone_order(&lowered, &open, request)];
    let mut round = 0u32;
    let mut bmc_done = false;
    while !groups.is_empty() && !budget.expired() {
        round += 1;
        // After the first round, BMC of every open property at once (unless
        // a counterexample started it already).
        if round == 2 && !bmc_done {
            bmc_done = true;
            bmc_phase(&lowered, request, &mut open, log, report)?;
            groups.retain_mut(|g| {
                g.retain(|q| open.contains(q));
                !g.is_empty()
            });
            if groups.is_empty() || budget.expired() {
                break;
            }
        }
        // A round takes a quarter of the time left (all of it once every
        // group is a single property), shared evenly by its groups.
        let slice = budget.deadline().map_or(
            UNBOUNDED_SLICE.saturating_mul(1 << (round - 1).min(16)),
            |d| {
                let left = d.saturating_duration_since(Instant::now());
                let round_time = if groups.iter().all(|g| g.len() == 1) {
                    left
                } else {
                    left / 4
                };
                (round_time / groups.len() as u32).max(MIN_SLICE)
            },
        );
        log(&format!(
            "properties: round {round}, {} open in {} groups, {:.2}s each",
            open.len(),
            groups.len(),
            slice.as_secs_f64()
        ));
        let mut next = Vec::new();
        for group in groups {
            let mut group: Vec<usize> = group.into_iter().filter(|p| open.contains(p)).collect();
            // The group's slice, for every run it takes: each run has a
            // budget of its own, since a portfolio stops its budget once
            // it has a verdict.
            let end = Instant::now() + slice;
            while !group.is_empty() {
                let left = end.saturating_duration_since(Instant::now());
                if budget.expired() || left.is_zero() {
                    next.push(group);
                    break;
                }
                let started = Instant::now();
                let asked = one(group.clone(), Some(left), &assumed);
                let run = check(model, &asked, log)?;
                match &run.answer {
                    Answer::Safe { evidence, .. } => {
                        let used = assumed.used(&run).to_vec();
                        log(&format!(
                            "properties {} hold together ({}, {:.2}s){}",
                            describe(&group),
                            run.engine_name(),
                            started.elapsed().as_secs_f64(),
                            match used.as_slice() {
                                [] => String::new(),
                                _ => format!(", assuming the proofs of {}", describe(&used)),
                            }
                        ));
                        let also = reuse_invariant(&lowered, evidence, &group, &open, &asked);
                        let mut run = run.clone();
                        if !also.is_empty() {
                            log(&format!(
                                "properties {} hold by the same invariant",
                                describe(&also)
                            ));
                            group.extend(also);
                            certify(&lowered, &group, &mut run, request);
                        }
                        for q in &group {
                            open.remove(q);
                        }
                        report(&group, &run, &used);
                        assumed.add(&group, &run);
                        group.clear();
                    }
                    Answer::Unsafe {
                        witness,
                        properties,
                    } => {
                        let reached = reached_by(model, witness, properties, &open);
                        log(&format!(
                            "properties {} fail on one counterexample of {} steps ({}, {:.2}s)",
                            describe(&reached.iter().map(|r| r.0).collect::<Vec<_>>()),
                            witness.len(),
                            run.engine_name(),
                            started.elapsed().as_secs_f64()
                        ));
                        if reached.is_empty() {
                            return Err(format!(
                                "internal error: a counterexample of properties {} reaches none of them on replay; no verdict",
                                describe(&group)
                            ));
                        }
                        for (q, witness) in reached {
                            open.remove(&q);
                            report(
                                &[q],
                                &Run {
                                    answer: Answer::Unsafe {
                                        witness,
                                        properties: vec![q],
                                    },
                                    ..run.clone()
                                },
                                &[],
                            );
                        }
                        // Where one property fails, others often do: BMC of
                        // all of them finds each with one question on one
                        // unrolling, not one run.
                        if !bmc_done {
                            bmc_done = true;
                            bmc_phase(&lowered, request, &mut open, log, report)?;
                        }
                        group.retain(|q| open.contains(q));
                    }
                    Answer::Unknown(_) | Answer::Unconfirmed(_) => {
                        if group.len() > 1 {
                            let second = group.split_off(group.len() / 2);
                            next.push(group);
                            next.push(second);
                        } else {
                            next.push(group);
                        }
                        break;
                    }
                }
            }
        }
        groups = next;
    }
    if !open.is_empty() {
        let open: Vec<usize> = open.into_iter().collect();
        report(&open, &Run::unknown(budget.reason().into()), &[]);
    }
    Ok(())
}

/// The invariants of the properties proved so far, which later runs assume
/// (`Request::assumed`): the union of their clauses, so itself an
/// inductive invariant, and the properties they prove.
#[derive(Default)]
struct Assumed {
    /// Whether proofs are assumed at all (AIGER models, with
    /// `tuning.properties_assume`).
    on: bool,
    /// The clauses, as cubes to exclude over the circuit's latches.
    cubes: Vec<Vec<(usize, bool)>>,
    /// The same, for telling clauses already assumed.
    known: HashSet<Vec<(usize, bool)>>,
    /// The properties whose proofs they are.
    proved: Vec<usize>,
}

impl Assumed {
    /// Adds the invariant of `run`, a proof of `props` over the latches.
    fn add(&mut self, props: &[usize], run: &Run) {
        let (
            true,
            Answer::Safe {
                evidence: Evidence::Invariant(cubes),
                ..
            },
        ) = (self.on, &run.answer)
        else {
            return;
        };
        for cube in cubes {
            let mut cube = cube.clone();
            cube.sort_unstable();
            if self.known.insert(cube.clone()) {
                self.cubes.push(cube);
            }
        }
        self.proved.extend_from_slice(props);
        self.proved.sort_unstable();
    }

    /// The properties whose proofs `run`, a proof found under the current
    /// assumptions, assumed (all of them: its evidence carries them).
    fn used(&self, run: &Run) -> &[usize] {
        match run.answer {
            Answer::Safe { .. } => &self.proved,
            _ => &[],
        }
    }
}

/// BMC of the open properties of an AIGER model (`lowered`: the model and
/// its circuit, reset functions lowered) together ([`bmc::each_bad`]) while
/// the last counterexample (or the start) came within a sixteenth of the
/// time left (as ABC's `-G`, a gap since the last counterexample), for at
/// most half of it: each counterexample is replayed for every open
/// property. Nothing for other models, or for one property.
fn bmc_phase(
    lowered: &Option<(&Aiger, Aig)>,
    request: &Request,
    open: &mut BTreeSet<usize>,
    log: Log,
    report: Report,
) -> Result<(), String> {
    let (Some((aiger, full)), true) = (lowered, open.len() > 1) else {
        return Ok(());
    };
    let share = request.budget.deadline().map_or(UNBOUNDED_SLICE, |d| {
        d.saturating_duration_since(Instant::now()) / 4
    });
    let props: Vec<usize> = open.iter().copied().collect();
    let bads: Vec<Lit> = props.iter().map(|&q| full.bad[q]).collect();
    // A circuit of L latches has a shortest counterexample of at most 2^L
    // steps: deeper, the unrolling only grows (tiny circuits reach millions
    // of frames in a second).
    let states = 1usize
        .checked_shl(full.latches.len() as u32)
        .unwrap_or(usize::MAX);
    let limits = Limits {
        max_depth: Some(request.max_depth.unwrap_or(usize::MAX).min(states)),
        budget: request.budget.child().narrowed(share.saturating_mul(2)),
        backend: request.sat.unwrap_or(Backend::Cadical),
    };
    let (started, latches) = (Instant::now(), aiger.latches.len());
    let last_found = Cell::new(started);
    let go_on = || last_found.get().elapsed() < share / 4;
    let mut failure = None;
    let depth = bmc::each_bad(full, &bads, &limits, &go_on, &mut |k, mut trace| {
        last_found.set(Instant::now());
        let q = props[k];
        if failure.is_some() || !open.contains(&q) {
            return;
        }
        trace.init.truncate(latches);
        let reached = sweep(aiger, &trace, open);
        if !reached.iter().any(|r| r.0 == q) {
            failure = Some(format!(
                "internal error: BMC's counterexample of b{q} does not replay; no verdict"
            ));
            return;
        }
        log(&format!(
            "properties {} fail on one counterexample of {} steps (bmc of all, {:.2}s)",
            describe(&reached.iter().map(|r| r.0).collect::<Vec<_>>()),
            trace.len(),
            started.elapsed().as_secs_f64()
        ));
        for (p, witness) in reached {
            open.remove(&p);
            let run = Run {
                answer: Answer::Unsafe {
                    witness,
                    properties: vec![p],
                },
                engine: Some(EngineId::Bmc),
                stats: Default::default(),
                certificate: None,
            };
            report(&[p], &run, &[]);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    log(&format!(
        "bmc of all: {} open, none with a counterexample of up to {depth} steps ({:.2}s)",
        open.len(),
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// With `request.certificate`, builds `run`'s certificate anew for all of
/// `props` of an AIGER model (`lowered`: the model and its circuit, reset
/// functions lowered) from its invariant, which excludes each of them (as
/// the pipeline built the first for its own group alone).
fn certify(lowered: &Option<(&Aiger, Aig)>, props: &[usize], run: &mut Run, request: &Request) {
    let (Some((aiger, full)), Answer::Safe { evidence, .. }, true) =
        (lowered, &run.answer, request.certificate)
    else {
        return;
    };
    let bad: Vec<Lit> = props.iter().map(|&q| full.bad[q]).collect();
    run.certificate = Some(super::certificate::of_circuit(
        &aiger.to_aig(),
        &bad,
        evidence,
    ));
}

/// The properties `open` of an AIGER model (`lowered`: the model and its
/// circuit, reset functions lowered) ordered by the fingerprints of their
/// cones, so that the halves a group is split into hold properties whose
/// cones overlap (with `tuning.properties_cone_order`; else, and for other
/// models, in order).
fn in_cone_order(
    lowered: &Option<(&Aiger, Aig)>,
    open: &BTreeSet<usize>,
    request: &Request,
) -> Vec<usize> {
    let mut order: Vec<usize> = open.iter().copied().collect();
    let (Some((_, full)), true) = (lowered, request.tuning.properties_cone_order) else {
        return order;
    };
    let roots: Vec<Lit> = order.iter().map(|&q| full.bad[q]).collect();
    // Enough steps for the cones that matter; deeper chains of latches
    // leave the fingerprint of a cone in part.
    let signatures = coi::cone_signatures(full, &roots, 64);
    let mut keyed: Vec<_> = signatures.into_iter().zip(order).collect();
    keyed.sort();
    order = keyed.into_iter().map(|(_, q)| q).collect();
    order
}

/// `p0..p9` style list of properties, for logs.
fn describe(props: &[usize]) -> String {
    match props {
        [] => "none".into(),
        [p] => format!("b{p}"),
        _ if props.len() <= 6 => props
            .iter()
            .map(|p| format!("b{p}"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => format!(
            "b{}, b{}, … b{} ({})",
            props[0],
            props[1],
            props[props.len() - 1],
            props.len()
        ),
    }
}

/// The open properties besides `group` that a checked invariant over the
/// latches of an AIGER model's `lowered` circuit also excludes (none for
/// other models).
fn reuse_invariant(
    lowered: &Option<(&Aiger, Aig)>,
    evidence: &Evidence,
    group: &[usize],
    open: &BTreeSet<usize>,
    request: &Request,
) -> Vec<usize> {
    let (Some((_, full)), Evidence::Invariant(cubes)) = (lowered, evidence) else {
        return Vec::new();
    };
    let others: Vec<usize> = open
        .iter()
        .copied()
        .filter(|q| !group.contains(q))
        .collect();
    if others.is_empty() {
        return others;
    }
    let bad: Vec<Lit> = others.iter().map(|&q| full.bad[q]).collect();
    let budget = request.budget.child();
    match invariant::excluded(full, &bad, cubes, Backend::Cadical, &budget) {
        Ok(excluded) => (others.into_iter().zip(excluded))
            .filter_map(|(q, e)| e.then_some(q))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The open properties a replayed counterexample reaches, each with the
/// trace cut at the first step that reaches it. A word-level trace
/// settles the properties its run named.
fn reached_by(
    model: &Model,
    witness: &Witness,
    properties: &[usize],
    open: &BTreeSet<usize>,
) -> Vec<(usize, Witness)> {
    let (Model::Circuit(aiger), Witness::Bit(trace)) = (model, witness) else {
        return (properties.iter())
            .filter(|q| open.contains(q))
            .map(|&q| (q, witness.clone()))
            .collect();
    };
    sweep(aiger, trace, open)
}

/// Replays `trace` on `aiger` watching the properties in `open`, again and
/// again from the start without those already reached.
fn sweep(aiger: &Aiger, trace: &Trace, open: &BTreeSet<usize>) -> Vec<(usize, Witness)> {
    let mut watched: Vec<usize> = open.iter().copied().collect();
    let mut out = Vec::new();
    while !watched.is_empty() {
        let replay::Replay::Reached { step, properties } =
            replay::replay_trace(aiger, &watched, trace)
        else {
            break;
        };
        let cut = Trace {
            init: trace.init.clone(),
            inputs: trace.inputs[..=step].to_vec(),
        };
        for &q in &properties {
            out.push((q, Witness::Bit(cut.clone())));
        }
        watched.retain(|q| !properties.contains(q));
    }
    out
}
