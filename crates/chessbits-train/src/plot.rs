//! The loss curves as a PNG line plot, with a minimal PNG writer (8-bit RGB, no filter, the
//! pixels zlib-compressed by `flate2`: a plot of 640×400 is 3.6 KB; stored blocks took 770 KB).
//!
//! The plot: training loss in blue, validation loss in orange, one point per epoch (x: epoch 1
//! at the left, the last at the right; y: from the smallest to the largest loss, 5 % margins),
//! light grey lines at the quarters of the y range, labelled with their loss (a 3×5 pixel digit
//! font); the first and last epochs numbered. The exact numbers are in the CSV beside it.

use std::io::{self, Write};

use chessbits_engine::datagen::format::crc32;
use flate2::write::ZlibEncoder;
use flate2::Compression;

/// An RGB image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Rows top to bottom, 3 bytes per pixel.
    pub pixels: Vec<u8>,
}

impl Image {
    /// A white image.
    pub fn new(width: usize, height: usize) -> Image {
        Image {
            width,
            height,
            pixels: vec![255; width * height * 3],
        }
    }

    /// Sets a pixel; outside the image, nothing.
    pub fn set(&mut self, x: i64, y: i64, rgb: [u8; 3]) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            let i = (y as usize * self.width + x as usize) * 3;
            self.pixels[i..i + 3].copy_from_slice(&rgb);
        }
    }

    /// A line (Bresenham), `thick` pixels wide.
    pub fn line(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64), rgb: [u8; 3], thick: i64) {
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
        let (mut x, mut y, mut err) = (x0, y0, dx + dy);
        loop {
            for t in 0..thick {
                for u in 0..thick {
                    self.set(x + t - thick / 2, y + u - thick / 2, rgb);
                }
            }
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// The PNG file.
    pub fn write_png<W: Write>(&self, mut out: W) -> io::Result<()> {
        let mut raw = Vec::with_capacity((self.width * 3 + 1) * self.height);
        for row in self.pixels.chunks(self.width * 3) {
            raw.push(0); // filter: none
            raw.extend_from_slice(row);
        }
        let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
        z.write_all(&raw)?;
        let z = z.finish()?;
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&(self.width as u32).to_be_bytes());
        ihdr.extend_from_slice(&(self.height as u32).to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB, deflate, no filter, no interlace
        out.write_all(b"\x89PNG\r\n\x1a\n")?;
        for (kind, data) in [(b"IHDR", &ihdr[..]), (b"IDAT", &z[..]), (b"IEND", &[][..])] {
            out.write_all(&(data.len() as u32).to_be_bytes())?;
            let mut crc_input = kind.to_vec();
            crc_input.extend_from_slice(data);
            out.write_all(&crc_input)?;
            out.write_all(&crc32(&crc_input).to_be_bytes())?;
        }
        out.flush()
    }
}

/// Digits `0`–`9` and `.` in a 3×5 pixel font: one row per entry, bit 2 the left pixel.
const FONT: [[u8; 5]; 11] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 1, 1],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
    [0, 0, 0, 0, 2],
];

/// The letters the plot's labels use, in the same 3×5 font (written in capitals).
fn letter(c: char) -> Option<[u8; 5]> {
    Some(match c.to_ascii_uppercase() {
        'A' => [2, 5, 7, 5, 5],
        'C' => [3, 4, 4, 4, 3],
        'D' => [6, 5, 5, 5, 6],
        'E' => [7, 4, 6, 4, 7],
        'H' => [5, 5, 7, 5, 5],
        'I' => [7, 2, 2, 2, 7],
        'L' => [4, 4, 4, 4, 7],
        'N' => [6, 5, 5, 5, 5],
        'O' => [2, 5, 5, 5, 2],
        'P' => [6, 5, 6, 4, 4],
        'R' => [6, 5, 6, 5, 5],
        'S' => [3, 4, 2, 1, 6],
        'T' => [7, 2, 2, 2, 2],
        'V' => [5, 5, 5, 5, 2],
        _ => return None,
    })
}

impl Image {
    /// Writes `text` (digits, dots and the letters of the plot's labels; other characters are
    /// skipped) with its top left corner at `(x, y)`, each font pixel `scale` pixels wide.
    pub fn text(&mut self, x: i64, y: i64, text: &str, scale: i64) {
        let mut cx = x;
        for c in text.chars() {
            let glyph = match c {
                '0'..='9' => FONT[c as usize - '0' as usize],
                '.' => FONT[10],
                ' ' => {
                    cx += 4 * scale;
                    continue;
                }
                _ => match letter(c) {
                    Some(glyph) => glyph,
                    None => continue,
                },
            };
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..3 {
                    if bits & (4 >> col) != 0 {
                        for dx in 0..scale {
                            for dy in 0..scale {
                                self.set(cx + col * scale + dx, y + row as i64 * scale + dy, [0, 0, 0]);
                            }
                        }
                    }
                }
            }
            cx += 4 * scale;
        }
    }
}

/// Training loss colour.
pub const TRAIN_RGB: [u8; 3] = [31, 119, 180];
/// Validation loss colour.
pub const VALIDATION_RGB: [u8; 3] = [255, 127, 14];

