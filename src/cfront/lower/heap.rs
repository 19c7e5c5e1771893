//! The heap: objects that `malloc` and `calloc` allocate, pointers to
//! them, and the regions that hold their contents.
//!
//! A pointer is 64 bits whatever the data model: the object's number in
//! the low 32, the byte offset into it in the high 32 (so that a pointer
//! converted to a narrower integer keeps what tells it from NULL, object
//! 0). Memory is split by type, after Burstall and Bornat ("Proving pointer
//! programs in Hoare logic", MPC 2000): every scalar leaf of a pointee type
//! has one SMT array over pointers (`heap.<type>.<leaf>`), so that a write
//! through one type never changes what another type reads. That is sound
//! only while no object is read at a type it was not given: every object
//! carries one (`heap.objects`: live bit, type number, size in bytes),
//! given when a `void *` to it first becomes a typed pointer, and every
//! dereference checks that the object is live, of the pointer's type, and
//! large enough at that offset. A failed check is undefined behaviour; the
//! path ends at the error location with the undefined-behaviour flag set,
//! so that such a trace is answered `unknown`, never `false`.
//!
//! Objects are never reused (their numbers count up from 1; `free` clears
//! the live bit), so a fresh object's cells were never written: the
//! regions start arbitrary and a `malloc`ed object holds arbitrary values.
//! Allocation never fails, as SV-COMP's rules define `malloc` and
//! `alloca`: its tasks dereference what `malloc` returns unchecked and
//! expect `valid-memsafety` to hold.

use super::layout::{Layout, Record};
use super::place::Place;
use super::*;
use std::rc::Rc;

/// What a pointer points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Pointee {
    Void,
    /// An integer type, or a pointer type (all pointers share one region).
    Scalar(CType),
    /// A struct type, resolved when it is used (a struct may point to itself).
    Struct(TagKey),
    /// A function type: such a pointer is stored, copied and compared, but
    /// a call through it is refused.
    Function,
}

/// The heap's variables.
pub(super) struct Heap {
    /// The next object's number (32 bits; 0 once they are used up).
    next: Term,
    /// Per object (32-bit number): live bit 63, type number bits 62..32 (0:
    /// not given yet), size in bytes bits 31..0.
    objects: Term,
    /// The regions of each type number: one array per scalar leaf.
    regions: HashMap<u32, Rc<[Term]>>,
    /// Under memory safety, the number of live objects (32 bits).
    pub(super) live: Option<Term>,
}

/// The type number of the object a pointer to pointers points into.
const ANY_POINTER: CType = CType {
    width: 64,
    signed: false,
    boolean: false,
    pointee: Some(u32::MAX),
};

fn bv(terms: &mut crate::ir::term::Terms, value: u64, width: u32) -> Term {
    Numbers { int: false }.constant(terms, value as i128, CType::int(width, false))
}

/// What `heap.objects` holds for one object.
struct Meta {
    word: Term,
    /// Whether it is live (Bool).
    live: Term,
    /// Its type number (31 bits, 0: none yet).
    given: Term,
    /// Its size in bytes (32 bits).
    room: Term,
}

impl Meta {
    fn of(terms: &mut crate::ir::term::Terms, objects: Term, object: Term) -> Meta {
        let word = terms.mk(Op::Select, &[objects, object]);
        let bit = terms.mk(Op::Extract(63, 63), &[word]);
        let yes = bv(terms, 1, 1);
        Meta {
            word,
            live: terms.eq(bit, yes),
            given: terms.mk(Op::Extract(62, 32), &[word]),
            room: terms.mk(Op::Extract(31, 0), &[word]),
        }
    }
}

/// `k * size` (`up`) or the exact quotient `k / size` of a signed 64-bit
/// `k`: a shift where the size is a power of two, so that no multiplier or
/// divider circuit is built.
fn scaled(terms: &mut crate::ir::term::Terms, k: Term, size: u64, up: bool) -> Term {
    if size.is_power_of_two() {
        let by = bv(terms, size.trailing_zeros() as u64, 64);
        return terms.mk(if up { Op::BvShl } else { Op::BvAshr }, &[k, by]);
    }
    let size = bv(terms, size, 64);
    terms.mk(if up { Op::BvMul } else { Op::BvSdiv }, &[k, size])
}

