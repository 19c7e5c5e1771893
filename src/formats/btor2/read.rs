//! The BTOR2 reader: one line at a time into a [`Ts`], checking every sort.
//!
//! BTOR2 has only bit-vectors and arrays; a Boolean is a `bitvec 1`. Nodes keep
//! that sort in the IR, and predicates (which are Bool in SMT-LIB) are wrapped
//! as `ite(p, #b1, #b0)`; [`to_bool`] and [`to_bv1`] undo the wrapping so that
//! terms stay small.

use crate::formats::{Location, ParseError};
use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Sort, Term, Terms, MAX_BV_WIDTH};
use crate::ir::ts::{Property, StateVar, Ts};
use std::collections::{HashMap, HashSet};

/// Ids must stay below 2^40 (btor2parser's bound), which also keeps them in a `u64`.
const MAX_ID: u64 = 1 << 40;

/// What an id names.
#[derive(Clone)]
enum Entry {
    Sort(Sort),
    Node(Term),
    /// `bad`, `constraint`, `init`, ...: no value to refer to.
    Other,
}

struct Reader<'a> {
    file: &'a str,
    line: usize,
    ts: Ts,
    ids: HashMap<u64, Entry>,
    last_id: u64,
    names: HashSet<String>,
    /// The state position of each state's current variable.
    state_pos: HashMap<Term, usize>,
}

/// Reads BTOR2 text; `file` names the source in error messages.
pub fn read_str(file: &str, text: &str) -> Result<Ts, ParseError> {
    let mut r = Reader {
        file,
        line: 0,
        ts: Ts::default(),
        ids: HashMap::new(),
        last_id: 0,
        names: HashSet::new(),
        state_pos: HashMap::new(),
    };
    for (i, line) in text.lines().enumerate() {
        r.line = i + 1;
        r.parse_line(line)?;
    }
    Ok(r.ts)
}

/// The Boolean meaning of a `bitvec 1` term.
pub fn to_bool(terms: &mut Terms, t: Term) -> Term {
    if let (Op::Ite, [c, one, zero]) = (terms.op(t), terms.args(t)) {
        let (c, one, zero) = (*c, *one, *zero);
        if is_bv1_const(terms, one, true) && is_bv1_const(terms, zero, false) {
            return c;
        }
    }
    let one = terms.bv(BvValue::from_u64(1, 1));
    terms.eq(t, one)
}

/// The `bitvec 1` form of a Boolean term.
pub fn to_bv1(terms: &mut Terms, p: Term) -> Term {
    if let (Op::Eq, [x, one]) = (terms.op(p), terms.args(p)) {
        let (x, one) = (*x, *one);
        if is_bv1_const(terms, one, true) {
            return x;
        }
    }
    let one = terms.bv(BvValue::from_u64(1, 1));
    let zero = terms.bv(BvValue::from_u64(1, 0));
    terms.mk(Op::Ite, &[p, one, zero])
}

fn is_bv1_const(terms: &Terms, t: Term, value: bool) -> bool {
    matches!(terms.op(t), Op::Bv(v) if v.width() == 1 && v.bit(0) == value)
}

fn sort_text(s: &Sort) -> String {
    match s {
        Sort::BitVec(w) => format!("bitvec {w}"),
        Sort::Array(i, e) => format!("array of {} to {}", sort_text(i), sort_text(e)),
        other => other.to_string(),
    }
}

