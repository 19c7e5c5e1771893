//! The bit-blaster: a word-level [`Ts`] over Bool and BitVec to the [`Aig`]
//! the bit-level engines consume, and bit-level traces back to word level.
//!
//! - A state is a vector of latches. A constant init becomes the latches'
//!   resets; any other init term leaves them uninitialised and adds the
//!   constraint `first → state = init`, where `first` is a latch true only in
//!   step 0 (for an AIGER file, [`bitblast_with_resets`] writes the term's
//!   bits as reset functions instead). Relational `init` terms are
//!   constrained the same way.
//! - Arrays with Bool or small bit-vector indices are expanded: the word of
//!   an array is its elements' words, index 0 first; `select` is a mux over
//!   the elements and `store` a conditional update of each.
//! - A state without a next function gets fresh inputs as its next value, so
//!   it takes any value in every step after the first.
//! - Relational `trans` terms cannot become AIGER constraints: those must hold
//!   in the last step too, which would demand a successor of the bad state and
//!   hide deadlocking counterexamples. Instead a latch `valid` (reset 1, next
//!   `valid ∧ trans`) records that every transition so far was legal, and each
//!   bad output is `bad ∧ valid`. For liveness `valid` is a fairness
//!   constraint: an infinite run keeps it for ever.
//! - Justice (BTOR2 `justice`, VMT `:live-property p` as the justice of
//!   `¬p`) and fairness become the circuit's justice and fairness, in that
//!   order: [`Ts::liveness_signals`] numbers them the same way.

mod lift;
mod poly;
mod words;

pub use lift::ts_from_aig;
pub use words::eq as words_equal;

use crate::ir::aig::{lit_value, Aig, Lit};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::{ArrayValue, Value};
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::trace::Trace;
use crate::ir::ts::{Ts, WordTrace};
use std::collections::HashMap;
use std::fmt;
use words::{Shift, Word};

/// A construct the bit-blaster does not handle (the model is not understood, so no verdict).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The bit-level form of a transition system, with the maps back to words.
#[derive(Clone, Debug)]
pub struct Blasted {
    /// The circuit: one bad output per property of the system, in order.
    pub aig: Aig,
    /// For each state, the latch position of each bit (LSB first).
    pub state_latches: Vec<Vec<usize>>,
    /// For each input, the AIG input position of each bit (LSB first).
    pub input_bits: Vec<Vec<usize>>,
    /// The latch true only in step 0 (non-constant and relational inits).
    pub first: Option<usize>,
    /// The latch recording that every relational transition so far held.
    pub valid: Option<usize>,
}

/// Arrays up to this many bits in all are expanded into one word per element.
const MAX_ARRAY_BITS: usize = 1 << 16;

/// The shape of an expandable array sort: entries, element width, index width.
pub fn array_shape(sort: &Sort) -> Option<(usize, usize, usize)> {
    let Sort::Array(index, element) = sort else {
        return None;
    };
    let (entries, index_width) = match **index {
        Sort::Bool => (2, 1),
        Sort::BitVec(w) if w <= 16 => (1usize << w, w as usize),
        _ => return None,
    };
    let element_width = match **element {
        Sort::Bool => 1,
        Sort::BitVec(w) => w as usize,
        _ => return None,
    };
    (entries.checked_mul(element_width)? <= MAX_ARRAY_BITS).then_some((
        entries,
        element_width,
        index_width,
    ))
}

/// The number of bits of a Bool, bit-vector or expandable array sort.
pub fn width_of(sort: &Sort, what: &str) -> Result<usize, Unsupported> {
    match sort {
        Sort::Bool => Ok(1),
        Sort::BitVec(w) => Ok(*w as usize),
        Sort::Array(..) => match array_shape(sort) {
            Some((entries, element_width, _)) => Ok(entries * element_width),
            None => Err(Unsupported(format!(
                "{what} has the array sort {sort}, larger than the bit-blaster expands \
                 ({MAX_ARRAY_BITS} bits, Bool or bit-vector indices of at most 16 bits and elements)"
            ))),
        },
        Sort::Int | Sort::Real => Err(Unsupported(format!(
            "{what} has sort {sort}; Int and Real are not bit-blasted (the SMT engine decides them)"
        ))),
    }
}

