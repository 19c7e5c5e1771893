//! The HWMCC / aigsim witness format for AIGER models.
//!
//! ```text
//! 1        result: 1 = counterexample follows (0 = proved, 2 = unknown)
//! b0       the properties the trace violates: b<i> / j<i>
//! 0x10     initial latch values (x: any value)
//! 1011     one input vector per step
//! .
//! ```

use super::aiger::PropertyKind;
use super::{Location, ParseError};
use crate::ir::trace::Trace;

/// A counterexample as read from a witness file; `None` marks an `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AigerWitness {
    /// Properties the witness claims to violate.
    pub properties: Vec<(PropertyKind, usize)>,
    /// Initial latch values.
    pub init: Vec<Option<bool>>,
    /// Input values, one vector per step.
    pub inputs: Vec<Vec<Option<bool>>>,
}

/// Parses a witness for a model with `latches` latches and `inputs` inputs.
pub fn parse_aiger_witness(
    name: &str,
    text: &str,
    latches: usize,
    inputs: usize,
) -> Result<AigerWitness, ParseError> {
    let mut lines = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    let err = |line: usize, msg: String| ParseError::new(name, Location::Line(line), msg);
    // Comment lines may precede the result line.
    let (line, status) = loop {
        match lines.next() {
            None => return Err(ParseError::new(name, Location::File, "empty witness file")),
            Some((_, l)) if l.starts_with('c') || l.starts_with('#') || l.trim().is_empty() => {}
            Some(found) => break found,
        }
    };
    match status.trim() {
        "1" => {}
        "0" | "2" => {
            return Err(err(
                line,
                format!(
                    "result '{}' claims no counterexample; expected '1'",
                    status.trim()
                ),
            ))
        }
        other => {
            return Err(err(
                line,
                format!("expected result line '1', found '{other}'"),
            ))
        }
    }
    let (line, props) = lines
        .next()
        .ok_or_else(|| err(line + 1, "expected property line".into()))?;
    let properties = parse_properties(props).map_err(|m| err(line, m))?;
    let (line, init_line) = lines
        .next()
        .ok_or_else(|| err(line + 1, "expected initial latch values".into()))?;
    let init = parse_vector(init_line, latches, "latch").map_err(|m| err(line, m))?;
    let mut vectors = Vec::new();
    let mut last = line;
    for (line, l) in lines {
        last = line;
        if l.trim() == "." {
            break;
        }
        vectors.push(parse_vector(l, inputs, "input").map_err(|m| err(line, m))?);
    }
    // A file ending in '.\n' yields one more, empty, line after the '.'.
    if vectors.is_empty() {
        return Err(err(
            last,
            "expected at least one input vector before '.'".into(),
        ));
    }
    Ok(AigerWitness {
        properties,
        init,
        inputs: vectors,
    })
}

fn parse_properties(line: &str) -> Result<Vec<(PropertyKind, usize)>, String> {
    let mut props = Vec::new();
    let bytes = line.trim().as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let kind = match bytes[i] {
            b'b' => PropertyKind::Bad,
            b'j' => PropertyKind::Justice,
            b' ' => {
                i += 1;
                continue;
            }
            _ => {
                return Err(format!(
                    "expected properties like 'b0' or 'j1', found '{line}'"
                ))
            }
        };
        let start = i + 1;
        i = start;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let index = line.trim()[start..i].parse().map_err(|_| {
            format!(
                "expected a property index after '{}'",
                bytes[start - 1] as char
            )
        })?;
        props.push((kind, index));
    }
    if props.is_empty() {
        return Err("expected at least one property like 'b0'".to_string());
    }
    Ok(props)
}

fn parse_vector(line: &str, width: usize, what: &str) -> Result<Vec<Option<bool>>, String> {
    let line = line.trim_end();
    if line.len() != width {
        return Err(format!(
            "expected {width} {what} values (0, 1 or x), found {} characters",
            line.len()
        ));
    }
    line.bytes()
        .map(|c| match c {
            b'0' => Ok(Some(false)),
            b'1' => Ok(Some(true)),
            b'x' | b'X' => Ok(None),
            _ => Err(format!(
                "unexpected '{}' in {what} values; expected 0, 1 or x",
                c as char
            )),
        })
        .collect()
}

/// Renders a concrete trace as an HWMCC witness of the properties
/// `properties` names (`b0b2`, or `j1` for a justice property's lasso).
pub fn write_aiger_witness(properties: &str, trace: &Trace) -> String {
    let mut out = format!("1\n{properties}\n");
    push_bits(&mut out, &trace.init);
    for step in &trace.inputs {
        push_bits(&mut out, step);
    }
    out.push_str(".\n");
    out
}

fn push_bits(out: &mut String, bits: &[bool]) {
    out.extend(bits.iter().map(|&b| if b { '1' } else { '0' }));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_empty_latch_line() {
        let t = Trace {
            init: vec![],
            inputs: vec![vec![true, false], vec![false, false]],
        };
        let text = write_aiger_witness("b0b2", &t);
        assert_eq!(text, "1\nb0b2\n\n10\n00\n.\n");
        let w = parse_aiger_witness("w", &text, 0, 2).unwrap();
        assert_eq!(
            w.properties,
            vec![(PropertyKind::Bad, 0), (PropertyKind::Bad, 2)]
        );
        assert_eq!(
            w.inputs,
            vec![vec![Some(true), Some(false)], vec![Some(false); 2]]
        );
    }

    #[test]
    fn rejects_wrong_width_with_line() {
        let e = parse_aiger_witness("w.cex", "1\nb0\n01\n1\n.\n", 2, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "w.cex:4: expected 2 input values (0, 1 or x), found 1 characters"
        );
    }

    #[test]
    fn accepts_x_and_space_separated_properties() {
        let w = parse_aiger_witness("w", "c hi\n1\nb1 j0\nx\n1\n.\n", 1, 1).unwrap();
        assert_eq!(w.init, vec![None]);
        assert_eq!(
            w.properties,
            vec![(PropertyKind::Bad, 1), (PropertyKind::Justice, 0)]
        );
    }
}
