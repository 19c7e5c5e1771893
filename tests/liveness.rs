//! Justice properties (AIGER 1.9) on random small circuits, through the
//! command line: every engine's verdict on the liveness-to-safety circuit
//! against an explicit-state search for a fair cycle written here, every
//! lasso checked by aigsim 1.9.26 (`tests/tools/aiger`, which closes the
//! loop and checks every justice and fairness signal in it).
//! `INVAR_LIVE_RANDOM=N` runs N circuits (CI: 150).

mod common;

use invar::formats::aiger::{write_ascii, Aiger, AigerLatch, Reset};
use invar::util::rng::Rng;
use std::path::Path;
use std::process::Command;

/// A random circuit in binary order with one justice property of one to
/// three signals, sometimes a fairness constraint and an invariant
/// constraint.
fn random_circuit(rng: &mut Rng) -> Aiger {
    let inputs = rng.below(3) as u32;
    let latches = 1 + rng.below(5) as u32;
    let ands = 2 + rng.below(20) as u32;
    let maxvar = inputs + latches + ands;
    let lit_below = common::random_lit;
    let mut a = common::random_gates(rng, inputs, latches, ands);
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
    let signals = 1 + rng.below(3) as usize;
    a.justice = vec![(0..signals).map(|_| lit_below(rng, maxvar)).collect()];
    if rng.below(3) == 0 {
        a.fairness.push(lit_below(rng, maxvar));
    }
    if rng.below(4) == 0 {
        a.constraints.push(lit_below(rng, maxvar));
    }
    a
}

/// Whether the justice property fails: some reachable cycle (every step
/// keeping the constraints) on which each justice and fairness signal
/// holds in some step. Edges of the reachable graph, then its strongly
/// connected components (by mutual reachability: the graphs are tiny).
fn fails(a: &Aiger) -> bool {
    let (ni, nl) = (a.inputs.len(), a.latches.len());
    let bits = |x: usize, n: usize| (0..n).map(|b| x >> b & 1 == 1).collect::<Vec<bool>>();
    let signals: Vec<u32> = a.justice[0].iter().chain(&a.fairness).copied().collect();
    let states = 1usize << nl;
    // edges[s]: (successor, which signals hold in that step)
    let mut edges: Vec<Vec<(usize, Vec<bool>)>> = vec![Vec::new(); states];
    for (s, out) in edges.iter_mut().enumerate() {
        for x in 0..1usize << ni {
            let v = common::aiger_values(a, &bits(x, ni), &bits(s, nl));
            if !a.constraints.iter().all(|&c| common::aiger_value(&v, c)) {
                continue;
            }
            let t = (a.latches.iter().enumerate()).fold(0, |acc, (k, l)| {
                acc | (common::aiger_value(&v, l.next) as usize) << k
            });
            out.push((
                t,
                signals
                    .iter()
                    .map(|&g| common::aiger_value(&v, g))
                    .collect(),
            ));
        }
    }
    let reach_from = |from: &[usize]| -> Vec<bool> {
        let mut seen = vec![false; states];
        let mut stack: Vec<usize> = from.to_vec();
        for &s in from {
            seen[s] = true;
        }
        while let Some(s) = stack.pop() {
            for &(t, _) in &edges[s] {
                if !std::mem::replace(&mut seen[t], true) {
                    stack.push(t);
                }
            }
        }
        seen
    };
    let initial: Vec<usize> = (0..states)
        .filter(|&s| {
            a.latches.iter().enumerate().all(|(k, l)| match l.reset {
                Reset::Zero => s >> k & 1 == 0,
                Reset::One => s >> k & 1 == 1,
                _ => true,
            })
        })
        .collect();
    let reachable = reach_from(&initial);
    let from: Vec<Vec<bool>> = (0..states).map(|s| reach_from(&[s])).collect();
    // A reachable state s on a cycle: the edges inside its component are
    // those between states that reach s and that s reaches.
    (0..states).filter(|&s| reachable[s]).any(|s| {
        let inside = |u: usize| from[s][u] && from[u][s];
        let mut covered = vec![false; signals.len()];
        let mut cycle = false;
        for u in (0..states).filter(|&u| inside(u)) {
            for (t, held) in &edges[u] {
                if inside(*t) {
                    cycle = true;
                    for (c, &h) in covered.iter_mut().zip(held) {
                        *c |= h;
                    }
                }
            }
        }
        cycle && covered.iter().all(|&c| c)
    })
}

