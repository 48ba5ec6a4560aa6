//! The GPU the window draws with: Vulkan first, OpenGL where no Vulkan driver answers.
//!
//! Bevy 0.19.1 creates its wgpu instance without the display's handle (`display: None` in
//! bevy_render's `initialize_renderer`). Vulkan does not need it; wgpu's OpenGL backend does: with
//! no handle, EGL falls back to Mesa's surfaceless platform, whose configurations cannot draw to
//! a window, and Bevy then panics choosing a present mode among none. So [`ChooseGpu`] takes
//! `RenderPlugin`'s place in `DefaultPlugins`, makes the instance itself with the event loop's
//! display handle, and hands Bevy the device it chose (`RenderCreation::Manual`).
//!
//! The choice, in order:
//! 1. Vulkan (or the platform's own API), if a driver answers: what Bevy would have chosen.
//! 2. OpenGL through EGL, where no Vulkan driver answers: a virtual machine, an older GPU, a
//!    remote desktop, a desktop without `mesa-vulkan-drivers`. The GL instance is made only
//!    then, so a machine with Vulkan pays nothing for the fallback.
//!
//! `WGPU_BACKEND` (`vulkan`, `gl`) narrows the choice, and `WGPU_ADAPTER_NAME`,
//! `WGPU_POWER_PREF` and `WGPU_FORCE_FALLBACK_ADAPTER` work as in any Bevy app. The choice is
//! logged at info level in one line. No adapter at all is [`NoGpu`]: one line that says what to
//! install, not a panic.
//!
//! Canary: `bevy_makes_its_wgpu_instance_without_the_display_handle`.

use std::sync::Arc;

use bevy::{
    prelude::*,
    render::{
        RenderPlugin,
        renderer::{
            RenderAdapter, RenderAdapterInfo, RenderDevice, RenderInstance, RenderQueue,
            WgpuWrapper,
        },
        settings::{RenderCreation, WgpuSettings, WgpuSettingsPriority},
    },
    tasks::block_on,
    winit::DisplayHandleWrapper,
};
use wgpu::{
    Adapter, AdapterInfo, Backends, DeviceType, Instance, InstanceDescriptor, RequestAdapterOptions,
};

/// Adds Bevy's `RenderPlugin` with a device chosen by [`choose`]: put it in `DefaultPlugins`
/// before `RenderPlugin`, and disable that one (`main.rs`). After `WinitPlugin`, whose event loop
/// gives the display handle.
///
/// Without an adapter it prints [`NoGpu`] in one line and exits with status 1: nothing can be
/// drawn, and a panic's backtrace would tell the user less.
pub struct ChooseGpu;

impl Plugin for ChooseGpu {
    fn build(&self, app: &mut App) {
        let display = app
            .world()
            .get_resource::<DisplayHandleWrapper>()
            .map(|wrapper| wrapper.0.clone());
        let resources = match choose(&WgpuSettings::default(), display) {
            Ok(resources) => resources,
            Err(no_gpu) => {
                eprintln!("agent-chat: {no_gpu}");
                std::process::exit(1);
            }
        };
        app.add_plugins(RenderPlugin {
            render_creation: resources,
            ..default()
        });
    }
}

/// Vulkan first, then OpenGL: the instance, adapter and device Bevy renders with, as
/// `RenderCreation::Manual`. `settings` are Bevy's (its defaults read `WGPU_BACKEND` and
/// `WGPU_POWER_PREF`); `display` is the event loop's, which OpenGL needs to draw to a window.
pub fn choose(
    settings: &WgpuSettings,
    display: Option<winit::event_loop::OwnedDisplayHandle>,
) -> Result<RenderCreation, NoGpu> {
    let asked = settings.backends.unwrap_or(Backends::all());
    for tier in [asked - Backends::GL, asked & Backends::GL] {
        if tier.is_empty() {
            continue;
        }
        let mut descriptor = InstanceDescriptor::new_without_display_handle();
        descriptor.backends = tier;
        descriptor.flags = settings.instance_flags;
        descriptor.memory_budget_thresholds = settings.instance_memory_budget_thresholds;
        descriptor.backend_options.gl.gles_minor_version = settings.gles3_minor_version;
        descriptor.display = display
            .clone()
            .map(|display| Box::new(display) as Box<dyn wgpu::wgt::WgpuHasDisplayHandle>);
        let instance = Instance::new(descriptor);
        if let Some(adapter) = block_on(adapter(&instance, tier, settings)) {
            return device(instance, adapter, settings);
        }
    }
    Err(NoGpu::NoAdapter {
        wgpu_backend: std::env::var("WGPU_BACKEND").ok(),
    })
}

