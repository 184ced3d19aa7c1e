//! Any text given to the hashi parser: an error is fine, a panic or a hang is not.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = autoplayer::games::hashi::format::parse(text, "fuzz");
    }
});
