//! A frame: what the player sees, as a grid of cells. A cell is a glyph and a
//! style class, never a terminal colour: the terminal front end decides how a
//! style looks, and snapshots store [`Frame::to_text`].

/// The smallest frame the game draws properly. Smaller frames get a notice.
pub const MIN_FRAME_WIDTH: u16 = 20;
pub const MIN_FRAME_HEIGHT: u16 = 8;
/// Larger requests are clamped to this, so a frame's size is bounded.
pub const MAX_FRAME_WIDTH: u16 = 1024;
pub const MAX_FRAME_HEIGHT: u16 = 512;

/// What a cell is, for the front end to colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Style {
    /// Nothing drawn.
    Blank,
    /// Map tiles in view.
    Wall,
    Floor,
    Door,
    Stairs,
    Exit,
    /// A tile seen before but not in view now.
    Remembered,
    Player,
    Monster,
    Item,
    /// The targeting reticle and its path.
    Reticle,
    /// The status line.
    Status,
    /// Alarming parts of the status line: low hit points, poison, confusion.
    StatusAlert,
    /// Messages from the latest turn, and older ones.
    Message,
    OldMessage,
    /// Screens drawn over the map.
    Border,
    Title,
    Text,
    /// The letter or key of a menu row.
    Key,
    /// Text of less importance (hints).
    Hint,
}

impl Style {
    /// What the style is for: "a monster", "a wall in view".
    pub const fn name(self) -> &'static str {
        match self {
            Style::Blank => "nothing",
            Style::Wall => "a wall in view",
            Style::Floor => "floor in view",
            Style::Door => "a doorway in view",
            Style::Stairs => "stairs in view",
            Style::Exit => "the exit in view",
            Style::Remembered => "a remembered tile",
            Style::Player => "the player",
            Style::Monster => "a monster",
            Style::Item => "an item",
            Style::Reticle => "the reticle",
            Style::Status => "the status line",
            Style::StatusAlert => "an alarm on the status line",
            Style::Message => "a new message",
            Style::OldMessage => "an old message",
            Style::Border => "a screen's border",
            Style::Title => "a screen's title",
            Style::Text => "a screen's text",
            Style::Key => "a menu key",
            Style::Hint => "a hint",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub glyph: char,
    pub style: Style,
}

impl Cell {
    pub const BLANK: Cell = Cell {
        glyph: ' ',
        style: Style::Blank,
    };

    pub const fn new(glyph: char, style: Style) -> Cell {
        Cell { glyph, style }
    }
}

/// "'g' drawn as a monster", "a blank".
impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Cell::BLANK {
            f.write_str("a blank")
        } else {
            write!(f, "{:?} drawn as {}", self.glyph, self.style.name())
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    width: u16,
    height: u16,
    cells: Vec<Cell>,
}

impl Frame {
    /// A blank frame; sizes are clamped to [`MAX_FRAME_WIDTH`] x
    /// [`MAX_FRAME_HEIGHT`].
    pub fn new(width: u16, height: u16) -> Frame {
        let width = width.min(MAX_FRAME_WIDTH);
        let height = height.min(MAX_FRAME_HEIGHT);
        // Copied a row at a time from a blank row: `vec![Cell::BLANK; n]`
        // writes each cell's glyph and style apart (a cell has padding), which
        // would be half of drawing a frame; a copy moves whole words.
        static BLANK_ROW: [Cell; MAX_FRAME_WIDTH as usize] =
            [Cell::BLANK; MAX_FRAME_WIDTH as usize];
        let row = &BLANK_ROW[..usize::from(width)];
        let mut cells = Vec::with_capacity(usize::from(width) * usize::from(height));
        for _ in 0..height {
            cells.extend_from_slice(row);
        }
        Frame {
            width,
            height,
            cells,
        }
    }

    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    pub fn get(&self, x: u16, y: u16) -> Option<Cell> {
        (x < self.width && y < self.height).then(|| self.cells[self.index(x, y)])
    }

    /// Sets a cell; writes outside the frame are dropped (clipping).
    pub fn set(&mut self, x: i32, y: i32, cell: Cell) {
        if x >= 0 && y >= 0 && x < i32::from(self.width) && y < i32::from(self.height) {
            let i = self.index(x as u16, y as u16);
            self.cells[i] = cell;
        }
    }

    /// Row `y`'s cells, to write a run of cells known to lie inside the
    /// frame without a bounds check each. Panics past the last row.
    pub fn row_mut(&mut self, y: u16) -> &mut [Cell] {
        assert!(y < self.height, "row {y} of a frame {} high", self.height);
        let start = self.index(0, y);
        &mut self.cells[start..start + usize::from(self.width)]
    }

    /// Writes text from `(x, y)` rightwards, clipped at the frame's edge.
    /// Returns the column after the last character written. A character a
    /// cell cannot hold in its one column (a wide one, a control, one that
    /// draws as nothing) is written as its escape ([`crate::text::shown`]),
    /// so a row is never wider on a terminal than the frame.
    pub fn put_str(&mut self, x: i32, y: i32, text: &str, style: Style) -> i32 {
        use crate::text::{Place, shown, shows_as_itself};
        let mut col = x;
        // The row found once, not once a character; none above or below
        // the frame.
        let width = usize::from(self.width).max(1);
        let mut row = usize::try_from(y)
            .ok()
            .and_then(|y| self.cells.chunks_exact_mut(width).nth(y));
        let mut put = |glyph: char| {
            if let Some(cell) = (row.as_mut())
                .zip(usize::try_from(col).ok())
                .and_then(|(row, col)| row.get_mut(col))
            {
                *cell = Cell::new(glyph, style);
            }
            col += 1;
        };
        for glyph in text.chars() {
            // Printable ASCII, nearly all the game's text, is asked about
            // here first: the frame is drawn on every eighth key of a
            // sweep, and asking `shows_as_itself` alone costs 0.5% of the
            // replay row's instructions.
            if (' '..='~').contains(&glyph) || shows_as_itself(glyph, Place::Cell) {
                put(glyph);
            } else {
                shown(glyph.encode_utf8(&mut [0; 4]), Place::Cell)
                    .chars()
                    .for_each(&mut put);
            }
        }
        col
    }

