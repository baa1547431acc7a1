//! Conditions on the game state, for `deja when`: `player.hp <= 5`,
//! `depth == 3`, `monsters[kind=orc].awake`, `player.statuses.poison`.
//!
//! A condition names the field paths `deja diff` and `deja show --state`
//! print (the tree of [`crate::inspect::state_view`]), so what a person reads in one
//! they can ask about in the other. It is checked against
//! [`state_view::FIELDS`] when it is read, so a misspelt field (in a path
//! or in a pick, `monsters[kind=orc]`) or a comparison of a place with a
//! number is refused once, naming its column, rather than silently never
//! holding.
//!
//! The syntax is in [`SYNTAX`], which `deja when --help` prints.

use std::collections::BTreeSet;
use std::fmt;

use game_core::content::Content;
use game_core::game::state::GameState;
use game_core::geom::Pos;

use crate::inspect::state_view::{self, Entity, FIELDS, Kind, Node, Value};

/// `deja when`'s examples, in both its helps.
const EXAMPLES: &str = "\
Examples:
  deja when run.ron 'player.hp <= 5'           the first step you are down to 5
  deja when run.ron 'player.statuses.poison'   the bite that poisoned you
  deja when run.ron 'depth == 3' --all         every step depth 3 is entered

Exit 0 when the condition comes to hold, 3 when it never does.";

/// `deja when -h`: the examples, and where the syntax is.
pub fn short_help() -> String {
    format!("{EXAMPLES}\n--help says the condition syntax.")
}

/// `deja when --help`: the examples, the condition syntax and every field.
pub fn long_help() -> String {
    let fields: Vec<String> = FIELDS
        .iter()
        .map(|(path, _)| path.replace("[]", "[..]"))
        .collect();
    let fields = game_core::game::wrap(&fields.join(" "), 78).join("\n  ");
    format!("{EXAMPLES}\n\n{SYNTAX}\nEvery field:\n  {fields}")
}

/// The condition syntax.
pub const SYNTAX: &str = "\
Conditions:
  FIELD                 holds when the field is true, a number other than 0,
                        text, a place, a set with a tile in it, or a group
                        that is there (player.statuses.poison: while poisoned)
  FIELD OP VALUE        OP is == != < <= > >= or ~ (text contains, any case)
  A && B, A || B, !A    also `and`, `or`, `not`; ( ) to group
  VALUE                 a whole number (-9223372036854775808 to
                        18446744073709551615), true or false, none, a word
                        (orc), a \"quoted text\", or a place (x, y)
