//! Bounds-checked reading of glTF accessors.
//!
//! Every component type (signed/unsigned 8/16-bit, unsigned 32-bit, float), normalised
//! integers, byte strides, matrix column padding and sparse substitution are handled; every
//! offset is checked against the bytes actually loaded, so a file that lies about its sizes
//! gets an [`ImportError::Accessor`], never a panic or an out-of-bounds read.
//!
//! Reads are counted against [`MAX_VALUES`]: several accessors (and meshes, and nodes) may
//! share the same bytes, so without a total a small file could ask for any amount of
//! memory.

use std::cell::Cell;

use gltf::accessor::{DataType, Dimensions};

use crate::error::ImportError;

/// The most values (components) one import reads from accessors in all: 2^25, 256 MiB as
/// the `f64` the reader produces, over 10 million vertices with normals and four
/// influences — far beyond what a microcontroller draws.
pub const MAX_VALUES: usize = 1 << 25;

/// A document's loaded buffers, and the values read from them so far.
#[derive(Debug, Default)]
pub struct Buffers {
    data: Vec<Vec<u8>>,
    read: Cell<usize>,
}

impl Buffers {
    /// The buffers, in document order; nothing read yet.
    pub fn new(data: Vec<Vec<u8>>) -> Self {
        Self {
            data,
            read: Cell::new(0),
        }
    }

    /// Count `values` more against [`MAX_VALUES`] before they are allocated.
    fn take(&self, index: usize, values: usize) -> Result<(), ImportError> {
        let total = self.read.get().saturating_add(values);
        if total > MAX_VALUES {
            return Err(ImportError::Accessor {
                index,
                reason: format!(
                    "reading its {values} values brings the model to {total}, beyond this \
                     tool's limit of {MAX_VALUES} values in all"
                ),
            });
        }
        self.read.set(total);
        Ok(())
    }
}

/// An accessor's elements, each component as `f64` (exact for every glTF component type),
/// normalised integers already mapped to [0, 1] or [−1, 1].
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    /// Components per element.
    pub width: usize,
    /// `count · width` components.
    pub data: Vec<f64>,
    /// The component type in the file.
    pub data_type: DataType,
}

impl Values {
    /// Elements.
    pub fn count(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// The elements as `N`-component rows.
    pub fn rows<const N: usize>(&self) -> impl Iterator<Item = [f64; N]> + '_ {
        self.data
            .chunks_exact(N)
            .map(|c| core::array::from_fn(|i| c[i]))
    }
}

