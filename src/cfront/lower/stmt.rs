//! Statements: control flow to locations and edges of the automaton, and
//! conditions to branches.

use super::*;

impl<'a> Lowerer<'a> {
    /// Creates the locations of the labels in a function body, so that gotos
    /// may jump forward.
    pub(super) fn collect_labels(&mut self, s: &'a Node<Statement>) {
        let mut stack = vec![s];
        while let Some(s) = stack.pop() {
            match &s.node {
                Statement::Labeled(l) => {
                    if let Label::Identifier(id) = &l.node.label.node {
                        let loc = self.new_loc(l.span);
                        self.frames
                            .last_mut()
                            .expect("frame")
                            .labels
                            .insert(id.node.name.clone(), loc);
                    }
                    stack.push(&l.node.statement);
                }
                Statement::Compound(items) => {
                    for i in items {
                        if let BlockItem::Statement(st) = &i.node {
                            stack.push(st);
                        }
                    }
                }
                Statement::If(i) => {
                    stack.push(&i.node.then_statement);
                    if let Some(e) = &i.node.else_statement {
                        stack.push(e);
                    }
                }
                Statement::While(w) => stack.push(&w.node.statement),
                Statement::DoWhile(d) => stack.push(&d.node.statement),
                Statement::For(f) => stack.push(&f.node.statement),
                Statement::Switch(sw) => stack.push(&sw.node.statement),
                _ => {}
            }
        }
    }

