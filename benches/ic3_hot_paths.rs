//! IC3's hot paths on real frames: one relative-induction query, and the
//! generalization of one cube. The frames come from a completed IC3 run on a
//! bundled HWMCC sample, so the solvers hold realistic lemma sets.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use invar::engines::ic3::{Consecution, Cube, Ic3, Ic3Options, StateLit, Want};
use invar::engines::Limits;
use invar::formats::aiger;
use invar::preprocess::prepare::{prepare, PrepareOptions};
use invar::sat::Backend;
use std::hint::black_box;
use std::path::Path;

fn bench_hot_paths(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("hwmcc-samples/goel-industry-cal3-cal3.aig");
    let full = aiger::read_file(&path).unwrap().to_aig();
    let prepared = prepare(&full, &[0], &PrepareOptions::default());
    let mut ic3 = Ic3::new(&prepared.aig, Ic3Options::default());
    ic3.run();
    let (level, lemma) = ic3
        .lemmas()
        .into_iter()
        .max_by_key(|(l, c)| (*l, c.len()))
        .expect("lemmas");
    let top = ic3.top();
    // A fuller cube than the lemma (the lemma plus every other latch at its
    // reset value): it still excludes Init, and MIC has literals to drop.
    let init: Vec<Option<bool>> = prepared.aig.latches.iter().map(|l| l.init).collect();
    let mut lits: Vec<StateLit> = lemma.lits().to_vec();
    for (i, reset) in init.iter().enumerate() {
        if !lemma.has_latch(i) {
            lits.push(StateLit::new(i, *reset == Some(true)));
        }
    }
    let full_cube = Cube::new(lits);
    assert!(!full_cube.intersects_init(&init));
    // The same frames on every backend: the lemmas of the run, re-added.
    let lemmas = ic3.lemmas();
    let mut group = c.benchmark_group("ic3");
    for &backend in Backend::ALL {
        let options = Ic3Options {
            limits: Limits {
                backend,
                ..Limits::default()
            },
            ..Ic3Options::default()
        };
        let mut ic3 = Ic3::with_lemmas(&prepared.aig, options.clone(), &lemmas);
        group.bench_function(format!("relative_induction/{}", backend.name()), |b| {
            b.iter(|| {
                match ic3.relative_induction(black_box(&lemma), level.min(top), Want::NOTHING) {
                    Ok(Consecution::Inductive(core)) => core.len(),
                    Ok(Consecution::Predecessor(_)) => 0,
                    Err(_) => unreachable!("no budget"),
                }
            })
        });
        // Generalization adds the lemmas of blocked CTGs: start afresh each
        // time. By reference, so that dropping the frames' solvers (with
        // every lemma) is not timed as part of the generalization.
        group.bench_function(format!("generalize/{}", backend.name()), |b| {
            b.iter_batched_ref(
                || Ic3::with_lemmas(&prepared.aig, options.clone(), &lemmas),
                |ic3| {
                    ic3.generalize(black_box(full_cube.clone()), level.min(top), 0.0)
                        .map(|c| c.len())
                        .unwrap_or(0)
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_hot_paths);
criterion_main!(benches);
