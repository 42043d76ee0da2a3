// Record timestamps as people read them.
#ifndef KESTREL_ENGINE_OUTPUT_WALL_TIME_H_
#define KESTREL_ENGINE_OUTPUT_WALL_TIME_H_

#include <cstdint>
#include <string>

namespace kestrel::engine {

// HH:MM:SS.nnnnnnnnn in local time.
void AppendWallTime(std::string& out, uint64_t wall_ns);

}  // namespace kestrel::engine

#endif  // KESTREL_ENGINE_OUTPUT_WALL_TIME_H_
