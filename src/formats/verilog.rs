//! Verilog and SystemVerilog designs, read through Yosys (from PATH or a
//! given binary): `read_verilog -sv -formal`, elaborated for one top module
//! and flattened, then written as BTOR2 (word level, the default) or as
//! AIGER (bit level), which the other readers take.
//!
//! What the flow takes, and what it refuses:
//! - `assert` statements (immediate, or `assert property` of a Boolean
//!   expression; Yosys's own parser reads no SVA sequences) become bad
//!   properties, named by their label (`name: assert (...)`) or else by
//!   their source line (`design.sv:12`); `assume` statements become
//!   invariant constraints; `cover` statements are not checked.
//! - Registers keep their `initial` values; one without starts anywhere.
//! - Memories stay arrays at word level (the bit-blaster expands small
//!   ones) and become flip-flops at bit level.
//! - Asynchronous resets are read as synchronous ones (Yosys's
//!   `async2sync`, as SymbiYosys does without `multiclock`): a reset takes
//!   effect at the next step, not between steps.
//! - One clock: each transition is one of its edges, and the clock input
//!   is an input that nothing reads. A design whose flip-flops take several
//!   clocks, or both edges of one, is refused by name (it needs a model of
//!   the clocks' interleaving that this flow does not build); so is any
//!   cell the writers cannot express (latches from `always_latch` or
//!   incomplete `always @*`, for instance), in Yosys's words.
//!
//! See `docs/decisions/verilog-reaches-invar-through-yosys-not-a-front-end-of-its.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How a design is read.
#[derive(Clone, Debug, Default)]
pub struct DesignOptions {
    /// The top module (Yosys picks the one no other instantiates if none).
    pub top: Option<String>,
    /// Macro definitions, `NAME` or `NAME=VALUE` (`FORMAL` is always defined).
    pub defines: Vec<String>,
    /// The Yosys binary (default: `yosys` on PATH).
    pub yosys: Option<PathBuf>,
    /// Write AIGER (bit level) instead of BTOR2 (word level).
    pub bit_level: bool,
}

/// A design as Yosys wrote it.
pub enum Netlist {
    /// BTOR2 text, its properties and states named (see [`name_btor2`]).
    Btor2(String),
    /// A binary AIGER file with its symbol table.
    Aiger(Vec<u8>),
}

/// Why a design was not read.
#[derive(Clone, Debug)]
pub enum DesignError {
    /// The design is malformed (Yosys cannot read or elaborate it), or
    /// Yosys is missing: an error.
    Invalid(String),
    /// The design uses what the flow does not support: no verdict.
    Unsupported(String),
}

/// Runs Yosys on `files` and returns the netlist.
pub fn synthesize(files: &[PathBuf], options: &DesignOptions) -> Result<Netlist, DesignError> {
    let yosys = options
        .yosys
        .clone()
        .unwrap_or_else(|| PathBuf::from("yosys"));
    for f in files {
        if !f.is_file() {
            return Err(DesignError::Invalid(format!(
                "{}: cannot read: no such file",
                f.display()
            )));
        }
        if f.to_string_lossy().contains(char::is_whitespace) {
            return Err(DesignError::Invalid(format!(
                "{}: Yosys's script cannot name a file with white space in its path",
                f.display()
            )));
        }
    }
    for d in &options.defines {
        if d.is_empty() || d.contains(char::is_whitespace) || d.starts_with('=') {
            return Err(DesignError::Invalid(format!(
                "--define {d:?}: expected NAME or NAME=VALUE without white space"
            )));
        }
    }
    let dir = scratch_dir();
    let result = run_flow(&yosys, files, options, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn scratch_dir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("invar-yosys-{}-{n}", std::process::id()))
}

