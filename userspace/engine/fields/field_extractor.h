// Reads the fields of one event (a FieldReader for the filter program).
// Numbers and booleans are computed in place; strings are views into the
// record or the thread's state when they exist there, and otherwise built
// in scratch buffers the extractor owns and reuses from event to event, so
// reading fields allocates nothing once the buffers are warm.
#ifndef KESTREL_ENGINE_FIELDS_FIELD_EXTRACTOR_H_
#define KESTREL_ENGINE_FIELDS_FIELD_EXTRACTOR_H_

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/containers/metadata_cache.h"
#include "engine/dns/address_names.h"
#include "engine/filter/field_binding.h"
#include "engine/state/container_id.h"
#include "engine/state/user_directory.h"
#include "event_context.h"
#include "field_registry.h"

namespace kestrel::engine::fields {

class FieldExtractor : public filter::FieldReader {
 public:
  // `registry` resolved the specs this extractor will read; `users` names
  // uids and gids (null: user.name and group.name have no value). Both
  // must outlive the extractor.
  FieldExtractor(const FieldRegistry& registry, state::UserDirectory* users);

  // Where container metadata comes from (null: nowhere, the fields that
  // need it are absent). It must outlive the extractor.
  void SetContainerMetadata(containers::ContainerMetadataCache* cache) { metadata_ = cache; }

  // Where fd.*ip.name finds the names addresses resolve to (null: nowhere,
  // the fields are absent). It must outlive the extractor.
  void SetAddressNames(const dns::AddressNames* names) { address_names_ = names; }

  // evt.hostname's value (empty: the field is absent).
  void SetHostname(std::string hostname) { hostname_ = std::move(hostname); }

  // Where the fields Kestrel's records do not carry (proc.vmsize,
  // proc.nthreads, proc.fdlimit, thread.pfmajor ...) are read, when a rule
  // reads them: "/proc" for the live host. Empty (the default, and for a
  // capture file, whose processes are not this host's) leaves them absent.
  void SetProcDir(std::string dir) { proc_dir_ = std::move(dir); }

  // The time (record clock, ns since boot) of the capture's first event,
  // which evt.reltime counts from; unset, evt.reltime is absent.
  void SetFirstEventTime(uint64_t ts_ns) { first_event_ts_ns_ = ts_ns; }
  bool HasFirstEventTime() const { return first_event_ts_ns_.has_value(); }

  // Whether the event's process is in a container whose metadata has not
  // arrived from its runtime (an alert then carries what is known).
  bool ContainerMetadataPending();
  // Whether that metadata may still arrive: its runtime has not answered.
  bool ContainerMetadataAsking();

  // Starts an event: views returned for the previous one become invalid.
  void SetEvent(const EventContext& context);

  bool Read(const filter::FieldSpec& field, filter::FieldValue& out) override;

  // The value of `field` as text, the way an output line would show it
  // (numbers in decimal, booleans true/false, lists space separated); false
  // when it has no value.
  bool ReadText(const filter::FieldSpec& field, std::string& out);

 private:
  std::string& Scratch();
  std::vector<std::string_view>& ScratchList();
  // The watched names `address` resolves to (fd.*ip.name).
  bool NamesOf(std::string_view address, filter::FieldValue& out);

