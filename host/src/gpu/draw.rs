//! What the two vertex-shader paths share: the uniform palette a budget allows, each draw
//! call's palette contents, and a mesh's vertex and index buffers with palette slots.

use skin_core::budget::{Budget, Layout};

use super::{morph, Bones, DrawCall, GpuError, GpuMesh, Reference};

/// Vertex buffer layouts of the vertex paths: position, normal, palette slots, weights
/// (`shader::VERTEX_IN`'s locations 0..=3), one buffer each.
pub(super) const VERTEX_BUFFERS: [Option<wgpu::VertexBufferLayout<'static>>; 4] = [
    Some(layout(12, &wgpu::vertex_attr_array![0 => Float32x3])),
    Some(layout(12, &wgpu::vertex_attr_array![1 => Float32x3])),
    Some(layout(16, &wgpu::vertex_attr_array![2 => Uint32x4])),
    Some(layout(16, &wgpu::vertex_attr_array![3 => Float32x4])),
];

/// The vertex stage of the vertex-shader paths: `module`'s `vs` over [`VERTEX_BUFFERS`].
pub(super) fn vertex_stage(module: &wgpu::ShaderModule) -> wgpu::VertexState<'_> {
    wgpu::VertexState {
        module,
        entry_point: Some("vs"),
        compilation_options: Default::default(),
        buffers: &VERTEX_BUFFERS,
    }
}

const fn layout(
    stride: u64,
    attributes: &'static [wgpu::VertexAttribute],
) -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: stride,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes,
    }
}

/// A mesh on the device, ready to draw through the uniform palette: its layout, `N`, the
/// palette's length (the budget's capacity), the vertex buffers, the index buffer, one
/// palette uniform buffer per draw call, and the morph uniform and deltas.
pub(super) struct Prepared {
    /// The uniform palette's layout (dual quaternions for a DQS palette).
    pub layout: Layout,
    /// Bones the uniform array holds.
    pub capacity: usize,
    /// Buffers in [`VERTEX_BUFFERS`] order.
    pub vertices: [wgpu::Buffer; 4],
    /// The triangle list (`u32`).
    pub indices: wgpu::Buffer,
    /// Each draw call's palette, `capacity` bones.
    pub palettes: Vec<wgpu::Buffer>,
    /// Each draw call's stretches in its slots' order (a storage buffer, group 0 binding
    /// 1), for a palette with stretches; empty otherwise.
    pub stretches: Vec<wgpu::Buffer>,
    /// The frame's active morph targets (group 2, binding 0).
    pub morph: wgpu::Buffer,
    /// The mesh's morph-target deltas (group 2, binding 1).
    pub deltas: wgpu::Buffer,
}

/// The bones a uniform palette of `layout` holds within `budget` on this device.
pub(super) fn capacity(gpu: &Reference, budget: Budget, layout: Layout) -> Result<usize, GpuError> {
    let stride = match layout {
        Layout::Affine3x4 => 48,
        Layout::Mat4x4 => 64,
        Layout::DualQuat => 32,
    };
    let n = budget.capacity(layout);
    if n == 0 {
        return Err(GpuError::EmptyBudget {
            budget: budget.name,
            layout,
        });
    }
    let bytes = (n * stride) as u64;
    if bytes > gpu.max_uniform_binding() {
        return Err(GpuError::UniformLimit {
            bytes,
            limit: gpu.max_uniform_binding(),
        });
    }
    Ok(n)
}

/// One draw call's palette as the uniform array holds it: slot `s` is
/// `palette[draw.bones[s]]` (3×4: the three rows; 4×4: the rows and `0 0 0 1`; a dual
/// quaternion: its two parts), the unused slots zero.
fn uniform(palette: Bones<'_>, draw: &DrawCall, capacity: usize, layout: Layout) -> Vec<f32> {
    let width = match layout {
        Layout::Mat4x4 => 16,
        Layout::Affine3x4 => 12,
        Layout::DualQuat => 8,
    };
    let mut out = vec![0.0f32; capacity * width];
    for (slot, &b) in draw.bones.iter().enumerate() {
        palette.write_slot(usize::from(b), &mut out[slot * width..(slot + 1) * width]);
    }
    out
}

