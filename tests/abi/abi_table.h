/*
 * abi_table.h -- what one header's ABI looks like, as data.
 *
 * abi_expand.h fills one table per translation unit (one per omp-tools.h);
 * abi_layout.c compares the tables entry by entry, so the two headers are
 * held to the same layout on every target, not only on LP64 ones.
 */
#ifndef ABI_TABLE_H
#define ABI_TABLE_H

#include <stddef.h>

struct abi_entry {
  const char *what; /* "sizeof(T)", "offsetof(T, m)", an enumerator, ... */
  long long value;
};

/* Built from pompt's ompt-bridge/include/omp-tools.h. */
extern const struct abi_entry abi_table_ours[];
extern const size_t abi_table_ours_len;

/* Built from LLVM's omp-tools.h (abi_layout_llvm.c), when it was found. */
extern const struct abi_entry abi_table_llvm[];
extern const size_t abi_table_llvm_len;

#endif /* ABI_TABLE_H */
