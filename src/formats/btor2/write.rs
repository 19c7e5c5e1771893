//! The BTOR2 writer: one node per distinct term, Booleans as `bitvec 1`.
//!
//! Relational parts (VMT `:init`/`:trans`, DimSpec) are encoded as the
//! bit-blaster does: primed copies become inputs, a state `first` guards the
//! initial condition as a constraint, and a state `valid` (init 1, next
//! `valid ∧ trans`) guards every bad property, so a bad state without a
//! successor is still reported.

use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::Ts;
use std::collections::HashMap;
use std::fmt::Write;

/// A system BTOR2 cannot express (Int or Real terms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inexpressible(pub String);

struct Writer<'a> {
    terms: &'a Terms,
    out: String,
    next_id: u64,
    sorts: HashMap<Sort, u64>,
    nodes: HashMap<Term, u64>,
}

impl Writer<'_> {
    fn line(&mut self, text: String) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        writeln!(self.out, "{id} {text}").expect("string");
        id
    }

    fn sort(&mut self, s: &Sort) -> Result<u64, Inexpressible> {
        let s = match s {
            Sort::Bool => Sort::BitVec(1),
            other => other.clone(),
        };
        if let Some(&id) = self.sorts.get(&s) {
            return Ok(id);
        }
        let text = match &s {
            Sort::BitVec(w) => format!("sort bitvec {w}"),
            Sort::Array(i, e) => {
                let (i, e) = (self.sort(i)?, self.sort(e)?);
                format!("sort array {i} {e}")
            }
            other => return Err(Inexpressible(format!("BTOR2 has no sort {other}"))),
        };
        let id = self.line(text);
        self.sorts.insert(s, id);
        Ok(id)
    }

    fn constant(&mut self, v: &BvValue) -> Result<u64, Inexpressible> {
        let sid = self.sort(&Sort::BitVec(v.width()))?;
        Ok(self.line(format!("const {sid} {}", v.to_binary())))
    }

    /// The node of `root`, writing the nodes of its subterms first.
    fn node(&mut self, root: Term) -> Result<u64, Inexpressible> {
        for t in self.terms.topological(&[root]) {
            if !self.nodes.contains_key(&t) {
                let id = self.emit(t)?;
                self.nodes.insert(t, id);
            }
        }
        Ok(self.nodes[&root])
    }

    /// Left-nested binary applications of `tag` over `args`.
    fn chain(&mut self, tag: &str, sid: u64, args: &[u64]) -> u64 {
        let mut acc = args[0];
        for &a in &args[1..] {
            acc = self.line(format!("{tag} {sid} {acc} {a}"));
        }
        acc
    }

    fn emit(&mut self, t: Term) -> Result<u64, Inexpressible> {
        let terms = self.terms;
        let args: Vec<u64> = terms.args(t).iter().map(|a| self.nodes[a]).collect();
        let sid = self.sort(terms.sort(t))?;
        let bool_sid = self.sort(&Sort::Bool)?;
        let op = terms.op(t);
        // ite(p, #b1, #b0) is p itself in BTOR2.
        if let (Op::Ite, [_, one, zero]) = (op, terms.args(t)) {
            let is = |x: Term, b: bool| matches!(terms.op(x), Op::Bv(v) if v.width() == 1 && v.bit(0) == b);
            if is(*one, true) && is(*zero, false) {
                return Ok(args[0]);
            }
        }
        let binary =
            |w: &mut Self, tag: &str| w.line(format!("{tag} {sid} {} {}", args[0], args[1]));
        Ok(match op {
            Op::Var(name, _) => {
                return Err(Inexpressible(format!(
                    "`{name}` is neither a state nor an input"
                )))
            }
            Op::Bool(b) => self.line(format!("{} {sid}", if *b { "one" } else { "zero" })),
            Op::Bv(v) => self.constant(v)?,
            Op::Not | Op::BvNot => self.line(format!("not {sid} {}", args[0])),
            Op::And | Op::BvAnd => self.chain("and", sid, &args),
            Op::Or | Op::BvOr => self.chain("or", sid, &args),
            Op::Xor | Op::BvXor => self.chain("xor", sid, &args),
            Op::Implies => {
                let mut acc = *args.last().expect("arity");
                for &a in args[..args.len() - 1].iter().rev() {
                    acc = self.line(format!("implies {sid} {a} {acc}"));
                }
                acc
            }
            Op::Eq | Op::Distinct => {
                let tag = if *op == Op::Eq { "eq" } else { "neq" };
                let mut parts = Vec::new();
                for i in 0..args.len() {
                    let js: Vec<usize> = if *op == Op::Eq {
                        vec![i + 1]
                    } else {
                        (i + 1..args.len()).collect()
                    };
                    for j in js.into_iter().filter(|&j| j < args.len()) {
                        parts.push(self.line(format!("{tag} {bool_sid} {} {}", args[i], args[j])));
                    }
                }
                self.chain("and", bool_sid, &parts)
            }
            Op::Ite => self.line(format!("ite {sid} {} {} {}", args[0], args[1], args[2])),
            Op::BvNeg => self.line(format!("neg {sid} {}", args[0])),
            Op::BvAdd => self.chain("add", sid, &args),
            Op::BvMul => self.chain("mul", sid, &args),
            Op::Concat => {
                // Each partial concatenation has its own sort.
                let mut acc = args[0];
                let mut width = terms.sort(terms.args(t)[0]).bv_width().expect("bv");
                for (k, &a) in args.iter().enumerate().skip(1) {
                    width += terms.sort(terms.args(t)[k]).bv_width().expect("bv");
                    let s = self.sort(&Sort::BitVec(width))?;
                    acc = self.line(format!("concat {s} {acc} {a}"));
                }
                acc
            }
            Op::Repeat(k) => {
                let w = terms.sort(terms.args(t)[0]).bv_width().expect("bv");
                let mut acc = args[0];
                for i in 1..*k {
                    let s = self.sort(&Sort::BitVec(w * (i + 1)))?;
                    acc = self.line(format!("concat {s} {acc} {}", args[0]));
                }
                acc
            }
            Op::Extract(hi, lo) => self.line(format!("slice {sid} {} {hi} {lo}", args[0])),
            Op::ZeroExtend(k) => self.line(format!("uext {sid} {} {k}", args[0])),
            Op::SignExtend(k) => self.line(format!("sext {sid} {} {k}", args[0])),
            Op::RotateLeft(k) | Op::RotateRight(k) => {
                let w = terms.sort(t).bv_width().expect("bv");
                let amount = self.constant(&BvValue::from_u64(w, (*k % w) as u64))?;
                let tag = if matches!(op, Op::RotateLeft(_)) {
                    "rol"
                } else {
                    "ror"
                };
                self.line(format!("{tag} {sid} {} {amount}", args[0]))
            }
            Op::BvComp => self.line(format!("eq {sid} {} {}", args[0], args[1])),
            Op::BvRedAnd | Op::BvRedOr | Op::BvRedXor => {
                let tag = btor2_tag(op).expect("reductions have tags");
                self.line(format!("{tag} {sid} {}", args[0]))
            }
            Op::Select => binary(self, "read"),
            Op::Store => self.line(format!("write {sid} {} {} {}", args[0], args[1], args[2])),
            Op::ConstArray(_) => {
                return Err(Inexpressible(
                    "a constant array outside an init is not expressible in BTOR2".into(),
                ))
            }
            other => match btor2_tag(other) {
                Some(tag) => binary(self, tag),
                None => {
                    return Err(Inexpressible(format!(
                        "`{}` (Int/Real arithmetic) is not expressible in BTOR2",
                        other.smt_name()
                    )))
                }
            },
        })
    }
}

