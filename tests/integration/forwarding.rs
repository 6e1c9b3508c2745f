//! The reference hosts' forwarding mode through the binary: `serve-reference
//! --upstream` sends an accepted `provider: compat` call (or, with `--profile openai`,
//! an accepted chat completion) on to a mock model started here on 127.0.0.1, `run --target reference --reference-upstream` hands the URL to
//! the embedded host, and an upstream off loopback is a usage error. Nothing here
//! reaches past 127.0.0.1.

use crate::common::served::serve;
use crate::common::{bin, run};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

const REPLY: &str = "a stamped picture, a beep and a page";

/// An OpenAI-compatible model on 127.0.0.1 in a thread of its own (so blocking test
/// code can wait on a child that calls it): records every completion request.
struct Mock {
    port: u16,
    received: Arc<Mutex<Vec<Value>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Mock {
    fn start() -> Mock {
        let received = Arc::new(Mutex::new(Vec::new()));
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let record = received.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let app = axum::Router::new().route(
                    "/v1/chat/completions",
                    axum::routing::post(move |axum::Json(body): axum::Json<Value>| {
                        record.lock().unwrap().push(body);
                        async {
                            axum::Json(json!({"id": "c", "object": "chat.completion",
                                "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": REPLY}}]}))
                        }
                    }),
                );
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                port_tx.send(listener.local_addr().unwrap().port()).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
                    .unwrap();
            });
        });
        Mock {
            port: port_rx.recv().unwrap(),
            received,
            stop: Some(stop),
        }
    }

    fn base(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    fn received(&self) -> Vec<Value> {
        self.received.lock().unwrap().clone()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// POSTs `body` to the served host's v1 seam: the status and the JSON answer.
fn call(base: &str, body: &Value) -> (u16, Value) {
    post(&format!("{base}/v1/host/sample/ai/call"), body)
}

/// POSTs `body` to `url`: the status and the JSON answer.
fn post(url: &str, body: &Value) -> (u16, Value) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _ = rustls::crypto::ring::default_provider().install_default();
    runtime.block_on(async {
        let response = reqwest::Client::builder()
            .no_proxy()
            .build()
            .unwrap()
            .post(url)
            .json(body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap())
    })
}

#[test]
fn serve_reference_forwards_an_accepted_compat_call_to_its_upstream() {
    let mock = Mock::start();
    let host = serve(&[
        "--modalities",
        "text,image,audio,document",
        "--upstream",
        &mock.base(),
    ]);
    assert!(
        host.banner.contains(&format!("upstream {}", mock.base())),
        "{}",
        host.banner
    );
    let png = mmconform_media::generate("image/png", "0123456789abcdef");
    let wav = mmconform_media::generate("audio/wav", "0123456789abcdef");
    let pdf = mmconform_media::generate("application/pdf", "0123456789abcdef");
    let (png, wav, pdf) = (
        STANDARD.encode(png),
        STANDARD.encode(wav),
        STANDARD.encode(pdf),
    );
    let messages = json!([
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [
            {"type": "text", "text": "what are these?"},
            {"type": "image", "mimeType": "image/png", "data": png},
            {"type": "audio", "mimeType": "audio/wav", "data": wav},
            {"type": "document", "mimeType": "application/pdf", "data": pdf},
        ]},
    ]);
    let (status, answer) = call(
        &host.url,
        &json!({"provider": "compat", "messages": messages}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["provider"], "compat");
    assert_eq!(answer["completion"], REPLY);
    assert_eq!(answer["upstream"], json!({"status": 200, "text": REPLY}));
    assert_eq!(
        answer["modalities"],
        json!(["text", "image", "audio", "document"])
    );
    assert_eq!(
        mock.received(),
        [
            json!({"model": "mmconform-reference", "stream": false, "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": [
                    {"type": "text", "text": "what are these?"},
                    {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}},
                    {"type": "input_audio", "input_audio": {"data": wav, "format": "wav"}},
                    {"type": "file", "file": {"file_data": format!("data:application/pdf;base64,{pdf}"),
                                              "filename": "document.pdf"}},
                ]},
            ]})
        ]
    );

    // Without `provider: compat`, and for a refused call, the model hears nothing.
    let (status, answer) = call(&host.url, &json!({"messages": messages}));
    assert_eq!(status, 200);
    assert!(answer.get("provider").is_none(), "{answer}");
    let video = json!([{"role": "user", "content": [
        {"type": "video", "mimeType": "video/mp4", "data": "AAAA"}]}]);
    let (status, answer) = call(&host.url, &json!({"provider": "compat", "messages": video}));
    assert_eq!(
        (status, &answer["error"]),
        (400, &json!("unsupported_modality"))
    );
    assert_eq!(mock.received().len(), 1);
}