    pub(super) fn statement(&mut self, s: &'a Node<Statement>) -> Result<()> {
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::Statement(st) => self.statement(st)?,
                        BlockItem::StaticAssert(_) => {
                            return Err(self.unsupported(item.span, "_Static_assert"))
                        }
                    }
                }
                self.scopes.pop();
                Ok(())
            }
            Statement::Expression(e) => {
                if let Some(e) = e {
                    if !self.dropped_pointer_assignment(e)? {
                        self.expr(e)?;
                    }
                }
                Ok(())
            }
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(id) => {
                    let target = self.frames.last().expect("frame").labels[&id.node.name];
                    self.go_to(target);
                    self.statement(&l.node.statement)
                }
                Label::Case(_) | Label::CaseRange(_) | Label::Default => {
                    let Some(&target) = (self.switches.last()).and_then(|s| s.get(&l.span.start))
                    else {
                        return Err(FrontError::Syntax(format!(
                            "{}: a case label outside a switch",
                            self.line(l.span)
                        )));
                    };
                    self.go_to(target);
                    self.statement(&l.node.statement)
                }
            },
            Statement::Goto(id) => {
                let Some(&target) = self.frames.last().expect("frame").labels.get(&id.node.name)
                else {
                    return Err(self.unsupported(
                        id.span,
                        format!("goto to unknown label `{}`", id.node.name),
                    ));
                };
                self.jump_away(target, s.span);
                Ok(())
            }
            Statement::If(i) => {
                let [then_l, else_l, join] = self.new_locs(s.span);
                self.branch(&i.node.condition, then_l, else_l)?;
                self.cur = then_l;
                self.statement(&i.node.then_statement)?;
                self.jump(self.cur, join);
                self.cur = else_l;
                if let Some(e) = &i.node.else_statement {
                    self.statement(e)?;
                }
                self.go_to(join);
                Ok(())
            }
            Statement::While(w) => {
                let [head, body, exit] = self.new_locs(s.span);
                self.go_to(head);
                self.loop_head(head, s.span);
                self.branch(&w.node.expression, body, exit)?;
                self.cur = body;
                self.loop_body(&w.node.statement, exit, head)?;
                self.cur = exit;
                Ok(())
            }
            Statement::DoWhile(d) => {
                let [body, test, exit] = self.new_locs(s.span);
                self.go_to(body);
                self.loop_body(&d.node.statement, exit, test)?;
                self.cur = test;
                self.branch(&d.node.expression, body, exit)?;
                self.cur = exit;
                Ok(())
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                match &f.node.initializer.node {
                    ForInitializer::Empty => {}
                    ForInitializer::Expression(e) => {
                        self.expr(e)?;
                    }
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                    ForInitializer::StaticAssert(_) => {
                        return Err(self.unsupported(s.span, "_Static_assert"))
                    }
                }
                let [head, body, step, exit] = self.new_locs(s.span);
                self.go_to(head);
                self.loop_head(head, s.span);
                match &f.node.condition {
                    Some(c) => self.branch(c, body, exit)?,
                    None => self.jump(head, body),
                }
                self.cur = body;
                self.loop_body(&f.node.statement, exit, step)?;
                self.cur = step;
                if let Some(e) = &f.node.step {
                    self.expr(e)?;
                }
                self.jump(self.cur, head);
                self.cur = exit;
                self.scopes.pop();
                Ok(())
            }
            Statement::Break => {
                let Some(&(exit, _)) = self.loops.last() else {
                    return Err(FrontError::Syntax(format!(
                        "{}: `break` outside a loop or switch",
                        self.line(s.span)
                    )));
                };
                self.jump_away(exit, s.span);
                Ok(())
            }
            Statement::Continue => {
                let Some(next) = self.loops.iter().rev().find_map(|l| l.1) else {
                    return Err(FrontError::Syntax(format!(
                        "{}: `continue` outside a loop",
                        self.line(s.span)
                    )));
                };
                self.jump_away(next, s.span);
                Ok(())
            }
            Statement::Return(e) => {
                if let Some(e) = e {
                    if self.tail_call(e, s.span)? {
                        return Ok(());
                    }
                    self.tail_entry = matches!(e.node, Expression::Call(_));
                }
                let frame = self.frames.last().expect("frame");
                let wanted = frame.wanted.or(frame.ret.map(|r| r.1));
                let value = match e {
                    Some(e) => {
                        let value = self.expr_for(e, wanted);
                        // Consumed by the call's inlining; never by a later call.
                        self.tail_entry = false;
                        Some(value?)
                    }
                    None => None,
                };
                let frame = self.frames.last().expect("frame");
                let (exit, ret, is_main) = (frame.exit, frame.ret, frame.is_main);
                if is_main {
                    let sink = self.sink;
                    self.jump_away(sink, s.span);
                    return Ok(());
                }
                if let (Some((var, ty)), Some((v, from))) = (ret, value) {
                    let v = self.convert_value(v, from, ty, s.span)?;
                    self.emit(Command::Assign(var, v), s.span);
                }
                self.jump_away(exit, s.span);
                Ok(())
            }
            Statement::Switch(sw) => self.switch(sw, s.span),
            Statement::Asm(_) => Err(self.unsupported(s.span, "inline assembly")),
        }
    }

    /// Branches on a condition with C's short-circuit evaluation.
    pub(super) fn branch(&mut self, e: &'a Node<Expression>, t: Loc, f: Loc) -> Result<()> {
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                self.branch_logical(b, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.branch(&u.node.operand, f, t)
            }
            _ => {
                let (v, ty) = self.expr(e)?;
                let yes = self.num.truth(&mut self.cfa.terms, v, ty);
                let no = self.cfa.terms.not(yes);
                self.cfa.add_edge(self.cur, Command::Assume(yes), t);
                self.cfa.add_edge(self.cur, Command::Assume(no), f);
                Ok(())
            }
        }
    }

    /// Branches on `a && b` or `a || b`, evaluating `b` only when needed.
    pub(super) fn branch_logical(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        t: Loc,
        f: Loc,
    ) -> Result<()> {
        let mid = self.new_loc(b.span);
        if b.node.operator.node == BinaryOperator::LogicalAnd {
            self.branch(&b.node.lhs, mid, f)?;
        } else {
            self.branch(&b.node.lhs, t, mid)?;
        }
        self.cur = mid;
        self.branch(&b.node.rhs, t, f)
    }
}
