/*
 * fork_child.c -- a program that forks after a parallel region; the child
 * exits with exit() (running libpompt's finalisation in a process whose
 * OpenMP worker threads were left behind in the parent).  Both processes
 * must finish, and the tool must find its state balanced in both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int sum = 0;
#pragma omp parallel reduction(+ : sum)
  sum += 1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return 2;
  if (pid == 0) {
    printf("child saw %s\n", sum > 0 ? "a team" : "nothing");
    exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  printf("parent: child %s\n",
         WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed");
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
