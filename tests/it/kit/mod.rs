//! Helpers shared by the desk tests (egui_kittest): drive the desk through its AccessKit labels
//! as a person would. (Each test crate uses a subset.)
#![allow(dead_code)]

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use umpire::app::DeskApp;
use umpire::game::scenario::shipped_scenarios;
use umpire::rules::SourceFile;

/// Scrolls to the field labelled `label`, clicks it and types `text` into it.
pub fn type_into(harness: &mut Harness<'static, DeskApp>, label: &str, text: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    harness.run();
    harness.get_by_label(label).set_text_value_accesskit(text);
    harness.run();
}

/// Scrolls to the widget labelled `label` and clicks it.
pub fn click(harness: &mut Harness<'static, DeskApp>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    harness.run();
}

/// Texts of the labels that contain `text`.
pub fn labels_containing(harness: &Harness<'static, DeskApp>, text: &str) -> Vec<String> {
    harness
        .query_all_by_label_contains(text)
        .filter_map(|n| {
            let node = n.accesskit_node();
            if node.role() == Role::Label {
                node.value()
            } else {
                node.label()
            }
        })
        .collect()
}

/// The shipped scenario whose file name contains `name_part`.
pub fn scenario(name_part: &str) -> SourceFile {
    shipped_scenarios()
        .into_iter()
        .find(|f| f.name.contains(name_part))
        .unwrap_or_else(|| panic!("no shipped scenario {name_part}"))
}
