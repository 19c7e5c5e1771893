//! `switch` (C11 6.8.4.2): the controlling value, promoted, is compared
//! with each case's constant (gcc's `case lo ... hi` ranges too) and control
//! jumps to the matching label, else to `default`, else past the body; the
//! body runs on from there (fall-through) until a `break`.

use super::*;

/// What a case label of one switch matches.
enum Case<'a> {
    Values(&'a Node<Expression>, Option<&'a Node<Expression>>),
    Default,
}

impl<'a> Lowerer<'a> {
    pub(super) fn switch(&mut self, sw: &'a Node<SwitchStatement>, span: Span) -> Result<()> {
        let (v, ty) = self.expr(&sw.node.expression)?;
        let p = ty.promoted();
        let v = self.num.convert(&mut self.cfa.terms, v, ty, p);
        let mut labels = Vec::new();
        collect_cases(&sw.node.statement, &mut labels);
        let exit = self.new_loc(span);
        let mut targets = HashMap::new();
        let mut matched: Vec<Term> = Vec::new();
        let mut ranges: Vec<(i128, i128, Span)> = Vec::new();
        let mut default = None;
        for (at, case) in labels {
            let loc = self.new_loc(at);
            targets.insert(at.start, loc);
            let (lo, hi) = match case {
                Case::Default => {
                    if default.replace(loc).is_some() {
                        return Err(FrontError::Syntax(format!(
                            "{}: a second `default` in one switch",
                            self.line(at)
                        )));
                    }
                    continue;
                }
                Case::Values(lo, hi) => (lo, hi),
            };
            let lo = self.case_value(lo, p)?;
            let hi = match hi {
                Some(hi) => self.case_value(hi, p)?,
                None => lo,
            };
            if let Some(&(_, _, other)) = ranges.iter().find(|r| r.0 <= hi && lo <= r.1) {
                return Err(FrontError::Syntax(format!(
                    "{}: a case value already taken at {}",
                    self.line(at),
                    self.line(other)
                )));
            }
            ranges.push((lo, hi, at));
            let here = if lo > hi {
                self.cfa.terms.bool(false) // gcc: an empty range matches nothing
            } else if lo == hi {
                let c = self.num.constant(&mut self.cfa.terms, lo, p);
                self.cfa.terms.eq(v, c)
            } else {
                let (lo, hi) = (
                    self.num.constant(&mut self.cfa.terms, lo, p),
                    self.num.constant(&mut self.cfa.terms, hi, p),
                );
                let le = match (self.num.int, p.signed) {
                    (true, _) => Op::Le,
                    (false, true) => Op::BvSle,
                    (false, false) => Op::BvUle,
                };
                let above = self.cfa.terms.mk(le.clone(), &[lo, v]);
                let below = self.cfa.terms.mk(le, &[v, hi]);
                self.cfa.terms.mk(Op::And, &[above, below])
            };
            self.cfa.add_edge(self.cur, Command::Assume(here), loc);
            matched.push(here);
        }
        let any = self.cfa.terms.or_all(&matched);
        let none = self.cfa.terms.not(any);
        self.cfa
            .add_edge(self.cur, Command::Assume(none), default.unwrap_or(exit));
        // Statements before the first label run only when jumped to.
        self.cur = self.new_loc(span);
        self.switches.push(targets);
        self.loops.push((exit, None));
        let body = self.statement(&sw.node.statement);
        self.loops.pop();
        self.switches.pop();
        body?;
        self.go_to(exit);
        Ok(())
    }

    /// A case label's value, an integer constant expression converted to
    /// the promoted type of the controlling expression (C11 6.8.4.2p5).
    fn case_value(&mut self, e: &'a Node<Expression>, p: CType) -> Result<i128> {
        let not_constant = FrontError::Syntax(format!(
            "{}: a case label that is not an integer constant expression",
            self.line(e.span)
        ));
        if has_side_effects(&e.node) || may_branch(&e.node) {
            return Err(not_constant);
        }
        let (v, ty) = self.expr(e)?;
        let v = self.num.convert(&mut self.cfa.terms, v, ty, p);
        self.constant_value(v, p).ok_or(not_constant)
    }
}

/// The case labels of a switch body in the order of the text, but not
/// those of switches nested in it.
fn collect_cases<'a>(s: &'a Node<Statement>, out: &mut Vec<(Span, Case<'a>)>) {
    match &s.node {
        Statement::Labeled(l) => {
            match &l.node.label.node {
                Label::Case(e) => out.push((l.span, Case::Values(e, None))),
                Label::CaseRange(r) => {
                    out.push((l.span, Case::Values(&r.node.low, Some(&r.node.high))))
                }
                Label::Default => out.push((l.span, Case::Default)),
                Label::Identifier(_) => {}
            }
            collect_cases(&l.node.statement, out);
        }
        Statement::Compound(items) => {
            for i in items {
                if let BlockItem::Statement(st) = &i.node {
                    collect_cases(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement, out),
        Statement::DoWhile(d) => collect_cases(&d.node.statement, out),
        Statement::For(f) => collect_cases(&f.node.statement, out),
        _ => {}
    }
}
