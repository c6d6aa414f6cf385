/*
 * prof_symbols.c - source locations of code addresses.
 *
 * OMPT gives a construct's codeptr_ra, a return address in the program.
 * Its source file and line come from, in this order:
 *  1. the OpenMP runtime itself, when it offers the implementation-specific
 *     entry point "pompt_region_info" (libpompt knows each construct's CTC
 *     string: "...*file=heat.c*lines=94:105*...**");
 *  2. the debug information, read with elfutils' libdwfl on this process's
 *     own modules (libdw.so.1 is opened at the end of the run, and only
 *     when an address is left to it, so the profiler also runs where it is
 *     missing);
 *  3. dladdr: the module, the offset in it and the nearest symbol.
 * The module, the offset and the function come from the module's own
 * symbol table first (prof_elfsym.c): with the runtime's file and line
 * that is everything, and libdw, the most expensive part of a short run's
 * end, is never opened.
 * A return address points after the call, so lines are looked up at
 * address - 1, the call itself.
 */
#define _GNU_SOURCE /* dladdr */

#include <dlfcn.h>
#ifdef POMPT_PROF_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof_model.h"
#include "prof_tool.h"

prof_region_info_fn prof_region_info;

void prof_loc_free(prof_loc *l) {
  free(l->file);
  free(l->func);
  free(l->module);
  memset(l, 0, sizeof *l);
}

/* The value of key in a CTC string ("<len>*key=value*...**"), with
   backslash escapes removed; NULL when absent. */
static char *ctc_value(const char *ctc, const char *key) {
  const char *p = strchr(ctc, '*');
  size_t klen = strlen(key);
  while (p != NULL && p[0] == '*' && p[1] != '*' && p[1] != '\0') {
    p++;
    const char *field = p;
    size_t cap = strlen(field) + 1;
    char *val = NULL;
    size_t n = 0;
    int match = strncmp(field, key, klen) == 0 && field[klen] == '=';
    if (match) {
      val = prof_xcalloc(cap, 1);
      p = field + klen + 1;
    }
    while (*p != '\0' && *p != '*') {
      if (*p == '\\' && p[1] != '\0')
        p++;
      if (match)
        val[n++] = *p;
      p++;
    }
    if (match)
      return val;
  }
  return NULL;
}

static int from_region_info(const void *addr, prof_loc *l) {
  if (prof_region_info == NULL)
    return 0;
  const char *ctc = NULL;
  if (!prof_region_info(addr, &ctc) || ctc == NULL)
    return 0;
  char *file = ctc_value(ctc, "file");
  if (file == NULL || file[0] == '\0') {
    free(file);
    return 0;
  }
  char *lines = ctc_value(ctc, "lines");
  l->file = file;
  l->line = lines != NULL ? atoi(lines) : 0;
  free(lines);
  return 1;
}

/* "main._omp_fn.3" (GCC's outlined body of a construct in main) -> "main" */
static char *clean_func(const char *name) {
  if (name == NULL)
    return NULL;
  char *s = prof_xstrdup(name);
  char *cut = strstr(s, "._omp_fn.");
  if (cut != NULL && cut != s)
    *cut = '\0';
  return s;
}

#ifdef POMPT_PROF_HAVE_LIBDW
/* A source file named relative to its compilation directory, made
   absolute and tidied ("/b/x/../../src/a.c" -> "/src/a.c"). */
static char *full_path(const char *file, const char *dir) {
  char *joined;
  if (file[0] == '/' || dir == NULL || dir[0] == '\0')
    joined = prof_xstrdup(file);
  else
    joined = prof_xasprintf("%s/%s", dir, file);
  if (joined[0] != '/')
    return joined;
  /* resolve "." and ".." textually: the file may be gone */
  size_t n = strlen(joined);
  char *out = prof_xcalloc(n + 2, 1);
  size_t o = 0;
  const char *p = joined;
  while (*p) {
    while (*p == '/')
      p++;
    const char *seg = p;
    while (*p && *p != '/')
      p++;
    size_t len = (size_t)(p - seg);
    if (len == 0 || (len == 1 && seg[0] == '.'))
      continue;
    if (len == 2 && seg[0] == '.' && seg[1] == '.') {
      while (o > 0 && out[o - 1] != '/')
        o--;
      if (o > 0)
        o--;
      continue;
    }
    out[o++] = '/';
    memcpy(out + o, seg, len);
    o += len;
  }
  if (o == 0)
    out[o++] = '/';
  out[o] = '\0';
  free(joined);
  return out;
}

