//! The device, errors, and buffer read-back.

use std::collections::HashMap;
use std::sync::Mutex;

use skin_core::budget::Layout;

use super::shader::Blend;

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
    /// A matrix palette asked to be drawn through a dual quaternion uniform (matrices take
    /// 3×4 or 4×4; a dual quaternion palette is always drawn as dual quaternions).
    #[error("a palette of joint matrices cannot be drawn through a {} uniform (matrices take 3x4 or 4x4; dual quaternion skinning passes dual quaternions)", layout.name())]
    Layout {
        /// Layout.
        layout: Layout,
    },
    /// A stretched palette whose stretches are not one a joint.
    #[error(
        "the palette has {duals} dual quaternions but {stretches} stretches (one of each a joint)"
    )]
    Stretches {
        /// Dual quaternions.
        duals: usize,
        /// Stretches.
        stretches: usize,
    },
    /// Tangents asked of a palette with stretches: the tangent paths run the normal
    /// shaders, whose stretch takes a normal by its cofactors, not a tangent by the stretch.
    #[error("tangents of joints with scale or shear (a stretched dual quaternion palette) are not skinned on the GPU: skin them with linear blend skinning, or remove the joints' scale")]
    StretchedTangents,
    /// The uniform palette is larger than the device allows.
    #[error(
        "a {bytes}-byte uniform palette exceeds this device's {limit}-byte uniform binding limit"
    )]
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
    Pose(#[from] crate::pose::PoseError),
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
    /// A primitive cannot be split to fit the budget.
    #[error("node {node} mesh {mesh} primitive {primitive}: {source} (budget {budget})")]
    Split {
        /// The mesh node.
        node: usize,
        /// The mesh.
        mesh: usize,
        /// The primitive.
        primitive: usize,
        /// The budget's name.
        budget: &'static str,
        /// Why.
        #[source]
        source: crate::split::SplitError,
    },
    /// A primitive of points or lines (the GPU reference draws triangles).
    #[error("the primitive is {mode:?}; the GPU reference draws triangles only")]
    NotTriangles {
        /// Its mode.
        mode: crate::rig::Mode,
    },
    /// Morph-target weights whose count is not the mesh's targets'.
    #[error("{weights} morph-target weights given for a mesh with {targets} morph targets")]
    MorphWeights {
        /// Weights given.
        weights: usize,
        /// The mesh's targets.
        targets: usize,
    },
    /// More morph targets at a non-zero weight than the shaders' uniform holds.
    #[error("{active} morph targets have a non-zero weight in this frame, but the GPU's morph uniform holds {budget} active targets (skin_core::morph::ACTIVE_TARGETS); set the others to 0")]
    ActiveTargets {
        /// Targets at a non-zero weight.
        active: usize,
        /// The uniform's capacity.
        budget: usize,
    },
    /// A non-finite palette entry, position or normal.
    #[error("{what} is not finite")]
    NotFinite {
        /// What.
        what: String,
    },
}

/// A `wgpu` device for the reference paths. Everything blocks (`pollster`) until the GPU is
/// done. Pipelines are compiled once per shader variant and kept.
#[derive(Debug)]
pub struct Reference {
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    compute: Mutex<HashMap<Blend, wgpu::ComputePipeline>>,
    render: Mutex<HashMap<Variant, wgpu::RenderPipeline>>,
}

/// A vertex-path shader variant: which shader, for a palette layout and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Variant {
    /// Vertex-stage read-back with a uniform palette of `.1` bones (`.2`: with stretches).
    Readback(Layout, usize, bool),
    /// The picture with a uniform palette of `.1` bones (`.2`: with stretches).
    Picture(Layout, usize, bool),
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
            compute: Mutex::new(HashMap::new()),
            render: Mutex::new(HashMap::new()),
        })
    }

    /// The render pipeline of `variant`, made by `make` the first time it is asked for.
    pub(super) fn render_pipeline(
        &self,
        variant: Variant,
        make: impl FnOnce() -> wgpu::RenderPipeline,
    ) -> Result<wgpu::RenderPipeline, GpuError> {
        let mut cache = self.render.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&variant) {
            return Ok(p.clone());
        }
        let p = self.checked("compiling a vertex-path shader", make)?;
        cache.insert(variant, p.clone());
        Ok(p)
    }

    /// The compute pipeline of `blend`, made by `make` the first time it is asked for.
    pub(super) fn compute_pipeline(
        &self,
        blend: Blend,
        make: impl FnOnce() -> wgpu::ComputePipeline,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        let mut cache = self.compute.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.get(&blend) {
            return Ok(p.clone());
        }
        let p = self.checked("compiling the compute shader", make)?;
        cache.insert(blend, p.clone());
        Ok(p)
    }

    /// A shader module from WGSL source.
    pub(super) fn module(&self, label: &str, source: String) -> wgpu::ShaderModule {
        self.device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
    }

    /// Copy `textures` (each `width × height` texels of `texel` bytes) into one read-back
    /// buffer with `encoder`, submit, wait, and return each texture's bytes, rows packed.
    pub(super) fn read_textures(
        &self,
        context: &'static str,
        mut encoder: wgpu::CommandEncoder,
        textures: &[&wgpu::Texture],
        (width, height): (u32, u32),
        texel: u32,
    ) -> Result<Vec<Vec<u8>>, GpuError> {
        let row = width * texel;
        let padded =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let each = u64::from(padded) * u64::from(height);
        let read = self.empty(
            "texture read-back",
            each * textures.len() as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        for (i, t) in textures.iter().enumerate() {
            encoder.copy_texture_to_buffer(
                t.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer: &read,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: each * i as u64,
                        bytes_per_row: Some(padded),
                        rows_per_image: Some(height),
                    },
                },
                wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
            );
        }
        let bytes = self.finish_and_read(context, encoder, &read)?;
        Ok(bytes
            .chunks_exact(each as usize)
            .map(|image| {
                image
                    .chunks_exact(padded as usize)
                    .flat_map(|r| &r[..row as usize])
                    .copied()
                    .collect()
            })
            .collect())
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
    pub(super) fn checked<T>(
        &self,
        context: &'static str,
        f: impl FnOnce() -> T,
    ) -> Result<T, GpuError> {
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
    pub(super) fn buffer(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
    }

    /// A `width × height` 2-D texture.
    pub(super) fn texture(
        &self,
        label: &str,
        (width, height): (u32, u32),
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
    ) -> wgpu::Texture {
        self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        })
    }

    /// A uniform buffer holding `contents`, bound at binding 0 of `pipeline`'s `group`.
    pub(super) fn uniform_group(
        &self,
        label: &str,
        pipeline: &wgpu::RenderPipeline,
        group: u32,
        contents: &[u8],
    ) -> wgpu::BindGroup {
        let buffer = self.buffer(label, contents, wgpu::BufferUsages::UNIFORM);
        self.bind_uniform(label, pipeline, group, &buffer)
    }

    /// `buffer` bound at binding 0 of `pipeline`'s `group`.
    pub(super) fn bind_uniform(
        &self,
        label: &str,
        pipeline: &wgpu::RenderPipeline,
        group: u32,
        buffer: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &pipeline.get_bind_group_layout(group),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
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