    /// Fills a rectangle with one cell.
    pub fn fill(&mut self, x: i32, y: i32, width: i32, height: i32, cell: Cell) {
        let columns = x.max(0)..(x + width).min(i32::from(self.width));
        if columns.is_empty() {
            return;
        }
        for row in y.max(0)..(y + height).min(i32::from(self.height)) {
            let cells = self.row_mut(row as u16);
            cells[columns.start as usize..columns.end as usize].fill(cell);
        }
    }

    /// One row's glyphs, trailing blanks kept.
    pub fn row_text(&self, y: u16) -> String {
        (0..self.width)
            .map(|x| self.cells[self.index(x, y)].glyph)
            .collect()
    }

    /// The frame as text: one line per row, trailing spaces trimmed, joined
    /// with newlines. This is what snapshots store.
    pub fn to_text(&self) -> String {
        // Into one string, each row up to its last glyph that is not
        // whitespace (what `trim_end` keeps): the screen check reads every
        // frame of the oracles' sample as text.
        let mut text = String::with_capacity(self.cells.len() + usize::from(self.height));
        let width = usize::from(self.width);
        for y in 0..usize::from(self.height) {
            if y > 0 {
                text.push('\n');
            }
            let row = &self.cells[y * width..(y + 1) * width];
            let kept = row
                .iter()
                .rposition(|c| !c.glyph.is_whitespace())
                .map_or(0, |last| last + 1);
            text.extend(row[..kept].iter().map(|c| c.glyph));
        }
        text
    }

    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn index(&self, x: u16, y: u16) -> usize {
        usize::from(y) * usize::from(self.width) + usize::from(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_are_clipped_to_the_frame() {
        let mut f = Frame::new(4, 2);
        let end = f.put_str(2, 0, "abcdef", Style::Text);
        assert_eq!(end, 8);
        f.set(-1, 0, Cell::new('x', Style::Text));
        f.set(0, 5, Cell::new('x', Style::Text));
        assert_eq!(f.to_text(), "  ab\n");
    }

    #[test]
    fn text_trims_trailing_blanks_only() {
        let mut f = Frame::new(5, 2);
        f.put_str(1, 1, "a b", Style::Text);
        assert_eq!(f.to_text(), "\n a b");
        assert_eq!(f.row_text(1), " a b ");
    }

    #[test]
    fn a_new_frame_is_blank_and_fills_clip_to_it() {
        for (w, h) in [(0, 0), (1, 1), (80, 24), (MAX_FRAME_WIDTH, 3)] {
            let f = Frame::new(w, h);
            assert_eq!(f.cells().len(), usize::from(w) * usize::from(h));
            assert!(f.cells().iter().all(|&c| c == Cell::BLANK), "{w}x{h}");
        }
        let mut f = Frame::new(5, 3);
        f.fill(-2, 1, 4, 9, Cell::new('#', Style::Border));
        f.fill(4, -1, 3, 2, Cell::new('+', Style::Border));
        f.fill(2, 0, 0, 3, Cell::new('!', Style::Border));
        assert_eq!(f.to_text(), "    +\n##\n##");
        assert_eq!(f.get(0, 1), Some(Cell::new('#', Style::Border)));
    }

    #[test]
    fn text_a_cell_cannot_hold_in_one_column_is_written_escaped() {
        let mut f = Frame::new(24, 1);
        let end = f.put_str(0, 0, "a\t鼠\u{200b}b", Style::Text);
        assert_eq!(f.to_text(), "a\\t\\u{9f20}\\u{200b}b");
        assert_eq!(end, 20);
    }

    #[test]
    fn the_text_is_each_row_trimmed_at_its_end_and_writes_clip() {
        use proptest::prelude::*;
        let glyphs = prop::sample::select(vec![' ', 'a', '#', 'é', '─']);
        let writes = prop::collection::vec(
            (-3i32..12, -2i32..6, prop::collection::vec(glyphs, 0..14)),
            0..8,
        );
        proptest!(|(w in 0u16..10, h in 0u16..5, writes in writes)| {
            let mut f = Frame::new(w, h);
            let mut plain = Frame::new(w, h);
            for (x, y, text) in &writes {
                let text: String = text.iter().collect();
                let end = f.put_str(*x, *y, &text, Style::Text);
                prop_assert_eq!(end, x + text.chars().count() as i32);
                for (i, glyph) in text.chars().enumerate() {
                    plain.set(x + i as i32, *y, Cell::new(glyph, Style::Text));
                }
            }
            prop_assert_eq!(&f, &plain);
            let rows: Vec<String> = (0..h).map(|y| f.row_text(y).trim_end().to_string()).collect();
            prop_assert_eq!(f.to_text(), rows.join("\n"));
        });
    }

    #[test]
    fn sizes_are_bounded() {
        let f = Frame::new(u16::MAX, u16::MAX);
        assert_eq!((f.width(), f.height()), (MAX_FRAME_WIDTH, MAX_FRAME_HEIGHT));
        assert_eq!(f.get(MAX_FRAME_WIDTH, 0), None);
    }
}
