//! Arrays kept whole: an array of scalars with more elements than the
//! scalarizer takes ([`MAX_ARRAY_ELEMENTS`]), or of a size known only at
//! run time (a variable-length array, C11 6.7.6.2p4), is one program
//! variable of SMT sort `(Array (_ BitVec 32) E)` over its elements in row-
//! major order. A read is a `select`, a write a `store`; the SMT layer
//! decides such arrays by lemmas on demand (`smt::arrays`), so their cost
//! is what the program reads, not their size.
//!
//! Indices are bounds-checked per dimension as for scalarized arrays (out
//! of bounds reaches the error location with the out-of-bounds flag set).
//! A variable-length array's sizes are taken once, at the declaration, into
//! variables of their own; a size below 1, or a total above 2^31 - 1
//! elements, is undefined behaviour and ends the execution there.

use super::layout::{Dim, Layout, MemPlace, Memory};
use super::place::Place;
use super::*;
use std::rc::Rc;

/// Elements beyond this count are not listed one by one in an
/// initializer's table (a list that long is refused).
const MAX_LISTED: usize = 1 << 22;

const INDEX: CType = CType {
    width: 32,
    signed: false,
    boolean: false,
    pointee: None,
};

impl<'a> Lowerer<'a> {
    /// Whether an object of `layout` (or of the variable sizes `dims`) is
    /// kept whole: an array of scalars beyond the scalarizer's limit.
    pub(super) fn kept_whole(layout: &Layout) -> Option<(CType, Vec<usize>)> {
        let mut dims = Vec::new();
        let mut at = layout;
        while let Layout::Array(element, n) = at {
            dims.push(*n);
            at = element;
        }
        let Layout::Scalar(ty) = at else {
            return None;
        };
        let n = layout.leaves();
        (!dims.is_empty() && n > MAX_ARRAY_ELEMENTS && n < (1 << 31)).then_some((*ty, dims))
    }

    fn array_sort(&self, element: CType) -> Sort {
        Sort::array(Sort::BitVec(32), self.num.sort(element))
    }

    /// Declares an array of constant sizes kept whole, with an initializer
    /// list (elements it leaves out are zero), zero (a global) or
    /// indeterminate.
    pub(super) fn declare_whole(
        &mut self,
        name: &str,
        layout: &Layout,
        initializer: Option<&'a Node<Initializer>>,
        zero: bool,
        span: Span,
    ) -> Result<Binding> {
        let (element, dims) = Self::kept_whole(layout).expect("checked by the caller");
        self.refuse_under_int(name, span)?;
        let sort = self.array_sort(element);
        self.fresh += 1;
        let var = (self.cfa.terms).var(&format!("{name}#{}", self.fresh), sort.clone());
        self.cfa.vars.push(var);
        self.element_types.insert(var, element);
        let mut commands = Vec::new();
        match initializer.map(|i| (i, &i.node)) {
            Some((_, Initializer::List(items))) => {
                let n = layout.leaves();
                if n > MAX_LISTED {
                    let what =
                        format!("an initializer list for the array `{name}` of {n} elements");
                    return Err(self.unsupported(span, what));
                }
                let mut values: Vec<Option<Term>> = vec![None; n];
                let mut next = 0;
                self.fill(layout, 0, items, &mut next, true, &mut values)?;
                commands.push(Command::Assign(var, self.zero_array(element)));
                let mut whole = var;
                for (k, v) in values.into_iter().enumerate() {
                    if let Some(v) = v {
                        let at = self.index_constant(k);
                        whole = self.cfa.terms.mk(Op::Store, &[whole, at, v]);
                    }
                }
                if whole != var {
                    commands.push(Command::Assign(var, whole));
                }
            }
            Some((i, Initializer::Expression(_))) => {
                let what = format!("{} initialised by this expression", layout.describe());
                return Err(self.unsupported(i.span, what));
            }
            None if zero => commands.push(Command::Assign(var, self.zero_array(element))),
            None => commands.push(Command::Havoc(var)),
        }
        self.emit(Command::Seq(commands), span);
        let dims = dims.into_iter().map(Dim::Const).collect();
        Ok(Binding::Memory(Rc::new(Memory { var, element, dims })))
    }

