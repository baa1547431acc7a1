//! Content loading: the shipped files, the refusal of broken ones, and
//! danger-based spawning.

use game_core::content::{
    Content, ContentError, ContentErrors, EMBEDDED_ITEMS, EMBEDDED_MONSTERS, ItemEffect,
    MAP_GLYPHS, MAX_FILE_BYTES, MonsterDef, Source,
};
use game_core::rng::RunSeed;
use game_core::spawn::{choose_item, choose_monster};
use proptest::prelude::*;

fn monsters(text: &str) -> Source<'_> {
    Source {
        file: "monsters.ron",
        text,
    }
}

fn items(text: &str) -> Source<'_> {
    Source {
        file: "items.ron",
        text,
    }
}

fn parse_monsters(label: &str, text: &str) -> Result<Content, ContentErrors> {
    Content::parse(Source { file: label, text }, items(EMBEDDED_ITEMS))
}

fn parse_items(label: &str, text: &str) -> Result<Content, ContentErrors> {
    Content::parse(monsters(EMBEDDED_MONSTERS), Source { file: label, text })
}

// ---------------------------------------------------------------------------
// The embedded content

#[test]
fn embedded_content_is_valid() {
    if let Err(errors) = Content::parse(monsters(EMBEDDED_MONSTERS), items(EMBEDDED_ITEMS)) {
        panic!("{errors}");
    }
    assert_eq!(Content::embedded(), Content::embedded());
}

#[test]
fn the_bestiary_spans_danger_1_to_7_with_poison_and_confusion() {
    let content = Content::embedded();
    let bestiary = content.monsters();
    assert!(bestiary.len() >= 10, "{} monsters", bestiary.len());
    for danger in 1..=7 {
        assert!(
            bestiary.iter().any(|m| m.danger == danger && m.weight > 0),
            "no spawnable monster of danger {danger}"
        );
    }
    assert!(bestiary.iter().any(|m| m.poison.is_some()));
    assert!(bestiary.iter().any(|m| m.confuses.is_some()));
    assert!(
        bestiary.iter().any(|m| m.danger == 7 && m.poison.is_some()),
        "the deepest floors need a poisoner"
    );
}

#[test]
fn monsters_are_letters_drawn_differently() {
    let content = Content::embedded();
    let mut glyphs: Vec<char> = content.monsters().iter().map(|m| m.glyph).collect();
    for &glyph in &glyphs {
        assert!(glyph.is_ascii_alphabetic(), "{glyph:?}");
        assert!(!MAP_GLYPHS.contains(glyph), "{glyph:?}");
    }
    glyphs.sort_unstable();
    let count = glyphs.len();
    glyphs.dedup();
    assert_eq!(glyphs.len(), count, "two monsters share a glyph");
}

#[test]
fn every_item_effect_is_present_and_drawn_by_its_kind() {
    let content = Content::embedded();
    let expected_glyph = |effect: &ItemEffect| match effect {
        ItemEffect::Heal { .. } | ItemEffect::CurePoison => '!',
        ItemEffect::Confuse { .. } | ItemEffect::MagicMapping | ItemEffect::Teleport => '?',
        ItemEffect::Thrown { .. } | ItemEffect::Weapon { .. } => ')',
        ItemEffect::Armour { .. } => '[',
    };
    let has = |wanted: fn(&ItemEffect) -> bool| content.items().iter().any(|i| wanted(&i.effect));
    assert!(has(|e| matches!(e, ItemEffect::Heal { .. })));
    assert!(has(|e| matches!(e, ItemEffect::CurePoison)));
    assert!(has(|e| matches!(e, ItemEffect::Confuse { .. })));
    assert!(has(|e| matches!(e, ItemEffect::MagicMapping)));
    assert!(has(|e| matches!(e, ItemEffect::Teleport)));
    assert!(has(|e| matches!(e, ItemEffect::Thrown { .. })));
    assert!(has(|e| matches!(e, ItemEffect::Weapon { .. })));
    assert!(has(|e| matches!(e, ItemEffect::Armour { .. })));
    assert!(content.items().len() >= 8);
    for item in content.items() {
        assert_eq!(item.glyph, expected_glyph(&item.effect), "{}", item.name);
    }
}

