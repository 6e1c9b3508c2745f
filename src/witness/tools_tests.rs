use super::*;

const NAME: &str = "mcp__mmconform__mmconform_tool_media";

fn turn() -> ToolTurn {
    let mut turn = ToolTurn::default();
    turn.declare("Read");
    turn.declare(NAME);
    turn.read_user_text(&Directive::text("0123456789abcdef-c2", "png"));
    turn
}

/// A host that lists the tool as deferred and offers its own search.
fn deferred_turn() -> ToolTurn {
    let mut turn = ToolTurn::default();
    turn.declare("Read");
    turn.declare("ToolSearch");
    turn.declare_deferred("DeferredToolPlaceholder", true);
    turn.read_listing(&format!(
        "Use ToolSearch with query \"select:<name>\" to load them:\nCronCreate\n{NAME}\n\nMore."
    ));
    turn.read_user_text(&Directive::text("0123456789abcdef-c2", "wav"));
    turn
}

#[test]
fn the_tool_is_called_once_when_declared_and_asked_for() {
    let call = decide(&turn(), 7).expect("a tool call");
    assert_eq!(call.id, "call_mmconform_7");
    assert_eq!(call.name, NAME);
    assert!(call.calls_the_tool());
    assert_eq!(
        call.arguments(),
        serde_json::json!({"case": "0123456789abcdef-c2", "medium": "png"})
    );
    let mut again = turn();
    again.saw_call(NAME);
    assert_eq!(decide(&again, 8), None, "the history already called it");
}

#[test]
fn no_call_without_the_tool_or_the_directive() {
    let mut undeclared = turn();
    undeclared.declared = None;
    assert_eq!(decide(&undeclared, 1), None);
    let mut unasked = turn();
    unasked.directive = None;
    assert_eq!(decide(&unasked, 1), None);
    let mut other = ToolTurn::default();
    other.saw_call("Read");
    assert!(!other.called && !other.searched);
}

#[test]
fn a_listed_tool_is_searched_for_then_called_once_found() {
    let first = decide(&deferred_turn(), 1).expect("a search");
    assert_eq!(first.name, "ToolSearch");
    assert_eq!(first.way, Way::Search { tool: NAME.into() });
    assert!(!first.calls_the_tool());
    assert_eq!(first.case, "0123456789abcdef-c2");

    let mut after = deferred_turn();
    after.saw_call("ToolSearch");
    after.saw_found(NAME);
    // Still marked deferred in `tools`: the search's result loaded it.
    after.declare_deferred(NAME, true);
    let second = decide(&after, 2).expect("the tool");
    assert_eq!((second.name.as_str(), &second.way), (NAME, &Way::Direct));

    after.saw_call(NAME);
    assert_eq!(decide(&after, 3), None, "one call per conversation");
}

#[test]
fn a_search_that_loads_nothing_is_made_once() {
    let mut failed = deferred_turn();
    failed.saw_call("ToolSearch");
    assert_eq!(decide(&failed, 2), None, "listed only, not found: text");
    // Declared (deferred) and not found: called by name, once.
    failed.declare_deferred(NAME, true);
    let call = decide(&failed, 3).expect("the tool by name");
    assert_eq!(call.way, Way::Direct);
}

#[test]
fn a_deferred_tool_is_searched_for_only_when_a_search_is_offered() {
    let mut with_search = ToolTurn::default();
    with_search.declare("tool_search");
    with_search.declare_deferred(NAME, true);
    with_search.read_user_text(&Directive::text("c", "png"));
    assert!(matches!(
        decide(&with_search, 1).map(|c| c.way),
        Some(Way::Search { .. })
    ));
    let mut without = with_search.clone();
    without.search = None;
    let call = decide(&without, 1).expect("called by name");
    assert_eq!((call.name.as_str(), call.way), (NAME, Way::Direct));
}

#[test]
fn a_listing_is_a_line_that_is_a_name_not_a_sentence_mentioning_it() {
    let mut turn = ToolTurn::default();
    turn.read_listing("Call the tool mmconform_tool_media with the case below.");
    assert_eq!(turn.listed, None);
    turn.read_listing(
        "<available-deferred-tools>\n  mcp__m__mmconform_tool_media  \n</available-deferred-tools>",
    );
    assert_eq!(turn.listed.as_deref(), Some("mcp__m__mmconform_tool_media"));
    for name in ["ToolSearch", "tool_search", "Tool-Search", "TOOLSEARCH"] {
        assert!(is_tool_search(name), "{name}");
    }
    for name in ["ToolSearchResult", "search", "mcp__x__tool_search_web"] {
        assert!(!is_tool_search(name), "{name}");
    }
}
