use super::*;

fn obs(list: &[(&str, Outcome, bool)], exit_code: i32) -> RunObservation {
    RunObservation {
        cases: list
            .iter()
            .map(|(id, outcome, failed)| {
                (
                    id.to_string(),
                    CaseObservation {
                        outcome: *outcome,
                        failed_assertion: *failed,
                        summary: None,
                        witness_judged: false,
                        witness_failed: false,
                        transformed: false,
                    },
                )
            })
            .collect(),
        exit_code,
    }
}

fn info(name: &str, detection: Detection) -> VariantInfo {
    VariantInfo {
        name: name.into(),
        description: String::new(),
        kind: "host-fault",
        detection,
    }
}

fn run(variant: usize, setup: &str, observation: RunObservation) -> VariantRun {
    VariantRun {
        variant,
        setup: setup.into(),
        observation,
    }
}

#[test]
fn a_case_that_never_fails_is_vacuous_and_a_fault_nobody_sees_is_blind() {
    let faithful = vec![(
        "default".to_string(),
        obs(
            &[
                ("real", Outcome::Pass, false),
                ("vacuous", Outcome::Pass, false),
                ("n/a", Outcome::Skip, false),
            ],
            0,
        ),
    )];
    let variants = vec![
        info("breaks-real", Detection::Assertion),
        info("unseen", Detection::Assertion),
    ];
    let runs = vec![
        run(
            0,
            "default",
            obs(
                &[
                    ("real", Outcome::Fail, true),
                    ("vacuous", Outcome::Pass, false),
                    ("n/a", Outcome::Skip, false),
                ],
                1,
            ),
        ),
        run(
            1,
            "default",
            obs(
                &[
                    ("real", Outcome::Pass, false),
                    ("vacuous", Outcome::Pass, false),
                ],
                0,
            ),
        ),
    ];
    let m = analyze(&faithful, &variants, &runs, true);
    assert_eq!(m.vacuous, vec!["vacuous".to_string()]);
    assert_eq!(m.never_ran, vec!["n/a".to_string()]);
    assert_eq!(m.blind_spots, vec!["unseen".to_string()]);
    assert!(!m.calibrated());
    let real = m.cases.iter().find(|c| c.id == "real").unwrap();
    assert_eq!(real.caught, vec!["breaks-real".to_string()]);
    assert_eq!(m.variants[0].caught_by[0].outcome, Outcome::Fail);
}

#[test]
fn a_failure_the_faithful_host_also_has_is_not_a_catch() {
    let faithful = vec![(
        "s".to_string(),
        obs(
            &[("c", Outcome::Warn, true), ("d", Outcome::Pass, false)],
            0,
        ),
    )];
    let variants = vec![info("f", Detection::Assertion)];
    let runs = vec![run(
        0,
        "s",
        obs(&[("c", Outcome::Fail, true), ("d", Outcome::Warn, true)], 1),
    )];
    let m = analyze(&faithful, &variants, &runs, true);
    assert_eq!(m.reference_problems.len(), 1);
    assert_eq!(m.reference_problems[0].case, "c");
    let row = &m.variants[0];
    assert_eq!(row.caught_by.len(), 1);
    assert_eq!(row.caught_by[0].case, "d");
    // A case the reference fails is a reference problem, not "never ran".
    assert!(m.never_ran.is_empty());
    assert!(!m.calibrated());
}