fn run_flow(
    yosys: &Path,
    files: &[PathBuf],
    options: &DesignOptions,
    dir: &Path,
) -> Result<Netlist, DesignError> {
    let io = |e: std::io::Error| DesignError::Invalid(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(io)?;
    let name = files
        .first()
        .map_or("design".into(), |f| f.display().to_string());
    let defines: String = (options.defines.iter())
        .map(|d| format!(" -D{d}"))
        .collect();
    let sources: String = files.iter().map(|f| format!(" {}", f.display())).collect();
    let top = match &options.top {
        Some(t)
            if t.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
        {
            format!("-top {t}")
        }
        Some(t) => {
            return Err(DesignError::Invalid(format!(
                "--top {t:?}: not a module name"
            )))
        }
        None => "-auto-top".into(),
    };
    // First reading and elaboration: a failure here is the design's.
    let elaborated = dir.join("design.il");
    let front = format!(
        "read_verilog -sv -formal{defines}{sources}; prep {top}; flatten; write_rtlil {}",
        elaborated.display()
    );
    yosys_run(yosys, &front).map_err(|e| DesignError::Invalid(format!("{name}: {e}")))?;
    // Then the netlist: a failure here is a construct the flow cannot write.
    let info = dir.join("design.info");
    let (back, out) = if options.bit_level {
        let out = dir.join("design.aig");
        (
            format!(
                "read_rtlil {}; delete -output; memory_map; opt -full; async2sync; dffunmap; \
                 techmap; opt -fast -nodffe -nosdff; abc -g AND -fast; opt_clean; \
                 write_aiger -zinit -symbols {}",
                elaborated.display(),
                out.display()
            ),
            out,
        )
    } else {
        let out = dir.join("design.btor2");
        (
            format!(
                "read_rtlil {}; memory -nomap; opt -full; async2sync; dffunmap; write_btor -i {} {}",
                elaborated.display(),
                info.display(),
                out.display()
            ),
            out,
        )
    };
    yosys_run(yosys, &back).map_err(DesignError::Unsupported)?;
    // Clocks: the BTOR2 writer lists each clock edge it stepped on.
    let (clocks, word_level) = if options.bit_level {
        clock_edges(yosys, &elaborated, dir)?
    } else {
        (
            std::fs::read_to_string(&info).unwrap_or_default(),
            std::fs::read_to_string(&out).unwrap_or_default(),
        )
    };
    let edges = distinct_edges(&clocks, &word_level);
    if edges.len() > 1 {
        return Err(DesignError::Unsupported(format!(
            "flip-flops on several clocks or on both edges of one ({}): \
             only single-clock designs are supported",
            edges.join(", ")
        )));
    }
    let bytes = std::fs::read(&out).map_err(io)?;
    if options.bit_level {
        Ok(Netlist::Aiger(name_aiger(bytes, &name_btor2(&word_level))))
    } else {
        Ok(Netlist::Btor2(name_btor2(&String::from_utf8_lossy(&bytes))))
    }
}

/// The clock edges of the elaborated design, as the BTOR2 writer lists
/// them (the AIGER writer lists none), and the design as BTOR2 text.
fn clock_edges(
    yosys: &Path,
    elaborated: &Path,
    dir: &Path,
) -> Result<(String, String), DesignError> {
    let info = dir.join("clocks.info");
    let script = format!(
        "read_rtlil {}; memory -nomap; opt -full; async2sync; dffunmap; write_btor -i {} {}",
        elaborated.display(),
        info.display(),
        dir.join("clocks.btor2").display()
    );
    yosys_run(yosys, &script).map_err(DesignError::Unsupported)?;
    Ok((
        std::fs::read_to_string(&info).unwrap_or_default(),
        std::fs::read_to_string(dir.join("clocks.btor2")).unwrap_or_default(),
    ))
}

/// The AIGER netlist with its bad properties named as the BTOR2 netlist of
/// the same elaborated design names them: both writers take the `$assert`
/// cells in the module's order (the AIGER writer names none). Left as it is
/// when the counts differ or the file does not read.
fn name_aiger(bytes: Vec<u8>, btor2: &str) -> Vec<u8> {
    use super::aiger::{read_bytes, write_binary, Symbol, SymbolKind};
    let names: Vec<&str> = (btor2.lines())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 4 && f[1] == "bad").then(|| f[3])
        })
        .collect();
    let Ok(mut aiger) = read_bytes("netlist", &bytes) else {
        return bytes;
    };
    if names.len() != aiger.bad.len() || aiger.symbols.iter().any(|s| s.kind == SymbolKind::Bad) {
        return bytes;
    }
    for (pos, name) in names.into_iter().enumerate() {
        aiger.symbols.push(Symbol {
            kind: SymbolKind::Bad,
            pos,
            name: name.to_string(),
        });
    }
    write_binary(&aiger)
}

