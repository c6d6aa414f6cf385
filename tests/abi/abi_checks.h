/*
 * abi_checks.h -- the binary interface of omp-tools.h, as one list.
 *
 * No include guard: a file that includes this one first defines
 *
 *   ABI_SIZE(type, lp64)            sizeof(type)
 *   ABI_OFFSET(type, member, lp64)  offsetof(type, member)
 *   ABI_VALUE(constant, value)      the value of an enumerator
 *   ABI_SIGNATURE(type, fnptr)      a function-pointer typedef is fnptr
 *   ABI_FUNCTION(name, fnptr)       &name has type fnptr
 *
 * and includes it after one omp-tools.h (ours or LLVM's; see abi_expand.h).
 * The lp64 numbers are the layout on LP64 targets (x86-64, AArch64, ...);
 * other targets are compared header against header only.
 *
 * ABI_WORK_MEMBER is the name of the first member of ompt_record_work_t:
 * wstype in LLVM 14 (the default), work_type in later LLVM headers; ours
 * has both.
 *
 * Entries inside "#ifdef ABI_ONLY_OURS" name things LLVM 14's header lacks:
 * OpenMP 5.2 additions (dispatch chunks, loop schedules, map flags, the
 * error member of the record union, the ompt_start_tool prototype) and
 * pompt's compatibility extras (both member names of ompt_record_work_t,
 * ompt_record_master_t, the omp_all_memory dependence types).
 */

/* ---- Scalar types */
ABI_SIZE(ompt_id_t, 8)
ABI_SIZE(ompt_wait_id_t, 8)
ABI_SIZE(ompt_device_time_t, 8)
ABI_SIZE(ompt_buffer_cursor_t, 8)
ABI_SIZE(ompt_hwid_t, 8)
ABI_SIZE(ompd_size_t, 8)
ABI_SIZE(ompd_wait_id_t, 8)
ABI_SIZE(ompd_addr_t, 8)
ABI_SIZE(ompd_word_t, 8)
ABI_SIZE(ompd_seg_t, 8)
ABI_SIZE(ompd_device_t, 8)
ABI_SIZE(ompd_thread_id_t, 8)
ABI_SIZE(ompd_icv_id_t, 8)

/* ---- Structures and unions */
ABI_SIZE(ompt_data_t, 8)
ABI_OFFSET(ompt_data_t, value, 0)
ABI_OFFSET(ompt_data_t, ptr, 0)

ABI_SIZE(ompt_frame_t, 24)
ABI_OFFSET(ompt_frame_t, exit_frame, 0)
ABI_OFFSET(ompt_frame_t, enter_frame, 8)
ABI_OFFSET(ompt_frame_t, exit_frame_flags, 16)
ABI_OFFSET(ompt_frame_t, enter_frame_flags, 20)

ABI_SIZE(ompt_dependence_t, 16)
ABI_OFFSET(ompt_dependence_t, variable, 0)
ABI_OFFSET(ompt_dependence_t, dependence_type, 8)

#ifdef ABI_ONLY_OURS
ABI_SIZE(ompt_dispatch_chunk_t, 16)
ABI_OFFSET(ompt_dispatch_chunk_t, start, 0)
ABI_OFFSET(ompt_dispatch_chunk_t, iterations, 8)
#endif

ABI_SIZE(ompt_record_abstract_t, 40)
ABI_OFFSET(ompt_record_abstract_t, rclass, 0)
ABI_OFFSET(ompt_record_abstract_t, type, 8)
ABI_OFFSET(ompt_record_abstract_t, start_time, 16)
ABI_OFFSET(ompt_record_abstract_t, end_time, 24)
ABI_OFFSET(ompt_record_abstract_t, hwid, 32)

ABI_SIZE(ompt_start_tool_result_t, 24)
ABI_OFFSET(ompt_start_tool_result_t, initialize, 0)
ABI_OFFSET(ompt_start_tool_result_t, finalize, 8)
ABI_OFFSET(ompt_start_tool_result_t, tool_data, 16)

ABI_SIZE(ompt_record_thread_begin_t, 4)
ABI_OFFSET(ompt_record_thread_begin_t, thread_type, 0)

ABI_SIZE(ompt_record_parallel_begin_t, 32)
ABI_OFFSET(ompt_record_parallel_begin_t, encountering_task_id, 0)
ABI_OFFSET(ompt_record_parallel_begin_t, parallel_id, 8)
ABI_OFFSET(ompt_record_parallel_begin_t, requested_parallelism, 16)
ABI_OFFSET(ompt_record_parallel_begin_t, flags, 20)
ABI_OFFSET(ompt_record_parallel_begin_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_parallel_end_t, 32)
ABI_OFFSET(ompt_record_parallel_end_t, parallel_id, 0)
ABI_OFFSET(ompt_record_parallel_end_t, encountering_task_id, 8)
ABI_OFFSET(ompt_record_parallel_end_t, flags, 16)
ABI_OFFSET(ompt_record_parallel_end_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_work_t, 40)
ABI_OFFSET(ompt_record_work_t, ABI_WORK_MEMBER, 0)
#ifdef ABI_ONLY_OURS
ABI_OFFSET(ompt_record_work_t, wstype, 0)
ABI_OFFSET(ompt_record_work_t, work_type, 0)
#endif
ABI_OFFSET(ompt_record_work_t, endpoint, 4)
ABI_OFFSET(ompt_record_work_t, parallel_id, 8)
ABI_OFFSET(ompt_record_work_t, task_id, 16)
ABI_OFFSET(ompt_record_work_t, count, 24)
ABI_OFFSET(ompt_record_work_t, codeptr_ra, 32)

