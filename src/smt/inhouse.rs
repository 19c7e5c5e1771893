//! invar's own SMT solver: Bool, bit-vectors and small arrays by
//! incremental bit-blasting onto the SAT core, linear integer and real
//! arithmetic by DPLL(T) with the simplex of `arith.rs`.
//!
//! - **The Boolean skeleton.** Every asserted or assumed term is blasted
//!   once into one growing circuit (`bitblast::TermBlaster`); a comparison
//!   over Int or Real is not blasted but becomes a circuit input tied to a
//!   bound atom of the theory. The circuit's gates reach the core lazily, as
//!   definitions, so each query only searches its own cone.
//! - **Linear terms.** Comparisons are normalized (`linear.rs`) to
//!   `Σ c·x ⋈ k` with a positive leading coefficient (integral and coprime
//!   over integers), so that `x − y ≤ 3` and `y − x ≥ −3` share one slack
//!   variable; `x > k` is the negation of `x ≤ k`. Arithmetic `ite`, `div`
//!   and `mod` by constants, `abs` and `to_int` get fresh variables with
//!   their defining constraints asserted once, for good.
//! - **Scopes.** `push` opens a scope with an activation literal that
//!   guards the scope's assertions and is assumed by every check; `pop`
//!   disables it for good.
//! - **Answers.** A model gives every variable a value (bits from the core,
//!   numbers from the simplex), and any term's value is computed by the
//!   reference evaluator from them. An unsat core is the set of assumptions
//!   whose literals the core reports failed. Non-linear arithmetic, `bv2nat`
//!   and arrays beyond the bit-blaster's limits make the answer `unknown`,
//!   with the reason, never a guess.

use super::arith::Arith;
use super::arrays::{self, ArrayTheory, Shape};
use super::linear::{Linear, NormalForm, Relation};
use super::num::Num;
use super::simplex::SVar;
use super::{FarkasConflict, LinearBound, SmtResult, SmtSolver, SolverStats};
use crate::bitblast::{self, TermBlaster, Unsupported};
use crate::ir::aig::{self, Aig};
use crate::ir::term::eval::{ArrayValue, Evaluator, Value};
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::sat::core::Core;
use crate::sat::tseitin::encode_cone;
use crate::sat::{self, Roots, SolveResult, Solver};
use crate::util::budget::Budget;
use std::collections::HashMap;
use std::time::Instant;

/// Lemmas of the array theory added per model before the search goes on.
const ARRAY_LEMMAS_PER_MODEL: usize = 64;

/// Conflicts a query over wide arrays takes deciding inputs only before it
/// decides gates too (measured in the decision the `check` comment names).
const INPUTS_FIRST: u64 = 1000;

/// A defining constraint of a fresh variable, asserted once the current
/// blasting is over (it may need to blast terms itself).
enum Side {
    /// `v = ite(cond, a, b)`.
    Ite {
        cond: Term,
        v: SVar,
        then: Linear,
        other: Linear,
    },
}

/// The solver.
pub struct InvarSmt {
    core: Core,
    blaster: TermBlaster,
    /// Core literal of each circuit node.
    encoded: Vec<Option<sat::Lit>>,
    /// Circuit inputs of each Bool, bit-vector or array variable.
    var_bits: HashMap<Term, Vec<aig::Lit>>,
    /// Simplex variable of each Int or Real variable.
    arith_vars: HashMap<Term, SVar>,
    /// The term each simplex variable stands for (variables, and the
    /// fresh variables of `ite`, `abs`, `div`, `mod`, `to_int` terms).
    named: HashMap<SVar, Term>,
    /// Linear form of each arithmetic term seen.
    linear: HashMap<Term, Linear>,
    /// Slack variable of each normalized linear form.
    slacks: HashMap<Vec<(SVar, Num)>, SVar>,
    /// Circuit literal of each atom `var ≤ k` / `var < k`.
    atoms: HashMap<(SVar, Num, bool), aig::Lit>,
    pending: Vec<Side>,
    /// Defining constraints built while blasting, asserted right after.
    facts: Vec<aig::Lit>,
    /// Activation literal of each open scope.
    scopes: Vec<sat::Lit>,
    /// Arrays too wide to blast (`arrays.rs`).
    arrays: ArrayTheory,
    /// Reads and equalities of such arrays met while blasting, registered
    /// with the theory right after.
    array_pending: Vec<Term>,
    /// Why an assertion could not be represented, and the scope it is in
    /// (0: outside every scope); checks answer unknown while it stands.
    broken: Option<(usize, String)>,
    /// The assumptions of the last check and their core literals.
    assumed: Vec<(Term, sat::Lit)>,
    /// Whether the last check answered SAT (a model is readable).
    has_model: bool,
    /// The failed assumptions of the last UNSAT answer.
    core_terms: Vec<Term>,
    /// Values read from the current model, kept until the next check.
    model: ModelCache,
    tru: sat::Lit,
    stats: SolverStats,
    /// The budget the core polls, for the reason of an interrupted check.
    budget: Budget,
    /// Whether checks decide inputs only, when an ablation forces it
    /// (`util::settings`); otherwise the rule in [`SmtSolver::check`].
    forced_inputs_only: Option<bool>,
}

