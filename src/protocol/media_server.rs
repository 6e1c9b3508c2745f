//! Media served by mmconform itself, on loopback, for parts that name a URL: `GET
//! /media/<nonce>/<kind>.<ext>` answers the generated file of that type stamped with
//! that nonce (so the witness recognises a case's fetched media as that case's), and
//! counts the fetches of each nonce (so a run can say whether the target fetched what
//! it was sent). A protocol starts one when the run has no `--media-base-url`; it
//! serves nothing but generated media, and only on 127.0.0.1.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// The most distinct nonces whose fetches are counted.
const MAX_COUNTED: usize = 65_536;

/// The extension each generated type is served under.
const EXTENSIONS: [(&str, &str); 8] = [
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/webp", "webp"),
    ("image/gif", "gif"),
    ("audio/wav", "wav"),
    ("audio/mpeg", "mp3"),
    ("application/pdf", "pdf"),
    ("video/mp4", "mp4"),
];

/// The extension `mime` is served under (`bin` for a type mmconform does not generate).
pub fn extension(mime: &str) -> &'static str {
    let canonical = mmconform_media::canonical_mime(mime);
    EXTENSIONS
        .iter()
        .find(|(m, _)| *m == canonical)
        .map_or("bin", |(_, ext)| ext)
}

type Fetches = Arc<Mutex<HashMap<String, usize>>>;

/// A running media server.
pub struct MediaServer {
    base: String,
    // Counted by every fetch; only the tests read the count so far.
    #[cfg_attr(not(test), expect(dead_code))]
    fetches: Fetches,
    shutdown: Option<oneshot::Sender<()>>,
}

impl MediaServer {
    /// Starts on an ephemeral loopback port.
    pub async fn start() -> Result<MediaServer, String> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| format!("cannot start the media server: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot start the media server: {e}"))?;
        let fetches: Fetches = Arc::default();
        let app = Router::new()
            .route("/media/{nonce}/{file}", get(serve))
            .with_state(fetches.clone());
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let stopped = async move {
                let _ = rx.await;
            };
            // A serve error after the run has nobody left to report to.
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(stopped)
                .await;
        });
        Ok(MediaServer {
            base: format!("http://{addr}/media"),
            fetches,
            shutdown: Some(tx),
        })
    }

    /// `http://127.0.0.1:PORT/media`: a file is `<base>/<nonce>/<kind>.<ext>`.
    pub fn base(&self) -> &str {
        &self.base
    }

    #[cfg(test)]
    /// The URL of the file of type `mime` (part kind `kind`) stamped with `nonce`.
    pub fn url(&self, nonce: &str, kind: &str, mime: &str) -> String {
        format!("{}/{nonce}/{kind}.{}", self.base, extension(mime))
    }

    #[cfg(test)]
    /// How many times a file stamped with `nonce` was fetched.
    pub fn fetches(&self, nonce: &str) -> usize {
        let counted = self.fetches.lock().unwrap_or_else(|p| p.into_inner());
        counted.get(nonce).copied().unwrap_or(0)
    }

    /// Stops serving.
    pub fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl Drop for MediaServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A nonce as mmconform makes them: hex digits, `-c` and the case index.
fn plausible_nonce(nonce: &str) -> bool {
    (1..=64).contains(&nonce.len())
        && nonce
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == '-' || c == 'c')
}

async fn serve(
    State(fetches): State<Fetches>,
    Path((nonce, file)): Path<(String, String)>,
) -> Response {
    let mime = file
        .rsplit_once('.')
        .and_then(|(_, ext)| EXTENSIONS.iter().find(|(_, e)| *e == ext))
        .map(|(m, _)| *m);
    let (Some(mime), true) = (mime, plausible_nonce(&nonce)) else {
        return (StatusCode::NOT_FOUND, "no such media").into_response();
    };
    {
        let mut counted = fetches.lock().unwrap_or_else(|p| p.into_inner());
        if counted.len() < MAX_COUNTED || counted.contains_key(&nonce) {
            *counted.entry(nonce.clone()).or_insert(0) += 1;
        }
    }
    let bytes = mmconform_media::generate(mime, &nonce);
    ([(header::CONTENT_TYPE, mime)], bytes).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn serves_stamped_media_and_counts_fetches() {
        let mut server = MediaServer::start().await.unwrap();
        let nonce = "0123456789abcdef-c3";
        let url = server.url(nonce, "image", "image/png");
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with("/image.png"),
            "{url}"
        );
        assert_eq!(server.fetches(nonce), 0);
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let got = client.get(&url).send().await.unwrap();
        assert_eq!(got.status().as_u16(), 200);
        let bytes = got.bytes().await.unwrap();
        assert_eq!(
            bytes.as_ref(),
            mmconform_media::generate("image/png", nonce)
        );
        assert_eq!(server.fetches(nonce), 1);
        for bad in ["../etc/passwd/image.png", "x y/image.png", "0123/image.exe"] {
            let r = client
                .get(format!("{}/{bad}", server.base()))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 404, "{bad}");
        }
        assert_eq!(extension("image/jpg"), "jpg");
        server.stop();
    }
}
