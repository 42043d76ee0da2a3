#include "podman.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace kestrel::e2e {
namespace {

namespace fs = std::filesystem;

// podman's options for this machine, before the verb's own.
std::vector<std::string> Podman() {
  return {"podman", "--runtime", "runc", "--cgroup-manager", "cgroupfs"};
}

}  // namespace

std::string BusyboxImage() { return absl::StrCat(kBusyboxRepository, ":pid", getpid()); }

int RunArgv(const std::vector<std::string>& argv, std::string* out) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    const int null = open("/dev/null", O_RDWR);
    dup2(null, STDIN_FILENO);
    if (out == nullptr) dup2(null, STDOUT_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) text.append(buf, n);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (out != nullptr) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool BuildBusyboxImage() {
  if (!fs::exists("/bin/busybox")) {
    std::fprintf(stderr, "container tests need busybox-static (scripts/install-deps.sh)\n");
    return false;
  }
  const fs::path root = fs::temp_directory_path() / absl::StrCat("kestrel-busybox-", getpid());
  fs::create_directories(root / "bin");
  fs::create_directories(root / "tmp");
  fs::copy_file("/bin/busybox", root / "bin/busybox", fs::copy_options::overwrite_existing);
  std::string applets;
  RunArgv({"/bin/busybox", "--list"}, &applets);
  std::istringstream names(applets);
  for (std::string name; std::getline(names, name);) {
    if (!name.empty() && name != "busybox") fs::create_symlink("busybox", root / "bin" / name);
  }
  const std::string tar = root.string() + ".tar";
  bool ok = RunArgv({"tar", "-C", root.string(), "-cf", tar, "."}) == 0;
  std::vector<std::string> import = Podman();
  import.insert(import.end(), {"import", "-q", tar, BusyboxImage()});
  ok = ok && RunArgv(import) == 0;
  fs::remove_all(root);
  fs::remove(tar);
  if (!ok) std::fprintf(stderr, "podman import of %s failed\n", BusyboxImage().c_str());
  return ok;
}

void RemoveBusyboxImage() {
  std::vector<std::string> rmi = Podman();
  rmi.insert(rmi.end(), {"rmi", "-f", BusyboxImage()});
  RunArgv(rmi);
}

PodmanService::PodmanService(std::string socket) : socket_(std::move(socket)) {
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);
    const std::vector<std::string> argv = {"podman",           "--runtime", "runc",
                                           "--cgroup-manager", "cgroupfs",  "system",
                                           "service",          "--time=0",  "unix://" + socket_};
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!Answers() && std::chrono::steady_clock::now() < deadline) usleep(100'000);
}

PodmanService::~PodmanService() {
  kill(-pid_, SIGTERM);
  waitpid(pid_, nullptr, 0);
  fs::remove(socket_);
}

bool PodmanService::Answers() const {
  std::string out;
  return RunArgv({"curl", "-s", "--unix-socket", socket_, "http://d/_ping"}, &out) == 0 &&
         out == "OK";
}

ContainerRun RunContainer(const std::vector<std::string>& options,
                          const std::vector<std::string>& command) {
  const std::string cidfile =
      (fs::temp_directory_path() / absl::StrCat("kestrel-cid-", getpid(), "-", rand())).string();
  std::vector<std::string> argv = Podman();
  argv.insert(argv.end(), {"run", "--rm", "--cidfile", cidfile, "--ulimit", "nofile=1024:1024",
                           "--ulimit", "nproc=1000:1000"});
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(BusyboxImage());
  argv.insert(argv.end(), command.begin(), command.end());
  ContainerRun run;
  run.exit_code = RunArgv(argv, &run.out);
  std::ifstream(cidfile) >> run.id;
  fs::remove(cidfile);
  return run;
}

}  // namespace kestrel::e2e
