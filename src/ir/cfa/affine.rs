//! Affine equalities among program variables, per location of a CFA.
//!
//! Karr, "Affine Relationships Among Variables of a Program", Acta
//! Informatica 6, 1976: the set of states reaching a location is
//! over-approximated by its affine hull, a point plus a basis of
//! directions, propagated along the edges. An assignment whose value is an
//! affine expression maps the hull exactly; any other assignment, and a
//! havoc, frees the variable (adds its unit direction); guards are ignored
//! (an over-approximation); a join is the hull of both. Hulls only grow and
//! their dimension is bounded by the number of variables, so the fixpoint
//! is reached after few rounds. The equalities of the final hulls (its
//! orthogonal complement) hold at every reachable state of the location.
//!
//! Variables are grouped by sort and each group is analysed on its own: a
//! relation over the integers with integer coefficients, derived from
//! updates that are sums and constant multiples, holds modulo 2^w for
//! w-bit variables too (reduction modulo 2^w is a ring homomorphism), but
//! only among variables of one width. Arithmetic is on `i128`; a group
//! whose numbers overflow yields no equality rather than a wrong one.
//!
//! Users (IC3CFA) add the equalities to every frame of their location; the
//! invariant they end in is still checked by the independent proof checker,
//! so an error here costs a proof, never a wrong verdict.

use super::{Cfa, Command};
use crate::ir::bv::BvValue;
use crate::ir::term::num::Rational;
use crate::ir::term::{Op, Sort, Term, Terms};
use std::borrow::Cow;
use std::collections::HashMap;

/// `Σ coefficient · variable = constant` over one sort (modulo 2^w for
/// w-bit variables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equality {
    /// Non-zero integer coefficients, by variable.
    pub coefficients: Vec<(Term, i128)>,
    pub constant: i128,
    /// The sort of the variables.
    pub sort: Sort,
}

impl Equality {
    /// The equality as a Bool term: positive coefficients on the left,
    /// negative ones moved to the right with the constant.
    pub fn term(&self, terms: &mut Terms) -> Term {
        let mut left = Vec::new();
        let mut right = Vec::new();
        for &(x, a) in &self.coefficients {
            let side = if a > 0 { &mut left } else { &mut right };
            side.push(scaled(terms, &self.sort, x, a.abs()));
        }
        if self.constant != 0 || right.is_empty() {
            right.push(constant(terms, &self.sort, self.constant));
        }
        if left.is_empty() {
            left.push(constant(terms, &self.sort, 0));
        }
        let (l, r) = (
            sum(terms, &self.sort, &left),
            sum(terms, &self.sort, &right),
        );
        terms.eq(l, r)
    }
}

fn constant(terms: &mut Terms, sort: &Sort, c: i128) -> Term {
    match sort {
        Sort::BitVec(w) => terms.bv(BvValue::from_u64(*w, c as u64)),
        _ => terms.mk(Op::Num(Rational::int(c), Sort::Int), &[]),
    }
}

fn scaled(terms: &mut Terms, sort: &Sort, x: Term, a: i128) -> Term {
    if a == 1 {
        return x;
    }
    let k = constant(terms, sort, a);
    let op = if matches!(sort, Sort::BitVec(_)) {
        Op::BvMul
    } else {
        Op::Mul
    };
    terms.mk(op, &[k, x])
}

fn sum(terms: &mut Terms, sort: &Sort, parts: &[Term]) -> Term {
    let op = if matches!(sort, Sort::BitVec(_)) {
        Op::BvAdd
    } else {
        Op::Add
    };
    let mut acc = parts[0];
    for &p in &parts[1..] {
        acc = terms.mk(op.clone(), &[acc, p]);
    }
    acc
}

/// Arithmetic left `i128`.
struct Overflow;

type Num = Result<i128, Overflow>;

fn add(a: i128, b: i128) -> Num {
    a.checked_add(b).ok_or(Overflow)
}