impl<'a> Lowerer<'a> {
    /// The pointer type to `pointee`.
    pub(super) fn pointer_to(&self, pointee: Pointee) -> CType {
        let mut table = self.pointees.borrow_mut();
        let k = match table.iter().position(|p| *p == pointee) {
            Some(k) => k,
            None => {
                table.push(pointee);
                table.len() - 1
            }
        };
        CType::pointer(k as u32)
    }

    /// What a pointer of type `ty` points to.
    pub(super) fn pointee_of(&self, ty: CType) -> Pointee {
        let k = ty.pointee.expect("a pointer type") as usize;
        self.pointees.borrow()[k].clone()
    }

    /// The pointee that `layout` is (a struct by its key).
    pub(super) fn pointee_for(&self, layout: &Layout, span: Span) -> Result<Pointee> {
        match layout {
            Layout::Scalar(ty) => Ok(Pointee::Scalar(*ty)),
            Layout::Struct(r) => match self.record_keys.get(&Rc::as_ptr(r)) {
                Some(key) => Ok(Pointee::Struct(key.clone())),
                None => Err(self.unsupported(span, "a pointer to this struct type")),
            },
            Layout::Array(..) => Err(self.unsupported(span, "pointers to arrays")),
        }
    }

    /// The type of what a pointer of type `ty` points to (None: `void`).
    pub(super) fn pointee_layout(&self, ty: CType, span: Span) -> Result<Option<Layout>> {
        match self.pointee_of(ty) {
            Pointee::Void => Ok(None),
            Pointee::Function => Err(self.unsupported(span, "function pointers (used)")),
            Pointee::Scalar(t) => Ok(Some(Layout::Scalar(t))),
            Pointee::Struct(key) => match self.records.get(&key) {
                Some(Ok(r)) => Ok(Some(Layout::Struct(r.clone()))),
                Some(Err(e)) => Err(e.clone()),
                None => Err(self.unsupported(span, "a pointer to an incomplete struct")),
            },
        }
    }

    /// The heap, created at its first use.
    fn heap(&mut self, span: Span) -> Result<&mut Heap> {
        if self.num.int {
            return Err(self.unsupported(span, "pointers to the heap under --int"));
        }
        if self.heap.is_none() {
            let next = self.cfa.terms.var("heap.next", Sort::BitVec(32));
            let sort = Sort::array(Sort::BitVec(32), Sort::BitVec(64));
            let objects = self.cfa.terms.var("heap.objects", sort);
            self.cfa.vars.extend([next, objects]);
            let live = (self.options.property == Spec::MemSafety).then(|| {
                let live = self.cfa.terms.var("heap.live", Sort::BitVec(32));
                self.cfa.vars.push(live);
                live
            });
            self.heap = Some(Heap {
                next,
                objects,
                regions: HashMap::new(),
                live,
            });
        }
        Ok(self.heap.as_mut().expect("created"))
    }

    /// The commands that start the heap empty (prepended to the program).
    pub(super) fn heap_start(&mut self) -> Option<Command> {
        let heap = self.heap.as_ref()?;
        let (next, objects, live) = (heap.next, heap.objects, heap.live);
        let one = bv(&mut self.cfa.terms, 1, 32);
        let zero = bv(&mut self.cfa.terms, 0, 64);
        let sort = Sort::array(Sort::BitVec(32), Sort::BitVec(64));
        let none = self.cfa.terms.mk(Op::ConstArray(sort), &[zero]);
        let mut start = Command::Assign(next, one).then(Command::Assign(objects, none));
        if let Some(live) = live {
            let zero = bv(&mut self.cfa.terms, 0, 32);
            start = start.then(Command::Assign(live, zero));
        }
        Some(start)
    }

    /// The type number of objects of `layout` (1 and up).
    fn kind(&self, layout: &Layout, span: Span) -> Result<u32> {
        let p = match self.pointee_for(layout, span)? {
            Pointee::Scalar(t) if t.is_pointer() => Pointee::Scalar(ANY_POINTER),
            p => p,
        };
        let k = self.pointer_to(p).pointee.expect("a pointer");
        if k >= (1 << 30) - 1 {
            return Err(self.unsupported(span, "this many pointer types"));
        }
        Ok(k + 1)
    }

