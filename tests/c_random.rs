//! Random small C programs against gcc. Each program has two
//! nondeterministic inputs of small range, bounded loops, branches and
//! unsigned arithmetic (wrap-around, division and remainder by constants,
//! shifts, bit operations, conversions to a signed counter); its verdict is
//! decided by compiling the same body with gcc and running it on every
//! input: `false` if some input reaches `reach_error`, else `true`. invar's
//! verdict must match on every program it decides, and it must decide
//! nearly all of them (they are small).
//!
//! `INVAR_C_RANDOM=N` runs N programs (default 100, the CI share); the seed
//! is fixed, so a failure names a program that can be regenerated.
//!
//! A second test adds an array of four elements, read and written at
//! indices that are mostly in bounds and sometimes not: gcc's harness checks
//! every access; an access out of bounds ends the execution (SV-COMP's
//! reading of undefined behaviour), so a program is false only where some
//! input reaches `reach_error` before any such access
//! (`INVAR_C_RANDOM_ARRAYS=N`, default 60).
//!
//! The same programs with the array kept whole (a variable-length array,
//! one SMT array; `INVAR_C_RANDOM_WHOLE=N`, default 30) must get the same
//! verdicts.
//!
//! A fourth covers the rest of the language: a struct and its copies,
//! pointers to a local and to a struct, a struct on the heap, `switch` with
//! fall-through, and a signed `int` whose `+` and `*` may overflow, which
//! gcc's harness checks operation by operation: an overflow is undefined
//! behaviour and ends the execution like an access out of bounds
//! (`INVAR_C_RANDOM_LANGUAGE=N`, default 40).
//!
//! Another runs explicit execution alone (`--engine explicit`), whose tests
//! must find the bugs gcc finds and never claim one it does not
//! (`INVAR_C_RANDOM_EXPLICIT=N`, default 30).

mod common;

use invar::util::rng::Rng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Inputs range over 0..RANGE.
const RANGE: u32 = 3;

struct Gen {
    rng: Rng,
    /// Nesting depth of the loop being generated (its counter is `i<depth>`).
    loops: usize,
    /// Whether programs use the array `arr` (of four unsigned elements).
    arrays: bool,
    /// Whether programs use the rest of the language ([`RICH`]): structs,
    /// pointers to locals, a struct on the heap, `switch`, and a signed
    /// `int` whose arithmetic may overflow.
    rich: bool,
}

/// The declarations a rich program's body may use, outside `run`/`main`.
const RICH: &str = "struct pt { unsigned u; unsigned char c; };\n";

/// The size of `arr`.
const ARRAY: u32 = 4;

impl Gen {
    fn below(&mut self, n: u32) -> u32 {
        (self.rng.next_u64() % u64::from(n)) as u32
    }

    /// An index into `arr`: in bounds by construction, or a raw small
    /// value that may not be. Written as `AT(e)`: the body's text for gcc
    /// defines it as a checked access, invar's as `arr[e]`.
    fn element(&mut self) -> String {
        let e = self.unsigned_leaf_scalar();
        match self.below(6) {
            0 => format!("AT({e})"),
            1 => format!("AT({e} & {}u)", ARRAY - 1),
            _ => format!("AT({e} % {ARRAY}u)"),
        }
    }

    fn unsigned_leaf(&mut self) -> String {
        if self.rich && self.below(3) == 0 {
            let leaves = [
                "st.u",
                "(unsigned)st.c",
                "st2.u",
                "*p",
                "q->u",
                "hp->u",
                "(unsigned)hp->c",
                "(unsigned)t",
            ];
            return leaves[self.below(leaves.len() as u32) as usize].into();
        }
        if self.arrays {
            match self.below(8) {
                0 | 1 => return self.element(),
                2 if self.below(4) == 0 => {
                    return "(unsigned)(sizeof(arr) / sizeof(arr[0]))".into()
                }
                _ => {}
            }
        }
        self.unsigned_leaf_scalar()
    }

    fn unsigned_leaf_scalar(&mut self) -> String {
        match self.below(6) {
            0 => "a".into(),
            1 => "b".into(),
            2 => "x".into(),
            3 => "y".into(),
            4 => "(unsigned)s".into(),
            _ => format!("{}u", self.below(10)),
        }
    }

