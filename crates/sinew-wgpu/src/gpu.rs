//! Opening a wgpu device: headless (tests, `sinew render`) or from a host that has one.

use std::fmt;

/// A wgpu device and its queue.
#[derive(Debug, Clone)]
pub struct Gpu {
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// What the adapter says it is (name, backend, driver).
    pub info: wgpu::AdapterInfo,
}

/// Why no GPU renderer could be made, or a frame could not be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter was found (no GPU driver; on Linux install Mesa's `mesa-vulkan-drivers`).
    NoAdapter(String),
    /// The adapter refused a device.
    Device(String),
    /// Reading a frame back failed.
    Readback(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoAdapter(e) => write!(
                f,
                "no GPU adapter found ({e}); install a Vulkan or GL driver (Debian: mesa-vulkan-drivers libvulkan1)"
            ),
            GpuError::Device(e) => write!(f, "the GPU adapter refused a device: {e}"),
            GpuError::Readback(e) => write!(f, "reading the frame back from the GPU failed: {e}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl Gpu {
    /// Opens the first adapter wgpu offers without a window (`WGPU_BACKEND`,
    /// `WGPU_ADAPTER_NAME` and `WGPU_POWER_PREF` are honoured), software ones included.
    pub fn headless() -> Result<Gpu, GpuError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter =
            pollster::block_on(
                instance.request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::from_env()
                        .unwrap_or(wgpu::PowerPreference::HighPerformance),
                    force_fallback_adapter: false,
                    compatible_surface: None,
                    apply_limit_buckets: false,
                }),
            )
            .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        Self::from_adapter(&adapter)
    }

    /// Opens a device on `adapter` with the adapter's own limits (large targets for
    /// supersampling) and no optional features.
    pub fn from_adapter(adapter: &wgpu::Adapter) -> Result<Gpu, GpuError> {
        let limits = wgpu::Limits::default().using_resolution(adapter.limits());
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("sinew-wgpu"),
            required_features: wgpu::Features::empty(),
            required_limits: limits,
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Gpu {
            device,
            queue,
            info: adapter.get_info(),
        })
    }

    /// A device a host already has (a window's, an egui app's).
    pub fn from_parts(device: wgpu::Device, queue: wgpu::Queue, info: wgpu::AdapterInfo) -> Gpu {
        Gpu {
            device,
            queue,
            info,
        }
    }
}