ABI_SIZE(ompt_record_dispatch_t, 32)
ABI_OFFSET(ompt_record_dispatch_t, parallel_id, 0)
ABI_OFFSET(ompt_record_dispatch_t, task_id, 8)
ABI_OFFSET(ompt_record_dispatch_t, kind, 16)
ABI_OFFSET(ompt_record_dispatch_t, instance, 24)

ABI_SIZE(ompt_record_task_create_t, 32)
ABI_OFFSET(ompt_record_task_create_t, encountering_task_id, 0)
ABI_OFFSET(ompt_record_task_create_t, new_task_id, 8)
ABI_OFFSET(ompt_record_task_create_t, flags, 16)
ABI_OFFSET(ompt_record_task_create_t, has_dependences, 20)
ABI_OFFSET(ompt_record_task_create_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_dependences_t, 32)
ABI_OFFSET(ompt_record_dependences_t, task_id, 0)
ABI_OFFSET(ompt_record_dependences_t, dep, 8)
ABI_OFFSET(ompt_record_dependences_t, ndeps, 24)

ABI_SIZE(ompt_record_task_dependence_t, 16)
ABI_OFFSET(ompt_record_task_dependence_t, src_task_id, 0)
ABI_OFFSET(ompt_record_task_dependence_t, sink_task_id, 8)

ABI_SIZE(ompt_record_task_schedule_t, 24)
ABI_OFFSET(ompt_record_task_schedule_t, prior_task_id, 0)
ABI_OFFSET(ompt_record_task_schedule_t, prior_task_status, 8)
ABI_OFFSET(ompt_record_task_schedule_t, next_task_id, 16)

ABI_SIZE(ompt_record_implicit_task_t, 40)
ABI_OFFSET(ompt_record_implicit_task_t, endpoint, 0)
ABI_OFFSET(ompt_record_implicit_task_t, parallel_id, 8)
ABI_OFFSET(ompt_record_implicit_task_t, task_id, 16)
ABI_OFFSET(ompt_record_implicit_task_t, actual_parallelism, 24)
ABI_OFFSET(ompt_record_implicit_task_t, index, 28)
ABI_OFFSET(ompt_record_implicit_task_t, flags, 32)

ABI_SIZE(ompt_record_masked_t, 32)
#ifdef ABI_ONLY_OURS
ABI_SIZE(ompt_record_master_t, 32)
#endif
ABI_OFFSET(ompt_record_masked_t, endpoint, 0)
ABI_OFFSET(ompt_record_masked_t, parallel_id, 8)
ABI_OFFSET(ompt_record_masked_t, task_id, 16)
ABI_OFFSET(ompt_record_masked_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_sync_region_t, 32)
ABI_OFFSET(ompt_record_sync_region_t, kind, 0)
ABI_OFFSET(ompt_record_sync_region_t, endpoint, 4)
ABI_OFFSET(ompt_record_sync_region_t, parallel_id, 8)
ABI_OFFSET(ompt_record_sync_region_t, task_id, 16)
ABI_OFFSET(ompt_record_sync_region_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_mutex_acquire_t, 32)
ABI_OFFSET(ompt_record_mutex_acquire_t, kind, 0)
ABI_OFFSET(ompt_record_mutex_acquire_t, hint, 4)
ABI_OFFSET(ompt_record_mutex_acquire_t, impl, 8)
ABI_OFFSET(ompt_record_mutex_acquire_t, wait_id, 16)
ABI_OFFSET(ompt_record_mutex_acquire_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_mutex_t, 24)
ABI_OFFSET(ompt_record_mutex_t, kind, 0)
ABI_OFFSET(ompt_record_mutex_t, wait_id, 8)
ABI_OFFSET(ompt_record_mutex_t, codeptr_ra, 16)

ABI_SIZE(ompt_record_nest_lock_t, 24)
ABI_OFFSET(ompt_record_nest_lock_t, endpoint, 0)
ABI_OFFSET(ompt_record_nest_lock_t, wait_id, 8)
ABI_OFFSET(ompt_record_nest_lock_t, codeptr_ra, 16)

ABI_SIZE(ompt_record_flush_t, 8)
ABI_OFFSET(ompt_record_flush_t, codeptr_ra, 0)

ABI_SIZE(ompt_record_cancel_t, 24)
ABI_OFFSET(ompt_record_cancel_t, task_id, 0)
ABI_OFFSET(ompt_record_cancel_t, flags, 8)
ABI_OFFSET(ompt_record_cancel_t, codeptr_ra, 16)

ABI_SIZE(ompt_record_target_t, 40)
ABI_OFFSET(ompt_record_target_t, kind, 0)
ABI_OFFSET(ompt_record_target_t, endpoint, 4)
ABI_OFFSET(ompt_record_target_t, device_num, 8)
ABI_OFFSET(ompt_record_target_t, task_id, 16)
ABI_OFFSET(ompt_record_target_t, target_id, 24)
ABI_OFFSET(ompt_record_target_t, codeptr_ra, 32)

ABI_SIZE(ompt_record_target_data_op_t, 72)
ABI_OFFSET(ompt_record_target_data_op_t, host_op_id, 0)
ABI_OFFSET(ompt_record_target_data_op_t, optype, 8)
ABI_OFFSET(ompt_record_target_data_op_t, src_addr, 16)
ABI_OFFSET(ompt_record_target_data_op_t, src_device_num, 24)
ABI_OFFSET(ompt_record_target_data_op_t, dest_addr, 32)
ABI_OFFSET(ompt_record_target_data_op_t, dest_device_num, 40)
ABI_OFFSET(ompt_record_target_data_op_t, bytes, 48)
ABI_OFFSET(ompt_record_target_data_op_t, end_time, 56)
ABI_OFFSET(ompt_record_target_data_op_t, codeptr_ra, 64)