#[test]
fn the_player_starts_with_a_healing_potion_and_five_darts() {
    let content = Content::embedded();
    let kit: Vec<(String, u32)> = content
        .starting_kit()
        .into_iter()
        .map(|(id, count)| (content.item(id).name.clone(), count))
        .collect();
    assert_eq!(
        kit,
        vec![("potion of healing".to_owned(), 1), ("dart".to_owned(), 5)]
    );
    let darts = content.item_named("dart").expect("darts exist");
    assert!(content.item(darts).stackable);
    assert!(content.item(darts).effect.needs_target());
    assert_eq!(content.item(darts).describe(5), "5 darts");
    let healing = content.item_named("potion of healing").expect("exists");
    assert_eq!(content.item(healing).describe(2), "2 potions of healing");
}

#[test]
fn names_are_found_ignoring_case() {
    let content = Content::embedded();
    let newt = content.monster_named("Giant NEWT").expect("the newt");
    assert_eq!(content.monster(newt).name, "giant newt");
    assert_eq!(content.monster_named("giant newts"), None);
    let sword = content.item_named("SHORT sword").expect("the sword");
    assert_eq!(content.item(sword).name, "short sword");
    assert_eq!(content.item_named(""), None);
}

/// Expected hit points an equipped starting player (30 hp, +3 to hit, dv 12
/// in leather armour, a 1d8 short sword) loses killing `monster` alone, in
/// hundredths, trading blows until it drops, plus one full course of its
/// poison. Averages only, no luck.
fn expected_cost_of_a_duel(monster: &MonsterDef) -> u64 {
    const PLAYER_ATT: i32 = 3;
    const PLAYER_DV: i32 = 12;
    const SWORD_DICE_SUM: u64 = 1 + 8; // min + max of 1d8
    let hits_in_20 = |att: i32, dv: i32| {
        (1..=20)
            .filter(|&roll| roll == 20 || (roll != 1 && roll + att >= dv))
            .count() as u64
    };
    let dice_sum = |dice: game_core::dice::Dice| (dice.min() + dice.max()) as u64;
    let player_hits = hits_in_20(PLAYER_ATT, monster.dv);
    let monster_hits = hits_in_20(monster.att, PLAYER_DV);
    // swings = hp / (player_hits / 20 * sword_sum / 2); the monster attacks
    // swings * speed / 100 times and deals monster_hits / 20 * its_sum / 2
    // each: the 20s and 2s cancel.
    let duel =
        monster.max_hp as u64 * u64::from(monster.speed) * monster_hits * dice_sum(monster.damage)
            / (player_hits * SWORD_DICE_SUM);
    let poison = monster.poison.as_ref().map_or(0, |poison| {
        u64::from(poison.turns) * dice_sum(poison.damage) * 50
    });
    duel + poison
}

#[test]
fn an_equipped_player_survives_any_one_monster() {
    let content = Content::embedded();
    let costs: Vec<(String, u64)> = content
        .monsters()
        .iter()
        .map(|m| (m.name.clone(), expected_cost_of_a_duel(m)))
        .collect();
    // On average no duel costs more than two thirds of the 30 starting hit
    // points, and the first floor's vermin cost a few at most.
    for (name, cost) in &costs {
        assert!(*cost <= 2000, "{name} costs {cost}/100 hp: {costs:?}");
    }
    for monster in content.monsters().iter().filter(|m| m.danger == 1) {
        assert!(expected_cost_of_a_duel(monster) <= 400, "{}", monster.name);
    }
}

// ---------------------------------------------------------------------------
// Fingerprint

