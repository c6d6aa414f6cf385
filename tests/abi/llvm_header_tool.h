/*
 * llvm_header_tool.h -- what the program of test "llvm-header-tool" calls
 * in the tool.  Free of OMPT types, so that the program itself needs
 * neither header.
 */
#ifndef LLVM_HEADER_TOOL_H
#define LLVM_HEADER_TOOL_H

/* Checks the OMPT inquiry entry points from the initial thread, in
 * sequential code.  Returns 0 when all answered as expected. */
int llvm_header_tool_probe(void);

#endif /* LLVM_HEADER_TOOL_H */
