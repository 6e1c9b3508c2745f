//! The shape every table of deliberate faults shares: variants with a stable
//! kebab-case name (command line, test names, the calibration matrix) and one sentence
//! saying which requirement each breaks. Declared once here so the tables of the
//! reference hosts cannot drift apart in how they parse and print, and one trait,
//! [`HostFault`], through which the tool lists, describes and schedules any of them
//! without knowing which table it comes from.

/// A fault of any reference host, as calibration and `serve-reference --list-faults`
/// see it. The catalogue macro implements the naming half; each table says the rest
/// (`impl HostFault for ...`), leaving the defaults where they hold.
pub trait HostFault: Catalogued {
    /// A fault of the forwarding path: it changes nothing unless the host has an
    /// upstream model, so only a run with one (a witness) can catch it.
    fn needs_upstream(&self) -> bool {
        false
    }

    /// Its whole effect is that something cases need in order to observe anything is
    /// missing (a seam that answers 404): cases are blocked rather than failed.
    fn blocks_cases(&self) -> bool {
        false
    }

    /// Not a fault but a faithful transformation of media (a re-encoded or scaled
    /// picture, as real agents make): no case may fail against it, and the witness
    /// must say what changed.
    fn is_faithful_transformation(&self) -> bool {
        false
    }

    /// Whether it acts at `door`, for a host with several (the OpenAI server's `chat`
    /// and `responses`); a host with one door is the same at every door.
    fn acts_at(&self, _door: &str) -> bool {
        true
    }
}

/// The naming half of [`HostFault`], implemented by the catalogue macro.
pub trait Catalogued: std::fmt::Debug + Send + Sync + 'static {
    /// The stable kebab-case name used on the command line and in test names.
    fn name(&self) -> &'static str;
    /// One sentence: which requirement it breaks.
    fn description(&self) -> &'static str;
}

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

        impl $crate::fault_catalogue::Catalogued for $name {
            // The inherent methods (by value) are the ones called here.
            fn name(&self) -> &'static str {
                $name::name(*self)
            }

            fn description(&self) -> &'static str {
                $name::description(*self)
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
