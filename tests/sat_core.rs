//! Differential tests of invar's SAT core against CaDiCaL.
//!
//! Random incremental sessions (clauses added between queries, assumptions,
//! temporary clauses) on random CNF and on random circuits whose gates are
//! given as definitions, so that queries are domain-restricted. For every
//! query: the same answer as CaDiCaL; a model, completed by evaluating the
//! gates outside the domain, satisfies every clause, the temporary clause
//! and the assumptions; a failed core is unsatisfiable on CaDiCaL.
//!
//! `INVAR_CORE_FUZZ_QUERIES=N` runs a long campaign of at least N queries
//! (the CI share is fixed-seed and a few seconds long).

use invar::sat::core::Core;
use invar::sat::{Backend, Lit, Roots, SolveResult, Solver};
use invar::util::budget::Budget;
use invar::util::rng::Rng;

/// What the session has added, mirrored for checking.
struct Session {
    core: Core,
    /// The gate definition of each variable (index = var): AND of two literals.
    gates: Vec<Option<(Lit, Lit)>>,
    /// Every permanent clause.
    clauses: Vec<Vec<Lit>>,
    log: Vec<String>,
}

impl Session {
    fn new() -> Session {
        let core = Core::new(Budget::unlimited());
        Session {
            // Variables the core made for itself are free.
            gates: vec![None; core.num_vars() as usize + 1],
            core,
            clauses: Vec::new(),
            log: Vec::new(),
        }
    }

    fn var(&mut self) -> Lit {
        let v = self.core.new_var();
        self.log.push(format!("V {}", v.var()));
        self.gates.push(None);
        v
    }

    fn gate(&mut self, a: Lit, b: Lit) -> Lit {
        let g = self.var();
        for c in [vec![!g, a], vec![!g, b], vec![g, !a, !b]] {
            self.core.add_definition(g.var(), &c);
            self.log.push(format!(
                "D {} {:?}",
                g.var(),
                c.iter().map(|l| l.dimacs()).collect::<Vec<_>>()
            ));
            self.clauses.push(c);
        }
        self.gates[g.var() as usize] = Some((a, b));
        g
    }

    fn clause(&mut self, c: Vec<Lit>) {
        Solver::add_clause(&mut self.core, &c);
        self.log.push(format!(
            "C {:?}",
            c.iter().map(|l| l.dimacs()).collect::<Vec<_>>()
        ));
        self.clauses.push(c);
    }

    /// A reference solver holding the same permanent clauses.
    fn reference(&self) -> Box<dyn Solver> {
        let mut s = Backend::Cadical.create(Budget::unlimited());
        for _ in 1..self.gates.len() {
            s.new_var();
        }
        for c in &self.clauses {
            s.add_clause(c);
        }
        s
    }

    /// The core's partial model completed: assumed free variables take their
    /// assumed value, other free ones false, gates their function.
    fn completed_model(&self, assumptions: &[Lit]) -> Vec<bool> {
        let mut value = vec![false; self.gates.len()];
        let lit = |value: &Vec<bool>, l: Lit| value[l.var() as usize] ^ l.is_negative();
        for v in 1..self.gates.len() {
            let p = Lit::positive(v as u32);
            value[v] = match self.core.value(p) {
                invar::sat::core::Value::True => true,
                invar::sat::core::Value::False => false,
                invar::sat::core::Value::Unassigned => match self.gates[v] {
                    Some((a, b)) => lit(&value, a) && lit(&value, b),
                    None => assumptions
                        .iter()
                        .find(|a| a.var() == v as u32)
                        .is_some_and(|a| !a.is_negative()),
                },
            };
        }
        value
    }
}

fn satisfied(value: &[bool], clause: &[Lit]) -> bool {
    clause
        .iter()
        .any(|l| value[l.var() as usize] ^ l.is_negative())
}

fn random_lit(rng: &mut Rng, vars: &[Lit]) -> Lit {
    vars[rng.below(vars.len() as u64) as usize].xor(rng.coin())
}

