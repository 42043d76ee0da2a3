#include "past_schemas.h"

namespace kestrel::engine::capture_file {
namespace {

// Schema version 1: the tree before commit 4fc6e5f (the bump to 2), which
// wrote capture files with no embedded schema.
constexpr uint8_t kSchemaV1[] = {
#include "past_schemas/schema_v1.inc"
};

}  // namespace

std::span<const uint8_t> PastSchema(uint32_t version) {
  if (version == 1) return kSchemaV1;
  return {};
}

}  // namespace kestrel::engine::capture_file
