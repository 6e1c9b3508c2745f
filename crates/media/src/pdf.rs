//! PDF: a one-page document written directly, whose page shows the stamp in
//! Helvetica (a standard Type 1 font, so nothing is embedded).
//!
//! Padding is a block of comment lines between the last object and the xref
//! table, so object offsets never move. Only the `startxref` value moves with
//! the padding, and its digit count feeds back into the file size; a spare
//! space inside the trailer dictionary absorbs the one size that a digit-count
//! step would otherwise skip.

use super::{FILLER, stamp};
use std::fmt::Write as _;

const HEADER: &[u8] = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
/// Comment lines stay well under the 255 characters older readers expect.
const LINE: usize = 80;

/// Header and the five objects, plus each object's byte offset.
fn body(nonce: &str) -> (Vec<u8>, Vec<usize>) {
    let text = escape(&stamp(nonce));
    // Wide enough for the stamp at 12 pt: Helvetica glyphs average under 8 pt.
    let width = 20 + 8 * stamp(nonce).chars().count();
    let content = format!("BT /F1 12 Tf 10 14 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} 40] \
             /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"
        ),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_string(),
    ];
    let mut out = HEADER.to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    (out, offsets)
}

/// Backslash-escapes what would end or break a literal string.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '(' | ')' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The xref table and trailer, with `spare` extra spaces in the trailer dictionary.
fn tail(offsets: &[usize], spare: usize, xref_at: usize) -> String {
    let mut out = format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1);
    for offset in offsets {
        // Each entry is exactly 20 bytes, its end of line being " \n".
        let _ = writeln!(out, "{offset:010} 00000 n ");
    }
    let _ = write!(
        out,
        "trailer\n<< /Size {} /Root 1 0 R{} >>\nstartxref\n{xref_at}\n%%EOF\n",
        offsets.len() + 1,
        " ".repeat(spare)
    );
    out
}

fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

pub(super) fn min_size(nonce: &str) -> usize {
    let (body, offsets) = body(nonce);
    body.len() + tail(&offsets, 0, body.len()).len()
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let (mut out, offsets) = body(nonce);
    let pre = out.len();
    // The tail's length apart from the startxref digits and spare spaces.
    let fixed = tail(&offsets, 0, 0).len() - 1;
    let (pad, spare) = (0..=1)
        .flat_map(|spare| (1..=20).map(move |d| (spare, d)))
        .find_map(|(spare, d)| {
            let pad = size.checked_sub(pre + fixed + spare + d)?;
            (digits(pre + pad) == d).then_some((pad, spare))
        })
        .expect("every size from the minimum up has a padding");
    out.reserve_exact(size - pre);
    comment_block(&mut out, pad);
    out.extend_from_slice(tail(&offsets, spare, pre + pad).as_bytes());
    assert_eq!(out.len(), size);
    out
}

/// Exactly `n` bytes of `%` comment lines (a lone newline when one byte is left).
fn comment_block(out: &mut Vec<u8>, n: usize) {
    let mut line = Vec::with_capacity(LINE);
    line.push(b'%');
    super::fill(&mut line, FILLER, LINE - 2);
    line.push(b'\n');
    for _ in 0..n / LINE {
        out.extend_from_slice(&line);
    }
    match n % LINE {
        0 => {}
        1 => out.push(b'\n'),
        r => {
            out.extend_from_slice(&line[..r - 1]);
            out.push(b'\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn page_shows_the_stamp_in_helvetica() {
        let bytes = super::super::generate("application/pdf", "0123456789abcdef");
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("(mmconform-nonce:0123456789abcdef) Tj"));
        assert!(text.contains("/BaseFont /Helvetica"));
        assert_eq!(check::pdf(&bytes), Ok(5));
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("application/pdf", |b| check::pdf(b).map(drop));
    }

    #[test]
    fn sizes_across_startxref_digit_steps_are_all_reachable() {
        let nonce = "0123456789abcdef";
        let (body, _) = body(nonce);
        // Around the padding that takes the xref offset from 4 to 5 digits.
        let step = 10_000 - body.len();
        let min = min_size(nonce);
        for size in min + step - 3..min + step + 5 {
            let bytes = build(nonce, size);
            assert_eq!(bytes.len(), size);
            assert_eq!(check::pdf(&bytes), Ok(5), "size {size}");
        }
    }

    #[test]
    fn literal_string_is_escaped() {
        assert_eq!(escape(r"a(b)c\"), r"a\(b\)c\\");
        let bytes = super::super::generate("application/pdf", "x)y");
        assert_eq!(check::pdf(&bytes), Ok(5));
    }

    #[test]
    fn comment_block_is_exact() {
        for n in [0, 1, 2, 3, 79, 80, 81, 161] {
            let mut v = Vec::new();
            comment_block(&mut v, n);
            assert_eq!(v.len(), n);
            assert!(v.is_empty() || v.ends_with(b"\n"));
        }
    }
}
