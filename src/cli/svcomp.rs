//! SV-COMP's side of `check` on C programs: the counterexample as locations
//! and variable values per step, and the witnesses (format 2.0) of both
//! answers, written by `invar::formats::svcomp` from the checked run.

use invar::cfront::witness::loop_invariants;
use invar::formats::svcomp::{self, InvariantKind, Property, WitnessInvariant};
use invar::ir::term::eval::Value;
use invar::ir::ts::WordTrace;
use invar::verify::{Certificate, NoCertificate, ProgramModel, Run};
use std::path::Path;

/// A C integer value in decimal.
fn c_value(b: &invar::ir::bv::BvValue, signed: bool) -> String {
    match b.to_u64() {
        Some(u) if signed && b.msb() => {
            let w = b.width();
            format!("{}", u as i128 - (1i128 << w))
        }
        Some(u) => format!("{u}"),
        None => format!("#b{}", b.to_binary()),
    }
}

/// An array kept whole, as the elements that differ from the rest:
/// `{[3]=5, [7]=-1, else 0}` (indices are row-major element numbers).
fn c_array(a: &invar::ir::term::eval::ArrayValue, signed: bool) -> String {
    let show = |v: &Value, signed: bool| match v {
        Value::Bv(b) => c_value(b, signed),
        other => other.to_string(),
    };
    let mut parts: Vec<String> = (a.entries.iter())
        .map(|(i, e)| format!("[{}]={}", show(i, false), show(e, signed)))
        .collect();
    parts.push(format!("else {}", show(&a.default, signed)));
    format!("{{{}}}", parts.join(", "))
}

/// The counterexample as locations and variable values per step. A stretch
/// of more than [`STRETCH`] consecutive steps at one location (a loop that
/// large-block encoding made one edge, run many times) shows its first and
/// last steps and the number left out: a test's trace can have 65,537
/// iterations. `--vcd` writes every step.
pub fn c_trace(model: &ProgramModel, trace: &WordTrace) -> String {
    let cfa = &model.program.cfa;
    let locations = cfa.live_locations();
    let label = |states: &[Value]| match &states[0] {
        Value::Bv(v) => v
            .to_u64()
            .and_then(|i| locations.get(i as usize))
            .map(|l| cfa.labels[l.0 as usize].clone())
            .unwrap_or_default(),
        _ => String::new(),
    };
    let labels: Vec<String> = trace.states.iter().map(|s| label(s)).collect();
    let mut out = String::new();
    let mut k = 0;
    while k < labels.len() {
        let run = labels[k..].iter().take_while(|l| **l == labels[k]).count();
        if run > STRETCH {
            out += &c_step(model, &trace.states[k], k, &labels[k]);
            out += &c_step(model, &trace.states[k + 1], k + 1, &labels[k]);
            out += &format!(
                "... steps {} to {}: {} more at {}\n",
                k + 2,
                k + run - 2,
                run - 3,
                labels[k]
            );
            let last = k + run - 1;
            out += &c_step(model, &trace.states[last], last, &labels[k]);
        } else {
            for j in k..k + run {
                out += &c_step(model, &trace.states[j], j, &labels[k]);
            }
        }
        k += run;
    }
    out
}

/// Consecutive steps at one location that [`c_trace`] prints in full.
const STRETCH: usize = 8;

/// One step of [`c_trace`]: its location and the program's variables.
fn c_step(model: &ProgramModel, states: &[Value], k: usize, label: &str) -> String {
    let ts = &model.ts;
    let at: std::collections::HashMap<_, _> = (ts.states.iter().zip(states))
        .map(|(s, v)| (s.var, v))
        .collect();
    // States: pc, valid, then the program variables in order.
    let values: Vec<String> = (ts.states.iter().zip(states))
        .skip(2)
        .map(|(s, v)| {
            let name = ts.terms.var_name(s.var).unwrap_or("?");
            match (v, model.program.types.get(&s.var)) {
                (Value::Bv(b), Some(ty)) if ty.is_pointer() => c_pointer(model, &at, name, b, ty),
                (Value::Bv(b), Some(ty)) => format!("{name}={}", c_value(b, ty.signed)),
                (Value::Array(a), _) => {
                    let signed =
                        (model.program.element_types.get(&s.var)).is_some_and(|t| t.signed);
                    format!("{name}={}", c_array(a, signed))
                }
                (Value::Num(r), _) if r.is_int() => format!("{name}={}", r.numer()),
                _ => format!("{name}={v}"),
            }
        })
        .collect();
    format!("step {k}: {label}: {}\n", values.join(" "))
}

