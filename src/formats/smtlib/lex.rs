//! The SMT-LIB 2 lexer: one pass over the bytes, tokens borrow the text.

use crate::ir::term::print::is_symbol_char;

/// A token with the line it starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    Open,
    Close,
    /// A simple symbol or the inside of a `|quoted|` one (`|x|` ≡ `x`).
    Symbol(&'a str),
    /// `:name`, without the colon.
    Keyword(&'a str),
    /// Digits.
    Numeral(&'a str),
    /// Digits `.` digits.
    Decimal(&'a str),
    /// The digits of `#b…`.
    Binary(&'a str),
    /// The digits of `#x…`.
    Hex(&'a str),
    /// The inside of `"…"` (with `""` escapes left in place).
    Str(&'a str),
}

/// A lexer over SMT-LIB text.
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// The 1-based line of the last token returned.
    pub line: usize,
    next_line: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line: 1,
            next_line: 1,
        }
    }

    /// The next token; `Ok(None)` at the end; `Err` with a message on a malformed token.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Token<'a>>, String> {
        let bytes = self.text.as_bytes();
        // Skip whitespace and comments.
        loop {
            match bytes.get(self.pos) {
                Some(b'\n') => {
                    self.next_line += 1;
                    self.pos += 1;
                }
                Some(c) if c.is_ascii_whitespace() => self.pos += 1,
                Some(b';') => {
                    while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        self.line = self.next_line;
        let start = self.pos;
        let Some(&c) = bytes.get(start) else {
            return Ok(None);
        };
        let take_while = |from: usize, f: &dyn Fn(u8) -> bool| {
            let mut end = from;
            while end < bytes.len() && f(bytes[end]) {
                end += 1;
            }
            end
        };
        let token = match c {
            b'(' => {
                self.pos += 1;
                Token::Open
            }
            b')' => {
                self.pos += 1;
                Token::Close
            }
            b'|' => {
                let Some(len) = self.text[start + 1..].find('|') else {
                    return Err("unterminated |quoted symbol|".into());
                };
                let inner = &self.text[start + 1..start + 1 + len];
                self.next_line += inner.matches('\n').count();
                self.pos = start + len + 2;
                Token::Symbol(inner)
            }
            b'"' => {
                let mut end = start + 1;
                loop {
                    match bytes.get(end) {
                        None => return Err("unterminated string literal".into()),
                        Some(b'"') if bytes.get(end + 1) == Some(&b'"') => end += 2,
                        Some(b'"') => break,
                        Some(b'\n') => {
                            self.next_line += 1;
                            end += 1;
                        }
                        Some(_) => end += 1,
                    }
                }
                self.pos = end + 1;
                Token::Str(&self.text[start + 1..end])
            }
            b':' => {
                let end = take_while(start + 1, &is_symbol_char);
                self.pos = end;
                Token::Keyword(&self.text[start + 1..end])
            }
            b'#' => {
                let (kind, digits): (u8, fn(u8) -> bool) = match bytes.get(start + 1) {
                    Some(b'b') => (b'b', |c| c == b'0' || c == b'1'),
                    Some(b'x') => (b'x', |c| c.is_ascii_hexdigit()),
                    _ => return Err("expected #b or #x".into()),
                };
                let end = take_while(start + 2, &digits);
                if end == start + 2 {
                    return Err("a #b/#x literal needs digits".into());
                }
                self.pos = end;
                let d = &self.text[start + 2..end];
                if kind == b'b' {
                    Token::Binary(d)
                } else {
                    Token::Hex(d)
                }
            }
            c if c.is_ascii_digit() => {
                let end = take_while(start, &|c| c.is_ascii_digit());
                if bytes.get(end) == Some(&b'.') {
                    let frac_end = take_while(end + 1, &|c| c.is_ascii_digit());
                    self.pos = frac_end;
                    Token::Decimal(&self.text[start..frac_end])
                } else {
                    self.pos = end;
                    Token::Numeral(&self.text[start..end])
                }
            }
            c if is_symbol_char(c) => {
                let end = take_while(start, &is_symbol_char);
                self.pos = end;
                Token::Symbol(&self.text[start..end])
            }
            other => {
                return Err(format!(
                    "unexpected character `{}`",
                    self.text[start..].chars().next().unwrap_or(other as char)
                ))
            }
        };
        Ok(Some(token))
    }
}
