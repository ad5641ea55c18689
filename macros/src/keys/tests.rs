//! Key checking on a test key table: suggestions, list values and word values with each error at
//! its culprit.

use super::list::PathList;
use super::strings::StrList;
use super::suggest;
use super::word::Word;
use crate::common::args::{from_metas, meta_list};
use crate::symbols::{ARG, ARG_KEYS, Key, PROMPT, PROMPT_KEYS, TOOL, TOOL_KEYS, Value};
use darling::FromMeta;

/// A table with a list key, as `#[tool]` will have one for `asks = [..]`.
const TEST_KEYS: &[Key] = &[("asks", Value::PathList), ("name", Value::Str)];

/// The arguments of [`TEST_KEYS`].
#[derive(FromMeta, Default, Debug)]
struct TestArgs {
    /// `asks = [..]`.
    asks: Option<PathList>,
    /// `name = ".."`.
    name: Option<String>,
}

/// Parses `#[tool(args)]` against [`TEST_KEYS`]: the arguments, and each error as (message, the
/// source text it points at).
fn parse_args(args: &str) -> (Option<TestArgs>, Vec<(String, String)>) {
    let mut acc = darling::Error::accumulator();
    let tokens = args.parse().expect("test arguments tokenize");
    let parsed =
        meta_list(tokens, &mut acc).and_then(|metas| from_metas(TOOL, TEST_KEYS, metas, &mut acc));
    let errors = acc
        .into_inner()
        .into_iter()
        .map(|e| (e.to_string(), e.span().source_text().unwrap_or_default()))
        .collect();
    (parsed, errors)
}

/// [`parse_args`], keeping the paths of `asks` as written.
fn parse(args: &str) -> (Vec<String>, Vec<(String, String)>) {
    let (parsed, errors) = parse_args(args);
    let paths = parsed
        .and_then(|p| p.asks)
        .map(|list| list.paths.iter().map(crate::diag::written).collect())
        .unwrap_or_default();
    (paths, errors)
}

fn error(msg: &str, at: &str) -> (String, String) {
    (msg.to_owned(), at.to_owned())
}

#[test]
fn suggestions() {
    let any = |_| true;
    assert_eq!(
        suggest("descripton", TOOL_KEYS, any).map(|k| k.0),
        Some("description")
    );
    assert_eq!(
        suggest("readonly_hint", TOOL_KEYS, any).map(|k| k.0),
        Some("read_only_hint")
    );
    assert_eq!(
        suggest("destructive", TOOL_KEYS, any).map(|k| k.0),
        Some("destructive_hint")
    );
    assert_eq!(
        suggest("readonly", TOOL_KEYS, any).map(|k| k.0),
        Some("read_only_hint")
    );
    assert_eq!(suggest("zzz", TOOL_KEYS, any), None);
}

#[test]
fn a_list_of_paths_keeps_each_path_with_its_spans() {
    let (paths, errors) = parse("asks = [approve, travel::confirm, ::abs::q, crate::m::q,]");
    assert_eq!(
        paths,
        ["approve", "travel::confirm", "::abs::q", "crate::m::q"]
    );
    assert_eq!(errors, []);
    assert_eq!(parse("asks = []"), (vec![], vec![]));
    let (args, errors) = parse_args("name = \"book\", asks = [approve]");
    assert_eq!(
        (args.and_then(|a| a.name).as_deref(), errors),
        (Some("book"), vec![])
    );
}

#[test]
fn a_value_that_is_not_a_list_is_one_error_at_it() {
    let msg = "`#[tool]` argument `asks` takes a list of paths: write `asks = [..]`";
    // A lone path is still read, as a list of one, so nothing later reports it again.
    assert_eq!(
        parse("asks = approve"),
        (vec!["approve".into()], vec![error(msg, "approve")])
    );
    assert_eq!(
        parse("asks = \"approve\""),
        (vec![], vec![error(msg, "\"approve\"")])
    );
    assert_eq!(parse("asks(approve)"), (vec![], vec![error(msg, "asks")]));
    assert_eq!(parse("asks"), (vec![], vec![error(msg, "asks")]));
}