ABI_SIZE(ompt_record_target_map_t, 56)
ABI_OFFSET(ompt_record_target_map_t, target_id, 0)
ABI_OFFSET(ompt_record_target_map_t, nitems, 8)
ABI_OFFSET(ompt_record_target_map_t, host_addr, 16)
ABI_OFFSET(ompt_record_target_map_t, device_addr, 24)
ABI_OFFSET(ompt_record_target_map_t, bytes, 32)
ABI_OFFSET(ompt_record_target_map_t, mapping_flags, 40)
ABI_OFFSET(ompt_record_target_map_t, codeptr_ra, 48)

ABI_SIZE(ompt_record_target_kernel_t, 24)
ABI_OFFSET(ompt_record_target_kernel_t, host_op_id, 0)
ABI_OFFSET(ompt_record_target_kernel_t, requested_num_teams, 8)
ABI_OFFSET(ompt_record_target_kernel_t, granted_num_teams, 12)
ABI_OFFSET(ompt_record_target_kernel_t, end_time, 16)

ABI_SIZE(ompt_record_control_tool_t, 24)
ABI_OFFSET(ompt_record_control_tool_t, command, 0)
ABI_OFFSET(ompt_record_control_tool_t, modifier, 8)
ABI_OFFSET(ompt_record_control_tool_t, codeptr_ra, 16)

ABI_SIZE(ompt_record_error_t, 32)
ABI_OFFSET(ompt_record_error_t, severity, 0)
ABI_OFFSET(ompt_record_error_t, message, 8)
ABI_OFFSET(ompt_record_error_t, length, 16)
ABI_OFFSET(ompt_record_error_t, codeptr_ra, 24)

ABI_SIZE(ompt_record_ompt_t, 104)
ABI_OFFSET(ompt_record_ompt_t, type, 0)
ABI_OFFSET(ompt_record_ompt_t, time, 8)
ABI_OFFSET(ompt_record_ompt_t, thread_id, 16)
ABI_OFFSET(ompt_record_ompt_t, target_id, 24)
ABI_OFFSET(ompt_record_ompt_t, record, 32)
ABI_OFFSET(ompt_record_ompt_t, record.thread_begin, 32)
ABI_OFFSET(ompt_record_ompt_t, record.work, 32)
ABI_OFFSET(ompt_record_ompt_t, record.target_data_op, 32)
ABI_OFFSET(ompt_record_ompt_t, record.control_tool, 32)
#ifdef ABI_ONLY_OURS
ABI_OFFSET(ompt_record_ompt_t, record.error, 32)
#endif

ABI_SIZE(ompd_address_t, 16)
ABI_OFFSET(ompd_address_t, segment, 0)
ABI_OFFSET(ompd_address_t, address, 8)

ABI_SIZE(ompd_frame_info_t, 24)
ABI_OFFSET(ompd_frame_info_t, frame_address, 0)
ABI_OFFSET(ompd_frame_info_t, frame_flag, 16)

ABI_SIZE(ompd_device_type_sizes_t, 6)
ABI_OFFSET(ompd_device_type_sizes_t, sizeof_char, 0)
ABI_OFFSET(ompd_device_type_sizes_t, sizeof_short, 1)
ABI_OFFSET(ompd_device_type_sizes_t, sizeof_int, 2)
ABI_OFFSET(ompd_device_type_sizes_t, sizeof_long, 3)
ABI_OFFSET(ompd_device_type_sizes_t, sizeof_long_long, 4)
ABI_OFFSET(ompd_device_type_sizes_t, sizeof_pointer, 5)

ABI_SIZE(ompd_callbacks_t, 88)
ABI_OFFSET(ompd_callbacks_t, alloc_memory, 0)
ABI_OFFSET(ompd_callbacks_t, free_memory, 8)
ABI_OFFSET(ompd_callbacks_t, print_string, 16)
ABI_OFFSET(ompd_callbacks_t, sizeof_type, 24)
ABI_OFFSET(ompd_callbacks_t, symbol_addr_lookup, 32)
ABI_OFFSET(ompd_callbacks_t, read_memory, 40)
ABI_OFFSET(ompd_callbacks_t, write_memory, 48)
ABI_OFFSET(ompd_callbacks_t, read_string, 56)
ABI_OFFSET(ompd_callbacks_t, device_to_host, 64)
ABI_OFFSET(ompd_callbacks_t, host_to_device, 72)
ABI_OFFSET(ompd_callbacks_t, get_thread_context_for_thread_id, 80)

/* ---- Enumerations: size and every enumerator */

