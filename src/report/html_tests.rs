use super::*;
use crate::event_fixtures as fixtures;

fn page(events: &[Event]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.html");
    let mut reporter = HtmlReporter::new(path.clone());
    fixtures::feed(&mut reporter, events);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_page_has_the_verdict_the_counts_and_each_case_to_look_at() {
    let events = fixtures::events();
    let text = page(&events);
    assert!(text.starts_with("<!DOCTYPE html>"), "{text}");
    assert!(text.contains("<span id=\"verdict\" class=\"verdict not-met\">failed</span> (exit 1)"));
    for event in &events {
        let Event::CaseFinished { index, result } = event else {
            continue;
        };
        let listed = text.contains(&format!("id=\"case-{index}\""));
        assert_eq!(
            listed,
            shown(result.outcome),
            "{} {}",
            result.id,
            result.outcome
        );
        if result.outcome == Outcome::Fail {
            let failed = result.assertions_failed().next().unwrap();
            assert!(text.contains(&format!(
                "<td>{}</td><td>{}</td>",
                esc(&failed.expected),
                esc(&failed.actual)
            )));
            assert!(text.contains(&esc(&result.requirement.text)));
        }
    }
    assert!(text.contains("<section id=\"rerun\">"), "{text}");
    assert!(!text.contains("<script") && !text.contains("http-equiv") && !text.contains(" src="));
}

#[test]
fn everything_a_target_sent_is_escaped() {
    let mut events = fixtures::events();
    for event in &mut events {
        if let Event::CaseFinished { result, .. } = event {
            result.reason = Some("<script>alert(1)</script>".into());
            result
                .notes
                .push("</pre><img src=x onerror=alert(2)>".into());
            for exchange in &mut result.exchanges {
                if let Some(response) = &mut exchange.response {
                    response.body = "<script>alert(3)</script>&amp;\u{1b}[2J".into();
                }
            }
        }
    }
    let text = page(&events);
    assert!(!text.contains("<script"), "{text}");
    assert!(!text.contains("<img"), "{text}");
    assert!(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(text.contains("&lt;/pre&gt;&lt;img src=x onerror=alert(2)&gt;"));
    assert!(
        text.contains("&amp;amp;\u{fffd}[2J"),
        "a control character is replaced"
    );
}

#[test]
fn a_cause_of_many_cases_is_one_article_with_its_ids() {
    let mut events = fixtures::events();
    let Some(Event::RunFinished(summary)) = events.pop() else {
        panic!("the fixture ends with RunFinished");
    };
    for i in 0..5 {
        let mut case = fixtures::cases()[0].clone();
        case.id = format!("caused[{i}]");
        case.outcome = Outcome::Blocked;
        case.cause = Some(crate::outcome::Cause {
            what: "POST u answered 404".into(),
            fix: Some("pass the API base".into()),
        });
        events.push(Event::CaseFinished {
            index: 50 + i,
            result: Box::new(case),
        });
    }
    events.push(Event::RunFinished(summary));
    let text = page(&events);
    assert_eq!(text.matches("<article class=\"cause").count(), 1, "{text}");
    assert!(text.contains("5 cases: POST u answered 404</h3>"), "{text}");
    assert!(text.contains("<p class=\"fix\">Fix: pass the API base</p>"));
    assert!(text.contains("<li><code>caused[4]</code></li>"));
    assert!(
        !text.contains("id=\"case-54\""),
        "a grouped case has no article of its own"
    );
}
