//! Differential test over 2,000 random small circuits (fixed seeds;
//! `INVAR_AIG_RANDOM=N` for a long run, `INVAR_AIG_RANDOM_FROM=M` to start
//! at case M, `INVAR_AIG_RANDOM_TRACE=1` to print each case number, which
//! names a case that does not end):
//! BMC and k-induction (with and without simple paths, on both SAT backends)
//! must agree with each other and with explicit-state breadth-first search,
//! every counterexample must replay on the file-level model, and every proof
//! must pass the independent k-induction checker.

use invar::check::{certificate, invariant, kinduction, replay};
use invar::engines::ic3::exchange::{Exchange, LemmaPool, INFINITE};
use invar::engines::ic3::{self, Cube, Ic3Options, StateLit};
use invar::engines::kind::KindOptions;
use invar::engines::{bmc, itp, kind, scorr, CircuitInvariant, EngineId, Limits, Proof, Verdict};
use invar::formats::aiger::{Aiger, AigerAnd, AigerLatch, Reset};
use invar::ir::aig::{lit_value, Aig, Lit};
use invar::ir::trace::Trace;
use invar::preprocess::prepare::{prepare, PrepareOptions};
use invar::sat::Backend;
use invar::util::budget::Budget;
use invar::util::rng::Rng;
use invar::verify::{self, Answer, Certificate, Model, Request, Witness};
use std::time::Duration;

/// A random file-level circuit in binary order.
fn random_aiger(rng: &mut Rng) -> Aiger {
    random_aiger_of(rng, 8, 30)
}

/// The same with up to `max_latches` latches and `max_ands + 1` gates.
fn random_aiger_of(rng: &mut Rng, max_latches: u64, max_ands: u64) -> Aiger {
    let inputs = rng.below(4) as u32;
    let latches = 1 + rng.below(max_latches) as u32;
    let ands = 2 + rng.below(max_ands) as u32;
    let maxvar = inputs + latches + ands;
    let lit_below = |rng: &mut Rng, var_limit: u32| {
        (2 * rng.below(var_limit as u64 + 1) as u32) | rng.coin() as u32
    };
    let mut a = Aiger {
        maxvar,
        inputs: (1..=inputs).map(|v| 2 * v).collect(),
        ..Aiger::default()
    };
    for k in 0..ands {
        let lhs = 2 * (inputs + latches + 1 + k);
        let x = lit_below(rng, lhs / 2 - 1);
        let y = lit_below(rng, lhs / 2 - 1);
        a.ands.push(AigerAnd {
            lhs,
            rhs0: x.max(y),
            rhs1: x.min(y),
        });
    }
    for k in 0..latches {
        let lit = 2 * (inputs + 1 + k);
        let reset = match rng.below(4) {
            0 => Reset::Uninitialized,
            1 => Reset::One,
            _ => Reset::Zero,
        };
        let next = lit_below(rng, maxvar);
        a.latches.push(AigerLatch { lit, next, reset });
    }
    // Bias bad properties towards the deepest gates, which read the most.
    for _ in 0..1 + rng.below(2) {
        let v = maxvar - rng.below(ands.min(4) as u64) as u32;
        a.bad.push((2 * v) | rng.coin() as u32);
    }
    if rng.below(3) == 0 {
        a.constraints.push(lit_below(rng, maxvar));
    }
    a
}

/// The states reachable from an initial state (constraints holding on
/// every step), as latch bit vectors, in the order first reached; none
/// initial.
fn reachable_states(aig: &Aig) -> Vec<usize> {
    breadth_first(aig, |_, _| None::<()>).1
}