#[test]
fn engines_agree_with_a_fair_cycle_search() {
    let cases: u64 = (std::env::var("INVAR_LIVE_RANDOM").ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("liveness");
    std::fs::create_dir_all(&dir).unwrap();
    let engines = ["auto", "ic3", "bmc", "kind", "itp"];
    let mut decided = vec![(0usize, 0usize, 0usize); engines.len()];
    let mut expected_fails = 0;
    for case in 0..cases {
        let mut rng = Rng::new(9000 + case);
        let a = random_circuit(&mut rng);
        let model = dir.join(format!("case{case}.aag"));
        std::fs::write(&model, write_ascii(&a)).unwrap();
        let m = model.to_str().unwrap();
        let expected = fails(&a);
        expected_fails += expected as usize;
        for (e, engine) in engines.iter().enumerate() {
            // A lasso of the safety circuit is at most twice the states
            // long, plus the step that closes it.
            let bound = (2usize << a.latches.len()) + 2;
            let bound = bound.to_string();
            let mut args = vec!["check", m, "--engine", engine, "--timeout", "10"];
            // k-induction proves few liveness circuits: bounded too, so
            // that an undecided one ends at once.
            if *engine == "bmc" || *engine == "kind" {
                args.extend(["--max-k", &bound]);
            }
            let out = Command::new(env!("CARGO_BIN_EXE_invar"))
                .args(&args)
                .output()
                .unwrap();
            let says = String::from_utf8_lossy(&out.stdout).into_owned();
            match out.status.code() {
                Some(10) => {
                    assert!(
                        expected,
                        "case {case}: {engine} finds a lasso, the search no fair cycle\n{says}"
                    );
                    let witness = dir.join(format!("case{case}-{engine}.cex"));
                    std::fs::write(&witness, &says).unwrap();
                    if let Err(why) = common::aigsim_accepts(&model, &witness) {
                        panic!("case {case}: aigsim rejects {engine}'s lasso: {why}\n{says}");
                    }
                    decided[e].1 += 1;
                }
                Some(20) => {
                    assert!(!expected, "case {case}: {engine} says the property holds, the search finds a fair cycle");
                    decided[e].0 += 1;
                }
                Some(0) => decided[e].2 += 1,
                other => panic!(
                    "case {case}: {engine} ends with {other:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                ),
            }
        }
    }
    eprintln!("{cases} circuits, {expected_fails} with a fair cycle");
    for (engine, &(holds, fails, unknown)) in engines.iter().zip(&decided) {
        eprintln!("{engine}: {holds} hold, {fails} fail, {unknown} unknown");
        // BMC finds lassos only; the proof engines must decide nearly all.
        let (got, of) = match *engine {
            "bmc" => (fails, expected_fails),
            _ => (holds + fails, cases as usize),
        };
        if *engine != "kind" {
            assert!(100 * got >= 95 * of, "{engine} decides {got} of {of}");
        }
    }
    assert!(expected_fails > 0 && expected_fails < cases as usize);
}

/// A lasso's loop, as `--json` (`loop_start`) and `--vcd` (a comment and
/// the `lasso_loop` signal) name it, is the first step i that the state
/// after the last step equals and from which every justice and fairness
/// signal holds somewhere: found here by simulating the witness.
#[test]
fn lassos_name_their_loop_in_json_and_vcd() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("liveness-loop");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut checked, mut later) = (0, 0);
    for case in 0..60u64 {
        let mut rng = Rng::new(9000 + case);
        let a = random_circuit(&mut rng);
        if !fails(&a) {
            continue;
        }
        let model = dir.join(format!("case{case}.aag"));
        let vcd = dir.join(format!("case{case}.vcd"));
        std::fs::write(&model, write_ascii(&a)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_invar"))
            .args(["check", "--json", "--timeout", "10", "--vcd"])
            .args([&vcd, &model])
            .output()
            .unwrap();
        let json = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(10), "case {case}: {json}");
        let field = |key: &str| -> String {
            let at = json.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
            let rest = &json[at..];
            match rest.strip_prefix('"') {
                Some(s) => s[..s.find('"').unwrap()].replace("\\n", "\n"),
                None => rest[..rest.find([',', '}']).unwrap()].to_string(),
            }
        };
        assert_eq!(field("justice"), "0", "case {case}: {json}");
        let loop_start: usize = field("loop_start").parse().unwrap();
        let lines: Vec<String> = field("witness").lines().map(String::from).collect();
        let bits = |l: &str| l.chars().map(|c| c == '1').collect::<Vec<bool>>();
        assert!(
            !lines[2].contains('x'),
            "case {case}: an open initial bit: {json}"
        );
        let inputs: Vec<Vec<bool>> = lines[3..lines.len() - 1].iter().map(|l| bits(l)).collect();
        let signals: Vec<u32> = a.justice[0].iter().chain(&a.fairness).copied().collect();
        let (mut states, mut held) = (vec![bits(&lines[2])], Vec::new());
        for x in &inputs {
            let v = common::aiger_values(&a, x, states.last().unwrap());
            held.push(
                signals
                    .iter()
                    .map(|&g| common::aiger_value(&v, g))
                    .collect::<Vec<bool>>(),
            );
            states.push(
                a.latches
                    .iter()
                    .map(|l| common::aiger_value(&v, l.next))
                    .collect(),
            );
        }
        let n = inputs.len();
        let first = (0..n).find(|&i| {
            states[i] == states[n] && (0..signals.len()).all(|s| (i..n).any(|t| held[t][s]))
        });
        assert_eq!(Some(loop_start), first, "case {case}: {json}");
        let text = std::fs::read_to_string(&vcd).unwrap();
        let comment = format!("step {} is followed by step {loop_start} again", n - 1);
        assert!(
            text.contains(&comment),
            "case {case}: no `{comment}` in\n{text}"
        );
        assert!(text.contains(" lasso_loop $end"), "case {case}:\n{text}");
        checked += 1;
        later += (loop_start > 0) as usize;
    }
    eprintln!("{checked} lassos, {later} looping back to a later step than the first");
    assert!(
        checked >= 5 && later >= 1,
        "{checked} lassos, {later} with a later loop"
    );
}