    /// The region arrays of objects of `layout`, one per scalar leaf.
    fn region(&mut self, layout: &Layout, span: Span) -> Result<Rc<[Term]>> {
        let kind = self.kind(layout, span)?;
        if let Some(r) = self.heap(span)?.regions.get(&kind) {
            return Ok(r.clone());
        }
        let mut types = Vec::new();
        layout.leaf_types(&mut types);
        let mut names = Vec::new();
        let base = match layout {
            Layout::Struct(r) => format!("heap.{}", r.tag),
            _ => format!("heap.{kind}"),
        };
        layout.leaf_names(&base, &mut names);
        let mut leaves = Vec::new();
        for (ty, name) in types.into_iter().zip(names) {
            let sort = Sort::array(Sort::BitVec(64), self.num.sort(ty));
            self.fresh += 1;
            let var = (self.cfa.terms).var(&format!("{name}#{}", self.fresh), sort);
            self.cfa.vars.push(var);
            self.element_types.insert(var, ty);
            leaves.push(var);
        }
        let mut paths = Vec::new();
        layout.leaf_names("", &mut paths);
        self.views.insert(
            kind - 1,
            paths.into_iter().zip(leaves.iter().copied()).collect(),
        );
        let leaves: Rc<[Term]> = leaves.into();
        self.heap(span)?.regions.insert(kind, leaves.clone());
        Ok(leaves)
    }

    /// The object number and the byte offset of a pointer.
    fn split(&mut self, p: Term) -> (Term, Term) {
        let terms = &mut self.cfa.terms;
        (
            terms.mk(Op::Extract(31, 0), &[p]),
            terms.mk(Op::Extract(63, 32), &[p]),
        )
    }

    /// The bytes of an object of `layout`.
    fn bytes(&self, layout: &Layout) -> u64 {
        layout.size_align(self.options.lp64).0 as u64
    }

    /// The place `*p` for a pointer `p` of type `ty`, after the check that
    /// it points to a live object of its type with room at its offset.
    pub(super) fn heap_place(&mut self, p: Term, ty: CType, span: Span) -> Result<Place> {
        let Some(layout) = self.pointee_layout(ty, span)? else {
            return Err(self.unsupported(span, "dereferencing a `void *`"));
        };
        let kind = self.kind(&layout, span)?;
        let leaves = self.region(&layout, span)?;
        let objects = self.heap(span)?.objects;
        let size = self.bytes(&layout).max(1);
        let (object, offset) = self.split(p);
        let terms = &mut self.cfa.terms;
        let meta = Meta::of(terms, objects, object);
        let (is_live, given, room) = (meta.live, meta.given, meta.room);
        let kind_bv = bv(terms, kind as u64, 31);
        let typed = terms.eq(given, kind_bv);
        // offset + size <= room, in 64 bits; the offset a multiple of the size.
        let wide_offset = terms.mk(Op::ZeroExtend(32), &[offset]);
        let wide_room = terms.mk(Op::ZeroExtend(32), &[room]);
        let size_bv = bv(terms, size.max(1), 64);
        let end = terms.mk(Op::BvAdd, &[wide_offset, size_bv]);
        let fits = terms.mk(Op::BvUle, &[end, wide_room]);
        // A power of two needs its low bits clear; other sizes a remainder
        // (on the 32-bit offset, a smaller divider).
        let aligned = if size.is_power_of_two() {
            match size.trailing_zeros() {
                0 => terms.bool(true),
                k => {
                    let low = terms.mk(Op::Extract(k - 1, 0), &[offset]);
                    let zero = bv(terms, 0, k);
                    terms.eq(low, zero)
                }
            }
        } else {
            let size32 = bv(terms, size, 32);
            let rem = terms.mk(Op::BvUrem, &[offset, size32]);
            let zero = bv(terms, 0, 32);
            terms.eq(rem, zero)
        };
        // A live object read at another type, or misaligned, is undefined
        // behaviour of its own (the regions' separation rests on it), not
        // an invalid dereference: checked first, so that a dereference
        // past either is a fault of the object or its bounds only.
        let fine = terms.and_all(&[typed, aligned]);
        let dead = terms.not(is_live);
        let fine = terms.or_all(&[dead, fine]);
        self.undefined_unless(fine, None, span);
        let terms = &mut self.cfa.terms;
        let ok = terms.and_all(&[is_live, fits]);
        self.undefined_unless(ok, Some(Fault::Deref), span);
        let yes = self.cfa.terms.bool(true);
        Ok(Place {
            leaves,
            layout,
            at: vec![(yes, 0)],
            memory: None,
            index: Some(p),
        })
    }

