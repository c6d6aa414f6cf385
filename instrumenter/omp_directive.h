/*
 * omp_directive.h -- parse the text of one OpenMP directive (what follows
 * "#pragma omp") into its directive name and clauses.
 *
 * The parser is a reentrant flex scanner plus a bison grammar
 * (omp_clause_lexer.l, omp_clause_parser.y).  It never allocates per token
 * and keeps byte offsets into the caller's text, so that the rewriter can copy
 * every clause it does not change through byte for byte.
 *
 * Internal to instrumenter/.
 */
#ifndef POMPT_OMP_DIRECTIVE_H
#define POMPT_OMP_DIRECTIVE_H

#include <stddef.h>

/* Directive kinds (OpenMP 5.2, C/C++ forms).  Combined forms are kinds of
 * their own; the rewriter splits them.  The kind is the LONGEST entry that
 * the leading bare words of the directive spell: "parallel for simd" is one
 * kind, "for ordered" is "for" with the clause "ordered", "ordered simd" is
 * "ordered" with the clause "simd", "cancel parallel" is "cancel" with the
 * (construct-type) clause "parallel".
 *
 * Some directives take a parenthesised argument right after their name:
 * critical, flush, threadprivate, allocate, depobj, declare reduction,
 * declare mapper, declare variant, declare target.  For critical it is the
 * critical name (omp_directive.critical_name, not a clause); for the others
 * it is stored as clauses[0] of kind OMP_CLAUSE_DIRECTIVE_ARG (see there).
 * An unknown directive written with an argument ("foo(x)") gets one too. */
