//! Hostile and broken hosts: small raw TCP servers on 127.0.0.1:0, each misbehaving in
//! one way a real host under development (or run by someone else) might. A behaviour
//! function decides, per request, what the host answers; `Reply::Forward` passes the
//! request to the embedded reference host, so a host can be hostile on one path and
//! faithful on the rest.

use reference_hosts::ReferenceConfig;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the host read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// When it arrived, for pacing checks.
    pub at: Instant,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn is_discovery(&self) -> bool {
        self.path.starts_with("/.well-known/openwop")
    }

    /// The raw request head and body, as sent on to the reference host.
    fn forwardable(&self) -> Vec<u8> {
        let mut out = format!("{} {} HTTP/1.1\r\n", self.method, self.path).into_bytes();
        for (name, value) in &self.headers {
            if !name.eq_ignore_ascii_case("connection") {
                out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
            }
        }
        out.extend_from_slice(b"Connection: close\r\n\r\n");
        out.extend_from_slice(&self.body);
        out
    }
}

/// What the host does with one request.
pub enum Reply {
    /// Pass it to the embedded reference host and relay the answer.
    Forward,
    /// Write these bytes, then close.
    Raw(Vec<u8>),
    /// Read the request and never answer (the connection stays open).
    Silent,
    /// Close the connection without a byte.
    Close,
    /// Write `head`, then `body` one byte every `every`.
    Trickle {
        head: Vec<u8>,
        body: Vec<u8>,
        every: Duration,
    },
    /// Write `head`, then `chunk` forever (until the client goes away).
    Endless { head: Vec<u8>, chunk: Vec<u8> },
    /// Write `head` and a first `chunk`, then reset the connection (RST, not FIN).
    ResetAfter { head: Vec<u8>, chunk: Vec<u8> },
    /// Write `head`, then `total` bytes produced `piece` at a time (a large body that
    /// is never held in memory at once).
    Stream {
        head: Vec<u8>,
        piece: Vec<u8>,
        total: usize,
    },
}

/// An HTTP/1.1 response with `Connection: close` and a Content-Length.
pub fn response(status: &str, headers: &[(&str, &str)], body: impl AsRef<[u8]>) -> Vec<u8> {
    let body = body.as_ref();
    let mut out = format!("HTTP/1.1 {status}\r\n").into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(body);
    out
}

pub type Behaviour = dyn Fn(&Request, usize) -> Reply + Send + Sync;

/// A running hostile host. Dropping it stops it.
pub struct HostileHost {
    pub addr: SocketAddr,
    seen: Arc<Mutex<Vec<Request>>>,
    // Dropped before the runtime it runs on.
    _reference: reference_hosts::RunningReference,
    _runtime: tokio::runtime::Runtime,
}

impl HostileHost {
    /// Starts a host whose `behaviour(request, n)` decides every answer (`n` counts
    /// requests from 0). Forwarded requests go to a reference host with `config`.
    pub fn start(
        config: ReferenceConfig,
        behaviour: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static,
    ) -> HostileHost {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let addr = std_listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let behaviour: Arc<Behaviour> = Arc::new(behaviour);
        let reference = runtime
            .block_on(reference_hosts::spawn(
                config,
                SocketAddr::from(([127, 0, 0, 1], 0)),
            ))
            .unwrap();
        let upstream = reference.addr;
        let recorded = seen.clone();
        runtime.spawn(async move {
            let listener = TcpListener::from_std(std_listener).unwrap();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let (behaviour, recorded) = (behaviour.clone(), recorded.clone());
                tokio::spawn(async move {
                    let _ = serve(stream, upstream, &*behaviour, &recorded).await;
                });
            }
        });
        HostileHost {
            addr,
            seen,
            _reference: reference,
            _runtime: runtime,
        }
    }

    /// A host that answers every request the same way.
    pub fn always(reply: impl Fn() -> Reply + Send + Sync + 'static) -> HostileHost {
        HostileHost::start(ReferenceConfig::default(), move |_, _| reply())
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }
}

async fn serve(
    mut stream: TcpStream,
    upstream: SocketAddr,
    behaviour: &Behaviour,
    seen: &Mutex<Vec<Request>>,
) -> std::io::Result<()> {
    let Some(request) = read_request(&mut stream).await? else {
        return Ok(());
    };
    let n = {
        let mut seen = seen.lock().unwrap();
        seen.push(request.clone());
        seen.len() - 1
    };
    match behaviour(&request, n) {
        Reply::Forward => {
            let mut up = TcpStream::connect(upstream).await?;
            up.write_all(&request.forwardable()).await?;
            let mut answer = Vec::new();
            up.read_to_end(&mut answer).await?;
            stream.write_all(&answer).await?;
        }
        Reply::Raw(bytes) => stream.write_all(&bytes).await?,
        Reply::Silent => tokio::time::sleep(Duration::from_secs(3600)).await,
        Reply::Close => {}
        Reply::Trickle { head, body, every } => {
            stream.write_all(&head).await?;
            for byte in body {
                tokio::time::sleep(every).await;
                stream.write_all(&[byte]).await?;
            }
        }
        Reply::Endless { head, chunk } => {
            stream.write_all(&head).await?;
            loop {
                stream.write_all(&chunk).await?;
            }
        }
        Reply::ResetAfter { head, chunk } => {
            stream.write_all(&head).await?;
            stream.write_all(&chunk).await?;
            stream.flush().await?;
            tokio::time::sleep(Duration::from_millis(50)).await;
            // SO_LINGER 0 turns the close into a reset; with a zero timeout the drop
            // does not block, which is what the deprecation warns about.
            #[allow(deprecated)]
            stream.set_linger(Some(Duration::ZERO))?;
        }
        Reply::Stream { head, piece, total } => {
            stream.write_all(&head).await?;
            let mut sent = 0;
            while sent < total {
                let n = piece.len().min(total - sent);
                stream.write_all(&piece[..n]).await?;
                sent += n;
            }
        }
    }
    stream.shutdown().await
}

/// Reads one request: head up to 64 KiB, body by Content-Length. `None` if the client
/// closed first.
async fn read_request(stream: &mut TcpStream) -> std::io::Result<Option<Request>> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if buf.len() > 64 * 1024 {
            return Ok(None);
        }
        let n = stream.read(&mut byte).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&byte[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let path = first.next().unwrap_or("").to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut byte).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&byte[..n]);
    }
    Ok(Some(Request {
        method,
        path,
        headers,
        body,
        at: Instant::now(),
    }))
}

/// A gzip stream that inflates to `members` MiB of zeros: one small gzip member of
/// 1 MiB of zeros, repeated (a gzip file may hold several members, and decoders that
/// decompress automatically inflate them all).
pub fn gzip_bomb(members: usize) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&vec![0u8; 1024 * 1024]).unwrap();
    let member = encoder.finish().unwrap();
    member.repeat(members)
}
