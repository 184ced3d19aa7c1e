//! Esc as a stop that does not fight the mouse: its state is read from the X server's keymap,
//! as the fail-safe reads the pointer, so no window needs the keyboard focus.

use crate::error::{Error, Result};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::ConnectionExt;
use x11rb::rust_connection::RustConnection;

/// X's keysym for Escape.
const ESCAPE: u32 = 0xff1b;

/// A connection to the X server and the key codes that type Escape.
pub struct StopKey {
    conn: RustConnection,
    codes: Vec<u8>,
}

fn desktop_err(e: impl std::fmt::Display) -> Error {
    Error::Desktop(format!("the stop key (Esc): {e}"))
}

impl StopKey {
    pub fn open() -> Result<StopKey> {
        let (conn, _) = x11rb::connect(None).map_err(desktop_err)?;
        let (first, last) = (conn.setup().min_keycode, conn.setup().max_keycode);
        let map = conn
            .get_keyboard_mapping(first, last - first + 1)
            .map_err(desktop_err)?
            .reply()
            .map_err(desktop_err)?;
        let codes = codes_of(ESCAPE, first, map.keysyms_per_keycode, &map.keysyms);
        if codes.is_empty() {
            return Err(desktop_err("no key of this keyboard types Escape"));
        }
        Ok(StopKey { conn, codes })
    }

    /// Whether Esc is held down right now.
    pub fn pressed(&self) -> Result<bool> {
        let keys = self
            .conn
            .query_keymap()
            .map_err(desktop_err)?
            .reply()
            .map_err(desktop_err)?
            .keys;
        Ok(self.codes.iter().any(|&c| held(&keys, c)))
    }
}

/// The key codes whose keysyms include `sym`, from a keyboard mapping that starts at `first`.
fn codes_of(sym: u32, first: u8, per_code: u8, keysyms: &[u32]) -> Vec<u8> {
    if per_code == 0 {
        return Vec::new();
    }
    keysyms
        .chunks(per_code as usize)
        .enumerate()
        .filter(|(_, syms)| syms.contains(&sym))
        .filter_map(|(i, _)| u8::try_from(first as usize + i).ok())
        .collect()
}

/// Whether key `code` is down in a keymap of 256 bits, one per key code.
fn held(keys: &[u8; 32], code: u8) -> bool {
    keys[code as usize / 8] & (1 << (code % 8)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_is_found_among_the_keysyms_of_each_code() {
        // Codes 8, 9, 10 with two keysyms each; 9 types Escape.
        let syms = [0x61, 0x41, ESCAPE, 0, 0x62, 0x42];
        assert_eq!(codes_of(ESCAPE, 8, 2, &syms), vec![9]);
        assert!(codes_of(ESCAPE, 8, 0, &syms).is_empty());
    }

    #[test]
    fn a_key_is_held_when_its_bit_is_set() {
        let mut keys = [0u8; 32];
        keys[1] = 0b10; // code 9
        assert!(held(&keys, 9));
        assert!(!held(&keys, 8));
        assert!(!held(&keys, 17));
    }
}
