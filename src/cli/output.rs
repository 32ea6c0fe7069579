//! Every `-o`/`--output` of the command line: one `--force` flag, and one way to write (see
//! `umpire::game::output`: never over a game file, over another file only with `--force`, never
//! half-written).

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use umpire::game::output::{Existing, check_output, write_output};
use umpire::report::Paper;

/// `--force`, shared by the commands that write a file.
#[derive(Debug, Clone, Copy, Args)]
pub struct Force {
    /// Replace an existing file at the output path (a game file is never replaced).
    #[arg(long)]
    pub force: bool,
}

impl Force {
    fn existing(self) -> Existing {
        Existing::replace_if(self.force)
    }

    /// Refuses an output path before the work of making the file: a game file always, an
    /// existing file without `--force`.
    pub fn check(self, path: &Path) -> Result<()> {
        Ok(check_output(path, self.existing())?)
    }

    /// Writes `bytes` to `path` whole (temporary file, flush, rename).
    pub fn write(self, path: &Path, bytes: &[u8]) -> Result<()> {
        Ok(write_output(path, bytes, self.existing())?)
    }
}

/// Where a PDF goes and how it is laid out: shared by every command that prints (`charts`,
/// `sheet`, `report`, the megagame's papers).
#[derive(Debug, Args)]
pub struct PdfOut {
    /// Where to write the PDF.
    #[arg(short, long, value_name = "OUT.pdf")]
    pub output: PathBuf,
    #[command(flatten)]
    pub force: Force,
    /// Paper size, overriding the template's.
    #[arg(long, value_name = "a4|letter")]
    pub paper: Option<Paper>,
    /// Layout file instead of the shipped one (templates/charts.yaml for chart sheets,
    /// templates/sheet.yaml for the others): page size, margins, font sizes, colours.
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
}
