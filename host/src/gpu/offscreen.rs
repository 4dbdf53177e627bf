//! The offscreen picture: skinned in the vertex shader through the uniform palette, then
//! drawn into an RGBA texture with a depth buffer by skin-core's camera and shading, and
//! read back as the RGB565 picture the CPU rasteriser would draw.
//!
//! What mirrors `skin_core::raster`: the projection matrix ([`Camera::matrix`]: subpixels,
//! depth 0..65535), vertices rounded to whole 1/16 pixels, back faces culled (glTF's front
//! faces are counter-clockwise), the nearer fragment kept (the first of equal ones), flat
//! Lambert shading from the provoking vertex with the core's light and ambient, and the
//! material scaled in integers. What the GPU does its own way: coverage and the fill rule
//! (the device's rasteriser, top-left on every Vulkan implementation known), depth
//! interpolation (float, not the core's 16-bit plane), and the skinning's rounding.

use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
use skin_core::budget::{Budget, Layout};
use skin_core::raster::camera::{AMBIENT, LIGHT};
use skin_core::raster::Camera;

use super::context::Variant;
use super::draw::vertex_stage;
use super::{shader, Bones, DrawCall, GpuError, GpuMesh, Reference};
use crate::picture::{rgb565, Picture};

/// How triangles are lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shading {
    /// Lambert with ambient from the skinned normals (skin-core's `Project::shade`).
    Lambert,
    /// Full intensity (models without normals).
    Unlit,
}

/// What a picture shows and how: skin-core's camera, the screen, shading and colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The camera (its matrix projects to the screen below).
    pub camera: Camera,
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// Lighting.
    pub shading: Shading,
    /// The material colour, scaled by each triangle's intensity.
    pub material: Rgb565,
    /// The colour where nothing is drawn.
    pub background: Rgb565,
}

/// One mesh of a picture: its vertices, its palette (one entry per joint: matrices, or
/// dual quaternions for dual quaternion skinning), its morph-target weights and its draw
/// calls (each within the budget).
#[derive(Clone, Copy, Debug)]
pub struct MeshDraws<'a> {
    /// The mesh.
    pub mesh: &'a GpuMesh,
    /// Its palette.
    pub palette: Bones<'a>,
    /// Its morph-target weights (one a target; empty: no target active).
    pub weights: &'a [f32],
    /// Its draw calls.
    pub draws: &'a [DrawCall],
}

/// The view uniform (`shader::picture`'s `View`).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ViewUniform {
    screen: [[f32; 4]; 3],
    size: [f32; 4],
    light: [f32; 4],
    material: [u32; 4],
}

const COLOUR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

