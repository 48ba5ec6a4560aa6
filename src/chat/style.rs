//! The one table from a role to how its rows look: label, style class, alignment, border side
//! and colours. The view builds every row from it, so nothing on screen tells the roles apart
//! that this table does not.

use bevy::prelude::*;

use super::Role;
use crate::theme::palette::Swatch;

/// Width of the one border that marks a row's side.
pub const ROW_BORDER: Val = Val::Px(4.0);

/// The structural style class of a row, like a CSS class: what a test or a stylesheet keys on.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component)]
pub enum RowClass {
    /// A row showing a [`Role::User`] message.
    UserMessage,
    /// A row showing a [`Role::Agent`] reply.
    AgentReply,
}

/// Everything the screen shows differently per role. Adding a role is one arm in [`Self::of`].
///
/// Alignment and border side make the author visible without colour; colour only adds to them.
#[derive(Clone, Debug)]
pub struct RoleStyle {
    /// The speaker's name shown before the body.
    pub label: &'static str,
    /// The row's style class.
    pub class: RowClass,
    /// Where the bubble sits in its row.
    pub justify: JustifyContent,
    /// The bubble's border widths: one side only.
    pub border: UiRect,
    /// The bubble's border colour.
    pub border_color: Swatch,
    /// The bubble's fill.
    pub background: Swatch,
}

impl RoleStyle {
    /// The style of every row of `role`.
    pub fn of(role: Role) -> Self {
        match role {
            Role::User => Self {
                label: "사용자",
                class: RowClass::UserMessage,
                justify: JustifyContent::FlexStart,
                border: UiRect::left(ROW_BORDER),
                border_color: |p| p.user_border,
                background: |p| p.user_background,
            },
            Role::Agent => Self {
                label: "에이전트",
                class: RowClass::AgentReply,
                justify: JustifyContent::FlexEnd,
                border: UiRect::right(ROW_BORDER),
                border_color: |p| p.agent_border,
                background: |p| p.agent_background,
            },
        }
    }

    /// The text a row shows: `<label>: <body>`.
    pub fn text(&self, body: &str) -> String {
        format!("{}: {}", self.label, body)
    }
}
