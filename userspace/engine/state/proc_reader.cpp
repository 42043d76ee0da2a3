#include "proc_reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/decode/nul_separated.h"
#include "engine/state/container_id.h"
#include "engine/state/controller_cgroups.h"
#include "proc_fds.h"
#include "proc_net.h"

namespace kestrel::engine {
namespace {

// cmdline and environ of a process may be long; past this they are cut.
constexpr size_t kMaxProcFile = size_t{64} * 1024;

std::optional<std::string> ReadProcFile(const std::string& path, size_t max = 8192) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[4096];
  while (out.size() < max) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0) {
      close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  if (out.size() > max) out.resize(max);
  return out;
}

std::string ReadLink(const std::string& path) {
  char buf[4096];
  const ssize_t n = readlink(path.c_str(), buf, sizeof(buf));
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::optional<uint32_t> ParseId(std::string_view s) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// stat fields after the comm (which may hold spaces and parentheses, so
// they are counted from its last ')'): 1 state, 2 ppid, 3 pgrp, 4 session,
// 5 tty_nr, ... 20 starttime (clock ticks after boot).
void ParseStat(std::string_view stat, ThreadInfo& t, uint64_t& start_ticks) {
  const size_t close = stat.rfind(')');
  if (close == std::string_view::npos) return;
  const std::vector<absl::string_view> fields = absl::StrSplit(
      absl::string_view(stat.data() + close + 1, stat.size() - close - 1), ' ', absl::SkipEmpty());
  auto field = [&](size_t i) -> std::string_view {
    return i <= fields.size() ? std::string_view(fields[i - 1].data(), fields[i - 1].size())
                              : std::string_view();
  };
  t.ppid = ParseId(field(2)).value_or(0);
  t.pgid = ParseId(field(3)).value_or(0);
  t.sid = ParseId(field(4)).value_or(0);
  t.tty = ParseId(field(5)).value_or(0);
  const std::string_view ticks = field(20);
  std::from_chars(ticks.data(), ticks.data() + ticks.size(), start_ticks);
}

// The last number of an "NSpid:\t1234\t1" line: the id in the thread's own
// pid namespace.
uint32_t InnermostId(absl::string_view values) {
  const std::vector<absl::string_view> ids = absl::StrSplit(values, '\t', absl::SkipEmpty());
  return ids.empty() ? 0
                     : ParseId(std::string_view(ids.back().data(), ids.back().size())).value_or(0);
}

void ParseStatus(std::string_view status, ThreadInfo& t) {
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(status.data(), status.size()), '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    const absl::string_view key = line.substr(0, colon);
    const absl::string_view value = absl::StripLeadingAsciiWhitespace(line.substr(colon + 1));
    const std::vector<absl::string_view> words = absl::StrSplit(value, '\t', absl::SkipEmpty());
    if ((key == "Uid" || key == "Gid") && words.size() >= 2) {
      uint32_t real = 0, effective = 0;
      if (!absl::SimpleAtoi(words[0], &real) || !absl::SimpleAtoi(words[1], &effective)) continue;
      (key == "Uid" ? t.uid : t.gid) = real;
      (key == "Uid" ? t.euid : t.egid) = effective;
    } else if (key == "NSpid") {
      t.vtid = InnermostId(value);
    } else if (key == "NStgid") {
      t.vpid = InnermostId(value);
    } else if (key == "CapInh" || key == "CapPrm" || key == "CapEff") {
      uint64_t caps = 0;
      if (!absl::SimpleHexAtoi(value, &caps)) continue;
      (key == "CapInh"   ? t.cap_inheritable
       : key == "CapPrm" ? t.cap_permitted
                         : t.cap_effective) = caps;
    }
  }
}

// Boot time in seconds since the epoch ("btime" of `proc_root`/stat): a
// start time in ticks after boot becomes ns since the epoch.
uint64_t BootTimeSeconds(const std::string& proc_root) {
  std::optional<std::string> stat = ReadProcFile(proc_root + "/stat", kMaxProcFile);
  if (!stat) return 0;
  for (absl::string_view line : absl::StrSplit(*stat, '\n')) {
    uint64_t btime = 0;
    if (absl::ConsumePrefix(&line, "btime ") && absl::SimpleAtoi(line, &btime)) return btime;
  }
  return 0;
}

// What every thread of one process shares: read once per process.
struct ProcessFacts {
  std::string exe, exepath, cwd, root, cgroup;
  std::vector<std::string> args, env;
  std::vector<std::string> cgroups;  // per controller (controller_cgroups.h)
  uint32_t loginuid = UINT32_MAX;
  std::shared_ptr<FdTable> fds;
};

// `kernel_controllers`: /proc/cgroups, read once for all processes.
ProcessFacts ReadProcess(const std::string& proc_root, uint32_t tgid, const SocketsByInode* sockets,
                         std::string_view kernel_controllers) {
  ProcessFacts p;
  const std::string dir = absl::StrCat(proc_root, "/", tgid);
  p.exepath = ReadLink(dir + "/exe");
  p.cwd = ReadLink(dir + "/cwd");
  p.root = ReadLink(dir + "/root");
  if (std::optional<std::string> cmdline = ReadProcFile(dir + "/cmdline", kMaxProcFile)) {
    std::vector<std::string> argv = SplitNulSeparated(*cmdline);
    if (!argv.empty()) {
      p.exe = std::move(argv.front());
      p.args.assign(std::make_move_iterator(argv.begin() + 1), std::make_move_iterator(argv.end()));
    }
  }
  if (std::optional<std::string> environ = ReadProcFile(dir + "/environ", kMaxProcFile)) {
    p.env = SplitNulSeparated(*environ);
  }
  if (std::optional<std::string> loginuid = ReadProcFile(dir + "/loginuid")) {
    if (decltype(p.loginuid) v; absl::SimpleAtoi(absl::StripAsciiWhitespace(*loginuid), &v)) {
      p.loginuid = v;
    }
  }
  if (std::optional<std::string> cgroup = ReadProcFile(dir + "/cgroup")) {
    p.cgroup = std::string(state::ContainerCgroupPathFromProcFile(*cgroup));
    p.cgroups = state::ControllerCgroupsFromProcFiles(*cgroup, kernel_controllers);
  }
  p.fds = ReadProcFds(proc_root, tgid, sockets);
  return p;
}

std::optional<ThreadInfo> ReadThread(const std::string& proc_root, uint32_t tgid, uint32_t tid,
                                     const ProcessFacts& process, uint64_t boot_s) {
  const std::string dir = absl::StrCat(proc_root, "/", tgid, "/task/", tid);
  std::optional<std::string> comm = ReadProcFile(dir + "/comm");
  if (!comm) return std::nullopt;
  if (!comm->empty() && comm->back() == '\n') comm->pop_back();
  ThreadInfo t;
  t.tid = tid;
  t.tgid = tgid;
  t.comm = *std::move(comm);
  // A kernel thread has no command line: Falco names its exe by its comm.
  t.exe = process.exe.empty() ? t.comm : process.exe;
  t.exepath = process.exepath;
  t.args = process.args;
  t.env = process.env;
  t.cwd = process.cwd;
  t.root = process.root;
  t.loginuid = process.loginuid;
  t.cgroup = process.cgroup;
  t.cgroups = process.cgroups;
  t.fds = process.fds;
  uint64_t start_ticks = 0;
  if (std::optional<std::string> stat = ReadProcFile(dir + "/stat"))
    ParseStat(*stat, t, start_ticks);
  if (std::optional<std::string> status = ReadProcFile(dir + "/status")) ParseStatus(*status, t);
  const long ticks_per_s = sysconf(_SC_CLK_TCK);
  if (boot_s != 0 && ticks_per_s > 0) {
    t.start_ns = boot_s * 1'000'000'000 + start_ticks * (1'000'000'000 / ticks_per_s);
  }
  return t;
}

