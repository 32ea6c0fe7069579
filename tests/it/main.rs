//! The integration tests, in one binary (it links once instead of once per file): CLI, game
//! sessions and journal, rulesets, scenarios, PDFs, the desk (egui_kittest) and shared games.

mod common;
mod kit;

mod cli;
mod decks;
mod desk;
mod desk_game;
mod desk_megagame;
mod desk_shared;
mod desk_tools;
mod dice;
mod fuzz_loader;
mod game;
mod golden;
mod hostile;
mod inputs;
mod journal;
mod malformed;
mod megagame;
mod megagame_clock;
mod megagame_paper;
mod names;
mod package;
mod properties;
mod references;
mod report;
mod ruleset_ailsh;
mod ruleset_arquebus;
mod ruleset_gradisca;
mod ruleset_qrs;
mod ruleset_rr3;
mod safety;
mod scenarios;
mod serve;
mod shapes;
mod shared;
mod tamper;
mod transcription;
mod visibility;
mod words;
