/*
 * pomp_control.c -- monitoring library control (seed 004, section 3.6) and
 * handle registration (section 3.2, Appendix B).
 *
 * The library initialises itself when it is loaded (the tool must see the
 * initial thread before any event), so POMP_Init is only a guarantee for
 * code that wants one; POMP_Finalize ends the tool early, otherwise that
 * happens at exit.
 */
#include "bridge.h"
#include "pomp_region.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int32_t POMP_Init(void) {
  bridge_init();
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Finalize(void) {
  bridge_finalize();
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_On(void) {
  bridge_set_enabled(1);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Off(void) {
  bridge_set_enabled(0);
  return POMP_SUCCESS;
}

EXPORT int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  if (!handle)
    return POMP_ERR_ARG;
  int32_t status = POMP_ERR_HANDLE;
  return pomp_region_init(handle, ctc, &status) ? POMP_SUCCESS : status;
}
