//! Printing frames as a run goes: none, the last, or every one numbered by
//! step. Play and replay share it, so their output reads the same.

use std::io::{self, Write};

use crate::plumbing::error::Error;
use game_core::{Game, Key};

/// Which frames a command prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Frames {
    /// No frames.
    None,
    /// The frame after the last step.
    Last,
    /// The first frame, then one after each key, numbered by step.
    Every,
}

/// Prints frames of one size as steps come in.
pub struct FramePrinter {
    pub mode: Frames,
    pub width: u16,
    pub height: u16,
}

impl FramePrinter {
    /// Called with the game after each step (0 is the start).
    pub fn step(
        &self,
        out: &mut impl Write,
        step: u64,
        key: Option<Key>,
        game: &Game,
    ) -> io::Result<()> {
        if self.mode != Frames::Every {
            return Ok(());
        }
        match key {
            None => writeln!(out, "--- step {step} (start) ---")?,
            Some(key) => writeln!(out, "--- step {step}: {key} ---")?,
        }
        writeln!(out, "{}", game.frame(self.width, self.height).to_text())
    }

    /// Called once at the end with the game as it stands.
    pub fn finish(&self, out: &mut impl Write, game: &Game) -> io::Result<()> {
        if self.mode == Frames::Last {
            writeln!(out, "{}", game.frame(self.width, self.height).to_text())?;
        }
        Ok(())
    }
}

/// Parses `WxH`, e.g. `80x24`, within `min` and `max`.
pub fn parse_size_within(
    text: &str,
    min: (u16, u16),
    max: (u16, u16),
) -> Result<(u16, u16), Error> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{text:?} is not a size; write WIDTHxHEIGHT, e.g. 80x24"))?;
    let parse = |s: &str, what: &str| {
        s.parse::<u16>()
            .map_err(|_| format!("{what} {s:?} in {text:?} is not a number from 1 to 65535"))
    };
    let (w, h) = (parse(w, "width")?, parse(h, "height")?);
    if !(min.0..=max.0).contains(&w) || !(min.1..=max.1).contains(&h) {
        return Err(format!(
            "size {w}x{h} is outside {}x{} to {}x{}",
            min.0, min.1, max.0, max.1
        )
        .into());
    }
    Ok((w, h))
}

/// A frame size for `--size`.
pub fn parse_frame_size(text: &str) -> Result<(u16, u16), Error> {
    use game_core::frame::{MAX_FRAME_HEIGHT, MAX_FRAME_WIDTH, MIN_FRAME_HEIGHT, MIN_FRAME_WIDTH};
    parse_size_within(
        text,
        (MIN_FRAME_WIDTH, MIN_FRAME_HEIGHT),
        (MAX_FRAME_WIDTH, MAX_FRAME_HEIGHT),
    )
}

/// A map size for `--map-size`.
pub fn parse_map_size(text: &str) -> Result<(u16, u16), Error> {
    use game_core::map::{MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
    let as_u16 = |n: i32| u16::try_from(n).expect("map limits fit in u16");
    parse_size_within(
        text,
        (as_u16(MIN_WIDTH), as_u16(MIN_HEIGHT)),
        (as_u16(MAX_WIDTH), as_u16(MAX_HEIGHT)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_frame_size("80x24"), Ok((80, 24)));
        assert!(parse_frame_size("80").is_err());
        assert!(
            parse_frame_size("10x5")
                .unwrap_err()
                .to_string()
                .contains("outside")
        );
        assert!(parse_frame_size("ax5").is_err());
        assert_eq!(parse_map_size("20x10"), Ok((20, 10)));
        assert!(parse_map_size("300x10").is_err());
    }
}
