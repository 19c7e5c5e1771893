//! Counterexamples as waveforms: Value Change Dump (IEEE 1364-2005, §18),
//! which GTKWave, Surfer and simulators read.
//!
//! One VCD time unit is one step of the trace. The signals are the model's
//! inputs, its states (latches) and its bad properties, under the model's
//! own names: AIGER symbols, with bits named `x[i]` gathered into one word
//! `x` (Yosys names a bus that way); BTOR2 and VMT variables with their
//! widths; properties under their names, `b<k>` where they have none (or,
//! as in VMT, only a number). Int and Real variables are `real` variables (as decimals, which
//! can round); arrays are left out, with a comment. A bit the witness leaves
//! open (AIGER `x`) stays `x`.

use crate::formats::aiger::{Aiger, Reset, SymbolKind};
use crate::ir::term::eval::{Evaluator, Value};
use crate::ir::ts::{Ts, WordTrace};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A signal's value in one step.
#[derive(Clone, Debug, PartialEq)]
pub enum Sample {
    /// Bits, least significant first (`None`: unknown).
    Bits(Vec<Option<bool>>),
    /// A number.
    Real(f64),
}

/// A named signal.
#[derive(Clone, Debug)]
pub struct Signal {
    /// The name shown (whitespace replaced, as VCD names cannot hold it).
    pub name: String,
    /// Bits (1 for a Boolean); 0 for a `real`.
    pub width: usize,
}

/// Signals and their value in every step.
#[derive(Clone, Debug, Default)]
pub struct Waveform {
    /// The signals, in the order they are declared.
    pub signals: Vec<Signal>,
    /// `steps[t][s]`: the value of signal `s` in step `t`.
    pub steps: Vec<Vec<Sample>>,
    /// What was left out (written as a comment).
    pub omitted: Vec<String>,
    /// Of a lasso (a justice property's counterexample): the step the last
    /// one is followed by again.
    pub loop_start: Option<usize>,
}

impl Waveform {
    /// Marks the trace as a lasso whose last step is followed by step
    /// `start` again: a 1-bit signal `lasso_loop`, 1 on the steps of the
    /// loop, and a comment naming the step.
    pub fn mark_loop(&mut self, start: usize) {
        self.signals.push(Signal {
            name: "lasso_loop".into(),
            width: 1,
        });
        for (t, step) in self.steps.iter_mut().enumerate() {
            step.push(Sample::Bits(vec![Some(t >= start)]));
        }
        self.loop_start = Some(start);
    }
}

/// The short identifier of signal `n`: printable ASCII `!`..`~` in base 94.
fn code(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'!' + (n % 94) as u8) as char);
        n /= 94;
        if n == 0 {
            return s;
        }
        n -= 1;
    }
}