    /// `p + k` for a pointer `p` of type `ty` and an integer `k` (of type
    /// `kty`): the offset moves by `k` objects of the pointee's size. An
    /// offset outside 0 .. 2^32 - 1 is undefined behaviour.
    pub(super) fn pointer_add(
        &mut self,
        p: Term,
        ty: CType,
        k: (Term, CType),
        span: Span,
    ) -> Result<Term> {
        let Some(layout) = self.pointee_layout(ty, span)? else {
            return Err(self.unsupported(span, "arithmetic on a `void *`"));
        };
        if k.1.is_pointer() {
            return Err(self.unsupported(span, "adding two pointers"));
        }
        let size = self.bytes(&layout).max(1);
        let wide = CType::int(64, true);
        let k64 = self.num.convert(&mut self.cfa.terms, k.0, k.1, wide);
        let (object, offset) = self.split(p);
        let terms = &mut self.cfa.terms;
        let delta = scaled(terms, k64, size, true);
        let wide_offset = terms.mk(Op::ZeroExtend(32), &[offset]);
        let moved = terms.mk(Op::BvAdd, &[wide_offset, delta]);
        // |k| < 2^32 and size < 2^31 keep the product exact.
        let limit = bv(terms, 1 << 32, 64);
        let neg_limit = terms.mk(Op::BvNeg, &[limit]);
        let k_above = terms.mk(Op::BvSlt, &[neg_limit, k64]);
        let k_below = terms.mk(Op::BvSlt, &[k64, limit]);
        let zero = bv(terms, 0, 64);
        let nonneg = terms.mk(Op::BvSle, &[zero, moved]);
        let below = terms.mk(Op::BvSlt, &[moved, limit]);
        let ok = terms.and_all(&[k_above, k_below, nonneg, below]);
        self.defined_only_if(ok, span);
        let terms = &mut self.cfa.terms;
        let new_offset = terms.mk(Op::Extract(31, 0), &[moved]);
        Ok(terms.mk(Op::Concat, &[new_offset, object]))
    }

    /// `p - q` for pointers of the same type: the distance in objects of
    /// the pointee's size (a `ptrdiff_t`). Pointers into different objects
    /// make it undefined behaviour.
    pub(super) fn pointer_difference(
        &mut self,
        p: Term,
        q: Term,
        ty: CType,
        span: Span,
    ) -> Result<(Term, CType)> {
        let Some(layout) = self.pointee_layout(ty, span)? else {
            return Err(self.unsupported(span, "arithmetic on a `void *`"));
        };
        let size = self.bytes(&layout).max(1);
        let (po, pf) = self.split(p);
        let (qo, qf) = self.split(q);
        let terms = &mut self.cfa.terms;
        let same = terms.eq(po, qo);
        self.defined_only_if(same, span);
        let terms = &mut self.cfa.terms;
        let pf = terms.mk(Op::ZeroExtend(32), &[pf]);
        let qf = terms.mk(Op::ZeroExtend(32), &[qf]);
        let bytes = terms.mk(Op::BvSub, &[pf, qf]);
        let d = scaled(terms, bytes, size, false);
        let ptrdiff = CType::int(if self.options.lp64 { 64 } else { 32 }, true);
        let wide = CType::int(64, true);
        Ok((
            self.num.convert(&mut self.cfa.terms, d, wide, ptrdiff),
            ptrdiff,
        ))
    }

