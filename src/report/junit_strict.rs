//! The one rewrite quick-junit's output needs to validate against the Jenkins xUnit
//! schema (`junit-10.xsd`): quick-junit always writes a `skipped` count on
//! `<testsuites>`, an attribute that schema does not allow there (it does on
//! `<testsuite>`, where the count stays). Everything else is chosen through
//! quick-junit's own options (no `assertions`, no test-case properties).
//!
//! The rewrite goes through an XML reader and writer (quick-xml, which quick-junit
//! itself uses), never through text search: every event but the `<testsuites>` start
//! tag is kept as read (what follows that tag is still read, so malformed XML is an
//! error, and copied as it stands rather than written again event by event).

use quick_xml::Reader;
use quick_xml::Writer;
use quick_xml::events::{BytesStart, Event};

/// The attributes `junit-10.xsd` allows on `<testsuites>`.
const TESTSUITES_ATTRIBUTES: [&[u8]; 5] = [b"name", b"time", b"tests", b"failures", b"errors"];

/// `xml` with the attributes of `<testsuites>` that the xUnit schema refuses removed.
pub fn strict(xml: &str) -> Result<String, quick_xml::Error> {
    let mut reader = Reader::from_str(xml);
    let mut writer = Writer::new(Vec::with_capacity(xml.len()));
    loop {
        match reader.read_event()? {
            Event::Eof => break,
            Event::Start(tag) if tag.name().as_ref() == b"testsuites" => {
                writer.write_event(Event::Start(allowed_only(&tag)?))?;
                // The rest is read through to check it is well-formed XML, and kept
                // as it stands: written back as read, every event is its own text.
                let rest = usize::try_from(reader.buffer_position()).unwrap_or(xml.len());
                while !matches!(reader.read_event()?, Event::Eof) {}
                writer.get_mut().extend_from_slice(&xml.as_bytes()[rest..]);
                break;
            }
            event => writer.write_event(event)?,
        }
    }
    // Events of a `&str` are UTF-8, and so is what is written from them: the bytes
    // become the string without a copy (a report can be megabytes of failure bodies).
    Ok(String::from_utf8(writer.into_inner())
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

fn allowed_only(tag: &BytesStart) -> Result<BytesStart<'static>, quick_xml::Error> {
    let mut kept = BytesStart::new("testsuites");
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(quick_xml::Error::from)?;
        if TESTSUITES_ATTRIBUTES.contains(&attribute.key.as_ref()) {
            kept.push_attribute(attribute);
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_skipped_count_of_testsuites_goes() {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
            <testsuites name=\"mmconform\" tests=\"2\" skipped=\"1\" failures=\"0\" errors=\"0\" time=\"0.010\">\n    \
            <testsuite name=\"a.b\" tests=\"2\" skipped=\"1\" errors=\"0\" failures=\"0\">\n        \
            <testcase name=\"x\"><skipped message=\"m &amp; &lt;n&gt;\">body ]]&gt; &amp;</skipped></testcase>\n        \
            <testcase name=\"y\"><system-out><![CDATA[raw <x>]]></system-out></testcase>\n    \
            </testsuite>\n</testsuites>\n";
        let expected = xml.replacen(" skipped=\"1\"", "", 1);
        assert_ne!(expected, xml);
        assert_eq!(strict(xml).unwrap(), expected);
    }

    #[test]
    fn malformed_input_is_an_error_not_a_guess() {
        assert!(strict("<testsuites><testsuite></testsuites>").is_err());
    }
}
