//! The recording viewer's state machine (`deja replay FILE --watch`): which
//! step is shown, whether it plays and how fast, and what the player is
//! typing. Pure: a viewer state and a key give the next state and an
//! action, with no terminal and no game, so it is tested alone. The
//! terminal loop (crate::play::watch) draws the step it names.

use std::time::Duration;

use game_core::Key;
use game_core::keys::{KeyCode, Mods};

use crate::replay::timeline::Marks;

/// Playing speeds, in keys per second.
pub const SPEEDS: [u32; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/// The speed a viewer starts at.
pub const DEFAULT_SPEED: u32 = 10;
/// Steps `L` and `H` move.
pub const BIG_STEP: u64 = 10;
/// Digits a jump may hold (a step or turn is a u64).
const MAX_DIGITS: usize = 20;

/// The viewer's keys, as `?` lists them.
pub const HELP: [(&str, &str); 13] = [
    ("space", "pause / play"),
    ("+ -", "faster / slower"),
    ("l Right", "one key forward"),
    ("h Left", "one key back"),
    ("L H", "ten keys forward / back"),
    ("> <", "next / previous floor"),
    ("g N Enter", "go to step N"),
    ("t N Enter", "go to turn N"),
    ("f", "go to the failure or drift"),
    ("p", "take control here (play on)"),
    ("?", "this help (any key closes)"),
    ("q", "quit"),
    ("Esc", "cancel a jump"),
];

/// What is typed after `g` or `t`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Step(String),
    Turn(String),
}

