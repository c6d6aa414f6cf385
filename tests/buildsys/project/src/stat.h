#ifndef BUILDSYS_STAT_H
#define BUILDSYS_STAT_H

/* 1 + 2 + ... + n, summed by a team (static library). */
long stat_sum(int n);

#endif
