/*
 * pomp_ctc.c -- the CTC string reader.  Runs once per region (handle
 * initialisation), never on the event path.
 */
#include <stdlib.h>
#include <string.h>

#include "pomp_ctc.h"

int pomp_ctc_parse(const char *ctc, pomp_ctc_fn fn, void *arg) {
  if (!ctc)
    return -1;
  const char *p = ctc;
  if (*p < '0' || *p > '9')
    return -1;
  while (*p >= '0' && *p <= '9')
    p++;
  if (*p != '*')
    return -1;
  p++;
  /* Values are unescaped into a buffer on the stack, or for a long CTC
   * string one from the heap: parsing the regions at start-up (every
   * construct's) leaves the program's heap as it was. */
  char local[512];
  size_t need = strlen(p) + 1;
  char *value = need <= sizeof local ? local : malloc(need);
  if (!value)
    return -1;
  int rc = -1;
  for (;;) {
    if (*p == '*') { /* the empty field that ends the string */
      rc = 0;
      break;
    }
    const char *key = p;
    while (*p && *p != '=' && *p != '*')
      p++;
    size_t key_len = (size_t)(p - key);
    size_t n = 0;
    if (*p == '=') {
      p++;
      while (*p && *p != '*') {
        if (*p == '\\') {
          if (!p[1])
            goto out;
          p++;
        }
        value[n++] = *p++;
      }
    }
    if (*p != '*')
      goto out; /* ran off the end: no terminating "**" */
    p++;
    value[n] = '\0';
    int stop = fn(key, key_len, value, n, arg);
    if (stop) {
      rc = stop;
      break;
    }
  }
out:
  if (value != local)
    free(value);
  return rc;
}
