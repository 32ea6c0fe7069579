//! Every `-o`/`--output` of the command line: one `--force` flag, and one way to write (see
//! `umpire::game::output`: never over a game file, over another file only with `--force`, never
//! half-written).

use std::path::Path;

use anyhow::Result;
use clap::Args;

use umpire::game::output::{Existing, check_output, write_output};

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