    /// `value` of type `from` converted to `to` where one of them is a
    /// pointer: NULL from the constant 0; a `void *` made a typed pointer
    /// gives an object without a type the pointee's; a pointer to an
    /// integer only where it is NULL as a constant. Other conversions are
    /// refused.
    pub(super) fn convert_value(
        &mut self,
        value: Term,
        from: CType,
        to: CType,
        span: Span,
    ) -> Result<Term> {
        if !from.is_pointer() && !to.is_pointer() {
            return Ok(self.num.convert(&mut self.cfa.terms, value, from, to));
        }
        let constant = self.constant_value(value, from);
        if !from.is_pointer() {
            if constant == Some(0) {
                return Ok(bv(&mut self.cfa.terms, 0, 64));
            }
            return Err(self.unsupported(span, "an integer converted to a pointer"));
        }
        if !to.is_pointer() {
            if to.boolean {
                return Ok(self.num.convert(&mut self.cfa.terms, value, from, to));
            }
            if constant == Some(0) {
                return Ok(self.num.constant(&mut self.cfa.terms, 0, to));
            }
            return Err(self.unsupported(span, "a pointer converted to an integer"));
        }
        let (source, target) = (self.pointee_of(from), self.pointee_of(to));
        if source == target || target == Pointee::Void || constant == Some(0) {
            return Ok(value);
        }
        if source != Pointee::Void {
            let what = "a conversion between pointers to different types";
            return Err(self.unsupported(span, what));
        }
        let Some(layout) = self.pointee_layout(to, span)? else {
            return Ok(value);
        };
        let kind = self.kind(&layout, span)?;
        let objects = self.heap(span)?.objects;
        let (object, _) = self.split(value);
        let terms = &mut self.cfa.terms;
        let meta = Meta::of(terms, objects, object);
        let none = bv(terms, 0, 31);
        let untyped = terms.eq(meta.given, none);
        let meta = meta.word;
        let kind_bits = bv(terms, (kind as u64) << 32, 64);
        let typed_meta = terms.mk(Op::BvOr, &[meta, kind_bits]);
        let stored = terms.mk(Op::Store, &[objects, object, typed_meta]);
        let mut cond = vec![untyped];
        cond.extend(self.guards.iter().copied());
        let cond = self.cfa.terms.and_all(&cond);
        let new = self.cfa.terms.mk(Op::Ite, &[cond, stored, objects]);
        self.emit(Command::Assign(objects, new), span);
        Ok(value)
    }

    /// `malloc(bytes)` (`calloc` when `zeroed`): a new object of that many
    /// bytes and no type yet. `calloc`'s zeros are written when
    /// the result is given a type at once (a constant count of at most
    /// [`CALLOC_ELEMENTS`] objects); otherwise it is refused.
    pub(super) fn allocate(
        &mut self,
        bytes: (Term, CType),
        zeroed: Option<&Layout>,
        span: Span,
    ) -> Result<(Term, CType)> {
        let (next, objects, counted) = {
            let h = self.heap(span)?;
            (h.next, h.objects, h.live)
        };
        let wide = CType::int(64, false);
        let n = self
            .num
            .convert(&mut self.cfa.terms, bytes.0, bytes.1, wide);
        let terms = &mut self.cfa.terms;
        let zero32 = bv(terms, 0, 32);
        let used_up = terms.eq(next, zero32);
        let most = bv(terms, (1 << 31) - 1, 64);
        let too_big = terms.mk(Op::BvUgt, &[n, most]);
        let no = terms.or_all(&[used_up, too_big]);
        let ok = terms.not(no);
        // Allocation succeeds (SV-COMP's rule); an object the encoding
        // cannot number or size ends the path with no verdict.
        self.undefined_unless(ok, None, span);
        let terms = &mut self.cfa.terms;
        let size = terms.mk(Op::Extract(31, 0), &[n]);
        let live = bv(terms, 1 << 31, 32);
        let mut high = live;
        if let Some(layout) = zeroed {
            let kind = self.kind(layout, span)? as u64;
            let terms = &mut self.cfa.terms;
            let k = bv(terms, kind, 32);
            high = terms.mk(Op::BvOr, &[live, k]);
        }
        let terms = &mut self.cfa.terms;
        let meta = terms.mk(Op::Concat, &[high, size]);
        let new_objects = terms.mk(Op::Store, &[objects, next, meta]);
        let one = bv(terms, 1, 32);
        let bumped = terms.mk(Op::BvAdd, &[next, one]);
        let value = terms.mk(Op::Concat, &[zero32, next]);
        let void = self.pointer_to(Pointee::Void);
        let result = self.new_var("malloc", void);
        // The commands run one after the other: the zeros are written
        // while `next` still names the new object.
        let mut commands = vec![Command::Assign(result, value)];
        if let Some(layout) = zeroed {
            let Some(count) = self.constant_value(n, wide) else {
                return Err(self.unsupported(span, "calloc of a size that is not a constant"));
            };
            let size = self.bytes(layout).max(1) as i128;
            let elements = count / size;
            if elements > CALLOC_ELEMENTS {
                return Err(self.unsupported(span, "calloc of this many objects"));
            }
            let leaves = self.region(layout, span)?;
            let mut types = Vec::new();
            layout.leaf_types(&mut types);
            for e in 0..elements {
                let terms = &mut self.cfa.terms;
                let at = bv(terms, ((e * size) as u64) << 32, 64);
                let address = terms.mk(Op::BvOr, &[value, at]);
                for (leaf, ty) in leaves.iter().zip(&types) {
                    let zero = self.num.constant(&mut self.cfa.terms, 0, *ty);
                    let stored = (self.cfa.terms).mk(Op::Store, &[*leaf, address, zero]);
                    commands.push(Command::Assign(*leaf, stored));
                }
            }
        }
        commands.push(Command::Assign(objects, new_objects));
        commands.push(Command::Assign(next, bumped));
        if let Some(count) = counted {
            let terms = &mut self.cfa.terms;
            let one = bv(terms, 1, 32);
            let more = terms.mk(Op::BvAdd, &[count, one]);
            commands.push(Command::Assign(count, more));
        }
        self.emit(Command::Seq(commands), span);
        Ok((result, void))
    }

