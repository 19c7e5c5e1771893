//! The counterexample text of VMT answers (ic3ia's `-w` style), both ways:
//!
//! ```text
//! unsafe
//! counterexample
//! ;; step 0
//! (and (= x #b0001) (= y true))
//! ```
//!
//! Each step gives the value of every state and input variable.

use crate::formats::smtlib::lex::{Lexer, Token};
use crate::formats::{Location, ParseError};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::Value;
use crate::ir::term::print::quote_symbol;
use crate::ir::term::Rational;
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
            eqs.push(format!("(= {name} {value})"));
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
    let mut slots: HashMap<&str, (bool, usize)> = HashMap::new();
    for (i, s) in ts.states.iter().enumerate() {
        slots.insert(ts.terms.var_name(s.var).unwrap_or_default(), (true, i));
    }
    for (i, &v) in ts.inputs.iter().enumerate() {
        slots.insert(ts.terms.var_name(v).unwrap_or_default(), (false, i));
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
            let &(is_state, pos) = slots.get(name).ok_or_else(|| {
                err(
                    &lex,
                    format!("`{name}` is not a state or input of the model"),
                )
            })?;
            let value = read_value(&mut lex).map_err(|m| err(&lex, m))?;
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

/// A literal value: Boolean, bit-vector, or (possibly negated) number.
fn read_value(lex: &mut Lexer<'_>) -> Result<Value, String> {
    match lex.next()? {
        Some(Token::Symbol("true")) => Ok(Value::Bool(true)),
        Some(Token::Symbol("false")) => Ok(Value::Bool(false)),
        Some(Token::Binary(b)) => Ok(Value::Bv(BvValue::from_binary(b).expect("lexed"))),
        Some(Token::Hex(h)) => Ok(Value::Bv(
            BvValue::from_hex(4 * h.len() as u32, h).expect("lexed"),
        )),
        Some(Token::Numeral(n) | Token::Decimal(n)) => Rational::parse(n)
            .map(Value::Num)
            .ok_or_else(|| format!("number `{n}` out of range")),
        Some(Token::Open) => {
            let op = lex.next()?;
            let a = read_value(lex)?;
            let v = match (op, a) {
                (Some(Token::Symbol("-")), Value::Num(r)) => r.checked_neg().map(Value::Num),
                (Some(Token::Symbol("/")), Value::Num(r)) => match read_value(lex)? {
                    Value::Num(d) => r.checked_div(d).map(Value::Num),
                    _ => None,
                },
                _ => None,
            }
            .ok_or("expected a literal value (arrays are not read from traces)")?;
            match lex.next()? {
                Some(Token::Close) => Ok(v),
                _ => Err("expected `)`".into()),
            }
        }
        _ => Err("expected a literal value".into()),
    }
}