/// What [`SmtSolver::value`] computed in the current model. IC3+IA reads
/// every predicate after each of thousands of checks; a fresh evaluator
/// (a vector over the whole term table) and a fresh simplex model per value
/// were half of its time on a C program's run (measured with perf).
#[derive(Default)]
struct ModelCache {
    /// Values by term index (`None`: not computed in this model).
    values: Vec<Option<Value>>,
    /// The terms asked for: every value set lies in their cones.
    roots: Vec<Term>,
    /// The simplex's concrete model.
    arith: Option<Vec<Num>>,
}

impl ModelCache {
    /// Forgets the model: only the entries set since the last reset.
    fn reset(&mut self, terms: &Terms) {
        if !self.roots.is_empty() {
            for t in terms.topological(&self.roots) {
                if let Some(v) = self.values.get_mut(t.index()) {
                    *v = None;
                }
            }
            self.roots.clear();
        }
        self.arith = None;
    }
}

impl InvarSmt {
    /// A solver that gives up when `budget` expires.
    pub fn new(budget: Budget) -> InvarSmt {
        let mut core = Core::new(budget.clone());
        core.set_theory(Box::new(Arith::default()));
        let tru = core.new_var();
        Solver::add_clause(&mut core, &[tru]);
        InvarSmt {
            core,
            blaster: TermBlaster::default(),
            encoded: vec![Some(!tru)],
            var_bits: HashMap::new(),
            arith_vars: HashMap::new(),
            named: HashMap::new(),
            linear: HashMap::new(),
            slacks: HashMap::new(),
            atoms: HashMap::new(),
            pending: Vec::new(),
            facts: Vec::new(),
            arrays: ArrayTheory::default(),
            array_pending: Vec::new(),
            scopes: Vec::new(),
            broken: None,
            assumed: Vec::new(),
            has_model: false,
            core_terms: Vec::new(),
            model: ModelCache::default(),
            budget,
            tru,
            forced_inputs_only: crate::util::settings::get().smt_inputs_only,
            stats: SolverStats::default(),
        }
    }

    fn arith(&mut self) -> &mut Arith {
        (self.core.theory_mut().expect("attached"))
            .as_any_mut()
            .downcast_mut::<Arith>()
            .expect("the arithmetic theory")
    }

    fn arith_ref(&self) -> &Arith {
        (self.core.theory().expect("attached"))
            .as_any()
            .downcast_ref::<Arith>()
            .expect("the arithmetic theory")
    }

    /// The circuit literal of Bool term `t`, blasting what is new.
    fn bool_lit(&mut self, terms: &Terms, t: Term) -> Result<aig::Lit, Unsupported> {
        let lit = self.blast(terms, t)?[0];
        self.register_arrays(terms)?;
        self.assert_facts();
        // Defining constraints of fresh variables met on the way.
        while let Some(side) = self.pending.pop() {
            let Side::Ite {
                cond,
                v,
                then,
                other,
            } = side;
            let c = self.blast(terms, cond)?[0];
            let here = Linear::var(v);
            let eq_then = self.relation(&here.sub(&then), Relation::Eq);
            let eq_other = self.relation(&here.sub(&other), Relation::Eq);
            let aig = &mut self.blaster.aig;
            let a = aig.or(!c, eq_then);
            let b = aig.or(c, eq_other);
            let both = aig.and(a, b);
            self.assert_lit(both, None);
            self.register_arrays(terms)?;
            self.assert_facts();
        }
        Ok(lit)
    }

    /// Hands the reads and equalities of wide arrays met while blasting to
    /// the array theory, with the array terms below them.
    fn register_arrays(&mut self, terms: &Terms) -> Result<(), Unsupported> {
        while let Some(t) = self.array_pending.pop() {
            let args = terms.args(t);
            let word = self.blaster.memo(t).expect("blasted as a leaf").to_vec();
            match terms.op(t) {
                Op::Select => {
                    self.array_nodes(terms, args[0])?;
                    let index = self.blast(terms, args[1])?;
                    self.arrays.add_read(args[0], index, word);
                }
                _ => {
                    let lit = match terms.op(t) {
                        Op::Distinct => !word[0],
                        _ => word[0],
                    };
                    self.array_nodes(terms, args[0])?;
                    self.array_nodes(terms, args[1])?;
                    let fact =
                        (self.arrays).add_equality(&mut self.blaster.aig, lit, args[0], args[1]);
                    self.facts.push(fact);
                }
            }
        }
        Ok(())
    }

