//! egui-chat-peer: the chat window a Rust developer would write with eframe, for comparison
//! with agent-chat. A scrolling list of messages above a one-line field; Enter sends, Escape quits.
//!
//! A copy of the studio's peer, feature for feature, kept in its own workspace so that
//! `cargo test` never builds it; `benches/weight.sh` builds and measures it beside the app. It
//! draws with agent-chat's own Hangul font, from the app's `assets/fonts/`.
use std::sync::Arc;

use eframe::egui::{
    self, Align, FontData, FontDefinitions, FontFamily, Key, Layout, ScrollArea, TextEdit,
    ViewportCommand,
};
use rand::seq::IndexedRandom;

/// Copied verbatim from agent-chat's `src/chat.rs` (`REPLIES`).
const REPLIES: &[&str] = &[
    "안녕하세요! 무엇을 도와드릴까요?",
    "좋은 질문이네요. 조금 더 자세히 말씀해 주세요.",
    "말씀 잘 들었습니다.",
    "흥미롭네요! 계속 이야기해 주세요.",
    "알겠습니다. 제가 한번 살펴볼게요.",
];

enum Message {
    User(String),
    Agent(&'static str),
}

#[derive(Default)]
struct ChatApp {
    messages: Vec<Message>,
    input: String,
}

impl ChatApp {
    fn new(cc: &eframe::CreationContext<'_>) -> Self {
        let mut fonts = FontDefinitions::default();
        let hangul = FontData::from_static(include_bytes!("../../../../assets/fonts/AgentChatHangul.ttf"));
        fonts.font_data.insert("hangul".into(), Arc::new(hangul));
        for family in [FontFamily::Proportional, FontFamily::Monospace] {
            fonts
                .families
                .entry(family)
                .or_default()
                .insert(0, "hangul".into());
        }
        cc.egui_ctx.set_fonts(fonts);

        let mut app = Self::default();
        // PEER_PREFILL=N starts with N exchanges, to measure the list at large sizes.
        let prefill = std::env::var("PEER_PREFILL").unwrap_or_default();
        for i in 0..prefill.parse().unwrap_or(0usize) {
            app.exchange(format!("prefill {i}"));
        }
        app
    }

    /// Pushes the user's message and a randomly picked reply.
    fn exchange(&mut self, text: String) {
        let reply = REPLIES.choose(&mut rand::rng()).expect("non-empty");
        self.messages.push(Message::User(text));
        self.messages.push(Message::Agent(reply));
    }
}

impl eframe::App for ChatApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            ui.send_viewport_cmd(ViewportCommand::Close);
        }

        egui::Panel::bottom("input").show(ui, |ui| {
            let field = ui.add(TextEdit::singleline(&mut self.input).desired_width(f32::INFINITY));
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                let input = std::mem::take(&mut self.input);
                let text = input.trim();
                if !text.is_empty() {
                    self.exchange(text.to_owned());
                }
            }
            // Keep the field focused. Not `field.has_focus()`: that is also false while the
            // window is unfocused, and requesting every frame restarts the IME each frame.
            if !ui.memory(|mem| mem.has_focus(field.id)) {
                field.request_focus();
            }
        });

        egui::CentralPanel::default().show(ui, |ui| {
            ScrollArea::vertical()
                .stick_to_bottom(true)
                .auto_shrink(false)
                .show(ui, |ui| {
                    for message in &self.messages {
                        match message {
                            Message::User(text) => {
                                ui.label(format!("사용자: {text}"));
                            }
                            Message::Agent(text) => {
                                ui.with_layout(Layout::top_down(Align::Max), |ui| {
                                    ui.label(format!("에이전트: {text}"));
                                });
                            }
                        }
                    }
                });
        });
    }
}

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("egui-chat-peer")
            .with_inner_size([1280.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "egui-chat-peer",
        options,
        Box::new(|cc| Ok(Box::new(ChatApp::new(cc)))),
    )
}
