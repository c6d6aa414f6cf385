/*
 * abi_layout.c -- pins pompt's omp-tools.h to the OMPT binary interface.
 *
 * At compile time (abi_expand.h over abi_checks.h): every enumerator value
 * and every callback / entry-point signature of OpenMP 5.2, and on LP64
 * targets the size and member offsets of every public structure; plus the
 * iteration macros.  At run time: when the build also compiled
 * abi_layout_llvm.c (ABI_HAVE_LLVM), the same entries taken from LLVM's
 * header, compared one by one with ours.
 */
#include <omp-tools.h>

#if !defined(OMP_TOOLS_H) || defined(__OMPT__)
#error "abi_layout.c must be compiled against pompt's omp-tools.h"
#endif

#include <stdio.h>
#include <string.h>

#define ABI_OURS 1
#define ABI_TABLE abi_table_ours
#define ABI_TABLE_LEN abi_table_ours_len
#include "abi_expand.h"

/* Checks that need more than the list. */

/* The 5.1 and 5.2 names of the first member of ompt_record_work_t are one
 * object. */
_Static_assert(offsetof(ompt_record_work_t, wstype) ==
                   offsetof(ompt_record_work_t, work_type),
               "wstype and work_type alias");

/* The record union is as large as its largest member (target_data_op),
 * which the 5.2 error member does not exceed. */
_Static_assert(sizeof(((ompt_record_ompt_t *)0)->record) ==
                   sizeof(ompt_record_target_data_op_t),
               "record union size");
_Static_assert(sizeof(ompt_record_error_t) <=
                   sizeof(ompt_record_target_data_op_t),
               "the error record fits the union");

/* Deprecated aliases name the same things as their replacements. */
_Static_assert(ompt_callback_master == ompt_callback_masked, "master");
_Static_assert(_Generic((ompt_callback_master_t)0, ompt_callback_masked_t : 1,
                        default : 0),
               "ompt_callback_master_t");
_Static_assert(_Generic((ompt_record_master_t *)0, ompt_record_masked_t * : 1,
                        default : 0),
               "ompt_record_master_t");

/* Every enumeration is int-sized, as the C ABI of the callbacks needs. */
_Static_assert(sizeof(ompt_task_flag_t) == sizeof(int), "task flags");
_Static_assert(sizeof(ompt_parallel_flag_t) == sizeof(int), "parallel flags");

/* The bit-31 flags keep their value (not a negative one) as unsigned. */
_Static_assert((unsigned int)ompt_task_merged == 0x80000000u, "merged");
_Static_assert((unsigned int)ompt_parallel_team == 0x80000000u, "team");

/* Function-like "none" values are usable as initialisers. */
static const ompt_data_t abi_data_none = ompt_data_none;

static int compare_with_llvm(void) {
#ifdef ABI_HAVE_LLVM
  int bad = 0;
  size_t n = abi_table_ours_len < abi_table_llvm_len ? abi_table_ours_len
                                                     : abi_table_llvm_len;
  if (abi_table_ours_len != abi_table_llvm_len) {
    printf("FAIL: %zu entries from our header, %zu from LLVM's\n",
           abi_table_ours_len, abi_table_llvm_len);
    bad = 1;
  }
  for (size_t i = 0; i < n; i++) {
    const struct abi_entry *o = &abi_table_ours[i];
    const struct abi_entry *l = &abi_table_llvm[i];
    if (strcmp(o->what, l->what) != 0) {
      printf("FAIL: entry %zu is \"%s\" here, \"%s\" from LLVM's header\n", i,
             o->what, l->what);
      bad = 1;
    } else if (o->value != l->value) {
      printf("FAIL: %s is %lld with our header, %lld with LLVM's\n", o->what,
             o->value, l->value);
      bad = 1;
    }
  }
  if (!bad)
    printf("abi-layout: %zu entries identical in our header and LLVM's\n", n);
  return bad;
#else
  printf("abi-layout: LLVM's omp-tools.h was not found at configure time; "
         "compared against the pinned numbers only\n");
  return 0;
#endif
}

int main(void) {
  printf("abi-layout: static checks passed (%s layout pinned, %zu common "
         "entries)\n",
         ABI_LP64 ? "LP64" : "no", abi_table_ours_len);
  if (abi_data_none.value != 0) {
    printf("FAIL: ompt_data_none is not zero\n");
    return 1;
  }
  return compare_with_llvm();
}