  // The event's syscall name (empty for events of no syscall) and return
  // value, read only by the fields that need them.
  std::string_view Syscall() const;
  std::optional<int64_t> Return() const;
  bool ReadEvt(FieldId id, filter::FieldValue& out);
  bool ReadProc(FieldId id, filter::FieldValue& out);
  bool ReadUser(FieldId id, filter::FieldValue& out);
  bool ReadFd(FieldId id, filter::FieldValue& out);
  bool ReadFsPath(FieldId id, filter::FieldValue& out);
  bool ReadContainer(FieldId id, filter::FieldValue& out);
  // The kinds from FieldKind::kEvtSource on (issue 38), by class.
  bool ReadMoreEvt(FieldId id, filter::FieldValue& out);
  bool ReadMoreProc(FieldId id, filter::FieldValue& out);
  bool ReadMoreFd(FieldId id, filter::FieldValue& out);
  bool ReadFdlist(FieldId id, filter::FieldValue& out);
  // The kinds from FieldKind::kProcLoginshellid on: derived from the
  // lineage, the event table, the capture's start and the thread's cgroups
  // (derived_fields.cpp).
  bool ReadDerived(FieldId id, filter::FieldValue& out);
  // proc.aenv in its three forms.
  bool ReadAncestorEnv(FieldId id, filter::FieldValue& out);
  // `t`'s environment as proc.env shows it, VAR=value joined by spaces
  // (in Scratch()).
  std::string_view JoinedEnv(const ThreadInfo& t);
  // The process `t` belongs to, as its main thread names it (`t` itself
  // when the table has no main thread).
  const ThreadInfo* ProcessThread(const ThreadInfo* t) const;
  // evt.abspath(.src/.dst): the event's path parameter made absolute
  // against its directory fd's folder or the cwd; empty when not known.
  std::string_view AbsPath(bool dst);
  // What /proc says of the event's process (read at most once an event).
  struct ProcStatus {
    bool read = false, found = false;
    uint64_t vmsize = 0, vmrss = 0, vmswap = 0, threads = 0;
  };
  const ProcStatus& Status();
  // The leader of the process group (or the session, `session`) `id`: the
  // process of that pid, else the eldest ancestor in the same one.
  const ThreadInfo* LeaderOf(uint32_t id, bool session) const;
  // The container.id of `thread` ("host" outside containers).
  const state::ContainerId& ContainerOf(const ThreadInfo& thread);
  // What the runtime says about `thread`'s container; null on the host or
  // before it arrived. Valid until the next call.
  const containers::ContainerMetadata* MetadataOf(const ThreadInfo& thread);
  // container.start_ts: the host pid namespace's init's start, or the
  // container's start from its runtime; nullopt when not known.
  std::optional<uint64_t> ContainerStartNs();
  // The metadata of the pod sandbox `m` belongs to (`m` itself when it is
  // one), or null when none or not arrived; valid until the next event.
  const containers::ContainerMetadata* SandboxOf(const containers::ContainerMetadata& m);

  bool ReadParam(FieldId id, bool raw, filter::FieldValue& out);
  const ThreadInfo* Parent(const ThreadInfo* t) const;
  const ThreadInfo* Ancestor(uint32_t depth) const;
  uint64_t WallNs() const { return ctx_.header->ts_ns + ctx_.boot_time_ns; }
  std::string_view AbsolutePath(std::string_view path);
  // Parameter `index` as Falco shows it where the record alone cannot say:
  // a uid or gid by its name, a relative path resolved against its
  // directory fd's folder or the working directory (`with_raw`: as
  // "RAW(RESOLVED)", evt.args' form). Appends and returns true, or returns
  // false when the record's own text is the answer.
  bool AppendStateText(std::string& out, int index, bool with_raw);
  // The folder parameter `index` (a relative path) is relative to; empty
  // when it is not known.
  std::string_view BaseDirOf(int index) const;
  // The file a failed open, openat, openat2 or creat asked for (as given
  // when `raw`, else made absolute); empty for any other event.
  std::string_view FailedOpenName(bool raw);
  // Parameter `index`, a path: as given when `raw`, else made absolute
  // against its dirfd's folder or the cwd.
  std::string_view ParamPath(int index, bool raw);

  const FieldRegistry& registry_;
  state::UserDirectory* users_;
  EventContext ctx_;
  std::deque<std::string> strings_;
  size_t strings_used_ = 0;
  std::deque<std::vector<std::string_view>> lists_;
  size_t lists_used_ = 0;
  // The values of proc.apid without an index, and fd.port's two ends.
  std::vector<int64_t> ancestor_pids_;
  std::array<uint64_t, 2> ports_{};
  // container.id by cgroup path: the path is parsed once per cgroup.
  absl::flat_hash_map<std::string, state::ContainerId> containers_;  // by cgroup path
  containers::ContainerMetadataCache* metadata_ = nullptr;
  std::shared_ptr<const containers::ContainerMetadata> held_metadata_;
  std::shared_ptr<const containers::ContainerMetadata> held_sandbox_;  // SandboxOf's
  const dns::AddressNames* address_names_ = nullptr;
  // Taken at the event's first name read: its names stay valid until the
  // next event.
  std::shared_ptr<const dns::NamesByAddress> names_;
  std::string hostname_;
  std::string proc_dir_;
  ProcStatus status_;
  std::vector<std::string_view> fd_types_;
  std::optional<uint64_t> first_event_ts_ns_;
};

}  // namespace kestrel::engine::fields

#endif  // KESTREL_ENGINE_FIELDS_FIELD_EXTRACTOR_H_