#[test]
fn serve_reference_openai_relays_an_accepted_request_to_its_upstream() {
    let mock = Mock::start();
    let server = serve(&[
        "--profile",
        "openai",
        "--models",
        "reference-multimodal",
        "--upstream",
        &mock.base(),
        "--fault",
        "forward-drops-detail",
    ]);
    assert!(server.url.ends_with("/v1"), "{}", server.banner);
    assert!(
        server.banner.contains("models reference-multimodal")
            && server.banner.contains("FAULT forward-drops-detail"),
        "{}",
        server.banner
    );
    let png = STANDARD.encode(mmconform_media::generate("image/png", "0123456789abcdef"));
    let image = json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}"), "detail": "high"}});
    let body = json!({"model": "reference-multimodal", "messages": [{"role": "user", "content": [image]}]});
    let (status, answer) = post(&format!("{}/chat/completions", server.url), &body);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["choices"][0]["message"]["content"], REPLY);
    let received = mock.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0]["model"], "reference-multimodal");
    assert_eq!(
        received[0]["messages"][0]["content"][0],
        json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}}),
        "the fault dropped `detail` on the way"
    );
    // The text-only model is not served, and a refusal never reaches the upstream.
    let text_model =
        json!({"model": "reference-text", "messages": [{"role": "user", "content": "hi"}]});
    let (status, answer) = post(&format!("{}/chat/completions", server.url), &text_model);
    assert_eq!(
        (status, &answer["error"]["code"]),
        (404, &json!("model_not_found"))
    );
    assert_eq!(mock.received().len(), 1);
}

#[test]
fn the_forwarding_faults_are_listed_and_marked() {
    // The openwop host has four more that transform media (issue 32).
    for (profile, count) in [("openwop", 12), ("agui", 8)] {
        let out = bin()
            .args(["serve-reference", "--profile", profile, "--list-faults"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let marked: Vec<&str> = text
            .lines()
            .filter(|l| l.ends_with("[needs --upstream]"))
            .collect();
        assert_eq!(marked.len(), count, "{profile}: {text}");
        assert!(marked.iter().all(|l| l.starts_with("forward-")), "{text}");
        assert!(text.contains("forward-truncates-bytes"), "{text}");
    }
    let out = bin()
        .args(["serve-reference", "--profile", "openai", "--list-faults"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let marked = text.lines().filter(|l| l.ends_with("[needs --upstream]"));
    assert_eq!(marked.count(), 5, "{text}");
    assert!(text.contains("stream-without-done"), "{text}");
}

#[test]
fn an_upstream_off_loopback_is_a_usage_error_before_anything_is_sent() {
    let out = bin()
        .args([
            "serve-reference",
            "--port",
            "0",
            "--upstream",
            "http://192.0.2.1/v1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("does not point at loopback"), "{stderr}");
    for args in [
        &[
            "--target",
            "reference",
            "--reference-upstream",
            "http://192.0.2.1/v1",
        ][..],
        &[
            "--profile",
            "agui",
            "--target",
            "reference",
            "--reference-upstream",
            "ftp://127.0.0.1/",
        ],
        &[
            "--target",
            "http://127.0.0.1:9",
            "--reference-upstream",
            "http://127.0.0.1:9/v1",
        ],
    ] {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.context());
    }
}

#[test]
fn run_hands_the_upstream_to_the_embedded_hosts() {
    let mock = Mock::start();
    // The openwop pack does not name `provider: compat` (yet): the host forwards
    // nothing and the run is what it is without an upstream.
    let r = run(&[
        "--target",
        "reference",
        "--reference-upstream",
        &mock.base(),
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(mock.received().is_empty());
    // The AG-UI agent forwards every run that completes, and still passes the pack.
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        "reference",
        "--reference-upstream",
        &mock.base(),
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(!mock.received().is_empty());
    assert!(
        mock.received()
            .iter()
            .all(|request| request["model"] == "mmconform-reference")
    );
}
