//! What a report quotes from a target's list, kept proportionate: the first
//! [`QUOTED_ITEMS`] entries, then how many more there were. A target that answers with
//! 100,000 invalid entries gets ten of them named and "… and 99,990 more", not a report
//! ten megabytes long (the whole answer is the target's to keep, not ours to repeat).

/// Entries of a target's list a report names.
pub const QUOTED_ITEMS: usize = 10;

/// `items` joined with `separator`, the first [`QUOTED_ITEMS`] of them, then
/// `… and N more` when there were more.
pub fn list<I>(items: I, separator: &str) -> String
where
    I: IntoIterator<Item = String>,
{
    let mut shown = Vec::new();
    let mut more = 0usize;
    for item in items {
        if shown.len() < QUOTED_ITEMS {
            shown.push(item);
        } else {
            more += 1;
        }
    }
    let mut out = shown.join(separator);
    if more > 0 {
        out.push_str(&format!("{separator}… and {} more", thousands(more)));
    }
    out
}

/// [`list`] of `items`, the first entries of a list of `total` (the rest not kept).
pub fn list_of<I>(items: I, total: usize, separator: &str) -> String
where
    I: IntoIterator<Item = String>,
{
    let shown: Vec<String> = items.into_iter().take(QUOTED_ITEMS).collect();
    let more = total.saturating_sub(shown.len());
    let mut out = shown.join(separator);
    if more > 0 {
        out.push_str(&format!("{separator}… and {} more", thousands(more)));
    }
    out
}

/// `99990` as `99,990`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_is_cut_after_the_first_entries_with_the_count_of_the_rest() {
        let many = (0..100_000).map(|i| format!("e{i}"));
        let quoted = list(many, "; ");
        assert!(quoted.starts_with("e0; e1; "), "{quoted}");
        assert!(quoted.ends_with("e9; … and 99,990 more"), "{quoted}");
        assert_eq!(list(["a".to_string(), "b".into()], ", "), "a, b");
        assert_eq!(list(Vec::<String>::new(), ", "), "");
        let kept = (0..100).map(|i| format!("m{i}"));
        assert!(list_of(kept, 30_000, ", ").ends_with("m9, … and 29,990 more"));
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