    /// `free(p)`: NULL does nothing; otherwise `p` must point to the start
    /// of a live object (else undefined behaviour), which dies.
    pub(super) fn free(&mut self, p: (Term, CType), span: Span) -> Result<()> {
        if !p.1.is_pointer() {
            if self.constant_value(p.0, p.1) == Some(0) {
                return Ok(());
            }
            return Err(self.unsupported(span, "free of an integer"));
        }
        let (objects, live) = {
            let h = self.heap(span)?;
            (h.objects, h.live)
        };
        let (object, offset) = self.split(p.0);
        let terms = &mut self.cfa.terms;
        let null = bv(terms, 0, 64);
        let is_null = terms.eq(p.0, null);
        let meta = Meta::of(terms, objects, object);
        let is_live = meta.live;
        let meta = meta.word;
        let zero32 = bv(terms, 0, 32);
        let at_start = terms.eq(offset, zero32);
        let freeable = terms.and_all(&[is_live, at_start]);
        let ok = terms.or_all(&[is_null, freeable]);
        self.undefined_unless(ok, Some(Fault::Free), span);
        let terms = &mut self.cfa.terms;
        let dead_bits = bv(terms, !(1u64 << 63), 64);
        let dead = terms.mk(Op::BvAnd, &[meta, dead_bits]);
        let stored = terms.mk(Op::Store, &[objects, object, dead]);
        let new = terms.mk(Op::Ite, &[is_null, objects, stored]);
        let mut command = Command::Assign(objects, new);
        if let Some(live) = live {
            let one = bv(terms, 1, 32);
            let fewer = terms.mk(Op::BvSub, &[live, one]);
            let new = terms.mk(Op::Ite, &[is_null, live, fewer]);
            command = command.then(Command::Assign(live, new));
        }
        self.emit(command, span);
        Ok(())
    }

    /// Under memory safety, the checks of valid-memtrack, added once the
    /// program is lowered: objects still live where `main` returns are lost
    /// (its locals are gone) unless a global may point to them; where
    /// `abort` or `exit` ends the execution, and at the head of every
    /// cycle of the automaton (so that an execution that runs forever is
    /// checked too), objects still live may be reachable or lost, which
    /// the count of live objects cannot tell: such a trace is no verdict.
    /// So the property is proved only where no object is live at any of
    /// these points; a lost object stays live for ever, so none is lost.
    pub(super) fn track_memory(&mut self) {
        let Some(live) = self.heap.as_ref().and_then(|h| h.live) else {
            return;
        };
        let terms = &mut self.cfa.terms;
        let zero = bv(terms, 0, 32);
        let none = terms.eq(live, zero);
        let some = terms.not(none);
        let lost = if self.globals_hold_pointers() {
            self.undefined_flag()
        } else {
            self.fault_flag(Fault::Memtrack)
        };
        let unclear = self.undefined_flag();
        let done = self.cfa.add_location("done");
        let mut checks = vec![(self.sink, lost), (self.halt, unclear)];
        checks.extend(cycle_heads(&self.cfa).into_iter().map(|l| (l, unclear)));
        let set = self.cfa.terms.bool(true);
        for (at, flag) in checks {
            let trap = Command::Assume(some).then(Command::Assign(flag, set));
            self.cfa.add_edge(at, trap, self.cfa.error);
        }
        for end in [self.sink, self.halt] {
            self.cfa.add_edge(end, Command::Assume(none), done);
        }
    }