    /// An unsigned expression: no undefined behaviour whatever the values.
    fn unsigned_expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.below(3) == 0 {
            return self.unsigned_leaf();
        }
        let l = self.unsigned_expr(depth - 1);
        match self.below(11) {
            0 => format!("({l} + {})", self.unsigned_expr(depth - 1)),
            1 => format!("({l} - {})", self.unsigned_expr(depth - 1)),
            2 => format!("({l} * {})", self.unsigned_expr(depth - 1)),
            3 => format!("({l} & {})", self.unsigned_expr(depth - 1)),
            4 => format!("({l} | {})", self.unsigned_expr(depth - 1)),
            5 => format!("({l} ^ {})", self.unsigned_expr(depth - 1)),
            6 => format!("({l} / {}u)", 1 + self.below(5)),
            7 => format!("({l} % {}u)", 1 + self.below(5)),
            8 => format!("({l} << {})", self.below(8)),
            9 => format!("({l} >> {})", self.below(8)),
            // A choice whose branch may read the array: only the chosen
            // branch is evaluated.
            _ if self.arrays && self.below(2) == 0 => {
                let c = self.condition(0);
                format!("({c} ? {l} : {})", self.unsigned_expr(depth - 1))
            }
            _ => format!("(unsigned char)({l})"),
        }
    }

    fn condition(&mut self, depth: u32) -> String {
        if depth > 0 && self.below(4) == 0 {
            let l = self.condition(depth - 1);
            let r = self.condition(depth - 1);
            return match self.below(3) {
                0 => format!("({l} && {r})"),
                1 => format!("({l} || {r})"),
                _ => format!("!{l}"),
            };
        }
        if self.rich && self.below(5) == 0 {
            // The signed value that may have overflowed.
            let op = ["<", "<=", "==", "!=", ">"][self.below(5) as usize];
            let c = [0, 1, -1, 7, 1000, -100000, 2000000][self.below(7) as usize];
            return format!("(t {op} {c})");
        }
        if self.below(4) == 0 {
            // The signed counter against a small signed constant.
            let op = ["<", "<=", "==", "!=", ">"][self.below(5) as usize];
            return format!("(s {op} {})", self.below(9) as i32 - 4);
        }
        let op = ["<", "<=", "==", "!=", ">", ">="][self.below(6) as usize];
        format!("({} {op} {})", self.unsigned_expr(2), self.unsigned_expr(2))
    }

    fn statement(&mut self, depth: u32, out: &mut String) {
        // An error check in the body is rarer than other statements, so
        // that both verdicts stay frequent.
        let choice = self.below(if depth == 0 { 7 } else { 14 });
        let kind = match choice {
            0 => 2,
            k if k < 5 => 0,
            k if k < 7 => 1,
            k if k < 10 => 3,
            _ => 5,
        };
        match kind {
            0 | 1 if self.rich && self.below(3) != 0 => self.rich_statement(depth, out),
            0 if self.arrays && self.below(3) == 0 => {
                let target = self.element();
                let op = ["=", "+=", "^="][self.below(3) as usize];
                let _ = writeln!(out, "{target} {op} {};", self.unsigned_expr(2));
            }
            0 => {
                let v = if self.below(2) == 0 { "x" } else { "y" };
                let _ = writeln!(out, "{v} = {};", self.unsigned_expr(2));
            }
            1 => {
                // Bounded: at most a few dozen updates of ±3 in all.
                let _ = writeln!(out, "s = s + {};", self.below(7) as i32 - 3);
            }
            2 => {
                let _ = writeln!(out, "if ({}) reach_error();", self.condition(1));
            }
            3 | 4 if self.loops < 2 => {
                let i = format!("i{}", self.loops);
                self.loops += 1;
                let _ = writeln!(out, "for ({i} = 0; {i} < {}; {i}++) {{", self.below(4));
                for _ in 0..1 + self.below(2) {
                    self.statement(depth - 1, out);
                }
                out.push_str("}\n");
                self.loops -= 1;
            }
            _ => {
                let _ = writeln!(out, "if ({}) {{", self.condition(1));
                self.statement(depth - 1, out);
                out.push_str("} else {\n");
                self.statement(depth - 1, out);
                out.push_str("}\n");
            }
        }
    }

    /// A statement over the rich program's objects: a member, a pointer's
    /// target or the heap struct assigned, a struct copied, `t` updated
    /// with arithmetic that may overflow (`SADD`, `SMUL`: checked in gcc's
    /// harness, plain `+` and `*` for invar), or a `switch` with
    /// fall-through.
    fn rich_statement(&mut self, depth: u32, out: &mut String) {
        match self.below(7) {
            0 | 1 => {
                let targets = ["*p", "st.u", "st.c", "q->c", "hp->u", "hp->c", "st2.u", "x"];
                let target = targets[self.below(targets.len() as u32) as usize];
                let op = ["=", "+=", "^="][self.below(3) as usize];
                let _ = writeln!(out, "{target} {op} {};", self.unsigned_expr(2));
            }
            2 => {
                let copy = [
                    "st2 = st;",
                    "st = st2;",
                    "st = *hp;",
                    "*hp = st2;",
                    "*q = st2;",
                ];
                out.push_str(copy[self.below(copy.len() as u32) as usize]);
                out.push('\n');
            }
            3..=5 => {
                let k = [2, -3, 1000, 46341, 100000, 70000][self.below(6) as usize];
                let update = match self.below(3) {
                    0 => format!("t = SADD(t, {k});"),
                    1 => format!("t = SMUL(t, {k});"),
                    _ => format!("t = SADD(SMUL(t, {k}), (int)({}));", self.unsigned_expr(1)),
                };
                let _ = writeln!(out, "{update}");
            }
            _ if depth > 0 => {
                let _ = writeln!(out, "switch ({} % 4u) {{", self.unsigned_expr(1));
                for label in ["case 0:", "case 1:", "case 3:", "default:"] {
                    let _ = writeln!(out, "{label}");
                    self.statement(depth - 1, out);
                    if self.below(2) == 0 {
                        out.push_str("break;\n");
                    }
                }
                out.push_str("}\n");
            }
            _ => {
                let _ = writeln!(out, "t = SADD(t, {});", self.below(5));
            }
        }
    }

    /// The body shared by gcc's harness and invar's program (a fresh heap
    /// object is written before it is read: its contents are arbitrary,
    /// where gcc's `malloc` tends to give zeros): declarations
    /// (after `a` and `b`), statements, and a final check.
    fn body(&mut self) -> String {
        let mut out = format!(
            "unsigned x = {}u, y = {}u; int s = {}; unsigned char i0, i1;\n",
            self.below(6),
            self.below(6),
            self.below(5) as i32 - 2
        );
        if self.arrays {
            let values: Vec<String> = (0..self.below(ARRAY + 1))
                .map(|_| format!("{}u", self.below(6)))
                .collect();
            let _ = writeln!(out, "unsigned arr[{ARRAY}] = {{{}}};", values.join(", "));
        }
        if self.rich {
            let _ = writeln!(
                out,
                "int t = {}; struct pt st = {{ {}u, {} }}, st2; st2 = st; st2.c = 9;\n\
                 unsigned *p = {}; struct pt *q = &st;\n\
                 struct pt *hp = (struct pt *) malloc(sizeof(struct pt)); hp->u = 0u; hp->c = 1; \
                 hp->u ^= {};",
                [3, -7, 1000, 46341][self.below(4) as usize],
                self.below(6),
                self.below(6),
                if self.below(2) == 0 { "&x" } else { "&st2.u" },
                self.unsigned_expr(1),
            );
        }
        for _ in 0..2 + self.below(3) {
            self.statement(2, &mut out);
        }
        let (c1, c2) = (self.condition(1), self.condition(1));
        let _ = writeln!(out, "if ({c1} && {c2}) reach_error();");
        out
    }
}

