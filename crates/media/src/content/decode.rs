//! Decoding a received picture or sound, within bounds, and reading its content stamp.

use super::{pixels, tones};
use std::io::Cursor;
use symphonia::core::codecs::audio::AudioDecoderOptions;
use symphonia::core::errors::Error as AudioError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, TrackType};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;

/// How much a decode may cost. Pictures are refused past `max_edge` pixels a side or
/// `max_alloc` bytes decoded; sounds are read for `max_millis` at most (the stamp is
/// at the start) and refused past `max_channels` or `max_rate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    pub max_edge: u32,
    pub max_alloc: u64,
    pub max_millis: u64,
    pub max_channels: usize,
    pub max_rate: u32,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_edge: 8_192,
            max_alloc: 32 << 20,
            max_millis: (tones::MAX_SECONDS * 1000.0) as u64,
            max_channels: 8,
            max_rate: 384_000,
        }
    }
}

/// What a file decoded to, and the nonce its content carries (`None`: no stamp).
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Image {
        width: u32,
        height: u32,
        nonce: Option<String>,
    },
    Audio {
        rate: u32,
        channels: usize,
        /// Length of what was decoded (about `max_millis` at most), in milliseconds.
        millis: u64,
        nonce: Option<String>,
    },
}

impl Content {
    pub fn nonce(&self) -> Option<&str> {
        match self {
            Content::Image { nonce, .. } | Content::Audio { nonce, .. } => nonce.as_deref(),
        }
    }

    /// `104x104` for a picture, `8000 Hz mono` for a sound.
    pub fn shape(&self) -> String {
        match self {
            Content::Image { width, height, .. } => format!("{width}x{height}"),
            Content::Audio { rate, channels, .. } => match channels {
                1 => format!("{rate} Hz mono"),
                2 => format!("{rate} Hz stereo"),
                n => format!("{rate} Hz {n} channels"),
            },
        }
    }
}

/// Decodes `bytes` as the picture or sound their signature says they are, and reads
/// its content stamp. `Err` says why nothing could be read: not a picture or sound
/// this reads, refused by a bound, or broken.
pub fn read(bytes: &[u8], bounds: &Bounds) -> Result<Content, String> {
    match crate::sniff_mime(bytes) {
        Some("image/png" | "image/jpeg" | "image/gif" | "image/webp") => image(bytes, bounds),
        Some(mime @ ("audio/wav" | "audio/mpeg")) => audio(bytes, mime, bounds),
        Some(other) => Err(format!("{other} carries no content stamp")),
        None => Err("not a picture or sound this reads".into()),
    }
}

fn image(bytes: &[u8], bounds: &Bounds) -> Result<Content, String> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(bounds.max_edge);
    limits.max_image_height = Some(bounds.max_edge);
    limits.max_alloc = Some(bounds.max_alloc);
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| format!("picture not decoded: {e}"))?;
    let (width, height) = (decoded.width(), decoded.height());
    let grey = decoded.into_luma8();
    Ok(Content::Image {
        width,
        height,
        nonce: pixels::read(&grey),
    })
}

fn audio(bytes: &[u8], mime: &str, bounds: &Bounds) -> Result<Content, String> {
    let fail = |e: AudioError| format!("sound not decoded: {e}");
    let source = MediaSourceStream::new(Box::new(Cursor::new(bytes.to_vec())), Default::default());
    let mut hint = Hint::new();
    hint.mime_type(mime);
    let mut format = symphonia::default::get_probe()
        .probe(
            &hint,
            source,
            FormatOptions::default(),
            MetadataOptions::default(),
        )
        .map_err(fail)?;
    let track = format
        .default_track(TrackType::Audio)
        .ok_or("sound not decoded: no audio track")?;
    let params = track
        .codec_params
        .as_ref()
        .and_then(|p| p.audio())
        .ok_or("sound not decoded: no audio parameters")?;
    let track_id = track.id;
    let mut decoder = symphonia::default::get_codecs()
        .make_audio_decoder(params, &AudioDecoderOptions::default())
        .map_err(fail)?;
    let mut mono: Vec<f32> = Vec::new();
    let mut interleaved: Vec<f32> = Vec::new();
    let mut shape: Option<(u32, usize)> = None;
    while let Some(packet) = format.next_packet().map_err(fail)? {
        if packet.track_id != track_id {
            continue;
        }
        let buffer = match decoder.decode(&packet) {
            Ok(buffer) => buffer,
            // A damaged frame is skipped, as players do; anything else ends the read.
            Err(AudioError::DecodeError(_)) => continue,
            Err(e) => return Err(fail(e)),
        };
        let (rate, channels) = (buffer.spec().rate(), buffer.spec().channels().count());
        if channels == 0 || channels > bounds.max_channels || rate == 0 || rate > bounds.max_rate {
            return Err(format!(
                "sound not decoded: {channels} channel(s) at {rate} Hz is out of bounds"
            ));
        }
        if *shape.get_or_insert((rate, channels)) != (rate, channels) {
            return Err("sound not decoded: its rate or channels change midway".into());
        }
        interleaved.resize(buffer.samples_interleaved(), 0.0);
        buffer.copy_to_slice_interleaved(&mut interleaved);
        // Channels are mixed down: a stamp played in every channel survives any mix.
        mono.extend(
            interleaved
                .chunks_exact(channels)
                .map(|frame| frame.iter().sum::<f32>() / channels as f32),
        );
        if mono.len() as u64 * 1000 >= bounds.max_millis * u64::from(rate) {
            break;
        }
    }
    let (rate, channels) = shape.ok_or("sound not decoded: no audio in it")?;
    Ok(Content::Audio {
        rate,
        channels,
        millis: mono.len() as u64 * 1000 / u64::from(rate),
        nonce: tones::read(&mono, rate),
    })
}
