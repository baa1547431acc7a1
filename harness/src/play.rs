//! Headless play: press scripted keys and print frames.

use std::io::{self, Write};

use game_core::{Game, Key, Stuck};

/// Which frames `play` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Frames {
    /// None: only the summary on stderr.
    None,
    /// The frame after the last key.
    Last,
    /// The first frame, then one after each key, numbered by step.
    Every,
}

/// How a scripted play ended.
#[derive(Debug)]
pub enum PlayEnd {
    /// Every key was pressed (the run may have ended along the way).
    Finished,
    /// The game reported a stuck loop at this step (1-based).
    Stuck { step: usize, key: Key, stuck: Stuck },
}

/// Presses `keys` in order, writing frames of `width` x `height` to `out` as
/// `frames` asks.
pub fn play(
    game: &mut Game,
    keys: &[Key],
    frames: Frames,
    (width, height): (u16, u16),
    out: &mut impl Write,
) -> io::Result<PlayEnd> {
    if frames == Frames::Every {
        writeln!(out, "--- step 0 (start) ---")?;
        writeln!(out, "{}", game.frame(width, height).to_text())?;
    }
    for (index, &key) in keys.iter().enumerate() {
        let step = index + 1;
        if let Err(stuck) = game.press(key) {
            if frames != Frames::None {
                writeln!(out, "{}", game.frame(width, height).to_text())?;
            }
            return Ok(PlayEnd::Stuck { step, key, stuck });
        }
        if frames == Frames::Every {
            writeln!(out, "--- step {step}: {key} ---")?;
            writeln!(out, "{}", game.frame(width, height).to_text())?;
        }
    }
    if frames == Frames::Last {
        writeln!(out, "{}", game.frame(width, height).to_text())?;
    }
    Ok(PlayEnd::Finished)
}

/// Parses `WxH`, e.g. `80x24`.
pub fn parse_size(text: &str) -> Result<(u16, u16), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{text:?} is not a size; write WIDTHxHEIGHT, e.g. 80x24"))?;
    let parse = |s: &str, what: &str| {
        s.parse::<u16>()
            .map_err(|_| format!("{what} {s:?} in {text:?} is not a number from 1 to 65535"))
    };
    let (w, h) = (parse(w, "width")?, parse(h, "height")?);
    let (min_w, min_h) = (
        game_core::frame::MIN_FRAME_WIDTH,
        game_core::frame::MIN_FRAME_HEIGHT,
    );
    let (max_w, max_h) = (
        game_core::frame::MAX_FRAME_WIDTH,
        game_core::frame::MAX_FRAME_HEIGHT,
    );
    if !(min_w..=max_w).contains(&w) || !(min_h..=max_h).contains(&h) {
        return Err(format!(
            "size {w}x{h} is outside {min_w}x{min_h} to {max_w}x{max_h}"
        ));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("80x24"), Ok((80, 24)));
        assert!(parse_size("80").is_err());
        assert!(parse_size("10x5").unwrap_err().contains("outside"));
        assert!(parse_size("ax5").is_err());
    }
}
