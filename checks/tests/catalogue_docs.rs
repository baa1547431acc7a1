//! docs/invariants.md lists exactly the catalogue's invariants, in its
//! order: an id added, renamed or dropped in the code and not in the docs
//! (or the other way round) fails here.

use checks::CATALOGUE;

#[test]
fn the_invariants_doc_lists_exactly_the_catalogue() {
    let doc = include_str!("../../docs/invariants.md");
    // The catalogue's table: from its header to the first line that is not
    // a row.
    let start = doc
        .find("| id | when | asserts |")
        .expect("docs/invariants.md has the catalogue's table");
    let documented: Vec<&str> = doc[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|row| {
            let id = row.split('|').nth(1).expect("a first column").trim();
            id.trim_matches('`')
        })
        .collect();
    let catalogue: Vec<&str> = CATALOGUE.iter().map(|i| i.id.name()).collect();
    for id in &catalogue {
        assert!(
            documented.contains(id),
            "{id} is in the catalogue but not in docs/invariants.md"
        );
    }
    for id in &documented {
        assert!(
            catalogue.contains(id),
            "docs/invariants.md lists {id}, which the catalogue does not have"
        );
    }
    assert_eq!(
        documented, catalogue,
        "the table's order is the catalogue's"
    );
}

/// docs/invariants.md's proof-of-reach tables list exactly the reach
/// catalogue: every fixed situation, in its order, and every template.
#[test]
fn the_invariants_doc_lists_every_situation_of_the_reach_catalogue() {
    use checks::reach::{FIXED, PER_DEPTH, PER_GENERATOR, PER_ITEM, PER_MONSTER};
    let doc = include_str!("../../docs/invariants.md");
    let start = doc
        .find("## Proof of reach")
        .expect("docs/invariants.md has a proof-of-reach section");
    let ids: Vec<&str> = doc[start..]
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|row| row.split('|').nth(1).expect("a first column").trim())
        .map(|id| id.trim_matches('`'))
        .collect();
    let mut expected: Vec<String> = FIXED.iter().map(|(id, _)| id.to_string()).collect();
    expected.extend(PER_MONSTER.iter().map(|(w, _)| format!("monster.KIND.{w}")));
    expected.extend(PER_ITEM.iter().map(|(w, _)| format!("item.KIND.{w}")));
    expected.push(format!("depth.N.{}", PER_DEPTH.0));
    expected.push(format!("floor.GENERATOR.{}", PER_GENERATOR.0));
    assert_eq!(
        ids, expected,
        "the tables' rows are the catalogue's, in order"
    );
}
