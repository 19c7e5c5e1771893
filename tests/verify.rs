//! The library's pipeline (`invar::verify`) used directly, as a program
//! embedding invar would: every answer comes back checked, with the
//! evidence or the replayed witness, and nothing is printed. Expected
//! verdicts are the hand-computed ones of `formats/*/README.md`.

use invar::formats::{aiger, vmt};
use invar::util::budget::Budget;
use invar::verify::{self, Answer, Certificate, Engine, Evidence, Model, Request, Witness};
use std::path::Path;
use std::time::Duration;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn request(engine: Engine) -> Request {
    Request {
        engine,
        budget: Budget::with_timeout(Duration::from_secs(30)),
        ..Request::new(vec![0])
    }
}

#[test]
fn circuits_answer_with_checked_evidence_and_replayed_witnesses() {
    // resets.aag: safe (2-inductive).
    let model = Model::Circuit(aiger::read_file(&root().join("formats/aiger/resets.aag")).unwrap());
    let mut lines = Vec::new();
    for engine in [Engine::Ic3, Engine::Kind, Engine::Auto] {
        let asked = Request {
            certificate: true,
            ..request(engine)
        };
        let run = verify::check(&model, &asked, &mut |l| lines.push(l.to_string())).unwrap();
        match (&run.answer, engine) {
            (
                Answer::Safe {
                    evidence: Evidence::Invariant(_),
                    ..
                },
                Engine::Ic3 | Engine::Auto,
            ) => {}
            // Under `auto`, signal correspondence (its share of the second
            // core first) may win the race with a checked invariant circuit.
            (
                Answer::Safe {
                    evidence: Evidence::Circuit(_),
                    ..
                },
                Engine::Auto,
            ) => {}
            // 2-inductive as read; 1-inductive once simplification has
            // found the constant latch (a fact the checker verifies).
            (
                Answer::Safe {
                    evidence: Evidence::KInduction { k: 1 | 2, .. },
                    ..
                },
                Engine::Kind,
            ) => {}
            other => panic!("{engine:?}: {other:?}"),
        }
        // Each proof comes with its witness circuit.
        assert!(
            matches!(run.certificate, Some(Ok(Certificate::Circuit(_)))),
            "{engine:?}: {:?}",
            run.certificate
        );
    }
    assert!(
        lines.iter().any(|l| l.contains("checked with")),
        "{lines:?}"
    );
    // and.aag: unsafe at step 0 with inputs 11.
    let model = Model::Circuit(aiger::read_file(&root().join("formats/aiger/and.aag")).unwrap());
    let run = verify::check(&model, &request(Engine::Bmc), &mut |_| {}).unwrap();
    match run.answer {
        Answer::Unsafe {
            witness: Witness::Bit(trace),
            properties,
        } => {
            assert_eq!(trace.inputs, vec![vec![true, true]]);
            assert_eq!(properties, vec![0]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn word_level_models_go_to_the_engine_their_sorts_need() {
    // lia_counter.vmt: x ≥ 0 holds and is 1-inductive; an Int model goes to
    // the word-level engine whatever engine the request names for circuits.
    let ts = vmt::read_file(&root().join("formats/vmt/lia_counter.vmt")).unwrap();
    let model = Model::System(ts.clone());
    let run = verify::check(&model, &request(Engine::Smt), &mut |_| {}).unwrap();
    assert_eq!(run.engine_name(), "smt");
    match run.answer {
        Answer::Safe {
            evidence: Evidence::WordKInduction { k: 1 },
            checker,
        } => assert!(!checker.is_empty()),
        other => panic!("{other:?}"),
    }
    // `auto` runs IC3+IA beside k-induction: either proof, checked.
    let run = verify::check(&model, &request(Engine::Auto), &mut |_| {}).unwrap();
    match (run.engine_name(), run.answer) {
        (
            "smt",
            Answer::Safe {
                evidence: Evidence::WordKInduction { k: 1 },
                ..
            },
        ) => {}
        (
            "ic3ia",
            Answer::Safe {
                evidence:
                    Evidence::WordInvariant {
                        clauses,
                        store,
                        invariant,
                    },
                ..
            },
        ) => {
            let text = invar::check::smt_proof::certificate_function(&ts, &store, invariant);
            assert!(clauses >= 1 && text.contains('x'), "{text}")
        }
        (engine, other) => panic!("{engine}: {other:?}"),
    }
    // x counts from 0; x < 2 fails in the third state: a replayed word trace.
    let bounded = Request {
        max_depth: Some(3),
        ..request(Engine::Smt)
    };
    let unsafe_ts = vmt::read_str(
        "(test)",
        "(declare-fun x () Int)\n(declare-fun x.n () Int)\n\
         (define-fun .x () Int (! x :next x.n))\n\
         (define-fun .i () Bool (! (= x 0) :init true))\n\
         (define-fun .t () Bool (! (= x.n (+ x 1)) :trans true))\n\
         (define-fun .p () Bool (! (< x 2) :invar-property 0))\n",
    )
    .unwrap();
    let run = verify::check(&Model::System(unsafe_ts), &bounded, &mut |_| {}).unwrap();
    match run.answer {
        Answer::Unsafe {
            witness: Witness::Word(trace),
            ..
        } => assert_eq!(trace.len(), 3, "x = 0, 1, 2"),
        other => panic!("{other:?}"),
    }
}

/// IC3 may return a chain longer than the shortest counterexample that
/// meets a bad state before its end (an obligation reopened one level up);
/// on `ic3_long_chain.aag` (shortest: 3 steps, BMC's) the pipeline answered
/// with an internal error. Now it cuts the trace at the first bad state: 3
/// steps, as BMC finds, replayed on the file.
#[test]
fn ic3_traces_are_cut_at_their_first_bad_state() {
    let path = root().join("formats/aiger/ic3_long_chain.aag");
    let model = Model::Circuit(aiger::read_file(&path).unwrap());
    let mut lengths = Vec::new();
    for engine in [Engine::Bmc, Engine::Ic3] {
        let run = verify::check(&model, &request(engine), &mut |_| {}).unwrap();
        match run.answer {
            Answer::Unsafe {
                witness: Witness::Bit(t),
                ..
            } => lengths.push(t.len()),
            other => panic!("{engine:?}: {other:?}"),
        }
    }
    assert_eq!(lengths, vec![3, 3]);
}