impl Reader<'_> {
    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.file, Location::Line(self.line), message)
    }

    fn parse_line(&mut self, raw: &str) -> Result<(), ParseError> {
        if raw.starts_with('\t') {
            return Err(self.err("a line may not start with a tab"));
        }
        let content = raw.split(';').next().unwrap_or("");
        let tokens: Vec<&str> = content.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            return Ok(());
        };
        let id: u64 = first
            .parse()
            .ok()
            .filter(|&n| n > 0 && n < MAX_ID)
            .ok_or_else(|| {
                self.err(format!(
                    "expected a node id (a positive number below 2^40), found `{first}`"
                ))
            })?;
        if id <= self.last_id {
            return Err(self.err(format!(
                "id {id} is not greater than the previous id {}",
                self.last_id
            )));
        }
        self.last_id = id;
        let tag = *tokens
            .get(1)
            .ok_or_else(|| self.err(format!("expected a tag after id {id}")))?;
        let mut cur = Cursor {
            tokens: &tokens[2..],
            pos: 0,
        };
        let entry = self.parse_node(id, tag, &mut cur)?;
        // At most one trailing symbol is allowed.
        if cur.tokens.len() > cur.pos + 1 {
            return Err(self.err(format!(
                "unexpected `{}` after the arguments of `{tag}`",
                cur.tokens[cur.pos + 1]
            )));
        }
        self.ids.insert(id, entry);
        Ok(())
    }

    fn number(&self, cur: &mut Cursor, what: &str) -> Result<u64, ParseError> {
        let tok = cur
            .next()
            .ok_or_else(|| self.err(format!("expected {what}, found the end of the line")))?;
        tok.parse()
            .map_err(|_| self.err(format!("expected {what}, found `{tok}`")))
    }

    fn sort_arg(&self, cur: &mut Cursor) -> Result<Sort, ParseError> {
        let id = self.number(cur, "a sort id")?;
        match self.ids.get(&id) {
            Some(Entry::Sort(s)) => Ok(s.clone()),
            Some(_) => Err(self.err(format!("id {id} is not a sort"))),
            None => Err(self.err(format!("sort id {id} is not defined"))),
        }
    }

    /// A node argument, `-n` meaning its bitwise negation.
    fn node_arg(&mut self, cur: &mut Cursor) -> Result<Term, ParseError> {
        let tok = cur
            .next()
            .ok_or_else(|| self.err("expected a node argument, found the end of the line"))?;
        let (negated, digits) = match tok.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, tok),
        };
        let id: u64 = digits
            .parse()
            .map_err(|_| self.err(format!("expected a node argument, found `{tok}`")))?;
        let t = match self.ids.get(&id) {
            Some(Entry::Node(t)) => *t,
            Some(Entry::Sort(_)) => {
                return Err(self.err(format!("argument {id} is a sort, not a node")))
            }
            Some(Entry::Other) => return Err(self.err(format!("argument {id} has no value"))),
            None => return Err(self.err(format!("argument {id} is not defined before its use"))),
        };
        if !negated {
            return Ok(t);
        }
        match self.ts.terms.sort(t) {
            Sort::BitVec(_) => Ok(self.ts.terms.mk(Op::BvNot, &[t])),
            _ => Err(self.err(format!("argument -{id} negates an array"))),
        }
    }

    fn bool_arg(&mut self, cur: &mut Cursor, tag: &str) -> Result<Term, ParseError> {
        let t = self.node_arg(cur)?;
        if *self.ts.terms.sort(t) != Sort::BitVec(1) {
            return Err(self.err(format!(
                "`{tag}` needs a bitvec 1 argument, got {}",
                sort_text(self.ts.terms.sort(t))
            )));
        }
        Ok(to_bool(&mut self.ts.terms, t))
    }

    fn app(&mut self, op: Op, args: &[Term], tag: &str) -> Result<Term, ParseError> {
        self.ts
            .terms
            .app(op, args)
            .map_err(|e| self.err(format!("`{tag}`: {e}")))
    }

    fn name(&mut self, cur: &Cursor, default: String, id: u64) -> String {
        let base = cur.symbol().map_or(default, str::to_string);
        let name = if self.names.contains(&base) {
            format!("{base}#{id}")
        } else {
            base
        };
        self.names.insert(name.clone());
        name
    }

    fn parse_node(&mut self, id: u64, tag: &str, cur: &mut Cursor) -> Result<Entry, ParseError> {
        let node = match tag {
            "sort" => {
                let kind = cur.next().unwrap_or("");
                return match kind {
                    "bitvec" => {
                        let w = self.number(cur, "a width")?;
                        if w == 0 {
                            return Err(self.err("bit-vector width 0"));
                        }
                        if w > MAX_BV_WIDTH as u64 {
                            return Err(self.err(format!(
                                "bit-vector width {w} is above invar's limit of {MAX_BV_WIDTH} bits"
                            )));
                        }
                        Ok(Entry::Sort(Sort::BitVec(w as u32)))
                    }
                    "array" => {
                        let index = self.sort_arg(cur)?;
                        let element = self.sort_arg(cur)?;
                        Ok(Entry::Sort(Sort::array(index, element)))
                    }
                    other => Err(self.err(format!(
                        "expected `bitvec` or `array` after `sort`, found `{other}`"
                    ))),
                };
            }
            "input" | "state" => {
                let sort = self.sort_arg(cur)?;
                let name = self.name(cur, format!("{tag}{id}"), id);
                let var = self.ts.terms.var(&name, sort);
                if tag == "input" {
                    self.ts.inputs.push(var);
                } else {
                    self.state_pos.insert(var, self.ts.states.len());
                    self.ts.states.push(StateVar {
                        var,
                        next_var: None,
                        init: None,
                        next: None,
                    });
                }
                var
            }
            "const" | "constd" | "consth" | "zero" | "one" | "ones" => {
                let sort = self.sort_arg(cur)?;
                let Sort::BitVec(w) = sort else {
                    return Err(self.err(format!("`{tag}` needs a bit-vector sort")));
                };
                let value = match tag {
                    "zero" => Some(BvValue::zero(w)),
                    "one" => Some(BvValue::from_u64(w, 1)),
                    "ones" => Some(BvValue::ones(w)),
                    _ => {
                        let text = cur
                            .next()
                            .ok_or_else(|| self.err(format!("`{tag}` needs a value")))?;
                        let v = match tag {
                            "const" => BvValue::from_binary(text).filter(|v| v.width() == w),
                            "constd" => BvValue::from_decimal(w, text),
                            _ => BvValue::from_hex(w, text),
                        };
                        if v.is_none() {
                            return Err(self.err(format!(
                                "`{tag}` value `{text}` is not a valid constant of bitvec {w}"
                            )));
                        }
                        v
                    }
                };
                self.ts.terms.bv(value.expect("checked above"))
            }
            "init" | "next" => {
                let sort = self.sort_arg(cur)?;
                let state = self.node_arg(cur)?;
                let Some(&pos) = self.state_pos.get(&state) else {
                    return Err(self.err(format!("`{tag}` needs a state as its first argument")));
                };
                let mut value = self.node_arg(cur)?;
                let state_sort = self.ts.terms.sort(state).clone();
                if state_sort != sort {
                    return Err(self.err(format!(
                        "`{tag}` has sort {} but its state has sort {}",
                        sort_text(&sort),
                        sort_text(&state_sort)
                    )));
                }
                let value_sort = self.ts.terms.sort(value).clone();
                if value_sort != sort {
                    // An array state may be initialised with its element: a constant array.
                    match &sort {
                        Sort::Array(_, e) if tag == "init" && **e == value_sort => {
                            value = self.ts.terms.mk(Op::ConstArray(sort.clone()), &[value]);
                        }
                        _ => {
                            return Err(self.err(format!(
                                "`{tag}` value has sort {} but its state has sort {}",
                                sort_text(&value_sort),
                                sort_text(&sort)
                            )))
                        }
                    }
                }
                if tag == "init" {
                    let uses_input = (self.ts.terms.topological(&[value]).into_iter())
                        .any(|t| self.ts.inputs.contains(&t));
                    if uses_input {
                        return Err(self.err("`init` value depends on an input"));
                    }
                }
                let slot = match tag {
                    "init" => &mut self.ts.states[pos].init,
                    _ => &mut self.ts.states[pos].next,
                };
                if slot.is_some() {
                    return Err(self.err(format!("a second `{tag}` for the same state")));
                }
                *slot = Some(value);
                return Ok(Entry::Other);
            }
            "output" => {
                // Outputs name a value for the user; no property depends on them.
                let value = self.node_arg(cur)?;
                self.signal(cur, value);
                return Ok(Entry::Other);
            }
            "bad" | "constraint" | "fair" => {
                let p = self.bool_arg(cur, tag)?;
                match tag {
                    "bad" => {
                        let name = cur
                            .symbol()
                            .map_or_else(|| format!("b{}", self.ts.bad.len()), str::to_string);
                        self.ts.bad.push(Property { name, term: p });
                    }
                    "constraint" => self.ts.constraints.push(p),
                    _ => self.ts.fairness.push(p),
                }
                return Ok(Entry::Other);
            }
            "justice" => {
                let n = self.number(cur, "the number of justice arguments")?;
                let mut parts = Vec::new();
                for _ in 0..n {
                    parts.push(self.bool_arg(cur, tag)?);
                }
                self.ts.justice.push(parts);
                return Ok(Entry::Other);
            }
            _ => {
                let term = self.parse_operator(tag, cur)?;
                self.signal(cur, term);
                return Ok(Entry::Node(term));
            }
        };
        Ok(Entry::Node(node))
    }

    /// Keeps a named value for waveforms (Yosys names a design's wires on
    /// the nodes that compute them), once per name; its own internal names
    /// (`$...`) stay out.
    fn signal(&mut self, cur: &Cursor, term: Term) {
        let Some(name) = cur.symbol() else { return };
        let shown = matches!(self.ts.terms.sort(term), Sort::Bool | Sort::BitVec(_));
        if shown && !name.starts_with('$') && !self.ts.signals.iter().any(|s| s.name == name) {
            self.ts.signals.push(Property {
                name: name.to_string(),
                term,
            });
        }
    }

    fn parse_operator(&mut self, tag: &str, cur: &mut Cursor) -> Result<Term, ParseError> {
        let sort = self.sort_arg(cur)?;
        let term = match tag {
            "sext" | "uext" => {
                let a = self.node_arg(cur)?;
                let by = self.number(cur, "an extension width")?;
                let by = u32::try_from(by).map_err(|_| self.err("extension width out of range"))?;
                let op = if tag == "sext" {
                    Op::SignExtend(by)
                } else {
                    Op::ZeroExtend(by)
                };
                self.app(op, &[a], tag)?
            }
            "slice" => {
                let a = self.node_arg(cur)?;
                let hi = self.number(cur, "the upper bit")?;
                let lo = self.number(cur, "the lower bit")?;
                let (Ok(hi), Ok(lo)) = (u32::try_from(hi), u32::try_from(lo)) else {
                    return Err(self.err("slice bounds out of range"));
                };
                self.app(Op::Extract(hi, lo), &[a], tag)?
            }
            "not" | "neg" | "redand" | "redor" | "redxor" => {
                let a = self.node_arg(cur)?;
                let op = match tag {
                    "not" => Op::BvNot,
                    "neg" => Op::BvNeg,
                    "redand" => Op::BvRedAnd,
                    "redor" => Op::BvRedOr,
                    _ => Op::BvRedXor,
                };
                self.app(op, &[a], tag)?
            }
            "inc" | "dec" => {
                let a = self.node_arg(cur)?;
                let Sort::BitVec(w) = self.ts.terms.sort(a).clone() else {
                    return Err(self.err(format!("`{tag}` needs a bit-vector")));
                };
                let one = self.ts.terms.bv(BvValue::from_u64(w, 1));
                let op = if tag == "inc" { Op::BvAdd } else { Op::BvSub };
                self.app(op, &[a, one], tag)?
            }
            "ite" => {
                let c = self.bool_arg(cur, tag)?;
                let t = self.node_arg(cur)?;
                let e = self.node_arg(cur)?;
                self.app(Op::Ite, &[c, t, e], tag)?
            }
            "read" => {
                let a = self.node_arg(cur)?;
                let i = self.node_arg(cur)?;
                self.app(Op::Select, &[a, i], tag)?
            }
            "write" => {
                let a = self.node_arg(cur)?;
                let i = self.node_arg(cur)?;
                let v = self.node_arg(cur)?;
                self.app(Op::Store, &[a, i, v], tag)?
            }
            "iff" | "implies" => {
                let a = self.bool_arg(cur, tag)?;
                let b = self.bool_arg(cur, tag)?;
                let op = if tag == "iff" { Op::Eq } else { Op::Implies };
                let p = self.app(op, &[a, b], tag)?;
                to_bv1(&mut self.ts.terms, p)
            }
            _ => {
                let Some((op, predicate)) = binary_op(tag) else {
                    return Err(self.err(format!("unknown tag `{tag}`")));
                };
                let a = self.node_arg(cur)?;
                let b = self.node_arg(cur)?;
                let t = self.app(op, &[a, b], tag)?;
                if predicate {
                    to_bv1(&mut self.ts.terms, t)
                } else {
                    t
                }
            }
        };
        let got = self.ts.terms.sort(term).clone();
        if got != sort {
            return Err(self.err(format!(
                "`{tag}` declares sort {} but its result has sort {}",
                sort_text(&sort),
                sort_text(&got)
            )));
        }
        Ok(term)
    }
}