/// The BTOR2 tag of a binary bit-vector operator or predicate.
fn btor2_tag(op: &Op) -> Option<&'static str> {
    use Op::*;
    Some(match op {
        BvNand => "nand",
        BvNor => "nor",
        BvXnor => "xnor",
        BvSub => "sub",
        BvUdiv => "udiv",
        BvUrem => "urem",
        BvSdiv => "sdiv",
        BvSrem => "srem",
        BvSmod => "smod",
        BvShl => "sll",
        BvLshr => "srl",
        BvAshr => "sra",
        BvRol => "rol",
        BvRor => "ror",
        BvUlt => "ult",
        BvUle => "ulte",
        BvUgt => "ugt",
        BvUge => "ugte",
        BvSlt => "slt",
        BvSle => "slte",
        BvSgt => "sgt",
        BvSge => "sgte",
        BvRedAnd => "redand",
        BvRedOr => "redor",
        BvRedXor => "redxor",
        BvUaddo => "uaddo",
        BvSaddo => "saddo",
        BvUsubo => "usubo",
        BvSsubo => "ssubo",
        BvUmulo => "umulo",
        BvSmulo => "smulo",
        BvSdivo => "sdivo",
        _ => return None,
    })
}

/// The BTOR2 text of `ts`.
pub fn write(ts: &Ts) -> Result<String, Inexpressible> {
    let mut w = Writer {
        terms: &ts.terms,
        out: String::from("; BTOR2 written by invar\n"),
        next_id: 1,
        sorts: HashMap::new(),
        nodes: HashMap::new(),
    };
    let bool_sid = w.sort(&Sort::Bool)?;
    let symbol = |terms: &Terms, v: Term| {
        let name = terms.var_name(v).unwrap_or_default();
        if name.is_empty() || name.contains(char::is_whitespace) || name.contains(';') {
            String::new()
        } else {
            format!(" {name}")
        }
    };
    let mut state_ids = Vec::new();
    for s in &ts.states {
        let sid = w.sort(ts.terms.sort(s.var))?;
        let id = w.line(format!("state {sid}{}", symbol(&ts.terms, s.var)));
        w.nodes.insert(s.var, id);
        state_ids.push(id);
    }
    for &i in &ts.inputs {
        let sid = w.sort(ts.terms.sort(i))?;
        let id = w.line(format!("input {sid}{}", symbol(&ts.terms, i)));
        w.nodes.insert(i, id);
    }
    // Primed copies used by relational transitions are inputs (their states
    // take the input's value via `next` unless a next function exists).
    for s in &ts.states {
        if let Some(p) = s.next_var {
            let sid = w.sort(ts.terms.sort(p))?;
            let id = w.line(format!("input {sid}{}", symbol(&ts.terms, p)));
            w.nodes.insert(p, id);
        }
    }
    let relational_init = !ts.init.is_empty();
    let first = if relational_init {
        let f = w.line(format!("state {bool_sid} invar.first"));
        let one = w.line(format!("one {bool_sid}"));
        let zero = w.line(format!("zero {bool_sid}"));
        w.line(format!("init {bool_sid} {f} {one}"));
        w.line(format!("next {bool_sid} {f} {zero}"));
        Some(f)
    } else {
        None
    };
    for (s, &id) in ts.states.iter().zip(&state_ids) {
        let sid = w.sort(ts.terms.sort(s.var))?;
        if let Some(init) = s.init {
            let value = match ts.terms.op(init) {
                // An array initialised everywhere to one value: BTOR2 takes the element.
                Op::ConstArray(_) => w.node(ts.terms.args(init)[0])?,
                _ => w.node(init)?,
            };
            w.line(format!("init {sid} {id} {value}"));
        }
        let next = match (s.next, s.next_var) {
            (Some(n), Some(p)) => {
                // The primed copy must equal the next function.
                let n = w.node(n)?;
                let same = w.line(format!("eq {bool_sid} {} {n}", w.nodes[&p]));
                w.line(format!("constraint {same}"));
                Some(n)
            }
            (Some(n), None) => Some(w.node(n)?),
            (None, Some(p)) => Some(w.nodes[&p]),
            (None, None) => None,
        };
        if let Some(n) = next {
            w.line(format!("next {sid} {id} {n}"));
        }
    }
    for &c in &ts.constraints {
        let n = w.node(c)?;
        w.line(format!("constraint {n}"));
    }
    if let Some(f) = first {
        for &i in &ts.init {
            let n = w.node(i)?;
            let guarded = w.line(format!("implies {bool_sid} {f} {n}"));
            w.line(format!("constraint {guarded}"));
        }
    }
    let valid = if ts.trans.is_empty() {
        None
    } else {
        let v = w.line(format!("state {bool_sid} invar.valid"));
        let one = w.line(format!("one {bool_sid}"));
        w.line(format!("init {bool_sid} {v} {one}"));
        let mut all = v;
        for &t in &ts.trans {
            let n = w.node(t)?;
            all = w.line(format!("and {bool_sid} {all} {n}"));
        }
        w.line(format!("next {bool_sid} {v} {all}"));
        Some(v)
    };
    for p in &ts.bad {
        let mut n = w.node(p.term)?;
        if let Some(v) = valid {
            n = w.line(format!("and {bool_sid} {v} {n}"));
        }
        let name = if p.name.contains(char::is_whitespace) {
            String::new()
        } else {
            format!(" {}", p.name)
        };
        w.line(format!("bad {n}{name}"));
    }
    for &f in &ts.fairness {
        let n = w.node(f)?;
        w.line(format!("fair {n}"));
    }
    // An infinite run keeps the relational parts for ever: `valid` is a
    // fairness constraint of the liveness properties.
    if let (Some(v), true) = (valid, ts.liveness_count() > 0) {
        w.line(format!("fair {v}"));
    }
    for j in &ts.justice {
        let ids: Vec<String> = j
            .iter()
            .map(|&t| w.node(t).map(|n| n.to_string()))
            .collect::<Result<_, _>>()?;
        w.line(format!("justice {} {}", ids.len(), ids.join(" ")));
    }
    // `:live-property p` (F G p) is the justice property of `¬p`.
    for p in &ts.live {
        let n = w.node(p.term)?;
        let not = w.line(format!("not {bool_sid} {n}"));
        w.line(format!("justice 1 {not}"));
    }
    Ok(w.out)
}