#[test]
fn an_element_that_is_not_a_path_is_one_error_at_the_element() {
    let msg = "`#[tool]` argument `asks` takes a list of paths, and this element is not a path; write one such as `name` or `module::name`";
    let (paths, errors) =
        parse("asks = [approve, \"confirm\", 3, <T as Q>::x, f(), travel::confirm]");
    assert_eq!(paths, ["approve", "travel::confirm"]);
    assert_eq!(
        errors,
        [
            error(msg, "\"confirm\""),
            error(msg, "3"),
            error(msg, "<T as Q>::x"),
            error(msg, "f()"),
        ]
    );
}

#[test]
fn a_path_listed_twice_is_one_error_at_the_second() {
    let (paths, errors) = parse("asks = [approve, travel::confirm, approve, travel :: confirm]");
    assert_eq!(paths, ["approve", "travel::confirm"]);
    assert_eq!(
        errors,
        [
            error(
                "`approve` is listed twice in `#[tool]` argument `asks`; remove one",
                "approve"
            ),
            error(
                "`travel::confirm` is listed twice in `#[tool]` argument `asks`; remove one",
                "travel :: confirm"
            ),
        ]
    );
    // The second `approve` is the one reported: the first stays in the list.
    let (_, errors) = parse("asks = [approve, other, approve]");
    assert_eq!(errors.len(), 1);
}

#[test]
fn a_list_key_given_twice_or_misspelt_is_reported_like_any_key() {
    let (paths, errors) = parse("asks = [a], asks = [b]");
    assert_eq!(paths, ["a"]);
    assert_eq!(
        errors,
        [error(
            "`#[tool]` argument `asks` is given twice; remove one",
            "asks"
        )]
    );
    // Misspelt, it is read under the key it suggests, and its elements are still checked.
    let (paths, errors) = parse("aks = [a, a]");
    assert_eq!(paths, ["a"]);
    assert_eq!(
        errors,
        [
            error(
                "unknown `#[tool]` argument `aks`; did you mean `asks`?",
                "aks"
            ),
            error(
                "`a` is listed twice in `#[tool]` argument `asks`; remove one",
                "a"
            ),
        ]
    );
}

#[test]
fn among_equally_close_keys_the_suggestion_takes_one_the_value_fits() {
    const KEYS: &[Key] = &[("tags", Value::Str), ("tabs", Value::PathList)];
    let (_, errors) = {
        let mut acc = darling::Error::accumulator();
        let metas = meta_list("taks = [a]".parse().expect("tokens"), &mut acc).expect("metas");
        let _ = crate::keys::known_keys(TOOL, KEYS, metas, &mut acc);
        ((), acc.into_inner())
    };
    assert_eq!(
        errors[0].to_string(),
        "unknown `#[tool]` argument `taks`; did you mean `tabs`?"
    );
}

/// A table with word keys, as `#[tool]`'s `task` and `task_start`.
const WORD_KEYS: &[Key] = &[
    ("task", Value::Word(&["optional", "required"])),
    ("task_start", Value::Word(&["entry", "explicit"])),
];

/// The arguments of [`WORD_KEYS`].
#[derive(FromMeta, Default)]
struct WordArgs {
    /// `task = ..`.
    task: Option<Word>,
    /// `task_start = ..`.
    task_start: Option<Word>,
}

/// Pairs of texts: (word, its key as written), or (message, the source text it points at).
type Texts = Vec<(String, String)>;

/// Parses `#[tool(args)]` against [`WORD_KEYS`]: each key's word and the source text of its
/// key, and each error as (message, the source text it points at).
fn parse_words(args: &str) -> (Texts, Texts) {
    let mut acc = darling::Error::accumulator();
    let tokens = args.parse().expect("test arguments tokenize");
    let parsed: Option<WordArgs> =
        meta_list(tokens, &mut acc).and_then(|metas| from_metas(TOOL, WORD_KEYS, metas, &mut acc));
    let parsed = parsed.expect("darling reads what the checks kept");
    let words = [parsed.task, parsed.task_start]
        .into_iter()
        .flatten()
        .map(|w| (w.word, w.key.source_text().unwrap_or_default()))
        .collect();
    let errors = acc
        .into_inner()
        .into_iter()
        .map(|e| (e.to_string(), e.span().source_text().unwrap_or_default()))
        .collect();
    (words, errors)
}