ABI_SIZE(ompt_callbacks_t, 4)
ABI_VALUE(ompt_callback_thread_begin, 1)
ABI_VALUE(ompt_callback_thread_end, 2)
ABI_VALUE(ompt_callback_parallel_begin, 3)
ABI_VALUE(ompt_callback_parallel_end, 4)
ABI_VALUE(ompt_callback_task_create, 5)
ABI_VALUE(ompt_callback_task_schedule, 6)
ABI_VALUE(ompt_callback_implicit_task, 7)
ABI_VALUE(ompt_callback_target, 8)
ABI_VALUE(ompt_callback_target_data_op, 9)
ABI_VALUE(ompt_callback_target_submit, 10)
ABI_VALUE(ompt_callback_control_tool, 11)
ABI_VALUE(ompt_callback_device_initialize, 12)
ABI_VALUE(ompt_callback_device_finalize, 13)
ABI_VALUE(ompt_callback_device_load, 14)
ABI_VALUE(ompt_callback_device_unload, 15)
ABI_VALUE(ompt_callback_sync_region_wait, 16)
ABI_VALUE(ompt_callback_mutex_released, 17)
ABI_VALUE(ompt_callback_dependences, 18)
ABI_VALUE(ompt_callback_task_dependence, 19)
ABI_VALUE(ompt_callback_work, 20)
ABI_VALUE(ompt_callback_masked, 21)
ABI_VALUE(ompt_callback_master, 21)
ABI_VALUE(ompt_callback_target_map, 22)
ABI_VALUE(ompt_callback_sync_region, 23)
ABI_VALUE(ompt_callback_lock_init, 24)
ABI_VALUE(ompt_callback_lock_destroy, 25)
ABI_VALUE(ompt_callback_mutex_acquire, 26)
ABI_VALUE(ompt_callback_mutex_acquired, 27)
ABI_VALUE(ompt_callback_nest_lock, 28)
ABI_VALUE(ompt_callback_flush, 29)
ABI_VALUE(ompt_callback_cancel, 30)
ABI_VALUE(ompt_callback_reduction, 31)
ABI_VALUE(ompt_callback_dispatch, 32)
ABI_VALUE(ompt_callback_target_emi, 33)
ABI_VALUE(ompt_callback_target_data_op_emi, 34)
ABI_VALUE(ompt_callback_target_submit_emi, 35)
ABI_VALUE(ompt_callback_target_map_emi, 36)
ABI_VALUE(ompt_callback_error, 37)

ABI_SIZE(ompt_record_t, 4)
ABI_VALUE(ompt_record_ompt, 1)
ABI_VALUE(ompt_record_native, 2)
ABI_VALUE(ompt_record_invalid, 3)

ABI_SIZE(ompt_record_native_t, 4)
ABI_VALUE(ompt_record_native_info, 1)
ABI_VALUE(ompt_record_native_event, 2)

ABI_SIZE(ompt_set_result_t, 4)
ABI_VALUE(ompt_set_error, 0)
ABI_VALUE(ompt_set_never, 1)
ABI_VALUE(ompt_set_impossible, 2)
ABI_VALUE(ompt_set_sometimes, 3)
ABI_VALUE(ompt_set_sometimes_paired, 4)
ABI_VALUE(ompt_set_always, 5)

ABI_SIZE(ompt_thread_t, 4)
ABI_VALUE(ompt_thread_initial, 1)
ABI_VALUE(ompt_thread_worker, 2)
ABI_VALUE(ompt_thread_other, 3)
ABI_VALUE(ompt_thread_unknown, 4)

ABI_SIZE(ompt_scope_endpoint_t, 4)
ABI_VALUE(ompt_scope_begin, 1)
ABI_VALUE(ompt_scope_end, 2)
ABI_VALUE(ompt_scope_beginend, 3)

ABI_SIZE(ompt_dispatch_t, 4)
ABI_VALUE(ompt_dispatch_iteration, 1)
ABI_VALUE(ompt_dispatch_section, 2)
#ifdef ABI_ONLY_OURS
ABI_VALUE(ompt_dispatch_ws_loop_chunk, 3)
ABI_VALUE(ompt_dispatch_taskloop_chunk, 4)
ABI_VALUE(ompt_dispatch_distribute_chunk, 5)
#endif

ABI_SIZE(ompt_sync_region_t, 4)
ABI_VALUE(ompt_sync_region_barrier, 1)
ABI_VALUE(ompt_sync_region_barrier_implicit, 2)
ABI_VALUE(ompt_sync_region_barrier_explicit, 3)
ABI_VALUE(ompt_sync_region_barrier_implementation, 4)
ABI_VALUE(ompt_sync_region_taskwait, 5)
ABI_VALUE(ompt_sync_region_taskgroup, 6)
ABI_VALUE(ompt_sync_region_reduction, 7)
ABI_VALUE(ompt_sync_region_barrier_implicit_workshare, 8)
ABI_VALUE(ompt_sync_region_barrier_implicit_parallel, 9)
ABI_VALUE(ompt_sync_region_barrier_teams, 10)

ABI_SIZE(ompt_target_data_op_t, 4)
ABI_VALUE(ompt_target_data_alloc, 1)
ABI_VALUE(ompt_target_data_transfer_to_device, 2)
ABI_VALUE(ompt_target_data_transfer_from_device, 3)
ABI_VALUE(ompt_target_data_delete, 4)
ABI_VALUE(ompt_target_data_associate, 5)
ABI_VALUE(ompt_target_data_disassociate, 6)
ABI_VALUE(ompt_target_data_alloc_async, 17)
ABI_VALUE(ompt_target_data_transfer_to_device_async, 18)
ABI_VALUE(ompt_target_data_transfer_from_device_async, 19)
ABI_VALUE(ompt_target_data_delete_async, 20)

