//! The map underlay: a photo or scan of the physical map drawn under the hex grid, aligned by
//! two points whose hexes the umpire names, with an opacity. Kept per game in a small JSON file
//! in the config folder, so reopening the game restores it.
//!
//! Map coordinates are in hex radii: hex (col, row) has its centre at
//! `(1.5 col, √3 (row + ½ if col is even))`, the same layout the map draws.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::charts::write_atomically;
use umpire_core::game::hex::HexId;

/// Label of the underlay's image path field.
pub const UNDERLAY_PATH_LABEL: &str = "Map image file";
/// Label of the Load button.
pub const UNDERLAY_LOAD_LABEL: &str = "Load image";
/// Label of the opacity slider.
pub const UNDERLAY_OPACITY_LABEL: &str = "Opacity";
/// Label of the Align button.
pub const UNDERLAY_ALIGN_LABEL: &str = "Align the image";
/// Label of the Clear button.
pub const UNDERLAY_CLEAR_LABEL: &str = "Clear underlay";
/// Labels of the two image points' fields ("x, y" in image pixels).
pub const UNDERLAY_POINT_LABELS: [&str; 2] = ["Point 1 on the image", "Point 2 on the image"];
/// Labels of the two hex fields.
pub const UNDERLAY_HEX_LABELS: [&str; 2] = ["Point 1 is hex", "Point 2 is hex"];

/// Images larger than this (on their longer side) are scaled down for the texture.
const MAX_TEXTURE_SIDE: u32 = 4096;

/// A similarity transform (scale, rotation, translation): `z ↦ a·z + b` over complex numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Similarity {
    /// Scale and rotation, as a complex number (re, im).
    pub a: [f64; 2],
    /// Translation.
    pub b: [f64; 2],
}

fn mul(x: [f64; 2], y: [f64; 2]) -> [f64; 2] {
    [x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0]]
}

fn sub(x: [f64; 2], y: [f64; 2]) -> [f64; 2] {
    [x[0] - y[0], x[1] - y[1]]
}

fn div(x: [f64; 2], y: [f64; 2]) -> Option<[f64; 2]> {
    let d = y[0] * y[0] + y[1] * y[1];
    (d > 1e-18).then(|| {
        [
            (x[0] * y[0] + x[1] * y[1]) / d,
            (x[1] * y[0] - x[0] * y[1]) / d,
        ]
    })
}

impl Similarity {
    /// Scaling by `scale`, then moving by `offset`.
    pub fn scale_then_move(scale: f64, offset: [f64; 2]) -> Similarity {
        Similarity {
            a: [scale, 0.0],
            b: offset,
        }
    }

    /// The transform that takes `p1` to `q1` and `p2` to `q2` exactly (None when the points
    /// of either pair coincide).
    pub fn from_pairs(
        p1: [f64; 2],
        q1: [f64; 2],
        p2: [f64; 2],
        q2: [f64; 2],
    ) -> Option<Similarity> {
        let a = div(sub(q2, q1), sub(p2, p1))?;
        if a[0].hypot(a[1]) < 1e-12 {
            return None;
        }
        let b = sub(q1, mul(a, p1));
        Some(Similarity { a, b })
    }

    /// Where `p` goes.
    pub fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        let m = mul(self.a, p);
        [m[0] + self.b[0], m[1] + self.b[1]]
    }

    /// The inverse transform.
    pub fn inverse(&self) -> Option<Similarity> {
        let ia = div([1.0, 0.0], self.a)?;
        Some(Similarity {
            a: ia,
            b: mul(ia, [-self.b[0], -self.b[1]]),
        })
    }

    /// Its scale factor.
    pub fn scale(&self) -> f64 {
        self.a[0].hypot(self.a[1])
    }

    /// Its rotation, in degrees.
    pub fn rotation_degrees(&self) -> f64 {
        self.a[1].atan2(self.a[0]).to_degrees()
    }
}

/// What is kept per game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnderlaySettings {
    /// The game file it belongs to.
    pub game: PathBuf,
    /// The image file.
    pub image: PathBuf,
    /// Opacity, 0–1.
    pub opacity: f32,
    /// Image pixels → map coordinates.
    pub transform: Similarity,
    /// Whether the umpire aligned it (else it is only fitted to the map's extent).
    #[serde(default)]
    pub aligned: bool,
}

