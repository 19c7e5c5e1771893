//! IC3's hot paths on real frames: one relative-induction query, and the
//! generalization of one cube. The frames come from a completed IC3 run on a
//! bundled HWMCC sample, so the solvers hold realistic lemma sets.

use criterion::{criterion_group, criterion_main, Criterion};
use invar::engines::ic3::{Consecution, Cube, Ic3, Ic3Options, StateLit};
use invar::formats::aiger;
use invar::ir::prepare::prepare;
use std::hint::black_box;
use std::path::Path;

fn bench_hot_paths(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("hwmcc-samples/goel-industry-cal3-cal3.aig");
    let full = aiger::read_file(&path).unwrap().to_aig();
    let prepared = prepare(&full, &[0], true);
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
    let mut group = c.benchmark_group("ic3");
    group.bench_function("relative_induction", |b| {
        b.iter(
            || match ic3.relative_induction(black_box(&lemma), level.min(top)) {
                Ok(Consecution::Inductive(core)) => core.len(),
                Ok(Consecution::Predecessor { .. }) => 0,
                Err(_) => unreachable!("no budget"),
            },
        )
    });
    group.bench_function("generalize", |b| {
        b.iter(|| {
            ic3.generalize(black_box(full_cube.clone()), level.min(top))
                .map(|c| c.len())
                .unwrap_or(0)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_hot_paths);
criterion_main!(benches);
