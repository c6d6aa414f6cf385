/* common.h -- included first by every C file of the project (forced with
 * -include or through the build system's precompiled header support). */
#ifndef BUILDSYS_COMMON_H
#define BUILDSYS_COMMON_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* The size of every team the project starts. */
#define TEAM 3

#endif