fn mul(a: i128, b: i128) -> Num {
    a.checked_mul(b).ok_or(Overflow)
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    (a, b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Divides `v` by the gcd of its entries and makes its first non-zero
/// entry positive.
fn normalise(v: &mut [i128]) {
    let g = v.iter().fold(0, |g, &x| gcd(g, x));
    let sign = v.iter().find(|&&x| x != 0).map_or(1, |x| x.signum());
    if g > 1 || sign < 0 {
        for x in v.iter_mut() {
            *x = *x / g * sign;
        }
    }
}

/// `a·u - b·w`, entrywise.
fn combine(a: i128, u: &[i128], b: i128, w: &[i128]) -> Result<Vec<i128>, Overflow> {
    u.iter()
        .zip(w)
        .map(|(&x, &y)| add(mul(a, x)?, mul(b, y)?.checked_neg().ok_or(Overflow)?))
        .collect()
}

/// An affine space `point + span(rows)`; the rows have distinct pivots
/// (first non-zero columns).
#[derive(Clone, Debug)]
struct Hull {
    point: Vec<i128>,
    rows: Vec<Vec<i128>>,
}

impl Hull {
    /// Every valuation of `n` variables.
    fn everything(n: usize) -> Hull {
        let mut h = Hull {
            point: vec![0; n],
            rows: Vec::new(),
        };
        for i in 0..n {
            let mut e = vec![0; n];
            e[i] = 1;
            h.rows.push(e);
        }
        h
    }

    /// Adds direction `v` to the span; whether the dimension grew.
    fn add_direction(&mut self, mut v: Vec<i128>) -> Result<bool, Overflow> {
        for row in &self.rows {
            let p = row.iter().position(|&x| x != 0).expect("rows are non-zero");
            if v[p] != 0 {
                v = combine(row[p], &v, v[p], row)?;
                normalise(&mut v);
            }
        }
        if v.iter().all(|&x| x == 0) {
            return Ok(false);
        }
        normalise(&mut v);
        self.rows.push(v);
        Ok(true)
    }

    /// The hull of both; whether it is larger than `self` was.
    fn join(&mut self, other: &Hull) -> Result<bool, Overflow> {
        let mut grew = false;
        let offset: Vec<i128> = (other.point.iter().zip(&self.point))
            .map(|(&a, &b)| add(a, b.checked_neg().ok_or(Overflow)?))
            .collect::<Result<_, _>>()?;
        grew |= self.add_direction(offset)?;
        for r in &other.rows {
            grew |= self.add_direction(r.clone())?;
        }
        Ok(grew)
    }

    /// The image under the simultaneous update `x_i := forms[i]` (`None`
    /// for a variable set to anything); variables without an entry keep
    /// their values.
    fn map(&self, updates: &[(usize, Option<Linear>)]) -> Result<Hull, Overflow> {
        let apply = |v: &[i128], with_constant: bool| -> Result<Vec<i128>, Overflow> {
            let mut out = v.to_vec();
            for (x, form) in updates {
                out[*x] = match form {
                    Some(f) => f.eval(v, with_constant)?,
                    None => 0,
                };
            }
            Ok(out)
        };
        let mut h = Hull {
            point: apply(&self.point, true)?,
            rows: Vec::new(),
        };
        for r in &self.rows {
            h.add_direction(apply(r, false)?)?;
        }
        for (x, form) in updates {
            if form.is_none() {
                let mut e = vec![0; self.point.len()];
                e[*x] = 1;
                h.add_direction(e)?;
            }
        }
        Ok(h)
    }

    /// A basis of the equalities `a·x = c` that hold on the hull.
    fn equalities(&self) -> Result<Vec<(Vec<i128>, i128)>, Overflow> {
        let n = self.point.len();
        // Fully reduced rows: each pivot column is zero in every other row.
        let mut rows = self.rows.clone();
        rows.sort_by_key(|r| r.iter().position(|&x| x != 0));
        for i in 0..rows.len() {
            let p = rows[i].iter().position(|&x| x != 0).expect("non-zero");
            for j in 0..rows.len() {
                if j != i && rows[j][p] != 0 {
                    let mut v = combine(rows[i][p], &rows[j], rows[j][p], &rows[i])?;
                    normalise(&mut v);
                    rows[j] = v;
                }
            }
        }
        let pivots: Vec<usize> = (rows.iter())
            .map(|r| r.iter().position(|&x| x != 0).expect("non-zero"))
            .collect();
        let scale = pivots.iter().zip(&rows).try_fold(1i128, |l, (&p, r)| {
            let g = gcd(l, r[p]);
            mul(l / g, r[p].abs())
        })?;
        let mut out = Vec::new();
        for f in (0..n).filter(|c| !pivots.contains(c)) {
            // a·r = 0 for every row: a_f = scale, a_p = -r_f · scale / r_p.
            let mut a = vec![0; n];
            a[f] = scale;
            for (&p, r) in pivots.iter().zip(&rows) {
                a[p] = mul(r[f], scale / r[p])?.checked_neg().ok_or(Overflow)?;
            }
            normalise(&mut a);
            let c = (a.iter().zip(&self.point)).try_fold(0, |s, (&x, &y)| add(s, mul(x, y)?))?;
            out.push((a, c));
        }
        Ok(out)
    }
}

/// `Σ coefficient_i · x_i + constant` over the group's variables.
#[derive(Clone, Debug)]
struct Linear {
    coefficients: Vec<i128>,
    constant: i128,
}

impl Linear {
    /// The form `x_i` over `n` variables.
    fn unit(n: usize, i: usize) -> Linear {
        let mut coefficients = vec![0; n];
        coefficients[i] = 1;
        Linear {
            coefficients,
            constant: 0,
        }
    }

    fn eval(&self, v: &[i128], with_constant: bool) -> Num {
        let mut s = if with_constant { self.constant } else { 0 };
        for (&a, &x) in self.coefficients.iter().zip(v) {
            if a != 0 {
                s = add(s, mul(a, x)?)?;
            }
        }
        Ok(s)
    }

    fn scale(&self, k: i128) -> Option<Linear> {
        Some(Linear {
            coefficients: (self.coefficients.iter())
                .map(|&a| a.checked_mul(k))
                .collect::<Option<_>>()?,
            constant: self.constant.checked_mul(k)?,
        })
    }

    fn plus(&self, o: &Linear, sign: i128) -> Option<Linear> {
        Some(Linear {
            coefficients: (self.coefficients.iter().zip(&o.coefficients))
                .map(|(&a, &b)| a.checked_add(b.checked_mul(sign)?))
                .collect::<Option<_>>()?,
            constant: self.constant.checked_add(o.constant.checked_mul(sign)?)?,
        })
    }

    fn as_constant(&self) -> Option<i128> {
        self.coefficients
            .iter()
            .all(|&a| a == 0)
            .then_some(self.constant)
    }
}

/// One group: the variables of one sort.
struct Group<'a> {
    terms: &'a Terms,
    sort: Sort,
    index: HashMap<Term, usize>,
}

impl Group<'_> {
    /// `t` as an affine form over the group's variables, if it is one.
    fn linear(&self, t: Term) -> Option<Linear> {
        let n = self.index.len();
        let mut forms: HashMap<Term, Option<Linear>> = HashMap::new();
        for s in self.terms.topological(&[t]) {
            let arg = |i: usize| forms[&self.terms.args(s)[i]].clone();
            let form = match self.terms.op(s) {
                Op::Var(..) => self.index.get(&s).map(|&i| Linear::unit(n, i)),
                Op::Num(r, Sort::Int) if r.is_int() => Some(Linear {
                    coefficients: vec![0; n],
                    constant: r.numer(),
                }),
                Op::Bv(v) if v.width() <= 64 => {
                    let u = v.to_u64().unwrap_or(0) as i128;
                    let signed = if v.msb() { u - (1i128 << v.width()) } else { u };
                    Some(Linear {
                        coefficients: vec![0; n],
                        constant: signed,
                    })
                }
                op @ (Op::Add | Op::BvAdd | Op::Sub | Op::BvSub) => {
                    let sign = if matches!(op, Op::Sub | Op::BvSub) {
                        -1
                    } else {
                        1
                    };
                    let args = self.terms.args(s);
                    let mut acc = forms[&args[0]].clone();
                    for a in &args[1..] {
                        acc = acc
                            .zip(forms[a].clone())
                            .and_then(|(x, y)| x.plus(&y, sign));
                    }
                    acc
                }
                Op::Neg | Op::BvNeg => arg(0).and_then(|a| a.scale(-1)),
                Op::Mul | Op::BvMul => {
                    // At most one factor that is not a constant.
                    let args = self.terms.args(s);
                    let mut k: Option<i128> = Some(1);
                    let mut variable: Option<Linear> = None;
                    let mut ok = true;
                    for a in args {
                        match forms[a].clone() {
                            Some(f) => match f.as_constant() {
                                Some(c) => k = k.and_then(|k| k.checked_mul(c)),
                                None if variable.is_none() => variable = Some(f),
                                None => ok = false,
                            },
                            None => ok = false,
                        }
                    }
                    match (ok, k, variable) {
                        (true, Some(k), Some(f)) => f.scale(k),
                        (true, Some(k), None) => Some(Linear {
                            coefficients: vec![0; n],
                            constant: k,
                        }),
                        _ => None,
                    }
                }
                _ => None,
            };
            // Only forms of the group's sort compose (a BV constant of
            // another width is not one of this group's numbers).
            let form = form.filter(|_| *self.terms.sort(s) == self.sort);
            forms.insert(s, form);
        }
        forms.remove(&t).flatten()
    }

    /// The hull after `command`, from `from` (`None`: unreachable).
    fn transfer(&self, command: &Command, from: Option<Hull>) -> Result<Option<Hull>, Overflow> {
        let Some(hull) = from else { return Ok(None) };
        let mut state = State {
            hull: Cow::Owned(hull),
            pending: HashMap::new(),
        };
        if !self.step(command, &mut state)? {
            return Ok(None);
        }
        state.flush()?;
        Ok(Some(state.hull.into_owned()))
    }

    /// Runs `command` on `state`; whether it can complete. The assignments
    /// of a sequence are composed into one simultaneous update, applied to
    /// the hull only before a choice or at the end, and a branch of a
    /// choice that updates nothing shares its hull instead of copying it
    /// (`byte_add-1`'s choices, one hull copy and rebuild per assignment
    /// and branch, took 0.45 s).
    fn step(&self, command: &Command, state: &mut State<'_>) -> Result<bool, Overflow> {
        match command {
            Command::Assume(c) => return Ok(*self.terms.op(*c) != Op::Bool(false)),
            Command::Assign(x, e) => {
                if let Some(&i) = self.index.get(x) {
                    let form = self.linear(*e);
                    // A value read after a havoc in this sequence is not a
                    // form over the sequence's entry: apply what is pending
                    // first, so that `x := y` after `havoc y` keeps x = y.
                    if form.as_ref().is_some_and(|f| state.reads_havoc(f)) {
                        state.flush()?;
                    }
                    let form = form.and_then(|f| state.compose(&f));
                    state.pending.insert(i, form);
                }
            }
            Command::Havoc(x) => {
                if let Some(&i) = self.index.get(x) {
                    state.pending.insert(i, None);
                }
            }
            Command::Seq(parts) => {
                for p in parts {
                    if !self.step(p, state)? {
                        return Ok(false);
                    }
                }
            }
            Command::Choice(options) => {
                state.flush()?;
                let start: &Hull = &state.hull;
                let mut joined: Option<Hull> = None;
                let mut start_joined = false;
                for o in options {
                    let mut branch = State {
                        hull: Cow::Borrowed(start),
                        pending: HashMap::new(),
                    };
                    if !self.step(o, &mut branch)? {
                        continue;
                    }
                    branch.flush()?;
                    let image = match branch.hull {
                        // Unchanged: the start hull, joined once.
                        Cow::Borrowed(_) if start_joined => continue,
                        Cow::Borrowed(h) => {
                            start_joined = true;
                            Cow::Borrowed(h)
                        }
                        owned => owned,
                    };
                    match &mut joined {
                        None => joined = Some(image.into_owned()),
                        // Branches often end in the same hull (the same
                        // updates under different guards): comparing costs
                        // less than a join, which reduces every row.
                        Some(j) if j.point == image.point && j.rows == image.rows => {}
                        Some(j) => {
                            j.join(&image)?;
                        }
                    }
                }
                match joined {
                    Some(h) => state.hull = Cow::Owned(h),
                    None => return Ok(false),
                }
            }
        }
        Ok(true)
    }
}