    /// Adds wide array term `a` and the array terms below it to the theory,
    /// blasting their indices, elements and conditions.
    fn array_nodes(&mut self, terms: &Terms, a: Term) -> Result<(), Unsupported> {
        let mut stack = vec![(a, false)];
        while let Some((t, expanded)) = stack.pop() {
            if self.arrays.node(t).is_some() {
                continue;
            }
            let args = terms.args(t);
            let sort = terms.sort(t).clone();
            if !arrays::is_theory_array(&sort) {
                return Err(Unsupported(format!(
                    "arrays over {sort}: only Bool and bit-vector indices and elements are supported"
                )));
            }
            let below: Vec<Term> = match terms.op(t) {
                Op::Store => vec![args[0]],
                Op::Ite => vec![args[1], args[2]],
                _ => Vec::new(),
            };
            if !expanded && !below.is_empty() {
                stack.push((t, true));
                stack.extend(below.into_iter().map(|b| (b, false)));
                continue;
            }
            let shape = match terms.op(t) {
                Op::Var(..) => Shape::Var,
                Op::Store => Shape::Store {
                    base: args[0],
                    index: self.blast(terms, args[1])?,
                    value: self.blast(terms, args[2])?,
                },
                Op::Ite => Shape::Ite {
                    cond: self.blast(terms, args[0])?[0],
                    then: args[1],
                    other: args[2],
                },
                Op::ConstArray(_) => Shape::Const {
                    value: self.blast(terms, args[0])?,
                },
                op => {
                    return Err(Unsupported(format!(
                        "`{}` of an array: only variables, store, ite and constant arrays are supported",
                        op.smt_name()
                    )))
                }
            };
            self.arrays.add_node(t, sort, shape);
        }
        Ok(())
    }

    /// Asserts, for good, the defining constraints gathered while blasting.
    fn assert_facts(&mut self) {
        for l in std::mem::take(&mut self.facts) {
            self.assert_lit(l, None);
        }
    }

    fn blast(&mut self, terms: &Terms, t: Term) -> Result<Vec<aig::Lit>, Unsupported> {
        let mut blaster = std::mem::take(&mut self.blaster);
        let result = {
            let mut leaf = |aig: &mut Aig, terms: &Terms, t: Term| self.leaf(aig, terms, t);
            blaster.word(terms, t, &mut leaf)
        };
        self.blaster = blaster;
        result
    }

    /// The word of a term the blaster does not open: variables and
    /// arithmetic comparisons.
    fn leaf(
        &mut self,
        aig: &mut Aig,
        terms: &Terms,
        t: Term,
    ) -> Result<Option<Vec<aig::Lit>>, Unsupported> {
        let args = terms.args(t);
        let numeric = |u: Term| matches!(terms.sort(u), Sort::Int | Sort::Real);
        match terms.op(t) {
            Op::Var(name, sort) => match sort {
                Sort::Int | Sort::Real => Err(Unsupported(format!(
                    "`{name}` is arithmetic and used where a Boolean is expected"
                ))),
                _ => {
                    let w = bitblast::width_of(sort, &format!("`{name}`"))?;
                    let bits: Vec<aig::Lit> = (0..w).map(|_| aig.add_input()).collect();
                    self.var_bits.insert(t, bits.clone());
                    Ok(Some(bits))
                }
            },
            Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq | Op::Distinct
                if !args.is_empty() && numeric(args[0]) =>
            {
                let forms: Vec<Linear> = (args.iter())
                    .map(|&a| self.linearize(aig, terms, a))
                    .collect::<Result<_, _>>()?;
                let lit = self.comparison(aig, terms.op(t), &forms);
                Ok(Some(vec![lit]))
            }
            Op::IsInt if numeric(args[0]) => {
                // is_int(x) ⇔ x − ⌊x⌋ = 0, with ⌊x⌋ a fresh integer.
                let x = self.linearize(aig, terms, args[0])?;
                let floor = self.int_of(aig, &x);
                let lit = self.relation_in(aig, &x.sub(&Linear::var(floor)), Relation::Eq);
                Ok(Some(vec![lit]))
            }
            Op::Select if is_wide_array(terms.sort(args[0])) => {
                let element = match terms.sort(args[0]) {
                    Sort::Array(_, e) => (**e).clone(),
                    _ => unreachable!("an array"),
                };
                let w = bitblast::width_of(&element, "an array's element")?;
                let bits: Vec<aig::Lit> = (0..w).map(|_| aig.add_input()).collect();
                self.array_pending.push(t);
                Ok(Some(bits))
            }
            Op::Eq | Op::Distinct if args.len() == 2 && is_wide_array(terms.sort(args[0])) => {
                let e = aig.add_input();
                self.array_pending.push(t);
                Ok(Some(vec![match terms.op(t) {
                    Op::Distinct => !e,
                    _ => e,
                }]))
            }
            Op::Select | Op::Store | Op::Eq | Op::Ite
                if args.iter().any(|&a| !has_finite_words(terms.sort(a))) =>
            {
                Err(Unsupported(format!(
                    "`{}` over {}: only arrays of Bool or bit-vector elements with small indices are supported",
                    terms.op(t).smt_name(),
                    terms.sort(args[0])
                )))
            }
            _ => Ok(None),
        }
    }

