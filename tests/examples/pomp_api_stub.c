/*
 * pomp_api_stub.c -- what a tool implementing OPARI's POMP interface
 * exports (TAU's libTAU.so: POMP_Init, POMP_Finalize, POMP_On, POMP_Off
 * and more, as stubs), to be preloaded in front of libpompt: the tool must
 * still start, and libpompt must say what the stubs take over.
 */
void POMP_Init(void);
void POMP_Finalize(void);
void POMP_Init(void) {}
void POMP_Finalize(void) {}
