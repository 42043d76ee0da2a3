#include "containerd.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "podman.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;

bool OnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path == nullptr ? "" : path, ':')) {
    if (access(absl::StrCat(dir, "/", name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Everything under $DIR, so that nothing of a system containerd is used:
// the opt plugin would create /opt/containerd, and runc's state would go
// to /run/containerd/runc. The CRI clamps the sandbox's oom_score_adj
// (-998) to ours, since lowering it needs CAP_SYS_RESOURCE, which this
// machine withholds. Snapshotters that cannot work here are off, to keep
// the log to the point.
constexpr char kConfig[] = R"(version = 2
root = "$DIR/root"
state = "$DIR/state"
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper",
  "io.containerd.snapshotter.v1.aufs", "io.containerd.tracing.processor.v1.otlp"]

[grpc]
  address = "$SOCKET"

[ttrpc]
  address = "$SOCKET.ttrpc"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  restrict_oom_score_adj = true
  disable_apparmor = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$DIR/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "$DIR/cni/bin"
    conf_dir = "$DIR/cni/conf"
)";

// The processes whose command line has `arg` as one of its arguments.
std::vector<pid_t> ProcessesWithArg(const std::string& arg) {
  std::vector<pid_t> pids;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmdline = ReadFile(entry.path() / "cmdline");
    for (absl::string_view a : absl::StrSplit(cmdline, '\0')) {
      if (a == arg) {
        pids.push_back(std::atoi(name.c_str()));
        break;
      }
    }
  }
  return pids;
}

// Each cgroup hierarchy's root: the v1 controllers' and the unified one on
// a hybrid host, /sys/fs/cgroup itself on a v2 one.
std::vector<fs::path> CgroupRoots() {
  std::vector<fs::path> roots = {"/sys/fs/cgroup"};
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator("/sys/fs/cgroup", ec)) {
    if (!entry.is_symlink() && entry.is_directory() && fs::exists(entry.path() / "cgroup.procs")) {
      roots.push_back(entry.path());
    }
  }
  return roots;
}

// The processes of a cgroup and of those below it.
void CgroupProcesses(const fs::path& cgroup, std::vector<pid_t>* pids) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(cgroup, ec)) {
    if (entry.is_directory()) CgroupProcesses(entry.path(), pids);
  }
  std::istringstream procs(ReadFile(cgroup / "cgroup.procs"));
  for (pid_t pid; procs >> pid;) pids->push_back(pid);
}

// A cgroup and those below it, innermost first (rmdir takes only empty
// ones, which a cgroup is once its processes are gone).
void RemoveCgroup(const fs::path& cgroup) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(cgroup, ec)) {
    if (entry.is_directory()) RemoveCgroup(entry.path());
  }
  rmdir(cgroup.c_str());
}