/// The clock edges the BTOR2 writer's info lists (`posedge 30`), each
/// once: a node that only renames another (`uext` by 0 bits, as flattening
/// writes a submodule's clock port) counts as the node it renames.
fn distinct_edges(info: &str, btor2: &str) -> Vec<String> {
    let mut alias: std::collections::HashMap<&str, &str> = Default::default();
    for line in btor2.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() >= 5 && f[1] == "uext" && f[4] == "0" {
            alias.insert(f[0], f[3]);
        }
    }
    let mut edges: Vec<String> = Vec::new();
    for line in info.lines() {
        let mut f = line.split_whitespace();
        let (Some(edge @ ("posedge" | "negedge")), Some(mut node)) = (f.next(), f.next()) else {
            continue;
        };
        for _ in 0..64 {
            match alias.get(node) {
                Some(&to) => node = to,
                None => break,
            }
        }
        let name = format!("{edge} {node}");
        if !edges.contains(&name) {
            edges.push(name);
        }
    }
    edges
}

/// Runs a Yosys script; Yosys's error lines when it fails.
fn yosys_run(yosys: &Path, script: &str) -> Result<(), String> {
    let out = Command::new(yosys)
        .args(["-q", "-p", script])
        .output()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "Verilog is read through Yosys, and `{}` was not found (install Yosys, \
                 for instance `apt-get install yosys`, or name its binary with --yosys PATH)",
                    yosys.display()
                )
            } else {
                format!("cannot run {}: {e}", yosys.display())
            }
        })?;
    if out.status.success() {
        return Ok(());
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let errors: Vec<&str> = (text.lines())
        .map(str::trim)
        .filter(|l| l.starts_with("ERROR") || l.contains("error"))
        .collect();
    let said = if errors.is_empty() {
        text.lines().last().unwrap_or("").trim().to_string()
    } else {
        errors.join("; ")
    };
    Err(format!("Yosys: {said}"))
}

/// Names Yosys's BTOR2 as the design names things: a `bad` without a name
/// gets its source line from Yosys's comment, a name that is a source range
/// (`d.sv:6.14-6.37`) becomes its first line (`d.sv:6`), and a state
/// without a name takes the name of an output that reads it as it is (a
/// register driving a port).
pub fn name_btor2(text: &str) -> String {
    let mut output_names: std::collections::HashMap<String, String> = Default::default();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() >= 4 && f[1] == "output" && !f[3].starts_with(';') {
            output_names
                .entry(f[2].to_string())
                .or_insert_with(|| f[3].to_string());
        }
    }
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let (body, comment) = match line.find(';') {
            Some(i) => (&line[..i], Some(line[i + 1..].trim())),
            None => (line, None),
        };
        let f: Vec<&str> = body.split_whitespace().collect();
        let renamed = match f.as_slice() {
            [id, "bad", arg] => comment.map(|c| format!("{id} bad {arg} {}", source_line(c))),
            [id, "bad", arg, name] => Some(format!("{id} bad {arg} {}", source_line(name))),
            [id, "state", sort] => output_names
                .get(*id)
                .map(|n| format!("{id} state {sort} {n}")),
            _ => None,
        };
        match renamed {
            Some(r) => out.push_str(&r),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// `file:12` from Yosys's source range `dir/file:12.5-12.37` (or a name).
fn source_line(name: &str) -> String {
    let name = name.split_whitespace().next().unwrap_or(name);
    match name.rsplit_once(':') {
        Some((file, range))
            if range.chars().next().is_some_and(|c| c.is_ascii_digit())
                && range
                    .chars()
                    .all(|c| c.is_ascii_digit() || ".-:".contains(c)) =>
        {
            let line = range.split(['.', '-']).next().unwrap_or(range);
            let file = file.rsplit('/').next().unwrap_or(file);
            format!("{file}:{line}")
        }
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_named_by_label_or_source_line() {
        let text = "1 sort bitvec 1\n2 state 1\n3 output 2 grant ; d.sv:3.1-3.9\n\
                    4 bad 2 d.sv:6.14-6.37\n5 bad 2 ok_label ; d.sv:7.3-7.30\n6 bad 2 ; /x/y/d.sv:8.5-8.9\n";
        let named = name_btor2(text);
        let lines: Vec<&str> = named.lines().collect();
        assert_eq!(lines[1], "2 state 1 grant");
        assert_eq!(lines[3], "4 bad 2 d.sv:6");
        assert_eq!(lines[4], "5 bad 2 ok_label");
        assert_eq!(lines[5], "6 bad 2 d.sv:8");
    }
}