fn var_name(terms: &Terms, t: Term) -> String {
    terms.var_name(t).unwrap_or("?").to_string()
}

/// Bit-blasts `ts`.
pub fn bitblast(ts: &Ts) -> Result<Blasted, Unsupported> {
    blast(ts, false)
}

/// Bit-blasts `ts` for an AIGER file, as HWMCC'25 does: a state initialised
/// from a term that is not constant gets that term's bits as reset functions
/// (AIGER 1.9.23), not the `first` latch and a constraint. The engines take
/// such a circuit through [`Aig::without_resets`], which lowers the
/// functions to that encoding again.
pub fn bitblast_with_resets(ts: &Ts) -> Result<Blasted, Unsupported> {
    blast(ts, true)
}

fn blast(ts: &Ts, reset_functions: bool) -> Result<Blasted, Unsupported> {
    let terms = &ts.terms;
    let mut b = Blaster {
        terms,
        aig: Aig::new(),
        memo: vec![None; terms.len()],
        polys: HashMap::new(),
    };
    let mut state_latches = Vec::new();
    let mut constraints_at_first: Vec<Lit> = Vec::new();
    let mut deferred_inits = Vec::new();
    for (i, s) in ts.states.iter().enumerate() {
        let name = var_name(terms, s.var);
        let w = width_of(terms.sort(s.var), &format!("state `{name}`"))?;
        let constant = s.init.and_then(|t| constant_bits(terms, t));
        let mut word = Vec::with_capacity(w);
        let mut positions = Vec::with_capacity(w);
        for bit in 0..w {
            positions.push(b.aig.latches.len());
            word.push(b.aig.add_latch(constant.as_ref().map(|c| c[bit])));
        }
        if constant.is_none() {
            if let Some(init) = s.init {
                deferred_inits.push((i, init));
            }
        }
        b.memo[s.var.index()] = Some(word);
        state_latches.push(positions);
    }
    let mut input_bits = Vec::new();
    for &input in &ts.inputs {
        let name = var_name(terms, input);
        let w = width_of(terms.sort(input), &format!("input `{name}`"))?;
        let mut word = Vec::with_capacity(w);
        let mut positions = Vec::with_capacity(w);
        for _ in 0..w {
            positions.push(b.aig.inputs.len());
            word.push(b.aig.add_input());
        }
        b.memo[input.index()] = Some(word);
        input_bits.push(positions);
    }
    // Next values: the next function, or fresh inputs; primed copies denote them.
    let mut next_words = Vec::new();
    for s in &ts.states {
        let word = match s.next {
            Some(next) => b.word(next)?,
            None => (0..state_latches[next_words.len()].len())
                .map(|_| b.aig.add_input())
                .collect(),
        };
        if let Some(primed) = s.next_var {
            b.memo[primed.index()] = Some(word.clone());
        }
        next_words.push(word);
    }
    for (i, word) in next_words.iter().enumerate() {
        for (bit, &lit) in word.iter().enumerate() {
            b.aig.set_next(state_latches[i][bit], lit);
        }
    }
    for (i, init) in deferred_inits {
        let value = b.word(init)?;
        if reset_functions {
            for (&position, &bit) in state_latches[i].iter().zip(&value) {
                let latch = &mut b.aig.latches[position];
                match bit {
                    Lit::FALSE | Lit::TRUE => latch.init = Some(bit == Lit::TRUE),
                    own if own == Lit::new(latch.var, false) => {}
                    _ => latch.reset = Some(bit),
                }
            }
            continue;
        }
        let current = b.memo[ts.states[i].var.index()]
            .clone()
            .expect("state blasted");
        constraints_at_first.push(words::eq(&mut b.aig, &current, &value));
    }
    for &init in &ts.init {
        constraints_at_first.push(b.bit(init)?);
    }
    let mut first_latch = None;
    if !constraints_at_first.is_empty() {
        let first = b.aig.add_latch(Some(true));
        let index = b.aig.latches.len() - 1;
        first_latch = Some(index);
        b.aig.set_next(index, Lit::FALSE);
        for c in constraints_at_first {
            let implied = b.aig.or(!first, c);
            b.aig.constraints.push(implied);
        }
    }
    for &c in &ts.constraints {
        let lit = b.bit(c)?;
        b.aig.constraints.push(lit);
    }
    let mut valid_latch = None;
    let valid = if ts.trans.is_empty() {
        Lit::TRUE
    } else {
        let mut all = Lit::TRUE;
        for &t in &ts.trans {
            let lit = b.bit(t)?;
            all = b.aig.and(all, lit);
        }
        let valid = b.aig.add_latch(Some(true));
        let index = b.aig.latches.len() - 1;
        valid_latch = Some(index);
        let next = b.aig.and(valid, all);
        b.aig.set_next(index, next);
        valid
    };
    for p in &ts.bad {
        let lit = b.bit(p.term)?;
        let bad = b.aig.and(lit, valid);
        b.aig.bad.push(bad);
    }
    // Liveness: BTOR2's justice sets, then VMT's `:live-property p` (F G p,
    // violated where ¬p holds infinitely often: justice of ¬p).
    for signals in &ts.justice {
        let lits = signals
            .iter()
            .map(|&s| b.bit(s))
            .collect::<Result<_, _>>()?;
        b.aig.justice.push(lits);
    }
    for p in &ts.live {
        let lit = b.bit(p.term)?;
        b.aig.justice.push(vec![!lit]);
    }
    for &f in &ts.fairness {
        let lit = b.bit(f)?;
        b.aig.fairness.push(lit);
    }
    // An infinite run takes a legal transition in every step: `valid`
    // holding infinitely often (it never comes back) says so.
    if !b.aig.justice.is_empty() && valid != Lit::TRUE {
        b.aig.fairness.push(valid);
    }
    Ok(Blasted {
        aig: b.aig,
        state_latches,
        input_bits,
        first: first_latch,
        valid: valid_latch,
    })
}

