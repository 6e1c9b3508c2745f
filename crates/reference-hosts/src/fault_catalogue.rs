//! The shape every table of deliberate faults shares: variants with a stable
//! kebab-case name (command line, test names, the calibration matrix) and one sentence
//! saying which requirement each breaks. Declared once here so the tables of the
//! openwop host and of the AG-UI agent cannot drift apart in how they parse and print.

/// Declares `enum $name` with `all()`, `name()`, `description()`, `Display` and
/// `FromStr` (whose error, `$unknown`, lists the valid names).
macro_rules! fault_catalogue {
    (
        $(#[$meta:meta])*
        pub enum $name:ident / $unknown:ident, an $what:literal listed by $listing:literal {
            $( $variant:ident => $kebab:literal, $description:literal; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $variant, )*
        }

        impl $name {
            /// Every fault, in a stable order (the order of `--list-faults`).
            pub fn all() -> &'static [$name] {
                &[$( $name::$variant, )*]
            }

            /// The stable kebab-case name used on the command line and in test names.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $kebab, )*
                }
            }

            /// One sentence: which requirement this variant breaks.
            pub fn description(self) -> &'static str {
                match self {
                    $( $name::$variant => $description, )*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        /// An unknown fault name; the message lists the valid ones so a typo is self-healing.
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        #[error(
            "unknown {} `{name}`; valid faults: {} (see `{}`)",
            $what,
            $name::all().iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
            $listing
        )]
        pub struct $unknown {
            pub name: String,
        }

        impl std::str::FromStr for $name {
            type Err = $unknown;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::all()
                    .iter()
                    .copied()
                    .find(|f| f.name() == s.trim())
                    .ok_or_else(|| $unknown { name: s.to_owned() })
            }
        }
    };
}

pub(crate) use fault_catalogue;
