#ifndef BUILDSYS_SHARED_H
#define BUILDSYS_SHARED_H

#ifdef __cplusplus
extern "C" {
#endif

/* The mean of 0, 1, ..., n - 1, computed by a team (shared library, C++). */
double shared_mean(int n);

#ifdef __cplusplus
}
#endif

#endif