/// Bit-blasts combinational terms: each of `inputs` (Bool or bit-vector
/// variables) becomes fresh AIG inputs in order; returns the circuit and the
/// word of each root.
pub fn blast_terms(
    terms: &Terms,
    inputs: &[Term],
    roots: &[Term],
) -> Result<(Aig, Vec<Vec<Lit>>), Unsupported> {
    let mut b = Blaster {
        terms,
        aig: Aig::new(),
        memo: vec![None; terms.len()],
        polys: HashMap::new(),
    };
    for &v in inputs {
        let w = width_of(terms.sort(v), &format!("input `{}`", var_name(terms, v)))?;
        b.memo[v.index()] = Some((0..w).map(|_| b.aig.add_input()).collect());
    }
    let words = roots.iter().map(|&r| b.word(r)).collect::<Result<_, _>>()?;
    Ok((b.aig, words))
}

/// A leaf hook of [`TermBlaster`]: the word of a term it takes over
/// (a variable, an atom of another theory), or `None` to blast it.
pub type Leaf<'h> =
    &'h mut dyn FnMut(&mut Aig, &Terms, Term) -> Result<Option<Vec<Lit>>, Unsupported>;

/// An incremental bit-blaster for a term store that keeps growing (the SMT
/// layer's): every term is blasted once into one circuit and remembered.
/// Variables and foreign atoms are left to a hook, which is asked before a
/// term's arguments are visited, so what it takes over is never opened.
#[derive(Default)]
pub struct TermBlaster {
    /// The circuit so far.
    pub aig: Aig,
    memo: Vec<Option<Word>>,
}

impl TermBlaster {
    /// The word of `root` (blasting what is new).
    pub fn word(&mut self, terms: &Terms, root: Term, leaf: Leaf) -> Result<Vec<Lit>, Unsupported> {
        if self.memo.len() < terms.len() {
            self.memo.resize(terms.len(), None);
        }
        let mut b = Blaster {
            terms,
            aig: std::mem::take(&mut self.aig),
            memo: std::mem::take(&mut self.memo),
            polys: HashMap::new(),
        };
        let result = b.word_with(root, leaf);
        self.aig = b.aig;
        self.memo = b.memo;
        result
    }

    /// The word of `t` if it was blasted.
    pub fn memo(&self, t: Term) -> Option<&[Lit]> {
        self.memo.get(t.index()).and_then(|w| w.as_deref())
    }
}

