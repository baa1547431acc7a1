//! docs/invariants.md lists exactly the catalogue's invariants, in its
//! order: an id added, renamed or dropped in the code and not in the docs
//! (or the other way round) fails here.

use game_core::invariants::CATALOGUE;

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
    let catalogue: Vec<&str> = CATALOGUE.iter().map(|i| i.id).collect();
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