fn word(word: &str, key: &str) -> (String, String) {
    (word.to_owned(), key.to_owned())
}

#[test]
fn a_word_is_read_with_the_span_of_its_key() {
    let (words, errors) = parse_words("task = required, task_start = explicit");
    assert_eq!(errors, []);
    assert_eq!(
        words,
        [word("required", "task"), word("explicit", "task_start")]
    );
}

#[test]
fn a_refused_word_is_one_error_at_it_and_the_key_keeps_the_word_it_is_taken_for() {
    let taken = |args: &str| parse_words(args).0;
    let (_, errors) = parse_words("task = requried");
    assert_eq!(
        errors,
        [error(
            "`#[tool]` argument `task` takes `optional` or `required`; did you mean `required`?",
            "requried"
        )]
    );
    assert_eq!(taken("task = requried"), [word("required", "task")]);
    let (_, errors) = parse_words("task = \"required\"");
    assert_eq!(
        errors,
        [error(
            "`#[tool]` argument `task` takes `optional` or `required` as a bare word, not a string: write `task = required`",
            "\"required\""
        )]
    );
    assert_eq!(taken("task = \"required\""), [word("required", "task")]);
    let expected = "`#[tool]` argument `task` takes `optional` or `required`: write `task = optional` or `task = required`";
    for (args, at) in [
        ("task = always", "always"),
        ("task", "task"),
        ("task(optional)", "task"),
        ("task = TaskSupport::Optional", "TaskSupport::Optional"),
        ("task = 1", "1"),
    ] {
        let (words, errors) = parse_words(args);
        assert_eq!(errors, [error(expected, at)], "{args}");
        assert_eq!(words, [word("optional", "task")], "{args}");
    }
}

#[test]
fn a_key_of_another_item_attribute_is_misplaced_not_misspelt() {
    let mut acc = darling::Error::accumulator();
    let metas = meta_list("task = optional".parse().unwrap(), &mut acc).unwrap();
    let kept = super::known_keys(PROMPT, PROMPT_KEYS, metas, &mut acc);
    assert!(kept.is_empty());
    let errors: Vec<String> = acc.into_inner().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "unknown `#[prompt]` argument `task` (a `#[tool]` argument); expected one of `name`, `title`, `description`, `asks`, `scopes`, `crate`"
        ]
    );
    // Not on a parameter's `#[arg]`, where `name` is still taken for `rename`.
    let mut acc = darling::Error::accumulator();
    let metas = meta_list("name = \"q\"".parse().unwrap(), &mut acc).unwrap();
    let kept = super::known_keys(ARG, ARG_KEYS, metas, &mut acc);
    assert_eq!(kept.len(), 1);
    let errors: Vec<String> = acc.into_inner().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["unknown `#[arg]` argument `name`; did you mean `rename`?"]
    );
}

/// A table with a string-list key, as `#[tool]`'s `scopes`.
const STR_KEYS: &[Key] = &[("scopes", Value::StrList), ("name", Value::Str)];

/// The arguments of [`STR_KEYS`].
#[derive(FromMeta, Default)]
struct StrArgs {
    /// `scopes = [..]`.
    scopes: Option<StrList>,
    /// `name = ".."`.
    #[allow(dead_code)]
    name: Option<String>,
}

/// Parses `#[tool(args)]` against [`STR_KEYS`]: the strings of `scopes` with the source text
/// of each (`None` when the key was dropped), the source text of the list, and each error as
/// (message, the source text it points at).
fn parse_strs(args: &str) -> (Option<(Texts, String)>, Texts) {
    let mut acc = darling::Error::accumulator();
    let tokens = args.parse().expect("test arguments tokenize");
    let parsed: Option<StrArgs> =
        meta_list(tokens, &mut acc).and_then(|metas| from_metas(TOOL, STR_KEYS, metas, &mut acc));
    let list = parsed.expect("darling reads what the checks kept").scopes;
    let strs = list.map(|list| {
        let strs = list
            .strs
            .iter()
            .map(|s| (s.value(), s.span().source_text().unwrap_or_default()))
            .collect();
        (strs, list.span.source_text().unwrap_or_default())
    });
    let errors = acc
        .into_inner()
        .into_iter()
        .map(|e| (e.to_string(), e.span().source_text().unwrap_or_default()))
        .collect();
    (strs, errors)
}

