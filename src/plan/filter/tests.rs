use super::*;

const PAYLOAD: &str = "openwop.rfc0021.accept.payload-invalid";

fn subject<'a>(id: &'a str, case_id: &'a str, level: Level, source: &'a str) -> Subject<'a> {
    Subject {
        id,
        case_id,
        level,
        source,
        profile: Some("openwop"),
    }
}

/// A small suite: (expanded id, case id, level, source).
const CASES: [(&str, &str, Level, &str); 6] = [
    (PAYLOAD, PAYLOAD, Level::Must, "RFC 0021 §B"),
    (
        "openwop.rfc0021.accept.payload-invalid-twin[error,empty-code]",
        "openwop.rfc0021.accept.payload-invalid-twin",
        Level::Must,
        "RFC 0021 §B",
    ),
    (
        "openwop.rfc0091.advertised-mime-accepted[image,image/png]",
        "openwop.rfc0091.advertised-mime-accepted",
        Level::Must,
        "RFC 0091 §A",
    ),
    (
        "openwop.rfc0091.unadvertised-rejected[audio]",
        "openwop.rfc0091.unadvertised-rejected",
        Level::Must,
        "RFC 0091 §A",
    ),
    (
        "openwop.rfc0091.shape.base64-noise[image]",
        "openwop.rfc0091.shape.base64-noise",
        Level::Should,
        "RFC 0091 §B.2 (base64)",
    ),
    (
        "openwop.rfc0196.mapped-ipv4-rejected[::ffff:7f00:1]",
        "openwop.rfc0196.mapped-ipv4-rejected",
        Level::Should,
        "RFC 0196 §B.6",
    ),
];

fn known() -> HashSet<String> {
    CASES
        .iter()
        .flat_map(|(id, case, _, _)| [id.to_string(), case.to_string()])
        .collect()
}

/// The ids `filters` (all of them) select from [`CASES`].
fn selected(filters: &[&str]) -> Vec<&'static str> {
    let filters: Vec<Filter> = filters.iter().map(|f| Filter::parse(f).unwrap()).collect();
    let known = known();
    CASES
        .iter()
        .filter(|(id, case, level, source)| {
            selects(&filters, &subject(id, case, *level, source), Some(&known))
        })
        .map(|(id, ..)| *id)
        .collect()
}

#[test]
fn today_s_forms_keep_working() {
    assert_eq!(selected(&["openwop.rfc0091.*"]).len(), 3);
    assert_eq!(
        selected(&["unadvertised"]),
        ["openwop.rfc0091.unadvertised-rejected[audio]"]
    );
    assert_eq!(selected(&["level:SHOULD"]).len(), 2);
    assert_eq!(selected(&["level:should"]).len(), 2);
    assert_eq!(selected(&["source:\"RFC 0091 §A\""]).len(), 2);
    // Unquoted, the whole text is the value, as before.
    assert_eq!(selected(&["source:rfc 0021"]).len(), 2);
    assert_eq!(selected(&["source:RFC 0091 §B.2 (base64)"]).len(), 1);
    assert_eq!(selected(&["id:unadvertised"]).len(), 1);
    // Brackets are literal, as ids hold them.
    assert_eq!(
        selected(&["openwop.rfc0091.advertised-mime-accepted[image,image/png]"]),
        ["openwop.rfc0091.advertised-mime-accepted[image,image/png]"]
    );
    assert_eq!(
        selected(&["openwop.rfc0196.mapped-ipv4-rejected[::ffff:7f00:1]"]).len(),
        1
    );
}

#[test]
fn an_exact_id_selects_only_itself_not_the_ids_that_extend_it() {
    assert_eq!(selected(&[PAYLOAD]), [PAYLOAD]);
    assert_eq!(selected(&[&format!("id({PAYLOAD})")]), [PAYLOAD]);
    assert_eq!(selected(&[&format!("id(={PAYLOAD})")]), [PAYLOAD]);
    // A substring or glob still selects the family.
    assert_eq!(selected(&["payload-invalid"]).len(), 2);
    assert_eq!(selected(&[&format!("id(~{PAYLOAD})")]).len(), 2);
    assert_eq!(selected(&[&format!("{PAYLOAD}*")]).len(), 2);
    // A case id names every expansion of the case.
    assert_eq!(
        selected(&["openwop.rfc0091.unadvertised-rejected"]),
        ["openwop.rfc0091.unadvertised-rejected[audio]"]
    );
}

