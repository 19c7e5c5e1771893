//! The cluster path: `scripts/cluster.py` runs a set of tasks (models ×
//! properties × configurations) as a SLURM job array, resumes after a
//! partial run, and gathers one table; its verdicts must be those of a
//! local run of `scripts/bench.py` on the same set, and the manifest's.
//! The BenchExec benchmark definition it writes runs the same tasks under
//! BenchExec to the same verdicts.
//!
//! Needs a SLURM cluster this machine can submit to: `.ci/run` starts a
//! one-node one (`scripts/slurm-single-node.sh start`) and sets
//! `INVAR_SLURM_REQUIRED`, which makes a missing cluster a failure; a
//! machine without SLURM skips this test and says so.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const SET: &str = "tests/cluster";
const TIMEOUT: &str = "30";
const BMC: &str = "--engine bmc --max-k 30";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether SLURM answers here with a node that takes jobs.
fn slurm_up() -> bool {
    let Ok(out) = Command::new("sinfo").args(["-h", "-o", "%t"]).output() else {
        return false;
    };
    let states = String::from_utf8_lossy(&out.stdout);
    out.status.success()
        && states
            .split_whitespace()
            .any(|s| s.starts_with("idle") || s.starts_with("mix") || s.starts_with("alloc"))
}

fn python(args: &[&str]) -> Output {
    Command::new("python3")
        .args(args)
        .current_dir(root())
        .env("INVAR", env!("CARGO_BIN_EXE_invar"))
        .output()
        .expect("python3 runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Waits until none of the run's job arrays is queued or running.
fn wait_for_jobs(run: &Path) {
    let jobs = std::fs::read_to_string(run.join("jobs.txt")).expect("jobs.txt");
    let ids: Vec<&str> = jobs.split_whitespace().collect();
    let start = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i", "-j", &ids.join(",")])
            .output()
            .expect("squeue");
        if String::from_utf8_lossy(&out.stdout).trim().is_empty() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the job arrays {ids:?} did not finish in 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Verdicts per configuration and task name from a table of
/// scripts/bench.py's form (`gather` heads each configuration's table with
/// `# configuration NAME`; `bench.py` prints one table, named `local`).
fn table(out: &str) -> BTreeMap<(String, String), String> {
    let mut rows = BTreeMap::new();
    let mut config = "local".to_string();
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("# configuration ") {
            config = rest.split(':').next().unwrap().to_string();
            continue;
        }
        if line.starts_with("solved ") || line.contains("tasks have no result") {
            continue;
        }
        // NAME [#PROPERTY] EXPECTED VERDICT SECONDS ...: the expected
        // column is a word, the seconds a number.
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| w.parse::<f64>().is_ok()) else {
            continue;
        };
        // The expected column is empty where the manifest says nothing.
        let expected = at >= 3 && ["safe", "unsafe", "unknown"].contains(&words[at - 2]);
        let name = words[..at - 1 - usize::from(expected)].join(" ");
        rows.insert((config.clone(), name), words[at - 1].to_string());
    }
    rows
}

fn gather(run: &Path) -> (bool, String) {
    let out = python(&["scripts/cluster.py", "gather", run.to_str().unwrap()]);
    (out.status.success(), text(&out))
}

#[test]
fn cluster_runs_agree_with_local_runs_and_resume() {
    if !slurm_up() {
        assert!(
            std::env::var_os("INVAR_SLURM_REQUIRED").is_none(),
            "INVAR_SLURM_REQUIRED is set but no SLURM node takes jobs (sinfo)"
        );
        eprintln!("no SLURM cluster here (scripts/slurm-single-node.sh starts one): skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("invar-cluster-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    let run_s = run.to_str().unwrap();
    let bmc_config = format!("bmc={BMC}");
    let out = python(&[
        "scripts/cluster.py",
        "submit",
        run_s,
        SET,
        "--timeout",
        TIMEOUT,
        "--memory",
        "2000",
        "--cpus",
        "1",
        "--replay",
        "--certify",
        "--config",
        "auto=",
        "--config",
        &bmc_config,
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("16 tasks"), "{}", text(&out));
    wait_for_jobs(&run);
    let (complete, gathered) = gather(&run);
    assert!(complete, "{gathered}");
    let cluster = table(&gathered);
    assert_eq!(cluster.len(), 16, "{gathered}");

    // The same set run here by scripts/bench.py, configuration by
    // configuration: the same verdicts.
    for (config, options) in [("auto", ""), ("bmc", BMC)] {
        let mut args = vec!["scripts/bench.py", SET, "--timeout", TIMEOUT];
        args.extend(["--replay", "--certify", "--"]);
        args.extend(options.split_whitespace());
        args.extend(["--memory", "2000"]);
        let out = python(&args);
        assert!(out.status.success(), "{}", text(&out));
        for ((_, name), verdict) in table(&text(&out)) {
            assert_eq!(
                cluster.get(&(config.to_string(), name.clone())),
                Some(&verdict),
                "{config} on {name}: the cluster's verdict is not the local one\n{gathered}"
            );
        }
    }
    // The manifest's verdicts: `auto` decides every model of the set.
    assert!(
        gathered.contains("solved 8/8 (3 safe, 5 unsafe), wrong 0, failed replays/certificates 0"),
        "{gathered}"
    );

    // A partial run: two results lost, as when an array is cancelled;
    // `submit` on the directory alone resubmits those two only.
    for index in [1, 6] {
        std::fs::remove_file(run.join(format!("results/{index}.json"))).unwrap();
    }
    let (complete, partial) = gather(&run);
    assert!(
        !complete && partial.contains("2 of 16 tasks have no result yet"),
        "{partial}"
    );
    let out = python(&["scripts/cluster.py", "submit", run_s]);
    assert!(text(&out).contains(": 2 tasks"), "{}", text(&out));
    wait_for_jobs(&run);
    let (complete, resumed) = gather(&run);
    assert!(complete, "{resumed}");
    assert_eq!(table(&resumed), cluster, "{resumed}");

    // One task per property: two_properties.aag's b0 fails and b1 holds
    // (formats/aiger/README.md); the others have one property each.
    let per_property = dir.join("per-property");
    let out = python(&[
        "scripts/cluster.py",
        "submit",
        per_property.to_str().unwrap(),
        SET,
        "--timeout",
        TIMEOUT,
        "--cpus",
        "1",
        "--per-property",
    ]);
    assert!(text(&out).contains("9 tasks"), "{}", text(&out));
    wait_for_jobs(&per_property);
    let (complete, gathered) = gather(&per_property);
    assert!(complete, "{gathered}");
    let rows = table(&gathered);
    let key = |p: u32| ("auto".to_string(), format!("two_properties.aag #{p}"));
    assert_eq!(rows.get(&key(0)).map(String::as_str), Some("unsafe"));
    assert_eq!(rows.get(&key(1)).map(String::as_str), Some("safe"));

    // BenchExec on the benchmark definition written with the plan: the
    // same verdicts, scored by the manifest's (no task wrong).
    if Command::new("python3")
        .args(["-c", "import benchexec"])
        .status()
        .is_ok_and(|s| s.success())
    {
        let out = Command::new("python3")
            .args([
                "-m",
                "benchexec.benchexec",
                "--no-container",
                "--tool-directory",
            ])
            .arg(run.join("bin"))
            .arg("-o")
            .arg(dir.join("benchexec/"))
            .arg(run.join("benchexec/benchmark.xml"))
            .env("PYTHONPATH", root())
            .current_dir(&dir)
            .output()
            .expect("benchexec runs");
        let said = text(&out);
        assert!(out.status.success(), "{said}");
        let incorrect = said
            .lines()
            .find(|l| l.trim_start().starts_with("incorrect:"))
            .unwrap_or_else(|| panic!("no statistics from BenchExec\n{said}"));
        assert!(incorrect.trim().ends_with(" 0"), "{said}");
        // Its rows name the task-definition files `N-MODEL.yml`, under
        // the run set (configuration) they belong to.
        let mut seen = 0;
        let mut config = String::new();
        for line in said.lines() {
            if let Some(rest) = line.strip_prefix("executing run set '") {
                // BenchExec names it CONFIGURATION.TASKSET.
                config = rest.split(['\'', '.']).next().unwrap().to_string();
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(at) = words.iter().position(|w| w.ends_with(".yml")) else {
                continue;
            };
            let model = words[at]
                .split_once('-')
                .unwrap()
                .1
                .trim_end_matches(".yml");
            let verdict = match words[at + 1] {
                "true" => "safe",
                w if w.starts_with("false") => "unsafe",
                _ => "unknown",
            };
            assert_eq!(
                cluster
                    .get(&(config.clone(), model.to_string()))
                    .map(String::as_str),
                Some(verdict),
                "{config} on {model}: BenchExec's verdict is not the cluster's\n{said}"
            );
            seen += 1;
        }
        assert_eq!(seen, 16, "{said}");
    } else {
        eprintln!("BenchExec is not installed: its run of the benchmark definition skipped");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