#[test]
fn a_list_of_strings_keeps_each_literal_with_its_span() {
    let (strs, errors) = parse_strs("scopes = [\"books:read\", r\"x\", \"orders:write\",]");
    assert_eq!(errors, []);
    let (strs, list) = strs.expect("the key is kept");
    assert_eq!(
        strs,
        [
            word("books:read", "\"books:read\""),
            word("x", "r\"x\""),
            word("orders:write", "\"orders:write\"")
        ]
    );
    assert_eq!(list, "[\"books:read\", r\"x\", \"orders:write\",]");
    // An empty list is read as one: whether it may be empty is the model's rule.
    assert_eq!(
        parse_strs("scopes = []"),
        (Some((vec![], "[]".into())), vec![])
    );
}

#[test]
fn a_string_list_value_that_is_not_a_list_is_one_error_at_it() {
    let expected =
        "`#[tool]` argument `scopes` takes a list of string literals: write `scopes = [\"...\"]`";
    for (args, at) in [
        ("scopes = a", "a"),
        ("scopes = 1", "1"),
        ("scopes = f()", "f()"),
        ("scopes(\"a\")", "scopes"),
        ("scopes", "scopes"),
    ] {
        assert_eq!(
            parse_strs(args),
            (None, vec![error(expected, at)]),
            "{args}"
        );
    }
    // A lone string is still read, as a list of one, so its own checks still run.
    let (strs, errors) = parse_strs("scopes = \"books:read\"");
    assert_eq!(
        errors,
        [error(
            "`#[tool]` argument `scopes` takes a list of string literals, not a single string: write `scopes = [\"books:read\"]`",
            "\"books:read\""
        )]
    );
    assert_eq!(
        strs.expect("kept as a list of one").0,
        [word("books:read", "\"books:read\"")]
    );
}

#[test]
fn an_element_that_is_not_a_string_is_one_error_at_the_element() {
    let rule =
        "`#[tool]` argument `scopes` takes a list of string literals, and this element is not one";
    let (strs, errors) = parse_strs("scopes = [\"a\", b, 1, 'c', m::d, f(), \"e\"]");
    assert_eq!(
        strs.expect("the good elements stay").0,
        [word("a", "\"a\""), word("e", "\"e\"")]
    );
    assert_eq!(
        errors,
        [
            error(&format!("{rule}; write it in quotes: `\"b\"`"), "b"),
            error(&format!("{rule}; write it in quotes: `\"1\"`"), "1"),
            error(
                &format!("{rule}; write it in double quotes: `\"c\"`"),
                "'c'"
            ),
            error(&format!("{rule}; write it in quotes: `\"m::d\"`"), "m::d"),
            error(
                &format!(
                    "{rule}: the value is checked when the macro expands, so it must be written out; write a literal such as `\"orders:write\"`"
                ),
                "f()"
            ),
        ]
    );
    // When no element is left the key is dropped, so the empty-list rule does not fire too.
    let (strs, errors) = parse_strs("scopes = [a]");
    assert_eq!((strs, errors.len()), (None, 1));
}

#[test]
fn a_string_listed_twice_is_one_error_at_the_second() {
    let (strs, errors) = parse_strs("scopes = [\"a\", \"b\", r\"a\", \"b\"]");
    assert_eq!(
        strs.expect("kept").0,
        [word("a", "\"a\""), word("b", "\"b\"")]
    );
    assert_eq!(
        errors,
        [
            error(
                "`r\"a\"` is listed twice in `#[tool]` argument `scopes`; remove one",
                "r\"a\""
            ),
            error(
                "`\"b\"` is listed twice in `#[tool]` argument `scopes`; remove one",
                "\"b\""
            ),
        ]
    );
}