Fields are the paths `deja diff` and `deja show --state` print: player.hp,
player.pos, player.statuses.poison, player.statuses.confused, depth, status,
monsters[..].kind, monsters[..].hp, monsters[..].awake, items[..].kind,
clock.turn, map.visible, screen, messages.last and the rest (listed below).
A list's entries are picked in brackets: monsters[3] (by index), monsters[#12]
(by id), player.pack[c] (by letter), monsters[kind=orc] (by a field, whose
value is written as after ==: [kind=\"cave spider\"], [pos=(3, 4)]),
monsters[*] (any); with none, any entry will do (monsters.awake: some monster
is awake). LIST.count is how many entries the list has. Where several entries
match, the condition holds when one of them does. A set of tiles compares by
its count (map.visible > 100).
A path that reaches nothing is none: monsters[#12] == none once monster 12 is
gone, monsters[kind=orc] == none while there is no orc,
player.statuses.poison.rounds == none while not poisoned. none is == only to
none, and < <= > >= ~ never hold of it.
A condition is at most 100,000 characters long, and parentheses and !
(not) nest at most 100 deep; && and || join any number of conditions.
More conditions:
  'monsters[kind=orc].awake'   'monsters.count == 0'   'player.pos == (12, 7)'
  'messages.last ~ \"bites\"'   'player.hp < 5 && !player.statuses.poison'";

/// A condition that does not read, or names what is not there: where and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionError {
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ConditionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

/// A condition, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    expr: Expr,
    /// The roots of the state tree it reads, so a step builds only those.
    roots: Vec<&'static str>,
}

/// How deep parentheses and `!` (or `not`) may nest, counted together.
/// Chains of `&&` and `||` are flat lists however long, so this and
/// [`MAX_LENGTH`] bound the recursion of reading, evaluating and dropping a
/// condition.
pub const MAX_NESTING: usize = 100;

/// The most characters a condition may have: reading and evaluating it
/// take time in proportion. (Linux passes at most 128 KiB in one argument.)
pub const MAX_LENGTH: usize = 100_000;

#[derive(Clone, Debug, PartialEq)]
enum Expr {
    /// `A || B || ...`: holds when one of them does.
    Any(Vec<Expr>),
    /// `A && B && ...`: holds when every one does.
    All(Vec<Expr>),
    Not(Box<Expr>),
    Test {
        path: Path,
        compare: Option<(Op, Literal)>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// As written, for reports.
    pub text: String,
    segments: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq)]
struct Segment {
    name: String,
    select: Option<Select>,
}

#[derive(Clone, Debug, PartialEq)]
enum Select {
    /// `[*]`
    Any,
    /// `[3]` or `[c]`: what the entry's path shows between its brackets.
    Shown(String),
    /// `[#12]`, written from `at` (a character index).
    Id { id: u32, at: usize },
    /// `[kind=orc]`: the entries whose field is == to the value. `at` and
    /// `value_at` are where the field's name and the value are written.
    Field {
        name: String,
        at: usize,
        value: Literal,
        value_at: usize,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Contains,
}

#[derive(Clone, Debug, PartialEq)]
enum Literal {
    Number(i128),
    Flag(bool),
    Text(String),
    Place(Pos),
    None,
}

impl Condition {
    /// Reads and checks a condition.
    pub fn parse(text: &str) -> Result<Condition, ConditionError> {
        if text.chars().nth(MAX_LENGTH).is_some() {
            return Err(ConditionError {
                column: MAX_LENGTH + 1,
                message: format!(
                    "the condition is longer than {MAX_LENGTH} characters, the most `when` reads"
                ),
            });
        }
        let mut parser = Parser {
            chars: text.chars().collect(),
            at: 0,
            open: 0,
        };
        parser.skip_space();
        if parser.peek().is_none() {
            return Err(parser.error("the condition is empty; try `player.hp <= 5`"));
        }
        let expr = parser.or()?;
        parser.skip_space();
        if parser.peek() == Some('=') {
            return Err(parser.error("`=` on its own; write == for equal"));
        }
        if let Some(c) = parser.peek() {
            return Err(parser.error(format!(
                "`{c}` after a whole condition; join conditions with && or ||"
            )));
        }
        let mut roots = Vec::new();
        collect_roots(&expr, &mut roots);
        Ok(Condition { expr, roots })
    }

    /// Whether it holds of `state`.
    pub fn holds(&self, state: &GameState, content: &Content) -> bool {
        let roots = self.roots_of(state, content);
        eval(&self.expr, &roots)
    }

    /// The fields it reads, each as written, with what it reaches in
    /// `state` in words: one value, or one for each list entry it passes
    /// through, named (`cave spider #3`). For saying what changed when it
    /// came to hold.
    pub fn readings(&self, state: &GameState, content: &Content) -> Vec<Reading> {
        let roots = self.roots_of(state, content);
        let mut paths = Vec::new();
        collect_paths(&self.expr, &mut paths, &mut BTreeSet::new());
        paths
            .into_iter()
            .map(|path| Reading {
                path: path.text.clone(),
                values: resolve(path, &roots)
                    .iter()
                    // Nothing at all reads as no values, which `text` says
                    // as none; absent under an entry is that entry's none.
                    .filter(|(entry, reached)| {
                        entry.is_some() || !matches!(reached, Reached::Absent)
                    })
                    .map(|(entry, reached)| (entry.map(str::to_string), reached.summary()))
                    .collect(),
            })
            .collect()
    }

    fn roots_of(&self, state: &GameState, content: &Content) -> Vec<(&'static str, Node)> {
        self.roots
            .iter()
            .filter_map(|name| Some((*name, state_view::root(state, content, name)?)))
            .collect()
    }
}

fn collect_roots(expr: &Expr, roots: &mut Vec<&'static str>) {
    match expr {
        Expr::Any(terms) | Expr::All(terms) => {
            for term in terms {
                collect_roots(term, roots);
            }
        }
        Expr::Not(a) => collect_roots(a, roots),
        Expr::Test { path, .. } => {
            let root = state_view::ROOTS
                .iter()
                .map(|(name, _)| *name)
                .find(|name| *name == path.segments[0].name)
                .expect("a checked path starts at a root");
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
    }
}

/// The paths `expr` reads, each once, in the order written; `seen` holds
/// their texts, so a chain of thousands of terms is not searched for each.
fn collect_paths<'a>(expr: &'a Expr, paths: &mut Vec<&'a Path>, seen: &mut BTreeSet<&'a str>) {
    match expr {
        Expr::Any(terms) | Expr::All(terms) => {
            for term in terms {
                collect_paths(term, paths, seen);
            }
        }
        Expr::Not(a) => collect_paths(a, paths, seen),
        Expr::Test { path, .. } => {
            if seen.insert(path.text.as_str()) {
                paths.push(path);
            }
        }
    }
}

/// What one field of a condition reads in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The path as the condition writes it.
    pub path: String,
    /// Each value reached, with the name of the list entry it belongs to
    /// where the path goes through a list.
    pub values: Vec<(Option<String>, String)>,
}

impl Reading {
    /// The values in words: `29`, `cave spider #3 false, rat #4 true`.
    pub fn text(&self) -> String {
        if self.values.is_empty() {
            return "none".into();
        }
        self.values
            .iter()
            .map(|(entry, value)| match entry {
                Some(entry) => format!("{entry} {value}"),
                None => value.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What changed from `before` to this, in words: `6 -> 5`, or for a
    /// list, only the entries whose value changed (`cave spider #3 false
    /// -> true`); `None` when nothing did.
    pub fn change_from(&self, before: &Reading) -> Option<String> {
        if self.values == before.values {
            return None;
        }
        let listed = self
            .values
            .iter()
            .chain(&before.values)
            .any(|(e, _)| e.is_some());
        if !listed {
            return Some(format!("{} -> {}", before.text(), self.text()));
        }
        let mut changes = Vec::new();
        for (entry, now) in &self.values {
            match before.values.iter().find(|(e, _)| e == entry) {
                Some((_, was)) if was == now => {}
                Some((_, was)) => changes.push(format!("{} {was} -> {now}", name(entry))),
                None => changes.push(format!("{} (absent) -> {now}", name(entry))),
            }
        }
        for (entry, was) in &before.values {
            if !self.values.iter().any(|(e, _)| e == entry) {
                changes.push(format!("{} {was} -> (gone)", name(entry)));
            }
        }
        Some(changes.join(", "))
    }
}

fn name(entry: &Option<String>) -> &str {
    entry.as_deref().unwrap_or("")
}

/// What a path reaches in a tree.
enum Reached<'a> {
    Node(&'a Node),
    Entity(&'a Entity),
    Count(usize),
    /// Nothing: a field under a group that is none (the rounds of no
    /// poison), or a pick no entry matches. It reads as none.
    Absent,
}

impl Reached<'_> {
    fn summary(&self) -> String {
        match self {
            Reached::Node(node) => state_view::summary(node),
            // The entry's name goes beside its value (`Reading::values`),
            // so the value is its fields alone.
            Reached::Entity(entity) => state_view::summary(&Node::Group(entity.fields.clone())),
            Reached::Count(n) => n.to_string(),
            Reached::Absent => Value::None.to_string(),
        }
    }

    fn truthy(&self) -> bool {
        match self {
            Reached::Node(Node::Leaf(value)) => value.truthy(),
            Reached::Node(Node::Group(_)) | Reached::Entity(_) => true,
            Reached::Node(Node::List(entities)) => !entities.is_empty(),
            Reached::Count(n) => *n > 0,
            Reached::Absent => false,
        }
    }
}

fn eval(expr: &Expr, roots: &[(&'static str, Node)]) -> bool {
    match expr {
        Expr::Any(terms) => terms.iter().any(|term| eval(term, roots)),
        Expr::All(terms) => terms.iter().all(|term| eval(term, roots)),
        Expr::Not(a) => !eval(a, roots),
        Expr::Test { path, compare } => {
            let found = resolve(path, roots);
            match compare {
                None => found.iter().any(|(_, r)| r.truthy()),
                Some((op, literal)) => found.iter().any(|(_, r)| compares(r, *op, literal)),
            }
        }
    }
}

fn compares(reached: &Reached, op: Op, literal: &Literal) -> bool {
    let value = match reached {
        Reached::Node(Node::Leaf(value)) => value.clone(),
        Reached::Count(n) => Value::Number(*n as i128),
        Reached::Node(Node::List(entities)) if entities.is_empty() => Value::None,
        Reached::Absent => Value::None,
        // Groups and entries are compared only with none (checked when read).
        _ => {
            return op != Op::Eq;
        }
    };
    let order = |a: i128, b: i128| match op {
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
        Op::Contains => false,
    };
    match (&value, literal) {
        (Value::None, Literal::None) => op == Op::Eq,
        (_, Literal::None) | (Value::None, _) => op == Op::Ne,
        (Value::Number(n), Literal::Number(m)) => order(*n, *m),
        (Value::Tiles { cells, .. }, Literal::Number(m)) => order(cells.len() as i128, *m),
        (Value::Flag(a), Literal::Flag(b)) => (a == b) == (op == Op::Eq),
        (Value::Place(a), Literal::Place(b)) => (a == b) == (op == Op::Eq),
        (Value::Text(a), Literal::Text(b)) => {
            let (a, b) = (a.to_lowercase(), b.to_lowercase());
            match op {
                Op::Eq => a == b,
                Op::Ne => a != b,
                Op::Contains => a.contains(&b),
                _ => false,
            }
        }
        _ => false,
    }
}

/// What `path` reaches in `roots`, each with the name of the last list
/// entry on its way (none outside lists): at least one thing, which is
/// [`Reached::Absent`] where the path reaches nothing.
fn resolve<'a>(
    path: &Path,
    roots: &'a [(&'static str, Node)],
) -> Vec<(Option<&'a str>, Reached<'a>)> {
    let root = roots
        .iter()
        .find(|(name, _)| *name == path.segments[0].name)
        .map_or(Reached::Absent, |(_, root)| Reached::Node(root));
    let mut here = vec![(None, root)];
    for (i, segment) in path.segments.iter().enumerate() {
        if i > 0 {
            here = step_into(here, &segment.name);
        }
        if let Some(select) = &segment.select {
            here = pick(here, select);
        }
    }
    here
}

/// The entries of each list in `here` that `select` picks; absent for a
/// list where it picks none.
fn pick<'a>(
    here: Vec<(Option<&'a str>, Reached<'a>)>,
    select: &Select,
) -> Vec<(Option<&'a str>, Reached<'a>)> {
    here.into_iter()
        .flat_map(|(entry, r)| {
            let picked: Vec<_> = match r {
                Reached::Node(Node::List(entities)) => entities
                    .iter()
                    .filter(|e| selects(select, e))
                    .map(|e| (Some(e.name.as_str()), Reached::Entity(e)))
                    .collect(),
                _ => Vec::new(),
            };
            if picked.is_empty() {
                vec![(entry, Reached::Absent)]
            } else {
                picked
            }
        })
        .collect()
}

/// The field `name` of each thing in `here`: absent under what is absent
/// or none, and for a list without brackets, each entry's.
fn step_into<'a>(
    here: Vec<(Option<&'a str>, Reached<'a>)>,
    name: &str,
) -> Vec<(Option<&'a str>, Reached<'a>)> {
    let field = |fields: &'a [(&'static str, Node)]| {
        fields
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Reached::Absent, |(_, node)| Reached::Node(node))
    };
    here.into_iter()
        .flat_map(|(entry, r)| match r {
            Reached::Node(Node::Group(fields)) => vec![(entry, field(fields))],
            Reached::Entity(entity) => vec![(entry, field(&entity.fields))],
            Reached::Node(Node::List(entities)) if name == "count" => {
                vec![(entry, Reached::Count(entities.len()))]
            }
            Reached::Node(Node::List(entities)) if entities.is_empty() => {
                vec![(entry, Reached::Absent)]
            }
            // A list without brackets: any of its entries.
            Reached::Node(Node::List(entities)) => entities
                .iter()
                .map(|e| (Some(e.name.as_str()), field(&e.fields)))
                .collect(),
            _ => vec![(entry, Reached::Absent)],
        })
        .collect()
}