/// An image decoded for the underlay.
#[derive(Debug, Clone)]
pub struct DecodedImage {
    /// The pixels (possibly scaled down).
    pub image: Arc<egui::ColorImage>,
    /// The image's own size in pixels.
    pub size: [u32; 2],
}

/// Decodes a PNG or JPEG file; the error names the file.
pub fn decode(path: &Path) -> Result<DecodedImage, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let img = image::load_from_memory(&bytes).map_err(|e| {
        format!(
            "{}: not a PNG or JPEG image the desk can read ({e})",
            path.display()
        )
    })?;
    let size = [img.width(), img.height()];
    if size[0] == 0 || size[1] == 0 {
        return Err(format!("{}: the image is empty", path.display()));
    }
    let img = if size[0].max(size[1]) > MAX_TEXTURE_SIDE {
        img.thumbnail(MAX_TEXTURE_SIDE, MAX_TEXTURE_SIDE)
    } else {
        img
    };
    let rgba = img.to_rgba8();
    let pixels = egui::ColorImage::from_rgba_unmultiplied(
        [rgba.width() as usize, rgba.height() as usize],
        rgba.as_raw(),
    );
    Ok(DecodedImage {
        image: Arc::new(pixels),
        size,
    })
}

/// The sidecar file of a game's underlay in `config_dir`.
pub fn sidecar_path(config_dir: &Path, game: &Path) -> PathBuf {
    let key = game
        .canonicalize()
        .unwrap_or_else(|_| game.to_path_buf())
        .display()
        .to_string();
    // FNV-1a: stable across Rust releases, unlike the standard hasher.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    config_dir
        .join("underlays")
        .join(format!("{hash:016x}.json"))
}

