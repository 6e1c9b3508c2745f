//! `mmconform verify REPORT`: print each check and exit 1 when any fails.

use super::CliError;
use super::args::VerifyArgs;
use crate::exit::Ending;
use crate::report::verify::verify as run_checks;

pub fn verify(args: &VerifyArgs) -> Result<Ending, CliError> {
    let bytes = std::fs::read(&args.report)
        .map_err(|e| CliError::Usage(format!("{}: {e}", args.report.display())))?;
    let checks = run_checks(&bytes);
    for c in &checks {
        let tag = if c.passed { "ok  " } else { "FAIL" };
        println!("{tag} {:<10} {}", c.name, c.detail);
    }
    let failed = checks.iter().filter(|c| !c.passed).count();
    if failed == 0 {
        println!("verified: {} is intact", args.report.display());
    } else {
        println!(
            "NOT VERIFIED: {failed} check(s) failed; {} was edited or is not an mmconform report",
            args.report.display()
        );
    }
    Ok(Ending::Verified(failed == 0))
}
