//! SV-COMP's valid-memsafety (`--prop valid-memsafety.prp`): valid-deref,
//! valid-free and valid-memtrack, with their result words.
//!
//! The oracle is gcc with AddressSanitizer and LeakSanitizer (and the
//! undefined-behaviour sanitizer, since an execution ends where it performs
//! other undefined behaviour): each program has two `int` inputs, run once
//! per pair of small values, a process each. A report of an access outside
//! an object or to a freed one, or a NULL dereference, is valid-deref; of a
//! double or invalid `free`, valid-free; of a leak at exit, valid-memtrack.
//! invar must give the sanitizer's verdict where the program is marked as
//! decided, and never another verdict anywhere, under `auto` and each
//! engine alone.

mod common;

use std::path::Path;
use std::process::Command;

/// The values each input takes in the harness.
const VALUES: &[&str] = &["-1", "0", "1", "2", "3", "4", "5"];

/// A program over `x` and `y`: what it tests, its body (in `main`), and
/// whether invar must decide it (else `unknown` is allowed).
struct Case {
    what: &'static str,
    body: &'static str,
    decided: bool,
}

const CASES: &[Case] = &[
    Case {
        what: "a heap array written one past its end",
        body: "int *p = malloc(3 * sizeof(int)); if (x >= 0 && x <= 3) p[x] = y; free(p);",
        decided: true,
    },
    Case {
        what: "a heap array written within its bounds",
        body: "int *p = malloc(3 * sizeof(int)); if (x >= 0 && x < 3) p[x] = y; free(p);",
        decided: true,
    },
    Case {
        what: "a write after free",
        body: "int *p = malloc(sizeof(int)); *p = 1; free(p); if (x == 2) *p = 5;",
        decided: true,
    },
    Case {
        what: "a NULL dereference on one path",
        body: "int *p = 0; if (x == 4) p = malloc(sizeof(int)); if (x > 2) *p = 1; free(p);",
        decided: true,
    },
    Case {
        what: "a stack array written one past its end",
        body: "int a[4]; if (x >= 0 && x <= 4) a[x] = y; if (x == 0) y = a[0];",
        decided: true,
    },
    Case {
        what: "a stack array read within its bounds",
        body: "int a[5] = {0}; if (x >= 0 && x <= 4) y = a[x]; if (y) x = 1;",
        decided: true,
    },
    Case {
        what: "a static array written past its end",
        body: "static int g[3]; if (x >= 0 && x < 4) g[x] = 1;",
        decided: true,
    },
    Case {
        what: "a list node's NULL successor written",
        body: "struct node { int v; struct node *next; };\n\
               struct node *n = malloc(sizeof(struct node)); n->v = x; n->next = 0;\n\
               if (x == 1) { n->next = malloc(sizeof(struct node)); n->next->next = 0; }\n\
               struct node *m = n->next; if (y == 2) m->v = 3;\n\
               free(n->next); free(n);",
        decided: true,
    },
    Case {
        what: "a list node's successor written after a NULL check",
        body: "struct node { int v; struct node *next; };\n\
               struct node *n = malloc(sizeof(struct node)); n->v = x; n->next = 0;\n\
               if (x == 1) { n->next = malloc(sizeof(struct node)); n->next->next = 0; }\n\
               struct node *m = n->next; if (y == 2 && m != 0) m->v = 3;\n\
               free(n->next); free(n);",
        decided: true,
    },
    Case {
        what: "a double free",
        body: "int *p = malloc(sizeof(int)); free(p); if (x == 1) free(p);",
        decided: true,
    },
    Case {
        what: "a free of an object's inside",
        body: "int *p = malloc(2 * sizeof(int)); if (x == 3) free(p + 1); else free(p);",
        decided: true,
    },
    Case {
        what: "a free of NULL",
        body: "int *p = 0; if (x == 1) p = malloc(sizeof(int)); free(p);",
        decided: true,
    },
    Case {
        what: "an object not freed on one path",
        body: "int *p = malloc(sizeof(int)); *p = 1; if (x != 2) free(p);",
        decided: true,
    },
    Case {
        what: "the only pointer to an object overwritten",
        body: "int *p = malloc(sizeof(int)); if (x == 1) p = malloc(sizeof(int)); free(p);",
        decided: true,
    },
    Case {
        what: "objects allocated and freed in a loop",
        body: "for (int i = 0; i < x && i < 3; i++) { int *p = malloc(sizeof(int)); *p = i; free(p); }",
        decided: true,
    },
    Case {
        what: "an object live across a loop",
        body: "int *p = malloc(sizeof(int)); for (int i = 0; i < x && i < 3; i++) *p = i; free(p);",
        decided: false,
    },
    Case {
        what: "a signed overflow ends the execution before the access",
        body: "int a[2] = {0}; if (x == 1) { int z = INT_MAX + x; a[x + 1] = z; }",
        decided: true,
    },
    Case {
        what: "reach_error ends the execution, and is no violation",
        body: "if (x == 1) reach_error(); int *p = malloc(sizeof(int)); *p = 0; free(p);",
        decided: true,
    },
];