ABI_SIZE(ompt_work_t, 4)
ABI_VALUE(ompt_work_loop, 1)
ABI_VALUE(ompt_work_sections, 2)
ABI_VALUE(ompt_work_single_executor, 3)
ABI_VALUE(ompt_work_single_other, 4)
ABI_VALUE(ompt_work_workshare, 5)
ABI_VALUE(ompt_work_distribute, 6)
ABI_VALUE(ompt_work_taskloop, 7)
ABI_VALUE(ompt_work_scope, 8)
#ifdef ABI_ONLY_OURS
ABI_VALUE(ompt_work_loop_static, 10)
ABI_VALUE(ompt_work_loop_dynamic, 11)
ABI_VALUE(ompt_work_loop_guided, 12)
ABI_VALUE(ompt_work_loop_other, 13)
#endif

ABI_SIZE(ompt_mutex_t, 4)
ABI_VALUE(ompt_mutex_lock, 1)
ABI_VALUE(ompt_mutex_test_lock, 2)
ABI_VALUE(ompt_mutex_nest_lock, 3)
ABI_VALUE(ompt_mutex_test_nest_lock, 4)
ABI_VALUE(ompt_mutex_critical, 5)
ABI_VALUE(ompt_mutex_atomic, 6)
ABI_VALUE(ompt_mutex_ordered, 7)

ABI_SIZE(ompt_native_mon_flag_t, 4)
ABI_VALUE(ompt_native_data_motion_explicit, 0x01)
ABI_VALUE(ompt_native_data_motion_implicit, 0x02)
ABI_VALUE(ompt_native_kernel_invocation, 0x04)
ABI_VALUE(ompt_native_kernel_execution, 0x08)
ABI_VALUE(ompt_native_driver, 0x10)
ABI_VALUE(ompt_native_runtime, 0x20)
ABI_VALUE(ompt_native_overhead, 0x40)
ABI_VALUE(ompt_native_idleness, 0x80)

ABI_SIZE(ompt_task_flag_t, 4)
ABI_VALUE(ompt_task_initial, 0x00000001)
ABI_VALUE(ompt_task_implicit, 0x00000002)
ABI_VALUE(ompt_task_explicit, 0x00000004)
ABI_VALUE(ompt_task_target, 0x00000008)
ABI_VALUE(ompt_task_taskwait, 0x00000010)
ABI_VALUE(ompt_task_undeferred, 0x08000000)
ABI_VALUE(ompt_task_untied, 0x10000000)
ABI_VALUE(ompt_task_final, 0x20000000)
ABI_VALUE(ompt_task_mergeable, 0x40000000)
ABI_VALUE(ompt_task_merged, 0x80000000)

ABI_SIZE(ompt_parallel_flag_t, 4)
ABI_VALUE(ompt_parallel_invoker_program, 0x00000001)
ABI_VALUE(ompt_parallel_invoker_runtime, 0x00000002)
ABI_VALUE(ompt_parallel_league, 0x40000000)
ABI_VALUE(ompt_parallel_team, 0x80000000)

ABI_SIZE(ompt_task_status_t, 4)
ABI_VALUE(ompt_task_complete, 1)
ABI_VALUE(ompt_task_yield, 2)
ABI_VALUE(ompt_task_cancel, 3)
ABI_VALUE(ompt_task_detach, 4)
ABI_VALUE(ompt_task_early_fulfill, 5)
ABI_VALUE(ompt_task_late_fulfill, 6)
ABI_VALUE(ompt_task_switch, 7)
ABI_VALUE(ompt_taskwait_complete, 8)

ABI_SIZE(ompt_target_t, 4)
ABI_VALUE(ompt_target, 1)
ABI_VALUE(ompt_target_enter_data, 2)
ABI_VALUE(ompt_target_exit_data, 3)
ABI_VALUE(ompt_target_update, 4)
ABI_VALUE(ompt_target_nowait, 9)
ABI_VALUE(ompt_target_enter_data_nowait, 10)
ABI_VALUE(ompt_target_exit_data_nowait, 11)
ABI_VALUE(ompt_target_update_nowait, 12)

ABI_SIZE(ompt_target_map_flag_t, 4)
ABI_VALUE(ompt_target_map_flag_to, 0x01)
ABI_VALUE(ompt_target_map_flag_from, 0x02)
ABI_VALUE(ompt_target_map_flag_alloc, 0x04)
ABI_VALUE(ompt_target_map_flag_release, 0x08)
ABI_VALUE(ompt_target_map_flag_delete, 0x10)
ABI_VALUE(ompt_target_map_flag_implicit, 0x20)
#ifdef ABI_ONLY_OURS
ABI_VALUE(ompt_target_map_flag_always, 0x40)
ABI_VALUE(ompt_target_map_flag_present, 0x80)
ABI_VALUE(ompt_target_map_flag_close, 0x100)
ABI_VALUE(ompt_target_map_flag_shared, 0x200)
#endif

ABI_SIZE(ompt_dependence_type_t, 4)
ABI_VALUE(ompt_dependence_type_in, 1)
ABI_VALUE(ompt_dependence_type_out, 2)
ABI_VALUE(ompt_dependence_type_inout, 3)
ABI_VALUE(ompt_dependence_type_mutexinoutset, 4)
ABI_VALUE(ompt_dependence_type_source, 5)
ABI_VALUE(ompt_dependence_type_sink, 6)
ABI_VALUE(ompt_dependence_type_inoutset, 7)
#ifdef ABI_ONLY_OURS
ABI_VALUE(ompt_dependence_type_out_all_memory, 34)
ABI_VALUE(ompt_dependence_type_inout_all_memory, 35)
#endif

ABI_SIZE(ompt_severity_t, 4)
ABI_VALUE(ompt_warning, 1)
ABI_VALUE(ompt_fatal, 2)