const TINY_MONSTERS: &str = r#"[
    (name: "shallow", glyph: 'a', max_hp: 3, att: 0, dv: 5, damage: "1d2", speed: 100,
     danger: 1, weight: 10, description: "At home on floor 1."),
    (name: "never", glyph: 'b', max_hp: 3, att: 0, dv: 5, damage: "1d2", speed: 100,
     danger: 1, weight: 0, description: "Weight 0: never spawns."),
    (name: "deep", glyph: 'c', max_hp: 3, att: 0, dv: 5, damage: "1d2", speed: 100,
     danger: 10, weight: 5, description: "At home on floor 10."),
]"#;

const TINY_ITEMS: &str = r#"[
    (name: "pebble", glyph: '*', effect: Thrown(to_hit: 0, damage: "1d1"), danger: 1,
     weight: 3, stackable: true, start_with: 2, description: "A pebble."),
    (name: "relic", glyph: '&', effect: Armour(defence: 1), danger: 10, weight: 1,
     stackable: false, description: "A deep thing."),
]"#;

fn tiny() -> Content {
    Content::parse(monsters(TINY_MONSTERS), items(TINY_ITEMS)).expect("the tiny content is valid")
}

#[test]
fn the_fingerprint_is_stable_and_pinned() {
    assert_eq!(
        Content::embedded().fingerprint(),
        Content::embedded().fingerprint()
    );
    // XXH3-64 over postcard is platform independent; if this changes, the
    // encoding changed and every recording's content check with it.
    assert_eq!(tiny().fingerprint(), PINNED_TINY_FINGERPRINT);
}

const PINNED_TINY_FINGERPRINT: u64 = 0xcc8f_d28d_d796_f775;

#[test]
fn the_fingerprint_changes_with_any_stat() {
    let base = Content::embedded().fingerprint();
    let changed_monsters = [
        EMBEDDED_MONSTERS.replacen("max_hp: 3,", "max_hp: 4,", 1),
        EMBEDDED_MONSTERS.replacen("\"1d3\"", "\"1d4\"", 1),
        EMBEDDED_MONSTERS.replacen("weight: 100,", "weight: 99,", 1),
    ];
    for text in &changed_monsters {
        assert_ne!(text, EMBEDDED_MONSTERS, "the replacement applied");
        let content = parse_monsters("monsters.ron", text).expect("still valid");
        assert_ne!(content.fingerprint(), base);
    }
    let changed_items = EMBEDDED_ITEMS.replacen("start_with: 5,", "start_with: 6,", 1);
    let content = parse_items("items.ron", &changed_items).expect("still valid");
    assert_ne!(content.fingerprint(), base);
    // Comments and layout are not content.
    let reformatted = format!(
        "// a mod's header\n{}",
        EMBEDDED_MONSTERS.replace("    ", "  ")
    );
    let content = parse_monsters("monsters.ron", &reformatted).expect("still valid");
    assert_eq!(content.fingerprint(), base);
    // Nor is what is only drawn: a description or a glyph.
    let reworded = EMBEDDED_MONSTERS.replacen(
        "A sewer rat gone bold in the dark",
        "A sewer rat grown bold in the dark",
        1,
    );
    let redrawn = EMBEDDED_MONSTERS.replacen("glyph: 'r',", "glyph: 'R',", 1);
    for text in [&reworded, &redrawn] {
        assert_ne!(text, EMBEDDED_MONSTERS, "the replacement applied");
        let content = parse_monsters("monsters.ron", text).expect("still valid");
        assert_eq!(content.fingerprint(), base);
    }
    let renamed = EMBEDDED_MONSTERS.replacen("name: \"rat\",", "name: \"vole\",", 1);
    assert_ne!(renamed, EMBEDDED_MONSTERS);
    let content = parse_monsters("monsters.ron", &renamed).expect("still valid");
    assert_ne!(content.fingerprint(), base, "names reach messages");
}

