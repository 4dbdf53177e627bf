//! Vertex-shader skinning as the old hardware did it, read back: the palette in a uniform
//! array of exactly the budget's capacity, one draw call per palette split, and what the
//! vertex stage computed written out through two `Rgba32Float` targets (each vertex a point
//! on its own pixel).

use skin_core::budget::{Budget, Layout};

use super::context::Variant;
use super::draw::vertex_stage;
use super::{shader, Bones, DrawCall, GpuError, GpuMesh, Reference, Skinned};

/// What the vertex path produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    /// Skinned positions and normals, one per mesh vertex (zero where not drawn).
    pub skinned: Skinned,
    /// Whether a draw call drew each vertex (a vertex no triangle uses is not drawn).
    pub drawn: Vec<bool>,
    /// Draw calls issued: one per non-empty [`DrawCall`].
    pub draw_calls: usize,
}

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

impl Reference {
    /// Skin `mesh` in a vertex shader whose uniform palette holds `budget`'s capacity of
    /// `layout` matrices (or, for a dual quaternion palette, of dual quaternions),
    /// drawing `draws` (each within the budget; see [`GpuMesh::single_draw`] and
    /// [`GpuMesh::from_split`]) with `palette` (one entry per joint), and read back what
    /// the vertex stage computed.
    pub fn skin_vertex<'a>(
        &self,
        mesh: &GpuMesh,
        palette: impl Into<Bones<'a>>,
        draws: &[DrawCall],
        budget: Budget,
        layout: Layout,
    ) -> Result<Drawn, GpuError> {
        self.skin_vertex_morphed(mesh, palette, &[], draws, (budget, layout))
    }

    /// [`Reference::skin_vertex`] with the mesh first moved by its morph targets at
    /// `weights` (one a target; none: no target active), at most
    /// [`ACTIVE_TARGETS`](skin_core::morph::ACTIVE_TARGETS) of them non-zero.
    pub fn skin_vertex_morphed<'a>(
        &self,
        mesh: &GpuMesh,
        palette: impl Into<Bones<'a>>,
        weights: &[f32],
        draws: &[DrawCall],
        (budget, layout): (Budget, Layout),
    ) -> Result<Drawn, GpuError> {
        let prepared = self.prepare(mesh, palette.into(), draws, weights, (budget, layout))?;
        let n = mesh.len();
        if n == 0 {
            return Ok(Drawn {
                skinned: Skinned {
                    positions: Vec::new(),
                    normals: Vec::new(),
                },
                drawn: Vec::new(),
                draw_calls: 0,
            });
        }
        let side = self.device.limits().max_texture_dimension_2d;
        let width = (n as u32).min(side);
        let height = (n as u32).div_ceil(width);
        if height > side {
            return Err(GpuError::TooManyVertices {
                vertices: n,
                max: (side as usize) * (side as usize),
            });
        }
        let pipeline =
            self.readback_pipeline(prepared.layout, prepared.capacity, prepared.stretched())?;
        let (encoder, targets, draw_calls) = self.checked("vertex-shader skinning", || {
            let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
            let targets = [0, 1]
                .map(|_| self.texture("vertex read-back target", (width, height), FORMAT, usage));
            let views = targets
                .each_ref()
                .map(|t| t.create_view(&Default::default()));
            let size = [width, height, 0, 0];
            let size_group =
                self.uniform_group("target size", &pipeline, 1, bytemuck::cast_slice(&size));
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let attachments = views.each_ref().map(|view| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })
            });
            let calls = {
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("vertex read-back"),
                    color_attachments: &attachments,
                    ..Default::default()
                });
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(1, &size_group, &[]);
                prepared.bind_buffers(&mut pass);
                prepared.draw(self, &pipeline, draws, &mut pass)
            };
            (encoder, targets, calls)
        })?;
        let images = self.read_textures(
            "vertex read-back",
            encoder,
            &[&targets[0], &targets[1]],
            (width, height),
            16,
        )?;
        let texels = |bytes: &[u8]| -> Vec<[f32; 4]> { bytemuck::pod_collect_to_vec(bytes) };
        let (positions, normals) = (texels(&images[0]), texels(&images[1]));
        Ok(Drawn {
            skinned: Skinned {
                positions: positions[..n].iter().map(|t| [t[0], t[1], t[2]]).collect(),
                normals: normals[..n].iter().map(|t| [t[0], t[1], t[2]]).collect(),
            },
            drawn: positions[..n].iter().map(|t| t[3] == 1.0).collect(),
            draw_calls,
        })
    }

    /// The read-back pipeline for a uniform palette of `capacity` `layout` matrices (with
    /// stretches when `stretched`).
    fn readback_pipeline(
        &self,
        layout: Layout,
        capacity: usize,
        stretched: bool,
    ) -> Result<wgpu::RenderPipeline, GpuError> {
        self.render_pipeline(Variant::Readback(layout, capacity, stretched), || {
            let module = self.module(
                "vertex read-back",
                shader::vertex_readback(layout, capacity, stretched),
            );
            let target = Some(wgpu::ColorTargetState {
                format: FORMAT,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            });
            self.device
                .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("vertex read-back"),
                    layout: None,
                    vertex: vertex_stage(&module),
                    primitive: wgpu::PrimitiveState {
                        topology: wgpu::PrimitiveTopology::PointList,
                        ..Default::default()
                    },
                    depth_stencil: None,
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &module,
                        entry_point: Some("fs"),
                        compilation_options: Default::default(),
                        targets: &[target.clone(), target],
                    }),
                    multiview_mask: None,
                    cache: None,
                })
        })
    }
}