#define OMP_DIRECTIVE_LIST(X)                                                  \
  X(PARALLEL, "parallel")                                                      \
  X(FOR, "for")                                                                \
  X(PARALLEL_FOR, "parallel for")                                              \
  X(SECTIONS, "sections")                                                      \
  X(PARALLEL_SECTIONS, "parallel sections")                                    \
  X(SECTION, "section")                                                        \
  X(SINGLE, "single")                                                          \
  X(MASTER, "master")                                                          \
  X(CRITICAL, "critical")                                                      \
  X(BARRIER, "barrier")                                                        \
  X(FOR_SIMD, "for simd")                                                      \
  X(PARALLEL_FOR_SIMD, "parallel for simd")                                    \
  X(SIMD, "simd")                                                              \
  X(TASK, "task")                                                              \
  X(TASKWAIT, "taskwait")                                                      \
  X(TASKGROUP, "taskgroup")                                                    \
  X(TASKYIELD, "taskyield")                                                    \
  X(TASKLOOP, "taskloop")                                                      \
  X(TASKLOOP_SIMD, "taskloop simd")                                            \
  X(ATOMIC, "atomic")                                                          \
  X(FLUSH, "flush")                                                            \
  X(ORDERED, "ordered")                                                        \
  X(SCAN, "scan")                                                              \
  X(DEPOBJ, "depobj")                                                          \
  X(MASKED, "masked")                                                          \
  X(MASKED_TASKLOOP, "masked taskloop")                                        \
  X(MASKED_TASKLOOP_SIMD, "masked taskloop simd")                              \
  X(MASTER_TASKLOOP, "master taskloop")                                        \
  X(MASTER_TASKLOOP_SIMD, "master taskloop simd")                              \
  X(PARALLEL_MASKED, "parallel masked")                                        \
  X(PARALLEL_MASKED_TASKLOOP, "parallel masked taskloop")                      \
  X(PARALLEL_MASKED_TASKLOOP_SIMD, "parallel masked taskloop simd")            \
  X(PARALLEL_MASTER, "parallel master")                                        \
  X(PARALLEL_MASTER_TASKLOOP, "parallel master taskloop")                      \
  X(PARALLEL_MASTER_TASKLOOP_SIMD, "parallel master taskloop simd")            \
  X(LOOP, "loop")                                                              \
  X(PARALLEL_LOOP, "parallel loop")                                            \
  X(SCOPE, "scope")                                                            \
  X(TEAMS, "teams")                                                            \
  X(TEAMS_DISTRIBUTE, "teams distribute")                                      \
  X(TEAMS_DISTRIBUTE_SIMD, "teams distribute simd")                            \
  X(TEAMS_DISTRIBUTE_PARALLEL_FOR, "teams distribute parallel for")            \
  X(TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD, "teams distribute parallel for simd")  \
  X(TEAMS_LOOP, "teams loop")                                                  \
  X(DISTRIBUTE, "distribute")                                                  \
  X(DISTRIBUTE_SIMD, "distribute simd")                                        \
  X(DISTRIBUTE_PARALLEL_FOR, "distribute parallel for")                        \
  X(DISTRIBUTE_PARALLEL_FOR_SIMD, "distribute parallel for simd")              \
  X(TARGET, "target")                                                          \
  X(TARGET_DATA, "target data")                                                \
  X(TARGET_ENTER_DATA, "target enter data")                                    \
  X(TARGET_EXIT_DATA, "target exit data")                                      \
  X(TARGET_UPDATE, "target update")                                            \
  X(TARGET_PARALLEL, "target parallel")                                        \
  X(TARGET_PARALLEL_FOR, "target parallel for")                                \
  X(TARGET_PARALLEL_FOR_SIMD, "target parallel for simd")                      \
  X(TARGET_PARALLEL_LOOP, "target parallel loop")                              \
  X(TARGET_SIMD, "target simd")                                                \
  X(TARGET_TEAMS, "target teams")                                              \
  X(TARGET_TEAMS_DISTRIBUTE, "target teams distribute")                        \
  X(TARGET_TEAMS_DISTRIBUTE_SIMD, "target teams distribute simd")              \
  X(TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR,                                      \
    "target teams distribute parallel for")                                    \
  X(TARGET_TEAMS_DISTRIBUTE_PARALLEL_FOR_SIMD,                                 \
    "target teams distribute parallel for simd")                               \
  X(TARGET_TEAMS_LOOP, "target teams loop")                                    \
  X(CANCEL, "cancel")                                                          \
  X(CANCELLATION_POINT, "cancellation point")                                  \
  X(THREADPRIVATE, "threadprivate")                                            \
  X(DECLARE_REDUCTION, "declare reduction")                                    \
  X(DECLARE_MAPPER, "declare mapper")                                          \
  X(DECLARE_SIMD, "declare simd")                                              \
  X(DECLARE_TARGET, "declare target")                                          \
  X(BEGIN_DECLARE_TARGET, "begin declare target")                              \
  X(END_DECLARE_TARGET, "end declare target")                                  \
  X(DECLARE_VARIANT, "declare variant")                                        \
  X(BEGIN_DECLARE_VARIANT, "begin declare variant")                            \
  X(END_DECLARE_VARIANT, "end declare variant")                                \
  X(REQUIRES, "requires")                                                      \
  X(ALLOCATE, "allocate")                                                      \
  X(ERROR, "error")                                                            \
  X(NOTHING, "nothing")                                                        \
  X(ASSUME, "assume")                                                          \
  X(ASSUMES, "assumes")                                                        \
  X(BEGIN_ASSUMES, "begin assumes")                                            \
  X(END_ASSUMES, "end assumes")                                                \
  X(METADIRECTIVE, "metadirective")                                            \
  X(BEGIN_METADIRECTIVE, "begin metadirective")                                \
  X(END_METADIRECTIVE, "end metadirective")                                    \
  X(DISPATCH, "dispatch")                                                      \
  X(INTEROP, "interop")                                                        \
  X(TILE, "tile")                                                              \
  X(UNROLL, "unroll")

enum omp_directive_kind {
  OMP_DIR_UNKNOWN = 0, /* anything the table does not know: pass through */
#define X(id, text) OMP_DIR_##id,
  OMP_DIRECTIVE_LIST(X)
#undef X
      OMP_DIR_COUNT
};

/* Clause kinds.  "parallel", "for", "sections" and "taskgroup" are the
 * construct-type clauses of cancel / cancellation point.  The last entry,
 * DIRECTIVE_ARG, is no clause of the language: it holds the argument of a
 * directive such as flush(a, b) or threadprivate(x): name is an empty span at
 * the '(', whole is "(a, b)", args/modifier/items as for any clause.  Its text
 * "(argument)" never matches a clause name. */