// ---------------------------------------------------------------------------
// Broken content

/// One file of the corpus and the single error it must produce.
struct Refusal {
    file: &'static str,
    text: &'static [u8],
    line: u32,
    column: u32,
    entry: Option<&'static str>,
    message_starts: &'static str,
}

macro_rules! refusal {
    ($file:literal, $line:literal : $column:literal, $entry:expr, $message:literal) => {
        Refusal {
            file: $file,
            text: include_bytes!(concat!("bad-content/", $file)),
            line: $line,
            column: $column,
            entry: $entry,
            message_starts: $message,
        }
    };
}

const CORPUS: &[Refusal] = &[
    refusal!("monsters-syntax-error.ron", 5:16, Some("rat"), "expected `:` after the field name"),
    refusal!("monsters-unclosed-list.ron", 2:1, None, "this `[` is never closed"),
    refusal!("monsters-wrong-type.ron", 5:17, Some("kobold"), "max_hp: expected a whole number"),
    refusal!("monsters-missing-field.ron", 12:5, Some("goblin"), "missing field `speed`"),
    refusal!("monsters-unknown-field.ron", 9:9, Some("jackal"), "unknown field `sped`"),
    refusal!("monsters-zero-dice.ron", 8:17, Some("giant newt"),
        "damage: a die count of 0 rolls nothing; use 1 or more dice"),
    refusal!("monsters-huge-dice.ron", 8:17, Some("ogre"),
        "damage: 500 dice is more than the limit of 100"),
    refusal!("monsters-duplicate-names.ron", 15:9, Some("Rat"),
        "name \"Rat\" is already used by the entry at 3:9"),
    refusal!("monsters-bad-glyph.ron", 4:9, Some("doppelganger"), "glyph '@' is drawn by the map"),
    refusal!("monsters-bidi-description.ron", 12:9, Some("mimic"),
        "description's character 7 is U+202E, a bidirectional control"),
    refusal!("monsters-wide-description.ron", 12:9, Some("rat"),
        "description's character 1 is U+5C0F, a character two columns wide"),
    refusal!("monsters-invisible-description.ron", 12:9, Some("lurker"),
        "description's character 8 is U+200B, a character that draws as nothing"),
    refusal!("monsters-speed-out-of-range.ron", 9:9, Some("statue"),
        "speed 0 is outside 25..=400 (percent of normal speed; 100 acts once a turn)"),
    refusal!("monsters-truncated.ron", 8:17, None, "this string is never closed"),
    refusal!("monsters-binary-junk.ron", 1:1, None, "expected `[`"),
    refusal!("monsters-empty.ron", 1:1, None, "the file is empty"),
    refusal!("monsters-deep-nesting.ron", 2:33, None, "brackets nested more than 32 deep"),
    refusal!("monsters-junk-after-list.ron", 15:1, None, "something follows the end of the list"),
    refusal!("monsters-missing-comma.ron", 14:5, Some("rat"),
        "`(` follows the end of the entry; is a comma missing"),
    refusal!("monsters-unclosed-string.ron", 12:22, None, "this string is never closed"),
    refusal!("monsters-unclosed-comment.ron", 2:5, None, "this block comment is never closed"),
    refusal!("items-start-with-unstackable.ron", 9:9, Some("short sword"),
        "start_with 3 needs stackable: true"),
    refusal!("items-unknown-effect.ron", 6:17, Some("potion of healing"),
        "effect: unknown kind `Heel`"),
    refusal!("items-empty-plural.ron", 4:9, Some("dart"), "plural is empty"),
    refusal!("items-confuse-out-of-range.ron", 6:25, Some("scroll of confusion"),
        "effect.turns 1000 is outside 1..=100"),
];

fn parse_corpus_file(refusal: &Refusal) -> Result<Content, ContentErrors> {
    let text = String::from_utf8_lossy(refusal.text);
    let label = format!("mods/{}", refusal.file);
    if refusal.file.starts_with("monsters") {
        parse_monsters(&label, &text)
    } else {
        parse_items(&label, &text)
    }
}

