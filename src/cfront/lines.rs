//! Source lines of preprocessed text: gcc's line markers (`# 12 "file.c"`)
//! say which file and line the following text came from, so traces and
//! messages can name lines of the program the user wrote.

use std::fmt;

/// Where a piece of preprocessed text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// The file when it is not the main one (a header), else `None`.
    pub file: Option<String>,
    /// The 1-based line in that file.
    pub line: usize,
}

impl fmt::Display for SourceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{file}:{}", self.line),
            None => write!(f, "line {}", self.line),
        }
    }
}

/// For each line of the preprocessed text, its origin.
#[derive(Clone, Debug, Default)]
pub struct LineMap {
    /// Byte offset at which each preprocessed line starts.
    starts: Vec<usize>,
    /// The origin of each preprocessed line: file index and line.
    origins: Vec<(usize, usize)>,
    /// File names; index 0 is the main file.
    files: Vec<String>,
}

/// A line marker `# N "file" flags…` or `#line N "file"`: its line and file.
fn marker(text: &str) -> Option<(usize, &str)> {
    let rest = text.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let line = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start().strip_prefix('"')?;
    // File names with escaped quotes are rare enough to cut at the first quote.
    let file = &rest[..rest.find('"')?];
    Some((line, file))
}

impl LineMap {
    /// Builds the map of `text`; without markers every line maps to itself.
    pub fn new(text: &str) -> LineMap {
        let mut map = LineMap::default();
        let mut file = 0;
        let mut line = 1;
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            map.starts.push(offset);
            offset += raw.len();
            if let Some((next, name)) = marker(raw.trim_end()) {
                // The first marker names the main file (gcc writes it first).
                file = match map.files.iter().position(|f| f == name) {
                    Some(i) => i,
                    None => {
                        map.files.push(name.to_string());
                        map.files.len() - 1
                    }
                };
                map.origins.push((file, line));
                line = next;
                continue;
            }
            map.origins.push((file, line));
            line += 1;
        }
        map
    }

    /// The line and 1-based column (in bytes) of a byte offset of the
    /// preprocessed text, when it comes from the main file. The column is
    /// the original one unless a macro expanded earlier on the line.
    pub fn position(&self, offset: usize) -> Option<(usize, usize)> {
        let index = self.line_index(offset);
        let &(file, line) = self.origins.get(index)?;
        (file == 0).then(|| (line, offset - self.starts[index] + 1))
    }

    /// The preprocessed line holding a byte offset.
    fn line_index(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1) - 1
    }

    /// The source line of a byte offset of the preprocessed text.
    pub fn locate(&self, offset: usize) -> SourceLine {
        let index = self.line_index(offset);
        let (file, line) = self.origins.get(index).copied().unwrap_or((0, 1));
        SourceLine {
            file: (file != 0).then(|| self.files[file].clone()),
            line,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_lines_back_to_their_files() {
        let text = "# 0 \"a.c\"\n# 1 \"/usr/include/h.h\" 1 3 4\nint h;\n# 5 \"a.c\" 2\nint x;\n\nint y;\n";
        let map = LineMap::new(text);
        let at = |s: &str| map.locate(text.find(s).unwrap()).to_string();
        assert_eq!(at("int h"), "/usr/include/h.h:1");
        assert_eq!(at("int x"), "line 5");
        assert_eq!(at("int y"), "line 7");
    }

    #[test]
    fn without_markers_lines_are_their_own() {
        let text = "int a;\nint b;\n\nint c;";
        let map = LineMap::new(text);
        assert_eq!(
            map.locate(text.find("int c").unwrap()).to_string(),
            "line 4"
        );
        assert_eq!(map.locate(0).to_string(), "line 1");
    }

    #[test]
    fn line_directives_are_markers_too() {
        let text = "#line 40 \"x.c\"\nint a;\n";
        assert_eq!(LineMap::new(text).locate(16).to_string(), "line 40");
    }
}