/// The plot of `train` and `validation` (per epoch; non-finite values are left out).
pub fn loss_plot(train: &[f64], validation: &[f64]) -> Image {
    let (w, h) = (640i64, 400i64);
    let (left, right, top, bottom) = (70i64, 20i64, 20i64, 40i64);
    let mut img = Image::new(w as usize, h as usize);
    let finite: Vec<f64> = train
        .iter()
        .chain(validation)
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let (mut lo, mut hi) = finite
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-9);
    let (lo, hi) = (lo - pad, hi + pad);
    let epochs = train.len().max(validation.len()).max(1);
    let px = |i: usize| {
        if epochs == 1 {
            left + (w - left - right) / 2
        } else {
            left + (w - left - right) * i as i64 / (epochs as i64 - 1)
        }
    };
    let py = |v: f64| top + ((hi - v) / (hi - lo) * (h - top - bottom) as f64).round() as i64;
    // Grid lines at the quarters of the y range, labelled with their loss.
    for q in 0..=4 {
        let y = top + (h - top - bottom) * q / 4;
        img.line((left, y), (w - right, y), [225, 225, 225], 1);
        let value = hi - (hi - lo) * q as f64 / 4.0;
        img.text(4, y - 5, &format!("{value:.4}"), 2);
    }
    img.line((left, top), (left, h - bottom), [0, 0, 0], 1);
    img.line((left, h - bottom), (w - right, h - bottom), [0, 0, 0], 1);
    // A tick per epoch; the first and the last numbered.
    for i in 0..epochs {
        img.line((px(i), h - bottom), (px(i), h - bottom + 5), [0, 0, 0], 1);
    }
    img.text(px(0) - 2, h - bottom + 10, "1", 2);
    if epochs > 1 {
        let last = epochs.to_string();
        img.text(px(epochs - 1) - 8 * last.len() as i64 + 2, h - bottom + 10, &last, 2);
    }
    for (series, rgb) in [(train, TRAIN_RGB), (validation, VALIDATION_RGB)] {
        let points: Vec<(i64, i64)> = series
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, &v)| (px(i), py(v)))
            .collect();
        for pair in points.windows(2) {
            img.line(pair[0], pair[1], rgb, 2);
        }
        for &p in &points {
            img.line((p.0 - 2, p.1), (p.0 + 2, p.1), rgb, 5);
        }
    }
    // The legend: a short line of each colour in the top right corner, named; the x axis named.
    for (row, (name, rgb)) in [("train", TRAIN_RGB), ("validation", VALIDATION_RGB)]
        .into_iter()
        .enumerate()
    {
        let y = top + 10 + 16 * row as i64;
        img.line((w - right - 130, y), (w - right - 100, y), rgb, 3);
        img.text(w - right - 92, y - 5, name, 2);
    }
    img.text(left + (w - left - right) / 2 - 20, h - bottom + 10, "epoch", 2);
    img
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn a_tiny_png_is_exact() {
        let mut img = Image::new(1, 1);
        img.set(0, 0, [255, 0, 0]);
        let mut png = Vec::new();
        img.write_png(&mut png).unwrap();
        // Signature, IHDR (25 bytes), IDAT, IEND (12 bytes).
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(&png[16..29], &[0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
        // The IHDR CRC of a 1×1 RGB image (as written by any PNG encoder).
        assert_eq!(&png[29..33], &0x907753DEu32.to_be_bytes());
        assert_eq!(&png[37..41], b"IDAT");
        let idat_len = u32::from_be_bytes(png[33..37].try_into().unwrap()) as usize;
        let mut raw = Vec::new();
        flate2::read::ZlibDecoder::new(&png[41..41 + idat_len])
            .read_to_end(&mut raw)
            .unwrap();
        assert_eq!(raw, [0, 255, 0, 0], "filter byte, then the pixel");
        assert_eq!(&png[45 + idat_len..], b"\0\0\0\0IEND\xAE\x42\x60\x82");
    }

    #[test]
    fn a_plot_compresses() {
        let img = loss_plot(&[0.1, 0.08, 0.07], &[0.11, 0.09, 0.085]);
        let mut png = Vec::new();
        img.write_png(&mut png).unwrap();
        assert!(png.len() < img.pixels.len() / 20, "{} bytes", png.len());
    }

    #[test]
    fn the_plot_draws_both_series() {
        let img = loss_plot(&[0.1, 0.08, 0.07], &[0.11, 0.09, 0.085]);
        let count = |rgb: [u8; 3]| img.pixels.chunks(3).filter(|p| *p == rgb).count();
        assert!(count(TRAIN_RGB) > 500);
        assert!(count(VALIDATION_RGB) > 500);
        // The labels are black pixels left of the y axis.
        let black_left = (0..img.height)
            .filter(|&y| (0..60).any(|x| img.pixels[(y * img.width + x) * 3] == 0))
            .count();
        assert!(black_left > 40, "{black_left} rows with label pixels");
        // The legend names its series: black pixels right of its coloured lines.
        let black_legend = (20..60)
            .flat_map(|y| (528..620).map(move |x| (y, x)))
            .filter(|&(y, x)| img.pixels[(y * img.width + x) * 3..][..3] == [0, 0, 0])
            .count();
        assert!(black_legend > 100, "{black_legend} legend pixels");
        assert!(letter('v').is_some() && letter('Q').is_none());
        let single = loss_plot(&[0.2], &[f64::NAN]);
        assert!(single.pixels.chunks(3).any(|p| p == TRAIN_RGB));
    }
}
