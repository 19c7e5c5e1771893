//! The C front end after preprocessing: nesting check, lexing and parsing
//! (`lang-c`), lowering to the control-flow automaton.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let text = text.to_string();
    common::on_cli_stack(move || {
        // gcc answers for inputs lang-c is slow on after 100 ms instead
        // of 2 s: the same code path, without a pathological input
        // costing the campaign 2 s per run.
        let options = invar::cfront::Options {
            parse_patience: Some(std::time::Duration::from_millis(100)),
            ..Default::default()
        };
        let _ = invar::cfront::lower_preprocessed(text, &options);
    });
});