#[test]
fn several_filters_and_the_operators_combine_as_documented() {
    // `run --help`'s example: the MUST cases of RFC 0091, not their union.
    assert_eq!(selected(&["openwop.rfc0091.*", "level:MUST"]).len(), 2);
    assert_eq!(selected(&["openwop.rfc0091.* and level(MUST)"]).len(), 2);
    assert_eq!(selected(&["openwop.rfc0091.* & level(MUST)"]).len(), 2);
    assert_eq!(selected(&["level(SHOULD) or payload-invalid"]).len(), 4);
    assert_eq!(selected(&["level(SHOULD) | payload-invalid"]).len(), 4);
    assert_eq!(selected(&["not level(MUST)"]).len(), 2);
    assert_eq!(selected(&["!level(MUST)"]).len(), 2);
    // not > and > or.
    assert_eq!(
        selected(&["level(SHOULD) or source(RFC 0021) and not id(#*twin*)"]),
        [
            PAYLOAD,
            "openwop.rfc0091.shape.base64-noise[image]",
            "openwop.rfc0196.mapped-ipv4-rejected[::ffff:7f00:1]"
        ]
    );
    assert_eq!(
        selected(&["(level(SHOULD) or source(RFC 0021)) and not id(#*twin*)"]).len(),
        3
    );
    assert_eq!(
        selected(&["source(\"RFC 0091 §B.2 (base64)\")"]),
        ["openwop.rfc0091.shape.base64-noise[image]"]
    );
    assert_eq!(selected(&["source(RFC 0091 §B.2 (base64))"]).len(), 1);
    assert_eq!(selected(&["source(=rfc 0091 §a)"]).len(), 2);
    assert_eq!(selected(&["profile(openwop)"]).len(), 6);
    assert_eq!(selected(&["profile(agui)"]).len(), 0);
    assert_eq!(selected(&["NOT level(must) AND id(#*[image])"]).len(), 1);
}

#[test]
fn outcome_is_judged_on_a_saved_report() {
    let filter = Filter::parse("outcome(fail) or outcome(blocked)").unwrap();
    assert!(filter.uses_outcome());
    assert!(!Filter::parse("level(MUST)").unwrap().uses_outcome());
    let (id, case, level, source) = CASES[3];
    let s = subject(id, case, level, source);
    assert!(!filter.matches(&s, None), "no report: no outcome");
    let outcomes = HashMap::from([(id.to_string(), Outcome::Blocked)]);
    let filter = filter.with_outcomes(Arc::new(outcomes));
    assert!(filter.matches(&s, None));
    let (id, case, level, source) = CASES[0];
    assert!(!filter.matches(&subject(id, case, level, source), None));
}

#[test]
fn parse_errors_name_the_column() {
    let cases: [(&str, usize, &str); 12] = [
        ("id(foo", 3, "never closed"),
        ("(level(MUST)", 1, "never closed"),
        ("level(MUST))", 12, "without its `(`"),
        ("level(MUST) and", 13, "needs a term after it"),
        ("or level(MUST)", 1, "expected a term before `or`"),
        ("not", 1, "needs a term"),
        ("levl(MUST)", 1, "unknown term `levl(`"),
        ("level(MUTS)", 7, "did you mean `MUST`?"),
        ("outcome(failed)", 9, "did you mean `fail`?"),
        ("id()", 4, "needs a value"),
        ("a b", 3, "expected `and`, `or` or the end"),
        ("source:\"RFC", 8, "quote is never closed"),
    ];
    for (text, column, says) in cases {
        let error = parse::parse(text).unwrap_err();
        assert_eq!(error.column, column, "{text}: {error:?}");
        assert!(error.message.contains(says), "{text}: {error:?}");
    }
    let shown = Filter::parse("level(MUST) and").unwrap_err();
    assert_eq!(
        shown,
        "--filter `level(MUST) and`: `and` needs a term after it (column 13)\n    level(MUST) and\n                ^"
    );
    assert!(parse::parse("   ").unwrap_err().message.contains("empty"));
    assert!(
        Filter::parse("levl:MUST")
            .unwrap_err()
            .contains("did you mean `level`?")
    );
    assert!(
        Filter::parse("colour:red")
            .unwrap_err()
            .contains("unknown --filter key")
    );
}

#[test]
fn the_filter_shows_as_written_and_names_its_id_words() {
    let filter = Filter::parse("level:MUST and (foo or id(=bar))").unwrap();
    assert_eq!(filter.to_string(), "level:MUST and (foo or id(=bar))");
    assert_eq!(filter.id_words(), ["foo", "bar"]);
}

#[test]
fn globs_treat_brackets_as_themselves() {
    assert!(glob("a.*[image]", "a.b[image]"));
    assert!(!glob("a.*[image]", "a.b[audio]"));
    assert!(glob("a?c", "abc"));
    assert!(glob("*", ""));
    assert!(!glob("a*d", "abc"));
    assert!(glob("*b*b*", "abcbd"));
}