/* libdwfl, opened at run time. */
typedef struct dw_api {
  void *h;
  __typeof__(&dwfl_begin) begin;
  __typeof__(&dwfl_end) end;
  __typeof__(&dwfl_linux_proc_report) proc_report;
  __typeof__(&dwfl_report_end) report_end;
  __typeof__(&dwfl_addrmodule) addrmodule;
  __typeof__(&dwfl_module_info) module_info;
  __typeof__(&dwfl_module_getsrc) getsrc;
  __typeof__(&dwfl_lineinfo) lineinfo;
  __typeof__(&dwfl_line_comp_dir) comp_dir;
  __typeof__(&dwfl_module_addrname) addrname;
  __typeof__(&dwfl_errmsg) errmsg;
  __typeof__(&dwfl_module_nextcu) nextcu;
  __typeof__(&dwarf_haspc) haspc;
  __typeof__(&dwarf_getsrc_die) getsrc_die;
  __typeof__(&dwarf_linesrc) linesrc;
  __typeof__(&dwarf_lineno) lineno;
  __typeof__(&dwarf_attr) attr;
  __typeof__(&dwarf_formstring) formstring;
  __typeof__(&dwfl_linux_proc_find_elf) find_elf;
  __typeof__(&dwfl_standard_find_debuginfo) find_debuginfo;
} dw_api;

static int dw_open(dw_api *d) {
  memset(d, 0, sizeof *d);
  d->h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
  if (d->h == NULL)
    return 0;
#define SYM(field, name)                                                       \
  do {                                                                         \
    *(void **)&d->field = dlsym(d->h, name);                                   \
    if (d->field == NULL)                                                      \
      return 0;                                                                \
  } while (0)
  SYM(begin, "dwfl_begin");
  SYM(end, "dwfl_end");
  SYM(proc_report, "dwfl_linux_proc_report");
  SYM(report_end, "dwfl_report_end");
  SYM(addrmodule, "dwfl_addrmodule");
  SYM(module_info, "dwfl_module_info");
  SYM(getsrc, "dwfl_module_getsrc");
  SYM(lineinfo, "dwfl_lineinfo");
  SYM(comp_dir, "dwfl_line_comp_dir");
  SYM(addrname, "dwfl_module_addrname");
  SYM(errmsg, "dwfl_errmsg");
  SYM(nextcu, "dwfl_module_nextcu");
  SYM(haspc, "dwarf_haspc");
  SYM(getsrc_die, "dwarf_getsrc_die");
  SYM(linesrc, "dwarf_linesrc");
  SYM(lineno, "dwarf_lineno");
  SYM(attr, "dwarf_attr");
  SYM(formstring, "dwarf_formstring");
  SYM(find_elf, "dwfl_linux_proc_find_elf");
  SYM(find_debuginfo, "dwfl_standard_find_debuginfo");
#undef SYM
  return 1;
}

/* The line of an address by walking the module's compilation units: the
   way when the module has no .debug_aranges (clang emits none), where
   dwfl_module_getsrc finds nothing. */
static int line_by_cu(dw_api *d, Dwfl_Module *m, Dwarf_Addr a, prof_loc *l) {
  Dwarf_Die *cu = NULL;
  Dwarf_Addr bias = 0;
  while ((cu = d->nextcu(m, cu, &bias)) != NULL) {
    if (d->haspc(cu, a - bias) <= 0)
      continue;
    Dwarf_Line *line = d->getsrc_die(cu, a - bias);
    if (line == NULL)
      return 0;
    int lineno = 0;
    const char *file = d->linesrc(line, NULL, NULL);
    if (file == NULL || d->lineno(line, &lineno) != 0)
      return 0;
    Dwarf_Attribute at;
    const char *dir = d->formstring(d->attr(cu, DW_AT_comp_dir, &at));
    l->file = full_path(file, dir);
    l->line = lineno;
    return 1;
  }
  return 0;
}
#endif

