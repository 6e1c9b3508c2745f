//! `mmconform serve-reference`: a reference host on its own, as the registry's glue
//! for the form `--profile` names serves it (`crate::reference`).

use super::CliError;
use super::args::ServeArgs;
use crate::exit::Ending;
use crate::reference::{ServeFlag, ServeRequest};

pub fn serve(args: &ServeArgs) -> Result<Ending, CliError> {
    let forms = crate::registry::serve_forms();
    let (form, host) = forms
        .iter()
        .copied()
        .find(|(form, _)| form.profile == args.profile)
        .ok_or_else(|| CliError::Usage(format!("unknown profile `{}`", args.profile)))?;
    let request = ServeRequest {
        accepts: args.accepts.clone(),
        emits_outbound: args.emits_outbound,
        models: args.models.clone(),
        addr: std::net::SocketAddr::new(args.bind, args.port),
        modalities: args.modalities.clone(),
        max_bytes_per_part: args.max_bytes_per_part,
        max_request_body_bytes: args.max_request_body_bytes,
        token: args.token.clone(),
        token_env: args.token_env.clone(),
        fault: args.fault.clone(),
        list_faults: args.list_faults,
        upstream: args.upstream.clone(),
        self_hosted_endpoint: args.self_hosted_endpoint.clone(),
        allow_external: args.allow_external_probe_urls,
        delay: std::time::Duration::from_millis(args.delay_ms),
    };
    // An option the form does not take would be silently ignored: the host would not
    // be the one the user described.
    for flag in ServeFlag::ALL {
        if flag.given(&request) && !form.takes.contains(&flag) {
            let takers: Vec<&str> = forms
                .iter()
                .filter(|(f, _)| f.takes.contains(&flag))
                .map(|(f, _)| f.profile)
                .collect();
            return Err(CliError::Usage(format!(
                "{} shapes the reference of --profile {}, not {}",
                flag.flag(),
                takers.join(", "),
                form.profile
            )));
        }
    }
    host.serve(form, &request)
}