#[test]
fn every_broken_file_is_refused_with_file_position_and_entry() {
    for refusal in CORPUS {
        let errors = match parse_corpus_file(refusal) {
            Ok(_) => panic!("{} was accepted", refusal.file),
            Err(ContentErrors(errors)) => errors,
        };
        let [error] = errors.as_slice() else {
            panic!("{}: expected one error, got {errors:#?}", refusal.file);
        };
        assert_eq!(error.file, format!("mods/{}", refusal.file));
        assert_eq!(
            (error.line, error.column, error.entry.as_deref()),
            (refusal.line, refusal.column, refusal.entry),
            "{error}"
        );
        assert!(
            error.message.starts_with(refusal.message_starts),
            "{}: {error}",
            refusal.file
        );
        let shown = error.to_string();
        let position = format!(
            "mods/{}:{}:{}: ",
            refusal.file, refusal.line, refusal.column
        );
        assert!(shown.starts_with(&position), "{shown}");
    }
}

#[test]
#[allow(clippy::disallowed_methods)] // a test listing its own fixtures; game-core never does
fn every_file_in_the_corpus_is_checked() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad-content");
    let mut on_disk: Vec<String> = std::fs::read_dir(directory)
        .expect("the corpus directory exists")
        .map(|entry| {
            let entry = entry.expect("readable");
            entry.file_name().to_string_lossy().into_owned()
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = CORPUS
        .iter()
        .map(|r| r.file.to_owned())
        .chain(std::iter::once("monsters-three-errors.ron".to_owned()))
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn three_independent_errors_are_all_reported() {
    let text = include_str!("bad-content/monsters-three-errors.ron");
    let ContentErrors(errors) = parse_monsters("monsters.ron", text).expect_err("refused");
    let found: Vec<(u32, u32, Option<&str>, &str)> = errors
        .iter()
        .map(|e| (e.line, e.column, e.entry.as_deref(), e.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                13,
                23,
                Some("cave spider"),
                "poison.turns 0 is outside 1..=100 (rounds the poison lasts)"
            ),
            (
                22,
                17,
                Some("giant newt"),
                "damage: a die count of 0 rolls nothing; use 1 or more dice"
            ),
            (
                50,
                24,
                Some("orc"),
                "confuses: expected a whole number, found `\"yes\"`"
            ),
        ]
    );
}

#[test]
fn errors_display_one_per_line_then_a_count() {
    let text = include_str!("bad-content/monsters-three-errors.ron");
    let errors = parse_monsters("monsters.ron", text).expect_err("refused");
    let shown = errors.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 4, "{shown}");
    assert_eq!(
        lines[1],
        "monsters.ron:22:17: \"giant newt\": damage: a die count of 0 rolls nothing; use 1 or \
         more dice"
    );
    assert_eq!(lines[3], "3 problems in the content; nothing was loaded");
    let error: &dyn std::error::Error = &errors;
    assert!(error.to_string().contains("cave spider"));
}

#[test]
fn both_files_are_checked_even_when_one_is_broken() {
    let errors = Content::parse(monsters("[ (name: \"x\""), items("not a list"))
        .expect_err("refused")
        .0;
    let files: Vec<&str> = errors.iter().map(|e| e.file.as_str()).collect();
    assert_eq!(files, vec!["monsters.ron", "items.ron"], "{errors:?}");
}

#[test]
fn a_two_mebibyte_file_is_refused_by_its_size() {
    let huge = format!("[{}]", " ".repeat(2 * MAX_FILE_BYTES));
    for result in [
        parse_monsters("monsters.ron", &huge),
        parse_items("items.ron", &huge),
    ] {
        let errors = result.expect_err("refused").0;
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!((errors[0].line, errors[0].column), (1, 1));
        assert!(
            errors[0].message.contains("more than the limit"),
            "{errors:?}"
        );
    }
}

