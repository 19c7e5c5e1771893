//! The counterexample text of VMT answers (ic3ia's `-w` style), both ways:
//!
//! ```text
//! unsafe
//! counterexample
//! ;; step 0
//! (and (= x #b0001) (= y true))
//! ```
//!
//! Each step gives the value of every state and input variable. An array's
//! value is written as SMT-LIB writes one: stores into a constant array,
//! `(store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000003 #x41)`.

use crate::formats::smtlib::lex::{Lexer, Token};
use crate::formats::{Location, ParseError};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::Value;
use crate::ir::term::print::quote_symbol;
use crate::ir::term::{Rational, Sort};
use crate::ir::ts::{Ts, WordTrace};
use std::collections::HashMap;

/// The counterexample text of `trace` (without the leading `unsafe`).
pub fn write_trace(ts: &Ts, trace: &WordTrace) -> String {
    let mut out = String::from("counterexample\n");
    for k in 0..trace.len() {
        let mut eqs = Vec::new();
        let vars = ts.states.iter().map(|s| s.var).zip(&trace.states[k]);
        for (v, value) in vars.chain(ts.inputs.iter().copied().zip(&trace.inputs[k])) {
            let name = quote_symbol(ts.terms.var_name(v).unwrap_or_default());
            eqs.push(format!("(= {name} {})", value.smtlib(ts.terms.sort(v))));
        }
        out += &format!(";; step {k}\n(and {})\n", eqs.join(" "));
    }
    out
}

/// Per step, the state and input values a counterexample text gives.
pub type PartialTrace = (Vec<Vec<Option<Value>>>, Vec<Vec<Option<Value>>>);

/// Reads a counterexample text against `ts`.
pub fn read_trace(file: &str, text: &str, ts: &Ts) -> Result<PartialTrace, ParseError> {
    // Where each variable name goes: (is_state, position).
    let mut slots: HashMap<&str, (bool, usize, &Sort)> = HashMap::new();
    for (i, s) in ts.states.iter().enumerate() {
        let name = ts.terms.var_name(s.var).unwrap_or_default();
        slots.insert(name, (true, i, ts.terms.sort(s.var)));
    }
    for (i, &v) in ts.inputs.iter().enumerate() {
        let name = ts.terms.var_name(v).unwrap_or_default();
        slots.insert(name, (false, i, ts.terms.sort(v)));
    }
    let body = text
        .split_once("counterexample")
        .map(|(_, rest)| rest)
        .ok_or_else(|| ParseError::new(file, Location::File, "expected `counterexample`"))?;
    let offset = text.len() - body.len();
    let first_line = text[..offset].matches('\n').count();
    let mut lex = Lexer::new(body);
    let err =
        |lex: &Lexer, m: String| ParseError::new(file, Location::Line(first_line + lex.line), m);
    let (mut states, mut inputs) = (Vec::new(), Vec::new());
    fn step<'a>(
        lex: &mut Lexer<'a>,
        file: &str,
        first: usize,
    ) -> Result<Option<Token<'a>>, ParseError> {
        let line = lex.line;
        lex.next()
            .map_err(|m| ParseError::new(file, Location::Line(first + line), m))
    }
    while let Some(tok) = step(&mut lex, file, first_line)? {
        if tok != Token::Open || step(&mut lex, file, first_line)? != Some(Token::Symbol("and")) {
            return Err(err(&lex, "expected `(and` to start a step".into()));
        }
        let mut s = vec![None; ts.states.len()];
        let mut i = vec![None; ts.inputs.len()];
        loop {
            match step(&mut lex, file, first_line)? {
                Some(Token::Close) => break,
                Some(Token::Open) => {}
                _ => return Err(err(&lex, "expected `(= name value)` or `)`".into())),
            }
            if step(&mut lex, file, first_line)? != Some(Token::Symbol("=")) {
                return Err(err(&lex, "expected `=`".into()));
            }
            let Some(Token::Symbol(name)) = step(&mut lex, file, first_line)? else {
                return Err(err(&lex, "expected a variable name".into()));
            };
            let &(is_state, pos, sort) = slots.get(name).ok_or_else(|| {
                err(
                    &lex,
                    format!("`{name}` is not a state or input of the model"),
                )
            })?;
            let value = read_value(&mut lex, sort).map_err(|m| err(&lex, m))?;
            if step(&mut lex, file, first_line)? != Some(Token::Close) {
                return Err(err(&lex, "expected `)` after the value".into()));
            }
            if is_state {
                s[pos] = Some(value);
            } else {
                i[pos] = Some(value);
            }
        }
        states.push(s);
        inputs.push(i);
    }
    if inputs.is_empty() {
        return Err(ParseError::new(
            file,
            Location::File,
            "the counterexample has no step",
        ));
    }
    Ok((states, inputs))
}

