//! SV-COMP verification witnesses, format 2.0 (YAML; the sosy-lab
//! sv-witnesses repository documents it; Ayaziová, Beyer, Lingsch-Rosenfeld,
//! Spiessl and Strejček, "Software Verification Witnesses 2.0", SPIN 2024):
//!
//! - a violation witness is one `violation_sequence` entry whose content is
//!   a list of segments of waypoints, the last segment ending with the
//!   `target` waypoint at the call that reaches the error;
//! - a correctness witness is one `invariant_set` entry whose content lists
//!   `loop_invariant`s at loop keywords, each a C expression.
//!
//! Both carry metadata: format version, a random UUID, the creation time,
//! the producer and the task (input file with its SHA-256, specification,
//! data model, language). Locations are 1-based lines and columns.

use crate::util::rng::Rng;
use std::time::{SystemTime, UNIX_EPOCH};

/// A point of the main source file, as SV-COMP witnesses name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourcePoint {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column (in bytes).
    pub column: usize,
    /// The function the point is in.
    pub function: String,
}

/// An invariant of a correctness witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessInvariant {
    /// Where: a `while` or `for` keyword (a loop invariant), or the first
    /// character of a statement (a location invariant).
    pub at: SourcePoint,
    /// A side-effect-free C expression.
    pub value: String,
    /// Which of the two.
    pub kind: InvariantKind,
}

/// The two kinds of invariants of the format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InvariantKind {
    /// Holds before each evaluation of a loop's condition.
    Loop,
    /// Holds whenever control is at a statement.
    Location,
}

/// The format version written.
pub const FORMAT_VERSION: &str = "2.0";

/// The unreach-call specification in SV-COMP's property syntax.
pub const UNREACH_CALL: &str = "G ! call(reach_error())";

/// The properties of SV-COMP's ReachSafety, NoOverflows and MemSafety
/// categories that invar checks on C programs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Spec {
    /// `G ! call(reach_error())`: the error function is never called.
    #[default]
    UnreachCall,
    /// `G ! overflow`: no signed integer operation overflows.
    NoOverflow,
    /// `G valid-free`, `G valid-deref` and `G valid-memtrack` together:
    /// every `free` is of a live object's start, every dereference is of a
    /// live object within its bounds, and no allocated object is lost.
    MemSafety,
}

impl Spec {
    /// The name of the (sub)property in SV-COMP's result words,
    /// `false(no-overflow)`.
    pub fn name(self) -> &'static str {
        match self {
            Spec::UnreachCall => "unreach-call",
            Spec::NoOverflow => "no-overflow",
            Spec::MemSafety => "valid-memsafety",
        }
    }
}

/// An SV-COMP property file (`.prp`), as far as invar reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The file's text.
    pub text: String,
    /// The LTL formula of `CHECK( init(main()), LTL(f) )`, if the file is
    /// one such line.
    pub formula: Option<String>,
    /// The property, when it is one invar checks. SV-COMP writes
    /// unreach-call as `CHECK( init(main()), LTL(G ! call(reach_error())) )`;
    /// the older `__VERIFIER_error()` is the same property (invar treats
    /// both calls, and `__assert_fail`, as the error). Memory safety is
    /// three lines, one per sub-property, in any order.
    pub spec: Option<Spec>,
}

/// Reads the property file `path`.
pub fn read_property(path: &std::path::Path) -> Result<Property, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let compact: String = text.split_whitespace().collect();
    let unreach_call = ["reach_error", "__VERIFIER_error"]
        .iter()
        .any(|f| compact == format!("CHECK(init(main()),LTL(G!call({f}())))"));
    let mut lines: Vec<String> = (text.lines())
        .map(|l| l.split_whitespace().collect::<String>())
        .filter(|l| !l.is_empty())
        .collect();
    lines.sort();
    let memsafety = lines
        == ["valid-deref", "valid-free", "valid-memtrack"]
            .map(|p| format!("CHECK(init(main()),LTL(G{p}))"));
    let spec = if unreach_call {
        Some(Spec::UnreachCall)
    } else if compact == "CHECK(init(main()),LTL(G!overflow))" {
        Some(Spec::NoOverflow)
    } else if memsafety {
        Some(Spec::MemSafety)
    } else {
        None
    };
    let formula = (|| {
        if lines.len() != 1 {
            return None;
        }
        let start = text.find("LTL(")? + 4;
        let end = text.rfind(')')?;
        // The property's closing parentheses: CHECK( init(main()), LTL(f) ).
        let inner = text[start..end].trim_end().strip_suffix(')')?;
        Some(inner.trim().to_string())
    })();
    Ok(Property {
        text,
        formula,
        spec,
    })
}

/// What every entry's metadata says about the task and the producer.
#[derive(Clone, Debug)]
pub struct Task {
    /// The program as given to invar.
    pub file_name: String,
    /// Its SHA-256 in hexadecimal.
    pub file_hash: String,
    /// The specification (SV-COMP property syntax).
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: &'static str,
    /// The command line invar ran with.
    pub command_line: String,
}

