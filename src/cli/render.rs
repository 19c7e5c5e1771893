//! The answer of `check` in the conventions of the field, one function per
//! convention over a checked [`Run`]: HWMCC (AIGER: `0`/`1`/`2`, the
//! property, an aigsim witness), BTOR2 (`sat` with a witness, `unsat`,
//! `unknown`), VMT and DimSpec (`safe`, `unsafe`, `unknown`, as ic3ia), and
//! SV-COMP for C (`true`, `false`, `unknown`, with the trace); or one JSON
//! object (`--json`) for any of them. Also the statistics under `-v`.

use super::json::JsonObject;
use super::svcomp;
use invar::formats::btor2;
use invar::formats::vmt;
use invar::formats::witness::write_aiger_witness;
use invar::verify::{Answer, Evidence, Format, Model, Run, Witness};
use std::time::Instant;

/// How an answer is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Convention {
    /// HWMCC's results and aigsim witnesses.
    Hwmcc,
    /// BTOR2 witnesses.
    Btor2,
    /// `safe`/`unsafe`/`unknown`, the trace after `unsafe` if `witness`.
    Vmt {
        /// `--witness`.
        witness: bool,
    },
    /// SV-COMP's result words (`false(unreach-call)` if `words`), `true`
    /// or `false` otherwise, each `false` followed by the trace.
    Svcomp {
        /// `--svcomp`.
        words: bool,
    },
}

impl Convention {
    /// The convention of `format`'s answers.
    pub fn of(format: Format, witness: bool, words: bool) -> Convention {
        match format {
            Format::Aiger => Convention::Hwmcc,
            // A design read at word level (`check` passes Aiger when the
            // bit level is asked).
            Format::Btor2 | Format::Verilog => Convention::Btor2,
            Format::Vmt | Format::Dimspec => Convention::Vmt { witness },
            Format::C => Convention::Svcomp { words },
        }
    }

    /// The text of an unknown answer for `props`, or for liveness property
    /// `justice`.
    pub fn unknown(self, props: &[usize], justice: Option<usize>) -> String {
        match self {
            Convention::Hwmcc => format!("2\n{}\n.\n", props_text(props, justice)),
            _ => "unknown\n".into(),
        }
    }
}

/// The properties of an HWMCC answer line: `b0b3`, or `j1` for justice
/// property 1.
pub fn props_text(props: &[usize], justice: Option<usize>) -> String {
    match justice {
        Some(j) => format!("j{j}"),
        None => props.iter().map(|p| format!("b{p}")).collect(),
    }
}

/// What `check` prints for one checked run: its exit code and its text
/// (`--json`: one object).
pub struct Rendered {
    /// Exit code.
    pub code: i32,
    /// The text.
    pub text: String,
}

/// How the answers of one `check` are written: the convention or JSON, the
/// file's name as given, and when the run started (JSON's `time`).
#[derive(Copy, Clone)]
pub struct Output<'a> {
    /// The input's convention.
    pub convention: Convention,
    /// `--json`.
    pub json: bool,
    /// The model's file, as given.
    pub file: &'a str,
    /// When the run started.
    pub start: Instant,
    /// The justice property decided, if one is (JSON names it, and the
    /// step its lasso loops back to).
    pub justice: Option<usize>,
    /// An unknown answer's reason is not written to stderr (it was, for
    /// another property of the same run).
    pub reason_said: bool,
}

impl Output<'_> {
    /// The answer of `run` on `model` for properties `props`. An unknown
    /// answer's reason goes to stderr (the conventions have no room for
    /// it); `unknown_prefix` goes before it.
    pub fn answer(
        &self,
        model: &Model,
        props: &[usize],
        run: &Run,
        unknown_prefix: &str,
    ) -> Result<Rendered, String> {
        answer(self, model, props, run, unknown_prefix)
    }

    /// The text of an unknown answer for `props`, and why: the
    /// convention's, or a JSON object with the reason and, if an engine
    /// ran, its counters. The reason goes to stderr.
    pub fn unknown(&self, props: &[usize], reason: &str, run: Option<&Run>) -> String {
        unknown(self, props, reason, run)
    }
}