/// A count from the environment variable `name` (a long run), else
/// `default` (the CI share).
fn env_count(name: &str, default: u64) -> u64 {
    (std::env::var(name).ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Length of the shortest counterexample (steps), by breadth-first search.
fn shortest_counterexample(aig: &Aig) -> Option<usize> {
    breadth_first(aig, |v, depth| {
        aig.bad
            .iter()
            .any(|&b| lit_value(v, b))
            .then_some(depth + 1)
    })
    .0
}

/// Breadth-first search from the initial states over the steps whose
/// constraints hold: `step` sees each step's gate values and its depth (0
/// from an initial state) and stops the search with an answer. Returns
/// that answer, if any, and the non-initial states reached until then.
fn breadth_first<T>(
    aig: &Aig,
    mut step: impl FnMut(&[bool], usize) -> Option<T>,
) -> (Option<T>, Vec<usize>) {
    let (l, i) = (aig.latches.len(), aig.inputs.len());
    let bits = |x: usize, n: usize| (0..n).map(|b| x >> b & 1 == 1).collect::<Vec<bool>>();
    let initial = |s: usize| {
        (aig.latches.iter().enumerate())
            .all(|(k, latch)| latch.init.is_none_or(|v| v == (s >> k & 1 == 1)))
    };
    let mut seen: Vec<bool> = (0..1usize << l).map(initial).collect();
    let mut frontier: Vec<usize> = (0..1usize << l).filter(|&s| seen[s]).collect();
    let mut reached = Vec::new();
    let mut depth = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &s in &frontier {
            for x in 0..1usize << i {
                let v = aig.eval(&bits(x, i), &bits(s, l));
                if !aig.constraints.iter().all(|&c| lit_value(&v, c)) {
                    continue;
                }
                if let Some(answer) = step(&v, depth) {
                    return (Some(answer), reached);
                }
                let t = aig.latches.iter().enumerate().fold(0, |acc, (k, latch)| {
                    acc | (lit_value(&v, latch.next) as usize) << k
                });
                if !std::mem::replace(&mut seen[t], true) {
                    next.push(t);
                    reached.push(t);
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    (None, reached)
}

/// Replays `trace` on the file's model; the number of steps up to the first
/// bad state.
fn replayed_steps(a: &Aiger, props: &[usize], trace: &Trace, case: u64) -> usize {
    let init: Vec<Option<bool>> = trace.init.iter().map(|&b| Some(b)).collect();
    let inputs: Vec<Vec<Option<bool>>> = trace
        .inputs
        .iter()
        .map(|v| v.iter().map(|&b| Some(b)).collect())
        .collect();
    match replay::replay(a, props, &init, &inputs) {
        replay::Replay::Reached { step, .. } => step + 1,
        other => panic!("case {case}: trace does not replay: {other:?}"),
    }
}

#[test]
fn engines_agree_with_each_other_and_with_explicit_search() {
    let (mut unsafe_cases, mut proved, mut proved_plain) = (0, 0, 0);
    let mut windowed_longer = 0;
    let (mut kind_certificates, mut kind_shallower_rejected) = (0, 0);
    let mut split_proofs = 0;
    let mut itp_proofs = 0;
    let mut scorr_proofs = 0;
    // `INVAR_AIG_RANDOM=N` runs cases 0..N (the CI share is 2,000: it took 1.1 s, and case 1882 found a bug).
    let cases = env_count("INVAR_AIG_RANDOM", 2000);
    // `INVAR_AIG_RANDOM_FROM=M` starts at case M (a long run in parts).
    let first = env_count("INVAR_AIG_RANDOM_FROM", 0);
    for case in first..cases {
        if std::env::var_os("INVAR_AIG_RANDOM_TRACE").is_some() {
            eprintln!("case {case}");
        }
        let mut rng = Rng::new(1000 + case);
        let file = random_aiger(&mut rng);
        if std::env::var("DUMP_CASE").ok() == Some(case.to_string()) {
            std::fs::write("/tmp/case.aag", invar::formats::aiger::write_ascii(&file)).unwrap();
        }
        let full = file.to_aig();
        let props: Vec<usize> = (0..full.bad.len()).collect();
        let bad: Vec<Lit> = full.bad.clone();
        let options = PrepareOptions {
            simplify: case % 3 != 0,
            fraig: (case % 3 != 2).then_some(Duration::from_secs(5)),
            ..PrepareOptions::default()
        };
        let prepared = prepare(&full, &props, &options);
        let (reduced, restore) = (&prepared.aig, &prepared.restore);
        let truth = shortest_counterexample(&full);
        let bound = (1usize << full.latches.len()) + 1;
        let backend = Backend::ALL[case as usize % Backend::ALL.len()];
        let limits = Limits {
            max_depth: Some(bound),
            budget: Budget::unlimited(),
            backend,
        };

        // BMC, publishing the depths it clears: the base case of auto's
        // split k-induction below.
        let base = kind::SharedBase::default();
        let b = {
            let _run = base.run();
            bmc::check_publishing(
                reduced,
                &limits,
                Some(bmc::FIRST_CONFLICT_LIMIT),
                &base.cleared,
            )
        };
        // BMC whose every question runs out after one conflict, so that it
        // widens its window at once (`engines::bmc`).
        let windowed = bmc::check_with_first_limit(reduced, &limits, Some(1));
        let with_sp = kind::check(
            reduced,
            &KindOptions {
                limits: limits.clone(),
                simple_path: true,
                sparse_steps: false,
            },
        );
        let plain = kind::check(
            reduced,
            &KindOptions {
                limits: limits.clone(),
                simple_path: false,
                sparse_steps: false,
            },
        );
        // Step cases at sparse depths only (auto's option): proofs may come
        // deeper, never wrong.
        let sparse = kind::check(
            reduced,
            &KindOptions {
                limits: limits.clone(),
                simple_path: true,
                sparse_steps: true,
            },
        );
        // auto's split k-induction: step cases at sparse depths prove on
        // the base case BMC cleared above.
        let split = kind::step_cases(
            reduced,
            &KindOptions {
                limits: limits.clone(),
                simple_path: false,
                sparse_steps: true,
            },
            &base,
            &Budget::unlimited(),
            || {},
        );
        // IC3 with its default options and with CTGs off (plain MIC).
        let unbounded = Limits {
            max_depth: None,
            ..limits.clone()
        };
        let ic3_ctg = ic3::check(
            reduced,
            &Ic3Options {
                limits: unbounded.clone(),
                ..Ic3Options::default()
            },
        );
        // Plain MIC also keeps the witnesses of failed pushes (off by
        // default), whose skipped queries must not change the verdict.
        let ic3_plain = ic3::check(
            reduced,
            &Ic3Options {
                limits: unbounded,
                generalization: ic3::Generalization::Down,
                mic_attempts: usize::MAX,
                push_witnesses: true,
                ..Ic3Options::default()
            },
        );
        // IC3 with one solver for all frames (activation literals per level),
        // MIC's literal order without the parent lemma, lemma prediction and
        // counterexamples to propagation (both off by default), and ic3ref's
        // limit of three failed drops in a row.
        let ic3_shared = ic3::check(
            reduced,
            &Ic3Options {
                limits: Limits {
                    max_depth: None,
                    ..limits.clone()
                },
                shared_solver: true,
                parent_lemma: false,
                predict: true,
                ctp: ic3::Ctp::Every,
                mic_attempts: 3,
                ..Ic3Options::default()
            },
        );
        // Interpolation, bounded like k-induction.
        let interpolation = itp::check(reduced, &limits);
        // Signal correspondence (proves or gives up).
        let correspondence = scorr::check(reduced, &limits);
        let engines = [
            &interpolation,
            &correspondence,
            &b,
            &windowed,
            &with_sp,
            &plain,
            &sparse,
            &ic3_ctg,
            &ic3_plain,
            &ic3_shared,
        ];
        for outcome in engines {
            // A circuit proof, checked as its witness circuit on both backends.
            let mut check_circuit_proof = |inv: &CircuitInvariant| {
                let witness = certificate::witness_from_circuit(&full, &bad, inv);
                for checker in [backend, backend.other()] {
                    certificate::check_witness(&full, &witness, checker, &Budget::unlimited())
                        .unwrap_or_else(|e| {
                            panic!("case {case}: {}'s invariant rejected: {e}", outcome.engine)
                        });
                }
                if outcome.engine == EngineId::Scorr {
                    scorr_proofs += 1;
                } else {
                    itp_proofs += 1;
                }
            };
            match (&outcome.verdict, truth) {
                (Verdict::Unsafe(trace), Some(len)) => {
                    let reached = replayed_steps(&file, &props, &restore.trace(trace), case);
                    // BMC and k-induction find the shortest counterexample,
                    // ending in its first bad state. IC3 reopens blocked
                    // obligations one level up, so its chains may be longer
                    // and pass a bad state before their end (case 1882 of a
                    // 10,000-case run: 4 steps, bad after 3, the shortest);
                    // the pipeline cuts them there (verify::check_aiger).
                    if std::ptr::eq(outcome, &windowed) {
                        // A window's model may be bad at a later depth than the
                        // shortest counterexample's, never before its end.
                        assert!(
                            len <= reached && reached == trace.len(),
                            "case {case}: windowed bmc trace of {} steps, bad after {reached}, shortest {len}",
                            trace.len()
                        );
                        windowed_longer += usize::from(reached > len);
                    } else if matches!(
                        outcome.engine,
                        EngineId::Ic3 | EngineId::Ic3Down | EngineId::Itp
                    ) {
                        assert!(
                            len <= reached && reached <= trace.len(),
                            "case {case}: ic3 trace of {} steps, bad after {reached}, shortest {len}",
                            trace.len()
                        );
                    } else {
                        assert_eq!(
                            (trace.len(), reached),
                            (len, len),
                            "case {case}: {} trace is not shortest or passes a bad state",
                            outcome.engine
                        );
                    }
                }
                (Verdict::Unsafe(_), None) => panic!(
                    "case {case}: {} says unsafe, search says safe",
                    outcome.engine
                ),
                (Verdict::Safe(_), Some(_)) => panic!(
                    "case {case}: {} says safe, search finds a counterexample",
                    outcome.engine
                ),
                (Verdict::Safe(Proof::KInduction { k, simple_path }), None) => {
                    let checker = backend.other();
                    kinduction::check(
                        &full,
                        &bad,
                        *k,
                        *simple_path,
                        Some(&prepared.restore.latches),
                        &prepared.facts,
                        checker,
                        &Budget::unlimited(),
                    )
                    .unwrap_or_else(|e| panic!("case {case}: proof rejected: {e}"));
                    if !*simple_path {
                        // Its witness circuit passes Certifaiger's checks on the
                        // circuit as read, and one of depth k−1 passes exactly
                        // when the proof checker accepts depth k−1.
                        let witness =
                            certificate::witness_from_kinduction(&full, &bad, *k, &prepared.facts);
                        certificate::check_witness(&full, &witness, backend, &Budget::unlimited())
                            .unwrap_or_else(|e| {
                                panic!("case {case}: {k}-induction certificate rejected: {e}")
                            });
                        kind_certificates += 1;
                        if *k > 1 {
                            let shallower = certificate::witness_from_kinduction(
                                &full,
                                &bad,
                                k - 1,
                                &prepared.facts,
                            );
                            let accepted = certificate::check_witness(
                                &full,
                                &shallower,
                                backend,
                                &Budget::unlimited(),
                            )
                            .is_ok();
                            let proved = kinduction::check(
                                &full,
                                &bad,
                                k - 1,
                                false,
                                None,
                                &prepared.facts,
                                backend.other(),
                                &Budget::unlimited(),
                            )
                            .is_ok();
                            assert_eq!(
                                accepted,
                                proved,
                                "case {case}: the certificate of depth {} disagrees with the proof checker",
                                k - 1
                            );
                            kind_shallower_rejected += usize::from(!accepted);
                        }
                    }
                }
                (Verdict::Safe(Proof::Invariant(cubes)), None) => {
                    let cubes = prepared.original_invariant(cubes);
                    invariant::check(&full, &bad, &cubes, backend.other(), &Budget::unlimited())
                        .unwrap_or_else(|e| panic!("case {case}: invariant rejected: {e}"));
                    // The witness circuit certifies the first bad property (all
                    // are in its disjunction).
                    let witness = certificate::witness_from_invariant(&full, &bad, &cubes);
                    certificate::check_witness(&full, &witness, backend, &Budget::unlimited())
                        .unwrap_or_else(|e| panic!("case {case}: certificate rejected: {e}"));
                }
                (Verdict::Safe(Proof::Circuit(inv)), None) => {
                    let inv = prepared.original_circuit_invariant(&full, inv);
                    check_circuit_proof(&inv);
                }
                (Verdict::Safe(Proof::Correspondence(repr)), None) => {
                    let inv = prepared.original_correspondence(&full, repr);
                    check_circuit_proof(&inv);
                }
                // Signal correspondence only proves.
                (Verdict::Unknown(_), Some(_)) if outcome.engine == EngineId::Scorr => {}
                (Verdict::Unknown(_), Some(_)) => panic!(
                    "case {case}: {} missed a counterexample within the bound",
                    outcome.engine
                ),
                (Verdict::Unknown(_), None) => {}
            }
        }
        // The split proves what plain k-induction proves (at the next sparse
        // depth, within the bound), never a failing property, and its
        // proofs pass the checker; it finds no counterexample itself.
        match (&split.verdict, &plain.verdict, truth) {
            (Verdict::Safe(Proof::KInduction { k, simple_path }), Verdict::Safe(p), None) => {
                let Proof::KInduction { k: plain_k, .. } = p else {
                    panic!("case {case}: k-induction gave an invariant")
                };
                assert!(
                    k >= plain_k && !simple_path,
                    "case {case}: split k {k}, plain {plain_k}"
                );
                kinduction::check(
                    &full,
                    &bad,
                    *k,
                    false,
                    None,
                    &prepared.facts,
                    backend.other(),
                    &Budget::unlimited(),
                )
                .unwrap_or_else(|e| panic!("case {case}: split proof rejected: {e}"));
                split_proofs += 1;
            }
            (Verdict::Unknown(_), Verdict::Safe(Proof::KInduction { k, .. }), None) => assert!(
                (*k..).find(|&d| kind::sparse_step_depth(d - 1)).unwrap() - 1 > bound,
                "case {case}: split k-induction missed a {k}-induction proof"
            ),
            (Verdict::Unknown(_), _, _) => {}
            (v, _, _) => panic!("case {case}: split k-induction says {v:?}"),
        }
        match truth {
            Some(_) => {
                assert!(
                    matches!(ic3_ctg.verdict, Verdict::Unsafe(_)),
                    "case {case}: IC3 is complete"
                );
                unsafe_cases += 1
            }
            None => {
                assert!(
                    matches!(with_sp.verdict, Verdict::Safe(_)),
                    "case {case}: simple-path k-induction is complete"
                );
                assert!(matches!(b.verdict, Verdict::Unknown(_)));
                assert!(matches!(windowed.verdict, Verdict::Unknown(_)));
                proved += 1;
                proved_plain += matches!(plain.verdict, Verdict::Safe(_)) as usize;
            }
        }
    }
    // The generator must exercise both outcomes.
    assert!(
        unsafe_cases >= 50 && proved >= 50,
        "unsafe {unsafe_cases}, safe {proved}"
    );
    // k-induction certificates were built and checked, and the check is no
    // rubber stamp: shallower ones fail where the proof needs the depth.
    assert!(
        split_proofs >= 50,
        "split k-induction proofs {split_proofs}"
    );
    // Interpolation proves too (its invariants checked above).
    assert!(itp_proofs >= 50, "interpolation proofs {itp_proofs}");
    assert!(
        scorr_proofs >= 10,
        "signal correspondence proofs {scorr_proofs}"
    );
    assert!(
        kind_certificates >= 50 && kind_shallower_rejected >= 5,
        "k-induction certificates {kind_certificates}, shallower rejected {kind_shallower_rejected}"
    );
    eprintln!(
        "unsafe {unsafe_cases}, safe {proved} (plain k-induction proved {proved_plain}); \
         windowed bmc longer than the shortest {windowed_longer} times; \
         {kind_certificates} k-induction certificates, {kind_shallower_rejected} shallower ones rejected; \
         {split_proofs} split k-induction proofs, {itp_proofs} interpolation proofs, \
         {scorr_proofs} signal correspondence proofs"
    );
}

/// A wrong k must be rejected by the proof checker: it cannot be a rubber stamp.
#[test]
fn proof_checker_rejects_wrong_claims() {
    // A 3-bit counter from 0 whose bad state is 5: unsafe, reached at step 5.
    let mut aig = Aig::new();
    let b: Vec<Lit> = (0..3).map(|_| aig.add_latch(Some(false))).collect();
    let n0 = !b[0];
    let n1 = aig.xor(b[1], b[0]);
    let c = aig.and(b[1], b[0]);
    let n2 = aig.xor(b[2], c);
    for (k, n) in [n0, n1, n2].into_iter().enumerate() {
        aig.set_next(k, n);
    }
    let t = aig.and(b[0], !b[1]);
    let five = aig.and(t, b[2]);
    aig.bad = vec![five];
    for k in 1..6 {
        for sp in [false, true] {
            assert!(kinduction::check(
                &aig,
                &[five],
                k,
                sp,
                None,
                &[],
                Backend::Core,
                &Budget::unlimited()
            )
            .is_err());
        }
    }
    // Nor may an invariant that is not one pass: "bit 2 stays 0" holds
    // initially and excludes 5, but is not inductive.
    assert!(invariant::check(
        &aig,
        &[five],
        &[vec![(2, true)]],
        Backend::Cadical,
        &Budget::unlimited()
    )
    .is_err());
    // "bit 0 is 1" excludes an initial state.
    assert!(invariant::check(
        &aig,
        &[five],
        &[vec![(0, false)]],
        Backend::Cadical,
        &Budget::unlimited()
    )
    .is_err());
    // Wrong lemmas are caught before they are assumed: "bit 0 stays 0" is
    // not inductive, and would make the counter trivially safe.
    let claim = kinduction::check(
        &aig,
        &[five],
        1,
        false,
        None,
        &[vec![(0, true)]],
        Backend::Core,
        &Budget::unlimited(),
    );
    assert!(claim.unwrap_err().starts_with("assumed lemmas"));
    // And the engines find it.
    let limits = Limits::default();
    let Verdict::Unsafe(trace) = bmc::check(&aig, &limits).verdict else {
        panic!("counter reaches 5")
    };
    assert_eq!(trace.len(), 6);
}

/// IC3 must end on every finite circuit. Case 95709 of the random test
/// (kept as `formats/aiger/ic3_skipped_levels.aag`) is safe by explicit
/// search; without latch simplification IC3 opened thousands of frames
/// with one lemma each, as propagation skipped the levels below the last
/// change for ever (`engines/ic3/propagate.rs`). Now each backend proves it
/// within a few frames, and the invariant checks.
#[test]
fn ic3_ends_when_propagation_skips_unchanged_levels() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("formats/aiger/ic3_skipped_levels.aag");
    let full = invar::formats::aiger::read_file(&path).unwrap().to_aig();
    assert_eq!(
        shortest_counterexample(&full),
        None,
        "explicit search: safe"
    );
    let options = PrepareOptions {
        simplify: false,
        fraig: None,
        ..PrepareOptions::default()
    };
    let prepared = prepare(&full, &[0], &options);
    for &backend in Backend::ALL {
        let limits = Limits {
            max_depth: Some(64),
            budget: Budget::unlimited(),
            backend,
        };
        let outcome = ic3::check(
            &prepared.aig,
            &Ic3Options {
                limits,
                ..Ic3Options::default()
            },
        );
        let Verdict::Safe(Proof::Invariant(cubes)) = &outcome.verdict else {
            panic!("{backend:?}: {:?}", outcome.verdict);
        };
        let cubes = prepared.original_invariant(cubes);
        invariant::check(
            &full,
            &full.bad,
            &cubes,
            backend.other(),
            &Budget::unlimited(),
        )
        .unwrap_or_else(|e| panic!("{backend:?}: invariant rejected: {e}"));
        assert!(
            outcome.stats.depth <= 8,
            "{backend:?}: {} frames",
            outcome.stats.depth
        );
    }
}

/// `auto` on eight threads (on a machine of two cores), through the
/// pipeline that replays every trace and checks every proof outside the
/// engine: four IC3 searches share lemmas (`engines::ic3::exchange`), and
/// every verdict must be explicit-state search's. 300 circuits of up to 12
/// latches in CI; `INVAR_AIG_RANDOM_JOBS=N` for a long run.
#[test]
fn auto_on_eight_jobs_agrees_with_explicit_search() {
    let cases = env_count("INVAR_AIG_RANDOM_JOBS", 300);
    let (mut safe, mut unsafe_, mut imported) = (0, 0, 0);
    for case in 0..cases {
        let mut rng = Rng::new(500_000 + case);
        let file = random_aiger_of(&mut rng, 12, 60);
        let full = file.to_aig();
        let truth = shortest_counterexample(&full);
        let request = Request {
            jobs: 8,
            budget: Budget::with_timeout(Duration::from_secs(60)),
            ..Request::new((0..full.bad.len()).collect())
        };
        let run = verify::check(&Model::Circuit(file), &request, &mut |_| {})
            .unwrap_or_else(|e| panic!("case {case}: {e}"));
        // The answering search's lemmas taken from the others (few: these
        // circuits are decided within milliseconds).
        imported += run.stats.ic3.as_ref().map_or(0, |s| s.imported);
        match (&run.answer, truth) {
            (Answer::Safe { .. }, None) => safe += 1,
            (Answer::Unsafe { .. }, Some(_)) => unsafe_ += 1,
            (answer, truth) => panic!(
                "case {case}: auto on 8 jobs answered {answer:?}, explicit search's shortest counterexample {truth:?}"
            ),
        }
    }
    eprintln!(
        "{cases} circuits: {safe} safe, {unsafe_} unsafe, all as explicit search says; \
         {imported} lemmas taken from other searches by the answering IC3"
    );
    assert!(cases < 50 || (safe > cases / 10 && unsafe_ > cases / 10));
}

/// IC3 taking lemmas from a shared pool (`engines::ic3::exchange`) stays
/// sound whatever the pool holds: here the lemmas of another IC3 search of
/// the same circuit (valid) and cubes of reachable states (invalid),
/// published before it starts. Its verdicts must be explicit-state
/// search's, its traces replay and its invariants pass the checker; and it
/// must both take and refuse lemmas. (A build that took them without its
/// query passed this test too: the bogus lemmas stayed below the level
/// IC3 converged on. The query is what keeps F_i ∧ T ⇒ F_{i+1}', which
/// IC3's convergence argument needs; every proof is checked outside the
/// engine besides.) 1,000 circuits of up to 12 latches
/// (`INVAR_AIG_RANDOM` sets the count here too).
#[test]
fn ic3_taking_shared_lemmas_stays_sound_even_with_bogus_ones() {
    let cases = env_count("INVAR_AIG_RANDOM", 1000);
    let (mut imported, mut rejected, mut published) = (0, 0, 0);
    for case in 0..cases {
        let mut rng = Rng::new(700_000 + case);
        let file = random_aiger_of(&mut rng, 12, 60);
        let full = file.to_aig();
        let props: Vec<usize> = (0..full.bad.len()).collect();
        let prepared = prepare(&full, &props, &PrepareOptions::default());
        let reduced = &prepared.aig;
        let truth = shortest_counterexample(&full);
        let backend = Backend::ALL[case as usize % Backend::ALL.len()];
        let limits = Limits {
            max_depth: None,
            budget: Budget::with_timeout(Duration::from_secs(60)),
            backend,
        };
        let pool = LemmaPool::new();
        // Another search's lemmas, all valid.
        ic3::check(
            reduced,
            &Ic3Options {
                limits: limits.clone(),
                generalization: ic3::Generalization::Down,
                exchange: Some(Exchange::new(&pool, 1)),
                ..Ic3Options::default()
            },
        );
        // Bogus lemmas: cubes of one to three latches of a reachable state
        // that is not initial (each excludes that state, so none is
        // valid), at levels 2 and 3 or the infinite frame (half of them).
        let reachable = reachable_states(reduced);
        let bogus = Exchange::new(&pool, 2);
        for _ in 0..16 {
            let Some(&state) = reachable.get(rng.below(reachable.len() as u64 + 1) as usize) else {
                continue;
            };
            let lits: Vec<StateLit> = (0..1 + rng.below(3))
                .map(|_| {
                    let latch = rng.below(reduced.latches.len() as u64) as usize;
                    StateLit::new(latch, state >> latch & 1 == 1)
                })
                .collect();
            let excludes_init = lits.iter().any(|l| {
                reduced.latches[l.latch()]
                    .init
                    .is_some_and(|v| v != l.value())
            });
            if !excludes_init {
                continue;
            }
            let level = match rng.below(4) {
                0 | 1 => INFINITE,
                l => l as usize,
            };
            bogus.publish(level, &Cube::new(lits));
            published += 1;
        }
        let outcome = ic3::check(
            reduced,
            &Ic3Options {
                limits,
                exchange: Some(Exchange::new(&pool, 0)),
                ..Ic3Options::default()
            },
        );
        let stats = outcome.stats.ic3.as_ref().expect("IC3's counters");
        (imported, rejected) = (imported + stats.imported, rejected + stats.import_rejected);
        match (&outcome.verdict, truth) {
            (Verdict::Unsafe(trace), Some(len)) => {
                let reached = replayed_steps(&file, &props, &prepared.restore.trace(trace), case);
                assert!(len <= reached, "case {case}: bad after {reached}, shortest {len}");
            }
            (Verdict::Safe(Proof::Invariant(cubes)), None) => {
                let cubes = prepared.original_invariant(cubes);
                let bad: Vec<Lit> = full.bad.clone();
                invariant::check(&full, &bad, &cubes, backend.other(), &Budget::unlimited())
                    .unwrap_or_else(|e| panic!("case {case}: invariant rejected: {e}"));
            }
            (verdict, truth) => panic!(
                "case {case}: IC3 with shared lemmas says {verdict:?}, explicit search's shortest counterexample {truth:?}"
            ),
        }
    }
    eprintln!(
        "{cases} circuits: {published} bogus lemmas published; {imported} shared lemmas taken, {rejected} refused"
    );
    assert!(cases < 100 || (imported > 0 && rejected > 0));
}

/// `--property all` (`verify::check_each`): each property of a random
/// circuit with two to six bad properties gets exactly one answer, and it
/// is explicit-state search's for that property alone; a counterexample
/// replays on the file's model to that property, and a proof's certificate
/// passes the certificate checker against that property alone. Grouped and
/// one after another; proved properties' invariants assumed for the others
/// except on every third circuit (a proof that assumed some is certified
/// like any other, on the model as read). 300 circuits of up to 10 latches
/// in CI (`INVAR_AIG_RANDOM_MULTI=N` for a long run).
#[test]
fn properties_decided_together_agree_with_explicit_search_one_by_one() {
    let cases = env_count("INVAR_AIG_RANDOM_MULTI", 300);
    let (mut safe, mut unsafe_, mut grouped_runs, mut certified) = (0, 0, 0u64, 0);
    let mut assuming = 0;
    for case in 0..cases {
        let mut rng = Rng::new(700_000 + case);
        let mut file = random_aiger_of(&mut rng, 10, 50);
        while file.bad.len() < 2 + rng.below(5) as usize {
            let v = 1 + rng.below(file.maxvar as u64) as u32;
            file.bad.push((2 * v) | rng.coin() as u32);
        }
        let full = file.to_aig();
        let props: Vec<usize> = (0..full.bad.len()).collect();
        let truth: Vec<Option<usize>> = (props.iter())
            .map(|&q| {
                let mut one = full.clone();
                one.bad = vec![full.bad[q]];
                shortest_counterexample(&one)
            })
            .collect();
        let model = Model::Circuit(file.clone());
        for together in [true, false] {
            let mut request = Request {
                budget: Budget::with_timeout(Duration::from_secs(60)),
                certificate: true,
                ..Request::new(props.clone())
            };
            request.tuning.properties_together = together;
            // Groups split in cone order on every other circuit.
            request.tuning.properties_cone_order = case % 2 == 0;
            request.tuning.properties_assume = case % 3 != 0;
            let mut answers: Vec<Option<Answer>> = vec![None; props.len()];
            let mut runs = 0u64;
            verify::check_each(
                &model,
                &request,
                &mut |line| {
                    // A proof of several properties at once.
                    runs += (line.contains("hold together") && line.contains(',')) as u64
                        + line.contains("same invariant") as u64;
                },
                &mut |settled, run, assumed| {
                    assert!(
                        assumed.iter().all(|p| !settled.contains(p)),
                        "case {case}: a proof of {settled:?} assumed itself ({assumed:?})"
                    );
                    assert!(
                        assumed.is_empty() || request.tuning.properties_assume,
                        "case {case}: assumed {assumed:?} with assumptions off"
                    );
                    if !assumed.is_empty() {
                        assuming += 1;
                    }
                    for &q in settled {
                        assert!(
                            answers[q].replace(run.answer.clone()).is_none(),
                            "case {case}: b{q} answered twice"
                        );
                        if let Some(Ok(Certificate::Circuit(witness))) = &run.certificate {
                            let mut one = full.clone();
                            one.bad = vec![full.bad[q]];
                            let budget = Budget::unlimited();
                            certificate::check_witness(&one, witness, Backend::Cadical, &budget)
                                .unwrap_or_else(|e| panic!("case {case}: b{q}'s certificate: {e}"));
                            certified += 1;
                        }
                    }
                },
            )
            .unwrap_or_else(|e| panic!("case {case}: {e}"));
            grouped_runs += runs;
            for (q, answer) in answers.into_iter().enumerate() {
                match (answer, truth[q]) {
                    (Some(Answer::Safe { .. }), None) => safe += 1,
                    (Some(Answer::Unsafe { witness: Witness::Bit(trace), properties }), Some(len)) => {
                        assert_eq!(properties, vec![q], "case {case}");
                        let steps = replayed_steps(&file, &[q], &trace, case);
                        assert_eq!(steps, trace.len(), "case {case}: b{q}'s trace runs past it");
                        assert!(steps >= len, "case {case}: b{q} shorter than the shortest");
                        unsafe_ += 1;
                    }
                    (answer, truth) => panic!(
                        "case {case} (together: {together}): b{q} answered {answer:?}, explicit search's shortest counterexample {truth:?}"
                    ),
                }
            }
        }
    }
    eprintln!(
        "{cases} circuits: {safe} safe and {unsafe_} unsafe answers, all as explicit search says; \
         {grouped_runs} proofs of several properties at once; {certified} certificates checked; \
         {assuming} proofs assumed earlier ones"
    );
    assert!(cases < 50 || (safe > cases / 5 && unsafe_ > cases / 5 && grouped_runs > cases / 20));
    assert!(cases < 50 || assuming > cases / 10);
    assert!(
        certified > safe * 3 / 4,
        "{certified} of {safe} proofs certified"
    );
}