#define OMP_CLAUSE_LIST(X)                                                     \
  X(IF, "if")                                                                  \
  X(NUM_THREADS, "num_threads")                                                \
  X(DEFAULT, "default")                                                        \
  X(PRIVATE, "private")                                                        \
  X(FIRSTPRIVATE, "firstprivate")                                              \
  X(LASTPRIVATE, "lastprivate")                                                \
  X(SHARED, "shared")                                                          \
  X(REDUCTION, "reduction")                                                    \
  X(COPYIN, "copyin")                                                          \
  X(COPYPRIVATE, "copyprivate")                                                \
  X(SCHEDULE, "schedule")                                                      \
  X(ORDERED, "ordered")                                                        \
  X(NOWAIT, "nowait")                                                          \
  X(COLLAPSE, "collapse")                                                      \
  X(PROC_BIND, "proc_bind")                                                    \
  X(LINEAR, "linear")                                                          \
  X(ALLOCATE, "allocate")                                                      \
  X(ORDER, "order")                                                            \
  X(HINT, "hint")                                                              \
  X(IN_REDUCTION, "in_reduction")                                              \
  X(TASK_REDUCTION, "task_reduction")                                          \
  X(UNTIED, "untied")                                                          \
  X(MERGEABLE, "mergeable")                                                    \
  X(FINAL, "final")                                                            \
  X(PRIORITY, "priority")                                                      \
  X(DEPEND, "depend")                                                          \
  X(DETACH, "detach")                                                          \
  X(AFFINITY, "affinity")                                                      \
  X(GRAINSIZE, "grainsize")                                                    \
  X(NUM_TASKS, "num_tasks")                                                    \
  X(NOGROUP, "nogroup")                                                        \
  X(SAFELEN, "safelen")                                                        \
  X(SIMDLEN, "simdlen")                                                        \
  X(ALIGNED, "aligned")                                                        \
  X(NONTEMPORAL, "nontemporal")                                                \
  X(UNIFORM, "uniform")                                                        \
  X(INBRANCH, "inbranch")                                                      \
  X(NOTINBRANCH, "notinbranch")                                                \
  X(DEVICE, "device")                                                          \
  X(MAP, "map")                                                                \
  X(IS_DEVICE_PTR, "is_device_ptr")                                            \
  X(USE_DEVICE_PTR, "use_device_ptr")                                          \
  X(USE_DEVICE_ADDR, "use_device_addr")                                        \
  X(HAS_DEVICE_ADDR, "has_device_addr")                                        \
  X(DEFAULTMAP, "defaultmap")                                                  \
  X(TO, "to")                                                                  \
  X(FROM, "from")                                                              \
  X(LINK, "link")                                                              \
  X(ENTER, "enter")                                                            \
  X(DEVICE_TYPE, "device_type")                                                \
  X(INDIRECT, "indirect")                                                      \
  X(NUM_TEAMS, "num_teams")                                                    \
  X(THREAD_LIMIT, "thread_limit")                                              \
  X(DIST_SCHEDULE, "dist_schedule")                                            \
  X(BIND, "bind")                                                              \
  X(FILTER, "filter")                                                          \
  X(READ, "read")                                                              \
  X(WRITE, "write")                                                            \
  X(UPDATE, "update")                                                          \
  X(CAPTURE, "capture")                                                        \
  X(COMPARE, "compare")                                                        \
  X(FAIL, "fail")                                                              \
  X(WEAK, "weak")                                                              \
  X(SEQ_CST, "seq_cst")                                                        \
  X(ACQ_REL, "acq_rel")                                                        \
  X(RELEASE, "release")                                                        \
  X(ACQUIRE, "acquire")                                                        \
  X(RELAXED, "relaxed")                                                        \
  X(THREADS, "threads")                                                        \
  X(SIMD, "simd")                                                              \
  X(DOACROSS, "doacross")                                                      \
  X(INCLUSIVE, "inclusive")                                                    \
  X(EXCLUSIVE, "exclusive")                                                    \
  X(ALLOCATOR, "allocator")                                                    \
  X(ALIGN, "align")                                                            \
  X(USES_ALLOCATORS, "uses_allocators")                                        \
  X(ATOMIC_DEFAULT_MEM_ORDER, "atomic_default_mem_order")                      \
  X(UNIFIED_ADDRESS, "unified_address")                                        \
  X(UNIFIED_SHARED_MEMORY, "unified_shared_memory")                            \
  X(REVERSE_OFFLOAD, "reverse_offload")                                        \
  X(DYNAMIC_ALLOCATORS, "dynamic_allocators")                                  \
  X(AT, "at")                                                                  \
  X(SEVERITY, "severity")                                                      \
  X(MESSAGE, "message")                                                        \
  X(INITIALIZER, "initializer")                                                \
  X(MATCH, "match")                                                            \
  X(ADJUST_ARGS, "adjust_args")                                                \
  X(APPEND_ARGS, "append_args")                                                \
  X(NOVARIANTS, "novariants")                                                  \
  X(NOCONTEXT, "nocontext")                                                    \
  X(INIT, "init")                                                              \
  X(USE, "use")                                                                \
  X(DESTROY, "destroy")                                                        \
  X(INTEROP, "interop")                                                        \
  X(SIZES, "sizes")                                                            \
  X(FULL, "full")                                                              \
  X(PARTIAL, "partial")                                                        \
  X(WHEN, "when")                                                              \
  X(OTHERWISE, "otherwise")                                                    \
  X(ABSENT, "absent")                                                          \
  X(CONTAINS, "contains")                                                      \
  X(HOLDS, "holds")                                                            \
  X(NO_OPENMP, "no_openmp")                                                    \
  X(NO_OPENMP_ROUTINES, "no_openmp_routines")                                  \
  X(NO_PARALLELISM, "no_parallelism")                                          \
  X(PARALLEL, "parallel")                                                      \
  X(FOR, "for")                                                                \
  X(SECTIONS, "sections")                                                      \
  X(TASKGROUP, "taskgroup")                                                    \
  X(DIRECTIVE_ARG, "(argument)")