#[test]
fn semantic_limits_are_each_reported_at_their_field() {
    let monster = r#"[(
        name: " bad name",
        glyph: ' ',
        max_hp: 0,
        att: 51,
        dv: 61,
        damage: "1d2-5",
        speed: 401,
        danger: 21,
        weight: 1001,
        poison: Some((turns: 101, damage: "100d100")),
        confuses: Some(0),
        description: "",
    )]"#;
    let errors = parse_monsters("monsters.ron", monster)
        .expect_err("refused")
        .0;
    let fields: Vec<(u32, &str)> = errors
        .iter()
        .map(|e| (e.line, e.message.split(' ').next().unwrap_or_default()))
        .collect();
    assert_eq!(
        fields,
        vec![
            (2, "name"),
            (3, "glyph"),
            (4, "max_hp"),
            (5, "att"),
            (6, "dv"),
            (7, "damage"),
            (8, "speed"),
            (9, "danger"),
            (10, "weight"),
            (11, "poison.turns"),
            (11, "poison.damage"),
            (12, "confuses"),
            (13, "description"),
        ],
        "{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .all(|e| e.entry.as_deref() == Some(" bad name"))
    );
}

#[test]
fn item_limits_are_each_reported() {
    let item = |fields: &str| {
        format!(
            "[(name: \"thing\", glyph: '*', danger: 1, weight: 1, description: \"A thing.\", \
             {fields})]"
        )
    };
    let cases = [
        (
            "effect: Heal(amount: \"1d2-2\"), stackable: true",
            "effect.amount 1d2-2 can never roll above 0, so it never heals",
        ),
        (
            "effect: Weapon(to_hit: -21, damage: \"1d4\"), stackable: false",
            "effect.to_hit -21 is outside -20..=50",
        ),
        (
            "effect: Thrown(to_hit: 0, damage: \"100d1000\"), stackable: true",
            "effect.damage 100d1000 can roll 100000, more than the limit of 1000",
        ),
        (
            "effect: Armour(defence: 51), stackable: false",
            "effect.defence 51 is outside -20..=50",
        ),
        (
            "effect: Armour(defence: 1), stackable: true",
            "stackable equipment cannot be worn",
        ),
        (
            "effect: CurePoison, stackable: true, start_with: 100",
            "start_with 100 is outside 0..=99",
        ),
        (
            "effect: CurePoison, stackable: true, plural: Some(\"potions\\n\")",
            "plural contains '\\n'",
        ),
    ];
    for (fields, expected) in cases {
        let errors = parse_items("items.ron", &item(fields))
            .expect_err("refused")
            .0;
        assert!(
            errors.iter().any(|e| e.message.starts_with(expected)),
            "{fields}: {errors:#?}"
        );
    }
}

#[test]
fn names_and_entry_counts_are_limited() {
    let long_name = format!(
        "[(name: \"{}\", glyph: '*', effect: CurePoison, danger: 1, weight: 1, stackable: \
         true, description: \"x\")]",
        "a".repeat(41)
    );
    let errors = parse_items("items.ron", &long_name).expect_err("refused").0;
    assert!(errors[0].message.contains("more than the limit of 40"));
    // The label shortens what it quotes.
    let shortened = format!("{}...", "a".repeat(40));
    assert_eq!(errors[0].entry.as_deref(), Some(shortened.as_str()));

    // Messages are held to single spaces (message.form), so a name is too.
    let spaced = "[(name: \"cave  spider\", glyph: '*', effect: CurePoison, danger: 1, weight: 1, \
                  stackable: true, description: \"x\")]";
    let errors = parse_items("items.ron", spaced).expect_err("refused").0;
    assert!(
        errors[0].message.contains("two spaces in a row"),
        "{}",
        errors[0].message
    );

    let entry = "(name: \"x\")";
    let too_many = format!("[{}]", vec![entry; 501].join(","));
    let errors = parse_items("items.ron", &too_many).expect_err("refused").0;
    assert_eq!(errors.len(), 1);
    assert!(errors[0].message.starts_with("more than 500 entries"));

    let errors = parse_items("items.ron", "// see [below]\n[]")
        .expect_err("refused")
        .0;
    assert!(errors[0].message.starts_with("the list has no entries"));
    assert_eq!((errors[0].line, errors[0].column), (2, 1));
}

