// Reads libscap's .scap capture files (Falco's and sysdig's captures,
// gzip-compressed or not) as Kestrel records, so everything that replays a
// Kestrel capture replays them unchanged. docs/design/scap-files.md tells
// what is read and how it maps:
//   - the process-list and fd-list blocks (the capture's /proc snapshot)
//     become SNAPSHOT_THREAD and SNAPSHOT_FD records, handed out first;
//   - each exit event of a syscall Kestrel has an event for becomes that
//     event's record, its parameters taken by name (Kestrel names its
//     parameters after Falco's), from the exit event or, where the exit
//     lacks one, from the thread's preceding enter event;
//   - generic syscalls become GENERIC_SYSCALL records, procexit
//     PROCESS_EXIT;
//   - every other event is counted by its libscap name (unknown_events()).
// A damaged or cut file is read up to the damage, as CaptureReader does.
#ifndef KESTREL_ENGINE_CAPTURE_FILE_SCAP_READER_H_
#define KESTREL_ENGINE_CAPTURE_FILE_SCAP_READER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "capture_info.h"
#include "capture_reader.h"
#include "engine/state/snapshot_records.h"
#include "shared/record_format.h"

namespace kestrel::engine::capture_file {

// Whether a file starting with `head` is a .scap file: libscap's section
// header block, or a gzip stream (which must hold one).
bool LooksLikeScap(std::span<const uint8_t> head);

class ScapReader {
 public:
  // Reads the file `path` whose bytes are `file` (kept alive by the caller
  // for the reader's life); a gzip stream is inflated first. Fails when the
  // bytes are not a .scap file, or one of a newer major version.
  static absl::StatusOr<std::unique_ptr<ScapReader>> Open(const std::string& path,
                                                          std::span<const uint8_t> file);

  // As CaptureReader::Next: the snapshot records first, then the events.
  const kestrel_record_header* Next(bool* snapshot);

  const CaptureInfo& info() const { return info_; }
  const std::optional<Damage>& damage() const { return damage_; }
  uint64_t records() const { return records_; }
  uint64_t file_bytes() const { return data_.size(); }

  // Events of the file read so far that no Kestrel record stands for, by
  // libscap name ("switch", "futex" ...); enter events of the syscalls
  // Kestrel knows are not counted (their exit is).
  const std::map<std::string, uint64_t>& unknown_events() const { return unknown_; }
  // Events turned into records so far (snapshot records not counted).
  uint64_t known_events() const { return known_; }

 private:
  struct Enter {
    uint16_t type = 0;
    std::vector<uint8_t> bytes;                         // the event's parameters
    std::vector<std::pair<uint32_t, uint32_t>> params;  // offset, length in bytes
  };
  struct Event {
    uint64_t ts = 0, tid = 0;
    uint16_t type = 0;
    std::vector<std::span<const uint8_t>> params;
  };

  ScapReader() = default;
  bool Fail(uint64_t offset, std::string what);
  // Checks the block at `offset`; false (with damage set) when it is cut or
  // lies about its length.
  bool ReadBlock(size_t offset, uint32_t& type, std::span<const uint8_t>& body);
  bool ReadMetadata();
  void ReadMachineInfo(std::span<const uint8_t> body);
  bool ReadProcessList(size_t offset, uint32_t type, std::span<const uint8_t> body);
  bool ReadFdList(size_t offset, uint32_t type, std::span<const uint8_t> body);
  // Parses the event of the block at `offset`; false at damage.
  bool ParseEvent(size_t offset, uint32_t type, std::span<const uint8_t> body, Event& out);
  // The record for `event`, or nullptr when none stands for it.
  const kestrel_record_header* Convert(const Event& event);
  void Count(uint16_t type);
  uint32_t ProcessOf(uint64_t tid) const;

  std::string path_;
  std::vector<uint8_t> inflated_;  // a gzip file's bytes, inflated
  std::span<const uint8_t> data_;  // the .scap bytes
  std::string inflate_note_;       // why inflating stopped early, if it did
  size_t next_block_ = 0;
  CaptureInfo info_;
  std::optional<Damage> damage_;
  uint64_t records_ = 0, known_ = 0;
  std::map<std::string, uint64_t> unknown_;

  SnapshotRecords snapshot_;
  size_t snapshot_at_ = 0;
  std::vector<ThreadInfo> threads_;               // the process list, until the snapshot is made
  std::vector<std::pair<uint64_t, FdInfo>> fds_;  // by the tid listing them

  absl::flat_hash_map<uint64_t, uint32_t> pid_of_tid_;
  absl::flat_hash_map<uint64_t, Enter> enters_;  // the last enter event of each thread
  std::vector<uint64_t> record_;                 // the current record, aligned
};

}  // namespace kestrel::engine::capture_file

#endif  // KESTREL_ENGINE_CAPTURE_FILE_SCAP_READER_H_