#[test]
fn blocked_counts_only_for_blocking_faults_and_only_with_a_non_zero_exit() {
    let faithful = vec![("s".to_string(), obs(&[("c", Outcome::Pass, false)], 0))];
    let variants = vec![
        info("seam-gone", Detection::Blocked),
        info("seam-gone-but-green", Detection::Blocked),
        info("ordinary", Detection::Assertion),
    ];
    let blocked = || obs(&[("c", Outcome::Blocked, false)], 3);
    let runs = vec![
        run(0, "s", blocked()),
        run(1, "s", obs(&[("c", Outcome::Blocked, false)], 0)),
        run(2, "s", blocked()),
    ];
    let m = analyze(&faithful, &variants, &runs, true);
    assert!(m.variants[0].caught);
    assert!(!m.variants[1].caught);
    assert!(
        !m.variants[2].caught,
        "blocked is no catch for an assertion fault"
    );
    // Blocked never makes a case non-vacuous.
    assert_eq!(m.vacuous, vec!["c".to_string()]);
}

#[test]
fn blind_spots_fail_only_a_whole_suite() {
    let faithful = vec![("s".to_string(), obs(&[("c", Outcome::Pass, false)], 0))];
    let variants = vec![
        info("f", Detection::Assertion),
        info("schema:x:without-format", Detection::Assertion),
    ];
    let runs = vec![
        run(0, "s", obs(&[("c", Outcome::Fail, true)], 1)),
        run(1, "s", obs(&[("c", Outcome::Pass, false)], 0)),
    ];
    let whole = analyze(&faithful, &variants, &runs, true);
    assert_eq!(
        whole.blind_spots,
        vec!["schema:x:without-format".to_string()]
    );
    assert!(!whole.calibrated());
    let partial = analyze(&faithful, &variants, &runs, false);
    assert_eq!(partial.blind_spots, whole.blind_spots, "still reported");
    assert!(partial.calibrated());
}

#[test]
fn errors_anywhere_are_reported() {
    let faithful = vec![("s".to_string(), obs(&[("c", Outcome::Pass, false)], 0))];
    let variants = vec![info("f", Detection::Assertion)];
    let runs = vec![run(
        0,
        "s",
        obs(
            &[("c", Outcome::Fail, true), ("e", Outcome::Error, false)],
            70,
        ),
    )];
    let m = analyze(&faithful, &variants, &runs, true);
    assert_eq!(m.errors.len(), 1);
    assert_eq!(m.errors[0].variant, "f");
    assert!(!m.calibrated());
}

#[test]
fn a_tolerated_variant_must_be_failed_by_no_case_and_noted_by_one() {
    let faithful = vec![(
        "s".to_string(),
        obs(
            &[("img", Outcome::Pass, false), ("txt", Outcome::Pass, false)],
            0,
        ),
    )];
    let transformed = |mut o: RunObservation| {
        o.cases.get_mut("img").unwrap().transformed = true;
        o
    };
    let variants = vec![
        info("reencodes", Detection::Tolerated),
        info("reencodes-badly", Detection::Tolerated),
        info("never-noted", Detection::Tolerated),
        info("breaks", Detection::Assertion),
    ];
    let clean = || {
        obs(
            &[("img", Outcome::Pass, false), ("txt", Outcome::Pass, false)],
            0,
        )
    };
    let runs = vec![
        run(0, "s", transformed(clean())),
        run(
            1,
            "s",
            transformed(obs(
                &[("img", Outcome::Warn, true), ("txt", Outcome::Pass, false)],
                0,
            )),
        ),
        run(2, "s", clean()),
        run(
            3,
            "s",
            obs(
                &[("img", Outcome::Fail, true), ("txt", Outcome::Fail, true)],
                1,
            ),
        ),
    ];
    let m = analyze(&faithful, &variants, &runs, true);
    assert!(m.variants[0].caught, "{:?}", m.variants[0]);
    assert_eq!(m.variants[0].noted_by.len(), 1);
    assert_eq!(m.false_failures, vec!["reencodes-badly".to_string()]);
    assert_eq!(m.blind_spots, vec!["never-noted".to_string()]);
    // A false failure proves nothing about the case: only `breaks` caught it.
    let img = m.cases.iter().find(|c| c.id == "img").unwrap();
    assert_eq!(img.caught, vec!["breaks".to_string()]);
    assert!(!m.calibrated());
}
