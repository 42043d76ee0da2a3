// The fields user space derives from what it already keeps, with no record
// parameter of their own: the login shell and ancestors' environments from
// the lineage, fd.proto from the descriptor, evt.is_wait from Falco's event
// table, evt.reltime from the capture's first event, and thread.cgroup(s)
// from each controller's cgroup the thread table keeps.
#include "engine/decode/falco_event_table.h"
#include "field_extractor.h"

namespace kestrel::engine::fields {
namespace {

// How far proc.loginshellid walks up: past this a parent chain is taken for
// a loop (libsinsp stops at a loop too).
constexpr uint32_t kLoginShellMaxDepth = 256;
// proc.aenv[VAR] looks this many ancestors up, as libsinsp does.
constexpr uint32_t kAenvVarMaxDepth = 20;

// A name ending in "sh" is a shell, as libsinsp's test reads it (bash, zsh,
// sh, ssh too).
bool DerivedIsShellName(std::string_view comm) { return comm.ends_with("sh"); }

// The value of `name` in `env` with the spaces around it trimmed, as
// libsinsp's get_env gives it; empty when unset or empty.
std::string_view DerivedEnvValue(const std::vector<std::string>& env, std::string_view name) {
  for (const std::string& e : env) {
    if (e.size() <= name.size() + 1 || e[name.size()] != '=' || !e.starts_with(name)) continue;
    std::string_view v = std::string_view(e).substr(name.size() + 1);
    const size_t first = v.find_first_not_of(' ');
    if (first == std::string_view::npos) return {};
    v.remove_prefix(first);
    return v.substr(0, v.find_last_not_of(' ') + 1);
  }
  return {};
}

// A controller as libsinsp names it: the kernel's io is blkio, its
// "perf"/"mem" are perf_event/memory, and a "_cgroup" suffix is dropped.
std::string_view DerivedControllerName(std::string_view kernel_name) {
  if (kernel_name.ends_with("_cgroup")) kernel_name.remove_suffix(sizeof("_cgroup") - 1);
  if (kernel_name == "io") return "blkio";
  if (kernel_name == "perf") return "perf_event";
  if (kernel_name == "mem") return "memory";
  return kernel_name;
}

}  // namespace

bool FieldExtractor::ReadDerived(FieldId id, filter::FieldValue& out) {
  switch (id.kind) {
    case FieldKind::kProcLoginshellid: {
      // The process as its main thread names it, then its ancestors: the
      // eldest shell wins, so every process of a login session gives the
      // session's first shell.
      const ThreadInfo* t = ProcessThread(ctx_.thread);
      if (t == nullptr) return false;
      const ThreadInfo* shell = nullptr;
      for (uint32_t depth = 0; t != nullptr && depth <= kLoginShellMaxDepth;
           ++depth, t = Parent(t)) {
        if (DerivedIsShellName(t->comm)) shell = t;
      }
      if (shell == nullptr) return false;
      out.i = shell->tgid;
      return true;
    }
    case FieldKind::kFdProto:
      // libsinsp compares fd.proto exactly as fd.port: either end's port.
      return ReadFd(FieldId{FieldKind::kFdPort, FieldId::kNoArg}, out);
    case FieldKind::kProcAenv:
      return ReadAncestorEnv(id, out);
    case FieldKind::kEvtIsWait: {
      const std::string_view syscall = Syscall();
      const FalcoEvent* e = syscall.empty() ? nullptr : FindFalcoEvent(syscall);
      out.b = e != nullptr && e->waits;
      return true;
    }
    case FieldKind::kEvtReltime:
    case FieldKind::kEvtReltimeS:
    case FieldKind::kEvtReltimeNs: {
      // An event read after the first but stamped before it (another CPU's)
      // has no time since the start: absent, never a wrapped number.
      if (!first_event_ts_ns_ || ctx_.header == nullptr ||
          ctx_.header->ts_ns < *first_event_ts_ns_) {
        return false;
      }
      const uint64_t rel = ctx_.header->ts_ns - *first_event_ts_ns_;
      if (id.kind == FieldKind::kEvtReltime) {
        out.u = rel;
      } else if (id.kind == FieldKind::kEvtReltimeS) {
        out.u = rel / 1'000'000'000;
      } else {
        out.u = rel % 1'000'000'000;
      }
      return true;
    }
    case FieldKind::kThreadCgroups:
    case FieldKind::kThreadCgroup: {
      const ThreadInfo* t = ctx_.thread;
      if (t == nullptr || t->cgroups.empty()) return false;
      const bool all = id.kind == FieldKind::kThreadCgroups;
      std::string_view wanted;
      if (!all) wanted = registry_.EnvName(id.arg);
      std::string* s = all ? &Scratch() : nullptr;
      for (const std::string& entry : t->cgroups) {
        const size_t eq = entry.find('=');
        if (eq == std::string::npos) continue;
        const std::string_view name = DerivedControllerName(std::string_view(entry).substr(0, eq));
        const std::string_view path = std::string_view(entry).substr(eq + 1);
        if (!all) {
          if (name != wanted) continue;
          out.str = path;
          return true;
        }
        if (!s->empty()) s->push_back(' ');
        s->append(name).append("=").append(path);
      }
      if (!all || s->empty()) return false;
      out.str = *s;
      return true;
    }
    default:
      return false;
  }
}

bool FieldExtractor::ReadAncestorEnv(FieldId id, filter::FieldValue& out) {
  // A process's environment is its main thread's.
  const ThreadInfo* t = ProcessThread(ctx_.thread);
  if (t == nullptr) return false;
  // Without [ ]: each ancestor's environment, the process excluded, so a
  // comparison holds when one of them matches.
  if (id.arg == FieldId::kNoArg) {
    std::vector<std::string_view>& all = ScratchList();
    for (const ThreadInfo* a = Parent(t); a != nullptr && all.size() < FieldRegistry::kMaxAncestor;
         a = Parent(a)) {
      all.push_back(JoinedEnv(*a));
    }
    out.items = all;
    return true;
  }
  // [VAR]: the nearest ancestor that gives it a non-empty value.
  if (id.arg & FieldRegistry::kByEnvName) {
    const std::string& name = registry_.EnvName(id.arg & ~FieldRegistry::kByEnvName);
    const ThreadInfo* a = Parent(t);
    for (uint32_t depth = 0; a != nullptr && depth < kAenvVarMaxDepth; ++depth, a = Parent(a)) {
      const std::string_view v = DerivedEnvValue(a->env, name);
      if (!v.empty()) {
        out.str = v;
        return true;
      }
    }
    return false;
  }
  // [N]: the Nth ancestor's, [0] the process's own.
  const ThreadInfo* a = t;
  for (uint32_t i = 0; i < id.arg && a != nullptr; ++i) a = Parent(a);
  if (a == nullptr) return false;
  out.str = JoinedEnv(*a);
  return true;
}

}  // namespace kestrel::engine::fields