/// The adapter Bevy would take from `instance`: the one `WGPU_ADAPTER_NAME` names, if any, else
/// wgpu's choice by power preference.
async fn adapter(instance: &Instance, tier: Backends, settings: &WgpuSettings) -> Option<Adapter> {
    let name = std::env::var("WGPU_ADAPTER_NAME")
        .ok()
        .or_else(|| settings.adapter_name.clone());
    if let Some(name) = name {
        let name = name.to_lowercase();
        let adapters = instance.enumerate_adapters(tier).await;
        if let Some(named) = adapters
            .into_iter()
            .find(|adapter| adapter.get_info().name.to_lowercase().contains(&name))
        {
            return Some(named);
        }
    }
    let force_fallback_adapter = std::env::var("WGPU_FORCE_FALLBACK_ADAPTER")
        .map_or(settings.force_fallback_adapter, |v| {
            !(v.is_empty() || v == "0" || v == "false")
        });
    let options = RequestAdapterOptions {
        power_preference: settings.power_preference,
        compatible_surface: None,
        force_fallback_adapter,
    };
    instance.request_adapter(&options).await.ok()
}

/// The device and queue on `adapter`, with the features and limits Bevy's own set-up asks for
/// under `settings` (bevy_render 0.19.1, `initialize_renderer`), logged in one line.
fn device(
    instance: Instance,
    adapter: Adapter,
    settings: &WgpuSettings,
) -> Result<RenderCreation, NoGpu> {
    let info = adapter.get_info();
    info!("{}", describe(&info));

    let (mut features, mut limits) = (wgpu::Features::empty(), settings.limits.clone());
    if matches!(settings.priority, WgpuSettingsPriority::Functionality) {
        features = adapter.features();
        if info.device_type == DeviceType::DiscreteGpu {
            // Bevy's rule: slow across PCI-E on a discrete GPU.
            features.remove(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
        }
        limits = adapter.limits();
    }
    if let Some(disabled) = settings.disabled_features {
        features.remove(disabled);
    }
    features |= settings.features;
    if let Some(constrained) = &settings.constrained_limits {
        limits = limits.or_worse_values_from(constrained);
    }
    let descriptor = wgpu::DeviceDescriptor {
        label: settings.device_label.as_deref(),
        required_features: features,
        required_limits: limits,
        memory_hints: settings.memory_hints.clone(),
        ..default()
    };
    let (device, queue) = block_on(adapter.request_device(&descriptor))
        .map_err(|error| NoGpu::NoDevice(describe(&info), error.to_string()))?;
    Ok(RenderCreation::manual(
        RenderDevice::from(device),
        RenderQueue(Arc::new(WgpuWrapper::new(queue))),
        RenderAdapterInfo(WgpuWrapper::new(info)),
        RenderAdapter(Arc::new(WgpuWrapper::new(adapter))),
        RenderInstance(Arc::new(WgpuWrapper::new(instance))),
    ))
}

/// `drawing with Gl on llvmpipe (LLVM 15.0.6, 256 bits) (4.5 (Core Profile) Mesa 22.3.6),
/// software`: the backend,
/// the adapter, its driver, and whether it is a software renderer.
fn describe(info: &AdapterInfo) -> String {
    let software = if info.device_type == DeviceType::Cpu {
        ", software"
    } else {
        ""
    };
    // Vulkan names the driver and its version apart; OpenGL gives only the version string.
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "drawing with {:?} on {} ({driver}){software}",
        info.backend, info.name
    )
}

/// Why nothing can be drawn, in one line that says what to do.
#[derive(Debug)]
pub enum NoGpu {
    /// No driver answered for any backend the build has, or for those `WGPU_BACKEND` names.
    NoAdapter {
        /// `WGPU_BACKEND`, when set: then it is what to change.
        wgpu_backend: Option<String>,
    },
    /// An adapter was found but gave no device: the adapter, and wgpu's words.
    NoDevice(String, String),
}

impl std::fmt::Display for NoGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = built_backends();
        match self {
            Self::NoAdapter {
                wgpu_backend: Some(value),
            } => write!(
                f,
                "no GPU adapter for WGPU_BACKEND={value:?}: this build draws with {built}; unset it to let the app choose"
            ),
            Self::NoAdapter { wgpu_backend: None } => write!(
                f,
                "no GPU adapter found: install a Vulkan driver or an OpenGL one, or Mesa's software ones (Debian: `apt-get install mesa-vulkan-drivers` for Vulkan, `libegl-mesa0 libgl1-mesa-dri` for OpenGL)"
            ),
            Self::NoDevice(adapter, why) => write!(
                f,
                "the GPU adapter gave no device ({adapter}: {why}); update its driver, or try another backend: WGPU_BACKEND={built}"
            ),
        }
    }
}

/// The backends this build has on this platform, as `WGPU_BACKEND` spells them: `vulkan or gl`.
fn built_backends() -> String {
    let names = [
        (Backends::VULKAN, "vulkan"),
        (Backends::METAL, "metal"),
        (Backends::DX12, "dx12"),
        (Backends::GL, "gl"),
    ];
    let built = Instance::enabled_backend_features();
    names
        .iter()
        .filter(|(backend, _)| built.contains(*backend))
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join(" or ")
}
