//! A case's id, expanded: `case-id[v1,v2]` from its bindings, or only from the
//! variables `id_from` names.

/// The expanded id of `case_id` with `bindings` (in file order).
pub fn expanded_id(
    case_id: &str,
    bindings: &[(String, String)],
    id_from: Option<&[String]>,
) -> String {
    let values: Vec<&str> = match id_from {
        Some(names) => names
            .iter()
            .filter_map(|n| bindings.iter().find(|(k, _)| k == n))
            .map(|(_, v)| v.as_str())
            .collect(),
        None => bindings.iter().map(|(_, v)| v.as_str()).collect(),
    };
    if values.is_empty() {
        case_id.to_string()
    } else {
        format!("{case_id}[{}]", values.join(","))
    }
}