/// gcc's verdict: `false` if an input reaches `reach_error`, else `oob` if
/// an input makes an array access out of bounds (before any error), else
/// `true`. Accesses go through `at`, which checks the index (and, once a
/// run has gone out of bounds, hands out a spare slot: the run's verdict is
/// settled).
fn gcc_verdict(dir: &Path, body: &str) -> String {
    let program = format!(
        "#include <stdio.h>\nstatic int reached, oob;\nstatic unsigned spare;\n\
         static void reach_error(void) {{ if (!oob) reached = 1; }}\n\
         static unsigned *at(unsigned *arr, unsigned long long i) {{\n\
           if (i < {ARRAY}) return &arr[i];\n  if (!reached) oob = 1;\n  return &spare;\n}}\n\
         #define AT(i) (*at(arr, (i)))\n\
         static int sadd(int l, int r) {{ int v; if (__builtin_add_overflow(l, r, &v) && !reached) oob = 1; return v; }}\n\
         static int smul(int l, int r) {{ int v; if (__builtin_mul_overflow(l, r, &v) && !reached) oob = 1; return v; }}\n\
         #define SADD(l, r) sadd((l), (r))\n#define SMUL(l, r) smul((l), (r))\n\
         #include <stdlib.h>\n{RICH}\
         static int run(unsigned char a, unsigned char b) {{\nreached = 0; oob = 0;\n{body}return reached ? 2 : oob;\n}}\n\
         int main(void) {{\n  int any_oob = 0;\n  for (unsigned a = 0; a < {RANGE}; a++)\n    for (unsigned b = 0; b < {RANGE}; b++) {{\n\
         int r = run(a, b);\n  if (r == 2) {{ puts(\"false\"); return 0; }}\n  any_oob |= r;\n  }}\n\
         puts(any_oob ? \"oob\" : \"true\");\n  return 0;\n}}\n"
    );
    common::gcc_run(dir, "harness", &program, &["-O0"])
        .trim()
        .to_string()
}