/// The sanitizers' verdict on `body`: `false(valid-…)` if some run reports
/// a memory error, else `true`. Panics if runs violate different
/// sub-properties (the verdict would depend on which is found first).
fn gcc_verdict(dir: &Path, name: &str, body: &str) -> String {
    let program = common::two_input_harness(VALUES, "", body);
    let flags = [
        "-O0",
        "-g",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
    ];
    let exe = common::gcc_compile(dir, name, &program, &flags);
    let kinds = [
        ("heap-buffer-overflow", "valid-deref"),
        ("stack-buffer-overflow", "valid-deref"),
        ("global-buffer-overflow", "valid-deref"),
        ("heap-use-after-free", "valid-deref"),
        ("SEGV", "valid-deref"),
        // The undefined-behaviour sanitizer sees a NULL dereference and an
        // index outside an array's type first.
        ("null pointer", "valid-deref"),
        ("out of bounds for type", "valid-deref"),
        ("double-free", "valid-free"),
        ("not malloc()-ed", "valid-free"),
        ("detected memory leaks", "valid-memtrack"),
    ];
    let mut found = Vec::new();
    for input in 0..VALUES.len() * VALUES.len() {
        let run = Command::new(&exe)
            .arg(input.to_string())
            .env("ASAN_OPTIONS", "detect_leaks=1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        if let Some((_, kind)) = kinds.iter().find(|(report, _)| stderr.contains(report)) {
            found.push(*kind);
        } else {
            assert!(
                run.status.success() || stderr.contains("runtime error"),
                "{name}: run {input} failed without a sanitizer report:\n{stderr}"
            );
        }
    }
    found.sort();
    found.dedup();
    match found[..] {
        [] => "true".into(),
        [kind] => format!("false({kind})"),
        _ => panic!("{name}: the runs violate {found:?}: no single expected verdict"),
    }
}

/// invar's answer on `body` in SV-COMP's words, with `extra` arguments.
fn invar_verdict(dir: &Path, name: &str, body: &str, extra: &[&str]) -> (String, String) {
    let program = format!(
        "#include <limits.h>\n#include <stdlib.h>\nextern void reach_error(void);\n\
         extern int __VERIFIER_nondet_int(void);\nint main(void) {{\n\
         int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n\
         {body}\n  return 0;\n}}\n"
    );
    let path = dir.join(format!("{name}-invar.c"));
    std::fs::write(&path, &program).unwrap();
    let prp = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/properties/valid-memsafety.prp");
    let out = Command::new(env!("CARGO_BIN_EXE_invar"))
        .arg("check")
        .arg(&path)
        .args(["--svcomp", "--prop", prp.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let word = stdout.lines().next().unwrap_or("").to_string();
    let expected_code = match word.as_str() {
        "true" => Some(20),
        "unknown" => Some(0),
        w if w.starts_with("false(") => Some(10),
        _ => None,
    };
    assert_eq!(out.status.code(), expected_code, "{name}: {stdout}");
    let detail = format!(
        "{program}\n--- invar {extra:?}:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (word, detail)
}

#[test]
fn memory_safety_agrees_with_the_sanitizers() {
    let dir = std::env::temp_dir().join(format!("invar-c-memsafety-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engines: [&[&str]; 3] = [
        &["--timeout", "20"],
        &["--engine", "ic3cfa", "--timeout", "5"],
        &["--engine", "smt", "--timeout", "5"],
    ];
    let mut kinds = std::collections::BTreeMap::new();
    for (n, case) in CASES.iter().enumerate() {
        let name = format!("m{n}");
        let want = gcc_verdict(&dir, &name, case.body);
        *kinds.entry(want.clone()).or_insert(0) += 1;
        for (e, extra) in engines.iter().enumerate() {
            let (got, detail) = invar_verdict(&dir, &name, case.body, extra);
            let must = case.decided && e == 0;
            assert!(
                got == want || !must && got == "unknown",
                "{} ({extra:?}): the sanitizers say {want}, invar {got}\n{detail}",
                case.what
            );
        }
    }
    eprintln!("verdicts of the sanitizers: {kinds:?}");
    // Every sub-property is violated by some program, and some hold.
    for word in [
        "true",
        "false(valid-deref)",
        "false(valid-free)",
        "false(valid-memtrack)",
    ] {
        assert!(kinds.get(word).is_some_and(|&k| k >= 2), "too few {word}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