void KillAndWait(const std::vector<pid_t>& pids) {
  for (pid_t pid : pids) kill(pid, SIGKILL);
  // Not our children (shims re-parent themselves): gone once /proc says so.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (pid_t pid : pids) {
    while (fs::exists(absl::StrCat("/proc/", pid)) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

}  // namespace

std::string Containerd::Missing() {
  for (const char* tool : {"containerd", "containerd-shim-runc-v2", "ctr", "runc", "podman"}) {
    if (!OnPath(tool))
      return absl::StrCat(tool, " is not installed (scripts/install-deps.sh --tests)");
  }
  if (!fs::exists("/bin/busybox")) return "busybox-static is not installed";
  return "";
}

Containerd::Containerd()
    : dir_(absl::StrCat("/tmp/kestrel-e2e-containerd-", getpid())),
      socket_(dir_ + "/containerd.sock"),
      pause_image_(absl::StrCat("localhost/kestrel-e2e-pause-", getpid(), ":latest")) {
  fs::remove_all(dir_);
  fs::create_directories(dir_);
  cri_ = std::make_unique<CriClient>(socket_, dir_ + "/logs");
  if (Start()) ImportImages();
}

Containerd::~Containerd() {
  if (pid_ > 0) cri_->RemoveAllPods();
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (waitpid(pid_, nullptr, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  KillLeftovers();
  fs::remove_all(dir_);
}

void Containerd::Fail(const std::string& why) {
  const std::string log = ReadFile(dir_ + "/containerd.log");
  error_ = absl::StrCat(why, "\ncontainerd's log ends:\n",
                        log.substr(log.size() > 4000 ? log.size() - 4000 : 0));
}

bool Containerd::Start() {
  fs::create_directories(dir_ + "/run");
  std::ofstream(dir_ + "/config.toml") << absl::StrReplaceAll(
      kConfig, {{"$DIR", dir_}, {"$SOCKET", socket_}, {"$PAUSE_IMAGE", pause_image_}});
  // Everything the child needs is made before it forks: gRPC has threads.
  const std::string log_path = dir_ + "/containerd.log";
  const std::string run = dir_ + "/run";
  const std::string config = dir_ + "/config.toml";
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);
    const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, STDIN_FILENO);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    // Shims put their sockets in /run/containerd/s whatever the config
    // says: containerd gets a /run of its own, in a mount namespace that
    // also keeps the containers' mounts off the host's table.
    if (unshare(CLONE_NEWNS) != 0 ||
        mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        mount(run.c_str(), "/run", nullptr, MS_BIND, nullptr) != 0) {
      perror("a mount namespace for containerd");
      _exit(126);
    }
    execlp("containerd", "containerd", "--config", config.c_str(), nullptr);
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    // Not before the socket is there: a refused connection costs a second
    // of gRPC's reconnect backoff.
    if (fs::exists(socket_) && !cri_->Version(std::chrono::seconds(2)).empty()) return true;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      Fail(absl::StrCat("containerd exited with status ", status));
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      Fail("containerd's CRI did not answer Version within 20 s: " + cri_->error());
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// The CRI starts a pod's sandbox with its image's command, and refuses an
// image without one; a busybox sleeping forever stands in for the pause
// image. Both go over as one `podman save` archive: the pause image only
// lives in podman for that moment, under a name of this process's own.
bool Containerd::ImportImages() {
  const fs::path build = fs::path(dir_) / "pause-build";
  fs::create_directories(build);
  std::ofstream(build / "Containerfile")
      << "FROM " << BusyboxImage() << "\nCMD [\"/bin/sleep\", \"2147483647\"]\n";
  const std::string archive = dir_ + "/images.tar";
  std::string why;
  if (RunArgv({"podman", "--runtime", "runc", "--cgroup-manager", "cgroupfs", "build", "-q", "-t",
               pause_image_, "-f", (build / "Containerfile").string(), build.string()}) != 0) {
    why = "podman build of the pause image failed";
  } else if (RunArgv({"podman", "save", "-q", "-m", "--format", "docker-archive", "-o", archive,
                      BusyboxImage(), pause_image_}) != 0) {
    why = absl::StrCat("podman save of ", BusyboxImage(), " failed (BuildBusyboxImage first)");
  }
  RunArgv({"podman", "rmi", "-f", pause_image_});
  if (why.empty() &&
      RunArgv({"ctr", "--address", socket_, "-n", "k8s.io", "images", "import", archive}) != 0) {
    why = "ctr images import failed";
  }
  fs::remove(archive);
  if (!why.empty()) Fail(why);
  return why.empty();
}

void Containerd::KillLeftovers() {
  // Containers the CRI could not stop, then the shims that ran them
  // (containerd leaves shims running when it stops, by design).
  std::vector<pid_t> pids;
  for (const fs::path& root : CgroupRoots()) {
    for (const std::string& uid : cri_->uids_used()) {
      CgroupProcesses(root / CriCgroupParent(uid).substr(1), &pids);
    }
  }
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  KillAndWait(pids);
  KillAndWait(ProcessesWithArg(socket_));

  // The shims mount (rootfs overlays, the sandboxes' /dev/shm) in
  // containerd's namespace, gone with its last process; this is for any
  // that reached the host's table all the same, innermost first.
  std::vector<std::string> mounts;
  std::istringstream mountinfo(ReadFile("/proc/self/mountinfo"));
  for (std::string line; std::getline(mountinfo, line);) {
    const std::vector<std::string> fields = absl::StrSplit(line, ' ');
    if (fields.size() > 4 && fields[4].rfind(dir_ + "/", 0) == 0) mounts.push_back(fields[4]);
  }
  std::sort(mounts.begin(), mounts.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& mount : mounts) umount2(mount.c_str(), MNT_DETACH);

  // kubelet would remove the pods' cgroups; the kubepods parents go when
  // nothing else is in them.
  for (const fs::path& root : CgroupRoots()) {
    for (const std::string& uid : cri_->uids_used()) {
      RemoveCgroup(root / CriCgroupParent(uid).substr(1));
    }
    rmdir((root / "kubepods/besteffort").c_str());
    rmdir((root / "kubepods").c_str());
  }
}

}  // namespace kestrel::e2e