fn clean(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

fn sample_text(sample: &Sample, id: &str, width: usize) -> String {
    match sample {
        Sample::Real(x) => format!("r{x} {id}"),
        Sample::Bits(bits) => {
            let bit = |b: &Option<bool>| match b {
                Some(true) => '1',
                Some(false) => '0',
                None => 'x',
            };
            if width == 1 {
                format!("{}{id}", bit(&bits[0]))
            } else {
                let text: String = bits.iter().rev().map(bit).collect();
                format!("b{text} {id}")
            }
        }
    }
}

/// The VCD text of `waveform`, its signals in one scope named `scope`.
pub fn write(waveform: &Waveform, scope: &str) -> String {
    let mut out = String::new();
    out.push_str("$version invar $end\n");
    out.push_str("$comment one time unit is one step of the counterexample $end\n");
    for what in &waveform.omitted {
        let _ = writeln!(out, "$comment not shown: {} $end", clean(what));
    }
    if let Some(start) = waveform.loop_start {
        let _ = writeln!(
            out,
            "$comment a lasso: step {} is followed by step {start} again; lasso_loop marks the loop $end",
            waveform.steps.len().saturating_sub(1)
        );
    }
    out.push_str("$timescale 1ns $end\n");
    let _ = writeln!(out, "$scope module {} $end", clean(scope));
    let ids: Vec<String> = (0..waveform.signals.len()).map(code).collect();
    for (s, id) in waveform.signals.iter().zip(&ids) {
        if s.width == 0 {
            let _ = writeln!(out, "$var real 64 {id} {} $end", clean(&s.name));
        } else {
            let _ = writeln!(out, "$var wire {} {id} {} $end", s.width, clean(&s.name));
        }
    }
    out.push_str("$upscope $end\n$enddefinitions $end\n");
    let mut last: Option<&Vec<Sample>> = None;
    for (t, step) in waveform.steps.iter().enumerate() {
        let _ = writeln!(out, "#{t}");
        if t == 0 {
            out.push_str("$dumpvars\n");
        }
        for (s, sample) in step.iter().enumerate() {
            if last.is_some_and(|l| l[s] == *sample) {
                continue;
            }
            out.push_str(&sample_text(sample, &ids[s], waveform.signals[s].width));
            out.push('\n');
        }
        if t == 0 {
            out.push_str("$end\n");
        }
        last = Some(step);
    }
    let _ = writeln!(out, "#{}", waveform.steps.len());
    out
}

/// Groups the named bits `(name, position)` into signals: names `x[i]` with
/// distinct indices become one word `x` (bit i at index i - min), any other
/// name one bit. Returns the signals and, per signal, its positions by bit.
fn group_bits(names: &[(String, usize)]) -> Vec<(Signal, Vec<usize>)> {
    let mut buses: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    let mut singles: Vec<(usize, usize)> = Vec::new(); // (name index, position)
    for (n, (name, pos)) in names.iter().enumerate() {
        let bus = name
            .strip_suffix(']')
            .and_then(|s| s.rsplit_once('['))
            .and_then(|(base, index)| Some((base, index.parse::<usize>().ok()?)));
        match bus {
            Some((base, index)) if !base.is_empty() => {
                if !buses.contains_key(base) {
                    order.push(base);
                }
                buses.entry(base).or_default().push((index, *pos));
            }
            _ => singles.push((n, *pos)),
        }
    }
    let mut out = Vec::new();
    for base in order {
        let bits = &buses[base];
        let lo = bits.iter().map(|b| b.0).min().unwrap_or(0);
        let hi = bits.iter().map(|b| b.0).max().unwrap_or(0);
        let mut slots = vec![None; hi - lo + 1];
        let mut clash = false;
        for &(i, pos) in bits {
            clash |= slots[i - lo].replace(pos).is_some();
        }
        if clash || slots.iter().any(Option::is_none) || slots.len() > 1 << 16 {
            // Not a clean bus: every bit on its own.
            for &(i, pos) in bits {
                out.push((
                    Signal {
                        name: format!("{base}[{i}]"),
                        width: 1,
                    },
                    vec![pos],
                ));
            }
        } else {
            out.push((
                Signal {
                    name: base.to_string(),
                    width: slots.len(),
                },
                slots.into_iter().flatten().collect(),
            ));
        }
    }
    for (n, pos) in singles {
        out.push((
            Signal {
                name: names[n].0.clone(),
                width: 1,
            },
            vec![pos],
        ));
    }
    out
}

/// The waveform of an AIGER counterexample: `init` latch values and one
/// input vector per step (`None`: open), simulated in three-valued logic.
/// Signals: inputs, latches, then bad properties, each group by name.
pub fn aiger_waveform(
    aiger: &Aiger,
    init: &[Option<bool>],
    inputs: &[Vec<Option<bool>>],
) -> Waveform {
    let named = |kind: SymbolKind, prefix: &str, n: usize| -> Vec<(String, usize)> {
        (0..n)
            .map(|i| {
                let name = aiger.symbol(kind, i).map(str::to_string);
                (name.unwrap_or_else(|| format!("{prefix}{i}")), i)
            })
            .collect()
    };
    let bad = aiger.bad_properties();
    // Outputs serve as the bad properties when the file has neither bad
    // nor justice properties.
    let bad_kind = if aiger.bad.is_empty() && aiger.justice.is_empty() {
        SymbolKind::Output
    } else {
        SymbolKind::Bad
    };
    let groups = [
        group_bits(&named(SymbolKind::Input, "i", aiger.inputs.len())),
        group_bits(&named(SymbolKind::Latch, "l", aiger.latches.len())),
        group_bits(&named(bad_kind, "b", bad.len())),
    ];
    let mut waveform = Waveform {
        signals: groups.iter().flatten().map(|(s, _)| s.clone()).collect(),
        ..Waveform::default()
    };
    let order = aiger.topological_ands();
    let mut value: Vec<Option<bool>> = vec![None; aiger.maxvar as usize + 1];
    let lit = |value: &[Option<bool>], l: u32| value[(l >> 1) as usize].map(|v| v ^ (l & 1 == 1));
    let mut state: Vec<Option<bool>> = aiger
        .latches
        .iter()
        .enumerate()
        .map(|(k, latch)| match latch.reset {
            Reset::Zero => Some(false),
            Reset::One => Some(true),
            // A reset function's value is the trace's: its first state
            // was checked against the functions when it was replayed.
            Reset::Uninitialized | Reset::Function(_) => init.get(k).copied().flatten(),
        })
        .collect();
    for vector in inputs {
        value.iter_mut().for_each(|v| *v = None);
        value[0] = Some(false);
        for (k, &l) in aiger.inputs.iter().enumerate() {
            value[(l >> 1) as usize] = vector.get(k).copied().flatten();
        }
        for (k, latch) in aiger.latches.iter().enumerate() {
            value[(latch.lit >> 1) as usize] = state[k];
        }
        for &g in &order {
            let and = &aiger.ands[g];
            let (a, b) = (lit(&value, and.rhs0), lit(&value, and.rhs1));
            value[(and.lhs >> 1) as usize] = match (a, b) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
        }
        let input_bits: Vec<Option<bool>> = aiger.inputs.iter().map(|&l| lit(&value, l)).collect();
        let bad_bits: Vec<Option<bool>> = bad.iter().map(|&l| lit(&value, l)).collect();
        let columns = [&input_bits, &state, &bad_bits];
        let mut step = Vec::new();
        for (group, bits) in groups.iter().zip(columns) {
            for (_, positions) in group {
                step.push(Sample::Bits(positions.iter().map(|&p| bits[p]).collect()));
            }
        }
        waveform.steps.push(step);
        state = aiger
            .latches
            .iter()
            .map(|latch| lit(&value, latch.next))
            .collect();
    }
    waveform
}

fn number(text: &str) -> f64 {
    match text.split_once('/') {
        Some((n, d)) => n.parse::<f64>().unwrap_or(f64::NAN) / d.parse::<f64>().unwrap_or(f64::NAN),
        None => text.parse().unwrap_or(f64::NAN),
    }
}

fn sample(value: &Value) -> Option<Sample> {
    match value {
        Value::Bool(b) => Some(Sample::Bits(vec![Some(*b)])),
        Value::Bv(bv) => Some(Sample::Bits(
            (0..bv.width()).map(|i| Some(bv.bit(i))).collect(),
        )),
        Value::Num(r) => Some(Sample::Real(number(&r.to_string()))),
        Value::Array(_) => None,
    }
}

/// The waveform of a word-level counterexample of `ts`: its states and
/// inputs with their names and widths, then its bad properties (evaluated
/// in each step).
pub fn word_waveform(ts: &Ts, trace: &WordTrace) -> Waveform {
    use crate::ir::term::Sort;
    let mut waveform = Waveform::default();
    // (column in the step's values, signal)
    let mut columns: Vec<(bool, usize)> = Vec::new();
    let vars = ts
        .states
        .iter()
        .map(|s| (true, s.var))
        .chain(ts.inputs.iter().map(|&i| (false, i)));
    let (mut s_index, mut i_index) = (0, 0);
    for (is_state, var) in vars {
        let index = if is_state { &mut s_index } else { &mut i_index };
        let name = ts.terms.var_name(var).unwrap_or("?").to_string();
        let width = match ts.terms.sort(var) {
            Sort::Bool => Some(1),
            Sort::BitVec(w) => Some(*w as usize),
            Sort::Int | Sort::Real => Some(0),
            Sort::Array(..) => None,
        };
        match width {
            Some(width) => {
                waveform.signals.push(Signal { name, width });
                columns.push((is_state, *index));
            }
            None => waveform.omitted.push(format!("array {name}")),
        }
        *index += 1;
    }
    for (k, p) in ts.bad.iter().enumerate() {
        // VMT numbers its properties: `b<n>` as AIGER's, not a bare number.
        let name = if p.name.is_empty() {
            format!("b{k}")
        } else if p.name.bytes().all(|c| c.is_ascii_digit()) {
            format!("b{}", p.name)
        } else {
            p.name.clone()
        };
        waveform.signals.push(Signal { name, width: 1 });
    }
    // Named values (a design's wires), where no state or input has the name.
    let shown: Vec<&crate::ir::ts::Property> = (ts.signals.iter())
        .filter(|s| !waveform.signals.iter().any(|w| w.name == s.name))
        .collect();
    for s in &shown {
        let width = match ts.terms.sort(s.term) {
            Sort::BitVec(w) => *w as usize,
            _ => 1,
        };
        waveform.signals.push(Signal {
            name: s.name.clone(),
            width,
        });
    }
    let mut ev = Evaluator::new(&ts.terms);
    for k in 0..trace.len() {
        let mut step: Vec<Sample> = columns
            .iter()
            .map(|&(is_state, i)| {
                let v = if is_state {
                    &trace.states[k][i]
                } else {
                    &trace.inputs[k][i]
                };
                sample(v).unwrap_or(Sample::Bits(vec![None]))
            })
            .collect();
        ev.clear();
        for (s, v) in ts.states.iter().zip(&trace.states[k]) {
            ev.set(s.var, v.clone());
        }
        for (&i, v) in ts.inputs.iter().zip(&trace.inputs[k]) {
            ev.set(i, v.clone());
        }
        for p in &ts.bad {
            let bit = match ev.eval(p.term) {
                Ok(Value::Bool(b)) => Some(b),
                _ => None,
            };
            step.push(Sample::Bits(vec![bit]));
        }
        for s in &shown {
            let value = ev.eval(s.term).ok();
            step.push(
                value
                    .as_ref()
                    .and_then(sample)
                    .unwrap_or(Sample::Bits(vec![None])),
            );
        }
        waveform.steps.push(step);
    }
    waveform
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_distinct_and_printable() {
        let codes: Vec<String> = (0..20_000).map(code).collect();
        let set: std::collections::HashSet<&String> = codes.iter().collect();
        assert_eq!(set.len(), codes.len());
        assert!(codes
            .iter()
            .all(|c| c.bytes().all(|b| (b'!'..=b'~').contains(&b))));
        assert_eq!(code(0), "!");
        assert_eq!(code(93), "~");
        assert_eq!(code(94), "!!");
    }

    #[test]
    fn buses_are_gathered_and_broken_ones_kept_apart() {
        let names: Vec<(String, usize)> = ["d[1]", "clk", "d[0]", "e[0]", "e[0]", "q[2]"]
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), i))
            .collect();
        let groups = group_bits(&names);
        let shown: Vec<(String, usize, Vec<usize>)> = groups
            .into_iter()
            .map(|(s, p)| (s.name, s.width, p))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("d".to_string(), 2, vec![2, 0]),
                ("e[0]".to_string(), 1, vec![3]),
                ("e[0]".to_string(), 1, vec![4]),
                ("q".to_string(), 1, vec![5]),
                ("clk".to_string(), 1, vec![1]),
            ]
        );
    }

    #[test]
    fn only_changes_are_written_after_the_first_step() {
        let waveform = Waveform {
            signals: vec![
                Signal {
                    name: "a".into(),
                    width: 1,
                },
                Signal {
                    name: "w x".into(),
                    width: 3,
                },
            ],
            steps: vec![
                vec![
                    Sample::Bits(vec![Some(true)]),
                    Sample::Bits(vec![Some(true), Some(false), None]),
                ],
                vec![
                    Sample::Bits(vec![Some(true)]),
                    Sample::Bits(vec![Some(false), Some(false), Some(true)]),
                ],
            ],
            omitted: vec![],
            loop_start: None,
        };
        let text = write(&waveform, "top");
        assert!(text.contains("$var wire 3 \" w_x $end"), "{text}");
        let body = text.split("$enddefinitions $end\n").nth(1).unwrap();
        assert_eq!(body, "#0\n$dumpvars\n1!\nbx01 \"\n$end\n#1\nb100 \"\n#2\n");
    }
}