ABI_SIZE(ompt_cancel_flag_t, 4)
ABI_VALUE(ompt_cancel_parallel, 0x01)
ABI_VALUE(ompt_cancel_sections, 0x02)
ABI_VALUE(ompt_cancel_loop, 0x04)
ABI_VALUE(ompt_cancel_taskgroup, 0x08)
ABI_VALUE(ompt_cancel_activated, 0x10)
ABI_VALUE(ompt_cancel_detected, 0x20)
ABI_VALUE(ompt_cancel_discarded_task, 0x40)

ABI_SIZE(ompt_frame_flag_t, 4)
ABI_VALUE(ompt_frame_runtime, 0x00)
ABI_VALUE(ompt_frame_application, 0x01)
ABI_VALUE(ompt_frame_cfa, 0x10)
ABI_VALUE(ompt_frame_framepointer, 0x20)
ABI_VALUE(ompt_frame_stackaddress, 0x30)

ABI_SIZE(ompt_state_t, 4)
ABI_VALUE(ompt_state_work_serial, 0x000)
ABI_VALUE(ompt_state_work_parallel, 0x001)
ABI_VALUE(ompt_state_work_reduction, 0x002)
ABI_VALUE(ompt_state_wait_barrier, 0x010)
ABI_VALUE(ompt_state_wait_barrier_implicit_parallel, 0x011)
ABI_VALUE(ompt_state_wait_barrier_implicit_workshare, 0x012)
ABI_VALUE(ompt_state_wait_barrier_implicit, 0x013)
ABI_VALUE(ompt_state_wait_barrier_explicit, 0x014)
ABI_VALUE(ompt_state_wait_barrier_implementation, 0x015)
ABI_VALUE(ompt_state_wait_barrier_teams, 0x016)
ABI_VALUE(ompt_state_wait_taskwait, 0x020)
ABI_VALUE(ompt_state_wait_taskgroup, 0x021)
ABI_VALUE(ompt_state_wait_mutex, 0x040)
ABI_VALUE(ompt_state_wait_lock, 0x041)
ABI_VALUE(ompt_state_wait_critical, 0x042)
ABI_VALUE(ompt_state_wait_atomic, 0x043)
ABI_VALUE(ompt_state_wait_ordered, 0x044)
ABI_VALUE(ompt_state_wait_target, 0x080)
ABI_VALUE(ompt_state_wait_target_map, 0x081)
ABI_VALUE(ompt_state_wait_target_update, 0x082)
ABI_VALUE(ompt_state_idle, 0x100)
ABI_VALUE(ompt_state_overhead, 0x101)
ABI_VALUE(ompt_state_undefined, 0x102)

ABI_SIZE(ompd_scope_t, 4)
ABI_VALUE(ompd_scope_global, 1)
ABI_VALUE(ompd_scope_address_space, 2)
ABI_VALUE(ompd_scope_thread, 3)
ABI_VALUE(ompd_scope_parallel, 4)
ABI_VALUE(ompd_scope_implicit_task, 5)
ABI_VALUE(ompd_scope_task, 6)

ABI_SIZE(ompd_rc_t, 4)
ABI_VALUE(ompd_rc_ok, 0)
ABI_VALUE(ompd_rc_unavailable, 1)
ABI_VALUE(ompd_rc_stale_handle, 2)
ABI_VALUE(ompd_rc_bad_input, 3)
ABI_VALUE(ompd_rc_error, 4)
ABI_VALUE(ompd_rc_unsupported, 5)
ABI_VALUE(ompd_rc_needs_state_tracking, 6)
ABI_VALUE(ompd_rc_incompatible, 7)
ABI_VALUE(ompd_rc_device_read_error, 8)
ABI_VALUE(ompd_rc_device_write_error, 9)
ABI_VALUE(ompd_rc_nomem, 10)
ABI_VALUE(ompd_rc_incomplete, 11)
ABI_VALUE(ompd_rc_callback_error, 12)

ABI_SIZE(kmp_mutex_impl_t, 4)
ABI_VALUE(kmp_mutex_impl_none, 0)
ABI_VALUE(kmp_mutex_impl_spin, 1)
ABI_VALUE(kmp_mutex_impl_queuing, 2)
ABI_VALUE(kmp_mutex_impl_speculative, 3)

/* ---- Callback and entry-point signatures */
ABI_SIGNATURE(ompt_interface_fn_t, void (*)(void))
ABI_SIGNATURE(ompt_function_lookup_t, ompt_interface_fn_t (*)(const char *))
ABI_SIGNATURE(ompt_callback_t, void (*)(void))
ABI_SIGNATURE(ompt_initialize_t,
              int (*)(ompt_function_lookup_t, int, ompt_data_t *))
ABI_SIGNATURE(ompt_finalize_t, void (*)(ompt_data_t *))
ABI_SIGNATURE(ompt_enumerate_states_t, int (*)(int, int *, const char **))
ABI_SIGNATURE(ompt_enumerate_mutex_impls_t, int (*)(int, int *, const char **))
ABI_SIGNATURE(ompt_set_callback_t,
              ompt_set_result_t (*)(ompt_callbacks_t, ompt_callback_t))
ABI_SIGNATURE(ompt_get_callback_t,
              int (*)(ompt_callbacks_t, ompt_callback_t *))
ABI_SIGNATURE(ompt_get_state_t, int (*)(ompt_wait_id_t *))
ABI_SIGNATURE(ompt_get_parallel_info_t, int (*)(int, ompt_data_t **, int *))
ABI_SIGNATURE(ompt_get_task_info_t,
              int (*)(int, int *, ompt_data_t **, ompt_frame_t **,
                      ompt_data_t **, int *))
