//! "Did you mean": the known name closest to a mistyped one, as clap suggests for
//! subcommands and value enums, for the values clap cannot know (fault names,
//! modalities, `--filter` keys and levels).

/// The known name most like `given` (Jaro similarity above 0.7, clap's threshold;
/// case-insensitive), if any is.
pub fn closest<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let given = given.trim().to_lowercase();
    known
        .into_iter()
        .map(|name| (strsim::jaro(&given, &name.to_lowercase()), name))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// `"; did you mean `name`?"`, or nothing when no known name is close.
pub fn hint<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(given, known)
        .map(|name| format!("; did you mean `{name}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_name_or_none() {
        let faults = ["accepts-unadvertised", "accepts-png-only", "seam-missing"];
        assert_eq!(
            closest("accept-unadvertised", faults),
            Some("accepts-unadvertised")
        );
        assert_eq!(closest("SEAM-MISING", faults), Some("seam-missing"));
        assert_eq!(closest("zzz", faults), None);
        assert_eq!(hint("imag", ["text", "image"]), "; did you mean `image`?");
        assert_eq!(hint("qqq", ["text", "image"]), "");
    }
}
