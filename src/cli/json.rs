//! A minimal JSON object writer for `--json` (objects of strings, numbers,
//! booleans, number lists and lists of objects).

use std::fmt::Write;

/// Builds one JSON object.
#[derive(Default)]
pub struct JsonObject {
    body: String,
}

impl JsonObject {
    fn key(&mut self, key: &str) {
        if !self.body.is_empty() {
            self.body.push_str(", ");
        }
        let _ = write!(self.body, "\"{}\": ", escape(key));
    }

    /// Adds a string field.
    pub fn string(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        let _ = write!(self.body, "\"{}\"", escape(value));
        self
    }

    /// Adds a number field.
    pub fn number(&mut self, key: &str, value: impl std::fmt::Display) -> &mut Self {
        self.key(key);
        let _ = write!(self.body, "{value}");
        self
    }

    /// Adds a duration in seconds, to the millisecond.
    pub fn seconds(&mut self, key: &str, value: std::time::Duration) -> &mut Self {
        self.number(key, format!("{:.3}", value.as_secs_f64()))
    }

    /// Adds a boolean field.
    pub fn boolean(&mut self, key: &str, value: bool) -> &mut Self {
        self.number(key, value)
    }

    /// Adds a list of numbers.
    pub fn numbers(&mut self, key: &str, values: &[usize]) -> &mut Self {
        self.key(key);
        let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let _ = write!(self.body, "[{}]", items.join(", "));
        self
    }

    /// Adds a list of objects, each given as its JSON text.
    pub fn objects<'a>(&mut self, key: &str, values: impl Iterator<Item = &'a str>) -> &mut Self {
        self.key(key);
        let items: Vec<&str> = values.collect();
        let _ = write!(self.body, "[{}]", items.join(", "));
        self
    }

    /// The object as text, with a final newline.
    pub fn finish(&self) -> String {
        format!("{{{}}}\n", self.body)
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
