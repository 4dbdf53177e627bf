//! The device, errors, and buffer read-back.

use skin_core::budget::Layout;

/// Why the GPU reference could not run, or refused its input.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter (install `mesa-vulkan-drivers libvulkan1` for lavapipe).
    #[error("no GPU adapter: {0} (on a machine without a GPU, install mesa-vulkan-drivers and libvulkan1 for lavapipe)")]
    NoAdapter(String),
    /// The adapter refused a device.
    #[error("the GPU adapter refused a device: {0}")]
    Device(String),
    /// wgpu reported an error (validation, out of memory, a lost device).
    #[error("GPU error in {context}: {message}")]
    Wgpu {
        /// What was being done.
        context: &'static str,
        /// wgpu's message.
        message: String,
    },
    /// Mesh arrays of different lengths.
    #[error("mesh {what} has {actual} entries, expected {expected} (one per vertex)")]
    Length {
        /// Which array.
        what: &'static str,
        /// Vertices.
        expected: usize,
        /// Its length.
        actual: usize,
    },
    /// An index past the vertices.
    #[error("index {position} is {index}, but the mesh has {vertices} vertices")]
    Index {
        /// Where in the index list.
        position: usize,
        /// The index.
        index: u32,
        /// Vertices.
        vertices: usize,
    },
    /// A vertex or draw call names a palette entry that does not exist.
    #[error("{what} uses bone {bone}, but the palette has {palette} entries")]
    Bone {
        /// Which vertex or draw call.
        what: String,
        /// The bone.
        bone: usize,
        /// Palette entries.
        palette: usize,
    },
    /// A draw call's index range is not whole triangles inside the index list.
    #[error("draw call {draw}: index range {start}..{end} is not whole triangles within the {len} indices")]
    Range {
        /// Draw call.
        draw: usize,
        /// Range start.
        start: u32,
        /// Range end.
        end: u32,
        /// Indices in the mesh.
        len: usize,
    },
    /// A draw call's palette exceeds the budget (split the mesh first).
    #[error("draw call {draw}: {source}")]
    Budget {
        /// Draw call.
        draw: usize,
        /// The budget check's error.
        source: skin_core::Error,
    },
    /// The budget has no room for one bone in this layout.
    #[error("budget {budget} holds no {} bones", layout.name())]
    EmptyBudget {
        /// Budget name.
        budget: &'static str,
        /// Layout.
        layout: Layout,
    },
    /// The vertex shaders take 3×4 and 4×4 palettes only.
    #[error("the GPU reference has no {} skinning shader (3x4 and 4x4 only)", layout.name())]
    Layout {
        /// Layout.
        layout: Layout,
    },
    /// The uniform palette is larger than the device allows.
    #[error("a {bytes}-byte uniform palette exceeds this device's {limit}-byte uniform binding limit")]
    UniformLimit {
        /// Palette size.
        bytes: u64,
        /// Device limit.
        limit: u64,
    },
    /// More vertices than one read-back target can hold.
    #[error("{vertices} vertices exceed the vertex read-back target ({max})")]
    TooManyVertices {
        /// Vertices.
        vertices: usize,
        /// Maximum.
        max: usize,
    },
    /// A picture size the device cannot render.
    #[error("picture size {width}x{height} is outside 1..={max}")]
    PictureSize {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// Maximum side.
        max: u32,
    },
    /// The primitive's influences could not become skin-core influences.
    #[error(transparent)]
    Pose(#[from] crate::PoseError),
    /// A vertex drawn by two draw calls that map its bones differently (give each draw
    /// call its own vertices, as [`crate::split`] does).
    #[error("vertex {vertex} is drawn by draw calls {first} and {second}, whose palettes map its bones differently")]
    SharedVertex {
        /// The vertex.
        vertex: usize,
        /// One draw call.
        first: usize,
        /// The other.
        second: usize,
    },
    /// A non-finite palette entry, position or normal.
    #[error("{what} is not finite")]
    NotFinite {
        /// What.
        what: String,
    },
}

/// A `wgpu` device for the reference paths. Everything blocks (`pollster`) until the GPU is
/// done.
#[derive(Debug)]
pub struct Reference {
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
}

impl Reference {
    /// The first adapter wgpu offers (Vulkan), with its own limits.
    pub fn new() -> Result<Self, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::VULKAN;
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("skin reference"),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Self {
            device,
            queue,
            info: adapter.get_info(),
        })
    }

    /// The adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`.
    pub fn adapter(&self) -> String {
        format!(
            "{} ({:?}, {:?})",
            self.info.name, self.info.backend, self.info.device_type
        )
    }

    /// The device's largest uniform binding, bytes.
    pub fn max_uniform_binding(&self) -> u64 {
        self.device.limits().max_uniform_buffer_binding_size
    }

    /// Run `f`, turning any wgpu validation or memory error it causes into [`GpuError::Wgpu`].
    pub(super) fn checked<T>(&self, context: &'static str, f: impl FnOnce() -> T) -> Result<T, GpuError> {
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let out = f();
        let errors = [
            pollster::block_on(memory.pop()),
            pollster::block_on(validation.pop()),
        ];
        match errors.into_iter().flatten().next() {
            Some(e) => Err(GpuError::Wgpu {
                context,
                message: e.to_string(),
            }),
            None => Ok(out),
        }
    }

    /// Submit `encoder`, wait, and return the bytes of `buffer` (a `MAP_READ` buffer).
    pub(super) fn finish_and_read(
        &self,
        context: &'static str,
        encoder: wgpu::CommandEncoder,
        buffer: &wgpu::Buffer,
    ) -> Result<Vec<u8>, GpuError> {
        let wgpu_err = |message: String| GpuError::Wgpu { context, message };
        self.queue.submit([encoder.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| wgpu_err(e.to_string()))?;
        rx.recv()
            .map_err(|e| wgpu_err(e.to_string()))?
            .map_err(|e| wgpu_err(e.to_string()))?;
        let bytes = buffer
            .get_mapped_range(..)
            .map_err(|e| wgpu_err(e.to_string()))?
            .to_vec();
        buffer.unmap();
        Ok(bytes)
    }

    /// A buffer initialised with `contents`.
    pub(super) fn buffer(&self, label: &str, contents: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage,
        })
    }

    /// An uninitialised buffer of `size` bytes.
    pub(super) fn empty(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }
}