struct DirCloser {
  void operator()(DIR* d) const { closedir(d); }
};

template <typename Visit>
void ForEachNumericEntry(const std::string& dir, Visit visit) {
  std::unique_ptr<DIR, DirCloser> d(opendir(dir.c_str()));
  if (!d) return;
  while (const dirent* e = readdir(d.get())) {
    if (std::optional<uint32_t> id = ParseId(e->d_name)) visit(*id);
  }
}

// The inode of a process's pid namespace ("pid:[4026531836]"); 0 when
// unreadable.
uint64_t PidNamespaceInode(const std::string& proc_root, uint32_t tgid) {
  char link[64];
  const std::string path = absl::StrCat(proc_root, "/", tgid, "/ns/pid");
  const ssize_t n = readlink(path.c_str(), link, sizeof link - 1);
  if (n <= 0) return 0;
  const std::string_view text(link, static_cast<size_t>(n));
  const size_t open = text.find('[');
  uint64_t inode = 0;
  if (open == std::string_view::npos) return 0;
  std::from_chars(text.data() + open + 1, text.data() + text.size(), inode);
  return inode;
}

}  // namespace

std::optional<ThreadInfo> ReadProcThread(const std::string& proc_root, uint32_t tgid,
                                         uint32_t tid) {
  const uint64_t boot_s = BootTimeSeconds(proc_root);
  const std::string controllers = ReadProcFile(proc_root + "/cgroups").value_or("");
  std::optional<ThreadInfo> t =
      ReadThread(proc_root, tgid, tid, ReadProcess(proc_root, tgid, nullptr, controllers), boot_s);
  // Another pid namespace's init would take a scan of every process.
  if (t && t->vpid == t->tgid) t->pidns_init_start_ns = boot_s * 1'000'000'000;
  return t;
}

