/*
 * abi_layout_llvm.c -- the checks of abi_layout.c, over LLVM's omp-tools.h.
 *
 * Built only where meson found LLVM's header; its path comes in as
 * ABI_LLVM_OMP_TOOLS_H (a quoted absolute path), so that no other header of
 * that directory (Clang's own stddef.h, stdint.h, ...) can shadow the
 * compiler's.  The entries LLVM 14 lacks are not checked here.
 */
#ifndef ABI_LLVM_OMP_TOOLS_H
#error "ABI_LLVM_OMP_TOOLS_H must name LLVM's omp-tools.h"
#endif

#include ABI_LLVM_OMP_TOOLS_H

#if !defined(__OMPT__) || defined(OMP_TOOLS_H)
#error "abi_layout_llvm.c must be compiled against LLVM's omp-tools.h"
#endif

#define ABI_TABLE abi_table_llvm
#define ABI_TABLE_LEN abi_table_llvm_len
#include "abi_expand.h"
