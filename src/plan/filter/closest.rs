//! The ids closest to the words of a filter that selected nothing, so a mistyped id
//! gets a "did you mean" like a mistyped flag value.

/// How many ids are suggested at most.
const SHOWN: usize = 3;

/// Lowest similarity (Jaro-Winkler, 0..1) worth suggesting.
const THRESHOLD: f64 = 0.8;

/// The ids most like `words` (an id term's word, whole or as the tail of an id: a
/// word is often the last part of an id), best first.
pub fn closest_ids<'a>(words: &[String], ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut scored: Vec<(f64, &str)> = ids
        .into_iter()
        .map(|id| (score(words, id), id))
        .filter(|(score, _)| *score >= THRESHOLD)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let mut out: Vec<String> = Vec::new();
    for (_, id) in scored {
        if !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
        if out.len() == SHOWN {
            break;
        }
    }
    out
}

fn score(words: &[String], id: &str) -> f64 {
    let word_stripped = |w: &str| w.trim_matches(|c| c == '*' || c == '?').to_lowercase();
    let id = id.to_lowercase();
    // Every tail of the id that starts a segment: `b.c[x]`, `c[x]` of `a.b.c[x]`.
    let tails: Vec<&str> = std::iter::once(id.as_str())
        .chain(id.match_indices('.').map(|(i, _)| &id[i + 1..]))
        .collect();
    words
        .iter()
        .map(|w| word_stripped(w))
        .filter(|w| !w.is_empty())
        .flat_map(|w| {
            tails
                .iter()
                .map(move |tail| strsim::jaro_winkler(&w, tail))
                .collect::<Vec<_>>()
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_id_or_its_last_part_names_the_closest_ids() {
        let ids = [
            "openwop.rfc0091.unadvertised-rejected[audio]",
            "openwop.rfc0091.unadvertised-rejected[document]",
            "openwop.discovery.document",
            "openai.string-content",
        ];
        let words = vec!["openwop.rfc0091.unadvertized-rejected[audio]".to_string()];
        assert_eq!(
            closest_ids(&words, ids)[0],
            "openwop.rfc0091.unadvertised-rejected[audio]"
        );
        let tail = closest_ids(&["string-contnet".to_string()], ids);
        assert_eq!(tail, ["openai.string-content"]);
        assert!(closest_ids(&["zzzz".to_string()], ids).is_empty());
        assert!(closest_ids(&[], ids).is_empty());
    }
}