const char *prof_symbolize(const void *const *addrs, int n, prof_loc *out) {
  int by_runtime = 0, by_dw = 0, need_dw = 0;
  for (int i = 0; i < n; i++)
    by_runtime += from_region_info(addrs[i], &out[i]);
  prof_phase("sym:runtime");

  /* Module, offset and function from the modules' symbol tables; libdw
     only for what is still missing: a line the runtime did not give, a
     module without .symtab. */
  unsigned char *left = prof_xcalloc((size_t)n + 1, 1);
  prof_elfsym *es = prof_elfsym_new();
  for (int i = 0; i < n; i++) {
    uintptr_t a = (uintptr_t)addrs[i] - 1;
    int have_sym = prof_elfsym_lookup(es, a, &out[i], clean_func);
    left[i] = !have_sym || out[i].file == NULL;
    need_dw += left[i];
  }
  prof_elfsym_free(es);
  prof_phase("sym:symtab");

  int have_dw = 0;
#ifdef POMPT_PROF_HAVE_LIBDW
  dw_api d;
  memset(&d, 0, sizeof d);
  Dwfl *dwfl = NULL;
  static char *debuginfo_path = NULL;
  Dwfl_Callbacks cb;
  memset(&cb, 0, sizeof cb);
  /* Debug information is looked for on this machine only: a debuginfod
     server could keep the program from ending for a long time. */
  if (need_dw > 0 && getenv("DEBUGINFOD_URLS") != NULL)
    unsetenv("DEBUGINFOD_URLS");
  if (need_dw > 0 && dw_open(&d)) {
    have_dw = 1;
    cb.find_elf = d.find_elf;
    cb.find_debuginfo = d.find_debuginfo;
    cb.debuginfo_path = &debuginfo_path;
    dwfl = d.begin(&cb);
    if (dwfl != NULL) {
      if (d.proc_report(dwfl, getpid()) != 0 ||
          d.report_end(dwfl, NULL, NULL) != 0) {
        fprintf(stderr, "pompt-prof: cannot read this process's modules: %s\n",
                d.errmsg(-1));
        d.end(dwfl);
        dwfl = NULL;
      }
    }
  } else if (need_dw > 0) {
    fprintf(stderr,
            "pompt-prof: libdw.so.1 (elfutils) not found: locations are "
            "shown as module+offset\n");
  }
#else
  if (need_dw > 0)
    fprintf(stderr, "pompt-prof: built without libdw: locations are shown as "
                    "module+offset\n");
#endif
  prof_phase("sym:libdw");

  for (int i = 0; i < n; i++) {
    if (!left[i])
      continue;
    prof_loc *l = &out[i];
    uintptr_t a = (uintptr_t)addrs[i] - 1;
#ifdef POMPT_PROF_HAVE_LIBDW
    if (dwfl != NULL) {
      Dwfl_Module *m = d.addrmodule(dwfl, (Dwarf_Addr)a);
      if (m != NULL) {
        Dwarf_Addr start = 0;
        const char *name =
            d.module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL);
        if (l->module == NULL && name != NULL)
          l->module = prof_xstrdup(name);
        l->offset = (uint64_t)(a + 1 - start);
        if (l->func == NULL)
          l->func = clean_func(d.addrname(m, (GElf_Addr)a));
        if (l->file == NULL) {
          Dwfl_Line *line = d.getsrc(m, (Dwarf_Addr)a);
          int lineno = 0;
          const char *file =
              line ? d.lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
          if (file != NULL) {
            l->file = full_path(file, d.comp_dir(line));
            l->line = lineno;
            by_dw++;
          } else if (line_by_cu(&d, m, (Dwarf_Addr)a, l)) {
            by_dw++;
          }
        }
        continue;
      }
    }
#endif
    Dl_info info;
    if (dladdr((void *)a, &info) != 0) {
      if (l->module == NULL && info.dli_fname != NULL)
        l->module = prof_xstrdup(info.dli_fname);
      l->offset = (uint64_t)(a + 1 - (uintptr_t)info.dli_fbase);
      if (l->func == NULL && info.dli_sname != NULL)
        l->func = clean_func(info.dli_sname);
    }
  }
  free(left);
  prof_phase("sym:lines");
#ifdef POMPT_PROF_HAVE_LIBDW
  if (dwfl != NULL)
    d.end(dwfl);
  /* libdw stays loaded: the process is ending, and unloading it and the
     five libraries it brought (running their destructors, unmapping) costs
     about 0.1 ms of that end.  A half-opened one is closed. */
  if (d.h != NULL && !have_dw)
    dlclose(d.h);
#endif
  if (by_runtime > 0 && by_dw > 0)
    return "pompt_region_info+libdw";
  if (by_runtime > 0)
    return "pompt_region_info";
  if (by_dw > 0)
    return "libdw";
  return have_dw ? "libdw (no line information)" : "dladdr";
}
