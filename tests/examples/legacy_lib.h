/* legacy_lib.h -- the library of legacy_lib.c (not compiled by pomp-cc). */
#ifndef LEGACY_LIB_H
#define LEGACY_LIB_H
long legacy_barrier(void);
long legacy_dynamic(int n);
long legacy_runtime(int n);
long legacy_sections(void);
long legacy_tasks(int n);
long legacy_nested(int threads);
#endif