    /// The circuit literal of a (chainable) comparison of linear forms.
    fn comparison(&mut self, aig: &mut Aig, op: &Op, forms: &[Linear]) -> aig::Lit {
        let mut all = aig::Lit::TRUE;
        if let Op::Distinct = op {
            for i in 0..forms.len() {
                for j in i + 1..forms.len() {
                    let eq = self.relation_in(aig, &forms[i].sub(&forms[j]), Relation::Eq);
                    all = aig.and(all, !eq);
                }
            }
            return all;
        }
        for w in forms.windows(2) {
            let d = w[0].sub(&w[1]);
            let lit = match op {
                Op::Le => self.relation_in(aig, &d, Relation::Le),
                Op::Lt => self.relation_in(aig, &d, Relation::Lt),
                Op::Ge => !self.relation_in(aig, &d, Relation::Lt),
                Op::Gt => !self.relation_in(aig, &d, Relation::Le),
                _ => self.relation_in(aig, &d, Relation::Eq),
            };
            all = aig.and(all, lit);
        }
        all
    }

    fn relation(&mut self, form: &Linear, rel: Relation) -> aig::Lit {
        let mut aig = std::mem::take(&mut self.blaster.aig);
        let lit = self.relation_in(&mut aig, form, rel);
        self.blaster.aig = aig;
        lit
    }

    /// The circuit literal of `form ⋈ 0`.
    fn relation_in(&mut self, aig: &mut Aig, form: &Linear, rel: Relation) -> aig::Lit {
        match rel {
            Relation::Eq => {
                let le = self.relation_in(aig, form, Relation::Le);
                let ge = !self.relation_in(aig, form, Relation::Lt);
                aig.and(le, ge)
            }
            Relation::Le | Relation::Lt => {
                let strict = rel == Relation::Lt;
                let normal = form.normalize(&|v| self.arith_ref().is_int(v));
                let Some(NormalForm {
                    terms,
                    bound: b,
                    flipped: flip,
                }) = normal
                else {
                    // A constant comparison: `constant ⋈ 0`.
                    let c = form.constant.signum();
                    return if (strict && c < 0) || (!strict && c <= 0) {
                        aig::Lit::TRUE
                    } else {
                        aig::Lit::FALSE
                    };
                };
                let var = self.slack(&terms);
                let int = self.arith_ref().is_int(var);
                // Canonical atoms are `var ≤ k` and `var < k` (integers: `≤` only).
                match (flip, int, strict) {
                    (false, true, false) => self.atom(aig, var, b.floor(), false),
                    (false, true, true) => self.atom(aig, var, &b.ceil() - &Num::ONE, false),
                    (false, false, s) => self.atom(aig, var, b, s),
                    // var ≥ b ⇔ ¬(var ≤ ⌈b⌉ − 1); var > b ⇔ ¬(var ≤ ⌊b⌋).
                    (true, true, false) => !self.atom(aig, var, &b.ceil() - &Num::ONE, false),
                    (true, true, true) => !self.atom(aig, var, b.floor(), false),
                    // var ≥ b ⇔ ¬(var < b); var > b ⇔ ¬(var ≤ b).
                    (true, false, s) => !self.atom(aig, var, b, !s),
                }
            }
        }
    }

    /// The circuit input of atom `var ≤ bound` (`var < bound` if strict).
    fn atom(&mut self, aig: &mut Aig, var: SVar, bound: Num, strict: bool) -> aig::Lit {
        let key = (var, bound.clone(), strict);
        if let Some(&l) = self.atoms.get(&key) {
            return l;
        }
        let input = aig.add_input();
        let v = self.core.new_var();
        self.arith().add_atom(v, var, true, bound, strict);
        let node = input.var().0 as usize;
        if self.encoded.len() <= node {
            self.encoded.resize(node + 1, None);
        }
        self.encoded[node] = Some(v);
        self.atoms.insert(key, input);
        input
    }

    /// The slack variable of a normalized linear form (the variable itself
    /// for a single term with coefficient 1).
    fn slack(&mut self, terms: &[(SVar, Num)]) -> SVar {
        if let [(v, c)] = terms {
            if *c == Num::ONE {
                return *v;
            }
        }
        if let Some(&s) = self.slacks.get(terms) {
            return s;
        }
        let s = self.arith().define(terms);
        self.slacks.insert(terms.to_vec(), s);
        s
    }

