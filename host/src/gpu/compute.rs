//! Compute-shader skinning: the whole palette in a storage buffer, positions and normals
//! out to storage buffers, read back.

use super::shader::{self, Blend, COMPUTE_GROUP};
use super::{morph, Bones, GpuError, GpuMesh, Reference, Skinned};

/// Workgroups per dispatch dimension (WebGPU's guaranteed minimum).
const MAX_GROUPS: u32 = 65535;

impl Reference {
    /// Skin `mesh` with `palette` (one entry per joint, as skin-core's palette: matrices
    /// for linear blend skinning, unit dual quaternions for dual quaternion skinning, and
    /// their stretches for joints with scale or shear) in a compute shader and read the positions and normals back.
    pub fn skin_compute<'a>(
        &self,
        mesh: &GpuMesh,
        palette: impl Into<Bones<'a>>,
    ) -> Result<Skinned, GpuError> {
        self.skin_compute_morphed(mesh, palette, &[])
    }

    /// [`Reference::skin_compute`] with the mesh first moved by its morph targets at
    /// `weights` (one a target; none: no target active), at most
    /// [`ACTIVE_TARGETS`](skin_core::morph::ACTIVE_TARGETS) of them non-zero.
    pub fn skin_compute_morphed<'a>(
        &self,
        mesh: &GpuMesh,
        palette: impl Into<Bones<'a>>,
        weights: &[f32],
    ) -> Result<Skinned, GpuError> {
        let palette = palette.into();
        check_palette(mesh, palette)?;
        let morph = morph::uniform(mesh, weights)?;
        let n = mesh.len();
        if n == 0 {
            return Ok(Skinned {
                positions: Vec::new(),
                normals: Vec::new(),
            });
        }
        let groups = (n as u32).div_ceil(COMPUTE_GROUP);
        let (gx, gy) = (groups.min(MAX_GROUPS), groups.div_ceil(MAX_GROUPS));
        if gy > MAX_GROUPS {
            return Err(GpuError::TooManyVertices {
                vertices: n,
                max: MAX_GROUPS as usize * MAX_GROUPS as usize * COMPUTE_GROUP as usize,
            });
        }
        let (bones, weights) = mesh.attributes();
        let rows = palette.storage();
        let storage = wgpu::BufferUsages::STORAGE;
        let out_usage = storage | wgpu::BufferUsages::COPY_SRC;
        let bytes3 = (n * 12) as u64;
        let pipeline = self.skin_pipeline(Blend::of(palette.skinning(), palette.stretched()))?;
        self.checked("compute skinning", || {
            let inputs = [
                self.buffer("palette", bytemuck::cast_slice(&rows), storage),
                self.buffer("positions", bytemuck::cast_slice(mesh.positions()), storage),
                self.buffer("normals", bytemuck::cast_slice(mesh.normals()), storage),
                self.buffer("bones", bytemuck::cast_slice(&bones), storage),
                self.buffer("weights", bytemuck::cast_slice(&weights), storage),
                self.empty("skinned positions", bytes3, out_usage),
                self.empty("skinned normals", bytes3, out_usage),
                self.buffer(
                    "morph",
                    bytemuck::bytes_of(&morph),
                    wgpu::BufferUsages::UNIFORM,
                ),
                self.buffer(
                    "morph deltas",
                    bytemuck::cast_slice(&morph::deltas(mesh)),
                    storage,
                ),
            ];
            let entries: Vec<wgpu::BindGroupEntry> = inputs
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect();
            let bind = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("skin compute"),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            let read = self.empty(
                "skinned read-back",
                2 * bytes3,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            );
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind, &[]);
                pass.dispatch_workgroups(gx, gy, 1);
            }
            encoder.copy_buffer_to_buffer(&inputs[5], 0, &read, 0, bytes3);
            encoder.copy_buffer_to_buffer(&inputs[6], 0, &read, bytes3, bytes3);
            (encoder, read)
        })
        .and_then(|(encoder, read)| {
            let bytes = self.finish_and_read("compute skinning read-back", encoder, &read)?;
            let floats: Vec<[f32; 3]> = bytemuck::pod_collect_to_vec(&bytes);
            let (positions, normals) = floats.split_at(n);
            Ok(Skinned {
                positions: positions.to_vec(),
                normals: normals.to_vec(),
            })
        })
    }

    /// The compute pipeline of `shader::compute` for `blend`.
    fn skin_pipeline(&self, blend: Blend) -> Result<wgpu::ComputePipeline, GpuError> {
        self.compute_pipeline(blend, || {
            let module = self.module("skin compute", shader::compute(blend));
            self.device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some("skin compute"),
                    layout: None,
                    module: &module,
                    entry_point: Some("main"),
                    compilation_options: Default::default(),
                    cache: None,
                })
        })
    }
}

/// Every bone the mesh uses exists, and every palette entry is finite.
pub(super) fn check_palette(mesh: &GpuMesh, palette: Bones<'_>) -> Result<(), GpuError> {
    palette.check_finite()?;
    let used = mesh.bone_count();
    if used > palette.len() {
        let vertex = mesh
            .influences()
            .iter()
            .position(|i| usize::from(i.max_bone()) >= palette.len())
            .unwrap_or(0);
        return Err(GpuError::Bone {
            what: format!("vertex {vertex}"),
            bone: used - 1,
            palette: palette.len(),
        });
    }
    Ok(())
}
