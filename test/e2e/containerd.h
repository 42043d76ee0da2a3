// A private containerd for the e2e tests: Debian's containerd with its CRI
// plugin, configured for this machine (runc through the cgroupfs driver,
// host-network pods, no CNI, no registry) and kept entirely in a folder of
// its own under /tmp, so a test run neither uses nor leaves anything of a
// system containerd under /run/containerd or /var/lib/containerd.
#ifndef KESTREL_TEST_E2E_CONTAINERD_H_
#define KESTREL_TEST_E2E_CONTAINERD_H_

#include <memory>
#include <string>

#include "cri_client.h"

namespace kestrel::e2e {

class Containerd {
 public:
  // Empty when containerd, its runc shim, ctr, podman and busybox-static
  // are all installed; else which is missing, for GTEST_SKIP.
  static std::string Missing();

  // Starts containerd in /tmp/kestrel-e2e-containerd-<pid>, waits up to
  // 20 s for its CRI to answer, and imports BusyboxImage() (which
  // BuildBusyboxImage must have made) and the pods' sandbox image into its
  // k8s.io namespace. ok() tells whether all of that worked.
  Containerd();
  // Stops and removes every pod cri() made, stops containerd, kills what
  // is left of its shims and their containers, unmounts what it mounted
  // and removes its folder and the pods' cgroups.
  ~Containerd();
  Containerd(const Containerd&) = delete;
  Containerd& operator=(const Containerd&) = delete;

  bool ok() const { return error_.empty(); }
  // Why not ok(), with the tail of containerd's log.
  const std::string& error() const { return error_; }
  const std::string& dir() const { return dir_; }
  const std::string& socket() const { return socket_; }
  CriClient& cri() { return *cri_; }

 private:
  void Fail(const std::string& why);
  bool Start();
  bool ImportImages();
  void KillLeftovers();

  std::string dir_;
  std::string socket_;
  std::string pause_image_;
  int pid_ = -1;
  std::unique_ptr<CriClient> cri_;
  std::string error_;
};

}  // namespace kestrel::e2e

#endif  // KESTREL_TEST_E2E_CONTAINERD_H_