    /// A fresh integer variable `⌊x⌋`, constrained by `⌊x⌋ ≤ x < ⌊x⌋ + 1`.
    fn int_of(&mut self, aig: &mut Aig, x: &Linear) -> SVar {
        let f = self.arith().new_var(true);
        let d = x.sub(&Linear::var(f));
        let lo = !self.relation_in(aig, &d, Relation::Lt);
        let hi = self.relation_in(aig, &d.sub(&Linear::constant(Num::ONE)), Relation::Lt);
        let both = aig.and(lo, hi);
        self.facts.push(both);
        f
    }

    /// The linear form of an Int or Real term.
    fn linearize(
        &mut self,
        aig: &mut Aig,
        terms: &Terms,
        root: Term,
    ) -> Result<Linear, Unsupported> {
        if let Some(l) = self.linear.get(&root) {
            return Ok(l.clone());
        }
        for t in terms.topological(&[root]) {
            if self.linear.contains_key(&t) || !matches!(terms.sort(t), Sort::Int | Sort::Real) {
                continue;
            }
            let form = self.linear_step(aig, terms, t)?;
            self.linear.insert(t, form);
        }
        Ok(self.linear[&root].clone())
    }

    fn linear_step(
        &mut self,
        aig: &mut Aig,
        terms: &Terms,
        t: Term,
    ) -> Result<Linear, Unsupported> {
        let args = terms.args(t);
        let forms: Vec<Option<Linear>> = args.iter().map(|a| self.linear.get(a).cloned()).collect();
        let arg = |i: usize| forms[i].clone();
        let nonlinear = || {
            Unsupported(format!(
                "non-linear arithmetic (`{}` of two non-constant terms)",
                terms.op(t).smt_name()
            ))
        };
        Ok(match terms.op(t) {
            Op::Var(..) => {
                let int = *terms.sort(t) == Sort::Int;
                let v = self.arith().new_var(int);
                self.arith_vars.insert(t, v);
                self.named.insert(v, t);
                Linear::var(v)
            }
            Op::Num(r, _) => Linear::constant(Num::from_rational(*r)),
            Op::Neg => arg(0).expect("argument").scale(&-&Num::ONE),
            Op::Add => (0..args.len()).fold(Linear::default(), |acc, i| {
                acc.add(&arg(i).expect("argument"))
            }),
            Op::Sub if args.len() == 1 => arg(0).expect("argument").scale(&-&Num::ONE),
            Op::Sub => (1..args.len()).fold(arg(0).expect("argument"), |acc, i| {
                acc.sub(&arg(i).expect("argument"))
            }),
            Op::Mul => {
                let mut acc = arg(0).expect("argument");
                for i in 1..args.len() {
                    let b = arg(i).expect("argument");
                    acc = match (acc.as_constant(), b.as_constant()) {
                        (Some(k), _) => b.scale(&k),
                        (_, Some(k)) => acc.scale(&k),
                        _ => return Err(nonlinear()),
                    };
                }
                acc
            }
            Op::Div => {
                let mut acc = arg(0).expect("argument");
                for i in 1..args.len() {
                    match arg(i).expect("argument").as_constant() {
                        Some(k) if !k.is_zero() => acc = acc.scale(&(&Num::ONE / &k)),
                        Some(_) => {
                            return Err(Unsupported("division by zero in a linear term".into()))
                        }
                        None => return Err(nonlinear()),
                    }
                }
                acc
            }
            Op::ToReal => arg(0).expect("argument"),
            Op::ToInt => {
                let x = arg(0).expect("argument");
                let v = self.int_of(aig, &x);
                self.named.insert(v, t);
                Linear::var(v)
            }
            Op::Abs => {
                // |x| = ite(x ≥ 0, x, −x), with a fresh variable.
                let x = arg(0).expect("argument");
                if let Some(k) = x.as_constant() {
                    // Folded, so that `div` by `(abs 2)` keeps a constant divisor.
                    return Ok(Linear::constant(k.abs()));
                }
                let v = self.arith().new_var(*terms.sort(t) == Sort::Int);
                let nonneg = !self.relation_in(aig, &x, Relation::Lt);
                let here = Linear::var(v);
                let a = self.relation_in(aig, &here.sub(&x), Relation::Eq);
                let b = self.relation_in(aig, &here.add(&x), Relation::Eq);
                let then = aig.or(!nonneg, a);
                let other = aig.or(nonneg, b);
                let both = aig.and(then, other);
                self.facts.push(both);
                self.named.insert(v, t);
                here
            }
            op @ (Op::IntDiv | Op::Mod) => {
                // x = k·q + r, 0 ≤ r < |k|, with fresh integers q and r.
                let x = arg(0).expect("argument");
                let k = match arg(1).expect("argument").as_constant() {
                    Some(k) if !k.is_zero() && k.is_integer() => k,
                    _ => {
                        return Err(Unsupported(format!(
                            "`{}` by a non-constant or zero divisor",
                            op.smt_name()
                        )))
                    }
                };
                let q = self.arith().new_var(true);
                let r = self.arith().new_var(true);
                let def = x.sub(&Linear::var(q).scale(&k)).sub(&Linear::var(r));
                let eq = self.relation_in(aig, &def, Relation::Eq);
                let lo = !self.relation_in(aig, &Linear::var(r), Relation::Lt);
                let limit = Linear::var(r).sub(&Linear::constant(k.abs()));
                let hi = self.relation_in(aig, &limit, Relation::Lt);
                let both = aig.and(lo, hi);
                let all = aig.and(eq, both);
                self.facts.push(all);
                let v = if *op == Op::IntDiv { q } else { r };
                self.named.insert(v, t);
                Linear::var(v)
            }
            Op::Ite => {
                let v = self.arith().new_var(*terms.sort(t) == Sort::Int);
                self.named.insert(v, t);
                self.pending.push(Side::Ite {
                    cond: args[0],
                    v,
                    then: arg(1).expect("argument"),
                    other: arg(2).expect("argument"),
                });
                Linear::var(v)
            }
            op => {
                return Err(Unsupported(format!(
                    "`{}` is not part of linear integer or real arithmetic",
                    op.smt_name()
                )))
            }
        })
    }