fn selects(select: &Select, entity: &Entity) -> bool {
    let field = |name: &str| {
        entity
            .fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, node)| node)
    };
    match select {
        Select::Any => true,
        Select::Shown(shown) => entity.shown == *shown,
        Select::Id { id, .. } => field("id") == Some(&Node::Leaf(Value::Number(i128::from(*id)))),
        Select::Field {
            name,
            value: wanted,
            ..
        } => match field(name) {
            Some(node) => compares(&Reached::Node(node), Op::Eq, wanted),
            None => false,
        },
    }
}

/// What a path names, by [`FIELDS`].
enum Named {
    Leaf(Kind),
    /// Fields under it (a group, or an optional group like poison).
    Group,
    /// A list's entries; `.count` counts them.
    List,
    Count,
}

/// `monsters[kind=orc].hp` as FIELDS writes it: `monsters[].hp`.
fn pattern(segments: &[Segment], lists: &[bool]) -> String {
    segments
        .iter()
        .zip(lists)
        .map(|(s, list)| {
            if *list {
                format!("{}[]", s.name)
            } else {
                s.name.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn is_list(prefix: &str) -> bool {
    let list = format!("{prefix}[]");
    FIELDS.iter().any(|(p, _)| p.starts_with(&list))
}

/// Which segments of a path are lists, decided from the left; or why one
/// with a pick is not.
fn lists_of(segments: &[Segment]) -> Result<Vec<bool>, String> {
    let mut lists = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let prefix = pattern(&segments[..i], &lists);
        let here = if prefix.is_empty() {
            segment.name.clone()
        } else {
            format!("{prefix}.{}", segment.name)
        };
        let list = is_list(&here);
        if segment.select.is_some() && !list {
            return Err(format!(
                "`{}` is not a list, so it takes no [ ]",
                segment.name
            ));
        }
        lists.push(list);
    }
    Ok(lists)
}

/// What a path names, or why it names nothing.
fn name_of(segments: &[Segment]) -> Result<Named, String> {
    let lists = lists_of(segments)?;
    // `monsters.count` counts the list; after a pick (`items[*].count`)
    // `count` is the entry's own field, if it has one.
    let last = segments.len() - 1;
    if segments[last].name == "count"
        && last > 0
        && lists[last - 1]
        && segments[last - 1].select.is_none()
    {
        return Ok(Named::Count);
    }
    let whole = pattern(segments, &lists);
    if let Some((_, kind)) = FIELDS.iter().find(|(p, _)| *p == whole) {
        return Ok(Named::Leaf(*kind));
    }
    if lists.last() == Some(&true) && segments.last().is_some_and(|s| s.select.is_some()) {
        return Ok(Named::Group);
    }
    if *lists.last().unwrap_or(&false) {
        return Ok(Named::List);
    }
    let under = format!("{whole}.");
    if FIELDS.iter().any(|(p, _)| p.starts_with(&under)) {
        return Ok(Named::Group);
    }
    // Say what is there at the deepest place the path got right.
    let mut known = whole.as_str();
    let mut fields = Vec::new();
    while fields.is_empty() {
        known = match known.rfind('.') {
            Some(dot) => &known[..dot],
            None => "",
        };
        let inside = if known.is_empty() {
            String::new()
        } else if is_list(known.trim_end_matches("[]")) && !known.ends_with("[]") {
            format!("{known}[].")
        } else {
            format!("{known}.")
        };
        for (p, _) in FIELDS {
            if let Some(rest) = p.strip_prefix(inside.as_str()) {
                let next = rest.split(['.', '[']).next().unwrap_or(rest);
                if !fields.contains(&next) {
                    fields.push(next);
                }
            }
        }
        if known.is_empty() {
            break;
        }
    }
    let place = if known.is_empty() {
        "the state".to_string()
    } else {
        format!("`{}`", known.replace("[]", "[..]"))
    };
    Err(format!(
        "no field `{}`; {place} has: {}",
        whole.replace("[]", "[..]"),
        fields.join(", ")
    ))
}

/// Checks each pick of a path that names a field (`[kind=orc]`, and
/// `[#12]`, which picks by `id`): a field the list's entries have, holding
/// a value that can be == to the one written. On refusal, the character
/// index at fault and why. `chars` is the condition.
fn check_picks(segments: &[Segment], chars: &[char]) -> Result<(), (usize, String)> {
    for (i, segment) in segments.iter().enumerate() {
        let (name, at, value) = match &segment.select {
            Some(Select::Field {
                name,
                at,
                value,
                value_at,
            }) => (name.as_str(), *at, Some((value, *value_at))),
            Some(Select::Id { at, .. }) => ("id", *at, None),
            _ => continue,
        };
        let mut picked = segments[..=i].to_vec();
        picked.push(Segment {
            name: name.to_string(),
            select: None,
        });
        let lists = lists_of(&picked).map_err(|m| (at, m))?;
        let field = pattern(&picked, &lists).replace("[]", "[..]");
        match (name_of(&picked), value) {
            (Ok(named @ Named::Leaf(_)), Some((value, value_at))) => {
                check_comparison(&field, &named, Op::Eq, value, &written_at(chars, value_at))
                    .map_err(|(_, m)| (value_at, m))?;
            }
            (Ok(Named::Leaf(_)), None) => {}
            (Ok(_), _) => {
                return Err((
                    at,
                    format!("`{field}` is a group of fields; pick by a field with a value"),
                ));
            }
            (Err(m), Some(_)) => return Err((at, m)),
            (Err(_), None) => {
                let list = pattern(&segments[..=i], &lists[..=i]).replace("[]", "[..]");
                return Err((
                    at,
                    format!("`{list}` has no id; pick by index ([3]) or by a field ([kind=dart])"),
                ));
            }
        }
    }
    Ok(())
}

/// The value written at `at` in `chars`, as far as a person would take it
/// for one: a place to its `)`, anything else to the next space, operator,
/// parenthesis, bracket or quote (`80x40` where the reader took `80`).
fn written_at(chars: &[char], at: usize) -> String {
    let rest = chars.get(at..).unwrap_or_default();
    let len = if rest.first() == Some(&'(') {
        rest.iter()
            .position(|&c| c == ')')
            .map_or(rest.len(), |i| i + 1)
    } else {
        rest.iter()
            .position(|&c| c.is_whitespace() || "=!<>~&|()[]\"".contains(c))
            .unwrap_or(rest.len())
    };
    rest[..len].iter().collect()
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    /// The parentheses and `!` open where the parser is.
    open: usize,
}

impl Parser {
    fn error(&self, message: impl Into<String>) -> ConditionError {
        self.error_at(self.at, message)
    }

    fn error_at(&self, at: usize, message: impl Into<String>) -> ConditionError {
        ConditionError {
            column: at + 1,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// Takes `text` if it comes next (after spaces).
    fn eat(&mut self, text: &str) -> bool {
        self.skip_space();
        let want: Vec<char> = text.chars().collect();
        if self.chars[self.at..].starts_with(&want) {
            // A word must end where it ends: `order` is not `or`.
            let word = want.iter().all(|c| c.is_alphabetic());
            let next = self.chars.get(self.at + want.len());
            if word && next.is_some_and(|c| c.is_alphanumeric() || *c == '_') {
                return false;
            }
            self.at += want.len();
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<Expr, ConditionError> {
        let mut terms = vec![self.and()?];
        while self.eat("||") || self.eat("or") {
            terms.push(self.and()?);
        }
        Ok(if terms.len() == 1 {
            terms.swap_remove(0)
        } else {
            Expr::Any(terms)
        })
    }

    fn and(&mut self) -> Result<Expr, ConditionError> {
        let mut terms = vec![self.unary()?];
        while self.eat("&&") || self.eat("and") {
            terms.push(self.unary()?);
        }
        Ok(if terms.len() == 1 {
            terms.swap_remove(0)
        } else {
            Expr::All(terms)
        })
    }

    fn unary(&mut self) -> Result<Expr, ConditionError> {
        self.skip_space();
        let at = self.at;
        if self.eat("!") || self.eat("not") {
            self.enter(at)?;
            let inner = self.unary()?;
            self.open -= 1;
            return Ok(Expr::Not(Box::new(inner)));
        }
        if self.eat("(") {
            self.enter(at)?;
            let inner = self.or()?;
            if !self.eat(")") {
                return Err(self.error("expected `)` to close the `(`"));
            }
            self.open -= 1;
            return Ok(inner);
        }
        self.test()
    }

    /// Opens the `(` or `!` at `at`, refusing it past [`MAX_NESTING`].
    fn enter(&mut self, at: usize) -> Result<(), ConditionError> {
        if self.open == MAX_NESTING {
            return Err(self.error_at(
                at,
                format!(
                    "parentheses and `!` nest more than {MAX_NESTING} deep here, the most a condition may"
                ),
            ));
        }
        self.open += 1;
        Ok(())
    }

    fn test(&mut self) -> Result<Expr, ConditionError> {
        self.skip_space();
        let start = self.at;
        let path = self.path()?;
        let named = name_of(&path.segments).map_err(|m| self.error_at(start, m))?;
        check_picks(&path.segments, &self.chars).map_err(|(at, m)| self.error_at(at, m))?;
        self.skip_space();
        let op_at = self.at;
        let op = [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("<", Op::Lt),
            (">", Op::Gt),
            ("~", Op::Contains),
        ]
        .into_iter()
        .find(|(text, _)| self.eat(text));
        let Some((_, op)) = op else {
            return Ok(Expr::Test {
                path,
                compare: None,
            });
        };
        if self.peek() == Some('=') {
            return Err(self.error("`=` after a comparison; write == for equal"));
        }
        self.skip_space();
        let literal_at = self.at;
        let literal = self.literal()?;
        let written = written_at(&self.chars, literal_at);
        check_comparison(&path.text, &named, op, &literal, &written)
            .map_err(|(on_op, m)| self.error_at(if on_op { op_at } else { literal_at }, m))?;
        Ok(Expr::Test {
            path,
            compare: Some((op, literal)),
        })
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn path(&mut self) -> Result<Path, ConditionError> {
        let start = self.at;
        let mut segments = Vec::new();
        loop {
            if !self.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
                return Err(self.error(match self.peek() {
                    None => "expected a field, such as player.hp, at the end".to_string(),
                    Some(c) => format!("expected a field, such as player.hp, at `{c}`"),
                }));
            }
            let name = self.word();
            let select = if self.peek() == Some('[') {
                Some(self.select()?)
            } else {
                None
            };
            segments.push(Segment { name, select });
            // Refused at its first part that names nothing, a path of
            // thousands of parts costs no more to check than a short one.
            name_of(&segments).map_err(|m| self.error_at(start, m))?;
            if self.peek() == Some('.') {
                self.at += 1;
            } else {
                break;
            }
        }
        Ok(Path {
            text: self.chars[start..self.at].iter().collect(),
            segments,
        })
    }

    /// A pick, from its `[` to its `]`: `[*]`, `[#12]`, `[3]`, `[c]`, or
    /// `[kind=orc]`, whose value reads as a comparison's does.
    fn select(&mut self) -> Result<Select, ConditionError> {
        let open = self.at;
        self.at += 1;
        self.skip_space();
        let at = self.at;
        let select = match self.peek() {
            Some('*') => {
                self.at += 1;
                Select::Any
            }
            Some('#') => {
                self.at += 1;
                self.skip_space();
                let digits = self.digits();
                let id = digits.parse().map_err(|_| {
                    self.error_at(
                        at,
                        format!("`{}` is not a monster id; write [#12]", self.inside(open)),
                    )
                })?;
                Select::Id { id, at }
            }
            Some(c) if c.is_alphanumeric() || c == '_' => {
                let name = self.word();
                if self.eat("=") {
                    self.skip_space();
                    let value_at = self.at;
                    let value = self.literal()?;
                    self.close_pick(open, Some(value_at))?;
                    return Ok(Select::Field {
                        name,
                        at,
                        value,
                        value_at,
                    });
                }
                Select::Shown(name)
            }
            _ => return Err(self.picks_nothing(open)),
        };
        self.close_pick(open, None)?;
        Ok(select)
    }

    /// Takes the `]` that ends the pick opened at `open`. Where a field's
    /// value (at `value_at`) runs on past what a value reads, it is text of
    /// several words, which is quoted as it is after ==.
    fn close_pick(&mut self, open: usize, value_at: Option<usize>) -> Result<(), ConditionError> {
        self.skip_space();
        match self.peek() {
            Some(']') => {
                self.at += 1;
                Ok(())
            }
            None => Err(self.error_at(open, "`[` without its `]`")),
            Some(_) => match value_at {
                Some(value_at) if self.bare_at(value_at) && self.closes(open) => {
                    let inside = self.inside(open);
                    let (field, value) = inside.split_once('=').unwrap_or(("", &inside));
                    Err(self.error_at(
                        value_at,
                        format!(
                            "quote a value of more than a word: [{}=\"{}\"]",
                            field.trim(),
                            value.trim()
                        ),
                    ))
                }
                _ => Err(self.picks_nothing(open)),
            },
        }
    }

    /// Whether a value written at `at` is bare: a word or a number, not
    /// quoted and not a place.
    fn bare_at(&self, at: usize) -> bool {
        self.chars
            .get(at)
            .is_some_and(|&c| c.is_alphanumeric() || c == '_' || c == '-')
    }

    /// Whether the pick opened at `open` has its `]`.
    fn closes(&self, open: usize) -> bool {
        self.chars[open..].contains(&']')
    }

    /// What is written between the `[` at `open` and the next `]` (or the
    /// end), trimmed.
    fn inside(&self, open: usize) -> String {
        let inside: String = self.chars[open + 1..]
            .iter()
            .take_while(|&&c| c != ']')
            .collect();
        inside.trim().to_string()
    }

    fn picks_nothing(&self, open: usize) -> ConditionError {
        let at = (open + 1..self.chars.len())
            .find(|&i| !self.chars[i].is_whitespace())
            .unwrap_or(open + 1);
        self.error_at(
            at,
            format!(
                "`[{}]` picks nothing; write [3] (an index), [#12] (an id), [c] (a pack letter), [kind=orc] or [*]",
                self.inside(open)
            ),
        )
    }

    /// The digits that come next, taken.
    fn digits(&mut self) -> String {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn literal(&mut self) -> Result<Literal, ConditionError> {
        let start = self.at;
        match self.peek() {
            None => Err(self.error("expected a value after the comparison")),
            Some('"') => {
                self.at += 1;
                let Some(len) = self.chars[self.at..].iter().position(|&c| c == '"') else {
                    return Err(self.error_at(start, "a quoted text without its closing `\"`"));
                };
                let text: String = self.chars[self.at..self.at + len].iter().collect();
                self.at += len + 1;
                Ok(Literal::Text(text))
            }
            Some('(') => {
                self.at += 1;
                let x = self.number()?;
                if !self.eat(",") {
                    return Err(self.error("expected `,` in a place, such as (12, 7)"));
                }
                let y = self.number()?;
                if !self.eat(")") {
                    return Err(self.error("expected `)` to close the place"));
                }
                let fits = |n: i128| i32::try_from(n).ok();
                match (fits(x), fits(y)) {
                    (Some(x), Some(y)) => Ok(Literal::Place(Pos::new(x, y))),
                    _ => Err(self.error_at(start, "that place is off any map")),
                }
            }
            Some(c) if c.is_ascii_digit() || c == '-' => Ok(Literal::Number(self.number()?)),
            Some(c) if c.is_alphabetic() || c == '_' => {
                let word = self.word();
                Ok(match word.as_str() {
                    "true" => Literal::Flag(true),
                    "false" => Literal::Flag(false),
                    "none" => Literal::None,
                    _ => Literal::Text(word),
                })
            }
            Some(c) => Err(self.error(format!(
                "`{c}` is not a value; write a number, true, false, none, a word, \"text\" or (x, y)"
            ))),
        }
    }

    /// A whole number from the least i64 to the greatest u64, the range
    /// every number field lies in (a seed is a u64).
    fn number(&mut self) -> Result<i128, ConditionError> {
        self.skip_space();
        let start = self.at;
        let negative = self.peek() == Some('-');
        if negative {
            self.at += 1;
        }
        let digits = self.digits();
        if digits.is_empty() {
            return Err(self.error_at(start, "expected a number"));
        }
        let least = i128::from(i64::MIN);
        let most = i128::from(u64::MAX);
        // Past 39 digits i128 overflows; such a number is past the range
        // all the same.
        let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
        let n = if negative { -magnitude } else { magnitude };
        if (least..=most).contains(&n) {
            Ok(n)
        } else {
            Err(self.error_at(
                start,
                format!("this number is past the numbers a field holds, {least} to {most}"),
            ))
        }
    }
}

/// Whether `path OP literal` can ever be true; on refusal, whether the
/// operator (rather than the value) is at fault, and why.
/// `written` is the value as written, for saying how to quote it.
fn check_comparison(
    path: &str,
    named: &Named,
    op: Op,
    literal: &Literal,
    written: &str,
) -> Result<(), (bool, String)> {
    let kind = match named {
        Named::Leaf(kind) => *kind,
        Named::Count => Kind::Number,
        Named::Group | Named::List => {
            return match (op, literal) {
                (Op::Eq | Op::Ne, Literal::None) => Ok(()),
                _ => Err((
                    true,
                    format!(
                        "`{}` is a group of fields, not a value: name one of its fields, or compare it with none",
                        path
                    ),
                )),
            };
        }
    };
    let ordered = matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge);
    if *literal == Literal::None {
        return if matches!(op, Op::Eq | Op::Ne) {
            Ok(())
        } else {
            Err((true, "none is only == or != to a field".into()))
        };
    }
    let fits = match (kind, literal) {
        (Kind::Number | Kind::Tiles, Literal::Number(_)) => op != Op::Contains,
        (Kind::Flag, Literal::Flag(_)) | (Kind::Place, Literal::Place(_)) => {
            matches!(op, Op::Eq | Op::Ne)
        }
        (Kind::Text, Literal::Text(_)) => !ordered,
        (Kind::Text, _) => {
            return Err((false, format!("`{path}` is text; quote it: \"{written}\"")));
        }
        _ => {
            return Err((
                false,
                format!(
                    "`{}` is {}, so it cannot be compared with that",
                    path,
                    kind.name()
                ),
            ));
        }
    };
    if fits {
        Ok(())
    } else {
        Err((
            true,
            format!(
                "`{}` is {}, which that comparison does not take",
                path,
                kind.name()
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::{Game, GameConfig};
    use proptest::prelude::*;

    fn holds(condition: &str, state: &GameState) -> bool {
        Condition::parse(condition)
            .unwrap_or_else(|e| panic!("{condition}: {e}"))
            .holds(state, &Content::shared_embedded())
    }

    fn refused(condition: &str) -> ConditionError {
        Condition::parse(condition).expect_err(condition)
    }

    #[test]
    fn conditions_on_the_player_the_depth_and_the_monsters() {
        let game = Game::new(GameConfig::new(7)).expect("starts");
        let mut state = game.state().clone();
        let hp = state.player.hp;
        assert!(holds(&format!("player.hp == {hp}"), &state));
        assert!(!holds(&format!("player.hp < {hp}"), &state));
        assert!(holds("depth == 1 && !player.statuses.poison", &state));
        assert!(holds("status == playing", &state));
        let pos = state.player.pos;
        assert!(holds(
            &format!("player.pos == ({}, {})", pos.x, pos.y),
            &state
        ));
        let monsters = state.monsters.len();
        assert!(holds(&format!("monsters.count == {monsters}"), &state));
        let kind = Content::shared_embedded()
            .monster(state.monsters[0].kind)
            .name
            .clone();
        state.monsters[0].awake = true;
        for m in &mut state.monsters[1..] {
            m.awake = false;
        }
        assert!(holds(&format!("monsters[kind={kind}].awake"), &state));
        assert!(holds("monsters[0].awake", &state));
        assert!(holds(
            &format!("monsters[#{}].awake", state.monsters[0].id.0),
            &state
        ));
        state.monsters[0].awake = false;
        assert!(!holds("monsters.awake", &state));
        assert!(!holds(
            "monsters[*].awake or player.statuses.poison",
            &state
        ));
        state.player.statuses.poison = Some(game_core::game::state::Poisoned {
            rounds: 3,
            damage: "1d2".parse().expect("dice"),
            source: "a giant newt".into(),
        });
        assert!(holds("player.statuses.poison", &state));
        assert!(holds("player.statuses.poison.source ~ NEWT", &state));
        assert!(holds("player.statuses.poison != none", &state));
        assert!(holds("map.visible > 0 and (clock.turn >= 0)", &state));
    }

    #[test]
    fn a_malformed_condition_names_its_column() {
        let e = refused("player.hp <= ");
        assert_eq!(e.column, 14, "{e}");
        let e = refused("player.hpp <= 5");
        assert_eq!(e.column, 1);
        assert!(e.message.contains("no field `player.hpp`"), "{e}");
        assert!(e.message.contains("hp, max_hp"), "{e}");
        let e = refused("depth == 3 &&");
        assert_eq!(e.column, 14, "{e}");
        let e = refused("player.pos > 3");
        assert_eq!(e.column, 14, "{e}");
        let e = refused("depth = 3");
        assert_eq!(e.column, 7, "{e}");
        let e = refused("player.hp[2] > 1");
        assert!(e.message.contains("not a list"), "{e}");
        let e = refused("monsters[kind=orc");
        assert_eq!(e.column, 9, "{e}");
        let e = refused("(depth == 1");
        assert!(e.message.contains("`)`"), "{e}");
        let e = refused("monsters[0].nope");
        assert!(e.message.contains("monsters[..]` has: id, kind"), "{e}");
        assert!(refused("").message.contains("empty"));
        assert!(refused("depth == 1 depth").message.contains("&&"));
    }

    /// Runs `f` on a thread with the stack of `deja`'s worker threads
    /// (2 MiB), the smallest `when` reads or evaluates a condition on.
    fn on_a_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .expect("a thread starts")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Whether `condition` holds at the start of seed 7, or the column it
    /// is refused at.
    fn answer(condition: &str) -> Result<bool, usize> {
        let game = Game::new(GameConfig::new(7)).expect("starts");
        Condition::parse(condition)
            .map(|c| c.holds(game.state(), &Content::shared_embedded()))
            .map_err(|e| e.column)
    }

    #[test]
    fn chains_of_any_length_hold_and_nesting_past_its_limit_is_refused_at_its_column() {
        let cases: Vec<(String, Result<bool, usize>)> = vec![
            (vec!["depth==1"; 10_000].join("&&"), Ok(true)),
            (vec!["depth==2"; 10_000].join("||"), Ok(false)),
            (
                format!("{} or depth==1", vec!["depth==2"; 8_000].join(" or ")),
                Ok(true),
            ),
            (
                format!("{}depth == 1{}", "(".repeat(100), ")".repeat(100)),
                Ok(true),
            ),
            (format!("{}depth == 1", "!".repeat(100)), Ok(true)),
            (format!("{}depth == 1", "!".repeat(99)), Ok(false)),
            (
                vec![format!("{}depth == 1{}", "(".repeat(100), ")".repeat(100)); 400].join("&&"),
                Ok(true),
            ),
            (
                format!("{}depth == 1{}", "(".repeat(10_000), ")".repeat(10_000)),
                Err(101),
            ),
            (format!("{}depth == 1", "!".repeat(50_000)), Err(101)),
            (format!("{}(depth == 1)", "(!".repeat(50)), Err(101)),
            (format!("{}depth == 1", "not ".repeat(101)), Err(401)),
            (
                format!("depth == 1{}", " ".repeat(MAX_LENGTH - 10)),
                Ok(true),
            ),
            (
                format!("depth == 1{}", " ".repeat(MAX_LENGTH - 9)),
                Err(MAX_LENGTH + 1),
            ),
        ];
        let wrong = on_a_worker_stack(move || {
            cases
                .into_iter()
                .filter_map(|(condition, wanted)| {
                    let found = answer(&condition);
                    let shown: String = condition.chars().take(40).collect();
                    (found != wanted).then(|| format!("{shown}...: {found:?}, not {wanted:?}"))
                })
                .collect::<Vec<_>>()
        });
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn a_long_path_is_refused_at_its_first_part_that_names_nothing() {
        assert_refuses(&[
            (
                &format!("player{}", ".x".repeat(49_000)),
                1,
                "no field `player.x`; `player` has: pos, hp",
            ),
            (
                &format!("depth == 1 || monsters[*]{}.hp", ".statuses".repeat(9_000)),
                15,
                "no field `monsters[..].statuses.statuses`; `monsters[..].statuses` has: poison, confused",
            ),
        ]);
    }

    #[test]
    fn the_syntax_states_the_limits_and_the_range_of_numbers() {
        let length = format!("{},{:03}", MAX_LENGTH / 1000, MAX_LENGTH % 1000);
        for wanted in [
            format!("at most {length} characters"),
            format!("at most {MAX_NESTING} deep"),
            format!("({} to {})", i64::MIN, u64::MAX),
        ] {
            let syntax = SYNTAX.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(syntax.contains(&wanted), "{wanted}");
        }
    }

    /// The pieces random conditions are made of: the grammar's tokens,
    /// fields, values, and any character at all.
    fn piece() -> impl Strategy<Value = String> {
        let tokens = vec![
            "(",
            ")",
            "!",
            "not ",
            "&&",
            "||",
            " and ",
            " or ",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "~",
            "=",
            "[",
            "]",
            "*",
            "#",
            ",",
            ".",
            "\"",
            " ",
            "none",
            "true",
            "false",
            "count",
            "[kind=orc]",
            "[pos=(1,2)]",
            "[#0]",
            "[*]",
            "[0]",
            "(3, 4)",
            "-",
            "18446744073709551616",
            "-9223372036854775809",
            "99999999999999999999999999999999999999999",
        ];
        let fields: Vec<String> = FIELDS.iter().map(|(p, _)| p.replace("[]", "[*]")).collect();
        prop_oneof![
            prop::sample::select(tokens).prop_map(String::from),
            prop::sample::select(fields),
            any::<char>().prop_map(String::from),
        ]
    }

    /// Up to 300 pieces in a row.
    fn mix() -> impl Strategy<Value = String> {
        prop::collection::vec(piece(), 0..300).prop_map(|p| p.concat())
    }

    /// A test that reads: a field alone or compared.
    fn term() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "depth == 1",
            "player.hp>0",
            "monsters[*].awake",
            "seed",
            "kills < 3",
            "monsters[kind=rat].pos == (3, 4)",
            "player.statuses.poison.rounds == none",
            "monsters[#2] != none",
            "player.pack[a].count >= 1",
            "messages.last ~ \"welcome\"",
        ])
        .prop_map(String::from)
    }

    /// Conditions that read, of any shape: terms joined, negated and
    /// grouped up to 12 deep.
    fn well_formed() -> impl Strategy<Value = String> {
        term().prop_recursive(12, 400, 8, |inner| {
            prop_oneof![
                (
                    prop::collection::vec(inner.clone(), 2..8),
                    prop::sample::select(vec![" && ", "||", " and ", " or "])
                )
                    .prop_map(|(terms, join)| terms.join(join)),
                inner.clone().prop_map(|c| format!("({c})")),
                inner.prop_map(|c| format!("!({c})")),
            ]
        })
    }

    /// Random conditions up to about 100 KB: mixes of pieces, nesting up to
    /// tens of thousands deep, chains of tens of thousands of terms, and
    /// paths of tens of thousands of parts.
    fn condition() -> impl Strategy<Value = String> {
        let openers =
            prop::collection::vec(prop::sample::select(vec!["(", "!", "not ", "( !"]), 1..6);
        let tail = prop_oneof![3 => Just(String::new()), 1 => mix()];
        let depth = prop_oneof![1usize..=MAX_NESTING + 10, 1usize..40_000];
        let nested = (openers, depth, tail.clone(), well_formed()).prop_map(
            |(openers, open, tail, inside)| {
                let mut text: String = openers.iter().cycle().take(open).copied().collect();
                text.truncate(MAX_LENGTH / 2);
                let close = text.matches('(').count();
                text + &inside + &")".repeat(close) + &tail
            },
        );
        let join = prop::sample::select(vec!["&&", "||", " and ", " or "]);
        // Up to a tenth past the length a condition may have.
        let chain = (well_formed(), join)
            .prop_flat_map(move |(term, join)| {
                let most = MAX_LENGTH * 11 / 10 / (term.len() + join.len());
                (Just(term), Just(join), 1..most.max(2), tail.clone())
            })
            .prop_map(|(term, join, n, tail)| vec![term; n].join(join) + &tail);
        let fields: Vec<String> = FIELDS.iter().map(|(p, _)| p.replace("[]", "[*]")).collect();
        let part = prop::sample::select(vec![".x", ".statuses", ".poison", "[*]", ".count"]);
        let long_path = (prop::sample::select(fields), part, 1usize..30_000)
            .prop_map(|(field, part, n)| field + &part.repeat(n));
        prop_oneof![mix(), nested, chain, well_formed(), long_path]
    }

    #[test]
    fn any_condition_up_to_100_kb_is_answered_or_refused_at_a_column_inside_it() {
        on_a_worker_stack(|| {
            let game = Game::new(GameConfig::new(7)).expect("starts");
            let content = Content::shared_embedded();
            let config = proptest::test_runner::Config {
                cases: 64,
                failure_persistence: None,
                ..proptest::test_runner::Config::default()
            };
            let mut runner = proptest::test_runner::TestRunner::new(config);
            let result = runner.run(&condition(), |text| {
                match Condition::parse(&text) {
                    Ok(condition) => {
                        condition.holds(game.state(), &content);
                        condition.readings(game.state(), &content);
                    }
                    Err(e) => {
                        let end = text.chars().count() + 1;
                        prop_assert!((1..=end).contains(&e.column), "{e} past {end}");
                    }
                }
                Ok(())
            });
            if let Err(failure) = result {
                panic!("{failure}");
            }
        });
    }

    #[test]
    fn a_picked_entry_is_named_once_beside_its_fields() {
        let game = Game::new(GameConfig::new(7)).expect("starts");
        let content = Content::shared_embedded();
        let monster = &game.state().monsters[0];
        let condition = Condition::parse(&format!("monsters[#{}]", monster.id.0)).unwrap();
        let [reading] = &condition.readings(game.state(), &content)[..] else {
            panic!("one field read");
        };
        let text = reading.text();
        let name = content.monster(monster.kind).name.clone();
        assert_eq!(text.matches(&format!("{name} #")).count(), 1, "{text}");
        assert!(text.contains(&format!("kind {name}")), "{text}");
    }

    /// Each condition, and whether it holds of `state`; fails naming every
    /// one that answers otherwise.
    fn assert_answers(state: &GameState, table: &[(&str, bool)]) {
        let wrong: Vec<String> = table
            .iter()
            .filter(|(condition, wanted)| holds(condition, state) != *wanted)
            .map(|(condition, wanted)| format!("`{condition}` should be {wanted}"))
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn what_a_path_reaches_nothing_at_is_none() {
        let game = Game::new(GameConfig::new(7)).expect("starts");
        let mut state = game.state().clone();
        let first = state.monsters[0].id.0;
        state.monsters[0].statuses.poison = Some(game_core::game::state::Poisoned {
            rounds: 3,
            damage: "1d2".parse().expect("dice"),
            source: "a giant newt".into(),
        });
        state.items.clear();
        assert!(state.monsters.len() > 1 && state.player.statuses.poison.is_none());
        assert_answers(
            &state,
            &[
                ("monsters[#999] == none", true),
                ("monsters[#999] != none", false),
                ("!monsters[#999]", true),
                ("monsters[#999].hp == none", true),
                ("monsters[#999].hp != none", false),
                ("monsters[#999].hp < 3", false),
                ("monsters[#999].hp >= 3", false),
                ("monsters[#999].hp != 3", true),
                (&format!("monsters[#{first}] == none"), false),
                (&format!("monsters[#{first}] != none"), true),
                ("monsters[kind=dragon] == none", true),
                ("monsters[kind=dragon] != none", false),
                ("player.statuses.poison.rounds == none", true),
                ("player.statuses.poison.rounds != none", false),
                ("player.statuses.poison.rounds >= 0", false),
                ("player.statuses.poison.source ~ newt", false),
                ("death.cause == none", true),
                ("death.turn > 0", false),
                ("items == none", true),
                ("items[*] == none", true),
                ("items.kind == none", true),
                ("items[*].kind != none", false),
                // One monster poisoned, the rest not: each entry answers.
                ("monsters[*].statuses.poison.rounds == none", true),
                ("monsters[*].statuses.poison.rounds == 3", true),
                ("monsters[0].statuses.poison.rounds == none", false),
                ("monsters[1].statuses.poison.rounds == none", true),
                ("monsters.statuses.poison.rounds != none", true),
            ],
        );
    }

    /// Each condition, and the column and a part of the message it is
    /// refused with; fails naming every one refused otherwise.
    fn assert_refuses(table: &[(&str, usize, &str)]) {
        let wrong: Vec<String> = table
            .iter()
            .filter_map(
                |(condition, column, says)| match Condition::parse(condition) {
                    Err(e) if e.column == *column && e.message.contains(says) => None,
                    found => Some(format!(
                        "`{condition}`: {found:?}, not column {column} saying {says:?}"
                    )),
                },
            )
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn a_pick_reads_its_value_as_a_comparison_does() {
        let game = Game::new(GameConfig::new(7)).expect("starts");
        let mut state = game.state().clone();
        let newt = Content::shared_embedded()
            .monster_named("giant newt")
            .expect("a giant newt");
        for monster in &mut state.monsters {
            monster.awake = false;
        }
        let monster = &mut state.monsters[0];
        monster.kind = newt;
        monster.pos = Pos::new(5, 6);
        monster.hp = 77;
        monster.awake = true;
        assert_answers(
            &state,
            &[
                ("monsters[pos=(5,6)].awake", true),
                ("monsters[pos=(5, 6)].awake", true),
                ("monsters[ pos = ( 5 ,6 ) ].awake", true),
                ("monsters[pos=(6,5)]", false),
                ("monsters[kind=\"giant newt\"].awake", true),
                ("monsters[kind=\"GIANT NEWT\"].pos == (5,6)", true),
                ("monsters[awake=true].pos == (5, 6)", true),
                ("monsters[hp=77].awake", true),
                ("monsters[hp=76]", false),
                ("monsters[kind=\"a]b\"]", false),
            ],
        );
        assert_refuses(&[
            ("monsters[kind=giant newt]", 15, "[kind=\"giant newt\"]"),
            ("monsters[kind=will-o'-wisp]", 15, "[kind=\"will-o'-wisp\"]"),
            ("monsters[pos=(5,6]", 18, "expected `)`"),
            ("monsters[hp=4", 9, "`[` without its `]`"),
            ("monsters[hp=]", 13, "is not a value"),
        ]);
    }

    #[test]
    fn a_pick_names_a_field_its_entries_have_with_a_value_it_can_hold() {
        assert_refuses(&[
            (
                "monsters[knd=rat]",
                10,
                "no field `monsters[..].knd`; `monsters[..]` has: id, kind, pos, hp, statuses, awake",
            ),
            (
                "player.pack[ knd=dart]",
                14,
                "`player.pack[..]` has: kind, count",
            ),
            (
                "monsters[statuses=none]",
                10,
                "`monsters[..].statuses` is a group",
            ),
            ("monsters[hp=rat]", 13, "`monsters[..].hp` is a number"),
            ("monsters[pos=3]", 14, "`monsters[..].pos` is a place"),
            (
                "monsters[awake=3]",
                16,
                "`monsters[..].awake` is true or false",
            ),
            ("items[#3]", 7, "`items[..]` has no id"),
            ("monsters[kind=orc].hpp", 1, "no field `monsters[..].hpp`"),
        ]);
        for condition in [
            "player.pack[count=1]",
            "player.pack[kind=dart].count > 1",
            "clock.queue[actor=\"the player\"].at >= 0",
            "monsters[awake=none]",
            "monsters[#3].hp > 0",
            "items[seen=false].pos == (1, 2)",
        ] {
            Condition::parse(condition).unwrap_or_else(|e| panic!("{condition}: {e}"));
        }
    }

    #[test]
    fn numbers_cover_u64_and_i64_and_past_them_are_refused_at_their_column() {
        let game = Game::new(GameConfig::new(7)).expect("starts");
        let mut state = game.state().clone();
        state.seed.0 = u64::MAX;
        assert_answers(
            &state,
            &[
                ("seed == 18446744073709551615", true),
                ("seed > 18446744073709551614", true),
                ("seed < 18446744073709551615", false),
                ("seed != 9223372036854775807", true),
                ("player.hp > -9223372036854775808", true),
                ("player.hp < -9223372036854775808", false),
                ("monsters[hp=18446744073709551615]", false),
            ],
        );
        let past = "past the numbers a field holds";
        assert_refuses(&[
            ("seed == 18446744073709551616", 9, past),
            ("player.hp > -9223372036854775809", 13, past),
            (&format!("seed == {}", "9".repeat(100)), 9, past),
            ("monsters[hp=99999999999999999999]", 13, past),
            ("player.pos == (2147483648, 0)", 15, "off any map"),
            ("player.pos == (1, 99999999999999999999)", 19, past),
            ("seed == -", 9, "expected a number"),
            ("seed == - 3", 9, "expected a number"),
        ]);
    }

    #[test]
    fn a_value_compared_with_text_is_shown_quoted() {
        assert_refuses(&[
            (
                "map.size == 80x40",
                13,
                "`map.size` is text; quote it: \"80x40\"",
            ),
            ("map.size==80x40&&depth==1", 11, "quote it: \"80x40\""),
            (
                "messages.last ~ 12abc or depth == 1",
                17,
                "quote it: \"12abc\"",
            ),
            ("status == true", 11, "quote it: \"true\""),
            ("floor.vault == (1, 2)", 16, "quote it: \"(1, 2)\""),
            (
                "monsters[kind=3]",
                15,
                "`monsters[..].kind` is text; quote it: \"3\"",
            ),
            (
                "player.hp == full",
                14,
                "`player.hp` is a number, so it cannot",
            ),
        ]);
    }

    #[test]
    fn every_listed_field_can_be_named() {
        for (path, _) in FIELDS {
            let path = path.replace("[]", "[*]");
            Condition::parse(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
    }
}
