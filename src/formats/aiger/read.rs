//! The AIGER reader: ASCII (`aag`) and binary (`aig`), with the 1.9 sections.
//!
//! Every malformation is reported with the line (text part) or byte offset
//! (binary gate section) and what was expected; nothing here panics on input.

use super::{Aiger, AigerAnd, AigerLatch, Reset, Symbol, SymbolKind};
use crate::formats::{Location, ParseError};
use std::path::Path;

/// Reads an AIGER file from disk; `.aag` and `.aig` are told apart by the header.
pub fn read_file(path: &Path) -> Result<Aiger, ParseError> {
    let name = path.display().to_string();
    let data = std::fs::read(path)
        .map_err(|e| ParseError::new(&name, Location::File, format!("cannot read: {e}")))?;
    read_bytes(&name, &data)
}

/// Reads an AIGER model from memory; `name` is used in error messages.
pub fn read_bytes(name: &str, data: &[u8]) -> Result<Aiger, ParseError> {
    let mut reader = Reader {
        name,
        data,
        pos: 0,
        line: 1,
        binary_seen: false,
    };
    reader.read()
}

/// Counts from the header.
struct Header {
    binary: bool,
    maxvar: u32,
    inputs: u32,
    latches: u32,
    outputs: u32,
    ands: u32,
    bad: u32,
    constraints: u32,
    justice: u32,
    fairness: u32,
}

struct Reader<'a> {
    name: &'a str,
    data: &'a [u8],
    pos: usize,
    line: usize,
    /// After the binary gate section, places are byte offsets, not lines.
    binary_seen: bool,
}

/// Where each literal use was read, for "undefined literal" messages.
#[derive(Default)]
struct Uses {
    lits: Vec<(u32, usize)>,
    /// Latches with a reset function, and the line of each.
    resets: Vec<(usize, usize)>,
}

