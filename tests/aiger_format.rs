//! AIGER reader and writer: every 1.9 feature, every malformation, and
//! round trips that keep symbols, comments and behaviour (checked by
//! simulation against the original).

use invar::formats::aiger::{self, Aiger, Reset, SymbolKind};
use invar::ir::aig::{lit_value, Aig, Lit};
use invar::util::rng::Rng;
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("formats/aiger")
        .join(name)
}

fn read(name: &str) -> Aiger {
    aiger::read_file(&example(name)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn reads_header_inputs_and_gates() {
    let a = read("and.aag");
    assert_eq!(
        (a.maxvar, a.inputs.clone(), a.outputs.clone()),
        (3, vec![2, 4], vec![6])
    );
    assert_eq!(a.ands.len(), 1);
    assert_eq!((a.ands[0].lhs, a.ands[0].rhs0, a.ands[0].rhs1), (6, 2, 4));
    // B = 0 and J = 0: the output is the bad property.
    assert_eq!(a.bad_properties(), &[6]);
}

#[test]
fn reads_all_latch_reset_forms() {
    let a = read("resets.aag");
    let resets: Vec<Reset> = a.latches.iter().map(|l| l.reset).collect();
    assert_eq!(resets, vec![Reset::Zero, Reset::One, Reset::Uninitialized]);
    assert_eq!(a.latches[0].next, 5);
    let aig = a.to_aig();
    let inits: Vec<Option<bool>> = aig.latches.iter().map(|l| l.init).collect();
    assert_eq!(inits, vec![Some(false), Some(true), None]);
}

#[test]
fn reads_reset_functions_and_lowers_them_for_the_engines() {
    let a = read("reset_functions.aag");
    let resets: Vec<Reset> = a.latches.iter().map(|l| l.reset).collect();
    assert_eq!(resets, vec![Reset::Function(2), Reset::Function(5)]);
    let aig = a.to_aig();
    assert!(aig.latches.iter().all(|l| l.init.is_none()));
    assert_eq!(
        aig.latches.iter().map(|l| l.reset).collect::<Vec<_>>(),
        vec![
            Some(Lit::new(aig.inputs[0], false)),
            Some(Lit::new(aig.latches[0].var, true))
        ]
    );
    // Lowered: a latch `first` (1, then 0) last, and one constraint per
    // function; every first state it allows is one the functions give.
    let low = aig.without_resets();
    assert!(!low.has_resets());
    assert_eq!(low.latches.len(), 3);
    assert_eq!(low.latches[2].init, Some(true));
    assert_eq!(low.latches[2].next, Lit::FALSE);
    assert_eq!(low.constraints.len(), 2);
    for x in [false, true] {
        for s in 0..4 {
            let (a0, b0) = (s & 1 == 1, s & 2 == 2);
            let v = low.eval(&[x], &[a0, b0, true]);
            let allowed = low.constraints.iter().all(|&c| lit_value(&v, c));
            assert_eq!(allowed, a0 == x && b0 != a0, "x={x} a={a0} b={b0}");
        }
    }
}

#[test]
fn reads_bad_constraints_justice_fairness() {
    let a = read("justice.aag");
    assert_eq!(a.justice, vec![vec![4]]);
    assert_eq!(a.fairness, vec![2]);
    assert!(
        a.bad_properties().is_empty(),
        "outputs are not bad when J > 0"
    );
    let c = read("constraint.aag");
    assert_eq!((c.bad.clone(), c.constraints.clone()), (vec![4], vec![3]));
}

#[test]
fn reads_symbols_and_comments() {
    let a = read("symbols_comments.aag");
    assert_eq!(a.symbol(SymbolKind::Input, 0), Some("req"));
    assert_eq!(a.symbol(SymbolKind::Latch, 0), Some("busy"));
    assert_eq!(a.symbol(SymbolKind::Output, 0), Some("busy_no_req"));
    assert_eq!(a.symbol(SymbolKind::Bad, 0), Some("busy_and_req"));
    assert_eq!(a.symbol(SymbolKind::Constraint, 0), Some("req_low"));
    assert_eq!(a.symbol(SymbolKind::Fairness, 0), Some("req_seen"));
    assert_eq!(a.symbol(SymbolKind::Justice, 0), None);
    assert_eq!(
        a.comments,
        vec![
            "A comment section: every line after the lone c is kept.",
            "  Indented line, and an empty one:",
            "",
            "end."
        ]
    );
    assert_eq!(
        read("justice.aag").symbol(SymbolKind::Justice, 0),
        Some("last_x_often")
    );
}

#[test]
fn unordered_ascii_gates_are_sorted_topologically() {
    let a = read("unordered.aag");
    let order = a.topological_ands();
    assert_eq!(
        order,
        vec![1, 0],
        "gate 10 must come before gate 12 which reads it"
    );
}

/// Every malformed file, with the exact one-line message it must produce.
#[test]
fn malformed_files_give_located_messages() {
    let cases = [
        ("truncated.aig", "byte 17: unexpected end of file in AND gate delta"),
        ("literal_out_of_range.aag", ":3: output 4 is out of range: the header allows literals up to 3"),
        ("wrong_header_counts.aag", ":1: header needs M >= I + L + A, but 1 < 2 + 0 + 0"),
        ("missing_gate.aag", ":4: expected AND gate literal, found end of file"),
        ("cyclic.aag", ":5: cyclic AND definitions: gate 6 depends on itself"),
        ("odd_input.aag", ":2: input literal 3 must be an even literal"),
        ("bad_reset.aag", ":3: reset value 6 is out of range: the header allows literals up to 5"),
        ("cyclic_reset.aag", ":2: the reset functions of latches 2, 4 depend on each other in a cycle; only stratified resets (an acyclic dependency) are supported"),
        ("undefined.aag", ":3: literal 4 is used but never defined"),
        ("duplicate.aag", ":3: literal 2 is already defined on line 2"),
        ("binary_maxvar.aig", ":1: binary header needs M = I + L + A, but 5 != 2 + 0 + 1"),
        ("bad_delta.aig", "byte 16: first delta 7 of AND gate 6 must be in 1..=6"),
        ("bad_magic.aag", ":1: expected header starting with 'aag' or 'aig'"),
        ("empty.aag", ":1: expected header starting with 'aag' or 'aig'"),
        ("symbol_out_of_range.aag", ":3: symbol position i1 is out of range: the header has 1 such entries"),
        ("bad_symbol.aag", ":3: expected a symbol (i, l, o, b, c, j or f followed by a position) or a 'c' line, found 'z'"),
        ("header_not_number.aag", ":1: expected header field I, found 'x'"),
        ("latch_without_next.aag", ":2: expected a space before the next-state literal, found end of line"),
        ("trailing_field.aag", ":4: expected end of line, found a space"),
    ];
    for (file, expected) in cases {
        let path = example(&format!("malformed/{file}"));
        let err = aiger::read_file(&path).expect_err(file).to_string();
        assert!(err.starts_with(&path.display().to_string()), "{err}");
        assert!(
            err.ends_with(expected),
            "{file}: got '{err}', want '...{expected}'"
        );
        assert!(!err.contains('\n'), "one line: {err}");
    }
}

#[test]
fn lying_header_counts_do_not_allocate() {
    let err = aiger::read_bytes("huge", b"aig 4000000000 0 0 0 4000000000\n").unwrap_err();
    assert!(
        err.to_string().contains("too large") || err.to_string().contains("bytes"),
        "{err}"
    );
    let err = aiger::read_bytes("m", b"aag 1000000000 0 0 0 0\n").unwrap_err();
    assert!(err.to_string().contains("far beyond"), "{err}");
    // Binary inputs take no bytes: M must still fit the file.
    let err = aiger::read_bytes("i", b"aig 2000000000 2000000000 0 0 0\n").unwrap_err();
    assert!(err.to_string().contains("far beyond"), "{err}");
    // A legal binary file with many inputs and nothing else still reads.
    let many = aiger::read_bytes("ok", b"aig 100000 100000 0 0 0\n").unwrap();
    assert_eq!(many.inputs.len(), 100000);
}

#[test]
fn binary_deltas_use_seven_bit_groups() {
    // Gate 2*(130) = 260 with operands 2 and 0: deltas 258 = 0x82 0x02 and 2.
    let mut bytes = b"aig 130 129 0 1 1\n260\n".to_vec();
    bytes.extend([0x82, 0x02, 0x02]);
    let a = aiger::read_bytes("deltas", &bytes).unwrap();
    assert_eq!((a.ands[0].lhs, a.ands[0].rhs0, a.ands[0].rhs1), (260, 2, 0));
    let written = aiger::write_binary(&a);
    assert_eq!(written, bytes);
}

/// Random simulation of both models on the same stimuli, comparing outputs,
/// bad properties, constraints and next states in every step.
fn assert_same_behaviour(a: &Aig, b: &Aig, seed: u64) {
    assert_eq!(a.inputs.len(), b.inputs.len());
    assert_eq!(a.latches.len(), b.latches.len());
    assert_eq!(a.bad.len(), b.bad.len());
    let mut rng = Rng::new(seed);
    for _run in 0..8 {
        let mut state: Vec<bool> = a
            .latches
            .iter()
            .map(|l| l.init.unwrap_or_else(|| rng.coin()))
            .collect();
        for _step in 0..16 {
            let inputs: Vec<bool> = (0..a.inputs.len()).map(|_| rng.coin()).collect();
            let va = a.eval(&inputs, &state);
            let vb = b.eval(&inputs, &state);
            for (x, y) in a
                .bad
                .iter()
                .zip(&b.bad)
                .chain(a.constraints.iter().zip(&b.constraints))
            {
                assert_eq!(lit_value(&va, *x), lit_value(&vb, *y));
            }
            let na: Vec<bool> = a.latches.iter().map(|l| lit_value(&va, l.next)).collect();
            let nb: Vec<bool> = b.latches.iter().map(|l| lit_value(&vb, l.next)).collect();
            assert_eq!(na, nb);
            state = na;
        }
    }
}

fn round_trip(a: &Aiger) {
    let ascii = aiger::write_ascii(a);
    let again = aiger::read_bytes("ascii", &ascii).unwrap();
    assert_eq!(&again, a, "ASCII writing keeps the file exactly");
    let binary = aiger::write_binary(a);
    let b = aiger::read_bytes("binary", &binary).unwrap();
    assert_eq!(b.symbols, a.symbols);
    assert_eq!(b.comments, a.comments);
    assert_eq!(
        b.latches.iter().map(|l| l.reset).collect::<Vec<_>>(),
        a.latches.iter().map(|l| l.reset).collect::<Vec<_>>()
    );
    assert_same_behaviour(&a.to_aig(), &b.to_aig(), 7);
    // Binary -> ASCII -> binary is a fixed point.
    let back = aiger::read_bytes("ascii2", &aiger::write_ascii(&b)).unwrap();
    assert_eq!(aiger::write_binary(&back), binary);
}

#[test]
fn hand_written_examples_round_trip() {
    for name in [
        "and.aag",
        "resets.aag",
        "reset_functions.aag",
        "uninit.aag",
        "constraint.aag",
        "constraint_last.aag",
        "justice.aag",
        "unordered.aag",
        "symbols_comments.aag",
    ] {
        round_trip(&read(name));
    }
}

#[test]
fn hwmcc_samples_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("hwmcc-samples");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "aig") {
            let a = aiger::read_file(&path).unwrap();
            round_trip(&a);
            count += 1;
        }
    }
    assert!(count >= 25, "expected the bundled samples, found {count}");
}
