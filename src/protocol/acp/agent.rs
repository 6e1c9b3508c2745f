//! The run's one agent process: how it is started (the command, `MMCONFORM_WITNESS_URL`
//! with `--witness`, `--target-env`/`--target-unset`), the handshake (`initialize` with
//! protocol version 1 and no client capabilities, then `authenticate` when
//! `--acp-auth` names a method: a gateway method gets the witness as its model's base
//! URL, `gateway.rs`), and its end (SIGTERM, then SIGKILL after a grace).

use super::connection::{Connection, Exchange};
use crate::config::AgentSettings;
use crate::process::{Command, Environment, LineLimits, Peer, PeerOptions};
use crate::protocol::options::OptionSpec;
use crate::stop::Stop;
use serde_json::{Value, json};
use std::time::Duration;

/// Between SIGTERM and SIGKILL.
pub const GRACE: Duration = Duration::from_secs(3);
/// The variable carrying the witness's base URL (with `--witness`).
pub const WITNESS_VAR: &str = "MMCONFORM_WITNESS_URL";

/// `--acp-auth`: the method `authenticate` is called with.
pub static AUTH_OPTION: OptionSpec = OptionSpec::flag(
    "acp-auth",
    "METHOD",
    "the authentication method (one of initialize's authMethods) to call `authenticate` with before the first session; with --witness, a \"gateway\" method (`_meta.gateway`) is given the witness as its model's base URL.",
);

/// How the run's agent is started.
#[derive(Debug, Clone)]
pub struct Agent {
    pub command: Command,
    pub witness_url: Option<String>,
    pub settings: AgentSettings,
    /// The `authenticate` method to call after `initialize` (`--acp-auth`).
    pub auth: Option<String>,
    pub limits: LineLimits,
    pub timeout: Duration,
    pub grace: Duration,
}

/// A started agent and its handshake.
pub struct Live {
    pub connection: Connection,
    pub initialize: Exchange,
    pub authenticate: Option<Exchange>,
}

/// The `initialize` params: protocol version 1, a client that reads no files and
/// runs no terminals. With a witness it can also give a model gateway
/// (`auth._meta.gateway`, what agents such as claude-agent-acp wait for before listing
/// their "gateway" method; see `gateway.rs`).
pub fn initialize_params(witness: bool) -> Value {
    let mut capabilities = json!({
        "fs": {"readTextFile": false, "writeTextFile": false},
        "terminal": false
    });
    if witness {
        capabilities["auth"] = json!({"_meta": {"gateway": true}});
    }
    json!({
        "protocolVersion": 1,
        "clientCapabilities": capabilities,
        "clientInfo": {"name": "mmconform", "version": env!("CARGO_PKG_VERSION")}
    })
}

impl Agent {
    /// The environment it gets: the allow-list, `--target-env`, the witness.
    fn environment(&self) -> Environment {
        let environment = self.settings.environment();
        match &self.witness_url {
            Some(url) => environment.with(WITNESS_VAR, url),
            None => environment,
        }
    }

    /// Starts the agent and shakes hands. `Err`: it could not be started.
    pub async fn start(&self, stop: &Stop) -> Result<Live, String> {
        let peer = Peer::spawn(PeerOptions {
            command: &self.command,
            environment: self.environment(),
            limits: self.limits,
        })?;
        let mut connection = Connection::new(peer);
        let initialize = connection
            .request(
                "initialize",
                initialize_params(self.witness_url.is_some()),
                self.timeout,
                stop,
                None,
            )
            .await;
        let authenticate = match (&self.auth, initialize.result()) {
            (Some(method), Some(listing)) => {
                let params = super::gateway::authenticate_params(
                    method,
                    listing,
                    self.witness_url.as_deref(),
                );
                Some(
                    connection
                        .request("authenticate", params, self.timeout, stop, None)
                        .await,
                )
            }
            _ => None,
        };
        Ok(Live {
            connection,
            initialize,
            authenticate,
        })
    }
}

impl Live {
    /// Why prompts cannot be sent on this agent, if they cannot.
    pub fn unusable(&self) -> Option<String> {
        if let Some(why) = &self.initialize.unanswered {
            return Some(format!("initialize: {}", why.describe()));
        }
        if let Some(error) = self.initialize.error() {
            return Some(format!("initialize was refused: {error}"));
        }
        if let Some(auth) = &self.authenticate {
            if let Some(why) = &auth.unanswered {
                return Some(format!("authenticate: {}", why.describe()));
            }
            if let Some(error) = auth.error() {
                return Some(format!("authenticate was refused: {error}"));
            }
        }
        None
    }
}