/// The random circuit as BTOR2: one `bitvec 1` node per AIGER variable,
/// negation by negative ids, its justice, fairness and constraints as
/// BTOR2's own.
fn btor2_of(a: &Aiger) -> String {
    let mut out = String::from("1 sort bitvec 1\n2 zero 1\n3 one 1\n");
    let mut next_id = 4u64;
    let mut node = vec![2u64; a.maxvar as usize + 1];
    let mut line = |text: String, out: &mut String| -> u64 {
        let id = next_id;
        next_id += 1;
        out.push_str(&format!("{id} {text}\n"));
        id
    };
    for (k, &i) in a.inputs.iter().enumerate() {
        node[(i >> 1) as usize] = line(format!("input 1 i{k}"), &mut out);
    }
    for (k, l) in a.latches.iter().enumerate() {
        node[(l.lit >> 1) as usize] = line(format!("state 1 l{k}"), &mut out);
    }
    let arg = |node: &[u64], lit: u32| -> String {
        let id = node[(lit >> 1) as usize];
        if lit & 1 == 1 {
            format!("-{id}")
        } else {
            id.to_string()
        }
    };
    for g in &a.ands {
        let text = format!("and 1 {} {}", arg(&node, g.rhs0), arg(&node, g.rhs1));
        node[(g.lhs >> 1) as usize] = line(text, &mut out);
    }
    for l in &a.latches {
        let state = node[(l.lit >> 1) as usize];
        match l.reset {
            Reset::Zero => line(format!("init 1 {state} 2"), &mut out),
            Reset::One => line(format!("init 1 {state} 3"), &mut out),
            _ => 0,
        };
        line(format!("next 1 {state} {}", arg(&node, l.next)), &mut out);
    }
    for &c in &a.constraints {
        line(format!("constraint {}", arg(&node, c)), &mut out);
    }
    for &f in &a.fairness {
        line(format!("fair {}", arg(&node, f)), &mut out);
    }
    let signals: Vec<String> = a.justice[0].iter().map(|&s| arg(&node, s)).collect();
    let text = format!("justice {} {}", signals.len(), signals.join(" "));
    line(text, &mut out);
    out
}

