/*
 * instr_gxx_compat.c -- g++-only spellings in a unit g++ preprocessed,
 * replaced for libclang (instr_gxx_compat.h).
 */
#include "instr_gxx_compat.h"

#include <stdlib.h>
#include <string.h>

/* One replacement: the library's spelling for g++ and clang's, no longer
 * than it (padded with blanks). */
struct gxx_spelling {
  const char *gxx;
  const char *clang;
};

/* libstdc++ (bits/utility.h, GCC 9 to 13): make_integer_sequence and the
 * _Build_index_tuple behind std::tuple and std::apply.  The second needs
 * an alias template with make_integer_seq's parameters (the prelude's). */
static const struct gxx_spelling spellings[] = {
    {"integer_sequence<_Tp, __integer_pack(_Num)...>",
     "__make_integer_seq<integer_sequence,_Tp,_Num>"},
    {"_Index_tuple<__integer_pack(_Num)...>",
     "__make_integer_seq<__pI,size_t,_Num>"},
};

static const char prelude_text[] =
    "namespace std {\n"
    "template <__SIZE_TYPE__...> struct _Index_tuple;\n"
    "template <typename, __SIZE_TYPE__... _I>\n"
    "using __pI = _Index_tuple<_I...>;\n"
    "}\n";

/* The next occurrence of needle (n bytes) in text[from, len), or len. */
static size_t find(const char *text, size_t len, size_t from,
                   const char *needle, size_t n) {
  for (size_t i = from; i + n <= len; i++)
    if (text[i] == needle[0] && memcmp(text + i, needle, n) == 0)
      return i;
  return len;
}

char *instr_gxx_compat_text(const char *text, size_t len,
                            const char **prelude) {
  /* Nearly every unit has none: one scan for the builtin's name first. */
  static const char marker[] = "__integer_pack(";
  if (find(text, len, 0, marker, sizeof marker - 1) == len)
    return NULL;
  char *copy = NULL;
  for (size_t k = 0; k < sizeof spellings / sizeof spellings[0]; k++) {
    const char *g = spellings[k].gxx, *c = spellings[k].clang;
    size_t gn = strlen(g), cn = strlen(c);
    for (size_t at = find(text, len, 0, g, gn); at < len;
         at = find(text, len, at + gn, g, gn)) {
      if (!copy) {
        copy = malloc(len + 1);
        if (!copy)
          return NULL; /* parsed as it is: the errors it had before */
        memcpy(copy, text, len);
        copy[len] = '\0';
      }
      memcpy(copy + at, c, cn);
      memset(copy + at + cn, ' ', gn - cn);
    }
  }
  if (copy)
    *prelude = prelude_text;
  return copy;
}