/// Cuts `text` to the nearest character boundary at or below `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

const RON_PIECES: &[&str] = &[
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ",",
    ":",
    "name",
    "glyph",
    "Some",
    "None",
    "\"rat\"",
    "\"0d6\"",
    "'r'",
    "'",
    "\"",
    "r#\"",
    "\"#",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
    "-5",
    "1e9",
    "99999999999",
    "Heal",
    "effect",
    "\\",
    "#![enable(implicit_some)]",
    "é",
    "\u{0}",
    "b'x'",
    "r#name",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parse_returns_on_any_text(text in any::<String>()) {
        let _ = parse_monsters("monsters.ron", &text);
        let _ = parse_items("items.ron", &text);
    }

    #[test]
    fn parse_returns_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_monsters("monsters.ron", &text);
    }

    #[test]
    fn parse_returns_on_ron_like_soup(
        pieces in proptest::collection::vec(proptest::sample::select(RON_PIECES), 0..200)
    ) {
        let text: String = pieces.concat();
        let _ = parse_monsters("monsters.ron", &text);
        let _ = parse_items("items.ron", &text);
    }

    #[test]
    fn parse_returns_on_real_files_with_a_range_deleted(
        monster_file in any::<bool>(), start in any::<usize>(), length in 0usize..400
    ) {
        let original = if monster_file { EMBEDDED_MONSTERS } else { EMBEDDED_ITEMS };
        let from = boundary(original, start % original.len());
        let to = boundary(original, from + length);
        let text = format!("{}{}", &original[..from], &original[to..]);
        let result = if monster_file {
            parse_monsters("monsters.ron", &text)
        } else {
            parse_items("items.ron", &text)
        };
        if let Err(ContentErrors(errors)) = result {
            prop_assert!(!errors.is_empty());
            prop_assert!(errors.iter().all(|e| e.line >= 1 && e.column >= 1));
        }
    }

    #[test]
    fn parse_returns_on_real_files_with_a_range_duplicated(
        monster_file in any::<bool>(), start in any::<usize>(), length in 0usize..400,
        insert_at in any::<usize>()
    ) {
        let original = if monster_file { EMBEDDED_MONSTERS } else { EMBEDDED_ITEMS };
        let from = boundary(original, start % original.len());
        let to = boundary(original, from + length);
        let at = boundary(original, insert_at % original.len());
        let text = format!("{}{}{}", &original[..at], &original[from..to], &original[at..]);
        let result = if monster_file {
            parse_monsters("monsters.ron", &text)
        } else {
            parse_items("items.ron", &text)
        };
        if let Err(ContentErrors(errors)) = result {
            prop_assert!(!errors.is_empty());
        }
    }
}

