//! `--color`: whether the terminal output is coloured, from the flag, `NO_COLOR`,
//! `CLICOLOR`/`CLICOLOR_FORCE` and whether stdout is a terminal.

use super::args::ColorArg;
use std::io::IsTerminal;

/// Applies `--color` and NO_COLOR/CLICOLOR through `colored`, and answers whether stdout
/// output should be coloured.
pub fn resolve_color(choice: ColorArg) -> bool {
    match choice {
        ColorArg::Always => colored::control::set_override(true),
        ColorArg::Never => colored::control::set_override(false),
        // no-color.org: only a NO_COLOR that is present *and not empty* disables colour;
        // `colored` takes any NO_COLOR, empty included, so an empty one is decided here.
        ColorArg::Auto if std::env::var_os("NO_COLOR").is_some_and(|v| v.is_empty()) => {
            colored::control::set_override(colour_without_no_color());
        }
        ColorArg::Auto => {}
    }
    colored::control::SHOULD_COLORIZE.should_colorize()
}

/// What `auto` means when NO_COLOR does not speak: CLICOLOR_FORCE forces colour, else
/// colour on a terminal unless CLICOLOR=0 (as `colored` decides it).
fn colour_without_no_color() -> bool {
    let set = |name: &str| std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0");
    let clicolor_off = std::env::var("CLICOLOR").is_ok_and(|v| v == "0");
    set("CLICOLOR_FORCE") || (!clicolor_off && std::io::stdout().is_terminal())
}