/// The operator of a binary tag, and whether it is a predicate (Bool in the IR).
fn binary_op(tag: &str) -> Option<(Op, bool)> {
    use Op::*;
    Some(match tag {
        "and" => (BvAnd, false),
        "or" => (BvOr, false),
        "xor" => (BvXor, false),
        "nand" => (BvNand, false),
        "nor" => (BvNor, false),
        "xnor" => (BvXnor, false),
        "add" => (BvAdd, false),
        "sub" => (BvSub, false),
        "mul" => (BvMul, false),
        "udiv" => (BvUdiv, false),
        "urem" => (BvUrem, false),
        "sdiv" => (BvSdiv, false),
        "srem" => (BvSrem, false),
        "smod" => (BvSmod, false),
        "sll" => (BvShl, false),
        "srl" => (BvLshr, false),
        "sra" => (BvAshr, false),
        "rol" => (BvRol, false),
        "ror" => (BvRor, false),
        "concat" => (Concat, false),
        "eq" => (Eq, true),
        "neq" => (Distinct, true),
        "ugt" => (BvUgt, true),
        "ugte" => (BvUge, true),
        "ult" => (BvUlt, true),
        "ulte" => (BvUle, true),
        "sgt" => (BvSgt, true),
        "sgte" => (BvSge, true),
        "slt" => (BvSlt, true),
        "slte" => (BvSle, true),
        "uaddo" => (BvUaddo, true),
        "saddo" => (BvSaddo, true),
        "usubo" => (BvUsubo, true),
        "ssubo" => (BvSsubo, true),
        "umulo" => (BvUmulo, true),
        "smulo" => (BvSmulo, true),
        "sdivo" => (BvSdivo, true),
        _ => return None,
    })
}

/// The tokens after the tag.
struct Cursor<'a> {
    tokens: &'a [&'a str],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let t = self.tokens.get(self.pos).copied();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    /// The optional symbol after the arguments.
    fn symbol(&self) -> Option<&'a str> {
        self.tokens.get(self.pos).copied()
    }
}
