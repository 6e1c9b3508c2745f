//! The pixel stamp: a nonce drawn as a 13x13 grid of dark and light cells (navy on
//! pale yellow) that fills the whole picture, so it is read at relative positions
//! whatever the picture's size, from the luma alone (a grey copy reads the same).
//!
//! Cells are 8 pixels, aligned with JPEG's 8x8 blocks, so a JPEG of the stamp is exact
//! and a re-encoded one rings only at cell edges; each cell is read as the mean of its
//! central half. The outer ring and the last nine inner cells hold a fixed pattern (the
//! orientation marks: only one of the eight rotations and mirrorings matches it), the
//! other 112 inner cells the stamp's bits ([`super::payload`]). A picture is read in all
//! eight orientations; one whose marks match and whose CRC holds names its nonce.
//!
//! What it survives (tests below and in `content/tests.rs`): PNG, GIF, WEBP (lossless
//! or lossy), JPEG at quality 60, scaling to half size or to a fixed edge, greyscale.

use super::payload::{self, BITS};
use image::{GrayImage, Rgb, RgbImage};

/// Cells per side.
const GRID: usize = 13;
/// Pixels per cell side in a generated picture.
const CELL: u32 = 8;
/// Pixels per side of a generated picture.
pub const SIDE: u32 = GRID as u32 * CELL;
/// Fixed cells that may read wrong (a JPEG's ringing at a corner) before a picture is
/// taken not to be a stamp at all.
const MAX_MARK_ERRORS: usize = 4;
/// Smallest difference between the darkest and brightest cell means (out of 255).
const MIN_CONTRAST: f32 = 48.0;
/// The two colours: luma about 42 and 228, far apart in any greyscale conversion.
pub const DARK: Rgb<u8> = Rgb([20, 40, 120]);
pub const LIGHT: Rgb<u8> = Rgb([250, 230, 140]);
/// The marks' pattern: bits of a constant with no symmetry, one per fixed cell.
const MARKS: u64 = 0x9E37_79B9_7F4A_7C15;

/// Where each cell's bit comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Mark(bool),
    Data(usize),
}

/// The grid's cells, row by row: the ring first gets marks, then inner cells get data
/// bits in order and, once the 112 are placed, marks again.
fn layout() -> [[Cell; GRID]; GRID] {
    let mut grid = [[Cell::Mark(false); GRID]; GRID];
    let (mut mark, mut data) = (0usize, 0usize);
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let ring = r == 0 || c == 0 || r == GRID - 1 || c == GRID - 1;
            *cell = if !ring && data < BITS {
                data += 1;
                Cell::Data(data - 1)
            } else {
                mark += 1;
                Cell::Mark(MARKS >> (mark % 64) & 1 == 1)
            };
        }
    }
    grid
}

/// The generated picture for `nonce`: its stamp, or the marks alone (data cells
/// light) for a nonce that has no content stamp.
pub fn draw(nonce: &str) -> RgbImage {
    let bits = payload::encode(nonce).map(|bytes| payload::to_bits(&bytes));
    let grid = layout();
    RgbImage::from_fn(SIDE, SIDE, |x, y| {
        let dark = match grid[(y / CELL) as usize][(x / CELL) as usize] {
            Cell::Mark(dark) => dark,
            Cell::Data(i) => bits.is_some_and(|b| b[i]),
        };
        if dark { DARK } else { LIGHT }
    })
}

/// The nonce a picture's pixels carry, if any.
pub fn read(image: &GrayImage) -> Option<String> {
    let (w, h) = image.dimensions();
    if w < GRID as u32 || h < GRID as u32 {
        return None;
    }
    let means = cell_means(image);
    let (lo, hi) = means
        .iter()
        .flatten()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &m| (lo.min(m), hi.max(m)));
    if hi - lo < MIN_CONTRAST {
        return None;
    }
    let threshold = (lo + hi) / 2.0;
    let dark = means.map(|row| row.map(|m| m < threshold));
    let grid = layout();
    (0..8).find_map(|orientation| {
        let mut bits = [false; BITS];
        let mut errors = 0;
        for (r, row) in grid.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let (or, oc) = orient(orientation, r, c);
                match *cell {
                    Cell::Mark(want) => errors += usize::from(dark[or][oc] != want),
                    Cell::Data(i) => bits[i] = dark[or][oc],
                }
            }
        }
        (errors <= MAX_MARK_ERRORS)
            .then(|| payload::decode(&payload::from_bits(&bits)))
            .flatten()
    })
}

