//! A host's service time (`serve-reference --delay-ms N`): every call (POST) is
//! answered no sooner than N ms after it arrived, as a host that runs a model would,
//! so a benchmark can tell the tester's own time from the host's. Discovery and other
//! GETs are answered at once: a real host serves its description from memory.

use axum::Router;
use axum::extract::Request;
use axum::http::Method;
use axum::middleware::{self, Next};
use std::time::Duration;

/// `app` with every POST held until `service_time` has passed since it arrived (the
/// host's own work counts towards it). Zero leaves `app` as it is.
pub fn paced(app: Router, service_time: Duration) -> Router {
    if service_time.is_zero() {
        return app;
    }
    app.layer(middleware::from_fn(move |request: Request, next: Next| {
        let ready_at = tokio::time::Instant::now() + service_time;
        let paced = request.method() == Method::POST;
        async move {
            let response = next.run(request).await;
            if paced {
                tokio::time::sleep_until(ready_at).await;
            }
            response
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReferenceConfig, router, serve};
    use std::time::Instant;

    async fn timed(request: reqwest::RequestBuilder) -> (u16, Duration) {
        let started = Instant::now();
        let status = request.send().await.unwrap().status().as_u16();
        (status, started.elapsed())
    }

    #[tokio::test]
    async fn calls_take_the_service_time_and_discovery_does_not() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let app = paced(
            router(ReferenceConfig::default()),
            Duration::from_millis(150),
        );
        let host = serve(app, "127.0.0.1:0".parse().unwrap()).await.unwrap();
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let base = host.base_url();
        let discovery = client.get(format!("{base}{}", crate::DISCOVERY));
        let (status, took) = timed(discovery).await;
        assert_eq!(status, 200);
        assert!(took < Duration::from_millis(150), "discovery took {took:?}");
        let call = client
            .post(format!("{base}{}", crate::AI_CALL_V1))
            .header("content-type", "application/json")
            .body("{}");
        let (status, took) = timed(call).await;
        assert_eq!(status, 400, "an empty call is still judged");
        assert!(took >= Duration::from_millis(150), "the call took {took:?}");
    }
}