/// Checks one query of the session against CaDiCaL; returns the answer.
fn check_query(
    s: &mut Session,
    assumptions: &[Lit],
    temporary: Option<&[Lit]>,
    roots: Roots,
) -> SolveResult {
    let answer = s.core.solve_with_temporary(assumptions, temporary, roots);
    s.log.push(format!(
        "Q {:?} {:?} {:?} -> {:?}",
        assumptions.iter().map(|l| l.dimacs()).collect::<Vec<_>>(),
        temporary.map(|t| t.iter().map(|l| l.dimacs()).collect::<Vec<_>>()),
        roots,
        answer
    ));
    let mut reference = s.reference();
    let act = reference.new_var();
    let mut ref_assumptions = vec![act];
    ref_assumptions.extend_from_slice(assumptions);
    if let Some(t) = temporary {
        let mut guarded = vec![!act];
        guarded.extend_from_slice(t);
        reference.add_clause(&guarded);
    }
    let expected = reference.solve(&ref_assumptions);
    if answer != expected {
        for l in &s.log {
            eprintln!("LOG {l}");
        }
        eprintln!(
            "gates {:?}",
            s.gates
                .iter()
                .enumerate()
                .filter_map(|(i, g)| g.map(|(a, b)| (i, a.dimacs(), b.dimacs())))
                .collect::<Vec<_>>()
        );
        eprintln!(
            "clauses {:?}",
            s.clauses
                .iter()
                .map(|c| c.iter().map(|l| l.dimacs()).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        );
        eprintln!(
            "assumptions {:?} temporary {:?} roots {:?}",
            assumptions.iter().map(|l| l.dimacs()).collect::<Vec<_>>(),
            temporary.map(|t| t.iter().map(|l| l.dimacs()).collect::<Vec<_>>()),
            roots
        );
    }
    assert_eq!(answer, expected, "answer differs from CaDiCaL");
    match answer {
        SolveResult::Sat => {
            let value = s.completed_model(assumptions);
            for c in &s.clauses {
                assert!(satisfied(&value, c), "model violates clause {c:?}");
            }
            if let Some(t) = temporary {
                assert!(satisfied(&value, t), "model violates the temporary clause");
            }
            for a in assumptions {
                assert!(satisfied(&value, &[*a]), "model violates assumption {a}");
            }
        }
        SolveResult::Unsat => {
            let core: Vec<Lit> = (assumptions.iter().copied())
                .filter(|&a| s.core.failed(a))
                .collect();
            let mut check = s.reference();
            let act = check.new_var();
            if let Some(t) = temporary {
                let mut guarded = vec![!act];
                guarded.extend_from_slice(t);
                check.add_clause(&guarded);
            }
            let mut with_act = vec![act];
            with_act.extend_from_slice(&core);
            assert_eq!(
                check.solve(&with_act),
                SolveResult::Unsat,
                "the failed core {core:?} is satisfiable"
            );
        }
        SolveResult::Interrupted => panic!("no budget was set"),
    }
    answer
}

/// A session on random CNF: clauses and queries interleaved.
fn cnf_session(rng: &mut Rng, queries: usize) -> usize {
    let mut s = Session::new();
    let n = 8 + rng.below(40) as usize;
    let vars: Vec<Lit> = (0..n).map(|_| s.var()).collect();
    let mut done = 0;
    while done < queries {
        for _ in 0..rng.below(n as u64 / 2 + 1) {
            let len = 2 + rng.below(3) as usize;
            let c: Vec<Lit> = (0..len).map(|_| random_lit(rng, &vars)).collect();
            s.clause(c);
        }
        let k = rng.below(6) as usize;
        let assumptions: Vec<Lit> = (0..k).map(|_| random_lit(rng, &vars)).collect();
        let temporary: Option<Vec<Lit>> = rng.coin().then(|| {
            (0..1 + rng.below(4))
                .map(|_| random_lit(rng, &vars))
                .collect()
        });
        check_query(
            &mut s,
            &assumptions,
            temporary.as_deref(),
            Roots::Assumptions,
        );
        done += 1;
    }
    done
}

/// A session on a random circuit: leaves, gates as definitions, "lemmas"
/// over leaves, queries on gates with temporary clauses over leaves, and
/// lifting-style queries (a full leaf assignment, rooted at the clause).
fn circuit_session(rng: &mut Rng, queries: usize) -> usize {
    let mut s = Session::new();
    let leaves: Vec<Lit> = (0..4 + rng.below(12)).map(|_| s.var()).collect();
    let mut nodes = leaves.clone();
    for _ in 0..10 + rng.below(60) {
        let a = random_lit(rng, &nodes);
        let b = random_lit(rng, &nodes);
        if a.var() == b.var() {
            continue;
        }
        let g = s.gate(a, b);
        nodes.push(g);
    }
    let gates: Vec<Lit> = nodes[leaves.len()..].to_vec();
    let mut done = 0;
    while done < queries {
        if rng.below(3) == 0 {
            let len = 1 + rng.below(3) as usize;
            let c: Vec<Lit> = (0..len).map(|_| random_lit(rng, &leaves)).collect();
            s.clause(c);
        }
        if rng.below(4) == 0 {
            let roots: Vec<Lit> = (0..rng.below(3)).map(|_| random_lit(rng, &nodes)).collect();
            s.core.pin_domain(&roots);
            s.log.push("PIN".into());
        } else if rng.below(4) == 0 {
            s.core.unpin_domain();
            s.log.push("UNPIN".into());
        }
        if rng.coin() {
            let k = rng.below(4) as usize;
            let assumptions: Vec<Lit> = (0..k).map(|_| random_lit(rng, &gates)).collect();
            let temporary: Option<Vec<Lit>> = rng.coin().then(|| {
                (0..1 + rng.below(4))
                    .map(|_| random_lit(rng, &leaves))
                    .collect()
            });
            check_query(
                &mut s,
                &assumptions,
                temporary.as_deref(),
                Roots::Assumptions,
            );
        } else {
            let assumptions: Vec<Lit> = leaves.iter().map(|&l| l.xor(rng.coin())).collect();
            let target: Vec<Lit> = (0..1 + rng.below(3))
                .map(|_| random_lit(rng, &gates))
                .collect();
            check_query(&mut s, &assumptions, Some(&target), Roots::Clause);
        }
        done += 1;
    }
    done
}

fn campaign(seed: u64, queries: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut done = 0;
    while done < queries {
        let per = 5 + rng.below(40) as usize;
        done += if rng.coin() {
            cnf_session(&mut rng, per)
        } else {
            circuit_session(&mut rng, per)
        };
    }
    done
}

#[test]
fn core_agrees_with_cadical_on_random_sessions() {
    let queries = std::env::var("INVAR_CORE_FUZZ_QUERIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let done = campaign(0x5eed_c0de, queries);
    eprintln!("core differential: {done} queries, no disagreement");
}

#[test]
fn temporary_clauses_leave_nothing_behind() {
    let mut core = Core::new(Budget::unlimited());
    let a = core.new_var();
    let b = core.new_var();
    Solver::add_clause(&mut core, &[a, b]);
    // With ¬a as a temporary clause, b is forced and the query is UNSAT under ¬b.
    assert_eq!(
        core.solve_with_temporary(&[!b], Some(&[!a]), Roots::Assumptions),
        SolveResult::Unsat
    );
    assert!(core.failed(!b));
    // Gone afterwards: a alone satisfies the clause again.
    assert_eq!(Solver::solve(&mut core, &[!b]), SolveResult::Sat);
    assert!(core.model_value(a));
    // A temporary clause that contradicts the permanent ones on its own.
    Solver::add_clause(&mut core, &[!a]);
    assert_eq!(
        core.solve_with_temporary(&[], Some(&[!b]), Roots::Assumptions),
        SolveResult::Unsat
    );
    assert_eq!(Solver::solve(&mut core, &[]), SolveResult::Sat);
    assert!(core.model_value(b));
}

#[test]
fn queries_outside_a_gate_cone_leave_it_unassigned() {
    let mut core = Core::new(Budget::unlimited());
    let x = core.new_var();
    let y = core.new_var();
    let z = core.new_var();
    let g = core.new_var(); // g = x ∧ y
    core.add_definition(g.var(), &[!g, x]);
    core.add_definition(g.var(), &[!g, y]);
    core.add_definition(g.var(), &[g, !x, !y]);
    let h = core.new_var(); // h = y ∧ z
    core.add_definition(h.var(), &[!h, y]);
    core.add_definition(h.var(), &[!h, z]);
    core.add_definition(h.var(), &[h, !y, !z]);
    assert_eq!(Solver::solve(&mut core, &[g]), SolveResult::Sat);
    assert!(core.model_value(x) && core.model_value(y));
    // z and h are outside g's cone.
    assert_eq!(core.value(z), invar::sat::core::Value::Unassigned);
    assert_eq!(core.value(h), invar::sat::core::Value::Unassigned);
    assert_eq!(core.core_stats().restricted_queries, 1);
}