/// The bits of a constant Bool or bit-vector term.
fn constant_bits(terms: &Terms, t: Term) -> Option<Vec<bool>> {
    match terms.op(t) {
        Op::Bool(b) => Some(vec![*b]),
        Op::Bv(v) => Some((0..v.width()).map(|i| v.bit(i)).collect()),
        Op::ConstArray(sort) => {
            let (entries, _, _) = array_shape(sort)?;
            let element = constant_bits(terms, terms.args(t)[0])?;
            Some(element.repeat(entries))
        }
        _ => None,
    }
}

impl Blasted {
    /// The word-level trace of a bit-level trace of [`Blasted::aig`].
    pub fn word_trace(&self, ts: &Ts, trace: &Trace) -> WordTrace {
        let mut latches = trace.init.clone();
        let mut out = WordTrace {
            states: Vec::new(),
            inputs: Vec::new(),
        };
        for inputs in &trace.inputs {
            let states = (ts.states.iter().zip(&self.state_latches))
                .map(|(s, pos)| {
                    let bits: Vec<bool> = pos.iter().map(|&p| latches[p]).collect();
                    word_value(ts.terms.sort(s.var), &bits)
                })
                .collect();
            let ins = (ts.inputs.iter().zip(&self.input_bits))
                .map(|(&v, pos)| {
                    let bits: Vec<bool> = pos.iter().map(|&p| inputs[p]).collect();
                    word_value(ts.terms.sort(v), &bits)
                })
                .collect();
            out.states.push(states);
            out.inputs.push(ins);
            let values = self.aig.eval(inputs, &latches);
            latches = (self.aig.latches.iter())
                .map(|l| lit_value(&values, l.next))
                .collect();
        }
        out
    }
}

/// A word operator folded over n-ary applications.
type WordOp<'f> = &'f dyn Fn(&mut Aig, &[Lit], &[Lit]) -> Word;

/// The value of a Bool, bit-vector or expanded array sort from its bits.
pub fn word_value(sort: &Sort, bits: &[bool]) -> Value {
    match sort {
        Sort::Bool => Value::Bool(bits[0]),
        Sort::Array(index, element) => {
            let (entries, ew, _) = array_shape(sort).expect("only expandable arrays are blasted");
            let elem = |j: usize| word_value(element, &bits[j * ew..(j + 1) * ew]);
            let mut a = ArrayValue::constant(index, elem(0));
            for j in 1..entries {
                let i = match **index {
                    Sort::Bool => Value::Bool(j == 1),
                    _ => Value::Bv(BvValue::from_u64(
                        index.bv_width().expect("bv index"),
                        j as u64,
                    )),
                };
                a = a.store(i, elem(j));
            }
            Value::Array(std::sync::Arc::new(a))
        }
        _ => Value::Bv(BvValue::from_bits(bits)),
    }
}

/// Whether the index word `index` equals the constant `j`.
fn index_is(aig: &mut Aig, index: &[Lit], j: usize) -> Lit {
    let mut all = Lit::TRUE;
    for (k, &bit) in index.iter().enumerate() {
        let lit = if j >> k & 1 == 1 { bit } else { !bit };
        all = aig.and(all, lit);
    }
    all
}

struct Blaster<'a> {
    terms: &'a Terms,
    aig: Aig,
    memo: Vec<Option<Word>>,
    /// Equalities opened as polynomials, until their atoms are blasted.
    polys: HashMap<Term, poly::Poly>,
}