/// The underlay kept for `game`, if any (a sidecar that does not parse is ignored).
pub fn read_settings(config_dir: &Path, game: &Path) -> Option<UnderlaySettings> {
    let text = std::fs::read_to_string(sidecar_path(config_dir, game)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Keeps the underlay of a game (written whole: temp file, then rename).
pub fn write_settings(config_dir: &Path, settings: &UnderlaySettings) -> Result<(), String> {
    let text = serde_json::to_string_pretty(settings).map_err(|e| e.to_string())?;
    write_atomically(&sidecar_path(config_dir, &settings.game), text.as_bytes())
}

/// Forgets the underlay of a game.
pub fn remove_settings(config_dir: &Path, game: &Path) {
    let _ = std::fs::remove_file(sidecar_path(config_dir, game));
}

/// A restored underlay: its settings and image (or why the image did not load).
pub type Restored = (UnderlaySettings, Result<DecodedImage, String>);

/// Reads a game's underlay and decodes its image (for a worker thread).
pub fn restore(config_dir: &Path, game: &Path) -> Option<Restored> {
    let settings = read_settings(config_dir, game)?;
    let image = decode(&settings.image);
    Some((settings, image))
}

/// The underlay of the open game.
pub struct Underlay {
    /// Image, opacity and transform.
    pub settings: UnderlaySettings,
    /// The image's own size.
    pub size: [u32; 2],
    image: Option<Arc<egui::ColorImage>>,
    texture: Option<egui::TextureHandle>,
}

impl Underlay {
    /// An underlay of a decoded image.
    pub fn new(settings: UnderlaySettings, decoded: DecodedImage) -> Underlay {
        Underlay {
            settings,
            size: decoded.size,
            image: Some(decoded.image),
            texture: None,
        }
    }

    /// The texture (uploaded on first use).
    pub fn texture(&mut self, ctx: &egui::Context) -> Option<&egui::TextureHandle> {
        if self.texture.is_none()
            && let Some(image) = self.image.take()
        {
            self.texture = Some(ctx.load_texture(
                "map_underlay",
                egui::ImageData::Color(image),
                egui::TextureOptions::LINEAR,
            ));
        }
        self.texture.as_ref()
    }

    /// The image's corners in map coordinates (top left, top right, bottom right, bottom left).
    pub fn corners(&self) -> [[f64; 2]; 4] {
        let [w, h] = [f64::from(self.size[0]), f64::from(self.size[1])];
        let t = &self.settings.transform;
        [
            t.apply([0.0, 0.0]),
            t.apply([w, 0.0]),
            t.apply([w, h]),
            t.apply([0.0, h]),
        ]
    }
}

/// The Map underlay window's fields.
#[derive(Debug, Default)]
pub struct UnderlayDialog {
    /// Whether the window is shown.
    pub open: bool,
    /// The image path, as typed.
    pub path: String,
    /// The two image points, as typed ("x, y" in pixels).
    pub points: [String; 2],
    /// The two hexes, as typed.
    pub hexes: [String; 2],
    /// Which point the next click on the map sets (None: clicks act on the map as usual).
    pub picking: Option<usize>,
    /// The last problem, or what was done.
    pub message: Option<Result<String, String>>,
}

/// Reads "x, y".
pub fn parse_point(text: &str) -> Option<[f64; 2]> {
    let parts: Vec<f64> = text
        .split([',', ' '])
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match parts.as_slice() {
        [x, y] if x.is_finite() && y.is_finite() => Some([*x, *y]),
        _ => None,
    }
}

/// The transform that puts the two image points typed on the centres of the two hexes typed.
pub fn align(points: &[String; 2], hexes: &[String; 2]) -> Result<Similarity, String> {
    let mut p = [[0.0; 2]; 2];
    let mut q = [[0.0; 2]; 2];
    for i in 0..2 {
        p[i] = parse_point(&points[i]).ok_or_else(|| {
            format!(
                "point {}: type x, y in image pixels (or pick it on the map), not '{}'",
                i + 1,
                points[i].trim()
            )
        })?;
        let hex = HexId::parse_any(hexes[i].trim()).ok_or_else(|| {
            format!(
                "point {}: '{}' is not a hex id such as 0114",
                i + 1,
                hexes[i].trim()
            )
        })?;
        q[i] = hex.centre();
    }
    if p[0] == p[1] {
        return Err("the two points on the image must differ".into());
    }
    if q[0] == q[1] {
        return Err("the two points must be in different hexes".into());
    }
    Similarity::from_pairs(p[0], q[0], p[1], q[1])
        .ok_or_else(|| "the two points must differ".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 2], b: [f64; 2]) -> bool {
        (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
    }

    #[test]
    fn two_points_map_exactly_to_their_targets() {
        let (p1, q1) = ([10.0, 20.0], [3.0, 4.0]);
        let (p2, q2) = ([110.0, 20.0], [3.0, 54.0]);
        let t = Similarity::from_pairs(p1, q1, p2, q2).expect("transform");
        assert!(close(t.apply(p1), q1));
        assert!(close(t.apply(p2), q2));
        // 100 px → 50 units, turned a quarter to the right (y down).
        assert!((t.scale() - 0.5).abs() < 1e-12);
        assert!((t.rotation_degrees() - 90.0).abs() < 1e-9);
        // The midpoint goes to the midpoint; the inverse undoes it.
        assert!(close(t.apply([60.0, 20.0]), [3.0, 29.0]));
        let inv = t.inverse().expect("inverse");
        assert!(close(inv.apply(q2), p2));
        assert!(close(inv.apply(t.apply([-7.5, 1e3])), [-7.5, 1e3]));
    }

    #[test]
    fn coincident_points_have_no_transform() {
        assert!(Similarity::from_pairs([1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [5.0, 5.0]).is_none());
        assert!(Similarity::from_pairs([1.0, 1.0], [2.0, 2.0], [3.0, 1.0], [2.0, 2.0]).is_none());
    }

    #[test]
    fn align_puts_the_points_on_the_hex_centres() {
        let t = align(
            &["12, 30".into(), "412, 30".into()],
            &["0101".into(), "0501".into()],
        )
        .expect("aligned");
        assert!(close(t.apply([12.0, 30.0]), HexId::new(1, 1, 4).centre()));
        assert!(close(t.apply([412.0, 30.0]), HexId::new(5, 1, 4).centre()));
        assert!(
            align(
                &["1,1".into(), "1,1".into()],
                &["0101".into(), "0102".into()]
            )
            .is_err()
        );
        let e = align(&["1,1".into(), "2,2".into()], &["0101".into(), "x".into()]).unwrap_err();
        assert!(e.contains("'x' is not a hex id"), "{e}");
    }

    #[test]
    fn a_file_that_is_not_an_image_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("umpire-underlay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let bad = dir.join("not-a-map.png");
        std::fs::write(&bad, b"hello").expect("write");
        let e = decode(&bad).unwrap_err();
        assert!(e.contains("not-a-map.png"), "{e}");
        let e = decode(&dir.join("missing.jpg")).unwrap_err();
        assert!(e.contains("missing.jpg"), "{e}");
    }
}
