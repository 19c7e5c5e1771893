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
