//! The examples of every command, written once in `docs/examples.md` and shown by `--help`
//! (the whole section), `-h` (its command lines) and the manual pages (an EXAMPLES section).

use clap::{Command, CommandFactory};

/// The examples file: one `## umpire …` section per command.
const EXAMPLES: &str = include_str!("../../docs/examples.md");

/// One section of the examples file: the command's words after `umpire` and its text.
#[derive(Debug)]
pub struct Section {
    /// The command's path, e.g. `["game", "apply"]` (empty for `umpire` itself).
    pub path: Vec<String>,
    /// The section's lines (sentences, and the console blocks without their fences).
    pub lines: Vec<Line>,
}

/// A line of a section.
#[derive(Debug)]
pub enum Line {
    /// A sentence (prose).
    Text(String),
    /// A line of a code block: a command (`$ …`) or its output.
    Code(String),
}

/// The sections of `docs/examples.md`, in file order.
pub fn sections() -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut in_code = false;
    // A paragraph's lines are one sentence run: joined, so a page does not break where the
    // Markdown file happens to wrap.
    let mut in_paragraph = false;
    for line in EXAMPLES.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            let mut words = heading.split_whitespace().map(str::to_string);
            words.next(); // `umpire`
            sections.push(Section {
                path: words.collect(),
                lines: Vec::new(),
            });
            in_code = false;
            continue;
        }
        let Some(section) = sections.last_mut() else {
            continue;
        };
        if line.starts_with("```") {
            in_code = !in_code;
            in_paragraph = false;
        } else if in_code {
            section.lines.push(Line::Code(line.to_string()));
        } else if line.trim().is_empty() {
            in_paragraph = false;
        } else if let (true, Some(Line::Text(text))) = (in_paragraph, section.lines.last_mut()) {
            text.push(' ');
            text.push_str(line.trim());
        } else {
            section.lines.push(Line::Text(line.trim().to_string()));
            in_paragraph = true;
        }
    }
    sections
}

impl Section {
    /// The text for `--help`: the sentences and the commands with their output.
    pub fn long_text(&self) -> String {
        let mut out = String::from("Examples:\n");
        for line in &self.lines {
            match line {
                Line::Text(t) => {
                    // Wrapped for an 80-column terminal, as clap wraps the rest of the help.
                    let mut width = 0;
                    out.push(' ');
                    for word in t.split_whitespace() {
                        if width > 0 && width + word.chars().count() > 76 {
                            out.push_str("\n ");
                            width = 0;
                        }
                        out.push(' ');
                        out.push_str(word);
                        width += word.chars().count() + 1;
                    }
                    out.push('\n');
                }
                Line::Code(c) => out.push_str(&format!("    {c}\n")),
            }
        }
        out.trim_end().to_string()
    }

    /// The text for `-h`: the command lines only.
    pub fn short_text(&self) -> String {
        let mut out = String::from("Examples:\n");
        for line in &self.lines {
            if let Line::Code(c) = line
                && c.starts_with("$ ")
            {
                out.push_str(&format!("  {c}\n"));
            }
        }
        out.push_str("(more with --help)");
        out
    }

    /// The section as a manual page's EXAMPLES section (roff).
    pub fn roff(&self) -> String {
        let mut out = String::from(".SH EXAMPLES\n");
        let mut in_code = false;
        for line in &self.lines {
            match line {
                Line::Text(t) => {
                    if in_code {
                        out.push_str(".fi\n.RE\n");
                        in_code = false;
                    }
                    out.push_str(".PP\n");
                    out.push_str(&roff_escape(t));
                    out.push('\n');
                }
                Line::Code(c) => {
                    if !in_code {
                        out.push_str(".PP\n.RS 4\n.nf\n");
                        in_code = true;
                    }
                    out.push_str(&roff_escape(c));
                    out.push('\n');
                }
            }
        }
        if in_code {
            out.push_str(".fi\n.RE\n");
        }
        out
    }
}

/// Text safe in roff: backslashes doubled, a leading dot or quote made literal, Markdown's
/// backticks dropped.
fn roff_escape(line: &str) -> String {
    let line = line.replace('\\', "\\e").replace('`', "");
    if line.starts_with('.') || line.starts_with('\'') {
        format!("\\&{line}")
    } else {
        line
    }
}

/// The command line's definition with each command's examples as its after-help.
pub fn command() -> Command {
    let sections = sections();
    attach(super::Cli::command(), &mut Vec::new(), &sections)
}

fn attach(mut command: Command, path: &mut Vec<String>, sections: &[Section]) -> Command {
    if let Some(section) = sections.iter().find(|s| s.path == *path) {
        command = command
            .after_help(section.short_text())
            .after_long_help(section.long_text());
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        path.push(name.clone());
        command = command.mut_subcommand(&name, |sub| attach(sub, path, sections));
        path.pop();
    }
    command
}

#[cfg(test)]
/// The paths of the visible commands with no subcommands (each should have examples).
pub fn leaf_paths() -> Vec<Vec<String>> {
    fn walk(command: &Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        let subs: Vec<&Command> = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
            .collect();
        if subs.is_empty() {
            out.push(path.clone());
        }
        for sub in subs {
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(&super::Cli::command(), &mut Vec::new(), &mut out);
    out.retain(|p| !p.is_empty());
    out
}

#[cfg(test)]
/// The section for a command path, if the examples file has one.
pub fn section(path: &[String]) -> Option<Section> {
    sections().into_iter().find(|s| s.path == path)
}

/// A command's manual page: clap_mangen's sections, with the examples as an EXAMPLES section
/// before the version. `name` is the page's name (`umpire-game-apply`).
pub fn man_page(command: &Command, name: &str) -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(command.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if command.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if command.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    let examples = sections().into_iter().find(|s| {
        let page = std::iter::once("umpire")
            .chain(s.path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("-");
        page == name
    });
    if let Some(section) = examples {
        out.extend_from_slice(section.roff().as_bytes());
    }
    if command.get_version().is_some() {
        man.render_version_section(&mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_heading_names_a_command() {
        let command = super::super::Cli::command();
        for section in sections() {
            let mut at = &command;
            for word in &section.path {
                at = at.find_subcommand(word).unwrap_or_else(|| {
                    panic!("## umpire {} names no command", section.path.join(" "))
                });
            }
        }
    }

    #[test]
    fn game_apply_help_and_page_show_the_example() {
        let mut command = command();
        let apply = command
            .find_subcommand_mut("game")
            .and_then(|g| g.find_subcommand_mut("apply"))
            .expect("game apply");
        let long = apply.render_long_help().to_string();
        assert!(
            long.contains("$ umpire game apply agnadello.umpire 4 --proposed"),
            "{long}"
        );
        let short = apply.render_help().to_string();
        assert!(short.contains("$ umpire game apply"), "{short}");
        let page = man_page(apply, "umpire-game-apply").expect("renders");
        let page = String::from_utf8(page).expect("utf-8");
        assert!(page.contains(".SH EXAMPLES"), "{page}");
        assert!(
            page.contains("$ umpire game apply agnadello.umpire 4"),
            "{page}"
        );
    }

    #[test]
    fn every_leaf_command_has_examples() {
        let missing: Vec<String> = leaf_paths()
            .into_iter()
            .filter(|p| section(p).is_none())
            .map(|p| format!("umpire {}", p.join(" ")))
            .collect();
        assert!(
            missing.is_empty(),
            "no examples in docs/examples.md for: {missing:?}"
        );
    }
}