/// [`Output::answer`].
fn answer(
    out: &Output,
    model: &Model,
    props: &[usize],
    run: &Run,
    unknown_prefix: &str,
) -> Result<Rendered, String> {
    let Output {
        convention, json, ..
    } = *out;
    Ok(match &run.answer {
        Answer::Unsafe {
            witness,
            properties,
        } => {
            let (counterexample, trace_key) =
                unsafe_text(convention, model, properties, out.justice, witness)?;
            let text = if json {
                let mut o = summary(out, "unsafe", properties, Some(run));
                if let Convention::Svcomp { .. } = convention {
                    o.string("sv_comp", "false");
                }
                if let (Model::Program(p), Witness::Word(trace)) = (model, witness) {
                    o.string("violated", p.violated(trace));
                }
                if let Some(j) = out.justice {
                    o.number("loop_start", loop_start(model, j, witness)?);
                }
                o.number("steps", witness.len())
                    .string(trace_key, &counterexample);
                o.finish()
            } else {
                match convention {
                    Convention::Svcomp { words: true } => {
                        let property = match (model, witness) {
                            (Model::Program(p), Witness::Word(trace)) => p.violated(trace),
                            _ => "unreach-call",
                        };
                        format!("false({property})\n{counterexample}")
                    }
                    Convention::Svcomp { words: false } => format!("false\n{counterexample}"),
                    _ => counterexample,
                }
            };
            Rendered {
                code: super::EXIT_UNSAFE,
                text,
            }
        }
        Answer::Safe { .. } => {
            let text = if json {
                let mut o = safe_object(out, props, run);
                if let Convention::Svcomp { .. } = convention {
                    o.string("sv_comp", "true");
                }
                o.finish()
            } else {
                match convention {
                    Convention::Hwmcc => format!("0\n{}\n.\n", props_text(props, out.justice)),
                    Convention::Btor2 => "unsat\n".into(),
                    Convention::Vmt { .. } => "safe\n".into(),
                    Convention::Svcomp { .. } => "true\n".into(),
                }
            };
            Rendered {
                code: super::EXIT_SAFE,
                text,
            }
        }
        Answer::Unknown(reason) | Answer::Unconfirmed(reason) => Rendered {
            code: super::EXIT_UNKNOWN,
            text: unknown(out, props, &format!("{unknown_prefix}{reason}"), Some(run)),
        },
    })
}

