//! Arrays kept whole: an array with more scalars than the scalarizer
//! takes ([`MAX_ARRAY_ELEMENTS`]), or of a size known only at run time (a
//! variable-length array, C11 6.7.6.2p4), is one program variable of SMT
//! sort `(Array (_ BitVec 32) E)` per scalar leaf of its element type, over
//! the elements in row-major order: an array of structs is a struct of
//! arrays, one per field. An element is read by `select` and written by
//! `store` on each array; the SMT layer decides such arrays by lemmas on
//! demand (`smt::arrays`), so their cost is what the program reads, not
//! their size.
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
    /// Whether an object of `layout` is kept whole: an array of scalars or
    /// structs with more scalars than the scalarizer takes. Returns the
    /// element type and the sizes.
    pub(super) fn kept_whole(layout: &Layout) -> Option<(Layout, Vec<usize>)> {
        let mut dims = Vec::new();
        let mut at = layout;
        while let Layout::Array(element, n) = at {
            dims.push(*n);
            at = element;
        }
        let elements = dims.iter().try_fold(1usize, |n, d| n.checked_mul(*d))?;
        let fits = elements < (1 << 31) && at.leaves() > 0;
        let large = layout.leaves() > MAX_ARRAY_ELEMENTS;
        (!dims.is_empty() && fits && large).then(|| (at.clone(), dims))
    }

    fn array_sort(&self, element: CType) -> Sort {
        Sort::array(Sort::BitVec(32), self.num.sort(element))
    }

    /// The arrays of a new array kept whole, one per leaf of `element`
    /// (`a[].x` for a struct's field `x`).
    fn whole_arrays(&mut self, name: &str, element: &Layout) -> Rc<[Term]> {
        let mut types = Vec::new();
        element.leaf_types(&mut types);
        let mut names = Vec::new();
        match element {
            Layout::Scalar(_) => names.push(name.to_string()),
            _ => element.leaf_names(&format!("{name}[]"), &mut names),
        }
        let mut vars = Vec::with_capacity(types.len());
        for (ty, leaf) in types.into_iter().zip(names) {
            self.fresh += 1;
            let var = (self.cfa.terms).var(&format!("{leaf}#{}", self.fresh), self.array_sort(ty));
            self.cfa.vars.push(var);
            self.element_types.insert(var, ty);
            vars.push(var);
        }
        vars.into()
    }

    /// Each of `vars` as the constant zero array.
    fn zero_arrays(&mut self, vars: &[Term]) -> Vec<Command> {
        (vars.iter())
            .map(|&var| {
                let element = self.element_types[&var];
                Command::Assign(var, self.zero_array(element))
            })
            .collect()
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
        let vars = self.whole_arrays(name, &element);
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
                commands.extend(self.zero_arrays(&vars));
                // Leaf k of the whole object is leaf k % L of element k / L.
                let mut wholes = vars.to_vec();
                for (k, v) in values.into_iter().enumerate() {
                    if let Some(v) = v {
                        let at = self.index_constant(k / vars.len());
                        let leaf = &mut wholes[k % vars.len()];
                        *leaf = self.cfa.terms.mk(Op::Store, &[*leaf, at, v]);
                    }
                }
                for (&var, whole) in vars.iter().zip(wholes) {
                    if whole != var {
                        commands.push(Command::Assign(var, whole));
                    }
                }
            }
            Some((i, Initializer::Expression(_))) => {
                let what = format!("{} initialised by this expression", layout.describe());
                return Err(self.unsupported(i.span, what));
            }
            None if zero => commands.extend(self.zero_arrays(&vars)),
            None => commands.extend(vars.iter().map(|&v| Command::Havoc(v))),
        }
        self.emit(Command::Seq(commands), span);
        let dims = dims.into_iter().map(Dim::Const).collect();
        Ok(Binding::Memory(Rc::new(Memory {
            vars,
            element,
            dims,
        })))
    }

    /// Declares a variable-length array over `element` (a scalar or a
    /// struct) whose sizes are the expressions `sizes` (constants or not),
    /// indeterminate as a local is.
    pub(super) fn declare_variable_length(
        &mut self,
        name: &str,
        element: Layout,
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
        let vars = self.whole_arrays(name, &element);
        let havoc = vars.iter().map(|&v| Command::Havoc(v)).collect();
        self.emit(Command::Seq(havoc), span);
        Ok(Binding::Memory(Rc::new(Memory {
            vars,
            element,
            dims,
        })))
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

    /// The index `i` (a 32-bit number of an array kept whole, or a
    /// pointer) copied into a variable of its own, unless constant.
    pub(super) fn fixed_index(&mut self, i: Term, span: Span) -> Term {
        let &Sort::BitVec(width) = self.cfa.terms.sort(i) else {
            unreachable!("indices are bit-vectors")
        };
        self.stabilize((i, CType::int(width, false)), span).0
    }

    /// The place of a whole array named by its variable.
    pub(super) fn whole_place(&mut self, memory: &Rc<Memory>) -> Place {
        let offset = self.index_constant(0);
        self.memory_place(memory.clone(), 0, offset)
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
        Ok(self.memory_place(memory, array.depth + 1, offset))
    }

    /// A pointer to the first element of a subarray kept whole, as `*p`
    /// reads it: index 0 in the next dimension.
    pub(super) fn first_element(&mut self, place: &MemPlace) -> Place {
        let memory = place.memory.clone();
        let Some(dim) = memory.dims.get(place.depth) else {
            return self.memory_place(memory, place.depth, place.offset);
        };
        let size = self.dim_size(dim);
        let offset = self.cfa.terms.mk(Op::BvMul, &[place.offset, size]);
        self.memory_place(memory, place.depth + 1, offset)
    }

    /// The place `depth` indices into an array kept whole designate, its
    /// first element at row-major `offset` over the dimensions indexed: a
    /// subarray, or (indexed in every dimension) the element whose leaves
    /// the arrays hold at `offset`.
    fn memory_place(&mut self, memory: Rc<Memory>, depth: usize, offset: Term) -> Place {
        if depth == memory.dims.len() {
            let yes = self.cfa.terms.bool(true);
            return Place {
                leaves: memory.vars.clone(),
                layout: memory.element.clone(),
                at: vec![(yes, 0)],
                memory: None,
                index: Some(offset),
            };
        }
        // A variable-length subarray's type has no constant size: messages
        // and `sizeof` see an array of none.
        let layout = (memory.layout_at(depth))
            .unwrap_or_else(|| Layout::Array(Rc::new(memory.element.clone()), 0));
        Place {
            leaves: Vec::new().into(),
            layout,
            at: Vec::new(),
            memory: Some(MemPlace {
                memory,
                depth,
                offset,
            }),
            index: None,
        }
    }
}
