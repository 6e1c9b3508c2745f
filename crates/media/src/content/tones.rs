//! The tone stamp: a nonce played as a sequence of tones (16-tone FSK, four bits a
//! symbol) behind a two-symbol preamble, between a symbol of silence at each end.
//!
//! Tones lie between 600 and 2,400 Hz, inside the telephone band, so resampling down to
//! 8 kHz, MP3 and channel mixing keep them; the phase runs on across symbols so no click
//! spends an encoder's bits. A reader takes any sample rate: it sums each tone's
//! correlation per millisecond once, then tries every start offset against the
//! preamble and, where it matches, reads the 28 symbols after it from the central half
//! of each (lossy codecs blur the edges) and checks the CRC.

use super::payload::{self, BITS};
use std::f64::consts::TAU;

/// Seconds per symbol.
pub const SYMBOL_SECS: f64 = 0.048;
/// Symbols of the stamp: silence, preamble (2), data (28), silence.
pub const SYMBOLS: usize = 1 + PREAMBLE.len() + DATA_SYMBOLS + 1;
/// The symbols that start every stamp, after the leading silence.
const PREAMBLE: [usize; 2] = [15, 0];
const DATA_SYMBOLS: usize = BITS / 4;
/// Peak amplitude of the tones (full scale is 1).
const AMPLITUDE: f64 = 0.4;
/// Most seconds of audio searched: the stamp starts within its first 50 ms.
pub const MAX_SECONDS: f64 = 30.0;
/// A preamble tone must be this many times stronger than any other.
const DOMINANCE: f64 = 2.0;

/// The frequency of tone `symbol` (0-15), in Hz.
pub fn frequency(symbol: usize) -> f64 {
    600.0 + 120.0 * symbol as f64
}

/// The symbols that play `nonce` (data all 0 for a nonce without a content stamp), with
/// `None` for the silences at each end.
pub fn symbols(nonce: &str) -> Vec<Option<usize>> {
    let bytes = payload::encode(nonce).unwrap_or([0; payload::BYTES]);
    let nibbles = bytes
        .iter()
        .flat_map(|b| [usize::from(b >> 4), usize::from(b & 15)]);
    std::iter::once(None)
        .chain(PREAMBLE.iter().copied().map(Some))
        .chain(nibbles.map(Some))
        .chain(std::iter::once(None))
        .collect()
}

/// The sample where symbol `i` starts at `rate`.
pub fn symbol_start(i: usize, rate: u32) -> usize {
    (i as f64 * SYMBOL_SECS * f64::from(rate)).round() as usize
}

/// The stamp for `nonce` as mono samples in -1..1 at `rate`.
pub fn synthesize(nonce: &str, rate: u32) -> Vec<f64> {
    let symbols = symbols(nonce);
    let mut out = Vec::with_capacity(symbol_start(symbols.len(), rate));
    let mut phase = 0.0f64;
    for (i, symbol) in symbols.iter().enumerate() {
        for _ in symbol_start(i, rate)..symbol_start(i + 1, rate) {
            match symbol {
                Some(s) => {
                    out.push(AMPLITUDE * phase.sin());
                    phase = (phase + TAU * frequency(*s) / f64::from(rate)) % TAU;
                }
                None => out.push(0.0),
            }
        }
    }
    out
}

/// Each tone's correlation with the signal, summed per block and accumulated, so the
/// correlation over any run of blocks is a difference of two entries.
struct Correlations {
    /// `prefix[b][k]`: tone k's complex correlation over blocks before b.
    prefix: Vec<[(f64, f64); 16]>,
    /// Blocks per symbol.
    symbol: f64,
}

impl Correlations {
    fn new(samples: &[f32], rate: u32) -> Correlations {
        let block = (rate as usize / 1000).max(1);
        let steps: [f64; 16] = std::array::from_fn(|k| TAU * frequency(k) / f64::from(rate));
        let mut prefix = Vec::with_capacity(samples.len() / block + 1);
        let mut sums = [(0.0, 0.0); 16];
        prefix.push(sums);
        for (b, chunk) in samples.chunks_exact(block).enumerate() {
            let start = (b * block) as f64;
            for (k, step) in steps.iter().enumerate() {
                // Each block starts from an exact phase, so rounding never drifts.
                let (mut s, mut c) = (step * start % TAU).sin_cos();
                let (ds, dc) = step.sin_cos();
                let (mut re, mut im) = sums[k];
                for &x in chunk {
                    re += f64::from(x) * c;
                    im -= f64::from(x) * s;
                    (s, c) = (s * dc + c * ds, c * dc - s * ds);
                }
                sums[k] = (re, im);
            }
            prefix.push(sums);
        }
        Correlations {
            prefix,
            symbol: SYMBOL_SECS * f64::from(rate) / block as f64,
        }
    }

