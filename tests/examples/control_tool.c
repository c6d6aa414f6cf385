/* A program written against OpenMP 5.2's omp.h: omp_control_tool and its
 * enumerations, which GCC's omp.h lacks.  Built with pomp-cc gcc it must
 * compile (pompt's omp.h supplement) and reach the tool: the checking tool
 * answers 100 * command + modifier.  Without a tool the answer is
 * omp_control_tool_notool.  Argument: 1 if a tool is expected. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int with_tool = argc > 1 && atoi(argv[1]);
  int bad = 0;
  static const omp_control_tool_t cmds[] = {
      omp_control_tool_start, omp_control_tool_pause, omp_control_tool_flush,
      omp_control_tool_end};
  for (int i = 0; i < 4; i++) {
    int r = omp_control_tool(cmds[i], i, NULL);
    int want = with_tool ? 100 * (int)cmds[i] + i : omp_control_tool_notool;
    if (r != want) {
      fprintf(stderr, "omp_control_tool(%d, %d) = %d, expected %d\n",
              (int)cmds[i], i, r, want);
      bad = 1;
    }
  }
  int sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    omp_control_tool_result_t r =
        (omp_control_tool_result_t)omp_control_tool(omp_control_tool_flush,
                                                    0, NULL);
    sum += r == (with_tool ? 300 : omp_control_tool_notool);
  }
  if (sum != omp_get_max_threads()) {
    fprintf(stderr, "in the region: %d of %d calls answered right\n", sum,
            omp_get_max_threads());
    bad = 1;
  }
  puts(bad ? "FAILED" : "ok");
  return bad;
}