    /// The core literal of circuit literal `l`, encoding its cone.
    fn sat_lit(&mut self, l: aig::Lit) -> sat::Lit {
        encode_cone(
            &self.blaster.aig,
            l,
            &mut self.encoded,
            !self.tru,
            &mut self.core,
        )
    }

    /// Asserts circuit literal `l` in scope `scope` (`None`: for good).
    fn assert_lit(&mut self, l: aig::Lit, scope: Option<sat::Lit>) {
        let s = self.sat_lit(l);
        match scope {
            Some(act) => Solver::add_clause(&mut self.core, &[!act, s]),
            None => Solver::add_clause(&mut self.core, &[s]),
        }
    }

    /// The values of the nodes of `lits` in the last model. A gate outside
    /// the query's domain is unassigned: it takes the value of its fanins,
    /// as the domain restriction extends a model (`sat::core::domain`); an
    /// input outside it reads as false, as [`InvarSmt::var_value`] reads it.
    fn circuit_values(&self, lits: &[aig::Lit]) -> HashMap<u32, bool> {
        let mut values: HashMap<u32, bool> = HashMap::new();
        let aig = &self.blaster.aig;
        let mut stack: Vec<u32> = lits.iter().map(|l| l.var().0).collect();
        while let Some(&v) = stack.last() {
            if values.contains_key(&v) {
                stack.pop();
                continue;
            }
            let assigned = (self.encoded.get(v as usize).copied().flatten())
                .map(|s| self.core.value(s))
                .filter(|x| *x != crate::sat::core::Value::Unassigned);
            if let Some(x) = assigned {
                values.insert(v, x == crate::sat::core::Value::True);
                stack.pop();
                continue;
            }
            match aig.node(aig::Var(v)) {
                aig::Node::And(a, b) => {
                    let (va, vb) = (a.var().0, b.var().0);
                    match (values.get(&va), values.get(&vb)) {
                        (Some(&x), Some(&y)) => {
                            let x = x ^ a.is_negated();
                            let y = y ^ b.is_negated();
                            values.insert(v, x && y);
                            stack.pop();
                        }
                        (x, y) => {
                            if x.is_none() {
                                stack.push(va);
                            }
                            if y.is_none() {
                                stack.push(vb);
                            }
                        }
                    }
                }
                _ => {
                    values.insert(v, false);
                    stack.pop();
                }
            }
        }
        values
    }

    /// The value of variable `v` in the last model.
    fn var_value(&self, terms: &Terms, v: Term, arith: &[Num]) -> Value {
        let sort = terms.sort(v);
        match sort {
            Sort::Int | Sort::Real => {
                let n = (self.arith_vars.get(&v))
                    .map(|&s| arith[s as usize].clone())
                    .unwrap_or(Num::ZERO);
                match n.to_rational() {
                    Some(r) => Value::Num(r),
                    None => Value::Num(crate::ir::term::Rational::int(0)),
                }
            }
            Sort::Array(index, element) if is_wide_array(sort) => (self.arrays.value(v).cloned())
                .unwrap_or_else(|| {
                    Value::Array(std::sync::Arc::new(ArrayValue::constant(
                        index,
                        Value::default_of(element),
                    )))
                }),
            _ => {
                let bits: Vec<bool> = match self.var_bits.get(&v) {
                    Some(lits) => (lits.iter())
                        .map(|l| {
                            let n = l.var().0 as usize;
                            (self.encoded.get(n).copied().flatten())
                                .is_some_and(|s| self.core.model_value(s.xor(l.is_negated())))
                        })
                        .collect(),
                    None => vec![false; bitblast::width_of(sort, "a variable").unwrap_or(1)],
                };
                bitblast::word_value(sort, &bits)
            }
        }
    }
}