impl Blaster<'_> {
    /// The shape of an array sort, or why it is not expanded.
    fn shape(&self, sort: &Sort) -> Result<(usize, usize, usize), Unsupported> {
        array_shape(sort).ok_or_else(|| {
            Unsupported(format!(
                "the array sort {sort} is larger than the bit-blaster expands"
            ))
        })
    }

    /// The single literal of a Bool term.
    fn bit(&mut self, t: Term) -> Result<Lit, Unsupported> {
        Ok(self.word(t)?[0])
    }

    fn word(&mut self, root: Term) -> Result<Word, Unsupported> {
        if let Some(w) = &self.memo[root.index()] {
            return Ok(w.clone());
        }
        for t in self.terms.topological(&[root]) {
            if self.memo[t.index()].is_none() {
                let w = self.blast(t)?;
                self.memo[t.index()] = Some(w);
            }
        }
        Ok(self.memo[root.index()].clone().expect("blasted above"))
    }

    /// [`Blaster::word`] with a hook for leaves, by a depth-first walk that
    /// does not open what the hook takes.
    fn word_with(&mut self, root: Term, leaf: Leaf) -> Result<Word, Unsupported> {
        let mut stack = vec![(root, false)];
        while let Some((t, opened)) = stack.pop() {
            if self.memo[t.index()].is_some() {
                continue;
            }
            if opened {
                let w = match self.polys.remove(&t) {
                    Some(p) => vec![self.polynomial_is_zero(&p)],
                    None => self.blast(t)?,
                };
                self.memo[t.index()] = Some(w);
                continue;
            }
            if let Some(w) = leaf(&mut self.aig, self.terms, t)? {
                self.memo[t.index()] = Some(w);
                continue;
            }
            stack.push((t, true));
            if let Some(p) = self.nonlinear_equality(t) {
                for a in p.atoms() {
                    if self.memo[a.index()].is_none() {
                        stack.push((a, false));
                    }
                }
                self.polys.insert(t, p);
                continue;
            }
            for &a in self.terms.args(t) {
                if self.memo[a.index()].is_none() {
                    stack.push((a, false));
                }
            }
        }
        Ok(self.memo[root.index()].clone().expect("blasted above"))
    }

    /// The normal form of `t` if it is an equality of nonlinear
    /// bit-vector polynomials (see `poly.rs`).
    fn nonlinear_equality(&self, t: Term) -> Option<poly::Poly> {
        let args = self.terms.args(t);
        match (self.terms.op(t), args) {
            (Op::Eq, &[a, b]) => poly::of_equality(self.terms, a, b),
            _ => None,
        }
    }

    /// The literal of `p = 0`, its monomials summed in their order.
    fn polynomial_is_zero(&mut self, p: &poly::Poly) -> Lit {
        let w = p.width as usize;
        let constant = |c: u64| words::constant((0..w).map(|i| c >> i & 1 == 1));
        let mut sum = constant(0);
        for (monomial, &c) in &p.monomials {
            let mut product = constant(1);
            for (i, a) in monomial.iter().enumerate() {
                let word = self.memo[a.index()].clone().expect("atoms first");
                product = match i {
                    0 => word,
                    _ => words::mul(&mut self.aig, &product, &word),
                };
            }
            if monomial.is_empty() {
                product = constant(c);
            } else if c != 1 {
                product = words::mul(&mut self.aig, &constant(c), &product);
            }
            sum = words::add(&mut self.aig, &sum, &product, Lit::FALSE).0;
        }
        let zero = constant(0);
        words::eq(&mut self.aig, &sum, &zero)
    }

    fn arg(&self, t: Term, i: usize) -> &[Lit] {
        let a = self.terms.args(t)[i];
        self.memo[a.index()].as_deref().expect("arguments first")
    }

    fn blast(&mut self, t: Term) -> Result<Word, Unsupported> {
        use Op::*;
        let terms = self.terms;
        let n = terms.args(t).len();
        let args: Vec<Word> = (0..n).map(|i| self.arg(t, i).to_vec()).collect();
        let aig = &mut self.aig;
        let fold = |aig: &mut Aig, f: WordOp| {
            let mut acc = args[0].clone();
            for a in &args[1..] {
                acc = f(aig, &acc, a);
            }
            acc
        };
        let one = |l: Lit| vec![l];
        Ok(match terms.op(t) {
            Var(name, _) => {
                return Err(Unsupported(format!(
                    "`{name}` is neither a state, an input nor a primed state"
                )))
            }
            Op::Bool(b) => one(if *b { Lit::TRUE } else { Lit::FALSE }),
            Bv(v) => words::constant((0..v.width()).map(|i| v.bit(i))),
            Not => one(!args[0][0]),
            And => one(args.iter().fold(Lit::TRUE, |acc, a| aig.and(acc, a[0]))),
            Or => one(args.iter().fold(Lit::FALSE, |acc, a| aig.or(acc, a[0]))),
            Xor => one(args.iter().fold(Lit::FALSE, |acc, a| aig.xor(acc, a[0]))),
            Implies => {
                let mut acc = args[n - 1][0];
                for a in args[..n - 1].iter().rev() {
                    acc = aig.or(!a[0], acc);
                }
                one(acc)
            }
            Eq => {
                let mut all = Lit::TRUE;
                for a in &args[1..] {
                    let e = words::eq(aig, &args[0], a);
                    all = aig.and(all, e);
                }
                one(all)
            }
            Distinct => {
                let mut all = Lit::TRUE;
                for i in 0..n {
                    for j in i + 1..n {
                        let e = words::eq(aig, &args[i], &args[j]);
                        all = aig.and(all, !e);
                    }
                }
                one(all)
            }
            Ite => words::ite(aig, args[0][0], &args[1], &args[2]),
            BvNot => words::not(&args[0]),
            BvNeg => words::neg(aig, &args[0]),
            BvAnd => fold(aig, &|g, a, b| words::zip(g, a, b, Aig::and)),
            BvOr => fold(aig, &|g, a, b| words::zip(g, a, b, Aig::or)),
            BvXor => fold(aig, &|g, a, b| words::zip(g, a, b, Aig::xor)),
            BvNand => words::not(&words::zip(aig, &args[0], &args[1], Aig::and)),
            BvNor => words::not(&words::zip(aig, &args[0], &args[1], Aig::or)),
            BvXnor => words::not(&words::zip(aig, &args[0], &args[1], Aig::xor)),
            BvAdd => fold(aig, &|g, a, b| words::add(g, a, b, Lit::FALSE).0),
            BvSub => words::sub(aig, &args[0], &args[1]).0,
            BvMul => fold(aig, &|g, a, b| words::mul(g, a, b)),
            BvUdiv => words::udivrem(aig, &args[0], &args[1]).0,
            BvUrem => words::udivrem(aig, &args[0], &args[1]).1,
            BvSdiv => words::signed_div(aig, &args[0], &args[1]).0,
            BvSrem => words::signed_div(aig, &args[0], &args[1]).1,
            BvSmod => words::signed_div(aig, &args[0], &args[1]).2,
            BvShl => words::shift(aig, &args[0], &args[1], Shift::Left),
            BvLshr => words::shift(aig, &args[0], &args[1], Shift::LogicalRight),
            BvAshr => words::shift(aig, &args[0], &args[1], Shift::ArithmeticRight),
            BvRol => words::rotate_left_by(aig, &args[0], &args[1]),
            BvRor => {
                // Rotating right is rotating the bit-reversed word left.
                let reversed: Word = args[0].iter().rev().copied().collect();
                let rotated = words::rotate_left_by(aig, &reversed, &args[1]);
                rotated.into_iter().rev().collect()
            }
            Concat => {
                // The first argument is the most significant.
                args.iter().rev().flat_map(|a| a.iter().copied()).collect()
            }
            Extract(hi, lo) => args[0][*lo as usize..=*hi as usize].to_vec(),
            ZeroExtend(k) => {
                let mut w = args[0].clone();
                w.resize(w.len() + *k as usize, Lit::FALSE);
                w
            }
            SignExtend(k) => {
                let mut w = args[0].clone();
                let sign = w[w.len() - 1];
                w.resize(w.len() + *k as usize, sign);
                w
            }
            RotateLeft(k) => words::rotate_left(&args[0], *k as usize),
            RotateRight(k) => {
                let w = args[0].len();
                words::rotate_left(&args[0], w - *k as usize % w)
            }
            Repeat(k) => (0..*k).flat_map(|_| args[0].iter().copied()).collect(),
            BvComp => one(words::eq(aig, &args[0], &args[1])),
            BvUlt => one(words::ult(aig, &args[0], &args[1])),
            BvUgt => one(words::ult(aig, &args[1], &args[0])),
            BvUle => one(!words::ult(aig, &args[1], &args[0])),
            BvUge => one(!words::ult(aig, &args[0], &args[1])),
            BvSlt => one(words::slt(aig, &args[0], &args[1])),
            BvSgt => one(words::slt(aig, &args[1], &args[0])),
            BvSle => one(!words::slt(aig, &args[1], &args[0])),
            BvSge => one(!words::slt(aig, &args[0], &args[1])),
            BvRedAnd => one(words::and_all(aig, &args[0])),
            BvRedOr => one(aig.or_all(&args[0])),
            BvRedXor => one(words::xor_all(aig, &args[0])),
            BvUaddo => one(words::add(aig, &args[0], &args[1], Lit::FALSE).1),
            BvSaddo => {
                let (s, _) = words::add(aig, &args[0], &args[1], Lit::FALSE);
                one(signed_overflow(aig, &args[0], &args[1], &s, false))
            }
            BvUsubo => one(words::ult(aig, &args[0], &args[1])),
            BvSsubo => {
                let (d, _) = words::sub(aig, &args[0], &args[1]);
                one(signed_overflow(aig, &args[0], &args[1], &d, true))
            }
            BvUmulo => {
                let w = args[0].len();
                let mut a = args[0].clone();
                let mut b = args[1].clone();
                a.resize(2 * w, Lit::FALSE);
                b.resize(2 * w, Lit::FALSE);
                let p = words::mul(aig, &a, &b);
                one(aig.or_all(&p[w..]))
            }
            BvSmulo => {
                let w = args[0].len();
                let (sa, sb) = (args[0][w - 1], args[1][w - 1]);
                let mut a = args[0].clone();
                let mut b = args[1].clone();
                a.resize(2 * w, sa);
                b.resize(2 * w, sb);
                let p = words::mul(aig, &a, &b);
                let top = &p[w - 1..];
                let all_ones = words::and_all(aig, top);
                let any = aig.or_all(top);
                one(aig.and(any, !all_ones))
            }
            BvSdivo => {
                let w = args[0].len();
                let min = words::constant((0..w).map(|i| i == w - 1));
                let is_min = words::eq(aig, &args[0], &min);
                let minus_one = words::and_all(aig, &args[1]);
                one(aig.and(is_min, minus_one))
            }
            op @ (Num(..) | Neg | Add | Sub | Mul | Div | IntDiv | Mod | Abs | Le | Lt | Ge
            | Gt | ToReal | ToInt | IsInt) => {
                return Err(Unsupported(format!(
                "`{}` is Int/Real arithmetic, which is not bit-blasted (the SMT engine decides it)",
                op.smt_name()
            )))
            }
            ConstArray(sort) => {
                let (entries, _, _) = self.shape(sort)?;
                (0..entries).flat_map(|_| args[0].iter().copied()).collect()
            }
            Select => {
                let (entries, ew, _) = self.shape(terms.sort(terms.args(t)[0]))?;
                let elem = |j: usize| &args[0][j * ew..(j + 1) * ew];
                let mut acc = elem(0).to_vec();
                for j in 1..entries {
                    let hit = index_is(&mut self.aig, &args[1], j);
                    acc = words::ite(&mut self.aig, hit, elem(j), &acc);
                }
                acc
            }
            Store => {
                let (entries, ew, _) = self.shape(terms.sort(t))?;
                let mut out = Vec::with_capacity(entries * ew);
                for j in 0..entries {
                    let hit = index_is(&mut self.aig, &args[1], j);
                    let old = &args[0][j * ew..(j + 1) * ew];
                    out.extend(words::ite(&mut self.aig, hit, &args[2], old));
                }
                out
            }
        })
    }
}

/// Signed overflow of `a ± b = r`: for addition the operands share a sign
/// that the result lacks; for subtraction their signs differ and the result's
/// sign is not the minuend's.
fn signed_overflow(aig: &mut Aig, a: &[Lit], b: &[Lit], r: &[Lit], subtract: bool) -> Lit {
    let top = a.len() - 1;
    let (sa, sb, sr) = (a[top], b[top], r[top]);
    let operands_same = !aig.xor(sa, sb);
    let operands_ok = if subtract {
        !operands_same
    } else {
        operands_same
    };
    let result_flipped = aig.xor(sr, sa);
    aig.and(operands_ok, result_flipped)
}