/// A YAML double-quoted scalar.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            '\n' => out += "\\n",
            '\t' => out += "\\t",
            c if (c as u32) < 0x20 => out += &format!("\\x{:02x}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A version 4 (random) UUID.
fn uuid_v4(rng: &mut Rng) -> String {
    let mut bytes = [0u8; 16];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// `seconds` after the Unix epoch as an RFC 3339 UTC date-time.
fn date_time(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    // Days to a civil date (Howard Hinnant's algorithm, proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The metadata block of an entry, indented for a list item's mapping.
fn metadata(task: &Task) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let mut rng = Rng::new(now.as_nanos() as u64 ^ u64::from(std::process::id()) << 32);
    let file = quoted(&task.file_name);
    format!(
        "  metadata:
    format_version: {}
    uuid: {}
    creation_time: {}
    producer:
      name: invar
      version: {}
      command_line: {}
    task:
      input_files:
        - {file}
      input_file_hashes:
        {file}: {}
      specification: {}
      data_model: {}
      language: C
",
        quoted(FORMAT_VERSION),
        quoted(&uuid_v4(&mut rng)),
        quoted(&date_time(now.as_secs())),
        quoted(env!("CARGO_PKG_VERSION")),
        quoted(&task.command_line),
        quoted(&task.file_hash),
        quoted(&task.specification),
        quoted(task.data_model),
    )
}

/// A location mapping at the given indentation.
fn location(at: &SourcePoint, file_name: &str, indent: &str) -> String {
    format!(
        "{indent}location:\n{indent}  file_name: {}\n{indent}  line: {}\n{indent}  column: {}\n{indent}  function: {}\n",
        quoted(file_name),
        at.line,
        at.column,
        quoted(&at.function)
    )
}

/// A violation witness: one segment whose only waypoint is the target, the
/// call that reaches the error.
pub fn violation_witness(task: &Task, target: &SourcePoint) -> String {
    let mut out = String::from("- entry_type: \"violation_sequence\"\n");
    out += &metadata(task);
    out += "  content:\n    - segment:\n        - waypoint:\n            type: \"target\"\n            action: \"follow\"\n";
    out += &location(target, &task.file_name, "            ");
    out
}

/// A correctness witness: the loop invariants as one invariant set.
pub fn correctness_witness(task: &Task, invariants: &[WitnessInvariant]) -> String {
    let mut out = String::from("- entry_type: \"invariant_set\"\n");
    out += &metadata(task);
    if invariants.is_empty() {
        out += "  content: []\n";
    } else {
        out += "  content:\n";
    }
    for inv in invariants {
        let kind = match inv.kind {
            InvariantKind::Loop => "loop_invariant",
            InvariantKind::Location => "location_invariant",
        };
        out += &format!("    - invariant:\n        type: \"{kind}\"\n");
        out += &location(&inv.at, &task.file_name, "        ");
        out += &format!(
            "        value: {}\n        format: \"c_expression\"\n",
            quoted(&inv.value)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(date_time(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century divisible by 400), 12:34:56.
        assert_eq!(date_time(951_827_696), "2000-02-29T12:34:56Z");
        assert_eq!(date_time(1_795_651_200), "2026-11-26T00:00:00Z");
    }

    #[test]
    fn uuids_are_version_4() {
        let mut rng = Rng::new(7);
        let u = uuid_v4(&mut rng);
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!("89ab".contains(&u[19..20]));
        assert_ne!(u, uuid_v4(&mut rng));
    }

    #[test]
    fn property_files_name_their_property() {
        let dir = std::env::temp_dir().join(format!("invar-prp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let read = |text: &str| {
            let path = dir.join("p.prp");
            std::fs::write(&path, text).unwrap();
            read_property(&path).unwrap()
        };
        let unreach = read("CHECK( init(main()), LTL(G ! call(reach_error())) )\n");
        assert_eq!(unreach.spec, Some(Spec::UnreachCall));
        assert_eq!(unreach.formula.as_deref(), Some(UNREACH_CALL));
        let overflow = read("CHECK( init(main()), LTL(G ! overflow) )\n");
        assert_eq!(overflow.spec, Some(Spec::NoOverflow));
        // SV-COMP's file lists free, deref, memtrack; any order reads.
        let memsafety = read(
            "CHECK( init(main()), LTL(G valid-memtrack) )\n\
             CHECK( init(main()), LTL(G valid-free) )\n\
             CHECK( init(main()), LTL(G valid-deref) )\n",
        );
        assert_eq!(memsafety.spec, Some(Spec::MemSafety));
        assert_eq!(memsafety.formula, None);
        // Two of the three, or memcleanup, are not memory safety.
        let part = read(
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n",
        );
        assert_eq!(part.spec, None);
        assert_eq!(
            read("CHECK( init(main()), LTL(G valid-memcleanup) )").spec,
            None
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn quoting_escapes_what_yaml_needs() {
        assert_eq!(quoted(r#"a "b" \c"#), r#""a \"b\" \\c""#);
    }
}