/// Whether a sort is an array too wide for the blaster (the array theory's).
fn is_wide_array(sort: &Sort) -> bool {
    matches!(sort, Sort::Array(..)) && bitblast::array_shape(sort).is_none()
}

/// Whether a sort's values are bits the blaster handles.
fn has_finite_words(sort: &Sort) -> bool {
    match sort {
        Sort::Bool | Sort::BitVec(_) => true,
        Sort::Array(..) => arrays::is_theory_array(sort),
        Sort::Int | Sort::Real => true,
    }
}

impl SmtSolver for InvarSmt {
    fn name(&self) -> &'static str {
        "invar"
    }

    fn assert(&mut self, terms: &Terms, t: Term) {
        self.has_model = false;
        let scope = self.scopes.last().copied();
        match self.bool_lit(terms, t) {
            Ok(l) => self.assert_lit(l, scope),
            Err(Unsupported(why)) => {
                if self.broken.is_none() {
                    self.broken = Some((self.scopes.len(), why));
                }
            }
        }
    }

    fn push(&mut self) {
        let act = self.core.new_var();
        self.scopes.push(act);
    }

    fn pop(&mut self) {
        if let Some(act) = self.scopes.pop() {
            Solver::add_clause(&mut self.core, &[!act]);
        }
        if self
            .broken
            .as_ref()
            .is_some_and(|(s, _)| *s > self.scopes.len())
        {
            self.broken = None;
        }
        self.has_model = false;
    }

    fn check(&mut self, terms: &Terms, assumptions: &[Term]) -> SmtResult {
        let start = Instant::now();
        self.has_model = false;
        self.model.reset(terms);
        self.core_terms.clear();
        self.assumed.clear();
        self.stats.checks += 1;
        if let Some((_, why)) = &self.broken {
            return SmtResult::Unknown(why.clone());
        }
        let mut lits: Vec<sat::Lit> = self.scopes.clone();
        for &a in assumptions {
            match self.bool_lit(terms, a) {
                Ok(l) => {
                    let s = self.sat_lit(l);
                    self.assumed.push((a, s));
                    lits.push(s);
                }
                Err(Unsupported(why)) => return SmtResult::Unknown(why),
            }
        }
        // Deciding inputs only keeps branch and bound from drifting once
        // arithmetic is in play; on bit-vectors alone it starves CDCL of
        // the comparator and adder gates it would branch on (docs/decisions/
        // with-arithmetic-the-smt-solver-decides-inputs-never-gates.md). An ablation overrides it, for measuring.
        // With arrays over wide indices, inputs first: each read is a word
        // of fresh inputs, and branching on the gates of the address
        // comparisons built on them re-decides a hundred thousand gates per
        // conflict; but on some small formulas input-only branching needs
        // exponentially many conflicts, so past a budget gates are decided
        // too (docs/decisions/with-wide-arrays-the-smt-solver-decides-inputs-first.md).
        match self.forced_inputs_only {
            Some(only) => self.core.decide_inputs_only(only),
            None if !self.named.is_empty() => self.core.decide_inputs_only(true),
            None if !self.arrays.is_empty() => self.core.decide_inputs_first(INPUTS_FIRST),
            None => self.core.decide_inputs_only(false),
        }
        let result = loop {
            let result = (self.core).solve_with_temporary(&lits, None, Roots::Assumptions);
            if result != SolveResult::Sat || self.arrays.is_empty() {
                break Ok(result);
            }
            let values = self.circuit_values(&self.arrays.watched());
            let model = |l: aig::Lit| values[&l.var().0] ^ l.is_negated();
            match (self.arrays).check(&mut self.blaster.aig, &model, ARRAY_LEMMAS_PER_MODEL) {
                Ok(lemmas) if lemmas.is_empty() => break Ok(result),
                Ok(lemmas) => {
                    for l in lemmas {
                        self.assert_lit(l, None);
                    }
                }
                Err(why) => break Err(why),
            }
        };
        self.stats.time += start.elapsed();
        let result = match result {
            Ok(r) => r,
            Err(why) => return SmtResult::Unknown(why),
        };
        match result {
            SolveResult::Sat => {
                self.has_model = true;
                SmtResult::Sat
            }
            SolveResult::Unsat => {
                self.core_terms = (self.assumed.iter())
                    .filter(|(_, l)| self.core.failed(*l))
                    .map(|(t, _)| *t)
                    .collect();
                SmtResult::Unsat
            }
            SolveResult::Interrupted => SmtResult::Unknown(self.budget.reason().into()),
        }
    }

    fn value(&mut self, terms: &Terms, t: Term) -> Result<Value, String> {
        if !self.has_model {
            return Err("no model: the last check did not answer sat".into());
        }
        if let Some(Some(v)) = self.model.values.get(t.index()) {
            return Ok(v.clone());
        }
        let arith = match self.model.arith.take() {
            Some(a) => a,
            None => self.arith_ref().model(),
        };
        self.model.roots.push(t);
        let mut eval = Evaluator::with_values(terms, std::mem::take(&mut self.model.values));
        for u in terms.topological(&[t]) {
            if let Op::Var(..) = terms.op(u) {
                eval.set(u, self.var_value(terms, u, &arith));
            }
        }
        let value = eval.eval(t).map_err(|e| e.to_string());
        self.model.values = eval.into_values();
        self.model.arith = Some(arith);
        value
    }

    fn unsat_core(&self) -> Vec<Term> {
        self.core_terms.clone()
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.stats.clone();
        s.sat_calls = self.core.core_stats().sat.calls;
        s
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let core = self.core.core_stats();
        let arith = self.arith_ref();
        let a = &arith.stats;
        vec![
            ("sat conflicts", core.conflicts),
            ("sat decisions", core.decisions),
            ("sat propagations", core.propagations),
            ("theory conflicts", a.conflicts),
            ("theory propagations", a.propagations),
            ("final checks", a.final_checks),
            ("splits", a.splits),
            ("cuts", a.cuts),
            ("gcd conflicts", a.gcd_conflicts),
            ("simplex checks", arith.simplex.checks),
            ("pivots", arith.simplex.pivots),
            ("array lemmas", self.arrays.lemmas),
        ]
    }

    fn reads_arrays(&self) -> bool {
        true
    }

    fn keep_conflicts(&mut self) -> bool {
        let arith = self.arith();
        if arith.recorded.is_none() {
            arith.recorded = Some(Vec::new());
        }
        true
    }

    fn conflicts(&self) -> Vec<FarkasConflict> {
        let arith = self.arith_ref();
        let Some(kept) = &arith.recorded else {
            return Vec::new();
        };
        // A bound `v ≤ k` reads `Σ c·t ≤ k` over v's expansion; `v ≥ k`
        // reads `Σ −c·t ≤ −k`; a δ makes it strict. A conflict with a
        // variable that names no term (a cut's or `is_int`'s helper) is
        // left out.
        let read = |lit: sat::Lit| -> Option<LinearBound> {
            let (var, upper, value) = arith.bound_of(lit)?;
            let sign = if upper { Num::ONE } else { -&Num::ONE };
            let mut sum = Vec::new();
            for (x, c) in arith.expand(var) {
                sum.push((*self.named.get(&x)?, &c * &sign));
            }
            sum.sort_by_key(|(t, _)| *t);
            Some(LinearBound {
                sum,
                bound: &value.real * &sign,
                strict: (&value.delta * &sign).signum() < 0,
            })
        };
        (kept.iter())
            .filter_map(|e| {
                let parts = (e.parts.iter())
                    .map(|(l, c)| Some((read(*l)?, c.clone())))
                    .collect::<Option<Vec<_>>>()?;
                Some(FarkasConflict { parts })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::term::Rational;

    /// Values read in one model are kept for that model only: after the next
    /// check, each reads the new model (the cache is dropped at every check).
    #[test]
    fn values_follow_the_latest_model() {
        let mut terms = Terms::default();
        let x = terms.var("x", Sort::Int);
        let num = |terms: &mut Terms, n: i128| terms.mk(Op::Num(Rational::int(n), Sort::Int), &[]);
        let (one, two) = (num(&mut terms, 1), num(&mut terms, 2));
        let (is_one, is_two) = (terms.eq(x, one), terms.eq(x, two));
        let sum = terms.mk(Op::Add, &[x, one]);
        let mut solver = InvarSmt::new(Budget::unlimited());
        for (assume, value) in [(is_one, 1), (is_two, 2), (is_one, 1)] {
            assert_eq!(solver.check(&terms, &[assume]), SmtResult::Sat);
            // Twice: the second read comes from the cache.
            for _ in 0..2 {
                assert_eq!(
                    solver.value(&terms, x),
                    Ok(Value::Num(Rational::int(value)))
                );
                assert_eq!(
                    solver.value(&terms, sum),
                    Ok(Value::Num(Rational::int(value + 1)))
                );
                let mut expect = |t| solver.value(&terms, t) == Ok(Value::Bool(true));
                assert_eq!((expect(is_one), expect(is_two)), (value == 1, value == 2));
            }
        }
    }
}
