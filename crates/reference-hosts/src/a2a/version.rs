//! The two A2A versions the agent speaks and how each spells what differs: method
//! names, roles, task states, the answer's wrapper. Read from the specifications
//! (1.0: §3.6, §5.3, §5.5, §9.4; 0.3: §3.5.6, §6, §7), not from the tool.

use axum::http::HeaderMap;

/// An A2A protocol version (`Major.Minor`, §3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    V1,
    V03,
}

/// A protocol binding the agent offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binding {
    JsonRpc,
    HttpJson,
}

impl Binding {
    /// How an `AgentInterface` names it.
    pub fn name(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
        }
    }
}

/// The operations the agent answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Send,
    Stream,
    GetTask,
}

impl Version {
    /// `1.0`, `0.3`: what `A2A-Version` and `protocolVersion` say.
    pub fn number(self) -> &'static str {
        match self {
            Version::V1 => "1.0",
            Version::V03 => "0.3",
        }
    }

    /// The version a request asks for: its `A2A-Version` header (or query parameter,
    /// §3.6.1), `Major.Minor` (a patch is not considered); an empty or absent value is
    /// 0.3 (§3.6.2). `Err` names a version the agent does not know.
    pub fn requested(headers: &HeaderMap, query: Option<&str>) -> Result<Version, String> {
        let header = headers
            .get("a2a-version")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let from_query = query.and_then(|q| {
            q.split('&')
                .filter_map(|kv| kv.split_once('='))
                .find(|(k, _)| k.eq_ignore_ascii_case("a2a-version"))
                .map(|(_, v)| v.to_string())
        });
        let raw = header.or(from_query).unwrap_or_default();
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Ok(Version::V03);
        }
        let mut numbers = trimmed.split('.');
        match (numbers.next(), numbers.next()) {
            (Some("1"), Some("0")) => Ok(Version::V1),
            (Some("0"), Some("3")) => Ok(Version::V03),
            _ => Err(trimmed.to_string()),
        }
    }

    /// The JSON-RPC method of `op`.
    pub fn method(self, op: Operation) -> &'static str {
        match (self, op) {
            (Version::V1, Operation::Send) => "SendMessage",
            (Version::V1, Operation::Stream) => "SendStreamingMessage",
            (Version::V1, Operation::GetTask) => "GetTask",
            (Version::V03, Operation::Send) => "message/send",
            (Version::V03, Operation::Stream) => "message/stream",
            (Version::V03, Operation::GetTask) => "tasks/get",
        }
    }

    /// The operation a JSON-RPC method names in this version.
    pub fn operation(self, method: &str) -> Option<Operation> {
        [Operation::Send, Operation::Stream, Operation::GetTask]
            .into_iter()
            .find(|op| self.method(*op) == method)
    }

    /// A user's role as this version spells it.
    pub fn user_role(self) -> &'static str {
        match self {
            Version::V1 => "ROLE_USER",
            Version::V03 => "user",
        }
    }

    pub fn agent_role(self) -> &'static str {
        match self {
            Version::V1 => "ROLE_AGENT",
            Version::V03 => "agent",
        }
    }

    /// A task state (`completed`, `working`, ...) as this version spells it.
    pub fn state(self, state: &str) -> String {
        match self {
            Version::V1 => format!(
                "TASK_STATE_{}",
                state.replace('-', "_").to_ascii_uppercase()
            ),
            Version::V03 => state.to_string(),
        }
    }

    /// The HTTP+JSON path of an operation below the interface URL (0.3 put `/v1`
    /// before it, §3.5.6).
    pub fn rest_prefix(self) -> &'static str {
        match self {
            Version::V1 => "",
            Version::V03 => "/v1",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: Option<&str>) -> HeaderMap {
        let mut map = HeaderMap::new();
        if let Some(v) = value {
            map.insert("A2A-Version", v.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_requested_version_is_read_from_the_header_or_the_query() {
        assert_eq!(Version::requested(&headers(None), None), Ok(Version::V03));
        assert_eq!(
            Version::requested(&headers(Some("")), None),
            Ok(Version::V03)
        );
        assert_eq!(
            Version::requested(&headers(Some("1.0")), None),
            Ok(Version::V1)
        );
        assert_eq!(
            Version::requested(&headers(Some("0.3.0")), None),
            Ok(Version::V03)
        );
        assert_eq!(
            Version::requested(&headers(None), Some("x=1&A2A-Version=1.0")),
            Ok(Version::V1)
        );
        assert_eq!(
            Version::requested(&headers(Some("99.0")), None),
            Err("99.0".into())
        );
    }

    #[test]
    fn spellings_differ_by_version() {
        assert_eq!(
            Version::V1.state("input-required"),
            "TASK_STATE_INPUT_REQUIRED"
        );
        assert_eq!(Version::V03.state("completed"), "completed");
        assert_eq!(
            Version::V03.operation("message/stream"),
            Some(Operation::Stream)
        );
        assert_eq!(Version::V1.operation("message/send"), None);
    }
}
