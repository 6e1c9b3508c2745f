//! PDF cross-reference walker.

use super::Checked;

/// PDF: every xref offset points at its `N 0 obj`, `startxref` points at
/// `xref`, and each stream's /Length lands on `endstream`. Returns the object count.
pub fn pdf(b: &[u8]) -> Checked<usize> {
    let text = |from: usize, to: usize| String::from_utf8_lossy(&b[from..to]).into_owned();
    if !b.starts_with(b"%PDF-1.") || !b.ends_with(b"\n%%EOF\n") {
        return Err("missing %PDF header or %%EOF".into());
    }
    let tail = text(b.len().saturating_sub(64), b.len());
    let sx = tail.rfind("startxref\n").ok_or("no startxref")?;
    let xref: usize = tail[sx + 10..]
        .lines()
        .next()
        .unwrap()
        .parse()
        .map_err(|_| "startxref")?;
    if !b[xref..].starts_with(b"xref\n0 ") {
        return Err(format!("startxref {xref} does not point at xref"));
    }
    let head = text(xref, (xref + 32).min(b.len()));
    let count: usize = head[7..]
        .lines()
        .next()
        .unwrap()
        .parse()
        .map_err(|_| "xref count")?;
    let entries = xref + 7 + digits(count) + 1;
    for i in 0..count {
        let entry = text(entries + 20 * i, entries + 20 * i + 20);
        let offset: usize = entry[..10].parse().map_err(|_| "xref entry")?;
        if i == 0 {
            if &entry[10..] != " 65535 f \n" {
                return Err("bad free entry".into());
            }
            continue;
        }
        if &entry[10..] != " 00000 n \n"
            || !b[offset..].starts_with(format!("{i} 0 obj\n").as_bytes())
        {
            return Err(format!(
                "xref entry {i} ({offset}) does not point at its object"
            ));
        }
        let window = text(offset, (offset + 300).min(b.len()));
        let object = &window[..window.find("endobj").unwrap_or(window.len())];
        if let (Some(l), Some(s)) = (object.find("/Length "), object.find(">>\nstream\n")) {
            let len: usize = object[l + 8..s].trim().parse().map_err(|_| "bad /Length")?;
            if !b[offset + s + 10 + len..].starts_with(b"\nendstream\nendobj\n") {
                return Err(format!("object {i}: /Length does not end at endstream"));
            }
        }
    }
    let trailer = text(entries + 20 * count, b.len().min(entries + 20 * count + 64));
    if !trailer.starts_with(&format!("trailer\n<< /Size {count} /Root 1 0 R")) {
        return Err("bad trailer".into());
    }
    Ok(count - 1)
}

fn digits(n: usize) -> usize {
    n.to_string().len()
}
