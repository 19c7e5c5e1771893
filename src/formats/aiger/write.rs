//! The AIGER writer: ASCII as stored, binary after renumbering when needed.

use super::{Aiger, AigerAnd, AigerLatch, Reset};
use std::io::Write;

/// Writes `aiger` in the ASCII format, keeping literal numbers and gate order.
pub fn write_ascii(aiger: &Aiger) -> Vec<u8> {
    let mut out = Vec::new();
    write_header(&mut out, "aag", aiger);
    for &i in &aiger.inputs {
        let _ = writeln!(out, "{i}");
    }
    for l in &aiger.latches {
        let _ = write!(out, "{} ", l.lit);
        write_latch_tail(&mut out, l);
    }
    write_properties(&mut out, aiger);
    for g in &aiger.ands {
        let _ = writeln!(out, "{} {} {}", g.lhs, g.rhs0, g.rhs1);
    }
    write_symbols_and_comments(&mut out, aiger);
    out
}

/// Writes `aiger` in the binary format, renumbering variables first if the
/// file does not already follow the binary order (inputs, latches, gates).
pub fn write_binary(aiger: &Aiger) -> Vec<u8> {
    let owned;
    let aiger = if is_binary_ordered(aiger) {
        aiger
    } else {
        owned = reencode(aiger);
        &owned
    };
    let mut out = Vec::with_capacity(aiger.ands.len() * 3 + 64);
    write_header(&mut out, "aig", aiger);
    for l in &aiger.latches {
        write_latch_tail(&mut out, l);
    }
    write_properties(&mut out, aiger);
    for g in &aiger.ands {
        push_delta(&mut out, g.lhs - g.rhs0);
        push_delta(&mut out, g.rhs0 - g.rhs1);
    }
    write_symbols_and_comments(&mut out, aiger);
    out
}

fn write_header(out: &mut Vec<u8>, magic: &str, a: &Aiger) {
    let _ = write!(
        out,
        "{magic} {} {} {} {} {}",
        a.maxvar,
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.ands.len()
    );
    let extra = [
        a.bad.len(),
        a.constraints.len(),
        a.justice.len(),
        a.fairness.len(),
    ];
    if extra.iter().any(|&n| n > 0) {
        for n in extra {
            let _ = write!(out, " {n}");
        }
    }
    out.push(b'\n');
}

fn write_latch_tail(out: &mut Vec<u8>, l: &AigerLatch) {
    let _ = match l.reset {
        Reset::Zero => writeln!(out, "{}", l.next),
        Reset::One => writeln!(out, "{} 1", l.next),
        Reset::Uninitialized => writeln!(out, "{} {}", l.next, l.lit),
        Reset::Function(r) => writeln!(out, "{} {r}", l.next),
    };
}

fn write_properties(out: &mut Vec<u8>, a: &Aiger) {
    for lit in a.outputs.iter().chain(&a.bad).chain(&a.constraints) {
        let _ = writeln!(out, "{lit}");
    }
    for j in &a.justice {
        let _ = writeln!(out, "{}", j.len());
    }
    for lit in a.justice.iter().flatten().chain(&a.fairness) {
        let _ = writeln!(out, "{lit}");
    }
}

fn write_symbols_and_comments(out: &mut Vec<u8>, a: &Aiger) {
    for s in &a.symbols {
        let _ = writeln!(out, "{}{} {}", s.kind.letter(), s.pos, s.name);
    }
    if !a.comments.is_empty() {
        out.extend_from_slice(b"c\n");
        for c in &a.comments {
            let _ = writeln!(out, "{c}");
        }
    }
}

/// Appends `value` as 7-bit groups, low group first, high bit set on all but the last.
fn push_delta(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value & 0x7f) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Whether the numbering already is the one binary files imply.
fn is_binary_ordered(a: &Aiger) -> bool {
    let (ni, nl) = (a.inputs.len() as u32, a.latches.len() as u32);
    a.maxvar as usize == a.inputs.len() + a.latches.len() + a.ands.len()
        && a.inputs
            .iter()
            .enumerate()
            .all(|(k, &l)| l == 2 * (k as u32 + 1))
        && (a.latches.iter().enumerate()).all(|(k, l)| l.lit == 2 * (ni + k as u32 + 1))
        && a.ands.iter().enumerate().all(|(k, g)| {
            g.lhs == 2 * (ni + nl + k as u32 + 1) && g.rhs0 < g.lhs && g.rhs1 <= g.rhs0
        })
}

/// Renumbers variables into binary order: inputs, latches, then gates in
/// topological order with operands sorted; unused variables are dropped.
pub(crate) fn reencode(a: &Aiger) -> Aiger {
    let mut map = vec![0u32; a.maxvar as usize + 1];
    let mut next_var = 1u32;
    for &i in &a.inputs {
        map[(i >> 1) as usize] = next_var;
        next_var += 1;
    }
    for l in &a.latches {
        map[(l.lit >> 1) as usize] = next_var;
        next_var += 1;
    }
    let order = a.topological_ands();
    for &g in &order {
        map[(a.ands[g].lhs >> 1) as usize] = next_var;
        next_var += 1;
    }
    let m = |lit: u32| (2 * map[(lit >> 1) as usize]) | (lit & 1);
    let ands = order
        .iter()
        .map(|&g| {
            let (x, y) = (m(a.ands[g].rhs0), m(a.ands[g].rhs1));
            AigerAnd {
                lhs: m(a.ands[g].lhs),
                rhs0: x.max(y),
                rhs1: x.min(y),
            }
        })
        .collect();
    Aiger {
        maxvar: next_var - 1,
        inputs: a.inputs.iter().map(|&i| m(i)).collect(),
        latches: a
            .latches
            .iter()
            .map(|l| AigerLatch {
                lit: m(l.lit),
                next: m(l.next),
                reset: match l.reset {
                    Reset::Function(r) => Reset::Function(m(r)),
                    other => other,
                },
            })
            .collect(),
        outputs: a.outputs.iter().map(|&l| m(l)).collect(),
        bad: a.bad.iter().map(|&l| m(l)).collect(),
        constraints: a.constraints.iter().map(|&l| m(l)).collect(),
        justice: a
            .justice
            .iter()
            .map(|j| j.iter().map(|&l| m(l)).collect())
            .collect(),
        fairness: a.fairness.iter().map(|&l| m(l)).collect(),
        ands,
        symbols: a.symbols.clone(),
        comments: a.comments.clone(),
    }
}
