/*
 * test_omp_directive.c -- unit tests of the OpenMP directive parser
 * (instrumenter/omp_directive.h).
 *
 *   test_omp_directive           the table-driven cases
 *   test_omp_directive --fuzz N  N random and mutated inputs (default 200000):
 *                                parsing must not crash, and every result
 *                                must be self-consistent
 *
 * Every parse result is rendered as one line (see render()) that names each
 * span by its text, so the expected values below are exact substrings.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_directive.h"

/* ------------------------------------------------------------------ */
/* Rendering and checking                                              */

struct buf {
  char *p;
  size_t n, size;
};

static void put(struct buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->p + b->n, b->size - b->n, fmt, ap);
  va_end(ap);
  if (k > 0)
    b->n += (size_t)k < b->size - b->n ? (size_t)k : b->size - b->n - 1;
}

static void put_span(struct buf *b, const char *t, struct omp_span s) {
  put(b, "'%.*s'", (int)(s.end - s.begin), t + s.begin);
}

/* "<kind> '<name>'[ crit='<name>'] | <clause kind> '<name>'[ args='...']
 *  [ mod='...'][ items='a','b'][ n=<n_items>] | ..." */
static void render(const char *t, const struct omp_directive *d, char *out,
                   size_t size) {
  struct buf b = {out, 0, size};
  out[0] = '\0';
  put(&b, "%s ", omp_directive_kind_name(d->kind));
  put_span(&b, t, d->name);
  if (d->has_critical_name) {
    put(&b, " crit=");
    put_span(&b, t, d->critical_name);
  }
  for (size_t i = 0; i < d->n_clauses; i++) {
    const struct omp_clause *c = &d->clauses[i];
    put(&b, " | %s ", omp_clause_kind_name(c->kind));
    put_span(&b, t, c->name);
    if (c->has_args) {
      put(&b, " args=");
      put_span(&b, t, c->args);
    }
    if (c->modifier.end > c->modifier.begin) {
      put(&b, " mod=");
      put_span(&b, t, c->modifier);
    }
    for (size_t j = 0; j < c->n_items && j < OMP_MAX_ITEMS; j++) {
      put(&b, j == 0 ? " items=" : ",");
      put_span(&b, t, c->items[j]);
    }
    if (c->n_items > OMP_MAX_ITEMS)
      put(&b, " n=%zu", c->n_items);
  }
}

/* The test's state: the failure count and a result buffer (a struct
 * omp_directive is large). */
struct tstate {
  int failures;
  struct omp_directive d;
};

