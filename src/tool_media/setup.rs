//! How a run hands an agent mmconform's MCP server for one case: a fresh temporary
//! folder of the run's own holding the server's request log and the files its links
//! name, and the command that starts the server on stdio, configured by arguments only
//! (some agents, Codex among them, do not pass their environment to the servers they
//! start), with an absolute path to this program.

use super::log::ServerLog;
use std::path::PathBuf;

/// The server one case's agent is given.
#[derive(Debug)]
pub struct Setup {
    folder: tempfile::TempDir,
    /// This program, which serves `mcp-server`.
    pub program: PathBuf,
}

/// The server as an agent's configuration names it: what each profile spells in its
/// own `mcpServers` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
}

impl Setup {
    /// A fresh folder for one case. `Err`: no temporary folder, or this program's path
    /// cannot be found.
    pub fn new() -> Result<Setup, String> {
        let program = std::env::current_exe()
            .map_err(|e| format!("cannot find this program's path for the MCP server: {e}"))?;
        Setup::with_program(program)
    }

    /// As [`Setup::new`], with the server started from `program` (tests).
    pub fn with_program(program: PathBuf) -> Result<Setup, String> {
        let folder = tempfile::Builder::new()
            .prefix("mmconform-mcp-")
            .tempdir()
            .map_err(|e| format!("cannot make a folder for the MCP server: {e}"))?;
        std::fs::create_dir(folder.path().join("files"))
            .map_err(|e| format!("cannot make a folder for the MCP server's files: {e}"))?;
        Ok(Setup { folder, program })
    }

    pub fn log_path(&self) -> PathBuf {
        self.folder.path().join("requests.jsonl")
    }

    pub fn files(&self) -> PathBuf {
        self.folder.path().join("files")
    }

    /// The stdio server: `mmconform mcp-server --log <log> --files <folder>`.
    pub fn stdio(&self) -> ServerSpec {
        ServerSpec {
            name: super::SERVER_NAME.into(),
            command: self.program.display().to_string(),
            args: vec![
                "mcp-server".into(),
                "--log".into(),
                self.log_path().display().to_string(),
                "--files".into(),
                self.files().display().to_string(),
            ],
        }
    }

    /// What the server logged so far.
    pub fn log(&self) -> ServerLog {
        ServerLog::read(&self.log_path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stdio_server_is_configured_by_absolute_paths_only() {
        let setup = Setup::with_program("/opt/mmconform".into()).unwrap();
        let spec = setup.stdio();
        assert_eq!(spec.name, "mmconform");
        assert_eq!(spec.command, "/opt/mmconform");
        assert_eq!(spec.args[0], "mcp-server");
        assert!(
            spec.args
                .iter()
                .skip(1)
                .step_by(2)
                .all(|a| a.starts_with("--"))
        );
        assert!(std::path::Path::new(&spec.args[2]).is_absolute());
        assert!(std::path::Path::new(&spec.args[4]).is_dir());
        assert!(setup.log().missing.is_some());
    }
}
