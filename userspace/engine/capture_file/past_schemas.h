// The event schemas of the versions Kestrel wrote before capture files
// embedded theirs (info tag 16). Such a file says only its schema version;
// the schema itself was generated once from that version's sources
// (past_schemas/describe_schema.cpp, run by
// test/fixtures/capture/make_fixtures.sh) and is kept here, so every
// schema version Kestrel ever wrote is read.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_PAST_SCHEMAS_H_
#define KESTREL_ENGINE_CAPTURE_FILE_PAST_SCHEMAS_H_

#include <cstdint>
#include <span>

namespace kestrel::engine::capture_file {

// Schema `version` in the schema_codec encoding (one zstd frame); empty
// when this build does not keep it (the current version, whose files embed
// it, or one that never existed).
std::span<const uint8_t> PastSchema(uint32_t version);

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_PAST_SCHEMAS_H_
