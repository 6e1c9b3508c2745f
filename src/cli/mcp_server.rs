//! `mmconform mcp-server`: the tool-media MCP server (`crate::mcp_server`), on stdio or,
//! with `--http ADDR`, as streamable HTTP on loopback until interrupted.

use super::CliError;
use super::args::McpServerArgs;
use crate::exit::Ending;
use crate::mcp_server::{Options, ToolMedia, http, stdio};

pub fn mcp_server(args: &McpServerArgs) -> Result<Ending, CliError> {
    // A folder of our own for linked files when none is given, kept while serving.
    let own = match &args.files {
        Some(_) => None,
        None => Some(tempfile::tempdir().map_err(|e| {
            CliError::Internal(format!("cannot make a folder for linked files: {e}"))
        })?),
    };
    let files = match (&args.files, &own) {
        (Some(dir), _) => dir.clone(),
        (None, Some(dir)) => dir.path().to_path_buf(),
        (None, None) => unreachable!("one of the two is set"),
    };
    let handler = ToolMedia::new(Options {
        log: args.log.clone(),
        files,
    });
    let runtime = super::runtime()?;
    runtime.block_on(async move {
        match args.http {
            None => stdio::serve(handler).await.map_err(CliError::Internal)?,
            Some(listen) => {
                let stop = async {
                    let _ = tokio::signal::ctrl_c().await;
                };
                let bound = http::bind(handler, listen, false, stop)
                    .await
                    .map_err(CliError::Usage)?;
                println!("{}", bound.url);
                bound
                    .serving
                    .await
                    .map_err(|e| CliError::Internal(format!("the MCP server failed: {e}")))?;
            }
        }
        Ok(Ending::Done)
    })
}
