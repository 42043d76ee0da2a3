// The thread table as snapshot records (snapshot_records.h): what a capture
// file opened in the middle of a run starts with, so its readers seed the
// table the engine had, not what /proc shows later.
#ifndef KESTREL_ENGINE_STATE_TABLE_SNAPSHOT_H_
#define KESTREL_ENGINE_STATE_TABLE_SNAPSHOT_H_

#include <cstdint>

#include "snapshot_records.h"
#include "thread_table.h"

namespace kestrel::engine {

// One SNAPSHOT_THREAD record per entry (exited ones in their grace period
// too: records still to be read may name them), by tid, then one
// SNAPSHOT_FD record per descriptor of each descriptor table once, by
// process and fd; every record stamped `ts_ns`.
SnapshotRecords MakeTableSnapshot(const ThreadTable& table, uint64_t ts_ns);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_STATE_TABLE_SNAPSHOT_H_
