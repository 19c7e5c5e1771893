//! SMT-LIB scripts read command by command, as `invar smt` reads them.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|text: &str| {
    let text = text.to_string();
    common::on_cli_stack(move || {
        let mut terms = invar::ir::term::Terms::new();
        let mut reader = invar::formats::smtlib::ScriptReader::new(common::NAME, &text, &mut terms);
        loop {
            match reader.next_command() {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(e) => {
                    common::check_message(&e.to_string());
                    break;
                }
            }
        }
    });
});