/// `body` with `arr` a variable-length array of the same size, so that
/// invar keeps it whole (one SMT array): its initializer list becomes an
/// assignment to every element, `sizeof` its size.
fn kept_whole(body: &str) -> String {
    let mut out = String::new();
    for line in body.lines() {
        match line.strip_prefix(&format!("unsigned arr[{ARRAY}] = {{")) {
            Some(rest) => {
                let listed: Vec<&str> = (rest.trim_end_matches("};").split(", "))
                    .filter(|v| !v.is_empty())
                    .collect();
                let _ = write!(out, "unsigned arr_n = {ARRAY}u; unsigned arr[arr_n];");
                for k in 0..ARRAY as usize {
                    let v = listed.get(k).copied().unwrap_or("0u");
                    let _ = write!(out, " arr[{k}] = {v};");
                }
                out.push('\n');
            }
            None => {
                out += &line.replace(
                    "(unsigned)(sizeof(arr) / sizeof(arr[0]))",
                    &format!("{ARRAY}u"),
                );
                out.push('\n');
            }
        }
    }
    out
}

/// invar's verdict on the same body with nondeterministic inputs.
fn invar_verdict(dir: &Path, body: &str, extra: &[&str]) -> (String, String) {
    // The harness's macros written out (invar's input is not preprocessed):
    // `AT(i)` is `arr[i]`, `SADD(l, r)` is `(l + r)`, `SMUL(l, r)` is
    // `(l * r)`, whose overflow is undefined behaviour for invar to see.
    let mut body = body.to_string();
    for (name, op) in [("AT(", None), ("SADD(", Some("+")), ("SMUL(", Some("*"))] {
        while let Some(start) = body.find(name) {
            let open = start + name.len() - 1;
            let (mut depth, mut comma) = (0, None);
            let end = (open..body.len())
                .find(|&k| {
                    match body.as_bytes()[k] {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        b',' if depth == 1 => comma = Some(k),
                        _ => {}
                    }
                    depth == 0
                })
                .expect("balanced");
            let written = match (op, comma) {
                (None, _) => format!("arr[{}]", &body[open + 1..end]),
                (Some(op), Some(c)) => {
                    format!("({} {op} {})", &body[open + 1..c], body[c + 1..end].trim())
                }
                (Some(_), None) => panic!("{name} takes two operands"),
            };
            body.replace_range(start..=end, &written);
        }
    }
    let prelude = if body.contains("struct pt") {
        format!("extern void *malloc(unsigned long);\n{RICH}")
    } else {
        String::new()
    };
    let program = format!(
        "{prelude}extern void reach_error(void);\nextern unsigned char __VERIFIER_nondet_uchar(void);\n\
         extern void __VERIFIER_assume(int);\nint main(void) {{\n\
         unsigned char a = __VERIFIER_nondet_uchar(); __VERIFIER_assume(a < {RANGE});\n\
         unsigned char b = __VERIFIER_nondet_uchar(); __VERIFIER_assume(b < {RANGE});\n\
         {body}return 0;\n}}\n"
    );
    // Single-block encoding gets less time: its unknowns are expected.
    let timeout = if extra.is_empty() { "20" } else { "5" };
    let mut args = vec!["--timeout", timeout];
    args.extend_from_slice(extra);
    common::check_c(&program, &dir.join("program.c"), &args)
}

