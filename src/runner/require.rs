//! `--require` judges requirements, not expansion instances. A skipped or blocked case
//! waits until the run ends; then, for its requirement (source and sentence):
//!
//! - exercised by another case (pass, fail, warn, xfail): it stays as it is;
//! - not exercised, and skipped because the host advertises *more* than the case looks
//!   for (a requirement about what is not advertised, on a host that advertises it
//!   all): it does not apply, and stays a skip;
//! - not exercised, and skipped because the host does not offer an optional capability
//!   the requirement is about (an `applies` check marked `optional`): it stays a skip;
//! - not exercised, and skipped for what only the user can give (`--media-base-url`,
//!   `--media-ref`, a token): it fails as "not exercised", unless `--waive` names it;
//!   its siblings skipped for what the host lacks then stay skips (the requirement does
//!   apply to the host: what is missing is the user's);
//! - otherwise (blocked, or the host lacks what the requirement needs): it fails.
//!
//! A case whose conformance profile is opted out (`--opt-out`) is never held.

use crate::config::RunConfig;
use crate::outcome::{CaseResult, Outcome};
use crate::plan::SkipCause;
use std::collections::BTreeSet;

/// A requirement as `--require` counts it: its source and its sentence.
type Key = (String, String);

fn key(result: &CaseResult) -> Key {
    (
        result.requirement.source.clone(),
        result.requirement.text.clone(),
    )
}

/// A case waiting for the end of the run.
pub struct Held {
    pub result: CaseResult,
    pub index: usize,
    pub cause: Option<SkipCause>,
}

#[derive(Default)]
pub struct RequireBook {
    exercised: BTreeSet<Key>,
    held: Vec<Held>,
}

impl RequireBook {
    /// Takes `held` to wait when `--require` must weigh it, or hands it back. A case that
    /// ran marks its requirement exercised.
    pub fn offer(&mut self, config: &RunConfig, profile: Option<&str>, held: Held) -> Option<Held> {
        let outcome = held.result.outcome;
        if matches!(
            outcome,
            Outcome::Pass | Outcome::Fail | Outcome::Warn | Outcome::Xfail
        ) {
            self.exercised.insert(key(&held.result));
        }
        if !config.require || !matches!(outcome, Outcome::Skip | Outcome::Blocked) {
            return Some(held);
        }
        if let Some(profile) = profile.filter(|p| config.opted_out_profiles.iter().any(|o| o == p))
        {
            let mut held = held;
            held.result.notes.push(format!(
                "profile {profile} is opted out, so --require does not apply"
            ));
            return Some(held);
        }
        self.held.push(held);
        None
    }

    /// Every held case, decided, in plan order.
    pub fn settle(self, config: &RunConfig) -> Vec<Held> {
        let RequireBook { exercised, held } = self;
        let mut held = held;
        held.sort_by_key(|h| h.index);
        let users: BTreeSet<Key> = held
            .iter()
            .filter(|h| h.cause == Some(SkipCause::RunInput))
            .map(|h| key(&h.result))
            .collect();
        for h in &mut held {
            let k = key(&h.result);
            let standing = if exercised.contains(&k) {
                Standing::Exercised
            } else if users.contains(&k) {
                Standing::UsersToEnable
            } else {
                Standing::Unexercised
            };
            weigh(&mut h.result, h.cause, standing, config);
        }
        held
    }
}

/// Where a held case's requirement stands at the end of the run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Another case ran it.
    Exercised,
    /// None ran it, and one of its cases needs what only the user can give.
    UsersToEnable,
    Unexercised,
}

