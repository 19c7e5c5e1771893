//! The `invar` command line. See `invar --help` and README.md.

mod cli;

/// The stack of the thread that runs the command. Readers bound the nesting
/// they accept (SMT-LIB terms: 20,000 levels) and give a located error past
/// it; this is room for that depth in the recursive descent, reserved as
/// address space and touched only as deep as an input goes.
const STACK_BYTES: usize = 512 << 20;

fn main() {
    let code = std::thread::Builder::new()
        .name("invar".into())
        .stack_size(STACK_BYTES)
        .spawn(cli::run)
        .map(|worker| worker.join().unwrap_or(cli::EXIT_ERROR))
        .unwrap_or_else(|_| cli::run());
    std::process::exit(code);
}
