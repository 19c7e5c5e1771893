//! AIGER witnesses (aigsim/HWMCC format) for a model of 3 latches and 2
//! inputs, the shape `invar sim` reads them in.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let text = text.to_string();
    common::on_cli_stack(move || {
        if let Err(e) = invar::formats::witness::parse_aiger_witness(common::NAME, &text, 3, 2) {
            common::check_message(&e.to_string());
        }
    });
});
