/*
 * tt_check.h -- checks shared by the target tests: one target-family
 * construct's callbacks, and the trace records of every construct against
 * its callbacks.  Include after tt_tool.h.
 */
#ifndef TT_CHECK_H
#define TT_CHECK_H

#include "pomp.h"
#include "tt_tool.h"

/* The target_map callbacks of an instance, from event index *i on. */
static void tt_check_maps(int *i, ompt_id_t tid, const POMP_Map_t *maps,
                          int nmaps, int host_dev) {
  int item = 0;
  while (item < nmaps) {
    int k = *i;
    if (k >= tt_nevents || (tt_events[k].cb != ompt_callback_target_map_emi &&
                            tt_events[k].cb != ompt_callback_target_map)) {
      TT_FAIL("expected target_map for item %d at event %d", item, k);
      return;
    }
    tt_event *e = &tt_events[k];
    TT_CHECK(e->target_id == tid, "map: target id %llu, want %llu",
             (unsigned long long)e->target_id, (unsigned long long)tid);
    for (unsigned j = 0; j < e->nitems && j < TT_MAX_ITEMS && item < nmaps;
         j++, item++) {
      TT_CHECK(e->haddr[j] == maps[item].addr, "map item %d: address", item);
      TT_CHECK(e->ibytes[j] == maps[item].size, "map item %d: %zu bytes, "
               "want %llu", item, e->ibytes[j],
               (unsigned long long)maps[item].size);
      TT_CHECK(e->iflags[j] == maps[item].flags, "map item %d: flags %#x, "
               "want %#x", item, e->iflags[j], maps[item].flags);
      if (host_dev)
        TT_CHECK(e->daddr[j] == maps[item].addr,
                 "map item %d: host fallback maps onto itself", item);
    }
    if (e->nitems > TT_MAX_ITEMS)
      item += (int)e->nitems - TT_MAX_ITEMS;
    (*i)++;
  }
}

/* One target (kind ompt_target / nowait) or enter/exit data / update
 * instance on the host device, its callbacks starting at event *i.  For a
 * target region, the callbacks of its kernel; returns the target id. */
__attribute__((unused)) static ompt_id_t
tt_check_host_construct(int *i, int kind, int device,
                                         const POMP_Map_t *maps, int nmaps,
                                         int with_map) {
  int emi = tt_emi;
  int k = *i;
  if (k >= tt_nevents || !tt_is_target_cb(tt_events[k].cb) ||
      tt_events[k].endpoint != ompt_scope_begin) {
    TT_FAIL("expected target begin (kind %d) at event %d", kind, k);
    return 0;
  }
  tt_event *b = &tt_events[k];
  TT_CHECK(b->kind == kind, "target kind %d, want %d", b->kind, kind);
  TT_CHECK(b->device == device, "device %d, want %d", b->device, device);
  TT_CHECK(b->codeptr != NULL, "target begin without codeptr_ra");
  TT_CHECK(b->task_data != NULL, "target begin without task_data");
  TT_CHECK(b->info_ret == 1 && b->info_dev == (uint64_t)device &&
               b->info_tid == b->target_id,
           "ompt_get_target_info in target begin: %d dev %llu id %llu",
           b->info_ret, (unsigned long long)b->info_dev,
           (unsigned long long)b->info_tid);
  if (emi)
    TT_CHECK(b->target_data && b->target_task_data,
             "EMI target without data pointers");
  ompt_id_t tid = b->target_id;
  TT_CHECK(tid != 0, "target id 0");
  (*i)++;
  if (with_map)
    tt_check_maps(i, tid, maps, nmaps, 1);
  int base = kind > ompt_target_nowait - 1 ? kind - 8 : kind;
  if (base == ompt_target) {
    int sb = emi ? ompt_callback_target_submit_emi : ompt_callback_target_submit;
    k = *i;
    TT_CHECK(k < tt_nevents && tt_events[k].cb == sb &&
                 tt_events[k].endpoint ==
                     (emi ? ompt_scope_begin : ompt_scope_beginend) &&
                 tt_events[k].target_id == tid && tt_events[k].host_op_id,
             "expected submit begin at event %d", k);
    ompt_id_t op = k < tt_nevents ? tt_events[k].host_op_id : 0;
    if (k < tt_nevents)
      TT_CHECK(tt_events[k].info_ret == 1 && tt_events[k].info_op == op,
               "get_target_info host_op_id in submit");
    (*i)++;
    if (emi) {
      k = *i;
      TT_CHECK(k < tt_nevents && tt_events[k].cb == sb &&
                   tt_events[k].endpoint == ompt_scope_end &&
                   tt_events[k].target_id == tid &&
                   tt_events[k].host_op_id == op,
               "expected submit end at event %d", k);
      (*i)++;
    }
  }
  k = *i;
  /* Host fallback: no data operation, ever. */
  if (k >= tt_nevents || !tt_is_target_cb(tt_events[k].cb) ||
      tt_events[k].endpoint != ompt_scope_end) {
    TT_FAIL("expected target end (kind %d) at event %d (cb %d)", kind, k,
            k < tt_nevents ? tt_events[k].cb : -1);
    return tid;
  }
  tt_event *e = &tt_events[k];
  TT_CHECK(e->kind == kind && e->device == device && e->target_id == tid &&
               e->codeptr == b->codeptr,
           "target end does not match its begin");
  if (emi && (kind & 8) == 0)
    TT_CHECK(e->target_data == b->target_data,
             "target_data moved between begin and end");
  (*i)++;
  return tid;
}