enum omp_clause_kind {
  OMP_CLAUSE_OTHER = 0, /* unknown clause: copied through verbatim */
#define X(id, text) OMP_CLAUSE_##id,
  OMP_CLAUSE_LIST(X)
#undef X
      OMP_CLAUSE_COUNT
};

/* A byte range [begin, end) in the directive text. */
struct omp_span {
  size_t begin, end;
};

#define OMP_MAX_CLAUSES 64
#define OMP_MAX_ITEMS 64

struct omp_clause {
  enum omp_clause_kind kind;
  struct omp_span whole; /* "reduction(+: a, b)", blanks excluded */
  struct omp_span name;  /* "reduction" */
  int has_args;          /* 1 if a parenthesised argument follows */
  /* "+: a, b" (inside the parentheses, trimmed of blanks; an empty span at
   * the ')' for "nowait()"). */
  struct omp_span args;
  /* Text before the first top-level ':' in args, if any: the reduction
   * operator, the if directive-name modifier ("parallel"), a schedule
   * modifier ("monotonic"), map modifiers ("always, to"), ...  Empty span if
   * none (begin == end).  Top-level means outside (), [] and {}; a ':' that
   * completes a top-level '?' (a conditional expression) and the C++ "::"
   * never split. */
  struct omp_span modifier;
  /* Top-level comma-separated items after the modifier, trimmed of blanks:
   * list items for data-sharing clauses ("a", "b[0:n]"), the expression of
   * if/num_threads/collapse/hint, "static" and "4" for schedule(static, 4).
   * Items beyond OMP_MAX_ITEMS are counted in n_items but not stored.
   * "f()" has no items; an empty item ("a,,b", "a,") is an empty span. */
  size_t n_items;
  struct omp_span items[OMP_MAX_ITEMS];
};

struct omp_directive {
  enum omp_directive_kind kind;
  struct omp_span name; /* "parallel for", exactly as written (may hold
                           several blanks or a line continuation); for an
                           unknown directive its first word */
  int has_critical_name;
  struct omp_span critical_name; /* "lock1" in "critical (lock1)", trimmed */
  size_t n_clauses; /* at most OMP_MAX_CLAUSES, more is a syntax error */
  struct omp_clause clauses[OMP_MAX_CLAUSES];
  /* Set when parsing fails: offset of the offending byte and a message. */
  size_t error_offset;
  char error[160];
};

/* Parse text[0..len) (the part of the pragma after "omp", line continuations
 * already removed by the preprocessor).  Returns 0 on success, -1 on a syntax
 * error (out->error, out->error_offset set).  Unknown directives are not an
 * error: kind is OMP_DIR_UNKNOWN.  Thread-safe (no global state).
 *
 * Syntax: directive-words clause* with optional commas between clauses;
 * clause := name | name '(' balanced tokens ')'.  Errors: an empty directive,
 * unbalanced or mismatched brackets ("expected ')' to close '(' opened at
 * column 12", column = 1 + offset of the '(' in text; error_offset is the
 * closer found or len), a clause that does not start with a name, an
 * unterminated string/character literal or comment, brackets nested deeper
 * than 128 levels, more than OMP_MAX_CLAUSES clauses.  On success the
 * fields of clauses[n_clauses..] and items[n_items..] are unspecified. */
int omp_directive_parse(const char *text, size_t len,
                        struct omp_directive *out);

/* The first clause of the given kind, or NULL. */
const struct omp_clause *omp_directive_find(const struct omp_directive *d,
                                            enum omp_clause_kind kind);

const char *omp_directive_kind_name(enum omp_directive_kind kind);
const char *omp_clause_kind_name(enum omp_clause_kind kind);

#endif /* POMPT_OMP_DIRECTIVE_H */