/// Decides one held case (see the module's rules).
fn weigh(
    result: &mut CaseResult,
    cause: Option<SkipCause>,
    standing: Standing,
    config: &RunConfig,
) {
    let was = result.outcome;
    let reason = result.reason.clone().unwrap_or_default();
    if standing == Standing::Exercised {
        result.notes.push(
            "--require: another case exercised this requirement, so this one does not fail".into(),
        );
        return;
    }
    if standing == Standing::UsersToEnable
        && was == Outcome::Skip
        && cause == Some(SkipCause::HostLacks)
    {
        result.notes.push(
            "--require: the requirement is judged on its case that needs what only the user can give"
                .into(),
        );
        return;
    }
    let fail = |result: &mut CaseResult, why: String| {
        result.outcome = Outcome::Fail;
        result.reason = Some(why);
    };
    match (was, cause) {
        (Outcome::Skip, Some(SkipCause::HostHasMore)) => result.notes.push(
            "--require: the requirement does not apply to this host (it advertises what the case needs absent)"
                .into(),
        ),
        (Outcome::Skip, Some(SkipCause::NotOffered)) => result.notes.push(
            "--require: the requirement does not apply to this host (it does not offer the optional capability it is about)"
                .into(),
        ),
        (Outcome::Skip, Some(SkipCause::RunInput)) => {
            let subject = crate::plan::filter::Subject {
                id: &result.id,
                case_id: &result.case_id,
                level: result.requirement.level,
                source: &result.requirement.source,
                profile: config.protocol,
            };
            let waived = config.waived.iter().any(|w| w.matches(&subject, None));
            if waived {
                result
                    .notes
                    .push("--require: waived by name (--waive)".into());
            } else {
                fail(
                    result,
                    // `case was skip: ` first: evidence readers recognise it (`evidence::cell`).
                    format!(
                        "--require: case was skip: not exercised: {reason} (or --waive {})",
                        result.case_id
                    ),
                );
            }
        }
        _ => fail(result, format!("--require: case was {was}: {reason}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Target;
    use crate::event_fixtures as fixtures;
    use crate::outcome::Level;
    use crate::plan::filter::Filter;

    fn held(
        id: &str,
        text: &str,
        outcome: Outcome,
        cause: Option<SkipCause>,
        index: usize,
    ) -> Held {
        let mut result = fixtures::case(
            id,
            id,
            fixtures::requirement("s", Level::Must, text),
            outcome,
        );
        result.reason = Some("why".into());
        Held {
            result,
            index,
            cause,
        }
    }

    fn config() -> RunConfig {
        let mut config = RunConfig::new(Target::Offline);
        config.require = true;
        config
    }

    #[test]
    fn an_exercised_requirement_spares_its_skipped_siblings() {
        let config = config();
        let mut book = RequireBook::default();
        assert!(
            book.offer(
                &config,
                None,
                held(
                    "a[audio]",
                    "accept",
                    Outcome::Skip,
                    Some(SkipCause::HostLacks),
                    1
                )
            )
            .is_none()
        );
        assert!(
            book.offer(
                &config,
                None,
                held("a[image]", "accept", Outcome::Pass, None, 0)
            )
            .is_some()
        );
        assert!(
            book.offer(
                &config,
                None,
                held(
                    "b[image]",
                    "other",
                    Outcome::Skip,
                    Some(SkipCause::HostLacks),
                    2
                )
            )
            .is_none()
        );
        let settled = book.settle(&config);
        assert_eq!(settled[0].result.outcome, Outcome::Skip);
        assert_eq!(settled[1].result.outcome, Outcome::Fail);
        assert!(
            settled[1]
                .result
                .reason
                .as_deref()
                .unwrap()
                .starts_with("--require: case was skip")
        );
    }

    #[test]
    fn user_inputs_are_named_and_waivable_and_a_fuller_host_is_not_failed() {
        let mut config = config();
        let mut book = RequireBook::default();
        book.offer(
            &config,
            None,
            held(
                "url[image]",
                "url",
                Outcome::Skip,
                Some(SkipCause::RunInput),
                0,
            ),
        );
        book.offer(
            &config,
            None,
            held(
                "unadv[image]",
                "unadv",
                Outcome::Skip,
                Some(SkipCause::HostHasMore),
                1,
            ),
        );
        book.offer(
            &config,
            None,
            held("auth", "auth", Outcome::Skip, Some(SkipCause::RunInput), 2),
        );
        book.offer(
            &config,
            None,
            held("blocked", "b", Outcome::Blocked, None, 3),
        );
        // A sibling the host cannot take: judged on the case the user can enable.
        book.offer(
            &config,
            None,
            held(
                "url[audio]",
                "url",
                Outcome::Skip,
                Some(SkipCause::HostLacks),
                4,
            ),
        );
        config.waived = vec![Filter::parse("auth").unwrap()];
        let settled = book.settle(&config);
        let outcomes: Vec<Outcome> = settled.iter().map(|h| h.result.outcome).collect();
        assert_eq!(
            outcomes,
            [
                Outcome::Fail,
                Outcome::Skip,
                Outcome::Skip,
                Outcome::Fail,
                Outcome::Skip
            ]
        );
        let reason = settled[0].result.reason.as_deref().unwrap();
        assert!(
            reason.starts_with("--require: case was skip: not exercised: why"),
            "{reason}"
        );
        assert!(reason.contains("--waive url"), "{reason}");
    }

    #[test]
    fn an_optional_capability_the_host_does_not_offer_stays_a_skip() {
        let config = config();
        let mut book = RequireBook::default();
        let cause = Some(SkipCause::NotOffered);
        book.offer(&config, None, held("sh", "sh", Outcome::Skip, cause, 0));
        book.offer(
            &config,
            None,
            held("lack", "lack", Outcome::Skip, Some(SkipCause::HostLacks), 1),
        );
        let settled = book.settle(&config);
        let outcomes: Vec<Outcome> = settled.iter().map(|h| h.result.outcome).collect();
        assert_eq!(outcomes, [Outcome::Skip, Outcome::Fail]);
        assert!(settled[0].result.notes[0].contains("optional capability"));
    }

    #[test]
    fn without_require_or_with_the_profile_opted_out_nothing_is_held() {
        let mut config = RunConfig::new(Target::Offline);
        let mut book = RequireBook::default();
        assert!(
            book.offer(&config, Some("p"), held("x", "t", Outcome::Skip, None, 0))
                .is_some()
        );
        config.require = true;
        config.opted_out_profiles = vec!["p".into()];
        let back = book
            .offer(
                &config,
                Some("p"),
                held("x", "t", Outcome::Blocked, None, 0),
            )
            .unwrap();
        assert_eq!(back.result.outcome, Outcome::Blocked);
        assert!(book.settle(&config).is_empty());
    }
}
