//! How the witness is started: where it listens, and the bounds that keep a hostile
//! or runaway client from costing more than a known amount of memory.

use std::net::SocketAddr;
use std::time::Duration;

/// Bounds on what the witness reads and keeps. Worst-case memory is about
/// `max_concurrent` x 2 x `max_body_bytes` while calls are decoded (the body and its
/// parsed form; media are decoded a chunk at a time), plus `max_calls` records of at
/// most `max_parts_per_call` parts and `max_text_bytes_per_call` of text each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Larger request bodies are answered 413 and recorded as a call with a problem.
    pub max_body_bytes: u64,
    /// JSON with more values is not parsed (see `mmconform_json::bounded`): recorded as malformed.
    pub max_json_values: usize,
    /// Calls kept in the log; later ones are counted in `dropped` until the log is
    /// released with `forget_through`.
    pub max_calls: usize,
    /// Parts kept per call; the rest are decoded and judged but only counted.
    pub max_parts_per_call: usize,
    /// Text kept of each text part.
    pub max_text_bytes_per_part: usize,
    /// Text kept over all parts of one call.
    pub max_text_bytes_per_call: usize,
    /// Problems kept per call (beyond the ones on kept parts).
    pub max_problems_per_call: usize,
    /// Calls read and decoded at once; more wait their turn.
    pub max_concurrent: usize,
    /// A body that has not fully arrived by then is answered 408 (and recorded), so a
    /// client trickling its upload cannot hold one of the `max_concurrent` turns.
    pub body_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body_bytes: 64 * 1024 * 1024,
            max_json_values: mmconform_json::bounded::MAX_VALUES,
            max_calls: 256,
            max_parts_per_call: 512,
            max_text_bytes_per_part: 4 * 1024,
            max_text_bytes_per_call: 256 * 1024,
            max_problems_per_call: 64,
            max_concurrent: 4,
            body_timeout: Duration::from_secs(300),
        }
    }
}

/// Where and how the witness serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WitnessConfig {
    /// Port 0 picks a free port.
    pub listen: SocketAddr,
    /// A non-loopback address is refused unless this is set: the witness answers
    /// anyone who can reach it, and records what they send.
    pub allow_non_loopback: bool,
    /// The model `GET {base}/models` lists.
    pub model: String,
    pub limits: Limits,
}

/// The model id the witness lists and answers as, unless the call names its own.
pub const MODEL_ID: &str = "mmconform-witness";

impl Default for WitnessConfig {
    fn default() -> WitnessConfig {
        WitnessConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            allow_non_loopback: false,
            model: MODEL_ID.to_string(),
            limits: Limits::default(),
        }
    }
}

impl WitnessConfig {
    #[cfg(test)]
    /// A loopback address on `port`, everything else default.
    pub fn loopback(port: u16) -> WitnessConfig {
        WitnessConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], port)),
            ..WitnessConfig::default()
        }
    }

    /// Refuses what cannot work or is not allowed, before anything is bound.
    pub fn check(&self) -> Result<(), String> {
        let ip = self.listen.ip().to_canonical();
        if !ip.is_loopback() && !self.allow_non_loopback {
            return Err(format!(
                "{} is not a loopback address: the witness records what anyone who reaches \
                 it sends; allow it explicitly (--witness-allow-remote)",
                self.listen
            ));
        }
        let l = &self.limits;
        let zero = [
            ("max_body_bytes", l.max_body_bytes == 0),
            ("max_calls", l.max_calls == 0),
            ("max_concurrent", l.max_concurrent == 0),
            ("max_json_values", l.max_json_values == 0),
            ("body_timeout", l.body_timeout.is_zero()),
        ];
        if let Some((name, _)) = zero.iter().find(|(_, is_zero)| *is_zero) {
            return Err(format!("witness limit {name} must be at least 1"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_allowed_and_anything_else_must_be_asked_for() {
        for ok in [
            "127.0.0.1:0",
            "[::1]:8080",
            "127.9.9.9:1",
            "[::ffff:127.0.0.1]:0",
        ] {
            let config = WitnessConfig {
                listen: ok.parse().unwrap(),
                ..WitnessConfig::default()
            };
            assert_eq!(config.check(), Ok(()), "{ok}");
        }
        for remote in ["0.0.0.0:0", "[::]:0", "192.168.1.5:80"] {
            let mut config = WitnessConfig {
                listen: remote.parse().unwrap(),
                ..WitnessConfig::default()
            };
            let err = config.check().unwrap_err();
            assert!(err.contains("--witness-allow-remote"), "{err}");
            config.allow_non_loopback = true;
            assert_eq!(config.check(), Ok(()), "{remote}");
        }
    }

    #[test]
    fn zero_limits_are_refused() {
        let mut config = WitnessConfig::loopback(0);
        config.limits.max_calls = 0;
        assert!(config.check().unwrap_err().contains("max_calls"));
    }
}