/// Where cell (r, c) of the stamp is in a picture turned by `orientation` (0-3: that
/// many quarter turns; 4-7: the same after a mirror).
fn orient(orientation: usize, r: usize, c: usize) -> (usize, usize) {
    let last = GRID - 1;
    let (mut r, mut c) = if orientation >= 4 {
        (r, last - c)
    } else {
        (r, c)
    };
    for _ in 0..orientation % 4 {
        (r, c) = (c, last - r);
    }
    (r, c)
}

/// The mean of each cell's central half, wherever the cells fall in this picture.
fn cell_means(image: &GrayImage) -> [[f32; GRID]; GRID] {
    let (w, h) = image.dimensions();
    let span = |i: usize, size: u32| {
        let size = f64::from(size);
        let cell = size / GRID as f64;
        let from = (i as f64 + 0.25) * cell;
        let to = (i as f64 + 0.75) * cell;
        // At least one pixel, inside the picture.
        let from = (from.floor() as u32).min(size as u32 - 1);
        let to = (to.ceil() as u32).clamp(from + 1, size as u32);
        from..to
    };
    std::array::from_fn(|r| {
        std::array::from_fn(|c| {
            let (ys, xs) = (span(r, h), span(c, w));
            let count = (ys.len() * xs.len()) as f32;
            let sum: u32 = ys
                .flat_map(|y| xs.clone().map(move |x| (x, y)))
                .map(|(x, y)| u32::from(image.get_pixel(x, y).0[0]))
                .sum();
            sum as f32 / count
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: &str = "0123456789abcdef-c42";

    fn grey(image: RgbImage) -> GrayImage {
        image::DynamicImage::ImageRgb8(image).into_luma8()
    }

    #[test]
    fn a_drawn_stamp_reads_back_in_every_orientation() {
        let image = grey(draw(NONCE));
        assert_eq!(image.dimensions(), (SIDE, SIDE));
        assert_eq!(read(&image).as_deref(), Some(NONCE));
        let turned = [
            image::imageops::rotate90(&image),
            image::imageops::rotate180(&image),
            image::imageops::rotate270(&image),
            image::imageops::flip_horizontal(&image),
            image::imageops::flip_vertical(&image),
        ];
        for (i, t) in turned.iter().enumerate() {
            assert_eq!(read(t).as_deref(), Some(NONCE), "orientation {i}");
        }
    }

    #[test]
    fn the_marks_match_in_one_orientation_only() {
        let grid = layout();
        let marks: Vec<(usize, usize, bool)> = (0..GRID)
            .flat_map(|r| (0..GRID).map(move |c| (r, c)))
            .filter_map(|(r, c)| match grid[r][c] {
                Cell::Mark(d) => Some((r, c, d)),
                Cell::Data(_) => None,
            })
            .collect();
        assert_eq!(marks.len(), GRID * GRID - BITS);
        for orientation in 1..8 {
            let agree = marks
                .iter()
                .filter(|(r, c, d)| {
                    let (or, oc) = orient(orientation, *r, *c);
                    match grid[or][oc] {
                        Cell::Mark(e) => e == *d,
                        Cell::Data(_) => false,
                    }
                })
                .count();
            // Far more than MAX_MARK_ERRORS disagree in any other orientation.
            assert!(marks.len() - agree > 3 * MAX_MARK_ERRORS, "{orientation}");
        }
    }

    #[test]
    fn a_nonce_without_a_content_stamp_draws_marks_that_read_as_nothing() {
        let image = grey(draw("n1"));
        assert_eq!(image.dimensions(), (SIDE, SIDE));
        assert_eq!(read(&image), None);
    }

    #[test]
    fn flat_and_tiny_pictures_are_no_stamp() {
        assert_eq!(
            read(&GrayImage::from_pixel(104, 104, image::Luma([128]))),
            None
        );
        assert_eq!(read(&GrayImage::new(12, 12)), None);
        assert_eq!(read(&GrayImage::new(1, 1)), None);
    }
}
