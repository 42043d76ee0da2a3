// Real containers for the e2e tests: Debian's podman as this machine runs
// it (runc, the cgroupfs manager, explicit ulimits: crun refuses the hybrid
// cgroup layout and raising limits is not permitted), from an image built
// here out of busybox-static, since no registry is reachable.
#ifndef KESTREL_TEST_E2E_PODMAN_H_
#define KESTREL_TEST_E2E_PODMAN_H_

#include <string>
#include <vector>

namespace kestrel::e2e {

inline constexpr char kBusyboxRepository[] = "localhost/kestrel-e2e-busybox";

// kBusyboxRepository tagged with this process's pid, so that suites of other
// checkouts run at the same time import and remove images of their own: with
// one tag, a suite's import took it from the other suite's image, whose
// containers then failed to start once the first suite removed the tag, and
// whose teardown left its untagged image behind.
std::string BusyboxImage();

// Imports BusyboxImage() (a tarball of /bin/busybox and its applet links);
// false, with why on stderr, when podman or busybox-static is missing.
bool BuildBusyboxImage();
void RemoveBusyboxImage();

struct ContainerRun {
  int exit_code = -1;
  std::string id;  // the runtime's 64 hex digits
  std::string out;
};

// `podman run --rm OPTIONS... BusyboxImage() COMMAND...`, waited for; the
// container is gone when this returns.
ContainerRun RunContainer(const std::vector<std::string>& options,
                          const std::vector<std::string>& command);

// `podman system service` on a socket of its own (Podman's Docker-
// compatible API), stopped with its children when destroyed.
class PodmanService {
 public:
  explicit PodmanService(std::string socket);  // waits up to 20 s for it to answer
  ~PodmanService();
  PodmanService(const PodmanService&) = delete;
  PodmanService& operator=(const PodmanService&) = delete;
  bool Answers() const;
  const std::string& socket() const { return socket_; }

 private:
  std::string socket_;
  int pid_ = -1;
};

// The stdout and exit code of `argv`, run without a shell.
int RunArgv(const std::vector<std::string>& argv, std::string* out = nullptr);

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_PODMAN_H_