/* Every record against the callbacks: target begin/end records for each
 * target callback pair, kernel records for each submit, map records for
 * each map callback; times ordered and inside [t0, t1] (device times). */
__attribute__((unused)) static void tt_check_records(uint64_t t0, uint64_t t1) {
  int ntarget = 0, nsubmit = 0, nmap = 0, ndataop = 0;
  for (int i = 0; i < tt_nevents; i++) {
    tt_event *e = &tt_events[i];
    if (tt_is_target_cb(e->cb)) {
      ntarget++;
      int found = 0;
      for (int r = 0; r < tt_nrecords; r++) {
        ompt_record_ompt_t *x = &tt_records[r].r;
        if (x->type == ompt_callback_target &&
            x->record.target.target_id == e->target_id &&
            x->target_id == e->target_id &&
            (int)x->record.target.endpoint == e->endpoint) {
          found++;
          TT_CHECK((int)x->record.target.kind == e->kind &&
                       x->record.target.device_num == e->device &&
                       x->record.target.codeptr_ra == e->codeptr,
                   "target record differs from its callback");
          TT_CHECK(x->time >= t0 && x->time <= t1,
                   "target record time outside the run");
          TT_CHECK(x->thread_id != 0, "record without thread id");
        }
      }
      TT_CHECK(found == 1, "target %s callback (id %llu): %d records",
               e->endpoint == ompt_scope_begin ? "begin" : "end",
               (unsigned long long)e->target_id, found);
    } else if ((e->cb == ompt_callback_target_submit_emi &&
                e->endpoint == ompt_scope_end) ||
               e->cb == ompt_callback_target_submit) {
      nsubmit++;
      int found = 0;
      for (int r = 0; r < tt_nrecords; r++) {
        ompt_record_ompt_t *x = &tt_records[r].r;
        if (x->type == ompt_callback_target_submit &&
            x->record.target_kernel.host_op_id == e->host_op_id) {
          found++;
          TT_CHECK(x->target_id == e->target_id, "kernel record target id");
          TT_CHECK(x->time <= x->record.target_kernel.end_time &&
                       x->time >= t0 && x->record.target_kernel.end_time <= t1,
                   "kernel record times");
          /* Inside its target region. */
          for (int q = 0; q < tt_nrecords; q++) {
            ompt_record_ompt_t *y = &tt_records[q].r;
            if (y->type != ompt_callback_target ||
                y->target_id != x->target_id)
              continue;
            if (y->record.target.endpoint == ompt_scope_begin)
              TT_CHECK(y->time <= x->time, "kernel before its region");
            else
              TT_CHECK(y->time >= x->record.target_kernel.end_time,
                       "kernel after its region");
          }
        }
      }
      TT_CHECK(found == 1, "submit (op %llu): %d kernel records",
               (unsigned long long)e->host_op_id, found);
    } else if (e->cb == ompt_callback_target_map_emi ||
               e->cb == ompt_callback_target_map) {
      nmap++;
      int found = 0;
      for (int r = 0; r < tt_nrecords; r++) {
        tt_record *t = &tt_records[r];
        if (t->r.type != ompt_callback_target_map ||
            t->r.target_id != e->target_id ||
            t->r.record.target_map.nitems != e->nitems ||
            t->haddr[0] != e->haddr[0])
          continue;
        found++;
        for (unsigned j = 0; j < e->nitems && j < TT_MAX_ITEMS; j++)
          TT_CHECK(t->haddr[j] == e->haddr[j] && t->ibytes[j] == e->ibytes[j] &&
                       t->iflags[j] == e->iflags[j],
                   "map record item %u differs from its callback", j);
      }
      TT_CHECK(found == 1, "map callback (target %llu): %d records",
               (unsigned long long)e->target_id, found);
    } else if ((e->cb == ompt_callback_target_data_op_emi &&
                e->endpoint == ompt_scope_end) ||
               e->cb == ompt_callback_target_data_op) {
      ndataop++;
      int found = 0;
      for (int r = 0; r < tt_nrecords; r++) {
        ompt_record_ompt_t *x = &tt_records[r].r;
        if (x->type == ompt_callback_target_data_op &&
            x->record.target_data_op.host_op_id == e->host_op_id) {
          found++;
          TT_CHECK((int)x->record.target_data_op.optype == e->kind &&
                       x->record.target_data_op.bytes == e->bytes &&
                       x->record.target_data_op.src_addr == e->src &&
                       x->record.target_data_op.dest_addr == e->dst &&
                       x->record.target_data_op.src_device_num == e->srcdev &&
                       x->record.target_data_op.dest_device_num == e->dstdev,
                   "data op record differs from its callback");
          TT_CHECK(x->time <= x->record.target_data_op.end_time,
                   "data op record times");
        }
      }
      TT_CHECK(found == 1, "data op (op %llu): %d records",
               (unsigned long long)e->host_op_id, found);
    }
  }
  TT_CHECK(tt_count_records(ompt_callback_target) == ntarget,
           "%d target records for %d callbacks",
           tt_count_records(ompt_callback_target), ntarget);
  TT_CHECK(tt_count_records(ompt_callback_target_submit) == nsubmit,
           "%d kernel records for %d submits",
           tt_count_records(ompt_callback_target_submit), nsubmit);
  TT_CHECK(tt_count_records(ompt_callback_target_map) >= nmap,
           "map records missing");
  TT_CHECK(tt_count_records(ompt_callback_target_data_op) == ndataop,
           "%d data op records for %d data ops",
           tt_count_records(ompt_callback_target_data_op), ndataop);
}

#endif /* TT_CHECK_H */