impl<'a> Reader<'a> {
    fn here(&self) -> Location {
        if self.binary_seen {
            Location::Byte(self.pos)
        } else {
            Location::Line(self.line)
        }
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError::new(self.name, self.here(), message))
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn number(&mut self, what: &str) -> Result<u32, ParseError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            value = value * 10 + (c - b'0') as u64;
            if value > u32::MAX as u64 {
                return self.error(format!("{what} is too large"));
            }
            self.pos += 1;
        }
        if self.pos == start {
            return self.error(format!("expected {what}{}", self.found()));
        }
        Ok(value as u32)
    }

    fn found(&self) -> String {
        match self.peek() {
            None => ", found end of file".to_string(),
            Some(b'\n') => ", found end of line".to_string(),
            Some(b' ') => ", found a space".to_string(),
            Some(c) if c.is_ascii_graphic() => format!(", found '{}'", c as char),
            Some(c) => format!(", found byte 0x{c:02x}"),
        }
    }

    fn space(&mut self, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(b' ') {
            self.pos += 1;
            Ok(())
        } else {
            self.error(format!("expected a space before {what}{}", self.found()))
        }
    }

    fn at_line_end(&self) -> bool {
        matches!(self.peek(), Some(b'\n') | Some(b'\r'))
    }

    fn newline(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b'\r') && self.data.get(self.pos + 1) == Some(&b'\n') {
            self.pos += 1;
        }
        if self.peek() == Some(b'\n') {
            self.pos += 1;
            self.line += 1;
            Ok(())
        } else {
            self.error(format!("expected end of line{}", self.found()))
        }
    }

    fn read(&mut self) -> Result<Aiger, ParseError> {
        let h = self.header()?;
        let mut aiger = Aiger {
            maxvar: h.maxvar,
            ..Aiger::default()
        };
        let max_lit = 2 * h.maxvar + 1;
        let mut uses = Uses::default();
        // Which line defines each variable (0 = undefined); ASCII only.
        let mut defined: Vec<u32> = if h.binary {
            Vec::new()
        } else {
            vec![0; h.maxvar as usize + 1]
        };
        self.inputs(&h, &mut aiger, &mut defined)?;
        self.latches(&h, &mut aiger, &mut defined, &mut uses, max_lit)?;
        aiger.outputs = self.literal_lines(h.outputs, "output", max_lit, &mut uses)?;
        aiger.bad = self.literal_lines(h.bad, "bad-state literal", max_lit, &mut uses)?;
        aiger.constraints = self.literal_lines(h.constraints, "constraint", max_lit, &mut uses)?;
        let sizes =
            self.literal_lines(h.justice, "justice size", u32::MAX, &mut Uses::default())?;
        for size in sizes {
            let lits = self.literal_lines(size, "justice literal", max_lit, &mut uses)?;
            aiger.justice.push(lits);
        }
        aiger.fairness = self.literal_lines(h.fairness, "fairness literal", max_lit, &mut uses)?;
        if h.binary {
            self.binary_ands(&h, &mut aiger)?;
        } else {
            let gate_lines = self.ascii_ands(&h, &mut aiger, &mut defined, &mut uses, max_lit)?;
            self.check_defined(&defined, &uses)?;
            self.check_acyclic(&aiger, &gate_lines)?;
        }
        check_stratified(self.name, &aiger, &uses.resets)?;
        self.symbols_and_comments(&h, &mut aiger)?;
        Ok(aiger)
    }

    fn header(&mut self) -> Result<Header, ParseError> {
        let binary = match self.data.get(..3) {
            Some(b"aag") => false,
            Some(b"aig") => true,
            _ => return self.error("expected header starting with 'aag' or 'aig'"),
        };
        self.pos = 3;
        let names = ["M", "I", "L", "O", "A", "B", "C", "J", "F"];
        let mut counts = [0u32; 9];
        for (i, name) in names.iter().enumerate() {
            if i >= 5 && self.at_line_end() {
                break;
            }
            self.space(&format!("header field {name}"))?;
            counts[i] = self.number(&format!("header field {name}"))?;
        }
        self.newline()?;
        let [m, i, l, o, a, b, c, j, f] = counts;
        let sum = i as u64 + l as u64 + a as u64;
        if m >= u32::MAX >> 1 {
            return Err(self.header_error(format!("M = {m} is too large")));
        }
        if binary && m as u64 != sum {
            return Err(self.header_error(format!(
                "binary header needs M = I + L + A, but {m} != {i} + {l} + {a}"
            )));
        }
        if !binary && (m as u64) < sum {
            return Err(self.header_error(format!(
                "header needs M >= I + L + A, but {m} < {i} + {l} + {a}"
            )));
        }
        // Every counted item takes at least two bytes ("0\n" or a two-byte gate),
        // binary inputs none; a header promising more is lying, and trusting it
        // would allocate without bound.
        let per_item = if binary { l as u64 + a as u64 } else { sum };
        let items = per_item + o as u64 + b as u64 + c as u64 + j as u64 + f as u64;
        if 2 * items > self.data.len() as u64 {
            return Err(self.header_error(format!(
                "header counts {items} entries but the file has only {} bytes",
                self.data.len()
            )));
        }
        // ASCII files may leave variables unused and binary inputs take no
        // bytes, but tables are indexed by variable: M is bounded by what a
        // file of this size could plausibly use (generously: 2^20 + 64/byte).
        let plausible = 64 * self.data.len() as u64 + (1 << 20);
        if m as u64 > plausible {
            return Err(self.header_error(format!(
                "M = {m} is far beyond what a file of {} bytes can use (limit {plausible})",
                self.data.len()
            )));
        }
        Ok(Header {
            binary,
            maxvar: m,
            inputs: i,
            latches: l,
            outputs: o,
            ands: a,
            bad: b,
            constraints: c,
            justice: j,
            fairness: f,
        })
    }

    fn header_error(&self, message: String) -> ParseError {
        ParseError::new(self.name, Location::Line(1), message)
    }

    /// Reads a literal and checks it against the largest valid literal.
    fn literal(&mut self, what: &str, max_lit: u32) -> Result<u32, ParseError> {
        let lit = self.number(what)?;
        if lit > max_lit {
            return self.error(format!(
                "{what} {lit} is out of range: the header allows literals up to {max_lit}"
            ));
        }
        Ok(lit)
    }

    /// Reads an even literal that defines a new variable (ASCII inputs, latches, gates).
    fn definition(
        &mut self,
        what: &str,
        maxvar: u32,
        defined: &mut [u32],
    ) -> Result<u32, ParseError> {
        let lit = self.number(what)?;
        if lit & 1 == 1 {
            return self.error(format!("{what} {lit} must be an even literal"));
        }
        if lit < 2 {
            return self.error(format!("{what} {lit} redefines a constant"));
        }
        if lit >> 1 > maxvar {
            return self.error(format!(
                "{what} {lit} is out of range: the header allows literals up to {}",
                2 * maxvar + 1
            ));
        }
        let slot = &mut defined[(lit >> 1) as usize];
        if *slot != 0 {
            let first = *slot;
            return self.error(format!("literal {lit} is already defined on line {first}"));
        }
        *slot = self.line as u32;
        Ok(lit)
    }

    fn inputs(
        &mut self,
        h: &Header,
        aiger: &mut Aiger,
        defined: &mut [u32],
    ) -> Result<(), ParseError> {
        aiger.inputs.reserve(h.inputs as usize);
        for k in 0..h.inputs {
            if h.binary {
                aiger.inputs.push(2 * (k + 1));
            } else {
                let lit = self.definition("input literal", h.maxvar, defined)?;
                self.newline()?;
                aiger.inputs.push(lit);
            }
        }
        Ok(())
    }

    fn latches(
        &mut self,
        h: &Header,
        aiger: &mut Aiger,
        defined: &mut [u32],
        uses: &mut Uses,
        max_lit: u32,
    ) -> Result<(), ParseError> {
        aiger.latches.reserve(h.latches as usize);
        for k in 0..h.latches {
            let lit = if h.binary {
                2 * (h.inputs + k + 1)
            } else {
                let lit = self.definition("latch literal", h.maxvar, defined)?;
                self.space("the next-state literal")?;
                lit
            };
            let next = self.literal("next-state literal", max_lit)?;
            uses.lits.push((next, self.line));
            let reset = if self.at_line_end() {
                Reset::Zero
            } else {
                self.space("the reset value")?;
                match self.literal("reset value", max_lit)? {
                    0 => Reset::Zero,
                    1 => Reset::One,
                    r if r == lit => Reset::Uninitialized,
                    r => {
                        uses.lits.push((r, self.line));
                        uses.resets.push((k as usize, self.line));
                        Reset::Function(r)
                    }
                }
            };
            self.newline()?;
            aiger.latches.push(AigerLatch { lit, next, reset });
        }
        Ok(())
    }

    fn literal_lines(
        &mut self,
        count: u32,
        what: &str,
        max_lit: u32,
        uses: &mut Uses,
    ) -> Result<Vec<u32>, ParseError> {
        let remaining = (self.data.len() - self.pos) / 2;
        let mut lits = Vec::with_capacity((count as usize).min(remaining));
        for _ in 0..count {
            let lit = self.literal(what, max_lit)?;
            uses.lits.push((lit, self.line));
            self.newline()?;
            lits.push(lit);
        }
        Ok(lits)
    }

    /// Reads the ASCII gates; returns the line of each gate.
    fn ascii_ands(
        &mut self,
        h: &Header,
        aiger: &mut Aiger,
        defined: &mut [u32],
        uses: &mut Uses,
        max_lit: u32,
    ) -> Result<Vec<u32>, ParseError> {
        let mut lines = Vec::with_capacity(h.ands as usize);
        aiger.ands.reserve(h.ands as usize);
        for _ in 0..h.ands {
            lines.push(self.line as u32);
            let lhs = self.definition("AND gate literal", h.maxvar, defined)?;
            self.space("the first AND operand")?;
            let rhs0 = self.literal("AND operand", max_lit)?;
            self.space("the second AND operand")?;
            let rhs1 = self.literal("AND operand", max_lit)?;
            uses.lits.push((rhs0, self.line));
            uses.lits.push((rhs1, self.line));
            self.newline()?;
            aiger.ands.push(AigerAnd { lhs, rhs0, rhs1 });
        }
        Ok(lines)
    }

    fn check_defined(&self, defined: &[u32], uses: &Uses) -> Result<(), ParseError> {
        for &(lit, line) in &uses.lits {
            if lit >= 2 && defined[(lit >> 1) as usize] == 0 {
                return Err(ParseError::new(
                    self.name,
                    Location::Line(line),
                    format!("literal {lit} is used but never defined"),
                ));
            }
        }
        Ok(())
    }

    /// Rejects AND gates that depend on themselves through other gates.
    fn check_acyclic(&self, aiger: &Aiger, gate_lines: &[u32]) -> Result<(), ParseError> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut gate_of = vec![u32::MAX; aiger.maxvar as usize + 1];
        for (i, g) in aiger.ands.iter().enumerate() {
            gate_of[(g.lhs >> 1) as usize] = i as u32;
        }
        let mut state = vec![NEW; aiger.ands.len()];
        let mut stack: Vec<(usize, bool)> = Vec::new();
        for root in 0..aiger.ands.len() {
            if state[root] != NEW {
                continue;
            }
            stack.push((root, false));
            while let Some((g, leaving)) = stack.pop() {
                if leaving {
                    state[g] = DONE;
                    continue;
                }
                if state[g] != NEW {
                    continue;
                }
                state[g] = OPEN;
                stack.push((g, true));
                for rhs in [aiger.ands[g].rhs0, aiger.ands[g].rhs1] {
                    let child = gate_of[(rhs >> 1) as usize];
                    if child == u32::MAX {
                        continue;
                    }
                    match state[child as usize] {
                        NEW => stack.push((child as usize, false)),
                        OPEN => {
                            return Err(ParseError::new(
                                self.name,
                                Location::Line(gate_lines[g] as usize),
                                format!(
                                    "cyclic AND definitions: gate {} depends on itself",
                                    aiger.ands[g].lhs
                                ),
                            ))
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    fn delta(&mut self, what: &str) -> Result<u32, ParseError> {
        let mut value: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(byte) = self.peek() else {
                return self.error(format!("unexpected end of file in {what}"));
            };
            self.pos += 1;
            value |= ((byte & 0x7f) as u64) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 28 {
                return self.error(format!("{what} does not fit in 32 bits"));
            }
        }
        if value > u32::MAX as u64 {
            return self.error(format!("{what} does not fit in 32 bits"));
        }
        Ok(value as u32)
    }

    fn binary_ands(&mut self, h: &Header, aiger: &mut Aiger) -> Result<(), ParseError> {
        self.binary_seen = true;
        aiger.ands.reserve(h.ands as usize);
        let first = h.inputs + h.latches + 1;
        for k in 0..h.ands {
            let lhs = 2 * (first + k);
            let start = self.pos;
            // Hot loop of large files: most deltas fit in one byte.
            let delta0 = match self.data.get(self.pos) {
                Some(&b) if b < 0x80 => {
                    self.pos += 1;
                    b as u32
                }
                _ => self.delta("AND gate delta")?,
            };
            let delta1 = match self.data.get(self.pos) {
                Some(&b) if b < 0x80 => {
                    self.pos += 1;
                    b as u32
                }
                _ => self.delta("AND gate delta")?,
            };
            if delta0 == 0 || delta0 > lhs || delta1 > lhs - delta0 {
                self.pos = start;
                return self.bad_deltas(lhs, delta0, delta1);
            }
            let rhs0 = lhs - delta0;
            aiger.ands.push(AigerAnd {
                lhs,
                rhs0,
                rhs1: rhs0 - delta1,
            });
        }
        Ok(())
    }

    #[cold]
    fn bad_deltas(&self, lhs: u32, delta0: u32, delta1: u32) -> Result<(), ParseError> {
        if delta0 == 0 || delta0 > lhs {
            self.error(format!(
                "first delta {delta0} of AND gate {lhs} must be in 1..={lhs}"
            ))
        } else {
            self.error(format!(
                "second delta {delta1} of AND gate {lhs} exceeds its first operand {}",
                lhs - delta0
            ))
        }
    }

    fn symbols_and_comments(&mut self, h: &Header, aiger: &mut Aiger) -> Result<(), ParseError> {
        let sizes = |kind| match kind {
            SymbolKind::Input => h.inputs,
            SymbolKind::Latch => h.latches,
            SymbolKind::Output => h.outputs,
            SymbolKind::Bad => h.bad,
            SymbolKind::Constraint => h.constraints,
            SymbolKind::Justice => h.justice,
            SymbolKind::Fairness => h.fairness,
        };
        let mut seen = std::collections::HashSet::new();
        while let Some(c) = self.peek() {
            let next = self.data.get(self.pos + 1).copied();
            if c == b'c' && matches!(next, None | Some(b'\n') | Some(b'\r')) {
                self.pos += 1;
                if self.peek().is_some() {
                    self.newline()?;
                }
                self.comments(aiger);
                return Ok(());
            }
            let Some(kind) = SymbolKind::from_letter(c) else {
                return self.error(format!(
                    "expected a symbol (i, l, o, b, c, j or f followed by a position) or a 'c' line{}",
                    self.found()
                ));
            };
            self.pos += 1;
            let pos = self.number("symbol position")? as usize;
            if pos >= sizes(kind) as usize {
                return self.error(format!(
                    "symbol position {}{pos} is out of range: the header has {} such entries",
                    kind.letter(),
                    sizes(kind)
                ));
            }
            if !seen.insert((kind, pos)) {
                return self.error(format!("symbol {}{pos} is given twice", kind.letter()));
            }
            self.space("the symbol name")?;
            let start = self.pos;
            while !matches!(self.peek(), None | Some(b'\n')) {
                self.pos += 1;
            }
            let raw = &self.data[start..self.pos];
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let name = String::from_utf8_lossy(raw).into_owned();
            if self.peek().is_some() {
                self.newline()?;
            }
            aiger.symbols.push(Symbol { kind, pos, name });
        }
        Ok(())
    }

    fn comments(&mut self, aiger: &mut Aiger) {
        let rest = &self.data[self.pos..];
        let text = String::from_utf8_lossy(rest);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        if !rest.is_empty() {
            aiger.comments = text.split('\n').map(str::to_string).collect();
        }
        self.pos = self.data.len();
    }
}

/// Refuses reset functions that depend on their own latch through gates and
/// other latches' resets: with an acyclic dependency (stratified resets) the
/// first state is a function of the first inputs; a cycle may have no
/// solution or many, which no tool agrees on. `resets`: the latches with a
/// reset function and their lines.
fn check_stratified(
    name: &str,
    aiger: &Aiger,
    resets: &[(usize, usize)],
) -> Result<(), ParseError> {
    if resets.is_empty() {
        return Ok(());
    }
    // Nodes: variables. A gate reads its operands; a latch with a reset
    // function reads its reset literal; inputs, constants and other latches
    // read nothing (their first value does not depend on the circuit).
    let n = aiger.maxvar as usize + 1;
    let mut reads: Vec<[u32; 2]> = vec![[0, 0]; n];
    for g in &aiger.ands {
        reads[(g.lhs >> 1) as usize] = [g.rhs0 >> 1, g.rhs1 >> 1];
    }
    let mut latch_at = vec![usize::MAX; n];
    for &(k, _) in resets {
        let latch = &aiger.latches[k];
        if let Reset::Function(r) = latch.reset {
            reads[(latch.lit >> 1) as usize] = [r >> 1, 0];
            latch_at[(latch.lit >> 1) as usize] = k;
        }
    }
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    for &(root, line) in resets {
        let root_var = (aiger.latches[root].lit >> 1) as usize;
        if state[root_var] != NEW {
            continue;
        }
        // Depth-first, the path kept on the stack to name a cycle's latches.
        let mut path: Vec<(usize, usize)> = vec![(root_var, 0)];
        state[root_var] = OPEN;
        while let Some(top) = path.last_mut() {
            let (v, next) = *top;
            if next == 2 {
                state[v] = DONE;
                path.pop();
                continue;
            }
            top.1 += 1;
            let child = reads[v][next] as usize;
            if child == 0 {
                continue;
            }
            match state[child] {
                NEW => {
                    state[child] = OPEN;
                    path.push((child, 0));
                }
                OPEN => {
                    let from = path.iter().position(|&(u, _)| u == child).unwrap_or(0);
                    let cycle: Vec<usize> = (path[from..].iter())
                        .map(|&(u, _)| latch_at[u])
                        .filter(|&k| k != usize::MAX)
                        .collect();
                    let latches: Vec<String> = (cycle.iter())
                        .map(|&k| aiger.latches[k].lit.to_string())
                        .collect();
                    let line = (resets.iter())
                        .find(|&&(k, _)| Some(&k) == cycle.first())
                        .map_or(line, |&(_, l)| l);
                    return Err(ParseError::new(
                        name,
                        Location::Line(line),
                        format!(
                            "the reset functions of latches {} depend on each other in a cycle; \
                             only stratified resets (an acyclic dependency) are supported",
                            latches.join(", ")
                        ),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