    fn blocks(&self) -> usize {
        self.prefix.len() - 1
    }

    /// Each tone's energy over the central half of the symbol starting at block `at`.
    fn energies(&self, at: f64) -> [f64; 16] {
        let from = (at + 0.25 * self.symbol).round() as usize;
        let to = ((at + 0.75 * self.symbol).round() as usize).min(self.blocks());
        let (a, b) = (&self.prefix[from.min(to)], &self.prefix[to]);
        std::array::from_fn(|k| (b[k].0 - a[k].0).powi(2) + (b[k].1 - a[k].1).powi(2))
    }

    /// The strongest tone of the symbol at `at`, and how many times it beats the next.
    fn symbol_at(&self, at: f64) -> (usize, f64) {
        let e = self.energies(at);
        let best = (0..16).max_by(|&a, &b| e[a].total_cmp(&e[b])).unwrap_or(0);
        let second = (0..16)
            .filter(|&k| k != best)
            .map(|k| e[k])
            .fold(0.0, f64::max);
        let ratio = if second > 0.0 {
            e[best] / second
        } else {
            f64::INFINITY
        };
        (best, if e[best] > 0.0 { ratio } else { 0.0 })
    }
}

/// The nonce mono `samples` at `rate` carry, if any (only the first [`MAX_SECONDS`]).
pub fn read(samples: &[f32], rate: u32) -> Option<String> {
    if rate < 4_000 {
        return None;
    }
    let most = (MAX_SECONDS * f64::from(rate)) as usize;
    let corr = Correlations::new(&samples[..samples.len().min(most)], rate);
    let span = corr.symbol * (PREAMBLE.len() + DATA_SYMBOLS) as f64;
    let last = corr.blocks() as f64 - span;
    let mut offset = 0.0;
    while offset <= last {
        if let Some(nonce) = read_at(&corr, offset) {
            return Some(nonce);
        }
        offset += 1.0;
    }
    None
}

/// The stamp whose preamble starts at block `at`, if it is one.
fn read_at(corr: &Correlations, at: f64) -> Option<String> {
    for (i, want) in PREAMBLE.iter().enumerate() {
        let (got, ratio) = corr.symbol_at(at + i as f64 * corr.symbol);
        if got != *want || ratio < DOMINANCE {
            return None;
        }
    }
    let mut bytes = [0u8; payload::BYTES];
    for i in 0..DATA_SYMBOLS {
        let start = at + (PREAMBLE.len() + i) as f64 * corr.symbol;
        let (nibble, _) = corr.symbol_at(start);
        bytes[i / 2] |= (nibble as u8) << if i % 2 == 0 { 4 } else { 0 };
    }
    payload::decode(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: &str = "0123456789abcdef-c42";

    fn as_f32(samples: &[f64]) -> Vec<f32> {
        samples.iter().map(|&s| s as f32).collect()
    }

    #[test]
    fn a_synthesized_stamp_reads_back_at_common_rates() {
        for rate in [8_000, 11_025, 16_000, 22_050, 24_000, 44_100, 48_000] {
            let samples = as_f32(&synthesize(NONCE, rate));
            assert_eq!(samples.len(), symbol_start(SYMBOLS, rate));
            assert_eq!(read(&samples, rate).as_deref(), Some(NONCE), "{rate} Hz");
        }
    }

    #[test]
    fn a_stamp_after_other_sound_and_quieter_still_reads() {
        let mut samples: Vec<f32> = (0..3_000).map(|n| 0.3 * (n as f32 * 0.07).sin()).collect();
        samples.extend(synthesize(NONCE, 8_000).iter().map(|&s| 0.2 * s as f32));
        assert_eq!(read(&samples, 8_000).as_deref(), Some(NONCE));
    }

    #[test]
    fn silence_a_plain_tone_and_an_unstamped_nonce_are_no_stamp() {
        assert_eq!(read(&[0.0; 16_000], 8_000), None);
        let tone: Vec<f32> = (0..16_000).map(|n| (n as f32 * 0.3).sin()).collect();
        assert_eq!(read(&tone, 8_000), None);
        assert_eq!(read(&as_f32(&synthesize("n1", 8_000)), 8_000), None);
        assert_eq!(read(&[], 8_000), None);
        assert_eq!(read(&[0.5; 10], 1), None);
    }
}