void ForEachProcThread(const std::string& proc_root, const std::function<void(ThreadInfo)>& visit) {
  const uint64_t boot_s = BootTimeSeconds(proc_root);
  const SocketsByInode sockets = ReadProcNetSockets(proc_root);
  const std::string controllers = ReadProcFile(proc_root + "/cgroups").value_or("");
  // pidns_init_start_ns: the host's pid namespace started at boot (as
  // Falco says); another namespace when its init (its process 1) did, which
  // is read with the rest, so the threads are visited once all are read.
  std::vector<std::pair<ThreadInfo, uint64_t>> threads;  // and their pid namespace
  std::unordered_map<uint64_t, uint64_t> init_start_by_ns;
  ForEachNumericEntry(proc_root, [&](uint32_t tgid) {
    const ProcessFacts process = ReadProcess(proc_root, tgid, &sockets, controllers);
    uint64_t ns = 0;
    ForEachNumericEntry(absl::StrCat(proc_root, "/", tgid, "/task"), [&](uint32_t tid) {
      std::optional<ThreadInfo> t = ReadThread(proc_root, tgid, tid, process, boot_s);
      if (!t) return;
      if (t->vpid == t->tgid) {
        t->pidns_init_start_ns = boot_s * 1'000'000'000;
      } else if (t->vpid != 0) {
        if (ns == 0) ns = PidNamespaceInode(proc_root, tgid);
        if (t->vpid == 1 && t->tid == t->tgid && ns != 0) init_start_by_ns[ns] = t->start_ns;
      }
      const uint64_t own_ns = t->vpid == t->tgid ? 0 : ns;
      threads.emplace_back(*std::move(t), own_ns);
    });
  });
  for (auto& [t, ns] : threads) {
    if (auto init = init_start_by_ns.find(ns); ns != 0 && init != init_start_by_ns.end()) {
      t.pidns_init_start_ns = init->second;
    }
    visit(std::move(t));
  }
}

}  // namespace kestrel::engine