impl Reference {
    /// Check `mesh`, `palette`, `draws` and the morph-target `weights` against the budget
    /// and upload them; `layout` is the uniform layout of a matrix palette (3×4 or 4×4; a
    /// dual quaternion palette is held as dual quaternions).
    pub(super) fn prepare(
        &self,
        mesh: &GpuMesh,
        palette: Bones<'_>,
        draws: &[DrawCall],
        weights: &[f32],
        (budget, layout): (Budget, Layout),
    ) -> Result<Prepared, GpuError> {
        let layout = palette.layout(layout)?;
        let morph = morph::uniform(mesh, weights)?;
        let capacity = capacity(self, budget, layout)?;
        super::compute::check_palette(mesh, palette)?;
        for (d, draw) in draws.iter().enumerate() {
            budget
                .check(draw.bones.len(), layout)
                .map_err(|source| GpuError::Budget { draw: d, source })?;
        }
        let slots = mesh.local_bones(draws, palette.len())?;
        let (_, weights) = mesh.attributes();
        let vertex = wgpu::BufferUsages::VERTEX;
        self.checked("uploading a mesh", || Prepared {
            layout,
            capacity,
            vertices: [
                self.buffer("positions", bytemuck::cast_slice(mesh.positions()), vertex),
                self.buffer("normals", bytemuck::cast_slice(mesh.normals()), vertex),
                self.buffer("palette slots", bytemuck::cast_slice(&slots), vertex),
                self.buffer("weights", bytemuck::cast_slice(&weights), vertex),
            ],
            indices: self.buffer(
                "indices",
                bytemuck::cast_slice(mesh.indices()),
                wgpu::BufferUsages::INDEX,
            ),
            palettes: draws
                .iter()
                .map(|d| {
                    let data = uniform(palette, d, capacity, layout);
                    self.buffer(
                        "uniform palette",
                        bytemuck::cast_slice(&data),
                        wgpu::BufferUsages::UNIFORM,
                    )
                })
                .collect(),
            stretches: draws
                .iter()
                .filter(|_| palette.stretched())
                .map(|d| {
                    let mut data = vec![0.0f32; capacity * 8];
                    for (slot, &b) in d.bones.iter().enumerate() {
                        palette.write_stretch(usize::from(b), &mut data[slot * 8..(slot + 1) * 8]);
                    }
                    self.buffer(
                        "palette stretches",
                        bytemuck::cast_slice(&data),
                        wgpu::BufferUsages::STORAGE,
                    )
                })
                .collect(),
            morph: self.buffer(
                "morph",
                bytemuck::bytes_of(&morph),
                wgpu::BufferUsages::UNIFORM,
            ),
            deltas: self.buffer(
                "morph deltas",
                bytemuck::cast_slice(&morph::deltas(mesh)),
                wgpu::BufferUsages::STORAGE,
            ),
        })
    }
}

impl Prepared {
    /// Whether the palette carries stretches.
    pub fn stretched(&self) -> bool {
        !self.stretches.is_empty()
    }

    /// Bind the vertex and index buffers to `pass`.
    pub fn bind_buffers(&self, pass: &mut wgpu::RenderPass<'_>) {
        for (slot, b) in self.vertices.iter().enumerate() {
            pass.set_vertex_buffer(slot as u32, b.slice(..));
        }
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
    }

    /// Draw `draws` (whose palettes these are) with `pipeline`'s group 2 bound to the morph
    /// targets and its group 0 to each draw call's palette in turn; the number of draw calls
    /// issued.
    pub fn draw(
        &self,
        gpu: &Reference,
        pipeline: &wgpu::RenderPipeline,
        draws: &[DrawCall],
        pass: &mut wgpu::RenderPass<'_>,
    ) -> usize {
        let morph = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("morph targets"),
            layout: &pipeline.get_bind_group_layout(2),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.morph.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.deltas.as_entire_binding(),
                },
            ],
        });
        pass.set_bind_group(2, &morph, &[]);
        let layout = pipeline.get_bind_group_layout(0);
        let mut calls = 0;
        for (d, (draw, buffer)) in draws.iter().zip(&self.palettes).enumerate() {
            if draw.indices.is_empty() {
                continue;
            }
            let entries: Vec<wgpu::BindGroupEntry> = std::iter::once(buffer)
                .chain(self.stretches.get(d))
                .enumerate()
                .map(|(binding, b)| wgpu::BindGroupEntry {
                    binding: binding as u32,
                    resource: b.as_entire_binding(),
                })
                .collect();
            let group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("uniform palette"),
                layout: &layout,
                entries: &entries,
            });
            pass.set_bind_group(0, &group, &[]);
            pass.draw_indexed(draw.indices.clone(), 0, 0..1);
            calls += 1;
        }
        calls
    }
}
