/*
 * prof_mpi.c - a hybrid MPI + OpenMP program: each rank runs a team of
 * threads over its share of a sum; rank r's share costs r + 1 units, so the
 * ranks are imbalanced on purpose.  Run as 2 ranks x 2 threads under
 * pompt-prof: one profile per rank, merged by `pompt-prof merge`.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int provided = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double local = 0.0, global = 0.0;
  for (int step = 0; step < 3; step++) {
    double part = 0.0;
    #pragma omp parallel reduction(+:part)
    {
      #pragma omp for schedule(static)
      for (int i = 0; i < 20000 * (rank + 1); i++)
        part += (double)(i % 13) * 0.25;
      #pragma omp barrier
      #pragma omp single
      local += 1.0;
    }
    local += part;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("ranks %d sum %.1f\n", size, global);
  MPI_Finalize();
  return 0;
}