    /// Whether a global variable or a `static` local has a pointer among
    /// its scalars.
    fn globals_hold_pointers(&self) -> bool {
        let statics = self.statics.values().flatten().map(|(_, b)| b);
        self.scopes[0].values().chain(statics).any(|b| match b {
            Binding::Scalar(_, ty) => ty.is_pointer(),
            Binding::Object(_, layout) => {
                let mut types = Vec::new();
                layout.leaf_types(&mut types);
                types.iter().any(|t| t.is_pointer())
            }
            Binding::Memory(m) => {
                let mut types = Vec::new();
                m.element.leaf_types(&mut types);
                types.iter().any(|t| t.is_pointer())
            }
            Binding::Pointer | Binding::Alias(_) => true,
            Binding::Constant(_) => false,
        })
    }

    /// The type of a pointer declared with `levels` stars over `specs`.
    pub(super) fn pointer_type(
        &self,
        specs: &[&TypeSpecifier],
        levels: usize,
        span: Span,
    ) -> Result<CType> {
        if self.num.int {
            return Err(self.unsupported(span, "pointers under --int"));
        }
        let tag = specs.iter().find_map(|s| match s {
            TypeSpecifier::Struct(st) if st.node.declarations.is_none() => {
                st.node.identifier.as_ref().map(|id| id.node.name.clone())
            }
            TypeSpecifier::TypedefName(n) => self.typedef_tags.get(&n.node.name).cloned(),
            _ => None,
        });
        let function = specs.iter().any(|s| {
            matches!(s, TypeSpecifier::TypedefName(n) if self.function_typedefs.contains(&n.node.name))
        });
        let mut pointee = match tag {
            _ if function => Pointee::Function,
            Some(tag) => Pointee::Struct(TagKey::Tag(tag)),
            None => match self.base_layout(specs, span)? {
                None => Pointee::Void,
                Some(layout) => self.pointee_for(&layout, span)?,
            },
        };
        for _ in 1..levels {
            pointee = Pointee::Scalar(self.pointer_to(pointee));
        }
        Ok(self.pointer_to(pointee))
    }

    /// The struct types by the key a pointer names them with.
    pub(super) fn note_record(&mut self, record: &Rc<Record>, key: TagKey) {
        self.record_keys.entry(Rc::as_ptr(record)).or_insert(key);
    }
}

/// The most objects `calloc` writes zeros into one by one.
const CALLOC_ELEMENTS: i128 = 64;

/// Locations that every cycle of `cfa` reachable from its start passes
/// through: the targets of the back edges of a depth-first search.
fn cycle_heads(cfa: &Cfa) -> Vec<Loc> {
    let n = cfa.labels.len();
    let mut out: Vec<Vec<Loc>> = vec![Vec::new(); n];
    for e in &cfa.edges {
        out[e.from.0 as usize].push(e.to);
    }
    // 0: not seen, 1: on the search's path, 2: done.
    let mut state = vec![0u8; n];
    let mut heads = Vec::new();
    let mut stack = vec![(cfa.init, 0usize)];
    state[cfa.init.0 as usize] = 1;
    while let Some((at, next)) = stack.pop() {
        let Some(&to) = out[at.0 as usize].get(next) else {
            state[at.0 as usize] = 2;
            continue;
        };
        stack.push((at, next + 1));
        match state[to.0 as usize] {
            0 => {
                state[to.0 as usize] = 1;
                stack.push((to, 0));
            }
            1 => heads.push(to),
            _ => {}
        }
    }
    heads.sort();
    heads.dedup();
    heads
}