ABI_SIGNATURE(ompt_get_task_memory_t, int (*)(void **, size_t *, int))
ABI_SIGNATURE(ompt_get_thread_data_t, ompt_data_t *(*)(void))
ABI_SIGNATURE(ompt_get_unique_id_t, uint64_t (*)(void))
ABI_SIGNATURE(ompt_finalize_tool_t, void (*)(void))
ABI_SIGNATURE(ompt_get_num_procs_t, int (*)(void))
ABI_SIGNATURE(ompt_get_num_places_t, int (*)(void))
ABI_SIGNATURE(ompt_get_place_proc_ids_t, int (*)(int, int, int *))
ABI_SIGNATURE(ompt_get_place_num_t, int (*)(void))
ABI_SIGNATURE(ompt_get_partition_place_nums_t, int (*)(int, int *))
ABI_SIGNATURE(ompt_get_proc_id_t, int (*)(void))
ABI_SIGNATURE(ompt_get_target_info_t,
              int (*)(uint64_t *, ompt_id_t *, ompt_id_t *))
ABI_SIGNATURE(ompt_get_num_devices_t, int (*)(void))
ABI_SIGNATURE(ompt_callback_buffer_request_t,
              void (*)(int, ompt_buffer_t **, size_t *))
ABI_SIGNATURE(ompt_callback_buffer_complete_t,
              void (*)(int, ompt_buffer_t *, size_t, ompt_buffer_cursor_t, int))
ABI_SIGNATURE(ompt_get_device_num_procs_t, int (*)(ompt_device_t *))
ABI_SIGNATURE(ompt_get_device_time_t, ompt_device_time_t (*)(ompt_device_t *))
ABI_SIGNATURE(ompt_translate_time_t,
              double (*)(ompt_device_t *, ompt_device_time_t))
ABI_SIGNATURE(ompt_set_trace_ompt_t,
              ompt_set_result_t (*)(ompt_device_t *, unsigned int,
                                    unsigned int))
ABI_SIGNATURE(ompt_set_trace_native_t,
              ompt_set_result_t (*)(ompt_device_t *, int, int))
ABI_SIGNATURE(ompt_start_trace_t,
              int (*)(ompt_device_t *, ompt_callback_buffer_request_t,
                      ompt_callback_buffer_complete_t))
ABI_SIGNATURE(ompt_pause_trace_t, int (*)(ompt_device_t *, int))
ABI_SIGNATURE(ompt_flush_trace_t, int (*)(ompt_device_t *))
ABI_SIGNATURE(ompt_stop_trace_t, int (*)(ompt_device_t *))
ABI_SIGNATURE(ompt_advance_buffer_cursor_t,
              int (*)(ompt_device_t *, ompt_buffer_t *, size_t,
                      ompt_buffer_cursor_t, ompt_buffer_cursor_t *))
ABI_SIGNATURE(ompt_get_record_type_t,
              ompt_record_t (*)(ompt_buffer_t *, ompt_buffer_cursor_t))
ABI_SIGNATURE(ompt_get_record_native_t,
              void *(*)(ompt_buffer_t *, ompt_buffer_cursor_t, ompt_id_t *))
ABI_SIGNATURE(ompt_get_record_abstract_t, ompt_record_abstract_t *(*)(void *))
ABI_SIGNATURE(ompt_callback_thread_begin_t,
              void (*)(ompt_thread_t, ompt_data_t *))
ABI_SIGNATURE(ompt_callback_thread_end_t, void (*)(ompt_data_t *))
ABI_SIGNATURE(ompt_callback_parallel_begin_t,
              void (*)(ompt_data_t *, const ompt_frame_t *, ompt_data_t *,
                       unsigned int, int, const void *))
ABI_SIGNATURE(ompt_callback_parallel_end_t,
              void (*)(ompt_data_t *, ompt_data_t *, int, const void *))
ABI_SIGNATURE(ompt_callback_work_t,
              void (*)(ompt_work_t, ompt_scope_endpoint_t, ompt_data_t *,
                       ompt_data_t *, uint64_t, const void *))
ABI_SIGNATURE(ompt_callback_dispatch_t,
              void (*)(ompt_data_t *, ompt_data_t *, ompt_dispatch_t,
                       ompt_data_t))
ABI_SIGNATURE(ompt_callback_task_create_t,
              void (*)(ompt_data_t *, const ompt_frame_t *, ompt_data_t *, int,
                       int, const void *))
ABI_SIGNATURE(ompt_callback_dependences_t,
              void (*)(ompt_data_t *, const ompt_dependence_t *, int))
ABI_SIGNATURE(ompt_callback_task_dependence_t,
              void (*)(ompt_data_t *, ompt_data_t *))
ABI_SIGNATURE(ompt_callback_task_schedule_t,
              void (*)(ompt_data_t *, ompt_task_status_t, ompt_data_t *))
ABI_SIGNATURE(ompt_callback_implicit_task_t,
              void (*)(ompt_scope_endpoint_t, ompt_data_t *, ompt_data_t *,
                       unsigned int, unsigned int, int))
ABI_SIGNATURE(ompt_callback_masked_t,
              void (*)(ompt_scope_endpoint_t, ompt_data_t *, ompt_data_t *,
                       const void *))
ABI_SIGNATURE(ompt_callback_master_t,
              void (*)(ompt_scope_endpoint_t, ompt_data_t *, ompt_data_t *,
                       const void *))
