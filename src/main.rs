//! The `invar` command line. See `invar --help` and README.md.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