/// The random circuit as VMT, where its property has a VMT form (one
/// justice signal `s`, no fairness: `:live-property (not s)`); the
/// constraints are part of the transition relation, which an infinite run
/// takes in every step.
fn vmt_of(a: &Aiger) -> Option<String> {
    if a.justice[0].len() != 1 || !a.fairness.is_empty() {
        return None;
    }
    let mut name = vec!["false".to_string(); a.maxvar as usize + 1];
    let mut out = String::new();
    for (k, &i) in a.inputs.iter().enumerate() {
        out += &format!("(declare-fun i{k} () Bool)\n");
        name[(i >> 1) as usize] = format!("i{k}");
    }
    for (k, l) in a.latches.iter().enumerate() {
        out += &format!("(declare-fun l{k} () Bool)\n(declare-fun l{k}.next () Bool)\n");
        out += &format!("(define-fun s{k} () Bool (! l{k} :next l{k}.next))\n");
        name[(l.lit >> 1) as usize] = format!("l{k}");
    }
    let term = |name: &[String], lit: u32| -> String {
        let n = &name[(lit >> 1) as usize];
        if lit & 1 == 1 {
            format!("(not {n})")
        } else {
            n.clone()
        }
    };
    for g in &a.ands {
        let v = g.lhs >> 1;
        let body = format!("(and {} {})", term(&name, g.rhs0), term(&name, g.rhs1));
        out += &format!("(define-fun g{v} () Bool {body})\n");
        name[v as usize] = format!("g{v}");
    }
    let mut init = vec!["true".to_string(), "true".to_string()];
    let mut trans = init.clone();
    for (k, l) in a.latches.iter().enumerate() {
        match l.reset {
            Reset::Zero => init.push(format!("(not l{k})")),
            Reset::One => init.push(format!("l{k}")),
            _ => {}
        }
        trans.push(format!("(= l{k}.next {})", term(&name, l.next)));
    }
    trans.extend(a.constraints.iter().map(|&c| term(&name, c)));
    out += &format!(
        "(define-fun init () Bool (! (and {}) :init true))\n",
        init.join(" ")
    );
    out += &format!(
        "(define-fun trans () Bool (! (and {}) :trans true))\n",
        trans.join(" ")
    );
    let live = format!("(not {})", term(&name, a.justice[0][0]));
    out += &format!("(define-fun live () Bool (! {live} :live-property 0))\n");
    Some(out)
}

/// An AIGER witness (for aigsim) of a word-level lasso of the random
/// circuit: its first state's latch values and each step's inputs, by
/// name (`l3`, `i0`) and value, in the order of the circuit's latches and
/// inputs.
fn aiger_witness_of(a: &Aiger, first: &[(String, bool)], steps: &[Vec<(String, bool)>]) -> String {
    let value = |pairs: &[(String, bool)], name: &str| -> char {
        let found = pairs.iter().find(|(n, _)| n == name);
        match found {
            Some((_, true)) => '1',
            Some((_, false)) => '0',
            None => panic!("no value of {name} in {pairs:?}"),
        }
    };
    let mut out = String::from("1\nj0\n");
    out.extend((0..a.latches.len()).map(|k| value(first, &format!("l{k}"))));
    out.push('\n');
    for step in steps {
        out.extend((0..a.inputs.len()).map(|k| value(step, &format!("i{k}"))));
        out.push('\n');
    }
    out.push_str(".\n");
    out
}

/// The values of a BTOR2 witness of a `bitvec 1` model: the first
/// frame's states and each frame's inputs, by name.
type Frames = (Vec<(String, bool)>, Vec<Vec<(String, bool)>>);

