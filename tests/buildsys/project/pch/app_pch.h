/* The program's precompiled header (meson's c_pch). */
#include "common.h"
