//! A reference that is a program: this binary's own `serve-reference --profile <form>`,
//! started as any target of its protocol is (`--target reference` and calibration
//! alike), so the reference is reached exactly as a real one.

use crate::process::Command;

/// This program's `serve-reference --profile <form>`, broken by `fault` and declaring
/// `accepts` when given.
pub fn serve_reference(
    form: &str,
    fault: Option<&str>,
    accepts: &[String],
) -> Result<Command, String> {
    let mut argv = vec![
        crate::process::command::this_program()?,
        "serve-reference".into(),
        "--profile".into(),
        form.into(),
    ];
    if let Some(fault) = fault {
        argv.extend(["--fault".into(), fault.into()]);
    }
    if !accepts.is_empty() {
        argv.extend(["--accepts".into(), accepts.join(",")]);
    }
    Ok(Command { argv, cwd: None })
}