impl Reference {
    /// Draw `meshes` in order into a `view.width × view.height` picture, each skinned by a
    /// vertex shader whose uniform palette holds `budget`'s capacity of `layout` matrices
    /// (of dual quaternions, for a mesh whose palette is dual quaternions).
    pub fn render(
        &self,
        meshes: &[MeshDraws<'_>],
        view: &View,
        budget: Budget,
        layout: Layout,
    ) -> Result<Picture, GpuError> {
        let (width, height) = (u32::from(view.width), u32::from(view.height));
        let side = self.device.limits().max_texture_dimension_2d;
        if !(1..=side).contains(&width) || !(1..=side).contains(&height) {
            return Err(GpuError::PictureSize {
                width,
                height,
                max: side,
            });
        }
        let prepared = meshes
            .iter()
            .map(|b| self.prepare(b.mesh, b.palette, b.draws, b.weights, (budget, layout)))
            .collect::<Result<Vec<_>, _>>()?;
        let pipelines = prepared
            .iter()
            .map(|p| self.picture_pipeline(p.layout, p.capacity, p.stretched()))
            .collect::<Result<Vec<_>, _>>()?;
        let uniform = view.uniform();
        let clear = view.clear();
        let (encoder, colour) = self.checked("rendering the picture", || {
            let attachment = wgpu::TextureUsages::RENDER_ATTACHMENT;
            let size = (width, height);
            let copy = attachment | wgpu::TextureUsages::COPY_SRC;
            let colour = self.texture("picture", size, COLOUR, copy);
            let depth = self.texture("picture depth", size, DEPTH, attachment);
            let (colour_view, depth_view) = (
                colour.create_view(&Default::default()),
                depth.create_view(&Default::default()),
            );
            let view_buffer = self.buffer(
                "view",
                bytemuck::bytes_of(&uniform),
                wgpu::BufferUsages::UNIFORM,
            );
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("picture"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &colour_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(clear),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                        view: &depth_view,
                        depth_ops: Some(wgpu::Operations {
                            load: wgpu::LoadOp::Clear(1.0),
                            store: wgpu::StoreOp::Discard,
                        }),
                        stencil_ops: None,
                    }),
                    ..Default::default()
                });
                for ((mesh, prepared), pipeline) in meshes.iter().zip(&prepared).zip(&pipelines) {
                    let view_group = self.bind_uniform("view", pipeline, 1, &view_buffer);
                    pass.set_pipeline(pipeline);
                    pass.set_bind_group(1, &view_group, &[]);
                    prepared.bind_buffers(&mut pass);
                    prepared.draw(self, pipeline, mesh.draws, &mut pass);
                }
            }
            (encoder, colour)
        })?;
        let bytes = self
            .read_textures("picture read-back", encoder, &[&colour], (width, height), 4)?
            .remove(0);
        Ok(Picture {
            width,
            height,
            pixels: bytes
                .chunks_exact(4)
                .map(|p| rgb565([p[0], p[1], p[2]]))
                .collect(),
        })
    }

    /// The picture's render pipeline for a uniform palette of `capacity` `layout` matrices
    /// (with stretches when `stretched`).
    fn picture_pipeline(
        &self,
        layout: Layout,
        capacity: usize,
        stretched: bool,
    ) -> Result<wgpu::RenderPipeline, GpuError> {
        self.render_pipeline(Variant::Picture(layout, capacity, stretched), || {
            let module = self.module("picture", shader::picture(layout, capacity, stretched));
            self.device
                .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some("picture"),
                    layout: None,
                    vertex: vertex_stage(&module),
                    primitive: wgpu::PrimitiveState {
                        topology: wgpu::PrimitiveTopology::TriangleList,
                        front_face: wgpu::FrontFace::Ccw,
                        cull_mode: Some(wgpu::Face::Back),
                        ..Default::default()
                    },
                    depth_stencil: Some(wgpu::DepthStencilState {
                        format: DEPTH,
                        depth_write_enabled: Some(true),
                        depth_compare: Some(wgpu::CompareFunction::Less),
                        stencil: Default::default(),
                        bias: Default::default(),
                    }),
                    multisample: Default::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &module,
                        entry_point: Some("fs"),
                        compilation_options: Default::default(),
                        targets: &[Some(wgpu::ColorTargetState {
                            format: COLOUR,
                            blend: None,
                            write_mask: wgpu::ColorWrites::ALL,
                        })],
                    }),
                    multiview_mask: None,
                    cache: None,
                })
        })
    }
}

impl View {
    /// The view uniform of `shader::picture`.
    fn uniform(&self) -> ViewUniform {
        ViewUniform {
            screen: self.camera.matrix(),
            size: [
                (u32::from(self.width) * 16) as f32,
                (u32::from(self.height) * 16) as f32,
                f32::from(AMBIENT),
                if self.shading == Shading::Lambert {
                    1.0
                } else {
                    0.0
                },
            ],
            light: [
                f32::from(LIGHT[0]) / 16384.0,
                f32::from(LIGHT[1]) / 16384.0,
                f32::from(LIGHT[2]) / 16384.0,
                0.0,
            ],
            material: [
                u32::from(self.material.r()),
                u32::from(self.material.g()),
                u32::from(self.material.b()),
                0,
            ],
        }
    }

    /// The background as the render pass clears to it.
    fn clear(&self) -> wgpu::Color {
        let bg = self.background;
        wgpu::Color {
            r: f64::from(bg.r()) / 31.0,
            g: f64::from(bg.g()) / 63.0,
            b: f64::from(bg.b()) / 31.0,
            a: 1.0,
        }
    }

    /// A view in skin-core's scene colours (`skin_core::scene::{MATERIAL,
    /// BACKGROUND}`), as the CPU renderer and the firmware draw.
    pub fn scene(camera: Camera, width: u16, height: u16, shading: Shading) -> Self {
        Self {
            camera,
            width,
            height,
            shading,
            material: skin_core::scene::MATERIAL,
            background: skin_core::scene::BACKGROUND,
        }
    }
}
