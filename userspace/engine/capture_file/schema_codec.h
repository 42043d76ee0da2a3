// The event schema a capture file was written with, as bytes in its info
// block: the file describes its own records, so a Kestrel built with
// another schema version still decodes them (names, parameter names and
// types, flag sets, which parameter is the return value).
//
// The field holds one zstd frame (the schema repeats its names, and every
// file, each rotated one too, carries it) of:
//
//   schema := u32 event_count, event*
//   event  := u16 type, str name, str syscall, u16 param_count, param*
//   param  := str name, str type_name, u8 source, str flag_set_name
//   str    := u16 length, bytes
//
// Types and flag sets travel by name ("fd", "open_flags"), not by this
// build's enum values: a reader maps them to its own, a type it does not
// know is read as raw bytes and a flag set it does not know prints as a
// number.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_SCHEMA_CODEC_H_
#define KESTREL_ENGINE_CAPTURE_FILE_SCHEMA_CODEC_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/decode/schema_table.h"

namespace kestrel::engine::capture_file {

std::vector<uint8_t> EncodeSchema(const SchemaTable& schema);
// The encoding does not hold the version: the file's info block does.
absl::StatusOr<std::unique_ptr<SchemaTable>> DecodeSchema(std::span<const uint8_t> bytes,
                                                          uint32_t version);

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_SCHEMA_CODEC_H_
