//! The C front end after preprocessing: nesting check, lexing and parsing
//! (`lang-c`), lowering to the control-flow automaton.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let text = text.to_string();
    common::on_cli_stack(move || {
        let options = invar::cfront::Options::default();
        let _ = invar::cfront::lower_preprocessed(text, &options);
    });
});