/// A campaign's number of programs (the variable `var`, else `default`),
/// its scratch directory and its generator (seed fixed).
fn campaign(
    var: &str,
    default: usize,
    name: &str,
    seed: u64,
    arrays: bool,
    rich: bool,
) -> (usize, PathBuf, Gen) {
    let count = (std::env::var(var).ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    let dir = std::env::temp_dir().join(format!("invar-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gen = Gen {
        rng: Rng::new(seed),
        loops: 0,
        arrays,
        rich,
    };
    (count, dir, gen)
}

#[test]
fn random_c_programs_agree_with_gcc() {
    let (count, dir, mut gen) = campaign("INVAR_C_RANDOM", 100, "crandom", 21, false, false);
    // Per mode (large-block encoding, single-block): decided, unknown.
    let (mut decided, mut unknown, mut false_seen) = ([0usize; 2], [0usize; 2], 0);
    for n in 0..count {
        let body = gen.body();
        let expected = gcc_verdict(&dir, &body);
        // Every fourth program also without large-block encoding.
        let modes: &[&[&str]] = if n % 4 == 0 {
            &[&[], &["--no-lbe"]]
        } else {
            &[&[]]
        };
        for (mode, extra) in modes.iter().enumerate() {
            let (verdict, detail) = invar_verdict(&dir, &body, extra);
            match verdict.as_str() {
                "unknown" => {
                    eprintln!("program #{n}: unknown\n{detail}");
                    unknown[mode] += 1;
                }
                v if v == expected => decided[mode] += 1,
                _ => panic!("program #{n}: gcc says {expected}, invar {verdict}\n{detail}"),
            }
        }
        false_seen += usize::from(expected == "false");
    }
    eprintln!(
        "{count} programs ({false_seen} false by gcc): with LBE {} agree, {} unknown; \
         single-block {} agree, {} unknown",
        decided[0], unknown[0], decided[1], unknown[1]
    );
    // Both verdicts occur, and small programs are decided: with LBE nearly
    // all (measured: 0 unknown in 100 alone; 11 in 1,000 at nice 19 beside
    // a CI run, each solved in seconds alone; a floor of 3%);
    // single-block encoding leaves IC3 longer paths (measured: 3 unknown in
    // 25 at 20 s, 6 at 5 s on a loaded machine, 7 beside two benchmark
    // runs; a floor of half).
    assert!(false_seen > count / 10 && false_seen < count * 9 / 10);
    assert!(
        unknown[0] * 100 <= count,
        "{unknown:?} unknown, {decided:?} decided"
    );
    assert!(
        unknown[1] <= decided[1],
        "{unknown:?} unknown, {decided:?} decided"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn random_c_programs_with_arrays_agree_with_gcc() {
    array_campaign("INVAR_C_RANDOM_ARRAYS", 60, "carrays", false);
}

#[test]
fn random_c_programs_with_arrays_kept_whole_agree_with_gcc() {
    array_campaign("INVAR_C_RANDOM_WHOLE", 30, "cwhole", true);
}

/// The array campaign: `whole` gives invar the array kept whole.
fn array_campaign(var: &str, default: usize, name: &str, whole: bool) {
    let (count, dir, mut gen) = campaign(var, default, name, 22, true, false);
    let rewrite = |body: &str| {
        if whole {
            kept_whole(body)
        } else {
            body.to_string()
        }
    };
    let unknown = campaign_with_undefined_behaviour(count, &dir, &mut gen, "with arrays", &rewrite);
    // Kept whole, a true program whose loops write the array needs an
    // invariant over its elements, which the engines find less often than
    // over scalarized elements: a quarter may stay unknown (measured: 3 of
    // the 30 of CI, 6 of 100, every one of them true for gcc). Otherwise a
    // floor of 3%, as above.
    let allowed = if whole { count / 4 } else { 3 * count / 100 };
    assert!(unknown <= allowed, "{unknown} unknown");
    std::fs::remove_dir_all(&dir).ok();
}

/// `count` programs of `gen` against gcc, where gcc's harness reports
/// undefined behaviour (`oob`: an access out of bounds, a signed overflow)
/// reached before any error: such an execution ends there (SV-COMP's
/// reading), so no input reaching the error before it, the program is
/// correct. invar reads each body through `rewrite`. Every kind of outcome
/// must occur in a tenth of the programs; answers the count of `unknown`.
fn campaign_with_undefined_behaviour(
    count: usize,
    dir: &Path,
    gen: &mut Gen,
    what: &str,
    rewrite: &dyn Fn(&str) -> String,
) -> usize {
    // gcc's verdicts seen, and invar's unknowns.
    let (mut seen, mut unknown) = (std::collections::BTreeMap::new(), 0);
    for n in 0..count {
        let body = gen.body();
        let expected = gcc_verdict(dir, &body);
        *seen.entry(expected.clone()).or_insert(0usize) += 1;
        let (verdict, detail) = invar_verdict(dir, &rewrite(&body), &[]);
        let wanted = if expected == "oob" { "true" } else { &expected };
        match (wanted, verdict.as_str()) {
            (_, "unknown") => {
                eprintln!("program #{n}: unknown (gcc: {expected})\n{detail}");
                unknown += 1;
            }
            (e, v) if e == v => {}
            _ => panic!("program #{n}: gcc says {expected}, invar {verdict}\n{detail}"),
        }
    }
    eprintln!("{count} programs {what}: gcc says {seen:?}; {unknown} unknown besides");
    for kind in ["true", "false", "oob"] {
        assert!(
            seen.get(kind).copied().unwrap_or(0) * 10 >= count,
            "{seen:?}"
        );
    }
    unknown
}

#[test]
fn explicit_execution_finds_the_bugs_gcc_finds() {
    let (count, dir, mut gen) =
        campaign("INVAR_C_RANDOM_EXPLICIT", 30, "cexplicit", 23, false, false);
    let (mut found, mut missed) = (0usize, 0usize);
    let (mut proved, mut open) = (0usize, 0usize);
    for n in 0..count {
        let body = gen.body();
        let expected = gcc_verdict(&dir, &body);
        let (verdict, detail) = invar_verdict(&dir, &body, &["--engine", "explicit"]);
        match (expected.as_str(), verdict.as_str()) {
            ("false", "false") => found += 1,
            ("false", "unknown") => {
                eprintln!("program #{n}: bug not found\n{detail}");
                missed += 1;
            }
            // Two inputs, so the run is not determined: the search lists
            // the states of each value the assumptions leave them.
            ("true", "true") => proved += 1,
            ("true", "unknown") => open += 1,
            _ => panic!("program #{n}: gcc says {expected}, explicit {verdict}\n{detail}"),
        }
    }
    eprintln!(
        "{count} programs: {found} bugs found, {missed} missed; {proved} true proved, {open} not"
    );
    // Inputs range over 0..3 and the pool starts 0, 1, 2: a bug is found
    // when some test draws its inputs (measured: all 18 bugs of the 30
    // programs of seed 23 found).
    assert!(
        found + missed > count / 10,
        "{found} found, {missed} missed"
    );
    assert!(
        missed * 10 <= found + missed,
        "{found} found, {missed} missed"
    );
    // With inputs in 0..3 each program has a few dozen states: the search
    // lists them (measured: all 12 true programs of seed 23 proved).
    assert!(
        proved + open > count / 10 && open * 10 <= proved + open,
        "{proved} proved, {open} not"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Programs over the rest of the language: a struct and its copy, pointers
/// to a local and to a struct, a struct on the heap, `switch` with
/// fall-through, and a signed `int` whose `+` and `*` may overflow. gcc's
/// harness checks each signed operation (`__builtin_*_overflow`): an
/// overflow is undefined behaviour and ends the execution under SV-COMP's
/// reading, so a program is false only where some input reaches
/// `reach_error` before any (`INVAR_C_RANDOM_LANGUAGE=N`, default 40).
#[test]
fn random_c_programs_over_the_language_agree_with_gcc() {
    let (count, dir, mut gen) =
        campaign("INVAR_C_RANDOM_LANGUAGE", 40, "clanguage", 24, false, true);
    let same = |body: &str| body.to_string();
    let unknown =
        campaign_with_undefined_behaviour(count, &dir, &mut gen, "over the language", &same);
    // Unknowns are time-outs of the 20 s each gets, which depend on the
    // load: 2 of these 40 alone, 5 with the other campaigns of this file
    // beside them and a long run on the other core. A quarter may stay
    // unknown; the test is the verdicts that agree.
    assert!(unknown * 4 <= count, "{unknown} unknown");
    std::fs::remove_dir_all(&dir).ok();
}