/// A literal value of `sort`: Boolean, bit-vector, (possibly negated)
/// number, or an array as stores into a constant array.
fn read_value(lex: &mut Lexer<'_>, sort: &Sort) -> Result<Value, String> {
    let v = match lex.next()? {
        Some(Token::Symbol("true")) => Value::Bool(true),
        Some(Token::Symbol("false")) => Value::Bool(false),
        Some(Token::Binary(b)) => Value::Bv(BvValue::from_binary(b).expect("lexed")),
        Some(Token::Hex(h)) => Value::Bv(BvValue::from_hex(4 * h.len() as u32, h).expect("lexed")),
        Some(Token::Numeral(n) | Token::Decimal(n)) => Rational::parse(n)
            .map(Value::Num)
            .ok_or_else(|| format!("number `{n}` out of range"))?,
        Some(Token::Open) => {
            let v = match (lex.next()?, sort) {
                (Some(Token::Symbol("-")), _) => match read_value(lex, sort)? {
                    Value::Num(r) => r.checked_neg().map(Value::Num),
                    _ => None,
                },
                (Some(Token::Symbol("/")), _) => {
                    match (read_value(lex, sort)?, read_value(lex, sort)?) {
                        (Value::Num(r), Value::Num(d)) => r.checked_div(d).map(Value::Num),
                        _ => None,
                    }
                }
                (Some(Token::Symbol("store")), Sort::Array(index, element)) => {
                    let Value::Array(a) = read_value(lex, sort)? else {
                        unreachable!("an array sort reads an array")
                    };
                    let i = read_value(lex, index)?;
                    let e = read_value(lex, element)?;
                    Some(Value::Array(std::sync::Arc::new(a.store(i, e))))
                }
                (Some(Token::Open), Sort::Array(index, element)) => {
                    // `((as const SORT) default)`
                    if lex.next()? != Some(Token::Symbol("as"))
                        || lex.next()? != Some(Token::Symbol("const"))
                    {
                        return Err("expected `(as const` for an array".into());
                    }
                    skip_sort(lex)?;
                    if lex.next()? != Some(Token::Close) {
                        return Err("expected `)` after `(as const SORT`".into());
                    }
                    let default = read_value(lex, element)?;
                    Some(Value::Array(std::sync::Arc::new(
                        crate::ir::term::eval::ArrayValue::constant(index, default),
                    )))
                }
                _ => None,
            }
            .ok_or_else(|| format!("expected a literal value of sort {sort}"))?;
            match lex.next()? {
                Some(Token::Close) => v,
                _ => return Err("expected `)`".into()),
            }
        }
        _ => return Err(format!("expected a literal value of sort {sort}")),
    };
    if !value_has_sort(&v, sort) {
        return Err(format!("expected a value of sort {sort}, found `{v}`"));
    }
    Ok(v)
}

/// Whether `v` is a value of `sort`.
fn value_has_sort(v: &Value, sort: &Sort) -> bool {
    match (v, sort) {
        (Value::Bool(_), Sort::Bool) | (Value::Array(_), Sort::Array(..)) => true,
        (Value::Bv(b), Sort::BitVec(w)) => b.width() == *w,
        (Value::Num(r), Sort::Int) => r.is_int(),
        (Value::Num(_), Sort::Real) => true,
        _ => false,
    }
}

/// Skips one sort (a symbol or a parenthesised sort).
fn skip_sort(lex: &mut Lexer<'_>) -> Result<(), String> {
    let mut depth = 0usize;
    loop {
        match lex.next()? {
            Some(Token::Open) => depth += 1,
            Some(Token::Close) if depth > 0 => depth -= 1,
            Some(_) if depth > 0 => {}
            Some(Token::Symbol(_)) => {}
            _ => return Err("expected a sort".into()),
        }
        if depth == 0 {
            return Ok(());
        }
    }
}