/// A pointer's value in C terms: `NULL`, or the object's number and the
/// byte offset (`obj2+8`), followed by what a dereference reads there
/// (`p->next=obj3+0 p->data=5`, `*q=7`) where the program dereferences
/// pointers of its type.
fn c_pointer(
    model: &ProgramModel,
    at: &std::collections::HashMap<invar::ir::term::Term, &Value>,
    name: &str,
    b: &invar::ir::bv::BvValue,
    ty: &invar::cfront::types::CType,
) -> String {
    let Some(bits) = b.to_u64() else {
        return format!("{name}=#b{}", b.to_binary());
    };
    let mut out = format!("{name}={}", pointer_text(bits));
    if bits == 0 {
        return out;
    }
    if name.starts_with("tmp#") || name.starts_with("malloc#") {
        // The lowering's own copies: their targets show under the
        // program's names.
        return out;
    }
    let views = ty.pointee.and_then(|n| model.program.views.get(&n));
    for (path, region) in views.into_iter().flatten() {
        let Some(Value::Array(a)) = at.get(region) else {
            continue;
        };
        let element = a.get(&Value::Bv(b.clone()));
        let shown = if path.is_empty() {
            format!("*{name}")
        } else {
            format!("{name}->{}", path.trim_start_matches('.'))
        };
        let element_type = model.program.element_types.get(region);
        let text = match element {
            Value::Bv(e) if element_type.is_some_and(|t| t.is_pointer()) => match e.to_u64() {
                Some(e) => pointer_text(e),
                None => format!("#b{}", e.to_binary()),
            },
            Value::Bv(e) => c_value(e, element_type.is_some_and(|t| t.signed)),
            other => other.to_string(),
        };
        out += &format!(" {shown}={text}");
    }
    out
}

/// A pointer's 64 bits (object number low, byte offset high) as `NULL`
/// or `objN+OFFSET`.
fn pointer_text(bits: u64) -> String {
    match bits {
        0 => "NULL".to_string(),
        _ => format!("obj{}+{}", bits & 0xffff_ffff, bits >> 32),
    }
}

/// The task an SV-COMP witness describes: the program `file` as given, the
/// property (unreach-call when none was given), the data model and the
/// command line.
fn task(file: &Path, property: Option<&Property>, lp64: bool) -> Result<svcomp::Task, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let command_line: Vec<String> = std::env::args()
        .map(|a| {
            if a.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./=:".contains(&b))
            {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect();
    let specification = property.and_then(|p| p.formula.clone());
    Ok(svcomp::Task {
        file_name: file.display().to_string(),
        file_hash: invar::util::sha256::sha256_hex(&bytes),
        specification: specification.unwrap_or_else(|| svcomp::UNREACH_CALL.to_string()),
        data_model: if lp64 { "LP64" } else { "ILP32" },
        command_line: command_line.join(" "),
    })
}

/// The violation witness of a counterexample: the call that reaches the
/// error. A program whose error is reached from several places in the
/// source gets none (the target would be a guess).
pub fn violation_witness(
    file: &Path,
    model: &ProgramModel,
    property: Option<&Property>,
) -> Result<Option<String>, String> {
    let mut sites = model.program.error_calls.clone();
    sites.sort();
    sites.dedup();
    match sites.as_slice() {
        [target] => Ok(Some(svcomp::violation_witness(
            &task(file, property, model.options.lp64)?,
            target,
        ))),
        _ => {
            eprintln!(
                "invar: {}: no violation witness: the error is reached from {} places in the source",
                file.display(),
                sites.len()
            );
            Ok(None)
        }
    }
}

/// The correctness witness of a proof: the loop invariants its invariant
/// implies (none from k-induction, which has no invariant, or when the
/// invariant has no form over the program's words: the verdict stands
/// either way).
pub fn correctness_witness(
    file: &Path,
    model: &ProgramModel,
    property: Option<&Property>,
    run: &Run,
) -> Result<String, String> {
    let name = file.display();
    let invariant = match &run.certificate {
        Some(Ok(Certificate::System { store, invariant })) => Some((store, *invariant)),
        Some(Err(NoCertificate::Failed(e))) => {
            eprintln!("invar: {name}: no invariant over the program's words ({e}): the correctness witness lists no loop invariant");
            None
        }
        _ => {
            eprintln!("invar: {name}: the proof has no invariant (k-induction): the correctness witness lists no loop invariant");
            None
        }
    };
    let mut invariants = match invariant {
        Some((store, invariant)) => {
            loop_invariants(&model.program, &model.ts, store, invariant).unwrap_or_else(|e| {
                eprintln!("invar: {name}: the invariant does not read back ({e}): the correctness witness lists no loop invariant");
                Vec::new()
            })
        }
        None => Vec::new(),
    };
    if invariants.is_empty() {
        // The format wants at least one invariant: `1`, which holds anywhere,
        // before main's first statement.
        invariants.extend(model.program.main_start.clone().map(|at| WitnessInvariant {
            at,
            value: "1".into(),
            kind: InvariantKind::Location,
        }));
    }
    Ok(svcomp::correctness_witness(
        &task(file, property, model.options.lp64)?,
        &invariants,
    ))
}