#[test]
fn every_truncation_of_the_real_files_is_refused_or_complete() {
    for (original, parse) in [
        (EMBEDDED_MONSTERS, parse_monsters as fn(&str, &str) -> _),
        (EMBEDDED_ITEMS, parse_items),
    ] {
        for cut in (0..original.len()).step_by(37) {
            let cut = boundary(original, cut);
            // Only trailing whitespace may go and leave the file whole.
            if parse("cut.ron", &original[..cut]).is_ok() {
                assert!(original[cut..].trim().is_empty(), "accepted a cut at {cut}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Spawning

/// How often each monster of the tiny content (shallow, never, deep) and
/// nothing at all comes up on floor `depth`, in `draws` encounters.
fn monster_tally(depth: u32, draws: u32) -> [u32; 4] {
    let content = tiny();
    let mut rng = RunSeed(4).stream("spawn", u64::from(depth));
    let mut tally = [0; 4];
    for _ in 0..draws {
        match choose_monster(&content, depth, &mut rng) {
            Some(id) => tally[usize::from(id.0)] += 1,
            None => tally[3] += 1,
        }
    }
    tally
}

#[test]
fn weight_zero_never_spawns() {
    for depth in 1..=12 {
        assert_eq!(monster_tally(depth, 2000)[1], 0, "depth {depth}");
    }
}

#[test]
fn a_gap_in_the_middle_of_the_table_is_mostly_quiet() {
    // Floor 5 aims at 3..=7, or 6..=10 nudged. Only a target of 3 reaches
    // danger 1 (1/9 of encounters), and only a nudge reaches danger 10.
    let [shallow, _, deep, quiet] = monster_tally(5, 9000);
    assert!(quiet > 7000, "{quiet}");
    assert!((800..1300).contains(&shallow), "{shallow}");
    // 1/20 nudged, times 6/9 of those landing on 8..=10: about 300.
    assert!(
        (200..400).contains(&deep),
        "the nudge reaches danger 10: {deep}"
    );
}

#[test]
fn below_the_deepest_the_deepest_hold_the_fort() {
    for depth in [13, 20, 1000, u32::MAX] {
        let [shallow, never, deep, quiet] = monster_tally(depth, 500);
        assert_eq!((shallow, never, quiet), (0, 0, 0), "depth {depth}");
        assert_eq!(deep, 500);
    }
}

#[test]
fn the_first_floor_gets_its_own() {
    let [shallow, never, deep, quiet] = monster_tally(1, 3000);
    assert_eq!((never, deep), (0, 0));
    // Targets -1..=3 always reach danger 1. A nudge to 4..=6 (1 in 30
    // encounters) reaches nothing: the gap below danger 10 stays quiet.
    assert!((50..150).contains(&quiet), "{quiet}");
    assert_eq!(shallow + quiet, 3000);
}

#[test]
fn items_spawn_by_the_same_rule() {
    let content = tiny();
    let mut rng = RunSeed(8).stream("items", 0);
    let pebble = content.item_named("pebble");
    let shallow: Vec<_> = (0..300)
        .map(|_| choose_item(&content, 1, &mut rng))
        .collect();
    assert!(shallow.iter().all(|&id| id == pebble || id.is_none()));
    assert!(shallow.iter().filter(|&&id| id == pebble).count() > 250);
    let deep: Vec<_> = (0..300)
        .map(|_| choose_item(&content, 30, &mut rng))
        .collect();
    assert!(deep.iter().all(|&id| id == content.item_named("relic")));
}

#[test]
fn spawning_is_a_function_of_the_stream() {
    let content = Content::embedded();
    let draw = || {
        let mut rng = RunSeed(99).stream("spawn", 6);
        (0..50)
            .map(|_| choose_monster(&content, 6, &mut rng))
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(), draw());
}

#[test]
fn the_error_type_is_plain_data() {
    let error = ContentError {
        file: "a.ron".into(),
        line: 1,
        column: 2,
        entry: None,
        message: "m".into(),
    };
    assert_eq!(error.to_string(), "a.ron:1:2: m");
    let one = ContentErrors(vec![error]);
    assert_eq!(
        one.to_string(),
        "a.ron:1:2: m\n1 problem in the content; nothing was loaded"
    );
}

#[test]
fn item_definitions_round_trip_through_ron() {
    // A mod author may generate files by serializing definitions.
    let content = Content::embedded();
    let text = ron::to_string(content.items()).expect("serializes");
    let again = parse_items("items.ron", &text).expect("reads back");
    assert_eq!(again.items(), content.items());
}
