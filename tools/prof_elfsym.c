/*
 * prof_elfsym.c - the module, offset and function of a code address from
 * the module's own ELF symbol table, without libdw.
 *
 * Opening libdw (and the libraries it needs) and reporting every module of
 * the process costs about a millisecond at the end of every run; for a
 * program built with pomp-cc the runtime already gave each construct's
 * file and line, and what is left (module, offset, function) is in the
 * module's .symtab.  The loader says which module holds an address and
 * where it is loaded (dladdr1); the file is mapped read-only and its
 * symbol table searched the way libdwfl does: the sized symbol that
 * contains the address, the highest start winning, a stronger binding
 * breaking a tie.  A module without .symtab (stripped, with separate debug
 * information) or an address no sized symbol contains is left to libdw,
 * which finds separate debug files and sizeless symbols.
 */
#define _GNU_SOURCE /* dladdr1 */

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof_model.h"
#include "prof_tool.h"

/* The module looked up last: addresses come sorted, so most lookups hit
   it. */
struct prof_elfsym {
  const struct link_map *map;
  char *path; /* canonical, as /proc/self/maps names it */
  uintptr_t base;
  const unsigned char *image;
  size_t size;
  const ElfW(Sym) * syms;
  size_t nsyms;
  const char *strs;
  size_t strsize;
};

prof_elfsym *prof_elfsym_new(void) {
  return prof_xcalloc(1, sizeof(prof_elfsym));
}

static void unmap(prof_elfsym *e) {
  if (e->image != NULL)
    munmap((void *)e->image, e->size);
  free(e->path);
  memset(e, 0, sizeof *e);
}

void prof_elfsym_free(prof_elfsym *e) {
  if (e == NULL)
    return;
  unmap(e);
  free(e);
}

/* Maps the module's file and finds .symtab and its strings; 0 when the file
   is unreadable, not an ELF file of this process's class, or has none. */
static int load(prof_elfsym *e, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  struct stat st;
  void *m = MAP_FAILED;
  if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(ElfW(Ehdr)))
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED)
    return 0;
  e->image = m;
  e->size = (size_t)st.st_size;
  const ElfW(Ehdr) *eh = m;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] !=
          (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff == 0 ||
      eh->e_shoff > e->size ||
      (size_t)eh->e_shnum > (e->size - eh->e_shoff) / sizeof(ElfW(Shdr)))
    return 0;
  const ElfW(Shdr) *sh = (const void *)(e->image + eh->e_shoff);
  for (size_t i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
      continue;
    const ElfW(Shdr) *str = &sh[sh[i].sh_link];
    if (sh[i].sh_offset > e->size ||
        sh[i].sh_size > e->size - sh[i].sh_offset || str->sh_offset > e->size ||
        str->sh_size > e->size - str->sh_offset || str->sh_size == 0)
      return 0;
    e->syms = (const void *)(e->image + sh[i].sh_offset);
    e->nsyms = sh[i].sh_size / sizeof(ElfW(Sym));
    e->strs = (const char *)e->image + str->sh_offset;
    e->strsize = str->sh_size;
    return 1;
  }
  return 0;
}

/* The module holding the address, mapped; 0 when it cannot be read. */
static int module_of(prof_elfsym *e, uintptr_t a) {
  Dl_info info;
  struct link_map *map = NULL;
  if (dladdr1((void *)a, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 ||
      map == NULL)
    return 0;
  if (map == e->map)
    return e->syms != NULL;
  unmap(e);
  e->map = map;
  e->base = (uintptr_t)info.dli_fbase;
  char path[PATH_MAX];
  if (map->l_name == NULL || map->l_name[0] == '\0') {
    /* the program itself */
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
      return 0;
    path[n] = '\0';
  } else if (realpath(map->l_name, path) == NULL) {
    return 0; /* the vDSO, or a file gone since */
  }
  e->path = prof_xstrdup(path);
  if (!load(e, path)) {
    if (e->image != NULL)
      munmap((void *)e->image, e->size);
    e->image = NULL;
    e->syms = NULL;
    return 0;
  }
  return 1;
}

int prof_elfsym_lookup(prof_elfsym *e, uintptr_t a, prof_loc *l,
                       char *(*clean)(const char *)) {
  if (!module_of(e, a))
    return 0;
  ElfW(Addr) x = (ElfW(Addr))(a - e->map->l_addr);
  const ElfW(Sym) *best = NULL;
  for (size_t i = 1; i < e->nsyms; i++) {
    const ElfW(Sym) *s = &e->syms[i];
    int type = ELF64_ST_TYPE(s->st_info);
    if (s->st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE ||
        type == STT_TLS || s->st_size == 0 || s->st_value > x ||
        x - s->st_value >= s->st_size || s->st_name >= e->strsize)
      continue;
    if (best == NULL || s->st_value > best->st_value ||
        (s->st_value == best->st_value &&
         ELF64_ST_BIND(s->st_info) > ELF64_ST_BIND(best->st_info)))
      best = s;
  }
  if (best == NULL ||
      memchr(e->strs + best->st_name, '\0', e->strsize - best->st_name) == NULL)
    return 0;
  if (l->module == NULL)
    l->module = prof_xstrdup(e->path);
  l->offset = (uint64_t)(a + 1 - e->base);
  if (l->func == NULL)
    l->func = clean(e->strs + best->st_name);
  return 1;
}