/// A hull (shared until something changes it) and the update a sequence
/// has built so far: per assigned variable, its value as a form over the
/// values the hull describes (`None`: anything).
struct State<'h> {
    hull: Cow<'h, Hull>,
    pending: HashMap<usize, Option<Linear>>,
}

impl State<'_> {
    /// Whether `form` reads a variable havocked in the pending update.
    fn reads_havoc(&self, form: &Linear) -> bool {
        (form.coefficients.iter().enumerate())
            .any(|(y, &a)| a != 0 && matches!(self.pending.get(&y), Some(None)))
    }

    /// `form`, over the current values, as a form over the hull's values.
    fn compose(&self, form: &Linear) -> Option<Linear> {
        let n = form.coefficients.len();
        let mut out = Linear {
            coefficients: vec![0; n],
            constant: form.constant,
        };
        for (y, &a) in form.coefficients.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let value = match self.pending.get(&y) {
                None => Linear::unit(n, y),
                Some(Some(g)) => g.clone(),
                Some(None) => return None,
            };
            out = out.plus(&value.scale(a)?, 1)?;
        }
        Some(out)
    }

    /// Applies the pending update to the hull.
    fn flush(&mut self) -> Result<(), Overflow> {
        if !self.pending.is_empty() {
            let updates: Vec<(usize, Option<Linear>)> = self.pending.drain().collect();
            self.hull = Cow::Owned(self.hull.map(&updates)?);
        }
        Ok(())
    }
}

