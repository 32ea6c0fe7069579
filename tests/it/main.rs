//! The integration tests, in one binary (it links once instead of once per file): CLI, game
//! sessions and journal, PDFs, the desk (egui_kittest), the players' view and shared games. The
//! engine's own (rulesets, dice, scenarios, lookup shapes) are `crates/core/tests/engine`.

// A test reads best as one story from set-up to its assertions: the function-length gate
// (clippy.toml, `.ci/run`) holds for the product's code, not for the tests.
#![allow(clippy::too_many_lines)]

mod common;
mod kit;

mod broken;
mod cards;
mod cli;
mod decks;
mod desk;
mod desk_game;
mod desk_help;
mod desk_megagame;
mod desk_shared;
mod desk_stale;
mod desk_table;
mod desk_tools;
mod desk_values;
mod desk_victory;
mod examples;
mod facts;
mod facts_orders;
mod facts_victory;
mod facts_walk;
mod game;
mod golden;
mod guard;
mod hostile;
mod journal;
mod megagame;
mod megagame_clock;
mod megagame_log;
mod megagame_paper;
mod names;
mod organiser;
mod package;
mod paper_layout;
mod paper_words;
mod rehearsal;
mod report;
mod results;
mod safety;
mod scaffold;
mod schema;
mod sealed;
mod serve;
mod serve_limits;
mod setup_import;
mod setup_values;
mod shared;
mod tamper;
mod transcribed;
mod transcription;
mod victory;
mod visibility;
mod whole_game;
mod words;