    /// Declares a variable-length array over `element` whose sizes are the
    /// expressions `sizes` (constants or not), indeterminate as a local is.
    pub(super) fn declare_variable_length(
        &mut self,
        name: &str,
        element: CType,
        sizes: &[&'a Node<Expression>],
        span: Span,
    ) -> Result<Binding> {
        self.refuse_under_int(name, span)?;
        let wide = CType::int(64, true);
        let one = self.num.constant(&mut self.cfa.terms, 1, wide);
        let most = self.num.constant(&mut self.cfa.terms, (1 << 31) - 1, wide);
        let mut total = one;
        let mut dims = Vec::new();
        for (k, e) in sizes.iter().enumerate() {
            let (v, ty) = self.expr(e)?;
            if ty.boolean || ty.width > 64 {
                return Err(self.unsupported(e.span, "this type of array size"));
            }
            // In 64 bits of its own signedness; below 1 or too many in all
            // is undefined behaviour: the execution ends (the sizes stay
            // below 2^31 each, so the product of two fits).
            let size = self
                .num
                .convert(&mut self.cfa.terms, v, ty, CType::int(64, ty.signed));
            let le = if ty.signed { Op::BvSle } else { Op::BvUle };
            let terms = &mut self.cfa.terms;
            let at_least_one = terms.mk(le.clone(), &[one, size]);
            let at_most = terms.mk(le, &[size, most]);
            let product = terms.mk(Op::BvMul, &[total, size]);
            let product_fits = terms.mk(Op::BvSle, &[product, most]);
            let defined = terms.and_all(&[at_least_one, at_most, product_fits]);
            total = product;
            let next = self.new_loc(span);
            self.cfa.add_edge(self.cur, Command::Assume(defined), next);
            self.cur = next;
            let held = self.new_var(&format!("{name}.size{k}"), INDEX);
            let narrow = self.num.convert(&mut self.cfa.terms, size, wide, INDEX);
            self.emit(Command::Assign(held, narrow), span);
            dims.push(Dim::Var(held));
        }
        let sort = self.array_sort(element);
        self.fresh += 1;
        let var = (self.cfa.terms).var(&format!("{name}#{}", self.fresh), sort);
        self.cfa.vars.push(var);
        self.element_types.insert(var, element);
        self.emit(Command::Havoc(var), span);
        Ok(Binding::Memory(Rc::new(Memory { var, element, dims })))
    }

    fn refuse_under_int(&self, name: &str, span: Span) -> Result<()> {
        if self.num.int {
            let what =
                format!("the array `{name}` kept whole (large or of variable size) under --int");
            return Err(self.unsupported(span, what));
        }
        Ok(())
    }

    fn zero_array(&mut self, element: CType) -> Term {
        let zero = self.num.constant(&mut self.cfa.terms, 0, element);
        let sort = self.array_sort(element);
        self.cfa.terms.mk(Op::ConstArray(sort), &[zero])
    }

    fn index_constant(&mut self, k: usize) -> Term {
        self.num.constant(&mut self.cfa.terms, k as i128, INDEX)
    }

    /// The place of a whole array named by its variable.
    pub(super) fn whole_place(&mut self, memory: &Rc<Memory>) -> Place {
        let offset = self.index_constant(0);
        memory_place(memory.clone(), 0, offset)
    }

    /// The size of dimension `d`, a 32-bit term.
    fn dim_size(&mut self, d: &Dim) -> Term {
        match d {
            Dim::Const(n) => self.index_constant(*n),
            Dim::Var(v) => *v,
        }
    }

    /// `array[index]` for an array kept whole (bounds-checked).
    pub(super) fn index_whole(
        &mut self,
        array: &MemPlace,
        index: &'a Node<Expression>,
        span: Span,
    ) -> Result<Place> {
        let memory = array.memory.clone();
        let Some(dim) = memory.dims.get(array.depth) else {
            return Err(self.unsupported(span, "indexing a scalar"));
        };
        let size = self.dim_size(dim);
        let i = self.checked_index(size, INDEX, index, span)?;
        let i = self
            .num
            .convert(&mut self.cfa.terms, i, CType::int(64, true), INDEX);
        let terms = &mut self.cfa.terms;
        let scaled = terms.mk(Op::BvMul, &[array.offset, size]);
        let offset = terms.mk(Op::BvAdd, &[scaled, i]);
        Ok(memory_place(memory, array.depth + 1, offset))
    }

    /// The row-major offset of the first element of `place` (the
    /// dimensions not indexed yet count as index 0).
    fn element_offset(&mut self, place: &MemPlace) -> Term {
        let mut offset = place.offset;
        for d in &place.memory.dims[place.depth..] {
            let size = self.dim_size(d);
            offset = self.cfa.terms.mk(Op::BvMul, &[offset, size]);
        }
        offset
    }

    /// The element `place` designates (a scalar place).
    pub(super) fn read_whole(&mut self, place: &MemPlace, span: Span) -> Result<(Term, CType)> {
        if place.depth != place.memory.dims.len() {
            return Err(self.unsupported(span, "an array used as a value here"));
        }
        let at = self.element_offset(place);
        let v = (self.cfa.terms).mk(Op::Select, &[place.memory.var, at]);
        Ok((v, place.memory.element))
    }

    /// Writes `v` (already of the element type) to the element `place`.
    pub(super) fn write_whole(&mut self, place: &MemPlace, v: Term, span: Span) -> Result<()> {
        if place.depth != place.memory.dims.len() {
            return Err(self.unsupported(span, "assigning a scalar to an array"));
        }
        let at = self.element_offset(place);
        let var = place.memory.var;
        let stored = self.cfa.terms.mk(Op::Store, &[var, at, v]);
        self.emit(Command::Assign(var, stored), span);
        Ok(())
    }

    /// A pointer to the first element of a subarray kept whole, as `*p`
    /// reads it: index 0 in the next dimension.
    pub(super) fn first_element(&mut self, place: &MemPlace) -> Place {
        let memory = place.memory.clone();
        let Some(dim) = memory.dims.get(place.depth) else {
            return memory_place(memory, place.depth, place.offset);
        };
        let size = self.dim_size(dim);
        let offset = self.cfa.terms.mk(Op::BvMul, &[place.offset, size]);
        memory_place(memory, place.depth + 1, offset)
    }
}

/// The place `depth` indices into an array kept whole designate, its first
/// element at row-major `offset` over the dimensions indexed.
fn memory_place(memory: Rc<Memory>, depth: usize, offset: Term) -> Place {
    // A variable-length subarray's type has no constant size: messages
    // and `sizeof` see an array of none.
    let layout = (memory.layout_at(depth))
        .unwrap_or_else(|| Layout::Array(Rc::new(Layout::Scalar(memory.element)), 0));
    Place {
        leaves: Vec::new().into(),
        layout,
        at: Vec::new(),
        memory: Some(MemPlace {
            memory,
            depth,
            offset,
        }),
        heap: None,
    }
}