/// What the analysis found, per location (indexed by `Loc.0`).
#[derive(Clone, Debug, Default)]
pub struct Affine {
    /// Whether some path of edges leads there from the initial location
    /// (guards are not evaluated, so `false` means unreachable).
    pub reachable: Vec<bool>,
    /// The affine equalities that hold at every state there, over the Int
    /// variables and over the bit-vector variables of each width up to 64.
    pub equalities: Vec<Vec<Equality>>,
}

/// The most variables of one sort the analysis takes: its hulls cost a
/// power of their number per join (a recursive program inlined 256 times
/// has thousands, and the analysis did not end in a minute). Every program
/// of the C sets has at most 115; a larger group is left without
/// equalities, which only makes the facts fewer.
const MAX_VARIABLES: usize = 256;

/// Karr's analysis of `cfa`.
pub fn analyse_cfa(cfa: &Cfa) -> Affine {
    let mut out = vec![Vec::new(); cfa.labels.len()];
    // With no variables, the hulls are points: reached or not.
    let nothing = Group {
        terms: &cfa.terms,
        sort: Sort::Bool,
        index: HashMap::new(),
    };
    let reachable = match reach(cfa, &nothing) {
        Ok(hulls) => hulls.iter().map(Option::is_some).collect(),
        Err(Overflow) => unreachable!("no numbers without variables"),
    };
    let mut sorts: Vec<Sort> = Vec::new();
    for &v in &cfa.vars {
        let s = cfa.terms.sort(v).clone();
        let wanted = matches!(s, Sort::Int) || matches!(s, Sort::BitVec(w) if w <= 64);
        if wanted && !sorts.contains(&s) {
            sorts.push(s);
        }
    }
    for sort in sorts {
        let vars: Vec<Term> = (cfa.vars.iter())
            .copied()
            .filter(|&v| *cfa.terms.sort(v) == sort)
            .collect();
        if vars.len() > MAX_VARIABLES {
            continue;
        }
        let group = Group {
            terms: &cfa.terms,
            sort: sort.clone(),
            index: vars.iter().enumerate().map(|(i, &v)| (v, i)).collect(),
        };
        // A group whose numbers overflow says nothing.
        if let Ok(found) = analyse(cfa, &group) {
            for (loc, eqs) in found.into_iter().enumerate() {
                for (a, c) in eqs {
                    // `term` negates coefficients: i128::MIN has no negation.
                    if a.contains(&i128::MIN) {
                        continue;
                    }
                    let coefficients: Vec<(Term, i128)> = (vars.iter().zip(&a))
                        .filter(|(_, &k)| k != 0)
                        .map(|(&v, &k)| (v, k))
                        .collect();
                    out[loc].push(Equality {
                        coefficients,
                        constant: c,
                        sort: sort.clone(),
                    });
                }
            }
        }
    }
    Affine {
        reachable,
        equalities: out,
    }
}

