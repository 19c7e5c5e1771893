//! BTOR2 models.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let text = text.to_string();
    common::on_cli_stack(move || {
        if let Err(e) = invar::formats::btor2::read_str(common::NAME, &text) {
            common::check_message(&e.to_string());
        }
    });
});