/// What the loop should do after a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Draw the (possibly new) step.
    Show,
    Quit,
    /// Take control of the run at this step.
    TakeControl(u64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewer {
    pub position: u64,
    pub playing: bool,
    /// Keys per second while playing, one of [`SPEEDS`].
    pub speed: u32,
    pub entry: Option<Entry>,
    pub help: bool,
    /// A word for the player about the last key ("this is the last floor"),
    /// cleared by the next key.
    pub notice: Option<String>,
}

impl Viewer {
    /// At the start, playing at `speed` (the nearest of [`SPEEDS`]).
    pub fn new(speed: u32) -> Viewer {
        let speed = *SPEEDS
            .iter()
            .min_by_key(|&&s| s.abs_diff(speed))
            .expect("speeds");
        Viewer {
            position: 0,
            playing: true,
            speed,
            entry: None,
            help: false,
            notice: None,
        }
    }

    /// The time between two steps while playing.
    pub fn interval(&self) -> Duration {
        Duration::from_micros(1_000_000 / u64::from(self.speed))
    }

    /// One step of playing; stops at the last step.
    pub fn tick(&mut self, marks: &Marks) {
        if !self.playing {
            return;
        }
        if self.position < marks.last {
            self.position += 1;
        }
        if self.position >= marks.last {
            self.playing = false;
        }
    }

    /// Handles one key.
    pub fn key(&mut self, key: Key, marks: &Marks) -> Action {
        self.notice = None;
        if key == Key::with_mods(KeyCode::Char('c'), Mods::CTRL) {
            return Action::Quit;
        }
        if self.help {
            self.help = false;
            return if key == Key::char('q') {
                Action::Quit
            } else {
                Action::Show
            };
        }
        if self.entry.is_some() {
            self.type_into_entry(key, marks);
            return Action::Show;
        }
        let Key { code, mods } = key;
        let shift = mods == Mods::SHIFT;
        match code {
            KeyCode::Char(' ') => self.pause_or_play(marks),
            KeyCode::Char('+' | '=') => self.faster(),
            KeyCode::Char('-' | '_') => self.slower(),
            KeyCode::Char('l') => self.go(self.position.saturating_add(1), marks),
            KeyCode::Right if mods.is_empty() => self.go(self.position.saturating_add(1), marks),
            KeyCode::Char('h') => self.go(self.position.saturating_sub(1), marks),
            KeyCode::Left if mods.is_empty() => self.go(self.position.saturating_sub(1), marks),
            KeyCode::Char('L') => self.go(self.position.saturating_add(BIG_STEP), marks),
            KeyCode::Right if shift => self.go(self.position.saturating_add(BIG_STEP), marks),
            KeyCode::Char('H') => self.go(self.position.saturating_sub(BIG_STEP), marks),
            KeyCode::Left if shift => self.go(self.position.saturating_sub(BIG_STEP), marks),
            KeyCode::Char('>') => self.next_floor(marks),
            KeyCode::Char('<') => self.previous_floor(marks),
            KeyCode::Char('g') => self.entry = Some(Entry::Step(String::new())),
            KeyCode::Char('t') => self.entry = Some(Entry::Turn(String::new())),
            KeyCode::Char('f') => self.go_to_event(marks),
            KeyCode::Char('p') => return self.take_control(marks),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') => return Action::Quit,
            KeyCode::Esc => {}
            _ => self.notice = Some(format!("{key} does nothing here; ? lists the keys")),
        }
        Action::Show
    }

    /// Space: pauses, or plays on unless at the last step.
    fn pause_or_play(&mut self, marks: &Marks) {
        if self.playing {
            self.playing = false;
        } else if self.position >= marks.last {
            self.notice = Some("at the last step".into());
        } else {
            self.playing = true;
        }
    }

    /// `+`: the next of [`SPEEDS`], up to the fastest.
    fn faster(&mut self) {
        let i = SPEEDS.iter().position(|&s| s == self.speed).unwrap_or(0);
        self.speed = SPEEDS[(i + 1).min(SPEEDS.len() - 1)];
    }

    /// `-`: the one before in [`SPEEDS`], down to the slowest.
    fn slower(&mut self) {
        let i = SPEEDS.iter().position(|&s| s == self.speed).unwrap_or(0);
        self.speed = SPEEDS[i.saturating_sub(1)];
    }

    /// `f`: the step the failure or drift shows at.
    fn go_to_event(&mut self, marks: &Marks) {
        match &marks.event {
            Some((step, _)) => self.go(*step, marks),
            None => self.notice = Some("no failure or drift: the replay matches".into()),
        }
    }

    /// `p`: control taken at the step shown, while the recording still
    /// matches there; else a notice of why not.
    fn take_control(&mut self, marks: &Marks) -> Action {
        match marks.take_over_limit {
            Some(limit) if self.position <= limit => Action::TakeControl(self.position),
            Some(limit) => {
                self.notice = Some(format!(
                    "control can be taken up to step {limit}, before the recording stops matching"
                ));
                Action::Show
            }
            None => {
                self.notice = Some("the recording does not match from its start".into());
                Action::Show
            }
        }
    }

    /// A key while a step or turn is being typed: digits, Backspace, Enter
    /// to jump, Esc to drop it; any other key cancels it with a notice.
    fn type_into_entry(&mut self, key: Key, marks: &Marks) {
        let Some(entry) = &mut self.entry else {
            return;
        };
        let text = match entry {
            Entry::Step(t) | Entry::Turn(t) => t,
        };
        match key.code {
            KeyCode::Char(c) if c.is_ascii_digit() && key.mods.is_empty() => {
                if text.len() < MAX_DIGITS {
                    text.push(c);
                }
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Enter => {
                let entry = self.entry.take().expect("an entry");
                self.jump(entry, marks);
            }
            KeyCode::Esc => self.entry = None,
            _ => {
                self.entry = None;
                self.notice = Some("jump cancelled: type digits, then Enter".into());
            }
        }
    }

    /// `>`: the first step on the next floor.
    fn next_floor(&mut self, marks: &Marks) {
        let i = self.floor_index(marks);
        match marks.floors.get(i + 1) {
            Some(&step) => self.go(step, marks),
            None => self.notice = Some("this is the last floor".into()),
        }
    }

    /// `<`: the first step on the floor before, or the start.
    fn previous_floor(&mut self, marks: &Marks) {
        let i = self.floor_index(marks);
        match i.checked_sub(1) {
            Some(prev) => self.go(marks.floors[prev], marks),
            None => {
                self.go(0, marks);
                self.notice = Some("this is the first floor".into());
            }
        }
    }

    /// Goes to `step` (clamped to the recording), pausing.
    fn go(&mut self, step: u64, marks: &Marks) {
        self.playing = false;
        self.position = step.min(marks.last);
    }

    fn jump(&mut self, entry: Entry, marks: &Marks) {
        let (text, is_turn) = match &entry {
            Entry::Step(t) => (t, false),
            Entry::Turn(t) => (t, true),
        };
        let Ok(n) = text.parse::<u64>() else {
            self.notice = Some("type a number, then Enter".into());
            return;
        };
        if is_turn {
            self.go(marks.step_of_turn(n), marks);
        } else {
            if n > marks.last {
                self.notice = Some(format!("the last step is {}", marks.last));
            }
            self.go(n, marks);
        }
    }

    /// Which of `marks.floors` the position is on.
    fn floor_index(&self, marks: &Marks) -> usize {
        marks
            .floors
            .partition_point(|&s| s <= self.position)
            .saturating_sub(1)
    }

    /// What the status line says while typing a jump, if typing.
    pub fn entry_prompt(&self) -> Option<String> {
        self.entry.as_ref().map(|e| match e {
            Entry::Step(t) => format!("go to step: {t}_  (Enter: go, Esc: cancel)"),
            Entry::Turn(t) => format!("go to turn: {t}_  (Enter: go, Esc: cancel)"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 60 steps: floor 2 from step 20, floor 3 from step 45; a turn every
    /// other step; a drift at 50.
    fn marks() -> Marks {
        Marks {
            last: 60,
            floors: vec![0, 20, 45],
            turns: (0..=60).map(|s| s / 2).collect(),
            event: Some((50, "drift at 50 (state hash)".into())),
            take_over_limit: Some(49),
        }
    }

    fn press(viewer: &mut Viewer, keys: &str) -> Action {
        let marks = marks();
        let mut last = Action::Show;
        for key in Key::parse_all(keys).expect("notation") {
            last = viewer.key(key, &marks);
        }
        last
    }

    #[test]
    fn space_pauses_and_resumes_and_playing_stops_at_the_end() {
        let marks = marks();
        let mut viewer = Viewer::new(10);
        assert!(viewer.playing);
        press(&mut viewer, "<Space>");
        assert!(!viewer.playing);
        viewer.tick(&marks);
        assert_eq!(viewer.position, 0, "paused: no step");
        press(&mut viewer, "<Space>");
        for _ in 0..100 {
            viewer.tick(&marks);
        }
        assert_eq!(viewer.position, 60);
        assert!(!viewer.playing);
        press(&mut viewer, "<Space>");
        assert!(!viewer.playing, "nothing left to play");
        assert_eq!(viewer.notice.as_deref(), Some("at the last step"));
    }

    #[test]
    fn speed_moves_through_the_table_and_stops_at_its_ends() {
        let mut viewer = Viewer::new(10);
        press(&mut viewer, "+");
        assert_eq!(viewer.speed, 20);
        assert_eq!(viewer.interval(), Duration::from_millis(50));
        press(&mut viewer, "----------");
        assert_eq!(viewer.speed, 1);
        press(&mut viewer, &"+".repeat(30));
        assert_eq!(viewer.speed, 1000);
    }

    #[test]
    fn stepping_moves_one_or_ten_and_stays_in_the_recording() {
        let mut viewer = Viewer::new(10);
        press(&mut viewer, "llL<Right>");
        assert_eq!(viewer.position, 13);
        assert!(!viewer.playing, "stepping pauses");
        press(&mut viewer, "h<Left>H");
        assert_eq!(viewer.position, 1);
        press(&mut viewer, "HH");
        assert_eq!(viewer.position, 0);
        press(&mut viewer, &"L".repeat(10));
        assert_eq!(viewer.position, 60);
        press(&mut viewer, "<S-Left>");
        assert_eq!(viewer.position, 50);
    }

    #[test]
    fn floors_jump_to_where_each_floor_was_entered() {
        let mut viewer = Viewer::new(10);
        press(&mut viewer, ">");
        assert_eq!(viewer.position, 20);
        press(&mut viewer, ">");
        assert_eq!(viewer.position, 45);
        press(&mut viewer, ">");
        assert_eq!(viewer.position, 45);
        assert_eq!(viewer.notice.as_deref(), Some("this is the last floor"));
        press(&mut viewer, "lll<lt>");
        assert_eq!(viewer.position, 20, "back to the floor before");
        press(&mut viewer, "<lt><lt>");
        assert_eq!(viewer.position, 0);
    }

    #[test]
    fn g_and_t_jump_to_a_step_and_a_turn() {
        let mut viewer = Viewer::new(10);
        press(&mut viewer, "g3");
        assert_eq!(
            viewer.entry_prompt().as_deref(),
            Some("go to step: 3_  (Enter: go, Esc: cancel)")
        );
        press(&mut viewer, "7<Enter>");
        assert_eq!(viewer.position, 37);
        assert_eq!(viewer.entry, None);
        press(&mut viewer, "t12<Enter>");
        assert_eq!(viewer.position, 24, "the first step at turn 12");
        press(&mut viewer, "g99<BS><Enter>");
        assert_eq!(viewer.position, 9);
        press(&mut viewer, "g500<Enter>");
        assert_eq!(viewer.position, 60);
        assert_eq!(viewer.notice.as_deref(), Some("the last step is 60"));
        press(&mut viewer, "g12<Esc>");
        assert_eq!(viewer.position, 60, "Esc cancels");
        press(&mut viewer, "t<Enter>");
        assert_eq!(viewer.notice.as_deref(), Some("type a number, then Enter"));
    }

    #[test]
    fn f_jumps_to_the_failure_or_drift_and_p_takes_control_only_before_it() {
        let mut viewer = Viewer::new(10);
        press(&mut viewer, "f");
        assert_eq!(viewer.position, 50);
        assert_eq!(press(&mut viewer, "p"), Action::Show);
        assert!(viewer.notice.as_deref().unwrap().contains("up to step 49"));
        assert_eq!(press(&mut viewer, "h"), Action::Show);
        assert_eq!(press(&mut viewer, "p"), Action::TakeControl(49));

        let mut clean = Viewer::new(10);
        let same = Marks {
            event: None,
            take_over_limit: Some(60),
            ..marks()
        };
        clean.key(Key::char('f'), &same);
        assert_eq!(clean.position, 0);
        assert!(clean.notice.as_deref().unwrap().contains("no failure"));
    }

    #[test]
    fn help_opens_and_any_key_closes_it_and_q_quits() {
        let mut viewer = Viewer::new(10);
        press(&mut viewer, "?");
        assert!(viewer.help);
        assert_eq!(press(&mut viewer, "l"), Action::Show);
        assert!(!viewer.help);
        assert_eq!(viewer.position, 0, "the closing key does nothing else");
        assert_eq!(press(&mut viewer, "q"), Action::Quit);
        assert_eq!(press(&mut viewer, "<C-c>"), Action::Quit);
        press(&mut viewer, "x");
        assert!(
            viewer
                .notice
                .as_deref()
                .unwrap()
                .contains("? lists the keys")
        );
    }
}