fn btor2_frames(witness: &str) -> Frames {
    let (mut first, mut steps) = (Vec::new(), Vec::<Vec<(String, bool)>>::new());
    let mut in_inputs = false;
    for line in witness.lines().skip(2) {
        if line.starts_with('#') {
            in_inputs = false;
        } else if line.starts_with('@') {
            in_inputs = true;
            steps.push(Vec::new());
        } else if let [_, bits, label] = line.split(' ').collect::<Vec<_>>()[..] {
            let name = label.split(['#', '@']).next().unwrap().to_string();
            let pair = (name, bits == "1");
            if steps.is_empty() {
                first.push(pair);
            } else if let (true, Some(step)) = (in_inputs, steps.last_mut()) {
                step.push(pair);
            }
        }
    }
    (first, steps)
}

/// The values of a VMT counterexample (`(and (= l0 true) (= i0 false))` per
/// step) of the random circuit, by name.
fn vmt_frames(trace: &str) -> Frames {
    let steps: Vec<Vec<(String, bool)>> = (trace.lines())
        .filter(|l| l.starts_with("(and"))
        .map(|l| {
            l.split("(= ")
                .skip(1)
                .map(|eq| {
                    let mut words = eq.split([' ', ')']);
                    let name = words.next().unwrap().to_string();
                    (name, words.next() == Some("true"))
                })
                .collect()
        })
        .collect();
    (steps.first().cloned().unwrap_or_default(), steps)
}

/// BTOR2 `justice`/`fair`/`constraint` and VMT `:live-property`, decided on
/// the same engines: the random circuits written in both formats, every
/// verdict against the fair-cycle search, every lasso (BTOR2 witness or VMT
/// counterexample) turned into an AIGER witness by name and checked by
/// aigsim on the circuit. `INVAR_LIVE_RANDOM=N` runs N circuits (CI: 80).
#[test]
fn word_level_liveness_agrees_with_the_search() {
    let cases: u64 = (std::env::var("INVAR_LIVE_RANDOM").ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(80);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("liveness-word");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut decided, mut lassos, mut vmt_cases) = (0, 0, 0);
    for case in 0..cases {
        let mut rng = Rng::new(9000 + case);
        let a = random_circuit(&mut rng);
        let expected = fails(&a);
        let aag = dir.join(format!("case{case}.aag"));
        std::fs::write(&aag, write_ascii(&a)).unwrap();
        let mut models = vec![("btor2", btor2_of(&a))];
        if let Some(text) = vmt_of(&a) {
            models.push(("vmt", text));
            vmt_cases += 1;
        }
        for (ext, text) in models {
            let model = dir.join(format!("case{case}.{ext}"));
            std::fs::write(&model, text).unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_invar"))
                .args(["check", "--witness", "--timeout", "10"])
                .arg(&model)
                .output()
                .unwrap();
            let says = String::from_utf8_lossy(&out.stdout).into_owned();
            match out.status.code() {
                Some(10) => {
                    assert!(
                        expected,
                        "case {case} ({ext}): a lasso, and the search finds no fair cycle\n{says}"
                    );
                    let (first, steps) = match ext {
                        "btor2" => btor2_frames(&says),
                        _ => vmt_frames(&says),
                    };
                    let witness = dir.join(format!("case{case}-{ext}.cex"));
                    std::fs::write(&witness, aiger_witness_of(&a, &first, &steps)).unwrap();
                    if let Err(why) = common::aigsim_accepts(&aag, &witness) {
                        panic!("case {case} ({ext}): aigsim rejects the lasso: {why}\n{says}");
                    }
                    lassos += 1;
                    decided += 1;
                }
                Some(20) => {
                    assert!(
                        !expected,
                        "case {case} ({ext}): holds, and the search finds a fair cycle"
                    );
                    decided += 1;
                }
                Some(0) => {}
                other => panic!(
                    "case {case} ({ext}): ends with {other:?}: {}",
                    String::from_utf8_lossy(&out.stderr)
                ),
            }
        }
    }
    let runs = cases as usize + vmt_cases;
    eprintln!("{runs} word-level models ({vmt_cases} VMT): {decided} decided, {lassos} lassos");
    assert!(100 * decided >= 95 * runs, "{decided} of {runs} decided");
    assert!(vmt_cases > 0 && lassos > 0);
}