static void failf(struct tstate *T, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  T->failures++;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

static int span_ok(struct omp_span s, size_t len) {
  return s.begin <= s.end && s.end <= len;
}

static int trimmed(const char *t, struct omp_span s) {
  return s.begin == s.end || (!is_blank(t[s.begin]) && !is_blank(t[s.end - 1]));
}

/* Properties every successful parse has; returns a description of the
 * first one violated, or NULL. */
static const char *inconsistency(const char *t, size_t len,
                                 const struct omp_directive *d) {
  if ((unsigned)d->kind >= OMP_DIR_COUNT)
    return "bad directive kind";
  if (!span_ok(d->name, len) || d->name.begin == d->name.end)
    return "bad directive name span";
  if (!trimmed(t, d->name))
    return "directive name not trimmed";
  if (d->kind != OMP_DIR_UNKNOWN) {
    const char *k = omp_directive_kind_name(d->kind);
    if (strncmp(k, t + d->name.begin, strcspn(k, " ")) != 0)
      return "directive name does not start with its kind";
  }
  if (d->n_clauses > OMP_MAX_CLAUSES)
    return "too many clauses";
  size_t pos = d->name.end;
  if (d->has_critical_name) {
    if (d->kind != OMP_DIR_CRITICAL)
      return "critical name on another directive";
    if (!span_ok(d->critical_name, len) || d->critical_name.begin < pos)
      return "bad critical name span";
    if (!trimmed(t, d->critical_name))
      return "critical name not trimmed";
    pos = d->critical_name.end;
  }
  for (size_t i = 0; i < d->n_clauses; i++) {
    const struct omp_clause *c = &d->clauses[i];
    if ((unsigned)c->kind >= OMP_CLAUSE_COUNT)
      return "bad clause kind";
    if (!span_ok(c->whole, len) || c->whole.begin < pos)
      return "clause out of order";
    if (c->kind == OMP_CLAUSE_DIRECTIVE_ARG) {
      if (i != 0 || !c->has_args || c->name.begin != c->name.end ||
          c->name.begin != c->whole.begin || t[c->whole.begin] != '(')
        return "bad directive argument";
    } else {
      if (c->name.begin != c->whole.begin || c->name.end <= c->name.begin)
        return "clause name does not start the clause";
      const char *k = omp_clause_kind_name(c->kind);
      size_t n = c->name.end - c->name.begin;
      if (c->kind != OMP_CLAUSE_OTHER &&
          (strlen(k) != n || memcmp(k, t + c->name.begin, n) != 0))
        return "clause kind does not match its name";
      if (c->kind == OMP_CLAUSE_OTHER) {
        for (int j = 1; j < OMP_CLAUSE_COUNT; j++) {
          k = omp_clause_kind_name((enum omp_clause_kind)j);
          if (strlen(k) == n && memcmp(k, t + c->name.begin, n) == 0)
            return "known clause name parsed as OTHER";
        }
      }
    }
    if (!c->has_args) {
      if (c->whole.end != c->name.end || c->n_items != 0 ||
          c->modifier.begin != c->modifier.end)
        return "bare clause with arguments";
    } else {
      if (c->whole.end == 0 || t[c->whole.end - 1] != ')')
        return "clause does not end in ')'";
      if (c->args.begin < c->name.end || c->args.end >= c->whole.end ||
          c->args.begin > c->args.end)
        return "args outside the clause";
      if (!trimmed(t, c->args))
        return "args not trimmed";
      if (c->modifier.begin < c->args.begin || c->modifier.end > c->args.end ||
          c->modifier.begin > c->modifier.end)
        return "modifier outside args";
      if (!trimmed(t, c->modifier))
        return "modifier not trimmed";
      size_t ipos = c->modifier.end;
      for (size_t j = 0; j < c->n_items && j < OMP_MAX_ITEMS; j++) {
        struct omp_span s = c->items[j];
        if (s.begin < ipos || s.end > c->whole.end - 1 || s.begin > s.end)
          return "items out of order or outside args";
        if (!trimmed(t, s))
          return "item not trimmed";
        ipos = s.end;
      }
    }
    pos = c->whole.end;
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */

struct ok_case {
  const char *text;
  const char *expect;
};

static const struct ok_case ok_cases[] = {
    /* The seed directives and their clauses. */
    {"parallel", "parallel 'parallel'"},
    {"parallel if(n > 1) num_threads(4) default(shared) private(a) "
     "firstprivate(b) shared(c) copyin(t) proc_bind(close) "
     "reduction(+: s)",
     "parallel 'parallel' | if 'if' args='n > 1' items='n > 1' | num_threads "
     "'num_threads' args='4' items='4' | default 'default' args='shared' "
     "items='shared' | private 'private' args='a' items='a' | firstprivate "
     "'firstprivate' args='b' items='b' | shared 'shared' args='c' "
     "items='c' | copyin 'copyin' args='t' items='t' | proc_bind "
     "'proc_bind' args='close' items='close' | reduction 'reduction' "
     "args='+: s' mod='+' items='s'"},
    {"for schedule(static, 4) lastprivate(i) ordered collapse(2) nowait "
     "linear(j: 2) order(concurrent)",
     "for 'for' | schedule 'schedule' args='static, 4' items='static','4' | "
     "lastprivate 'lastprivate' args='i' items='i' | ordered 'ordered' | "
     "collapse 'collapse' args='2' items='2' | nowait 'nowait' | linear "
     "'linear' args='j: 2' mod='j' items='2' | order 'order' "
     "args='concurrent' items='concurrent'"},
    {"parallel for private(a, b) reduction(+: a, b)",
     "parallel for 'parallel for' | private 'private' args='a, b' "
     "items='a','b' | reduction 'reduction' args='+: a, b' mod='+' "
     "items='a','b'"},
    {"sections nowait", "sections 'sections' | nowait 'nowait'"},
    {"parallel sections firstprivate(x)",
     "parallel sections 'parallel sections' | firstprivate 'firstprivate' "
     "args='x' items='x'"},
    {"section", "section 'section'"},
    {"single copyprivate(a,b)",
     "single 'single' | copyprivate 'copyprivate' args='a,b' items='a','b'"},
    {"master", "master 'master'"},
    {"barrier", "barrier 'barrier'"},

    /* critical and its name. */
    {"critical", "critical 'critical'"},
    {"critical (lock1)", "critical 'critical' crit='lock1'"},
    {"critical(lock1)", "critical 'critical' crit='lock1'"},
    {"critical ( lock1 ) hint(omp_sync_hint_contended)",
     "critical 'critical' crit='lock1' | hint 'hint' "
     "args='omp_sync_hint_contended' items='omp_sync_hint_contended'"},
    {"critical hint(3)", "critical 'critical' | hint 'hint' args='3' "
                         "items='3'"},
    {"critical()", "critical 'critical' crit=''"},

    /* Longest match of the leading words. */
    {"for ordered", "for 'for' | ordered 'ordered'"},
    {"for ordered(2)", "for 'for' | ordered 'ordered' args='2' items='2'"},
    {"parallel for ordered", "parallel for 'parallel for' | ordered 'ordered'"},
    {"for simd safelen(8)",
     "for simd 'for simd' | safelen 'safelen' args='8' items='8'"},
    {"parallel for simd", "parallel for simd 'parallel for simd'"},
    {"ordered simd", "ordered 'ordered' | simd 'simd'"},
    {"ordered threads", "ordered 'ordered' | threads 'threads'"},
    {"ordered depend(sink: i - 1, j)",
     "ordered 'ordered' | depend 'depend' args='sink: i - 1, j' mod='sink' "
     "items='i - 1','j'"},
    {"target teams distribute parallel for simd map(tofrom: x)",
     "target teams distribute parallel for simd 'target teams distribute "
     "parallel for simd' | map 'map' args='tofrom: x' mod='tofrom' "
     "items='x'"},
    {"target teams distribute parallel for",
     "target teams distribute parallel for 'target teams distribute parallel "
     "for'"},
    {"target teams distribute parallel nowait",
     "target teams distribute 'target teams distribute' | parallel "
     "'parallel' | nowait 'nowait'"},
    {"target enter data map(to: a[0:n]) nowait",
     "target enter data 'target enter data' | map 'map' args='to: a[0:n]' "
     "mod='to' items='a[0:n]' | nowait 'nowait'"},
    {"target update from(x)",
     "target update 'target update' | from 'from' args='x' items='x'"},
    {"parallel for(x)", "parallel 'parallel' | for 'for' args='x' "
                        "items='x'"},
    {"atomic read", "atomic 'atomic' | read 'read'"},
    {"atomic compare capture seq_cst",
     "atomic 'atomic' | compare 'compare' | capture 'capture' | seq_cst "
     "'seq_cst'"},
    {"masked filter(1)",
     "masked 'masked' | filter 'filter' args='1' items='1'"},
    {"parallel master taskloop simd grainsize(strict: 4)",
     "parallel master taskloop simd 'parallel master taskloop simd' | "
     "grainsize 'grainsize' args='strict: 4' mod='strict' items='4'"},
    {"taskloop num_tasks(8) nogroup",
     "taskloop 'taskloop' | num_tasks 'num_tasks' args='8' items='8' | "
     "nogroup 'nogroup'"},
    {"task untied mergeable final(d > 8) priority(2) "
     "depend(inout: x) detach(ev) affinity(a[0:4]) in_reduction(+: s)",
     "task 'task' | untied 'untied' | mergeable 'mergeable' | final 'final' "
     "args='d > 8' items='d > 8' | priority 'priority' args='2' items='2' | "
     "depend 'depend' args='inout: x' mod='inout' items='x' | detach "
     "'detach' args='ev' items='ev' | affinity 'affinity' args='a[0:4]' "
     "items='a[0:4]' | in_reduction 'in_reduction' args='+: s' mod='+' "
     "items='s'"},
    {"taskgroup task_reduction(*: p)",
     "taskgroup 'taskgroup' | task_reduction 'task_reduction' args='*: p' "
     "mod='*' items='p'"},
    {"taskwait depend(in: a) nowait",
     "taskwait 'taskwait' | depend 'depend' args='in: a' mod='in' items='a' "
     "| nowait 'nowait'"},
    {"scope private(t) reduction(max: m)",
     "scope 'scope' | private 'private' args='t' items='t' | reduction "
     "'reduction' args='max: m' mod='max' items='m'"},
    {"loop bind(thread)",
     "loop 'loop' | bind 'bind' args='thread' items='thread'"},
    {"teams num_teams(4) thread_limit(64)",
     "teams 'teams' | num_teams 'num_teams' args='4' items='4' | "
     "thread_limit 'thread_limit' args='64' items='64'"},
    {"distribute dist_schedule(static, 16)",
     "distribute 'distribute' | dist_schedule 'dist_schedule' "
     "args='static, 16' items='static','16'"},
    {"simd aligned(p: 64) nontemporal(q) simdlen(4)",
     "simd 'simd' | aligned 'aligned' args='p: 64' mod='p' items='64' | "
     "nontemporal 'nontemporal' args='q' items='q' | simdlen 'simdlen' "
     "args='4' items='4'"},
    {"declare simd uniform(p) inbranch",
     "declare simd 'declare simd' | uniform 'uniform' args='p' items='p' | "
     "inbranch 'inbranch'"},
    {"requires unified_shared_memory atomic_default_mem_order(seq_cst)",
     "requires 'requires' | unified_shared_memory 'unified_shared_memory' | "
     "atomic_default_mem_order 'atomic_default_mem_order' args='seq_cst' "
     "items='seq_cst'"},
    {"error at(execution) severity(warning) message(\"a, b: \\\"c\\\")\")",
     "error 'error' | at 'at' args='execution' items='execution' | severity "
     "'severity' args='warning' items='warning' | message 'message' "
     "args='\"a, b: \\\"c\\\")\"' items='\"a, b: \\\"c\\\")\"'"},
    {"scan inclusive(s)",
     "scan 'scan' | inclusive 'inclusive' args='s' items='s'"},
    {"unroll partial(4)",
     "unroll 'unroll' | partial 'partial' args='4' items='4'"},
    {"tile sizes(4, 8)", "tile 'tile' | sizes 'sizes' args='4, 8' "
                         "items='4','8'"},

    /* Cancellation: the construct type is a clause. */
    {"cancel parallel", "cancel 'cancel' | parallel 'parallel'"},
    {"cancel for if(cancel: done)",
     "cancel 'cancel' | for 'for' | if 'if' args='cancel: done' "
     "mod='cancel' items='done'"},
    {"cancel sections", "cancel 'cancel' | sections 'sections'"},
    {"cancel taskgroup", "cancel 'cancel' | taskgroup 'taskgroup'"},
    {"cancellation point for",
     "cancellation point 'cancellation point' | for 'for'"},
    {"cancellation   point\ttaskgroup",
     "cancellation point 'cancellation   point' | taskgroup 'taskgroup'"},

    /* Directive arguments. */
    {"flush", "flush 'flush'"},
    {"flush(a,b)", "flush 'flush' | (argument) '' args='a,b' items='a','b'"},
    {"flush (a, b[2])",
     "flush 'flush' | (argument) '' args='a, b[2]' items='a','b[2]'"},
    {"flush acq_rel", "flush 'flush' | acq_rel 'acq_rel'"},
    {"threadprivate(x, y)",
     "threadprivate 'threadprivate' | (argument) '' args='x, y' "
     "items='x','y'"},
    {"declare reduction(merge : std::vector<int> : omp_out.insert("
     "omp_out.end(), omp_in.begin(), omp_in.end())) "
     "initializer(omp_priv = omp_orig)",
     "declare reduction 'declare reduction' | (argument) '' args='merge : "
     "std::vector<int> : omp_out.insert(omp_out.end(), omp_in.begin(), "
     "omp_in.end())' mod='merge' items='std::vector<int> : "
     "omp_out.insert(omp_out.end(), omp_in.begin(), omp_in.end())' | "
     "initializer 'initializer' args='omp_priv = omp_orig' "
     "items='omp_priv = omp_orig'"},
    {"declare mapper(id: struct S s) map(s.p[0:s.n])",
     "declare mapper 'declare mapper' | (argument) '' args='id: struct S s' "
     "mod='id' items='struct S s' | map 'map' args='s.p[0:s.n]' "
     "items='s.p[0:s.n]'"},
    {"declare variant(f_gpu) match(device={arch(nvptx)})",
     "declare variant 'declare variant' | (argument) '' args='f_gpu' "
     "items='f_gpu' | match 'match' args='device={arch(nvptx)}' "
     "items='device={arch(nvptx)}'"},
    {"declare target", "declare target 'declare target'"},
    {"declare target(a, b)",
     "declare target 'declare target' | (argument) '' args='a, b' "
     "items='a','b'"},
    {"declare target enter(a) device_type(host)",
     "declare target 'declare target' | enter 'enter' args='a' items='a' | "
     "device_type 'device_type' args='host' items='host'"},
    {"begin declare target", "begin declare target 'begin declare target'"},
    {"end declare target", "end declare target 'end declare target'"},
    {"allocate(buf) allocator(omp_high_bw_mem_alloc) align(64)",
     "allocate 'allocate' | (argument) '' args='buf' items='buf' | "
     "allocator 'allocator' args='omp_high_bw_mem_alloc' "
     "items='omp_high_bw_mem_alloc' | align 'align' args='64' items='64'"},
    {"depobj(o) update(in)",
     "depobj 'depobj' | (argument) '' args='o' items='o' | update 'update' "
     "args='in' items='in'"},

    /* Clause shapes. */
    {"for schedule(monotonic: dynamic, 4)",
     "for 'for' | schedule 'schedule' args='monotonic: dynamic, 4' "
     "mod='monotonic' items='dynamic','4'"},
    {"parallel if(parallel: n > 1)",
     "parallel 'parallel' | if 'if' args='parallel: n > 1' mod='parallel' "
     "items='n > 1'"},
    {"parallel if(n > 1 ? a : b)",
     "parallel 'parallel' | if 'if' args='n > 1 ? a : b' "
     "items='n > 1 ? a : b'"},
    {"parallel if(parallel: c ? x : y)",
     "parallel 'parallel' | if 'if' args='parallel: c ? x : y' "
     "mod='parallel' items='c ? x : y'"},
    {"parallel if(a ? b ? c : d : e)",
     "parallel 'parallel' | if 'if' args='a ? b ? c : d : e' "
     "items='a ? b ? c : d : e'"},
    {"parallel num_threads((n > 4) ? 4 : n)",
     "parallel 'parallel' | num_threads 'num_threads' args='(n > 4) ? 4 : n' "
     "items='(n > 4) ? 4 : n'"},
    {"task depend(in: a[0:n])",
     "task 'task' | depend 'depend' args='in: a[0:n]' mod='in' "
     "items='a[0:n]'"},
    {"task depend(in: a[0:n], b[i:2][:m])",
     "task 'task' | depend 'depend' args='in: a[0:n], b[i:2][:m]' mod='in' "
     "items='a[0:n]','b[i:2][:m]'"},
    {"task depend(iterator(it = 0:n), in: a[it])",
     "task 'task' | depend 'depend' args='iterator(it = 0:n), in: a[it]' "
     "mod='iterator(it = 0:n), in' items='a[it]'"},
    {"target map(tofrom: x)",
     "target 'target' | map 'map' args='tofrom: x' mod='tofrom' items='x'"},
    {"target map(always, close, to: x, y[0:n])",
     "target 'target' | map 'map' args='always, close, to: x, y[0:n]' "
     "mod='always, close, to' items='x','y[0:n]'"},
    {"target map(x[:n])",
     "target 'target' | map 'map' args='x[:n]' items='x[:n]'"},
    /* Shapes the instrumenter takes apart (instr_rewrite.c). */
    {"error at(execution) severity(warning) message(\"a: b\")",
     "error 'error' | at 'at' args='execution' items='execution' | "
     "severity 'severity' args='warning' items='warning' | message 'message' "
     "args='\"a: b\"' items='\"a: b\"'"},
    {"teams num_teams(2: n + 1) thread_limit(4)",
     "teams 'teams' | num_teams 'num_teams' args='2: n + 1' mod='2' "
     "items='n + 1' | thread_limit 'thread_limit' args='4' items='4'"},
    {"target update to(present: x) from(mapper(m): y[0:n])",
     "target update 'target update' | to 'to' args='present: x' "
     "mod='present' items='x' | from 'from' args='mapper(m): y[0:n]' "
     "mod='mapper(m)' items='y[0:n]'"},
    {"masked taskloop simd filter(t) grainsize(4)",
     "masked taskloop simd 'masked taskloop simd' | filter 'filter' args='t' "
     "items='t' | grainsize 'grainsize' args='4' items='4'"},
    {"device(ancestor: 1)",
     "unknown 'device' | (argument) '' args='ancestor: 1' mod='ancestor' "
     "items='1'"},
    {"parallel reduction(inscan, +: s)",
     "parallel 'parallel' | reduction 'reduction' args='inscan, +: s' "
     "mod='inscan, +' items='s'"},
    {"parallel reduction(::ns::op: s)",
     "parallel 'parallel' | reduction 'reduction' args='::ns::op: s' "
     "mod='::ns::op' items='s'"},
    {"parallel private(ns::x, ::y)",
     "parallel 'parallel' | private 'private' args='ns::x, ::y' "
     "items='ns::x','::y'"},
    {"parallel num_threads(f(a, g(b, c)) + x[i, j] + (struct s){1, 2}.v)",
     "parallel 'parallel' | num_threads 'num_threads' args='f(a, g(b, c)) + "
     "x[i, j] + (struct s){1, 2}.v' items='f(a, g(b, c)) + x[i, j] + "
     "(struct s){1, 2}.v'"},
    {"parallel num_threads( ( ( 4 ) ) )",
     "parallel 'parallel' | num_threads 'num_threads' args='( ( 4 ) )' "
     "items='( ( 4 ) )'"},
    {"parallel shared( a ,  b  ,c )",
     "parallel 'parallel' | shared 'shared' args='a ,  b  ,c' "
     "items='a','b','c'"},
    {"parallel private (a)",
     "parallel 'parallel' | private 'private' args='a' items='a'"},
    {"parallel private(a,,b,)",
     "parallel 'parallel' | private 'private' args='a,,b,' "
     "items='a','','b',''"},
    {"parallel private()", "parallel 'parallel' | private 'private' args=''"},
    {"parallel private(  )", "parallel 'parallel' | private 'private' args=''"},
    {"parallel reduction(+:)",
     "parallel 'parallel' | reduction 'reduction' args='+:' mod='+'"},
    {"parallel foo(: x)",
     "parallel 'parallel' | other 'foo' args=': x' items='x'"},
    {"parallel if(x == 'a' || y == ':')",
     "parallel 'parallel' | if 'if' args='x == 'a' || y == ':'' "
     "items='x == 'a' || y == ':''"},
    {"parallel num_threads(1'000 + 0x1p-3 + 1e+5 + .5f)",
     "parallel 'parallel' | num_threads 'num_threads' args='1'000 + 0x1p-3 + "
     "1e+5 + .5f' items='1'000 + 0x1p-3 + 1e+5 + .5f'"},
    {"parallel num_threads(a->b >= 2 && c)",
     "parallel 'parallel' | num_threads 'num_threads' args='a->b >= 2 && c' "
     "items='a->b >= 2 && c'"},
    {"parallel private(a /* , b */, c)",
     "parallel 'parallel' | private 'private' args='a /* , b */, c' "
     "items='a','c'"},

    /* Commas, blanks, continuations. */
    {"parallel, private(a), shared(b)",
     "parallel 'parallel' | private 'private' args='a' items='a' | shared "
     "'shared' args='b' items='b'"},
    {"for nowait,ordered", "for 'for' | nowait 'nowait' | ordered 'ordered'"},
    {"  parallel   for \t simd  ",
     "parallel for simd 'parallel   for \t simd'"},
    {"parallel \\\n for", "parallel for 'parallel \\\n for'"},
    {"parallel /* c */ for", "parallel for 'parallel /* c */ for'"},
    {"parallel for // comment", "parallel for 'parallel for'"},
    {"parallel\tfor\tprivate\t(\ta\t)",
     "parallel for 'parallel\tfor' | private 'private' args='a' items='a'"},

    /* Unknown directives and clauses. */
    {"foo", "unknown 'foo'"},
    {"foo bar(x) baz",
     "unknown 'foo' | other 'bar' args='x' items='x' | other 'baz'"},
    {"frob(x, y)", "unknown 'frob' | (argument) '' args='x, y' "
                   "items='x','y'"},
    {"parallel(x)", "unknown 'parallel' | (argument) '' args='x' "
                    "items='x'"},
    {"barrier(x)", "unknown 'barrier' | (argument) '' args='x' items='x'"},
    {"workshare nowait", "unknown 'workshare' | nowait 'nowait'"},
    {"parallel ompx_attribute(__launch_bounds__(128)) frobnicate(x: 1, 2)",
     "parallel 'parallel' | other 'ompx_attribute' "
     "args='__launch_bounds__(128)' items='__launch_bounds__(128)' | other "
     "'frobnicate' args='x: 1, 2' mod='x' items='1','2'"},
    {"a b c d e f g h i j k",
     "unknown 'a' | other 'b' | other 'c' | other 'd' | other 'e' | other "
     "'f' | other 'g' | other 'h' | other 'i' | other 'j' | other 'k'"},
    {"parallel for if_(x) nowait_",
     "parallel for 'parallel for' | other 'if_' args='x' items='x' | other "
     "'nowait_'"},
    {"parallel private(gr\xc3\xb6\xc3\x9f\x65)",
     "parallel 'parallel' | private 'private' args='gr\xc3\xb6\xc3\x9f\x65' "
     "items='gr\xc3\xb6\xc3\x9f\x65'"},
    {"$x y", "unknown '$x' | other 'y'"},
};

struct err_case {
  const char *text;
  size_t offset;
  const char *message;
};

static const struct err_case err_cases[] = {
    {"", 0, "expected a directive name"},
    {"   ", 3, "expected a directive name"},
    {"/* only a comment */", 20, "expected a directive name"},
    {"4 parallel", 0, "expected a directive name, found number '4'"},
    {"(x)", 0, "expected a directive name, found '('"},
    {", parallel", 0, "expected a directive name, found ','"},
    {"parallel 4", 9, "expected a clause name, found number '4'"},
    {"parallel private(a) 12(b)", 20,
     "expected a clause name, found number '12'"},
    {"parallel \"s\"", 9, "expected a clause name, found a string literal"},
    {"parallel 'c'", 9, "expected a clause name, found a character constant"},
    {"parallel :", 9, "expected a clause name, found ':'"},
    {"parallel ::x", 9, "expected a clause name, found '::'"},
    {"parallel + x", 9, "expected a clause name, found '+'"},
    {"parallel, (x)", 10, "expected a clause name, found '('"},
    {"parallel private(a) (b)", 20, "expected a clause name, found '('"},
    {"parallel [x]", 9, "expected a clause name, found '['"},
    {"parallel private(a)(b)", 19, "expected a clause name, found '('"},
    {"parallel \x01", 9, "expected a clause name, found '\\x01'"},
    {"parallel )", 9, "unmatched ')'"},
    {"parallel ]", 9, "unmatched ']'"},
    {"parallel }", 9, "unmatched '}'"},
    {"parallel private(a))", 19, "unmatched ')'"},
    {"parallel private(a", 18, "expected ')' to close '(' opened at column 17"},
    {"parallel num_threads(f(a)", 25,
     "expected ')' to close '(' opened at column 21"},
    {"parallel if(parallel: (a > b) && (c[i]", 38,
     "expected ')' to close '(' opened at column 34"},
    {"parallel if(parallel: (a > b) && c[i]", 37,
     "expected ')' to close '(' opened at column 12"},
    {"parallel private(a]", 18,
     "expected ')' to close '(' opened at column 17, found ']'"},
    {"task depend(in: a[0:n)", 21,
     "expected ']' to close '[' opened at column 18, found ')'"},
    {"task depend(in: a[0:n}])", 21,
     "expected ']' to close '[' opened at column 18, found '}'"},
    {"target map(x[0:n) ]", 16,
     "expected ']' to close '[' opened at column 13, found ')'"},
    {"parallel private(a, \"b)", 20, "unterminated string literal"},
    {"parallel if(c == 'x)", 17, "unterminated character constant"},
    {"parallel /* private(a)", 9, "unterminated comment"},
    {"parallel \"abc", 9, "unterminated string literal"},
};

/* ------------------------------------------------------------------ */

static int run_ok_case(struct tstate *T, const struct ok_case *c, int quiet) {
  struct omp_directive *d = &T->d;
  char got[4096];
  size_t len = strlen(c->text);
  if (omp_directive_parse(c->text, len, d) != 0) {
    if (!quiet)
      failf(T, "FAIL %s\n  unexpected error at %zu: %s", c->text,
            d->error_offset, d->error);
    return 1;
  }
  const char *why = inconsistency(c->text, len, d);
  if (why) {
    if (!quiet)
      failf(T, "FAIL %s\n  inconsistent result: %s", c->text, why);
    return 1;
  }
  render(c->text, d, got, sizeof got);
  if (strcmp(got, c->expect) != 0) {
    if (!quiet)
      failf(T, "FAIL %s\n  expected: %s\n  got:      %s", c->text, c->expect,
            got);
    return 1;
  }
  return 0;
}

static void run_err_case(struct tstate *T, const struct err_case *c) {
  struct omp_directive *d = &T->d;
  if (omp_directive_parse(c->text, strlen(c->text), d) != -1) {
    failf(T, "FAIL %s\n  expected an error, parse succeeded", c->text);
    return;
  }
  if (d->error_offset != c->offset || strcmp(d->error, c->message) != 0)
    failf(T,
          "FAIL %s\n  expected error at %zu: %s\n  got      error at %zu: %s",
          c->text, c->offset, c->message, d->error_offset, d->error);
}

/* Every directive of the table, alone, with blanks, with a clause, and with
 * an argument where it takes one. */
static void test_table(struct tstate *T) {
  struct omp_directive *d = &T->d;
  char text[256], expect[512], got[1024];
  for (int k = 1; k < OMP_DIR_COUNT; k++) {
    const char *name = omp_directive_kind_name((enum omp_directive_kind)k);

    snprintf(text, sizeof text, "%s", name);
    snprintf(expect, sizeof expect, "%s '%s'", name, name);
    if (omp_directive_parse(text, strlen(text), d) != 0) {
      failf(T, "FAIL %s: %s", text, d->error);
      continue;
    }
    render(text, d, got, sizeof got);
    if (d->kind != (enum omp_directive_kind)k || strcmp(got, expect) != 0)
      failf(T, "FAIL %s\n  expected: %s\n  got:      %s", text, expect, got);

    /* Several blanks and tabs between the words, a clause after them. */
    size_t n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n, " \t");
    for (const char *p = name; *p; p++)
      n += (size_t)snprintf(text + n, sizeof text - n,
                            *p == ' ' ? " \t  " : "%c", *p);
    size_t name_end = n;
    snprintf(text + n, sizeof text - n, "  nowait private(a, b)");
    snprintf(expect, sizeof expect,
             "%s '%.*s' | nowait 'nowait' | private 'private' args='a, b' "
             "items='a','b'",
             name, (int)(name_end - 2), text + 2);
    if (omp_directive_parse(text, strlen(text), d) != 0) {
      failf(T, "FAIL %s: %s", text, d->error);
      continue;
    }
    render(text, d, got, sizeof got);
    if (d->kind != (enum omp_directive_kind)k || strcmp(got, expect) != 0)
      failf(T, "FAIL %s\n  expected: %s\n  got:      %s", text, expect, got);
    const char *why = inconsistency(text, strlen(text), d);
    if (why)
      failf(T, "FAIL %s: %s", text, why);

    /* With a parenthesised argument. */
    snprintf(text, sizeof text, "%s (x, y) nowait", name);
    if (omp_directive_parse(text, strlen(text), d) != 0) {
      failf(T, "FAIL %s: %s", text, d->error);
      continue;
    }
    why = inconsistency(text, strlen(text), d);
    if (why)
      failf(T, "FAIL %s: %s", text, why);
    if (k == OMP_DIR_CRITICAL) {
      snprintf(expect, sizeof expect,
               "critical 'critical' crit='x, y' | nowait 'nowait'");
    } else if (k == OMP_DIR_FLUSH || k == OMP_DIR_THREADPRIVATE ||
               k == OMP_DIR_ALLOCATE || k == OMP_DIR_DEPOBJ ||
               k == OMP_DIR_DECLARE_REDUCTION || k == OMP_DIR_DECLARE_MAPPER ||
               k == OMP_DIR_DECLARE_VARIANT || k == OMP_DIR_DECLARE_TARGET) {
      snprintf(expect, sizeof expect,
               "%s '%s' | (argument) '' args='x, y' items='x','y' | nowait "
               "'nowait'",
               name, name);
    } else {
      /* The last word with the argument is a clause; the rest is the
       * longest directive it leaves. */
      continue;
    }
    render(text, d, got, sizeof got);
    if (d->kind != (enum omp_directive_kind)k || strcmp(got, expect) != 0)
      failf(T, "FAIL %s\n  expected: %s\n  got:      %s", text, expect, got);
    if (k != OMP_DIR_CRITICAL &&
        (d->clauses[0].whole.begin != strlen(name) + 1 ||
         d->clauses[0].whole.end != strlen(name) + 7))
      failf(T, "FAIL %s: directive argument whole span %zu..%zu", text,
            d->clauses[0].whole.begin, d->clauses[0].whole.end);
  }

  /* Names and kinds round-trip; out-of-range kinds have a name. */
  for (int k = 0; k < OMP_CLAUSE_COUNT; k++)
    if (!omp_clause_kind_name((enum omp_clause_kind)k)[0])
      failf(T, "FAIL clause kind %d has no name", k);
  if (strcmp(omp_directive_kind_name(OMP_DIR_UNKNOWN), "unknown") != 0 ||
      strcmp(omp_directive_kind_name(OMP_DIR_COUNT), "unknown") != 0 ||
      strcmp(omp_clause_kind_name(OMP_CLAUSE_OTHER), "other") != 0 ||
      strcmp(omp_clause_kind_name(OMP_CLAUSE_COUNT), "other") != 0)
    failf(T, "FAIL names of UNKNOWN / OTHER / out-of-range kinds");
  if (OMP_DIR_UNKNOWN != 0 || OMP_CLAUSE_OTHER != 0)
    failf(T, "FAIL UNKNOWN / OTHER are not 0");
}

/* Whole spans, omp_directive_find, limits. */
static void test_details(struct tstate *T) {
  struct omp_directive *d = &T->d;
  const char *t = "parallel  for  reduction ( + : a ) nowait  if(x)";
  if (omp_directive_parse(t, strlen(t), d) != 0) {
    failf(T, "FAIL %s: %s", t, d->error);
    return;
  }
  const struct omp_clause *r = omp_directive_find(d, OMP_CLAUSE_REDUCTION);
  if (!r || r->whole.begin != 15 || r->whole.end != 34 || r->name.end != 24 ||
      r->args.begin != 27 || r->args.end != 32 || r->modifier.begin != 27 ||
      r->modifier.end != 28 || r->n_items != 1 || r->items[0].begin != 31 ||
      r->items[0].end != 32 || !r->has_args)
    failf(T, "FAIL whole/args spans of reduction in '%s'", t);
  const struct omp_clause *nw = omp_directive_find(d, OMP_CLAUSE_NOWAIT);
  if (!nw || nw->whole.begin != 35 || nw->whole.end != 41 || nw->has_args)
    failf(T, "FAIL spans of nowait in '%s'", t);
  if (omp_directive_find(d, OMP_CLAUSE_SCHEDULE) != NULL ||
      omp_directive_find(d, OMP_CLAUSE_IF) != &d->clauses[2])
    failf(T, "FAIL omp_directive_find");
  if (d->name.begin != 0 || d->name.end != 13)
    failf(T, "FAIL name span of '%s'", t);

  /* A text that is not NUL-terminated where len ends. */
  const char *u = "barrier nowait";
  if (omp_directive_parse(u, 7, d) != 0 || d->kind != OMP_DIR_BARRIER ||
      d->n_clauses != 0)
    failf(T, "FAIL len shorter than the string");
  /* An embedded NUL is an ordinary (stray) byte. */
  const char nul[] = "parallel private(a\0b)";
  if (omp_directive_parse(nul, sizeof nul - 1, d) != 0 ||
      d->clauses[0].n_items != 1 || d->clauses[0].items[0].end != 20)
    failf(T, "FAIL embedded NUL inside an argument");
  if (omp_directive_parse(nul, 9, d) != 0 || d->kind != OMP_DIR_PARALLEL)
    failf(T, "FAIL parallel + blank");
  const char nul2[] = "parallel \0";
  if (omp_directive_parse(nul2, sizeof nul2 - 1, d) != -1 ||
      d->error_offset != 9 ||
      strcmp(d->error, "expected a clause name, found '\\x00'") != 0)
    failf(T, "FAIL stray NUL: %s", d->error);

  /* 64 clauses are fine, 65 are not. */
  char big[8192];
  size_t n = (size_t)snprintf(big, sizeof big, "parallel");
  for (int i = 0; i < OMP_MAX_CLAUSES; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, " private(v%d)", i);
  if (omp_directive_parse(big, n, d) != 0 || d->n_clauses != OMP_MAX_CLAUSES)
    failf(T, "FAIL 64 clauses: %s", d->error);
  size_t at = n + 1;
  n += (size_t)snprintf(big + n, sizeof big - n, " nowait");
  if (omp_directive_parse(big, n, d) != -1 || d->error_offset != at ||
      strcmp(d->error, "too many clauses (at most 64)") != 0)
    failf(T, "FAIL 65 clauses: %zu %s", d->error_offset, d->error);
  /* ... also when the leftover words and the argument element push the
   * count over. */
  n = (size_t)snprintf(big, sizeof big, "for nowait private(a)");
  for (int i = 0; i < OMP_MAX_CLAUSES - 2; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, " shared(v%d)", i);
  if (omp_directive_parse(big, n, d) != 0 || d->n_clauses != OMP_MAX_CLAUSES)
    failf(T, "FAIL 64 clauses with leftover words: %s", d->error);
  at = n + 1;
  n += (size_t)snprintf(big + n, sizeof big - n, " x");
  if (omp_directive_parse(big, n, d) != -1 || d->error_offset != at ||
      d->n_clauses != 0 || d->kind != OMP_DIR_UNKNOWN)
    failf(T, "FAIL 65 clauses with leftover words: %zu %s", d->error_offset,
          d->error);
  n = (size_t)snprintf(big, sizeof big, "a b c d e f g h i j");
  for (int i = 0; i < OMP_MAX_CLAUSES - 9; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, " s(v%d)", i);
  if (omp_directive_parse(big, n, d) != 0 || d->n_clauses != OMP_MAX_CLAUSES)
    failf(T, "FAIL 64 clauses with 9 leftover words: %s", d->error);
  n += (size_t)snprintf(big + n, sizeof big - n, " y");
  if (omp_directive_parse(big, n, d) != -1 || d->error_offset != n - 1)
    failf(T, "FAIL 65 clauses with 9 leftover words: %zu %s", d->error_offset,
          d->error);

  /* Items beyond OMP_MAX_ITEMS are counted, not stored. */
  n = (size_t)snprintf(big, sizeof big, "parallel private(");
  for (int i = 0; i < 100; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, "%sv%d", i ? ", " : "", i);
  n += (size_t)snprintf(big + n, sizeof big - n, ")");
  if (omp_directive_parse(big, n, d) != 0 || d->clauses[0].n_items != 100 ||
      memcmp(big + d->clauses[0].items[63].begin, "v63", 3) != 0 ||
      d->clauses[0].items[63].end - d->clauses[0].items[63].begin != 3 ||
      d->clauses[0].args.end != n - 1)
    failf(T, "FAIL 100 items");

  /* Nesting: 127 brackets inside a clause are fine, deeper is an error. */
  n = (size_t)snprintf(big, sizeof big, "parallel if(");
  for (int i = 0; i < 127; i++)
    big[n++] = i % 3 == 0 ? '(' : i % 3 == 1 ? '[' : '{';
  big[n++] = 'x';
  for (int i = 126; i >= 0; i--)
    big[n++] = i % 3 == 0 ? ')' : i % 3 == 1 ? ']' : '}';
  big[n++] = ')';
  if (omp_directive_parse(big, n, d) != 0 || d->clauses[0].n_items != 1 ||
      d->clauses[0].items[0].end != n - 1)
    failf(T, "FAIL nesting 128: %s", d->error);
  n = (size_t)snprintf(big, sizeof big, "parallel if(");
  for (int i = 0; i < 1000; i++)
    big[n++] = '(';
  if (omp_directive_parse(big, n, d) != -1 || d->error_offset != 12 + 127 ||
      strcmp(d->error, "brackets nested too deeply") != 0)
    failf(T, "FAIL nesting 1000: %zu %s", d->error_offset, d->error);

  /* After an error the result is a clean failure; the struct can be used
   * again. */
  t = "parallel private(a";
  if (omp_directive_parse(t, strlen(t), d) != -1 || d->n_clauses != 0 ||
      d->kind != OMP_DIR_UNKNOWN)
    failf(T, "FAIL state after an error");
  t = "critical(a) nowait";
  if (omp_directive_parse(t, strlen(t), d) != 0 || d->error[0] != '\0' ||
      !d->has_critical_name || d->n_clauses != 1)
    failf(T, "FAIL reuse after an error");
}

/* The same cases from several threads at once, each with its own state;
 * quiet: a thread only counts the cases that differ. */
static void *thread_main(void *arg) {
  struct tstate *t = arg;
  for (int round = 0; round < 200; round++)
    for (size_t i = 0; i < sizeof ok_cases / sizeof ok_cases[0]; i++)
      t->failures += run_ok_case(t, &ok_cases[i], 1);
  return NULL;
}

static void test_threads(struct tstate *T) {
  enum { N = 4 };
  pthread_t th[N];
  struct tstate *ts = calloc(N, sizeof *ts);
  int started = 0;
  if (!ts) {
    failf(T, "FAIL out of memory");
    return;
  }
  for (; started < N; started++)
    if (pthread_create(&th[started], NULL, thread_main, &ts[started]) != 0) {
      failf(T, "FAIL pthread_create");
      break;
    }
  for (int i = 0; i < started; i++) {
    pthread_join(th[i], NULL);
    if (ts[i].failures)
      failf(T, "FAIL %d cases differ in thread %d", ts[i].failures, i);
  }
  free(ts);
}

/* ------------------------------------------------------------------ */
/* Fuzzing                                                              */

static uint64_t next_random(uint64_t *s) {
  /* xorshift64* */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void check_fuzz(struct tstate *T, const char *t, size_t len, long iter,
                       long *parsed) {
  struct omp_directive *d = &T->d;
  int rc = omp_directive_parse(t, len, d);
  if (rc == 0) {
    ++*parsed;
    const char *why = inconsistency(t, len, d);
    if (why)
      failf(T, "FAIL fuzz %ld: '%.*s': %s", iter, (int)len, t, why);
  } else if (rc != -1 || d->error_offset > len || d->error[0] == '\0' ||
             strlen(d->error) >= sizeof d->error) {
    failf(T, "FAIL fuzz %ld: '%.*s': bad error report", iter, (int)len, t);
  }
}

static long fuzz(struct tstate *T, long iterations) {
  static const char alphabet[] =
      "abfiorpx_ ,:?()[]{}\"'\\/*\n\t+-<>.0123456789$";
  static const char *const pieces[] = {
      "parallel", " for",    " simd",   "(",       ")",      "[",
      "]",        "{",       "}",       ",",       ":",      "?",
      "::",       " ",       "\t",      "\\\n",    "/*",     "*/",
      "//",       "\"",      "'",       "a",       "0x1",    "reduction",
      "critical", "flush",   "declare", " target", "cancel", "point",
      "if",       "private", "\xff",    "\x80"};
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  char t[512];
  long parsed = 0;
  for (long it = 0; it < iterations; it++) {
    uint64_t r = next_random(&seed);
    size_t len;
    switch (r % 4) {
    case 0: /* random bytes */
      len = (size_t)(next_random(&seed) % 64);
      for (size_t i = 0; i < len; i++)
        t[i] = (char)next_random(&seed);
      break;
    case 1: /* random characters that mean something */
      len = (size_t)(next_random(&seed) % 96);
      for (size_t i = 0; i < len; i++)
        t[i] = alphabet[next_random(&seed) % (sizeof alphabet - 1)];
      break;
    case 2: { /* a truncated, possibly mutated, valid directive */
      const struct ok_case *c =
          &ok_cases[next_random(&seed) %
                    (sizeof ok_cases / sizeof ok_cases[0])];
      size_t full = strlen(c->text);
      len = full ? (size_t)(next_random(&seed) % (full + 1)) : 0;
      if (len > sizeof t)
        len = sizeof t;
      memcpy(t, c->text, len);
      if (len && next_random(&seed) % 2)
        t[next_random(&seed) % len] =
            alphabet[next_random(&seed) % (sizeof alphabet - 1)];
      break;
    }
    default: /* pieces glued together */
      len = 0;
      for (int k = (int)(next_random(&seed) % 24); k > 0; k--) {
        const char *p =
            pieces[next_random(&seed) % (sizeof pieces / sizeof pieces[0])];
        size_t pl = strlen(p);
        if (len + pl > sizeof t)
          break;
        memcpy(t + len, p, pl);
        len += pl;
      }
      break;
    }
    /* Parse from a heap copy of exactly len bytes, so that ASan catches any
     * read past the end. */
    char *copy = malloc(len ? len : 1);
    if (!copy) {
      failf(T, "FAIL out of memory");
      return parsed;
    }
    memcpy(copy, t, len);
    check_fuzz(T, copy, len, it, &parsed);
    free(copy);
  }
  return parsed;
}

int main(int argc, char **argv) {
  struct tstate *T = calloc(1, sizeof *T);
  int failures;
  if (!T)
    return 1;
  if (argc >= 2 && strcmp(argv[1], "--fuzz") == 0) {
    long n = argc >= 3 ? strtol(argv[2], NULL, 10) : 200000;
    long parsed = fuzz(T, n);
    failures = T->failures;
    free(T);
    if (failures) {
      fprintf(stderr, "%d failures\n", failures);
      return 1;
    }
    printf("fuzz: %ld inputs (%ld parsed, %ld syntax errors), no failures\n", n,
           parsed, n - parsed);
    return 0;
  }

  size_t n_ok = sizeof ok_cases / sizeof ok_cases[0];
  size_t n_err = sizeof err_cases / sizeof err_cases[0];
  for (size_t i = 0; i < n_ok; i++)
    run_ok_case(T, &ok_cases[i], 0);
  for (size_t i = 0; i < n_err; i++)
    run_err_case(T, &err_cases[i]);
  test_table(T);
  test_details(T);
  test_threads(T);
  failures = T->failures;
  free(T);
  if (failures) {
    fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  printf("%zu parse cases, %zu error cases, %d directive kinds: all passed\n",
         n_ok, n_err, OMP_DIR_COUNT - 1);
  return 0;
}