/// The counterexample in `convention` (without the answer word of VMT and
/// SV-COMP), and the JSON key it goes under. A lasso of liveness property
/// `justice` is named `j<N>`; its loop is implicit, as in HWMCC's
/// witnesses: the last step leads back to an earlier one.
fn unsafe_text(
    convention: Convention,
    model: &Model,
    reached: &[usize],
    justice: Option<usize>,
    lasso: &Witness,
) -> Result<(String, &'static str), String> {
    Ok(match (convention, model, lasso) {
        (Convention::Hwmcc, _, Witness::Bit(trace)) => (
            write_aiger_witness(&props_text(reached, justice), trace),
            "witness",
        ),
        (Convention::Btor2, Model::System(ts), Witness::Word(words)) => {
            let claim = match justice {
                Some(j) => format!("j{j}"),
                None => (reached.iter().map(|p| format!("b{p}")))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            (btor2::witness::write_witness(ts, &claim, words), "witness")
        }
        (Convention::Vmt { witness }, Model::System(ts), Witness::Word(words)) => {
            let mut text = match witness {
                true => format!("unsafe\n{}", vmt::write_trace(ts, words)),
                false => "unsafe\n".into(),
            };
            if let (true, Some(j)) = (witness, justice) {
                let start = loop_start(model, j, lasso)?;
                text += &format!(";; loop: the last step leads back to step {start}\n");
            }
            (text, "witness")
        }
        (Convention::Svcomp { .. }, Model::Program(p), Witness::Word(words)) => {
            (svcomp::c_trace(p, words), "trace")
        }
        _ => return Err("internal error: a trace not on the model's own terms".into()),
    })
}

/// The step that the last step of `lasso`, a counterexample of liveness
/// property `justice` of `model`, leads back to (found by replaying it).
pub fn loop_start(model: &Model, justice: usize, lasso: &Witness) -> Result<usize, String> {
    let start = match (model, lasso) {
        (Model::Circuit(aiger), Witness::Bit(trace)) => {
            invar::check::replay::replay_lasso(aiger, justice, &trace.init, &trace.inputs)
        }
        (Model::System(ts), Witness::Word(words)) => {
            invar::check::word::replay_lasso(ts, justice, words)
        }
        _ => Err("a lasso not on the model's own terms".into()),
    };
    start.map_err(|why| format!("internal error: the lasso does not replay ({why})"))
}

/// [`Output::unknown`].
fn unknown(out: &Output, props: &[usize], reason: &str, run: Option<&Run>) -> String {
    // The answer's convention has no room for the reason; stderr does.
    if !out.reason_said {
        eprintln!("invar: unknown: {reason}");
    }
    if out.json {
        let mut o = summary(out, "unknown", props, run);
        o.string("reason", reason);
        o.finish()
    } else {
        out.convention.unknown(props, out.justice)
    }
}

/// The `--json` object of a SAFE verdict, to be extended or finished.
fn safe_object(out: &Output, props: &[usize], run: &Run) -> JsonObject {
    let mut o = summary(out, "safe", props, Some(run));
    if let Answer::Safe { evidence, checker } = &run.answer {
        match evidence {
            Evidence::KInduction { k, simple_path, .. } => {
                o.number("k", k).boolean("simple_path", *simple_path);
            }
            Evidence::WordKInduction { k } => {
                o.number("k", k);
            }
            Evidence::WordInvariant { clauses, .. } => {
                o.number("invariant_clauses", clauses);
            }
            Evidence::Invariant(cubes) => {
                o.number("invariant_clauses", cubes.len());
            }
            Evidence::Circuit(inv) => {
                o.number("invariant_gates", inv.circuit.num_ands());
            }
        }
        o.string("proof_checked_by", checker);
    }
    o
}

/// The `--json` fields every answer has: the file, the verdict, the
/// properties and, if an engine ran, its counters.
fn summary(out: &Output, verdict: &str, props: &[usize], run: Option<&Run>) -> JsonObject {
    let mut o = JsonObject::default();
    o.string("file", out.file).string("verdict", verdict);
    if let Some(j) = out.justice {
        o.number("justice", j);
    }
    let Some(run) = run else {
        return o;
    };
    let on_smt = run.engine.is_some_and(|e| e.on_smt());
    let calls = if on_smt { "solver_calls" } else { "sat_calls" };
    o.numbers("properties", props)
        .string("engine", run.engine_name())
        .number("depth", run.stats.depth)
        .number(calls, run.stats.sat.calls);
    let time = run.stats.sat.time;
    match run.engine {
        Some(invar::engines::EngineId::Smt) => {}
        Some(_) if on_smt => {
            o.seconds("solver_time", time);
        }
        _ => {
            o.seconds("sat_time", time);
        }
    }
    o.seconds("time", out.start.elapsed());
    if let Some(i) = &run.stats.ic3 {
        o.number("ic3_frames", i.frames)
            .number("ic3_obligations", i.obligations)
            .number("ic3_lemmas", i.lemmas)
            .number("ic3_literals_dropped", i.literals_dropped)
            .number("ic3_ctgs", i.ctgs)
            .number("ic3_predictions_tried", i.predictions_tried)
            .number("ic3_predictions_made", i.predictions_made)
            .number("ic3_propagated", i.propagated)
            .number("ic3_ctps", i.ctps)
            .number("ic3_push_witness_hits", i.push_witness_hits)
            .number("ic3_to_infinite", i.to_infinite)
            .number("ic3_subsumed", i.subsumed)
            .number("ic3_imported", i.imported)
            .number("ic3_import_rejected", i.import_rejected)
            .number("ic3_relative_induction", i.relative_induction)
            .number("ic3_lifts", i.lifts)
            .seconds("ic3_time_generalize", i.time_generalize)
            .seconds("ic3_time_propagate", i.time_propagate)
            .seconds("ic3_time_infinite", i.time_infinite);
    }
    if let Some(a) = &run.stats.abstraction {
        o.number("predicates", a.predicates)
            .number("refinements", a.refinements);
    }
    if let Some(c) = &run.stats.program {
        o.number("ic3cfa_frames", c.frames)
            .number("ic3cfa_obligations", c.obligations)
            .number("ic3cfa_lemmas", c.lemmas)
            .number("ic3cfa_syntactic", c.syntactic)
            .number("ic3cfa_equalities", c.equalities)
            .number("ic3cfa_merged_edges", c.merged)
            .number("ic3cfa_seeds", c.seeds);
    }
    o
}

/// Engine counters on stderr (`-v`).
pub fn statistics(run: &Run) {
    let Some(engine) = run.engine.filter(|&e| e != invar::engines::EngineId::Smt) else {
        return;
    };
    let s = &run.stats;
    if let Some(c) = &s.program {
        eprintln!(
            "invar: engine {engine}: {} frames, {} obligations, {} lemmas, {} affine equalities, {} SMT checks in {:.3}s, {} queries decided by a predecessor cube, {} edges merged, {} seeds kept ({} checks), engine time {:.3}s",
            c.frames,
            c.obligations,
            c.lemmas,
            c.equalities,
            c.checks,
            c.smt_time.as_secs_f64(),
            c.syntactic,
            c.merged,
            c.seeds,
            c.seed_checks,
            s.time.as_secs_f64()
        );
    } else if let Some(a) = &s.abstraction {
        eprintln!(
            "invar: engine {engine}: {} frames, {} predicates, {} refinements, {} SMT checks in {:.3}s, engine time {:.3}s",
            s.depth,
            a.predicates,
            a.refinements,
            s.sat.calls,
            s.sat.time.as_secs_f64(),
            s.time.as_secs_f64()
        );
    } else {
        eprintln!(
            "invar: engine {engine}: depth {}, {} SAT calls ({} sat, {} unsat) in {:.3}s, engine time {:.3}s",
            s.depth,
            s.sat.calls,
            s.sat.sat,
            s.sat.unsat,
            s.sat.time.as_secs_f64(),
            s.time.as_secs_f64()
        );
    }
    if let Some(i) = &s.ic3 {
        eprintln!(
            "invar: ic3: {} frames, {} obligations (average {:.1} literals), {} lemmas (cores {:.1}, lemmas {:.1} literals on average; {} literals dropped, {} CTGs, {} of {} predicted), \
             {} propagated ({} CTPs, {} failed pushes answered by a kept witness), {} to the infinite frame, {} subsumed, {} relative-induction queries in {:.3}s, {} lifts in {:.3}s, \
             generalization {:.3}s, propagation {:.3}s (infinite frame {:.3}s), {} solver rebuilds, {} lemmas of other searches taken ({} not inductive here)",
            i.frames,
            i.obligations,
            average(i.obligation_literals, i.obligations),
            i.lemmas,
            average(i.core_literals, i.lemmas),
            average(i.lemma_literals, i.lemmas),
            i.literals_dropped,
            i.ctgs,
            i.predictions_made,
            i.predictions_tried,
            i.propagated,
            i.ctps,
            i.push_witness_hits,
            i.to_infinite,
            i.subsumed,
            i.relative_induction,
            i.time_relative_induction.as_secs_f64(),
            i.lifts,
            i.time_lift.as_secs_f64(),
            i.time_generalize.as_secs_f64(),
            i.time_propagate.as_secs_f64(),
            i.time_infinite.as_secs_f64(),
            i.rebuilds,
            i.imported,
            i.import_rejected
        );
    }
}

/// `total / count`, 0 for no count.
fn average(total: u64, count: u64) -> f64 {
    total as f64 / count.max(1) as f64
}
