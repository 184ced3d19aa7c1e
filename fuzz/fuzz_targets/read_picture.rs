//! Any bytes as a picture file, then every game's reader on whatever decodes: errors are fine,
//! a panic or a hang is not. Seeded with small copies of the project's captures, so most inputs
//! are corrupted pictures rather than noise the decoder turns away at once.
#![no_main]

use autoplayer::games::BUILT;
use autoplayer::screen::Screen;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(screen) = Screen::from_bytes(data, "fuzz") else {
        return;
    };
    // Keep each run short: the readers are linear in the pixels.
    if screen.image.width() > 1200 || screen.image.height() > 1200 {
        return;
    }
    for game in BUILT {
        let _ = game.detect(&screen);
        let _ = game.scan(&screen, &Default::default(), None);
    }
});
