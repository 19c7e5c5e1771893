//! Parse speed of the AIGER reader on a synthetic ~100 MB binary file and a
//! ~10 MB ASCII file (the target: 100 MB binary in about a second).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use invar::formats::aiger::{self, Aiger, AigerAnd, AigerLatch, Reset};
use invar::util::rng::Rng;
use std::hint::black_box;
use std::time::Duration;

/// A random circuit in binary order whose gates read mostly nearby nodes,
/// like real netlists, with an occasional long-range operand.
fn synthetic(ands: u32) -> Aiger {
    let (inputs, latches) = (1000u32, 1000u32);
    let mut rng = Rng::new(42);
    let first = inputs + latches + 1;
    let mut a = Aiger {
        maxvar: inputs + latches + ands,
        inputs: (1..=inputs).map(|v| 2 * v).collect(),
        ..Aiger::default()
    };
    for k in 0..ands {
        let lhs = 2 * (first + k);
        let span = if rng.below(8) == 0 {
            lhs / 2 - 1
        } else {
            (lhs / 2 - 1).min(60)
        };
        let mut pick = || (2 * (lhs / 2 - 1 - rng.below(span as u64) as u32)) | rng.coin() as u32;
        let (x, y) = (pick(), pick());
        a.ands.push(AigerAnd {
            lhs,
            rhs0: x.max(y),
            rhs1: x.min(y),
        });
    }
    for k in 0..latches {
        a.latches.push(AigerLatch {
            lit: 2 * (inputs + 1 + k),
            next: 2 * a.maxvar,
            reset: Reset::Zero,
        });
    }
    a.bad.push(2 * a.maxvar + 1);
    a
}

fn bench_read(c: &mut Criterion) {
    let binary = aiger::write_binary(&synthetic(38_000_000));
    let ascii = aiger::write_ascii(&synthetic(600_000));
    eprintln!(
        "binary file: {} MB, ascii file: {} MB",
        binary.len() >> 20,
        ascii.len() >> 20
    );
    let mut group = c.benchmark_group("aiger_read");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::Bytes(binary.len() as u64));
    group.bench_function("binary_100MB", |b| {
        b.iter(|| aiger::read_bytes("bench.aig", black_box(&binary)).unwrap())
    });
    group.throughput(Throughput::Bytes(ascii.len() as u64));
    group.bench_function("ascii_10MB", |b| {
        b.iter(|| aiger::read_bytes("bench.aag", black_box(&ascii)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_read);
criterion_main!(benches);
