#include "field_extractor.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <sys/stat.h>
#include <algorithm>

#include <cstring>
#include <ctime>
#include <type_traits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/decode/syscall_names.h"
#include "engine/filter/value_text.h"
#include "engine/state/container_id.h"
#include "engine/state/fd_table.h"
#include "engine/state/path_resolution.h"
#include "param_text.h"
#include "shared/event_schema.h"
#include "value_names.h"

namespace kestrel::engine::fields {
namespace {

using filter::FieldSpec;
using filter::FieldValue;
using filter::Multiplicity;
using filter::ValueType;

bool Str(FieldValue& out, std::string_view s) {
  out.str = s;
  return true;
}
bool Int(FieldValue& out, int64_t i) {
  out.i = i;
  return true;
}
bool Uint(FieldValue& out, uint64_t u) {
  out.u = u;
  return true;
}
bool Bool(FieldValue& out, bool b) {
  out.b = b;
  return true;
}

// The value of the container's label `key`; absent when it has none.
bool Label(FieldValue& out, const containers::ContainerMetadata& m, std::string_view key) {
  for (const auto& [k, v] : m.labels) {
    if (k == key) return Str(out, v);
  }
  return false;
}

// Falco's container plugin leaves out of container.labels and
// k8s.pod.labels the labels the CRI and kubelet add.
bool IsRuntimeLabel(std::string_view key) {
  return key.starts_with("io.kubernetes.") || key.starts_with("annotation.");
}

// The labels but the runtime's, as key:value (a key alone when its value
// is empty) joined by ", ", as Falco's container plugin joins them.
void AppendLabels(std::string& s, const containers::ContainerMetadata& m) {
  for (const auto& [k, v] : m.labels) {
    if (IsRuntimeLabel(k)) continue;
    absl::StrAppend(&s, s.empty() ? "" : ", ", k, v.empty() ? "" : ":", v);
  }
}

// The mount `arg` names, as Falco's container.mount* fields take it: a
// number is an index; other text a glob matched against each mount's
// destination (`by_dest`) or source.
const containers::ContainerMount* MountBy(const containers::ContainerMetadata& m,
                                          const std::string& arg, bool by_dest) {
  if (!arg.empty() &&
      std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    size_t index = 0;
    if (!absl::SimpleAtoi(arg, &index) || index >= m.mounts.size()) return nullptr;
    return &m.mounts[index];
  }
  for (const containers::ContainerMount& mount : m.mounts) {
    if (fnmatch(arg.c_str(), (by_dest ? mount.dest : mount.source).c_str(), 0) == 0) return &mount;
  }
  return nullptr;
}

// Ids of UINT32_MAX mean "never set": Falco shows them as -1.
int64_t SignedId(uint32_t id) { return id == UINT32_MAX ? -1 : static_cast<int64_t>(id); }

bool IsIpSocket(const FdInfo* fd) {
  return fd != nullptr && (fd->family == KESTREL_AF_INET || fd->family == KESTREL_AF_INET6);
}

bool IsOpenEvent(std::string_view syscall) {
  return syscall == "open" || syscall == "openat" || syscall == "openat2";
}

void AppendCommandLine(std::string& out, std::string_view first, const ThreadInfo& t) {
  out.append(first);
  for (const std::string& a : t.args) {
    out.push_back(' ');
    out.append(a);
  }
}

std::string_view DirName(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {};
  return slash == 0 ? path.substr(0, 1) : path.substr(0, slash);
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Falco's evt.time family: local time unless the format says UTC.
void AppendTime(std::string& out, uint64_t wall_ns, FieldKind kind) {
  const time_t secs = static_cast<time_t>(wall_ns / 1'000'000'000);
  const uint64_t ns = wall_ns % 1'000'000'000;
  struct tm tm {};
  if (kind == FieldKind::kEvtTimeIso8601) {
    gmtime_r(&secs, &tm);
  } else {
    localtime_r(&secs, &tm);
  }
  switch (kind) {
    case FieldKind::kEvtTimeS:
      absl::StrAppendFormat(&out, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
      return;
    case FieldKind::kEvtTimeIso8601:
      absl::StrAppendFormat(&out, "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900,
                            tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ns);
      return;
    case FieldKind::kEvtDatetime:
      absl::StrAppendFormat(&out, "%04d-%02d-%02d %02d:%02d:%02d.%09u", tm.tm_year + 1900,
                            tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ns);
      return;
    case FieldKind::kEvtDatetimeS:
      absl::StrAppendFormat(&out, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                            tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
      return;
    default:
      absl::StrAppendFormat(&out, "%02d:%02d:%02d.%09u", tm.tm_hour, tm.tm_min, tm.tm_sec, ns);
      return;
  }
}

// The path-carrying parameters of filesystem events, most specific first:
// the resolved path before the caller's.
constexpr std::string_view kResolvedPathParams[] = {"path", "name", "pathname", "filename"};
constexpr std::string_view kRawPathParams[] = {"name", "pathname", "filename", "path"};

}  // namespace

FieldExtractor::FieldExtractor(const FieldRegistry& registry, state::UserDirectory* users)
    : registry_(registry), users_(users) {}

void FieldExtractor::SetEvent(const EventContext& context) {
  ctx_ = context;
  status_.read = false;
  strings_used_ = 0;
  lists_used_ = 0;
  if (names_) names_.reset();
}

bool FieldExtractor::NamesOf(std::string_view address, FieldValue& out) {
  if (address_names_ == nullptr) return false;
  if (!names_) names_ = address_names_->Snapshot();
  const auto it = names_->find(absl::string_view(address.data(), address.size()));
  if (it == names_->end()) return true;  // no name: `=` fails, `!=` holds
  std::vector<std::string_view>& names = ScratchList();
  names.assign(it->second.begin(), it->second.end());
  out.items = names;
  return true;
}

std::string& FieldExtractor::Scratch() {
  if (strings_used_ == strings_.size()) strings_.emplace_back();
  std::string& s = strings_[strings_used_++];
  s.clear();
  return s;
}

std::vector<std::string_view>& FieldExtractor::ScratchList() {
  if (lists_used_ == lists_.size()) lists_.emplace_back();
  std::vector<std::string_view>& l = lists_[lists_used_++];
  l.clear();
  return l;
}

const ThreadInfo* FieldExtractor::Parent(const ThreadInfo* t) const {
  if (t == nullptr || ctx_.threads == nullptr || t->ppid == 0) return nullptr;
  // A process's id is its main thread's id.
  return ctx_.threads->Find(t->ppid);
}

const ThreadInfo* FieldExtractor::Ancestor(uint32_t depth) const {
  const ThreadInfo* t = ctx_.thread;
  for (uint32_t i = 0; i < depth && t != nullptr; ++i) t = Parent(t);
  return t;
}

std::string_view FieldExtractor::AbsolutePath(std::string_view path) {
  if (path.empty() || path.front() == '/' || ctx_.thread == nullptr) return path;
  std::string& s = Scratch();
  s.append(ctx_.thread->cwd);
  if (s.empty() || s.back() != '/') s.push_back('/');
  s.append(path);
  return s;
}

namespace {

// Path parameters Falco keeps as the caller gave them: a symlink's target,
// mount's device, quotactl's special file.
bool ResolvesAsPath(const ParamInfo& p) {
  return p.type == KPT_PATH && p.source != KPS_CUSTOM && p.name != "target" && p.name != "dev" &&
         p.name != "special";
}

}  // namespace

std::string_view FieldExtractor::BaseDirOf(int index) const {
  const EventInfo& info = ctx_.event->info();
  // The directory fd a path is relative to comes before it: dirfd, olddirfd
  // and newdirfd, linkdirfd, olddir and newdir.
  for (int i = index - 1; i >= 0; --i) {
    const ParamInfo& p = info.params[i];
    if (p.type != KPT_FD || p.source == KPS_RET || p.name.find("dir") == std::string::npos) {
      continue;
    }
    const std::optional<int64_t> fd = ParamNumber(*ctx_.event, i);
    if (!fd) return {};
    if (*fd != AT_FDCWD) {
      if (ctx_.thread == nullptr || ctx_.thread->fds == nullptr) return {};
      const FdInfo* dir = ctx_.thread->fds->Find(*fd);
      return dir != nullptr ? std::string_view(dir->name) : std::string_view();
    }
    break;
  }
  return ctx_.thread != nullptr ? std::string_view(ctx_.thread->cwd) : std::string_view();
}

bool FieldExtractor::AppendStateText(std::string& out, int index, bool with_raw) {
  const ParamInfo& p = ctx_.event->info().params[index];
  if (p.type == KPT_UID || p.type == KPT_GID) {
    const std::optional<int64_t> id = ParamNumber(*ctx_.event, index);
    if (!id || users_ == nullptr || *id == UINT32_MAX) return false;
    const auto n = static_cast<uint32_t>(*id);
    const std::string_view name = p.type == KPT_UID ? users_->UserName(n) : users_->GroupName(n);
    if (name.empty()) return false;
    out.append(name);
    return true;
  }
  if (!ResolvesAsPath(p)) return false;
  const std::string_view path = ParamBytes(*ctx_.event, index);
  if (path.empty() || path.front() == '/') return false;
  const std::string_view base = BaseDirOf(index);
  if (base.empty() || base.front() != '/') return false;
  if (with_raw) out.append(path).push_back('(');
  out.append(ResolvePath(base, path));
  if (with_raw) out.push_back(')');
  return true;
}

bool FieldExtractor::Read(const FieldSpec& field, FieldValue& out) {
  const FieldId id = FieldId::Unpack(field.id);
  // Kinds appended to the catalog after its classes were laid out go to
  // their class's reader by name, not by range.
  switch (id.kind) {
    case FieldKind::kProcAexe:
    case FieldKind::kProcIsVpgidLeader:
    case FieldKind::kProcIsExeLowerLayer:
    case FieldKind::kProcPidnsInitStartTs:
    case FieldKind::kProcExeInoCtimeDurationPidnsStart:
      return ReadProc(id, out);
    case FieldKind::kEvtIsOpenCreate:
      return ReadEvt(id, out);
    case FieldKind::kFdIsUpperLayer:
    case FieldKind::kFdIsLowerLayer:
      return ReadFd(id, out);
    case FieldKind::kFdCipName:
    case FieldKind::kFdLipName:
    case FieldKind::kFdRipName:
    case FieldKind::kFdLnet:
    case FieldKind::kFdRnet:
      return ReadFd(id, out);
    default:
      break;
  }
  const auto kind = static_cast<uint16_t>(id.kind);
  if (kind >= static_cast<uint16_t>(FieldKind::kProcLoginshellid) &&
      kind <= static_cast<uint16_t>(FieldKind::kThreadCgroup)) {
    return ReadDerived(id, out);
  }
  if (kind >= static_cast<uint16_t>(FieldKind::kEvtSource)) {
    if (kind <= static_cast<uint16_t>(FieldKind::kEvtRawtimeNs)) return ReadMoreEvt(id, out);
    if (kind <= static_cast<uint16_t>(FieldKind::kUserShell)) return ReadMoreProc(id, out);
    if (kind <= static_cast<uint16_t>(FieldKind::kFsPathTargetraw)) return ReadMoreFd(id, out);
    return ReadFdlist(id, out);
  }
  if (kind < static_cast<uint16_t>(FieldKind::kProcName)) return ReadEvt(id, out);
  if (kind < static_cast<uint16_t>(FieldKind::kUserUid)) return ReadProc(id, out);
  if (kind < static_cast<uint16_t>(FieldKind::kFdNum)) return ReadUser(id, out);
  if (kind < static_cast<uint16_t>(FieldKind::kFsPathName)) return ReadFd(id, out);
  if (kind < static_cast<uint16_t>(FieldKind::kContainerId)) return ReadFsPath(id, out);
  return ReadContainer(id, out);
}

const ThreadInfo* FieldExtractor::ProcessThread(const ThreadInfo* t) const {
  if (t != nullptr && ctx_.threads != nullptr && t->tid != t->tgid) {
    if (const ThreadInfo* main = ctx_.threads->Find(t->tgid)) return main;
  }
  return t;
}

std::string_view FieldExtractor::JoinedEnv(const ThreadInfo& t) {
  std::string& s = Scratch();
  for (size_t i = 0; i < t.env.size(); ++i) {
    if (i) s.push_back(' ');
    s.append(t.env[i]);
  }
  return s;
}

bool FieldExtractor::ReadParam(FieldId id, bool raw, FieldValue& out) {
  if (ctx_.event == nullptr) return false;
  const EventInfo& info = ctx_.event->info();
  const int index = registry_.ParamIndex(id.arg, info.type);
  if (index < 0 || ctx_.event->record().param(static_cast<uint32_t>(index)).empty()) return false;
  if (raw) {
    if (IsNumericParam(*ctx_.event, index)) {
      const std::optional<int64_t> n = ParamNumber(*ctx_.event, index);
      return n && Int(out, *n);
    }
    return Str(out, ParamBytes(*ctx_.event, index));
  }
  const ParamInfo& p = info.params[index];
  std::string& s = Scratch();
  if (AppendStateText(s, index, false)) return Str(out, s);
  if (p.type == KPT_PATH || p.type == KPT_CHARBUF || p.type == KPT_BYTEBUF) {
    return Str(out, ParamBytes(*ctx_.event, index));
  }
  AppendParamText(s, *ctx_.event, index);
  return Str(out, s);
}

std::string_view FieldExtractor::Syscall() const {
  if (ctx_.event != nullptr) return ctx_.event->info().syscall;
  return ctx_.generic != nullptr ? SyscallName(ctx_.generic->id) : std::string_view();
}

std::optional<int64_t> FieldExtractor::Return() const {
  if (ctx_.event != nullptr) return ctx_.event->Return();
  if (ctx_.generic != nullptr) return ctx_.generic->ret;
  return std::nullopt;
}

bool FieldExtractor::ReadEvt(FieldId id, FieldValue& out) {
  switch (id.kind) {
    case FieldKind::kEvtType:
      if (const std::string_view syscall = Syscall(); !syscall.empty()) return Str(out, syscall);
      // Events of no syscall (scheduler hooks) go by their schema name.
      return ctx_.event != nullptr && Str(out, ctx_.event->info().name);
    case FieldKind::kEvtDir:
      return Str(out, "<");
    case FieldKind::kEvtNum:
      return Uint(out, ctx_.num);
    case FieldKind::kEvtTime:
    case FieldKind::kEvtTimeS:
    case FieldKind::kEvtTimeIso8601:
    case FieldKind::kEvtDatetime: {
      std::string& s = Scratch();
      AppendTime(s, WallNs(), id.kind);
      return Str(out, s);
    }
    case FieldKind::kEvtRawtime:
      return Uint(out, WallNs());
    case FieldKind::kEvtRes: {
      const std::optional<int64_t> ret = Return();
      if (!ret) return false;
      if (*ret >= 0) return Str(out, "SUCCESS");
      // Errors are -1..-4095 (MAX_ERRNO); anything below is no errno, and
      // negating INT64_MIN would overflow.
      if (*ret >= -4095) {
        if (const char* e = strerrorname_np(static_cast<int>(-*ret))) return Str(out, e);
      }
      return Str(out, "UNKNOWN");
    }
    case FieldKind::kEvtRawres: {
      const std::optional<int64_t> ret = Return();
      return ret && Int(out, *ret);
    }
    case FieldKind::kEvtFailed: {
      const std::optional<int64_t> ret = Return();
      return Bool(out, ret && *ret < 0);
    }
    case FieldKind::kEvtIsOpenRead:
    case FieldKind::kEvtIsOpenWrite:
    case FieldKind::kEvtIsOpenExec: {
      out.b = false;
      if (ctx_.event == nullptr) return true;
      const std::string_view syscall = Syscall();
      const std::optional<int64_t> flags = ctx_.event->Int(KnownParam::kFlags);
      const std::optional<int64_t> mode = ctx_.event->Int(KnownParam::kMode);
      constexpr int64_t kExecBits = S_IXUSR | S_IXGRP | S_IXOTH;
      if (IsOpenEvent(syscall) && flags) {
        const int64_t access = *flags & O_ACCMODE;
        if (id.kind == FieldKind::kEvtIsOpenRead) {
          out.b = access == O_RDONLY || access == O_RDWR;
        } else if (id.kind == FieldKind::kEvtIsOpenWrite) {
          out.b = access == O_WRONLY || access == O_RDWR;
        } else {
          // Only an open that may create the file sets its mode.
          out.b = (*flags & (O_CREAT | __O_TMPFILE)) && mode && (*mode & kExecBits);
        }
      } else if (syscall == "creat" && id.kind == FieldKind::kEvtIsOpenExec && mode) {
        out.b = (*mode & kExecBits) != 0;
      }
      return true;
    }
    // The kernel's FMODE_CREATED (open_facts), as Falco's PPM_O_F_CREATED;
    // an O_TMPFILE open that succeeded created its file too.
    case FieldKind::kEvtIsOpenCreate: {
      out.b = false;
      if (ctx_.event == nullptr) return true;
      const std::string_view syscall = Syscall();
      // Opens only, as libsinsp: creat's record carries the fact too, but
      // Falco's rules read creat's through its own event type.
      if (!IsOpenEvent(syscall)) return true;
      const int64_t facts = ctx_.event->Int(KnownParam::kOpenFacts).value_or(0);
      const int64_t flags = ctx_.event->Int(KnownParam::kFlags).value_or(0);
      const std::optional<int64_t> ret = Return();
      out.b = (facts & KESTREL_OPEN_F_CREATED) ||
              ((flags & __O_TMPFILE) == __O_TMPFILE && ret && *ret >= 0);
      return true;
    }
    case FieldKind::kEvtArg:
      return ReadParam(id, false, out);
    case FieldKind::kEvtRawarg:
      return ReadParam(id, true, out);
    case FieldKind::kEvtArgs: {
      std::string& s = Scratch();
      if (ctx_.event != nullptr) {
        AppendAllParams(s, *ctx_.event,
                        [&](std::string& o, int index) { return AppendStateText(o, index, true); });
      } else if (ctx_.generic != nullptr) {
        absl::StrAppend(&s, "ID=", ctx_.generic->id);
        for (size_t i = 0; i < ctx_.generic->args.size(); ++i) {
          absl::StrAppend(&s, " arg", i, "=", ctx_.generic->args[i]);
        }
        absl::StrAppend(&s, " res=", ctx_.generic->ret);
      }
      return Str(out, s);
    }
    case FieldKind::kEvtBuffer: {
      if (ctx_.event == nullptr) return false;
      const std::vector<ParamInfo>& params = ctx_.event->info().params;
      for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].type == KPT_BYTEBUF)
          return Str(out, ParamBytes(*ctx_.event, static_cast<int>(i)));
      }
      return false;
    }
    case FieldKind::kEvtCount:
      return Uint(out, 1);
    case FieldKind::kEvtCategory: {
      const std::string_view syscall = Syscall();
      return Str(
          out, syscall.empty() ? std::string_view("other") : EventCategory(syscall, ctx_.fd_info));
    }
    default:
      return false;
  }
}

bool FieldExtractor::ReadProc(FieldId id, FieldValue& out) {
  const ThreadInfo* t = ctx_.thread;
  if (t == nullptr) return false;
  switch (id.kind) {
    case FieldKind::kProcName:
      return Str(out, t->comm);
    case FieldKind::kProcPid:
      return Int(out, t->tgid);
    case FieldKind::kProcPpid:
      return Int(out, t->ppid);
    case FieldKind::kProcPname: {
      const ThreadInfo* p = Parent(t);
      return p != nullptr && Str(out, p->comm);
    }
    case FieldKind::kProcPcmdline: {
      const ThreadInfo* p = Parent(t);
      if (p == nullptr) return false;
      std::string& s = Scratch();
      AppendCommandLine(s, p->comm, *p);
      return Str(out, s);
    }
    case FieldKind::kProcExe:
      return Str(out, t->exe);
    case FieldKind::kProcExepath:
      return Str(out, t->exepath);
    case FieldKind::kProcPexe: {
      const ThreadInfo* p = Parent(t);
      return p != nullptr && Str(out, p->exe);
    }
    case FieldKind::kProcPexepath: {
      const ThreadInfo* p = Parent(t);
      return p != nullptr && Str(out, p->exepath);
    }
    case FieldKind::kProcAexepath: {
      if (id.arg == FieldId::kNoArg) {
        std::vector<std::string_view>& paths = ScratchList();
        for (const ThreadInfo* a = Parent(t);
             a != nullptr && paths.size() < FieldRegistry::kMaxAncestor; a = Parent(a)) {
          paths.push_back(a->exepath);
        }
        out.items = paths;
        return true;
      }
      const ThreadInfo* a = Ancestor(id.arg);
      return a != nullptr && Str(out, a->exepath);
    }
    case FieldKind::kProcAexe: {
      const ThreadInfo* a = Ancestor(id.arg);
      return a != nullptr && Str(out, a->exe);
    }
    case FieldKind::kProcIsVpgidLeader:
      // The group id may be numbered on the host or in the process's own
      // pid namespace (as an execve reports it): a leader's equals its pid
      // in the same numbering.
      return t->pgid != 0 && Bool(out, t->pgid == t->tgid || t->pgid == t->vpid);
    case FieldKind::kProcCmdline:
    case FieldKind::kProcExeline: {
      std::string& s = Scratch();
      AppendCommandLine(s, id.kind == FieldKind::kProcCmdline ? t->comm : t->exe, *t);
      return Str(out, s);
    }
    case FieldKind::kProcArgs: {
      if (t->args.size() == 1) return Str(out, t->args[0]);
      std::string& s = Scratch();
      for (size_t i = 0; i < t->args.size(); ++i) {
        if (i) s.push_back(' ');
        s.append(t->args[i]);
      }
      return Str(out, s);
    }
    case FieldKind::kProcCwd: {
      // Falco's working directory ends with '/'; the state's does not.
      if (t->cwd.empty()) return false;
      if (t->cwd.back() == '/') return Str(out, t->cwd);
      std::string& s = Scratch();
      s.append(t->cwd).push_back('/');
      return Str(out, s);
    }
    case FieldKind::kProcTty:
      return Uint(out, t->tty);
    case FieldKind::kProcSid:
      return Int(out, t->sid);
    case FieldKind::kProcSname: {
      const ThreadInfo* leader = ctx_.threads != nullptr ? ctx_.threads->Find(t->sid) : nullptr;
      return leader != nullptr && Str(out, leader->comm);
    }
    case FieldKind::kProcVpid:
      return Int(out, t->vpid);
    case FieldKind::kProcLoginuid:
      return Int(out, SignedId(t->loginuid));
    case FieldKind::kProcAname: {
      if (id.arg != FieldId::kNoArg) {
        const ThreadInfo* a = Ancestor(id.arg);
        return a != nullptr && Str(out, a->comm);
      }
      // Without an index: every ancestor's name, the process excluded (as
      // Falco walks them).
      std::vector<std::string_view>& names = ScratchList();
      for (const ThreadInfo* a = Parent(t);
           a != nullptr && names.size() < FieldRegistry::kMaxAncestor; a = Parent(a)) {
        names.push_back(a->comm);
      }
      out.items = names;
      return true;
    }
    case FieldKind::kProcApid: {
      if (id.arg == FieldId::kNoArg) {
        ancestor_pids_.clear();
        for (const ThreadInfo* a = Parent(t);
             a != nullptr && ancestor_pids_.size() < FieldRegistry::kMaxAncestor; a = Parent(a)) {
          ancestor_pids_.push_back(a->tgid);
        }
        out.ints = ancestor_pids_;
        return true;
      }
      const ThreadInfo* a = Ancestor(id.arg);
      return a != nullptr && Int(out, a->tgid);
    }
    case FieldKind::kProcDuration:
      if (t->start_ns == 0 || WallNs() < t->start_ns) return false;
      return Uint(out, WallNs() - t->start_ns);
    case FieldKind::kProcIsExeWritable:
      return Bool(out, t->exe_writable);
    case FieldKind::kProcIsExeFromMemfd:
      return Bool(out, t->exe_from_memfd);
    case FieldKind::kProcIsExeUpperLayer:
      return Bool(out, t->exe_upper_layer);
    case FieldKind::kProcIsExeLowerLayer:
      return Bool(out, t->exe_lower_layer);
    case FieldKind::kProcPidnsInitStartTs:
      return t->pidns_init_start_ns != 0 && Uint(out, t->pidns_init_start_ns);
    case FieldKind::kProcExeInoCtimeDurationPidnsStart:
      if (t->pidns_init_start_ns == 0 || t->exe_ctime_ns <= t->pidns_init_start_ns) return false;
      return Uint(out, t->exe_ctime_ns - t->pidns_init_start_ns);
    case FieldKind::kProcExeIno:
      return t->exe_ino != 0 && Int(out, static_cast<int64_t>(t->exe_ino));
    case FieldKind::kProcExeInoCtime:
      return t->exe_ctime_ns != 0 && Uint(out, t->exe_ctime_ns);
    case FieldKind::kProcExeInoMtime:
      return t->exe_mtime_ns != 0 && Uint(out, t->exe_mtime_ns);
    case FieldKind::kProcExeInoCtimeDurationProcStart:
      if (t->exe_ctime_ns == 0 || t->start_ns < t->exe_ctime_ns) return false;
      return Uint(out, t->start_ns - t->exe_ctime_ns);
    case FieldKind::kProcEnv: {
      if (id.arg != FieldId::kNoArg) {
        const std::string& name = registry_.EnvName(id.arg);
        for (const std::string& e : t->env) {
          if (e.size() > name.size() && e[name.size()] == '=' && e.starts_with(name)) {
            return Str(out, std::string_view(e).substr(name.size() + 1));
          }
        }
        return false;
      }
      return Str(out, JoinedEnv(*t));
    }
    // A host process is no container's health check; in a container, one
    // whose command line is the health check the runtime runs.
    case FieldKind::kProcIsContainerHealthcheck: {
      if (ContainerOf(*t).is_host()) return Bool(out, false);
      const containers::ContainerMetadata* m = MetadataOf(*t);
      if (m == nullptr) return false;
      // The runtime's command is the argv it runs: compared with the
      // process's, by name and by path.
      std::string& by_name = Scratch();
      AppendCommandLine(by_name, t->comm, *t);
      std::string& by_path = Scratch();
      AppendCommandLine(by_path, t->exe, *t);
      return Bool(
          out, !m->healthcheck.empty() && (by_name == m->healthcheck || by_path == m->healthcheck));
    }
    case FieldKind::kThreadTid:
      return Int(out, t->tid);
    case FieldKind::kThreadVtid:
      return Int(out, t->vtid);
    case FieldKind::kThreadCapEffective:
    case FieldKind::kThreadCapPermitted: {
      std::string& s = Scratch();
      AppendCapabilities(
          s, id.kind == FieldKind::kThreadCapEffective ? t->cap_effective : t->cap_permitted);
      return Str(out, s);
    }
    default:
      return false;
  }
}

bool FieldExtractor::ReadUser(FieldId id, FieldValue& out) {
  const ThreadInfo* t = ctx_.thread;
  if (t == nullptr) return false;
  switch (id.kind) {
    case FieldKind::kUserUid:
      return t->euid != UINT32_MAX && Uint(out, t->euid);
    case FieldKind::kUserName:
      return users_ != nullptr && t->euid != UINT32_MAX && Str(out, users_->UserName(t->euid));
    case FieldKind::kUserLoginuid:
      return Int(out, SignedId(t->loginuid));
    case FieldKind::kUserLoginname:
      return users_ != nullptr && t->loginuid != UINT32_MAX &&
             Str(out, users_->UserName(t->loginuid));
    case FieldKind::kGroupGid:
      return t->egid != UINT32_MAX && Uint(out, t->egid);
    case FieldKind::kGroupName:
      return users_ != nullptr && t->egid != UINT32_MAX && Str(out, users_->GroupName(t->egid));
    default:
      return false;
  }
}

std::string_view FieldExtractor::FailedOpenName(bool raw) {
  if (ctx_.event == nullptr) return {};
  const EventInfo& info = ctx_.event->info();
  if (info.syscall != "open" && info.syscall != "openat" && info.syscall != "openat2" &&
      info.syscall != "creat") {
    return {};
  }
  const std::optional<int64_t> ret = Return();
  if (!ret || *ret >= 0) return {};
  const int i = info.ParamIndex(std::string_view("name"));
  return i < 0 ? std::string_view() : ParamPath(i, raw);
}

std::string_view FieldExtractor::ParamPath(int index, bool raw) {
  const std::string_view s = ParamBytes(*ctx_.event, index);
  if (s.empty() || raw) return s;
  std::string& resolved = Scratch();
  return AppendStateText(resolved, index, false) ? std::string_view(resolved) : AbsolutePath(s);
}

bool FieldExtractor::ReadFd(FieldId id, FieldValue& out) {
  if (id.kind == FieldKind::kFdNum) return ctx_.fd >= 0 && Int(out, ctx_.fd);
  const FdInfo* fd = ctx_.fd_info;
  if (fd == nullptr) {
    // A failed open made no descriptor; Falco names the file it asked for.
    const std::string_view name = FailedOpenName(id.kind == FieldKind::kFdNameraw);
    if (name.empty()) return false;
    switch (id.kind) {
      case FieldKind::kFdName:
      case FieldKind::kFdNameraw:
        return Str(out, name);
      case FieldKind::kFdDirectory:
        return Str(out, DirName(name));
      default:
        return false;
    }
  }
  // Which end is the client: a socket that accepted (or listens) is the
  // server's, one that connected the client's. Worked out only by the
  // socket fields: most reads are of a file's name.
  const auto client = [fd]() -> const SocketAddress& {
    return fd->is_server ? fd->remote : fd->local;
  };
  const auto server = [fd]() -> const SocketAddress& {
    return fd->is_server ? fd->local : fd->remote;
  };
  const bool ip = IsIpSocket(fd);
  switch (id.kind) {
    case FieldKind::kFdType:
      return Str(out, FdTypeName(fd->type));
    case FieldKind::kFdTypechar:
      return Str(out, FdTypeChar(fd->type));
    case FieldKind::kFdName:
      return Str(out, fd->name);
    case FieldKind::kFdNameraw:
      return Str(out, fd->nameraw.empty() ? fd->name : fd->nameraw);
    case FieldKind::kFdNameChanged:
      return Bool(out, ctx_.threads != nullptr && ctx_.header != nullptr &&
                           ctx_.threads->FdNameChangedBy(*ctx_.header));
    case FieldKind::kFdConnected:
      return Bool(out, fd->connected);
    case FieldKind::kFdIsUpperLayer:
      return Bool(out, fd->overlay_upper);
    case FieldKind::kFdIsLowerLayer:
      return Bool(out, fd->overlay_lower);
    case FieldKind::kFdDirectory:
      if (fd->type == FdType::kDirectory) return Str(out, fd->name);
      return fd->type == FdType::kFile && Str(out, DirName(fd->name));
    case FieldKind::kFdFilename:
      return (fd->type == FdType::kFile || fd->type == FdType::kDirectory) &&
             Str(out, BaseName(fd->name));
    case FieldKind::kFdIp:
    case FieldKind::kFdNet: {
      if (!ip) return false;
      std::vector<std::string_view>& both = ScratchList();
      both.push_back(client().address);
      both.push_back(server().address);
      out.items = both;
      return true;
    }
    case FieldKind::kFdCip:
    case FieldKind::kFdCnet:
      return ip && Str(out, client().address);
    case FieldKind::kFdSip:
    case FieldKind::kFdSnet:
      return ip && Str(out, server().address);
    case FieldKind::kFdLip:
    case FieldKind::kFdLnet:
      return ip && Str(out, fd->local.address);
    case FieldKind::kFdRip:
    case FieldKind::kFdRnet:
      return ip && Str(out, fd->remote.address);
    case FieldKind::kFdPort:
      if (!ip) return false;
      ports_ = {client().port, server().port};
      out.uints = ports_;
      return true;
    case FieldKind::kFdCport:
      return ip && Uint(out, client().port);
    case FieldKind::kFdSport:
      return ip && Uint(out, server().port);
    case FieldKind::kFdLport:
      return ip && Uint(out, fd->local.port);
    case FieldKind::kFdRport:
      return ip && Uint(out, fd->remote.port);
    case FieldKind::kFdL4proto: {
      if (!ip) return false;
      const std::string_view name = L4ProtoName(*fd);
      return !name.empty() && Str(out, name);
    }
    case FieldKind::kFdSockfamily:
      if (ip) return Str(out, "ip");
      return fd->family == KESTREL_AF_UNIX && Str(out, "unix");
    case FieldKind::kFdIsServer:
      return Bool(out, fd->is_server);
    case FieldKind::kFdSipName:
      return ip && NamesOf(server().address, out);
    case FieldKind::kFdCipName:
      return ip && NamesOf(client().address, out);
    case FieldKind::kFdLipName:
      return ip && NamesOf(fd->local.address, out);
    case FieldKind::kFdRipName:
      return ip && NamesOf(fd->remote.address, out);
    default:
      return false;
  }
}

bool FieldExtractor::ReadFsPath(FieldId id, FieldValue& out) {
  if (ctx_.event == nullptr) return false;
  const EventInfo& info = ctx_.event->info();
  // The first of `names` the event has: as given (`raw`), or made absolute
  // as evt.arg makes it (against its dirfd's folder or the cwd).
  const auto first_of = [&](std::span<const std::string_view> names, bool raw) -> std::string_view {
    for (std::string_view n : names) {
      const int i = info.ParamIndex(n);
      if (i < 0 || IsNumericParam(*ctx_.event, i)) continue;
      if (const std::string_view s = ParamPath(i, raw); !s.empty()) return s;
    }
    return {};
  };
  static constexpr std::string_view kSource[] = {"oldpath", "target"};
  static constexpr std::string_view kTarget[] = {"newpath", "linkpath"};
  std::string_view path;
  switch (id.kind) {
    case FieldKind::kFsPathName:
      path = first_of(kResolvedPathParams, false);
      break;
    case FieldKind::kFsPathNameraw:
      path = first_of(kRawPathParams, true);
      break;
    // rename/link: oldpath -> newpath; symlink: target <- linkpath.
    case FieldKind::kFsPathSource:
      path = first_of(kSource, false);
      break;
    case FieldKind::kFsPathTarget:
      path = first_of(kTarget, false);
      break;
    default:
      return false;
  }
  return !path.empty() && Str(out, path);
}

const state::ContainerId& FieldExtractor::ContainerOf(const ThreadInfo& thread) {
  auto it = containers_.find(thread.cgroup);
  if (it == containers_.end()) {
    it = containers_.emplace(thread.cgroup, state::ContainerIdFromCgroupPath(thread.cgroup)).first;
  }
  return it->second;
}

const containers::ContainerMetadata* FieldExtractor::SandboxOf(
    const containers::ContainerMetadata& m) {
  if (m.is_pod_sandbox) return &m;
  if (m.pod_sandbox_id.empty()) return nullptr;
  held_sandbox_ = metadata_->Find(m.pod_sandbox_id);
  return held_sandbox_.get();
}

const containers::ContainerMetadata* FieldExtractor::MetadataOf(const ThreadInfo& thread) {
  const state::ContainerId& c = ContainerOf(thread);
  if (metadata_ == nullptr || c.is_host()) return nullptr;
  held_metadata_ = metadata_->Find(c.full_id);
  return held_metadata_.get();
}

// Falco takes a container's start from its pid namespace's init, on the
// host too (the host's init). Only the host namespace's init is in the
// table; a container's own pid namespace started with the container.
std::optional<uint64_t> FieldExtractor::ContainerStartNs() {
  const ThreadInfo* t = ctx_.thread;
  if (t == nullptr) return std::nullopt;
  if (t->vpid == 0 || t->vpid == t->tgid) {
    const ThreadInfo* init = ctx_.threads == nullptr ? nullptr : ctx_.threads->Find(1);
    if (init == nullptr || init->start_ns == 0) return std::nullopt;
    return init->start_ns;
  }
  const containers::ContainerMetadata* m = MetadataOf(*t);
  if (m == nullptr || m->start_ns == 0) return std::nullopt;
  return m->start_ns;
}

bool FieldExtractor::ContainerMetadataPending() {
  if (metadata_ == nullptr || ctx_.thread == nullptr) return false;
  return !ContainerOf(*ctx_.thread).is_host() && MetadataOf(*ctx_.thread) == nullptr;
}

bool FieldExtractor::ContainerMetadataAsking() {
  if (!ContainerMetadataPending()) return false;
  return metadata_->Asking(ContainerOf(*ctx_.thread).full_id);
}

bool FieldExtractor::ReadContainer(FieldId id, FieldValue& out) {
  switch (id.kind) {
    case FieldKind::kContainerId: {
      if (ctx_.thread == nullptr) return false;
      return Str(out, ContainerOf(*ctx_.thread).id);
    }
    // A kubelet's cgroupfs path names no runtime ("cri"); the CRI that
    // answered about the container does.
    case FieldKind::kContainerType: {
      if (ctx_.thread == nullptr) return false;
      const state::ContainerRuntime runtime = ContainerOf(*ctx_.thread).runtime;
      if (runtime == state::ContainerRuntime::kKubernetes) {
        const containers::ContainerMetadata* m = MetadataOf(*ctx_.thread);
        if (m != nullptr && !m->runtime.empty()) return Str(out, m->runtime);
      }
      return Str(out, state::ContainerRuntimeName(runtime));
    }
    case FieldKind::kContainerFullId: {
      if (ctx_.thread == nullptr) return false;
      const state::ContainerId& c = ContainerOf(*ctx_.thread);
      return Str(out, c.is_host() ? std::string_view("host") : std::string_view(c.full_id));
    }
    // Falco's container plugin names the host's pseudo-container "host";
    // a container's name comes from its runtime.
    case FieldKind::kContainerName:
      if (ctx_.thread == nullptr) return false;
      if (ContainerOf(*ctx_.thread).is_host()) return Str(out, "host");
      break;
    case FieldKind::kContainerStartTs: {
      const std::optional<uint64_t> start = ContainerStartNs();
      return start && Uint(out, *start);
    }
    case FieldKind::kContainerDuration: {
      const std::optional<uint64_t> start = ContainerStartNs();
      const uint64_t now = WallNs();
      return start && now >= *start && Uint(out, now - *start);
    }
    default:
      break;
  }
  // The rest comes from the container's runtime: absent on the host, and
  // until the metadata arrived.
  if (ctx_.thread == nullptr) return false;
  const containers::ContainerMetadata* m = MetadataOf(*ctx_.thread);
  if (m == nullptr) return false;
  switch (id.kind) {
    case FieldKind::kContainerName:
      return Str(out, m->name);
    case FieldKind::kContainerImage:
      return Str(out, m->image);
    case FieldKind::kContainerImageRepository:
      return Str(out, m->image_repository);
    case FieldKind::kContainerImageTag:
      return Str(out, m->image_tag);
    case FieldKind::kContainerImageDigest:
      return Str(out, m->image_digest);
    case FieldKind::kContainerImageId:
      return Str(out, m->image_id);
    case FieldKind::kContainerPrivileged:
      return Bool(out, m->privileged);
    case FieldKind::kContainerHostNetwork:
      return Bool(out, m->host_network);
    case FieldKind::kContainerHostPid:
      return Bool(out, m->host_pid);
    case FieldKind::kContainerHostIpc:
      return Bool(out, m->host_ipc);
    case FieldKind::kContainerIp:
      return Str(out, m->ip);
    case FieldKind::kContainerUser:
      return Str(out, m->user);
    // Falco's N/A when the container has no health check (or disabled it).
    case FieldKind::kContainerHealthcheck:
      return Str(out, m->healthcheck.empty() ? std::string_view("N/A") : m->healthcheck);
    case FieldKind::kContainerLabel:
      return Label(out, *m, registry_.EnvName(id.arg));
    // As Falco's container plugin: without the CRI's io.kubernetes.* and
    // annotation.* labels, and a key alone when its value is empty.
    case FieldKind::kContainerLabels: {
      std::string& s = Scratch();
      AppendLabels(s, *m);
      return Str(out, s);
    }
    // A pod's labels and address are its sandbox's: the runtime names each
    // container's sandbox (metadata_cache.h fetches it with the container).
    case FieldKind::kK8sPodLabel:
    case FieldKind::kK8sPodLabels:
    case FieldKind::kK8sPodIp: {
      const containers::ContainerMetadata* pod = SandboxOf(*m);
      if (pod == nullptr) return false;
      if (id.kind == FieldKind::kK8sPodIp) return Str(out, pod->ip);
      if (id.kind == FieldKind::kK8sPodLabel) {
        const std::string& key = registry_.EnvName(id.arg);
        return !IsRuntimeLabel(key) && Label(out, *pod, key);
      }
      std::string& s = Scratch();
      AppendLabels(s, *pod);
      return Str(out, s);
    }
    case FieldKind::kK8sPodName:
      return Label(out, *m, "io.kubernetes.pod.name");
    case FieldKind::kK8sNsName:
      return Label(out, *m, "io.kubernetes.pod.namespace");
    case FieldKind::kK8sPodUid:
    case FieldKind::kK8sPodId:
      return Label(out, *m, "io.kubernetes.pod.uid");
    case FieldKind::kK8sPodFullSandboxId:
      return !m->pod_sandbox_id.empty() && Str(out, m->pod_sandbox_id);
    case FieldKind::kK8sPodSandboxId:
      // Short as container.id is.
      return !m->pod_sandbox_id.empty() &&
             Str(out, std::string_view(m->pod_sandbox_id).substr(0, 12));
    case FieldKind::kContainerMounts: {
      std::string& s = Scratch();
      for (const containers::ContainerMount& mount : m->mounts) {
        absl::StrAppend(&s, s.empty() ? "" : ",", mount.source, ":", mount.dest, ":", mount.mode,
                        ":", mount.rw ? "true" : "false", ":", mount.propagation);
      }
      return Str(out, s);
    }
    // Falco's value for "no such mount" is N/A, which its rules test for.
    case FieldKind::kContainerMount:
    case FieldKind::kContainerMountSource:
    case FieldKind::kContainerMountDest:
    case FieldKind::kContainerMountMode:
    case FieldKind::kContainerMountRdwr:
    case FieldKind::kContainerMountPropagation: {
      const containers::ContainerMount* mount =
          MountBy(*m, registry_.EnvName(id.arg), id.kind == FieldKind::kContainerMountSource);
      if (mount == nullptr) return Str(out, "N/A");
      switch (id.kind) {
        case FieldKind::kContainerMount: {
          std::string& s = Scratch();
          absl::StrAppend(&s, mount->source, ":", mount->dest, ":", mount->mode, ":",
                          mount->rw ? "true" : "false", ":", mount->propagation);
          return Str(out, s);
        }
        case FieldKind::kContainerMountSource:
          return Str(out, mount->source);
        case FieldKind::kContainerMountDest:
          return Str(out, mount->dest);
        case FieldKind::kContainerMountMode:
          return Str(out, mount->mode);
        case FieldKind::kContainerMountRdwr:
          return Str(out, mount->rw ? "true" : "false");
        default:
          return Str(out, mount->propagation);
      }
    }
    // The rest comes from runtimes and Kubernetes, which Kestrel does not
    // ask yet: absent (FieldSource), so a rule reading them is named at
    // load rather than judged on a stand-in value.
    default:
      return false;
  }
}

bool FieldExtractor::ReadText(const FieldSpec& field, std::string& out) {
  FieldValue v;
  if (!Read(field, v)) return false;
  filter::AppendValueText(field.type, field.multiplicity, v, out);
  return true;
}

namespace {

// The number that follows `key` on its line of a /proc file ("VmRSS:\t 12 kB").
std::optional<uint64_t> ProcNumber(std::string_view text, std::string_view key) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string_view::npos) {
    if (at == 0 || text[at - 1] == '\n') break;
    at += key.size();
  }
  if (at == std::string_view::npos) return std::nullopt;
  size_t i = at + key.size();
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  size_t j = i;
  while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
  uint64_t n = 0;
  if (!absl::SimpleAtoi(absl::string_view(text.data() + i, j - i), &n)) return std::nullopt;
  return n;
}

// A small /proc file, whole; false when it cannot be read (the process is
// gone).
bool ReadSmallFile(const std::string& path, std::string& out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[4096];
  ssize_t n = 0;
  while ((n = read(fd, buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return n == 0;
}

}  // namespace

const FieldExtractor::ProcStatus& FieldExtractor::Status() {
  if (status_.read) return status_;
  status_ = ProcStatus{.read = true};
  if (proc_dir_.empty() || ctx_.thread == nullptr) return status_;
  std::string& text = Scratch();
  if (!ReadSmallFile(absl::StrCat(proc_dir_, "/", ctx_.thread->tgid, "/status"), text)) {
    return status_;
  }
  // A kernel thread has no Vm* lines: its memory is 0, as Falco shows it.
  status_.vmsize = ProcNumber(text, "VmSize:").value_or(0);
  status_.vmrss = ProcNumber(text, "VmRSS:").value_or(0);
  status_.vmswap = ProcNumber(text, "VmSwap:").value_or(0);
  const std::optional<uint64_t> threads = ProcNumber(text, "Threads:");
  status_.found = threads.has_value();
  status_.threads = threads.value_or(0);
  return status_;
}

const ThreadInfo* FieldExtractor::LeaderOf(uint32_t id, bool session) const {
  if (id == 0 || ctx_.threads == nullptr) return nullptr;
  if (const ThreadInfo* leader = ctx_.threads->Find(id)) return leader;
  // The leader is gone: the eldest ancestor in the same group or session.
  const ThreadInfo* eldest = nullptr;
  const ThreadInfo* a = ctx_.thread;
  for (uint32_t depth = 0; a != nullptr && depth < FieldRegistry::kMaxAncestor; ++depth) {
    if ((session ? a->sid : a->pgid) != id) break;
    eldest = a;
    a = Parent(a);
  }
  return eldest;
}

bool FieldExtractor::ReadMoreEvt(FieldId id, FieldValue& out) {
  switch (id.kind) {
    case FieldKind::kEvtSource:
      return Str(out, "syscall");
    case FieldKind::kEvtHostname:
      return !hostname_.empty() && Str(out, hostname_);
    case FieldKind::kEvtCpu:
      return ctx_.header != nullptr && Int(out, ctx_.header->cpu);
    case FieldKind::kSyscallType: {
      const std::string_view syscall = Syscall();
      return !syscall.empty() && Str(out, syscall);
    }
    case FieldKind::kEvtInfo:
      return ReadEvt(FieldId{FieldKind::kEvtArgs, FieldId::kNoArg}, out);
    case FieldKind::kEvtBuflen:
    case FieldKind::kEvtBuflenIn:
    case FieldKind::kEvtBuflenOut: {
      const SyscallIo io = IoOf(Syscall());
      if (!io.io_event || ctx_.fd_info == nullptr) return false;
      if (id.kind == FieldKind::kEvtBuflenIn && !io.reads) return false;
      if (id.kind == FieldKind::kEvtBuflenOut && !io.writes) return false;
      const std::optional<int64_t> ret = Return();
      return ret && *ret >= 0 && Uint(out, static_cast<uint64_t>(*ret));
    }
    case FieldKind::kEvtIsIo: {
      const SyscallIo io = IoOf(Syscall());
      return Bool(out, io.reads || io.writes);
    }
    case FieldKind::kEvtIsIoRead:
      return Bool(out, IoOf(Syscall()).reads);
    case FieldKind::kEvtIsIoWrite:
      return Bool(out, IoOf(Syscall()).writes);
    case FieldKind::kEvtIoDir: {
      const SyscallIo io = IoOf(Syscall());
      if (io.writes) return Str(out, "write");
      return io.reads && Str(out, "read");
    }
    case FieldKind::kEvtIsSyslog: {
      const FdInfo* fd = ctx_.fd_info;
      return Bool(out, IoOf(Syscall()).writes && fd != nullptr &&
                           fd->name.find("/dev/log") != std::string::npos);
    }
    case FieldKind::kEvtAbspath:
    case FieldKind::kEvtAbspathSrc:
    case FieldKind::kEvtAbspathDst: {
      const std::string_view path = AbsPath(id.kind == FieldKind::kEvtAbspathDst);
      return !path.empty() && Str(out, path);
    }
    case FieldKind::kEvtCountError:
    case FieldKind::kEvtCountErrorFile:
    case FieldKind::kEvtCountErrorNet:
    case FieldKind::kEvtCountErrorMemory:
    case FieldKind::kEvtCountErrorOther: {
      const std::optional<int64_t> ret = Return();
      if (!ret) return false;
      if (id.kind != FieldKind::kEvtCountError) {
        // The class of the event as Falco sorts errors: by the descriptor
        // when it is known, else by the syscall.
        const std::string_view syscall = Syscall();
        const FdInfo* fd = ctx_.fd_info;
        bool file = false, net = false;
        if (fd != nullptr) {
          file = fd->type == FdType::kFile || fd->type == FdType::kDirectory;
          net = fd->type == FdType::kIpv4Socket || fd->type == FdType::kIpv6Socket ||
                fd->type == FdType::kUnixSocket;
        } else {
          file = IsOpenEvent(syscall) || syscall == "creat" || syscall == "open_by_handle_at";
          net = syscall == "accept" || syscall == "accept4" || syscall == "connect";
        }
        const bool memory = EventCategory(syscall, fd) == "memory";
        switch (id.kind) {
          case FieldKind::kEvtCountErrorFile:
            if (!file) return false;
            break;
          case FieldKind::kEvtCountErrorNet:
            if (!net) return false;
            break;
          case FieldKind::kEvtCountErrorMemory:
            if (!memory) return false;
            break;
          default:
            if (file || net || memory) return false;
            break;
        }
      }
      return Uint(out, *ret < 0 ? 1 : 0);
    }
    case FieldKind::kEvtCountExit:
      return Uint(out, 1);
    case FieldKind::kEvtDatetimeS: {
      std::string& s = Scratch();
      AppendTime(s, WallNs(), id.kind);
      return Str(out, s);
    }
    case FieldKind::kEvtRawtimeS:
      return Uint(out, WallNs() / 1'000'000'000);
    case FieldKind::kEvtRawtimeNs:
      return Uint(out, WallNs() % 1'000'000'000);
    default:
      return false;
  }
}

std::string_view FieldExtractor::AbsPath(bool dst) {
  if (ctx_.event == nullptr || ctx_.thread == nullptr) return {};
  const EventInfo& info = ctx_.event->info();
  const std::string_view syscall = info.syscall;
  std::string_view param;
  if (syscall == "renameat" || syscall == "renameat2" || syscall == "linkat") {
    param = dst ? "newpath" : "oldpath";
  } else if (syscall == "symlinkat") {
    param = "linkpath";
  } else if (syscall == "openat" || syscall == "openat2" || syscall == "unlinkat") {
    param = "name";
  } else if (syscall == "mkdirat") {
    param = "path";
  } else if (syscall == "fchmodat") {
    param = "filename";
  } else if (syscall == "fchownat") {
    param = "pathname";
  } else if (syscall == "open_by_handle_at") {
    // Only an open that succeeded knows its file: the kernel's path.
    const std::optional<int64_t> ret = Return();
    if (!ret || *ret <= 0) return {};
    const int i = info.ParamIndex(std::string_view("path"));
    return i < 0 ? std::string_view() : ParamBytes(*ctx_.event, i);
  } else {
    return {};
  }
  const int i = info.ParamIndex(param);
  if (i < 0 || ctx_.event->record().param(static_cast<uint32_t>(i)).empty()) return {};
  const std::string_view path = ParamBytes(*ctx_.event, i);
  if (path.empty()) return {};
  const std::string_view base = path.front() == '/' ? std::string_view("/") : BaseDirOf(i);
  if (base.empty()) return {};
  std::string& s = Scratch();
  ResolvePathInto(s, base, path);
  return s;
}

bool FieldExtractor::ReadMoreProc(FieldId id, FieldValue& out) {
  const ThreadInfo* t = ctx_.thread;
  if (t == nullptr) return false;
  // The group ids are known in the host's numbering only for a process in
  // the host's pid namespace, where both numberings are one.
  const bool host_ns = t->vpid == 0 || t->vpid == t->tgid;
  const auto fd_of = [&](int64_t n) -> const FdInfo* {
    return t->fds == nullptr ? nullptr : t->fds->Find(n);
  };
  switch (id.kind) {
    case FieldKind::kProcPidTs:
      return t->start_ns != 0 && Uint(out, t->start_ns);
    case FieldKind::kProcPpidTs: {
      const ThreadInfo* p = Parent(t);
      return p != nullptr && p->start_ns != 0 && Uint(out, p->start_ns);
    }
    case FieldKind::kProcPpidDuration: {
      const ThreadInfo* p = Parent(t);
      if (p == nullptr || p->start_ns == 0 || WallNs() < p->start_ns) return false;
      return Uint(out, WallNs() - p->start_ns);
    }
    case FieldKind::kProcPvpid: {
      const ThreadInfo* p = Parent(t);
      return p != nullptr && p->vpid != 0 && Int(out, p->vpid);
    }
    case FieldKind::kProcPgid:
    case FieldKind::kProcVpgid:
      return host_ns && t->pgid != 0 && Int(out, t->pgid);
    case FieldKind::kProcIsPgidLeader:
      return host_ns && t->pgid != 0 && Bool(out, t->pgid == t->tgid);
    case FieldKind::kProcPgidName:
    case FieldKind::kProcPgidExe:
    case FieldKind::kProcPgidExepath:
    case FieldKind::kProcVpgidName:
    case FieldKind::kProcVpgidExe:
    case FieldKind::kProcVpgidExepath: {
      if (!host_ns) return false;
      const ThreadInfo* leader = LeaderOf(t->pgid, false);
      if (leader == nullptr) return false;
      if (id.kind == FieldKind::kProcPgidName || id.kind == FieldKind::kProcVpgidName) {
        return Str(out, leader->comm);
      }
      if (id.kind == FieldKind::kProcPgidExe || id.kind == FieldKind::kProcVpgidExe) {
        return Str(out, leader->exe);
      }
      return Str(out, leader->exepath);
    }
    case FieldKind::kProcSidExe:
    case FieldKind::kProcSidExepath: {
      const ThreadInfo* leader = LeaderOf(t->sid, true);
      if (leader == nullptr) return false;
      return Str(out, id.kind == FieldKind::kProcSidExe ? leader->exe : leader->exepath);
    }
    case FieldKind::kProcIsSidLeader:
      // As proc.is_vpgid_leader: the session id in either numbering.
      return t->sid != 0 && Bool(out, t->sid == t->tgid || t->sid == t->vpid);
    case FieldKind::kProcCmdnargs:
      return Uint(out, t->args.size());
    case FieldKind::kProcCmdlenargs: {
      uint64_t n = 0;
      for (const std::string& a : t->args) n += a.size();
      return Uint(out, n);
    }
    case FieldKind::kProcAargs:
    case FieldKind::kProcAcmdline: {
      const bool cmdline = id.kind == FieldKind::kProcAcmdline;
      const auto text = [&](const ThreadInfo& a) -> std::string_view {
        std::string& s = Scratch();
        if (cmdline) {
          AppendCommandLine(s, a.comm, a);
        } else {
          for (size_t i = 0; i < a.args.size(); ++i) {
            if (i) s.push_back(' ');
            s.append(a.args[i]);
          }
        }
        return s;
      };
      if (id.arg != FieldId::kNoArg) {
        const ThreadInfo* a = Ancestor(id.arg);
        return a != nullptr && Str(out, text(*a));
      }
      std::vector<std::string_view>& all = ScratchList();
      for (const ThreadInfo* a = Parent(t);
           a != nullptr && all.size() < FieldRegistry::kMaxAncestor; a = Parent(a)) {
        all.push_back(text(*a));
      }
      out.items = all;
      return true;
    }
    case FieldKind::kProcStdinType:
    case FieldKind::kProcStdoutType:
    case FieldKind::kProcStderrType: {
      const FdInfo* fd =
          fd_of(static_cast<int>(id.kind) - static_cast<int>(FieldKind::kProcStdinType));
      return fd != nullptr && Str(out, FdTypeName(fd->type));
    }
    case FieldKind::kProcStdinName:
    case FieldKind::kProcStdoutName:
    case FieldKind::kProcStderrName: {
      const FdInfo* fd =
          fd_of(static_cast<int>(id.kind) - static_cast<int>(FieldKind::kProcStdinName));
      return fd != nullptr && Str(out, fd->name);
    }
    case FieldKind::kProcFdopencount:
      return t->fds != nullptr && Uint(out, t->fds->size());
    case FieldKind::kProcFdlimit:
    case FieldKind::kProcFdusage: {
      if (proc_dir_.empty()) return false;
      std::string& text = Scratch();
      if (!ReadSmallFile(absl::StrCat(proc_dir_, "/", t->tgid, "/limits"), text)) return false;
      const size_t at = text.find("Max open files");
      if (at == std::string::npos) return false;
      const std::optional<uint64_t> soft =
          ProcNumber(std::string_view(text).substr(at), "Max open files");
      if (!soft) return false;
      if (id.kind == FieldKind::kProcFdlimit) return Int(out, static_cast<int64_t>(*soft));
      // As libsinsp: capped at 100 (the count may run ahead of a lowered limit).
      const double open = t->fds != nullptr ? static_cast<double>(t->fds->size()) : 0;
      out.d = *soft > 0 ? std::min(100.0, open * 100 / static_cast<double>(*soft)) : 0;
      return true;
    }
    case FieldKind::kProcNthreads:
    case FieldKind::kProcNchilds: {
      const ProcStatus& st = Status();
      if (!st.found) return false;
      if (id.kind == FieldKind::kProcNthreads) return Uint(out, st.threads);
      return Uint(out, st.threads > 0 ? st.threads - 1 : 0);
    }
    case FieldKind::kProcVmsize:
    case FieldKind::kProcVmrss:
    case FieldKind::kProcVmswap:
    case FieldKind::kThreadVmsize:
    case FieldKind::kThreadVmrss: {
      const ProcStatus& st = Status();
      if (!st.found) return false;
      switch (id.kind) {
        case FieldKind::kProcVmsize:
          return Uint(out, st.vmsize);
        case FieldKind::kProcVmrss:
          return Uint(out, st.vmrss);
        case FieldKind::kProcVmswap:
          return Uint(out, st.vmswap);
        case FieldKind::kThreadVmsize:
          return Uint(out, t->tid == t->tgid ? st.vmsize : 0);
        default:
          return Uint(out, t->tid == t->tgid ? st.vmrss : 0);
      }
    }
    case FieldKind::kThreadPfmajor:
    case FieldKind::kThreadPfminor: {
      if (proc_dir_.empty()) return false;
      std::string& text = Scratch();
      if (!ReadSmallFile(absl::StrCat(proc_dir_, "/", t->tgid, "/task/", t->tid, "/stat"), text)) {
        return false;
      }
      // After the name's ')': state (field 3), ... minflt (10), majflt (12).
      const size_t paren = text.rfind(')');
      if (paren == std::string::npos) return false;
      const std::vector<absl::string_view> fields =
          absl::StrSplit(absl::string_view(text).substr(paren + 1), ' ', absl::SkipEmpty());
      const size_t index = id.kind == FieldKind::kThreadPfminor ? 10 - 3 : 12 - 3;
      uint64_t n = 0;
      return fields.size() > index && absl::SimpleAtoi(fields[index], &n) && Uint(out, n);
    }
    case FieldKind::kThreadIsmain:
      return Bool(out, t->tid == t->tgid);
    case FieldKind::kThreadCapInheritable: {
      std::string& s = Scratch();
      AppendCapabilities(s, t->cap_inheritable);
      return Str(out, s);
    }
    case FieldKind::kThreadNametid: {
      std::string& s = Scratch();
      absl::StrAppend(&s, t->comm, t->tid);
      return Str(out, s);
    }
    case FieldKind::kUserHomedir:
    case FieldKind::kUserShell: {
      if (users_ == nullptr || t->euid == UINT32_MAX) return false;
      const std::string_view v = id.kind == FieldKind::kUserHomedir ? users_->UserHome(t->euid)
                                                                    : users_->UserShell(t->euid);
      return !v.empty() && Str(out, v);
    }
    default:
      return false;
  }
}

bool FieldExtractor::ReadMoreFd(FieldId id, FieldValue& out) {
  switch (id.kind) {
    case FieldKind::kFsPathSourceraw:
    case FieldKind::kFsPathTargetraw: {
      if (ctx_.event == nullptr) return false;
      const EventInfo& info = ctx_.event->info();
      static constexpr std::string_view kSource[] = {"oldpath", "target"};
      static constexpr std::string_view kTarget[] = {"newpath", "linkpath"};
      for (std::string_view n : id.kind == FieldKind::kFsPathSourceraw
                                    ? std::span<const std::string_view>(kSource)
                                    : std::span<const std::string_view>(kTarget)) {
        const int i = info.ParamIndex(n);
        if (i < 0 || IsNumericParam(*ctx_.event, i)) continue;
        if (const std::string_view s = ParamBytes(*ctx_.event, i); !s.empty()) return Str(out, s);
      }
      return false;
    }
    case FieldKind::kFdUid: {
      if (ctx_.thread == nullptr || ctx_.fd < 0) return false;
      std::string& s = Scratch();
      absl::StrAppend(&s, ctx_.thread->tid, ctx_.fd);
      return Str(out, s);
    }
    case FieldKind::kFdTypes: {
      const ThreadInfo* t = ctx_.thread;
      if (t == nullptr || t->fds == nullptr) return false;
      std::vector<std::string_view>& types = ScratchList();
      if (id.arg != FieldId::kNoArg) {
        const FdInfo* fd = t->fds->Find(id.arg);
        if (fd == nullptr) return false;
        types.push_back(FdTypeName(fd->type));
      } else {
        for (const auto& [n, fd] : t->fds->entries()) {
          const std::string_view name = FdTypeName(fd.type);
          if (std::find(types.begin(), types.end(), name) == types.end()) types.push_back(name);
        }
        // The table's order is a hash's: sorted, the list reads the same
        // from run to run.
        std::sort(types.begin(), types.end());
      }
      out.items = types;
      return true;
    }
    case FieldKind::kFdContainername:
    case FieldKind::kFdContainerdirectory: {
      if (ctx_.thread == nullptr) return false;
      FieldValue v;
      const FieldKind of =
          id.kind == FieldKind::kFdContainername ? FieldKind::kFdName : FieldKind::kFdDirectory;
      if (!ReadFd(FieldId{of, FieldId::kNoArg}, v)) return false;
      std::string& s = Scratch();
      s.append(ContainerOf(*ctx_.thread).id).push_back(':');
      s.append(v.str);
      return Str(out, s);
    }
    default:
      break;
  }
  const FdInfo* fd = ctx_.fd_info;
  if (fd == nullptr) return false;
  switch (id.kind) {
    case FieldKind::kFdIno:
      return Int(out, static_cast<int64_t>(fd->ino));
    case FieldKind::kFdDev:
      return Int(out, static_cast<int64_t>(fd->dev));
    case FieldKind::kFdDevMajor:
      return Int(out, major(fd->dev));
    case FieldKind::kFdDevMinor:
      return Int(out, minor(fd->dev));
    case FieldKind::kFdCproto:
    case FieldKind::kFdSproto:
    case FieldKind::kFdLproto:
    case FieldKind::kFdRproto: {
      if (!IsIpSocket(fd)) return false;
      const SocketAddress& client = fd->is_server ? fd->remote : fd->local;
      const SocketAddress& server = fd->is_server ? fd->local : fd->remote;
      uint16_t port = 0;
      switch (id.kind) {
        case FieldKind::kFdCproto:
          port = client.port;
          break;
        case FieldKind::kFdSproto:
          port = server.port;
          break;
        case FieldKind::kFdLproto:
          port = fd->local.port;
          break;
        default:
          port = fd->remote.port;
          break;
      }
      // Falco's text of a port when it resolves no service names (its
      // default): the number.
      std::string& s = Scratch();
      absl::StrAppend(&s, port);
      return Str(out, s);
    }
    default:
      return false;
  }
}

bool FieldExtractor::ReadFdlist(FieldId id, FieldValue& out) {
  if (ctx_.event == nullptr || ctx_.thread == nullptr) return false;
  const std::string_view syscall = ctx_.event->info().syscall;
  if (syscall != "poll" && syscall != "ppoll") return false;
  const std::optional<std::vector<PolledFd>> polled = ctx_.event->FdList("fds");
  if (!polled) return false;
  std::string& s = Scratch();
  for (const PolledFd& p : *polled) {
    const FdInfo* fd = ctx_.thread->fds == nullptr ? nullptr : ctx_.thread->fds->Find(p.fd);
    const size_t before = s.size();
    if (!s.empty()) s.push_back(',');
    const size_t start = s.size();
    const bool ip = IsIpSocket(fd);
    const SocketAddress* client = nullptr;
    const SocketAddress* server = nullptr;
    if (ip) {
      client = fd->is_server ? &fd->remote : &fd->local;
      server = fd->is_server ? &fd->local : &fd->remote;
    }
    switch (id.kind) {
      case FieldKind::kFdlistNums:
        absl::StrAppend(&s, p.fd);
        break;
      case FieldKind::kFdlistNames:
        s.append(fd != nullptr && !fd->name.empty() ? std::string_view(fd->name) : "<NA>");
        break;
      case FieldKind::kFdlistCips:
        if (ip) s.append(client->address);
        break;
      case FieldKind::kFdlistSips:
        if (ip) s.append(server->address);
        break;
      case FieldKind::kFdlistCports:
        if (ip) absl::StrAppend(&s, client->port);
        break;
      default:
        if (ip) absl::StrAppend(&s, server->port);
        break;
    }
    // Descriptors with nothing to show leave no empty item.
    if (s.size() == start) s.resize(before);
  }
  return !s.empty() && Str(out, s);
}

}  // namespace kestrel::engine::fields
