//! The types of objects: scalars, arrays and structs, each object kept as
//! its scalar leaves in order (an array of structs is its elements' fields
//! one after the other), and their sizes in bytes as gcc lays them out for
//! x86 (`-m32` under ILP32, x86-64 under LP64); and arrays kept whole
//! (`memory.rs`), one SMT array each.

use super::*;
use std::rc::Rc;

/// The type of an object whose leaves are scalars.
#[derive(Clone, Debug)]
pub(super) enum Layout {
    Scalar(CType),
    Array(Rc<Layout>, usize),
    Struct(Rc<Record>),
}

/// A struct or union type: its fields in order.
#[derive(Debug)]
pub(super) struct Record {
    /// The tag, or `struct` for an anonymous one (messages only).
    pub(super) tag: String,
    pub(super) fields: Vec<(String, Layout)>,
    /// A union: its members share bytes, which leaves of their own do not
    /// model, so a union is declared, initialised (its first member) and
    /// copied whole, and a member access is refused.
    pub(super) union: bool,
}

impl Layout {
    /// How many scalars the object holds.
    pub(super) fn leaves(&self) -> usize {
        match self {
            Layout::Scalar(_) => 1,
            Layout::Array(element, n) => element.leaves().saturating_mul(*n),
            Layout::Struct(r) => {
                (r.fields.iter()).fold(0, |n, (_, f)| n.saturating_add(f.leaves()))
            }
        }
    }

    /// The scalar type of each leaf, in order.
    pub(super) fn leaf_types(&self, out: &mut Vec<CType>) {
        match self {
            Layout::Scalar(ty) => out.push(*ty),
            Layout::Array(element, n) => {
                for _ in 0..*n {
                    element.leaf_types(out);
                }
            }
            Layout::Struct(r) => r.fields.iter().for_each(|(_, f)| f.leaf_types(out)),
        }
    }

    /// The C name of each leaf of an object called `name` (`a[1].x`).
    pub(super) fn leaf_names(&self, name: &str, out: &mut Vec<String>) {
        match self {
            Layout::Scalar(_) => out.push(name.to_string()),
            Layout::Array(element, n) => {
                for k in 0..*n {
                    element.leaf_names(&format!("{name}[{k}]"), out);
                }
            }
            Layout::Struct(r) => {
                (r.fields.iter()).for_each(|(f, l)| l.leaf_names(&format!("{name}.{f}"), out))
            }
        }
    }

    /// Whether objects of the two types may be assigned to each other: the
    /// same struct type (by identity), or scalars.
    pub(super) fn same(&self, other: &Layout) -> bool {
        match (self, other) {
            (Layout::Struct(a), Layout::Struct(b)) => Rc::ptr_eq(a, b),
            (Layout::Array(a, n), Layout::Array(b, m)) => n == m && a.same(b),
            (Layout::Scalar(a), Layout::Scalar(b)) => a == b,
            _ => false,
        }
    }

    /// The object's size and alignment in bytes. i386's System V ABI
    /// aligns 8-byte scalars to 4 inside structs (gcc `-m32`:
    /// `sizeof(struct { char c; long long x; })` is 12).
    pub(super) fn size_align(&self, lp64: bool) -> (usize, usize) {
        match self {
            Layout::Scalar(ty) if ty.is_pointer() => {
                let size = if lp64 { 8 } else { 4 };
                (size, size)
            }
            Layout::Scalar(ty) => {
                let size = if ty.boolean {
                    1
                } else {
                    (ty.width / 8) as usize
                };
                (size, if lp64 { size } else { size.min(4) })
            }
            Layout::Array(element, n) => {
                let (size, align) = element.size_align(lp64);
                (size.saturating_mul(*n), align)
            }
            Layout::Struct(r) => {
                let (mut size, mut align) = (0usize, 1usize);
                for (_, field) in &r.fields {
                    let (s, a) = field.size_align(lp64);
                    size = match r.union {
                        true => size.max(s),
                        false => size.next_multiple_of(a).saturating_add(s),
                    };
                    align = align.max(a);
                }
                (size.next_multiple_of(align), align)
            }
        }
    }

    /// The byte offset at which the subobject whose first leaf is the
    /// object's leaf `leaf` starts, laid out as [`Layout::size_align`] lays
    /// it out; `None` past the last leaf or inside a union.
    pub(super) fn leaf_offset(&self, leaf: usize, lp64: bool) -> Option<usize> {
        match self {
            Layout::Scalar(_) => (leaf == 0).then_some(0),
            Layout::Array(element, n) => {
                let per = element.leaves().max(1);
                let k = leaf / per;
                if k >= *n {
                    return None;
                }
                let inner = element.leaf_offset(leaf % per, lp64)?;
                Some(k * element.size_align(lp64).0 + inner)
            }
            Layout::Struct(r) if r.union => (leaf == 0).then_some(0),
            Layout::Struct(r) => {
                let (mut start, mut bytes) = (0usize, 0usize);
                for (_, field) in &r.fields {
                    let (s, a) = field.size_align(lp64);
                    bytes = bytes.next_multiple_of(a);
                    let n = field.leaves();
                    if leaf < start + n {
                        return Some(bytes + field.leaf_offset(leaf - start, lp64)?);
                    }
                    start += n;
                    bytes += s;
                }
                None
            }
        }
    }

    /// The type's name in messages.
    pub(super) fn describe(&self) -> String {
        match self {
            Layout::Scalar(ty) if ty.boolean => "`_Bool`".into(),
            Layout::Scalar(ty) if ty.is_pointer() => "a pointer".into(),
            Layout::Scalar(ty) => {
                let name = match ty.width {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    _ => "long long",
                };
                let sign = if ty.signed { "" } else { "unsigned " };
                format!("`{sign}{name}`")
            }
            Layout::Array(..) => "an array".into(),
            Layout::Struct(r) if r.union => format!("`union {}`", r.tag),
            Layout::Struct(r) => format!("`struct {}`", r.tag),
        }
    }
}

/// One dimension's size.
#[derive(Clone, Debug)]
pub(super) enum Dim {
    Const(usize),
    /// A 32-bit variable holding the size taken at the declaration.
    Var(Term),
}

/// An array kept whole: one SMT array per scalar leaf of its element type
/// (a struct's fields side by side), each over the elements.
#[derive(Debug)]
pub(super) struct Memory {
    /// The array variables, in the element's leaf order.
    pub(super) vars: Rc<[Term]>,
    /// The element type: a scalar or a struct.
    pub(super) element: Layout,
    pub(super) dims: Vec<Dim>,
}

/// A subarray of an array kept whole: the dimensions indexed so far, and
/// the row-major offset of its first element (32 bits) without the
/// dimensions not indexed yet. (Indexed in every dimension, an element is
/// a place whose leaves are the arrays, read at its number.)
#[derive(Clone, Debug)]
pub(super) struct MemPlace {
    pub(super) memory: Rc<Memory>,
    pub(super) depth: usize,
    pub(super) offset: Term,
}

impl Memory {
    /// The type of what `depth` indices designate, where its sizes are
    /// constants (for `sizeof` and messages).
    pub(super) fn layout_at(&self, depth: usize) -> Option<Layout> {
        let mut layout = self.element.clone();
        for d in self.dims[depth..].iter().rev() {
            let Dim::Const(n) = d else {
                return None;
            };
            layout = Layout::Array(Rc::new(layout), *n);
        }
        Some(layout)
    }
}