fn size_of(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

/// (columns, rows) of an element; vectors and scalars are one column.
fn shape(d: Dimensions) -> (usize, usize) {
    match d {
        Dimensions::Scalar => (1, 1),
        Dimensions::Vec2 => (1, 2),
        Dimensions::Vec3 => (1, 3),
        Dimensions::Vec4 => (1, 4),
        Dimensions::Mat2 => (2, 2),
        Dimensions::Mat3 => (3, 3),
        Dimensions::Mat4 => (4, 4),
    }
}

fn component(bytes: &[u8], t: DataType, normalized: bool) -> f64 {
    let b = |n: usize| -> [u8; 4] {
        let mut a = [0u8; 4];
        a[..n].copy_from_slice(&bytes[..n]);
        a
    };
    match t {
        DataType::I8 => {
            let v = f64::from(bytes[0] as i8);
            if normalized {
                (v / 127.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U8 => {
            let v = f64::from(bytes[0]);
            if normalized {
                v / 255.0
            } else {
                v
            }
        }
        DataType::I16 => {
            let a = b(2);
            let v = f64::from(i16::from_le_bytes([a[0], a[1]]));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U16 => {
            let a = b(2);
            let v = f64::from(u16::from_le_bytes([a[0], a[1]]));
            if normalized {
                v / 65535.0
            } else {
                v
            }
        }
        DataType::U32 => f64::from(u32::from_le_bytes(b(4))),
        DataType::F32 => f64::from(f32::from_le_bytes(b(4))),
    }
}

/// The bytes of buffer view `view` (checked against the loaded buffer).
fn view_bytes<'b>(
    acc: usize,
    view: &gltf::buffer::View<'_>,
    buffers: &'b Buffers,
) -> Result<&'b [u8], ImportError> {
    let err = |reason: String| ImportError::Accessor { index: acc, reason };
    let buffer = buffers
        .data
        .get(view.buffer().index())
        .ok_or_else(|| err(format!("buffer {} is not loaded", view.buffer().index())))?;
    let end = view.offset().checked_add(view.length());
    match end {
        Some(end) if end <= buffer.len() => Ok(&buffer[view.offset()..end]),
        _ => Err(err(format!(
            "buffer view {} (bytes {}..{}) runs past the end of buffer {} ({} bytes)",
            view.index(),
            view.offset(),
            view.offset() as u128 + view.length() as u128,
            view.buffer().index(),
            buffer.len()
        ))),
    }
}

/// Read `count` elements of `elem` bytes each, `stride` apart, starting at `offset` of `bytes`.
#[allow(clippy::too_many_arguments)]
fn read_dense(
    buffers: &Buffers,
    acc: usize,
    bytes: &[u8],
    offset: usize,
    stride: Option<usize>,
    count: usize,
    t: DataType,
    dims: Dimensions,
    normalized: bool,
) -> Result<Vec<f64>, ImportError> {
    let err = |reason: String| ImportError::Accessor { index: acc, reason };
    let size = size_of(t);
    let (cols, rows) = shape(dims);
    // Matrix columns start on 4-byte boundaries.
    let col_stride = if cols > 1 {
        (rows * size).div_ceil(4) * 4
    } else {
        rows * size
    };
    let elem = cols * col_stride;
    let stride = stride.unwrap_or(elem);
    if stride < elem {
        return Err(err(format!(
            "byte stride {stride} is smaller than an element ({elem} bytes)"
        )));
    }
    if count == 0 {
        return Ok(Vec::new());
    }
    let end = (count - 1)
        .checked_mul(stride)
        .and_then(|v| v.checked_add(offset))
        .and_then(|v| v.checked_add(elem));
    match end {
        Some(end) if end <= bytes.len() => {}
        _ => {
            return Err(err(format!(
                "{count} elements of {elem} bytes (stride {stride}) from offset {offset} run \
                 past the end of its buffer view ({} bytes)",
                bytes.len()
            )))
        }
    }
    buffers.take(acc, count * cols * rows)?;
    let mut out = Vec::with_capacity(count * cols * rows);
    for e in 0..count {
        let base = offset + e * stride;
        for c in 0..cols {
            for r in 0..rows {
                let at = base + c * col_stride + r * size;
                out.push(component(&bytes[at..at + size], t, normalized));
            }
        }
    }
    Ok(out)
}

/// Read accessor `acc`, checking that it has one of the `dims` and one of the `types`.
pub fn read(
    acc: &gltf::Accessor<'_>,
    buffers: &Buffers,
    dims: &[Dimensions],
    types: &[DataType],
) -> Result<Values, ImportError> {
    let index = acc.index();
    let err = |reason: String| ImportError::Accessor { index, reason };
    if !dims.contains(&acc.dimensions()) {
        return Err(err(format!(
            "has type {:?}, expected one of {dims:?}",
            acc.dimensions()
        )));
    }
    if !types.contains(&acc.data_type()) {
        return Err(err(format!(
            "has component type {:?}, expected one of {types:?}",
            acc.data_type()
        )));
    }
    let (t, d, n) = (acc.data_type(), acc.dimensions(), acc.normalized());
    let width = d.multiplicity();
    let count = acc.count();
    let mut data = match acc.view() {
        Some(view) => {
            let bytes = view_bytes(index, &view, buffers)?;
            read_dense(
                buffers,
                index,
                bytes,
                acc.offset(),
                view.stride(),
                count,
                t,
                d,
                n,
            )?
        }
        None => {
            buffers.take(index, count.saturating_mul(width))?;
            vec![0.0; count * width]
        }
    };
    if let Some(sparse) = acc.sparse() {
        let k = sparse.count();
        let idx = sparse.indices();
        let it = match idx.index_type() {
            gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        let ib = view_bytes(index, &idx.view(), buffers)?;
        let positions = read_dense(
            buffers,
            index,
            ib,
            idx.offset(),
            None,
            k,
            it,
            Dimensions::Scalar,
            false,
        )?;
        let vals = sparse.values();
        let vb = view_bytes(index, &vals.view(), buffers)?;
        let values = read_dense(buffers, index, vb, vals.offset(), None, k, t, d, n)?;
        for (i, &p) in positions.iter().enumerate() {
            let p = p as usize;
            if p >= count {
                return Err(err(format!(
                    "sparse index {p} is beyond the accessor's {count} elements"
                )));
            }
            data[p * width..(p + 1) * width].copy_from_slice(&values[i * width..(i + 1) * width]);
        }
    }
    Ok(Values {
        width,
        data,
        data_type: t,
    })
}

/// Read an accessor of unsigned integers (indices, joints) as `u32`.
pub fn read_uint(
    acc: &gltf::Accessor<'_>,
    buffers: &Buffers,
    dims: &[Dimensions],
) -> Result<(usize, Vec<u32>), ImportError> {
    if acc.normalized() {
        return Err(ImportError::Accessor {
            index: acc.index(),
            reason: "integer indices must not be normalized".into(),
        });
    }
    let v = read(
        acc,
        buffers,
        dims,
        &[DataType::U8, DataType::U16, DataType::U32],
    )?;
    Ok((v.width, v.data.iter().map(|&x| x as u32).collect()))
}

/// Read an accessor of finite floats as `f32`; `what` names it in errors.
pub fn read_f32(
    acc: &gltf::Accessor<'_>,
    buffers: &Buffers,
    dims: &[Dimensions],
    types: &[DataType],
    what: &str,
) -> Result<(usize, Vec<f32>), ImportError> {
    let v = read(acc, buffers, dims, types)?;
    if let Some(bad) = v.data.iter().position(|x| !x.is_finite()) {
        return Err(ImportError::NotFinite {
            what: format!(
                "{what} (accessor {}, element {})",
                acc.index(),
                bad / v.width.max(1)
            ),
        });
    }
    Ok((v.width, v.data.iter().map(|&x| x as f32).collect()))
}
