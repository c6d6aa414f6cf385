/* opaque_lib.h -- the library of opaque_lib.c (not compiled by pomp-cc). */
#ifndef OPAQUE_LIB_H
#define OPAQUE_LIB_H
long opaque_barriers(void);
long opaque_dynamic(int n);
long opaque_runtime(int n);
#define OPAQUE_FILL 100
long opaque_fill(void);
long opaque_sections(void);
#define OPAQUE_TASKS 64
long opaque_tasks(int n);
long opaque_call(long (*fn)(int), int arg);
long opaque_worksharing(int n);
long opaque_critical(int n);
long opaque_taskgroup(void);
#define OPAQUE_ORDERED 6
long opaque_ordered(int n);
long opaque_teams(void);
long opaque_task_reduction(void);
long opaque_dependences(void);
#endif