ABI_SIGNATURE(ompt_callback_sync_region_t,
              void (*)(ompt_sync_region_t, ompt_scope_endpoint_t,
                       ompt_data_t *, ompt_data_t *, const void *))
ABI_SIGNATURE(ompt_callback_mutex_acquire_t,
              void (*)(ompt_mutex_t, unsigned int, unsigned int,
                       ompt_wait_id_t, const void *))
ABI_SIGNATURE(ompt_callback_mutex_t,
              void (*)(ompt_mutex_t, ompt_wait_id_t, const void *))
ABI_SIGNATURE(ompt_callback_nest_lock_t,
              void (*)(ompt_scope_endpoint_t, ompt_wait_id_t, const void *))
ABI_SIGNATURE(ompt_callback_flush_t, void (*)(ompt_data_t *, const void *))
ABI_SIGNATURE(ompt_callback_cancel_t,
              void (*)(ompt_data_t *, int, const void *))
ABI_SIGNATURE(ompt_callback_device_initialize_t,
              void (*)(int, const char *, ompt_device_t *,
                       ompt_function_lookup_t, const char *))
ABI_SIGNATURE(ompt_callback_device_finalize_t, void (*)(int))
ABI_SIGNATURE(ompt_callback_device_load_t,
              void (*)(int, const char *, int64_t, void *, size_t, void *,
                       void *, uint64_t))
ABI_SIGNATURE(ompt_callback_device_unload_t, void (*)(int, uint64_t))
ABI_SIGNATURE(ompt_callback_target_t,
              void (*)(ompt_target_t, ompt_scope_endpoint_t, int,
                       ompt_data_t *, ompt_id_t, const void *))
ABI_SIGNATURE(ompt_callback_target_emi_t,
              void (*)(ompt_target_t, ompt_scope_endpoint_t, int,
                       ompt_data_t *, ompt_data_t *, ompt_data_t *,
                       const void *))
ABI_SIGNATURE(ompt_callback_target_data_op_t,
              void (*)(ompt_id_t, ompt_id_t, ompt_target_data_op_t, void *,
                       int, void *, int, size_t, const void *))
ABI_SIGNATURE(ompt_callback_target_data_op_emi_t,
              void (*)(ompt_scope_endpoint_t, ompt_data_t *, ompt_data_t *,
                       ompt_id_t *, ompt_target_data_op_t, void *, int, void *,
                       int, size_t, const void *))
ABI_SIGNATURE(ompt_callback_target_map_t,
              void (*)(ompt_id_t, unsigned int, void **, void **, size_t *,
                       unsigned int *, const void *))
ABI_SIGNATURE(ompt_callback_target_map_emi_t,
              void (*)(ompt_data_t *, unsigned int, void **, void **, size_t *,
                       unsigned int *, const void *))
ABI_SIGNATURE(ompt_callback_target_submit_t,
              void (*)(ompt_id_t, ompt_id_t, unsigned int))
ABI_SIGNATURE(ompt_callback_target_submit_emi_t,
              void (*)(ompt_scope_endpoint_t, ompt_data_t *, ompt_id_t *,
                       unsigned int))
ABI_SIGNATURE(ompt_callback_control_tool_t,
              int (*)(uint64_t, uint64_t, void *, const void *))
ABI_SIGNATURE(ompt_callback_error_t,
              void (*)(ompt_severity_t, const char *, size_t, const void *))
ABI_SIGNATURE(ompt_get_record_ompt_t,
              ompt_record_ompt_t *(*)(ompt_buffer_t *, ompt_buffer_cursor_t))
ABI_SIGNATURE(ompd_callback_memory_alloc_fn_t,
              ompd_rc_t (*)(ompd_size_t, void **))
ABI_SIGNATURE(ompd_callback_memory_free_fn_t, ompd_rc_t (*)(void *))
ABI_SIGNATURE(ompd_callback_get_thread_context_for_thread_id_fn_t,
              ompd_rc_t (*)(ompd_address_space_context_t *, ompd_thread_id_t,
                            ompd_size_t, const void *,
                            ompd_thread_context_t **))
ABI_SIGNATURE(ompd_callback_sizeof_fn_t,
              ompd_rc_t (*)(ompd_address_space_context_t *,
                            ompd_device_type_sizes_t *))
ABI_SIGNATURE(ompd_callback_symbol_addr_fn_t,
              ompd_rc_t (*)(ompd_address_space_context_t *,
                            ompd_thread_context_t *, const char *,
                            ompd_address_t *, const char *))
ABI_SIGNATURE(ompd_callback_memory_read_fn_t,
              ompd_rc_t (*)(ompd_address_space_context_t *,
                            ompd_thread_context_t *, const ompd_address_t *,
                            ompd_size_t, void *))
ABI_SIGNATURE(ompd_callback_memory_write_fn_t,
              ompd_rc_t (*)(ompd_address_space_context_t *,
                            ompd_thread_context_t *, const ompd_address_t *,
                            ompd_size_t, const void *))
ABI_SIGNATURE(ompd_callback_device_host_fn_t,
              ompd_rc_t (*)(ompd_address_space_context_t *, const void *,
                            ompd_size_t, ompd_size_t, void *))
ABI_SIGNATURE(ompd_callback_print_string_fn_t,
              ompd_rc_t (*)(const char *, int))

/* ---- Functions the header declares */
#ifdef ABI_ONLY_OURS
ABI_FUNCTION(ompt_start_tool,
             ompt_start_tool_result_t *(*)(unsigned int, const char *))
#endif