/// Karr's fixpoint for one group: per location, a basis of its equalities.
type Found = Vec<Vec<(Vec<i128>, i128)>>;

fn analyse(cfa: &Cfa, group: &Group) -> Result<Found, Overflow> {
    reach(cfa, group)?
        .iter()
        .map(|h| match h {
            Some(h) => h.equalities(),
            None => Ok(Vec::new()),
        })
        .collect()
}

/// The hull of each location (`None`: no path of edges reaches it).
fn reach(cfa: &Cfa, group: &Group) -> Result<Vec<Option<Hull>>, Overflow> {
    let n = group.index.len();
    let locations = cfa.labels.len();
    let mut hulls: Vec<Option<Hull>> = vec![None; locations];
    let mut outgoing = vec![Vec::new(); locations];
    for (k, e) in cfa.edges.iter().enumerate() {
        outgoing[e.from.0 as usize].push(k);
    }
    let init = cfa.init.0 as usize;
    // C variables start with any value.
    hulls[init] = Some(Hull::everything(n));
    let mut work = vec![init];
    let mut queued = vec![false; locations];
    queued[init] = true;
    while let Some(l) = work.pop() {
        queued[l] = false;
        for &k in &outgoing[l] {
            let edge = &cfa.edges[k];
            let Some(image) = group.transfer(&edge.command, hulls[l].clone())? else {
                continue;
            };
            let to = edge.to.0 as usize;
            let grew = match &mut hulls[to] {
                None => {
                    hulls[to] = Some(image);
                    true
                }
                Some(h) => h.join(&image)?,
            };
            if grew && !queued[to] {
                queued[to] = true;
                work.push(to);
            }
        }
    }
    Ok(hulls)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfa::Loc;

    fn bv(terms: &mut Terms, c: u64) -> Term {
        terms.bv(BvValue::from_u64(8, c))
    }

    /// `i = 0; k = 0; while (*) { i++; k++ }; j = 0; while (*) { j++; k-- }`
    /// over 8-bit variables: `k = i` at the first head, `k + j = i` at the
    /// second; checked against every state an explicit search reaches.
    #[test]
    fn counters_in_lockstep_give_their_differences() {
        let mut cfa = Cfa::default();
        let s = Sort::BitVec(8);
        let (i, j, k) = (
            cfa.terms.var("i", s.clone()),
            cfa.terms.var("j", s.clone()),
            cfa.terms.var("k", s.clone()),
        );
        cfa.vars = vec![i, j, k];
        let entry = cfa.add_location("entry");
        let head1 = cfa.add_location("head1");
        let head2 = cfa.add_location("head2");
        let error = cfa.add_location("error");
        cfa.init = entry;
        cfa.error = error;
        let (zero, one) = (bv(&mut cfa.terms, 0), bv(&mut cfa.terms, 1));
        let i1 = cfa.terms.mk(Op::BvAdd, &[i, one]);
        let k1 = cfa.terms.mk(Op::BvAdd, &[k, one]);
        let j1 = cfa.terms.mk(Op::BvAdd, &[j, one]);
        let km = cfa.terms.mk(Op::BvSub, &[k, one]);
        cfa.add_edge(
            entry,
            Command::Assign(i, zero).then(Command::Assign(k, zero)),
            head1,
        );
        cfa.add_edge(
            head1,
            Command::Assign(i, i1).then(Command::Assign(k, k1)),
            head1,
        );
        cfa.add_edge(head1, Command::Assign(j, zero), head2);
        cfa.add_edge(
            head2,
            Command::Assign(j, j1).then(Command::Assign(k, km)),
            head2,
        );
        let found = analyse_cfa(&cfa);
        assert_eq!(
            found.reachable,
            vec![true; 3].into_iter().chain([false]).collect::<Vec<_>>()
        );
        let eqs = found.equalities;
        let at = |l: Loc| &eqs[l.0 as usize];
        assert!(at(entry).is_empty());
        assert_eq!(at(head1).len(), 1, "{:?}", at(head1));
        assert_eq!(at(head2).len(), 1, "{:?}", at(head2));
        // Explicit search over all 2^24 valuations is too much; the
        // reachable states are few: i = k = a at head1, (i, j, k) = (a,
        // b, a - b) at head2, for all 8-bit a, b.
        let holds = |e: &Equality, v: &[(Term, u64)]| {
            let mut s: i128 = 0;
            for &(x, a) in &e.coefficients {
                let val = v.iter().find(|p| p.0 == x).map_or(0, |p| p.1) as i128;
                s += a * val;
            }
            (s - e.constant).rem_euclid(256) == 0
        };
        for a in 0..256u64 {
            let e = &at(head1)[0];
            assert!(holds(e, &[(i, a), (k, a), (j, 77)]), "{e:?}");
            for b in 0..256u64 {
                let e = &at(head2)[0];
                assert!(
                    holds(e, &[(i, a), (j, b), (k, (a + 256 - b) % 256)]),
                    "{e:?}"
                );
            }
        }
        // Not a tautology: a state off the relation violates it.
        assert!(!holds(&at(head2)[0], &[(i, 5), (j, 1), (k, 5)]));
        // As a term, `k + j = i` (coefficients 1, 1, -1 up to sign).
        let t = at(head2)[0].term(&mut cfa.terms);
        assert_eq!(*cfa.terms.op(t), Op::Eq);
    }

    /// A havoc, a non-linear update and a guard give no equality about the
    /// variables they free; a constant assignment gives `x = c`.
    #[test]
    fn havoc_frees_and_constants_fix() {
        let mut cfa = Cfa::default();
        let x = cfa.terms.var("x", Sort::Int);
        let y = cfa.terms.var("y", Sort::Int);
        cfa.vars = vec![x, y];
        let a = cfa.add_location("a");
        let b = cfa.add_location("b");
        let c = cfa.add_location("c");
        cfa.init = a;
        cfa.error = c;
        let seven = cfa.terms.mk(Op::Num(Rational::int(7), Sort::Int), &[]);
        let sq = cfa.terms.mk(Op::Mul, &[y, y]);
        cfa.add_edge(a, Command::Assign(x, seven).then(Command::Havoc(y)), b);
        cfa.add_edge(b, Command::Assign(y, sq), c);
        let eqs = analyse_cfa(&cfa).equalities;
        assert_eq!(
            eqs[b.0 as usize],
            vec![Equality {
                coefficients: vec![(x, 1)],
                constant: 7,
                sort: Sort::Int
            }]
        );
        assert_eq!(eqs[c.0 as usize], eqs[b.0 as usize]);
    }
}
