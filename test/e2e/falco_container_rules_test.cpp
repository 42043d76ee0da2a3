// Issue 36: Falco's rules that need a container, raised by the real action
// in a real podman container, with container metadata from Podman's API,
// and not raised by the same action on the host. Falco's rules files are
// not part of Kestrel: the suite reads them from KESTREL_FALCO_RULES_DIR
// and passes without checking when it is unset (as falco_rules_fire_test).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "kestrel_process.h"
#include "podman.h"
#include "run_triggers.h"

namespace kestrel::e2e {
namespace {

const char* FalcoRulesDir() { return std::getenv("KESTREL_FALCO_RULES_DIR"); }

constexpr char kApiAddress[] = "127.0.0.2";

// A TCP listener on kApiAddress; connections wait in its backlog.
class ApiListener {
 public:
  ApiListener() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    inet_pton(AF_INET, kApiAddress, &addr.sin_addr);
    socklen_t len = sizeof(addr);
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 && listen(fd_, 16) == 0 &&
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port_ = ntohs(addr.sin_port);
    }
  }
  ~ApiListener() { close(fd_); }
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
};

class FalcoContainerRulesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (FalcoRulesDir() == nullptr) return;
    image_ = BuildBusyboxImage();
    service_ = std::make_unique<PodmanService>(
        absl::StrCat("/tmp/kestrel-e2e-falco-podman-", getpid(), ".sock"));
    dir_ = std::make_unique<RunTempDir>();
    // The Container Drift Detected rules ship disabled; enabled the way a
    // Falco user does it.
    WriteWhole(dir_->File("marker.yaml"), OpenRule(dir_->path()) +
                                              "- rule: Container Drift Detected (chmod)\n"
                                              "  enabled: true\n"
                                              "  override:\n"
                                              "    enabled: replace\n"
                                              "- rule: Container Drift Detected (open+create)\n"
                                              "  enabled: true\n"
                                              "  override:\n"
                                              "    enabled: replace\n");
    // The cluster's API service, as Kestrel resolves it: a loopback
    // address no other test connects to.
    WriteWhole(dir_->File("hosts"), absl::StrCat("127.0.0.1 localhost\n", kApiAddress,
                                                 " kubernetes.default.svc.cluster.local\n"));
    const std::string hosts = dir_->File("hosts");  // read before the constructor returns
    RunAs with_hosts;
    with_hosts.hosts_file = hosts.c_str();
    const std::string rules = FalcoRulesDir();
    run_ = std::make_unique<KestrelProcess>(
        std::vector<std::string>{
            "run", "-r", rules + "/falco_rules.yaml", "-r", rules + "/falco-incubating_rules.yaml",
            "-r", rules + "/falco-sandbox_rules.yaml", "-r", dir_->File("marker.yaml"), "--no-pin",
            "-o", "rule_matching=all", "-o", "container_engines.docker.sockets=[]", "-o",
            "container_engines.podman.sockets=[" + service_->socket() + "]"},
        with_hosts);
    alerting_ = WaitUntilAlerting(*run_, *dir_);
  }
  static void TearDownTestSuite() {
    if (run_) {
      run_->Signal(SIGINT);
      const CliResult r = run_->Wait();
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    run_.reset();
    dir_.reset();
    service_.reset();
    if (image_) RemoveBusyboxImage();
  }
  void SetUp() override {
    if (FalcoRulesDir() != nullptr) {
      ASSERT_TRUE(image_ && service_->Answers() && alerting_);
    }
  }

  // Runs `command` in a container with `options`; the alert line holding
  // both `prefix` and `mark`, if one comes.
  std::optional<std::string> AlertFor(const std::vector<std::string>& options,
                                      const std::vector<std::string>& command,
                                      const std::string& prefix, const std::string& mark) {
    RunContainer(options, command);
    const auto deadline = std::chrono::steady_clock::now() + kAlertTimeout;
    for (const std::string& line : run_->lines()) {
      if (line.find(prefix) != std::string::npos && line.find(mark) != std::string::npos) {
        return line;
      }
    }
    while (std::chrono::steady_clock::now() < deadline) {
      std::optional<std::string> line = run_->WaitForLine(mark, std::chrono::milliseconds(500));
      if (line && line->find(prefix) != std::string::npos) return line;
    }
    return std::nullopt;
  }

  // Whether an alert line holds both `prefix` and `mark`, after a second.
  bool Alerted(const std::string& prefix, const std::string& mark) {
    // No line holds a newline: this reads every line for a second.
    run_->WaitForLine("\n", std::chrono::seconds(1));
    for (const std::string& line : run_->lines()) {
      if (line.find(prefix) != std::string::npos && line.find(mark) != std::string::npos) {
        return true;
      }
    }
    return false;
  }

  static inline bool image_ = false;
  static inline bool alerting_ = false;
  static inline std::unique_ptr<PodmanService> service_;
  static inline std::unique_ptr<RunTempDir> dir_;
  static inline std::unique_ptr<KestrelProcess> run_;
};

std::string Mark(const std::string& what) { return absl::StrCat("kestrel-", what, "-", getpid()); }

// A mount run in a running container: its metadata is there by then. (The
// entrypoint's own exec comes before it: Podman holds a container's lock
// while starting it, so its inspect answers only afterwards.)
TEST_F(FalcoContainerRulesTest, MountLaunchedInPrivilegedContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("mount");
  EXPECT_TRUE(AlertFor({"--privileged", "--network", "none"},
                       {"/bin/sh", "-c", "sleep 1; /bin/mount -t tmpfs " + mark + " /tmp"},
                       "Mount was executed inside a privileged container", mark));
  const std::string plain = Mark("mount-unpriv");
  RunContainer({"--network", "none"},
               {"/bin/sh", "-c", "sleep 1; /bin/mount -t tmpfs " + plain + " /tmp; true"});
  EXPECT_FALSE(Alerted("Mount was executed inside a privileged container", plain));
}

TEST_F(FalcoContainerRulesTest, TerminalShellInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("tty");
  EXPECT_TRUE(AlertFor({"-t", "--network", "none"}, {"/bin/sh", "-c", "true " + mark},
                       "A shell was spawned in a container with an attached terminal", mark));
}

TEST_F(FalcoContainerRulesTest, NetcatRemoteCodeExecutionInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("nc");
  EXPECT_TRUE(AlertFor({"--network", "none"}, {"/bin/nc", "-e", "/bin/true", mark, "9"},
                       "Netcat runs inside container that allows remote code execution", mark));
  // The same on the host: no container, no alert.
  RunTempDir host;
  const std::string nc = host.File("nc");
  std::filesystem::create_symlink("/bin/busybox", nc);
  const std::string host_mark = Mark("nc-host");
  RunArgv({nc, "-e", "/bin/true", host_mark, "9"});
  EXPECT_FALSE(Alerted("Netcat runs inside container", host_mark));
}

TEST_F(FalcoContainerRulesTest, PacketSocketCreatedInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("packet");
  EXPECT_TRUE(AlertFor({"--privileged", "--network", "none"},
                       {"/bin/sh", "-c", "arping -c 1 -w 1 -I lo 127.0.0.1; true " + mark},
                       "Packet socket was created in a container", "arping"));
}

// The rules about a container's first process (proc.vpid=1) judge an event
// that comes before Podman answers: kestrel holds it for them until the
// metadata is there (run_held_events.h).
TEST_F(FalcoContainerRulesTest, LaunchPrivilegedContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("priv");
  EXPECT_TRUE(AlertFor({"--privileged", "--network", "none"},
                       {"/bin/sh", "-c", "sleep 1; true " + mark}, "Privileged container started",
                       mark));
  const std::string plain = Mark("unpriv");
  RunContainer({"--network", "none"}, {"/bin/sh", "-c", "sleep 1; true " + plain});
  EXPECT_FALSE(Alerted("Privileged container started", plain));
}

// Its condition is `not container.mount.dest[/proc*] in ("<NA>","N/A") or
// ...`: with the mounts not known yet, every container would match, so a
// miss and a match both wait for the metadata.
TEST_F(FalcoContainerRulesTest, LaunchSensitiveMountContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("sensitive");
  EXPECT_TRUE(AlertFor({"-v", "/proc:/host/proc:ro", "--network", "none"},
                       {"/bin/sh", "-c", "sleep 1; true " + mark},
                       "Container with sensitive mount started", mark));
  const std::string plain = Mark("insensitive");
  RunContainer({"--network", "none"}, {"/bin/sh", "-c", "sleep 1; true " + plain});
  EXPECT_FALSE(Alerted("Container with sensitive mount started", plain));
}

// A copy of busybox written into the container's upper layer, run as
// `true`; the image's own busybox is not.
TEST_F(FalcoContainerRulesTest, DropAndExecuteNewBinaryInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("drop");
  EXPECT_TRUE(AlertFor({"--network", "none"},
                       {"/bin/sh", "-c", "cp /bin/busybox /true && /true " + mark},
                       "Executing binary not part of base image", mark));
  const std::string plain = Mark("base");
  RunContainer({"--network", "none"}, {"/bin/sh", "-c", "/bin/true " + plain});
  EXPECT_FALSE(Alerted("Executing binary not part of base image", plain));
}

TEST_F(FalcoContainerRulesTest, DebugfsLaunchedInPrivilegedContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("debugfs");
  EXPECT_TRUE(
      AlertFor({"--privileged", "--network", "none"},
               {"/bin/sh", "-c", "sleep 1; cp /bin/busybox /debugfs; /debugfs " + mark + "; true"},
               "Debugfs launched started in a privileged container", mark));
  const std::string plain = Mark("debugfs-unpriv");
  RunContainer(
      {"--network", "none"},
      {"/bin/sh", "-c", "sleep 1; cp /bin/busybox /debugfs; /debugfs " + plain + "; true"});
  EXPECT_FALSE(Alerted("Debugfs launched started in a privileged container", plain));
}

TEST_F(FalcoContainerRulesTest, ReadEnvironmentFromProcInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  // cat reads /proc/1/environ, then fails on the mark (no such file).
  const std::string mark = Mark("environ");
  EXPECT_TRUE(
      AlertFor({"--network", "none"},
               {"/bin/sh", "-c", "sleep 1; cat /proc/1/environ " + mark + " >/dev/null; true"},
               "Environment variables were retrieved from /proc files", mark));
  const std::string host_mark = Mark("environ-host");
  RunArgv({"/bin/sh", "-c", "cat /proc/self/environ " + host_mark + " >/dev/null 2>&1; true"});
  EXPECT_FALSE(Alerted("Environment variables were retrieved from /proc files", host_mark));
}

TEST_F(FalcoContainerRulesTest, ContainerDriftChmod) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("drift");
  EXPECT_TRUE(AlertFor({"--network", "none"},
                       {"/bin/sh", "-c", "sleep 1; touch /" + mark + " && chmod 755 /" + mark},
                       "Drift detected (chmod), new executable created in a container", mark));
  const std::string plain = Mark("drift-noexec");
  RunContainer({"--network", "none"},
               {"/bin/sh", "-c", "sleep 1; touch /" + plain + " && chmod 644 /" + plain});
  EXPECT_FALSE(Alerted("Drift detected (chmod)", plain));
}

// Kestrel resolves the service's name to kApiAddress (its /etc/hosts):
// connecting there from a container alerts, from the host it does not.
TEST_F(FalcoContainerRulesTest, ContactK8sApiServerFromContainer) {
  if (FalcoRulesDir() == nullptr) return;
  ApiListener api;
  ASSERT_NE(api.port(), 0);
  const std::string target = absl::StrCat("->", kApiAddress, ":", api.port());
  EXPECT_TRUE(
      AlertFor({"--network", "host"},
               {"/bin/sh", "-c",
                absl::StrCat("sleep 1; timeout 1 nc ", kApiAddress, " ", api.port(), "; true")},
               "Unexpected connection to K8s API Server from container", target));
  ApiListener host_api;
  const std::string host_target = absl::StrCat("->", kApiAddress, ":", host_api.port());
  RunArgv({"/bin/busybox", "timeout", "1", "/bin/busybox", "nc", kApiAddress,
           std::to_string(host_api.port())});
  EXPECT_FALSE(Alerted("Unexpected connection to K8s API Server", host_target));
}

// Launched with a capability the rule names, one Podman does not give by
// default; without it, no alert.
TEST_F(FalcoContainerRulesTest, LaunchExcessivelyCapableContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("caps");
  EXPECT_TRUE(AlertFor({"--cap-add", "SYS_ADMIN", "--network", "none"},
                       {"/bin/sh", "-c", "sleep 1; true " + mark},
                       "Excessively capable container started", mark));
  const std::string plain = Mark("caps-default");
  RunContainer({"--network", "none"}, {"/bin/sh", "-c", "sleep 1; true " + plain});
  EXPECT_FALSE(Alerted("Excessively capable container started", plain));
}

// The image's busybox has a dpkg applet: run by that name it is, to the
// rule, a package manager.
TEST_F(FalcoContainerRulesTest, PackageManagementProcessInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("dpkg");
  EXPECT_TRUE(
      AlertFor({"--network", "none"},
               {"/bin/sh", "-c", "sleep 1; /bin/dpkg -l " + mark + " >/dev/null 2>&1; true"},
               "Package management process launched in container", mark));
  RunTempDir host;
  const std::string dpkg = host.File("dpkg");
  std::filesystem::create_symlink("/bin/busybox", dpkg);
  const std::string host_mark = Mark("dpkg-host");
  RunArgv({dpkg, "-l", host_mark});
  EXPECT_FALSE(Alerted("Package management process launched in container", host_mark));
}

// No kubectl in the image: busybox linked under that name is one by name,
// all the rule reads.
TEST_F(FalcoContainerRulesTest, KubernetesClientToolLaunchedInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("kubectl");
  EXPECT_TRUE(AlertFor(
      {"--network", "none"},
      {"/bin/sh", "-c",
       "sleep 1; ln -s /bin/busybox /kubectl && /kubectl get pods " + mark + " 2>/dev/null; true"},
      "Kubernetes Client Tool Launched in Container", mark));
  RunTempDir host;
  const std::string kubectl = host.File("kubectl");
  std::filesystem::create_symlink("/bin/busybox", kubectl);
  const std::string host_mark = Mark("kubectl-host");
  RunArgv({kubectl, "get", "pods", host_mark});
  EXPECT_FALSE(Alerted("Kubernetes Client Tool Launched in Container", host_mark));
}

// Busybox's shell runs an applet named without a path as a function, with
// no exec: base64 is named by its path. The shell holds the same words in
// its command line and alerts too: the mark is base64's own command line.
TEST_F(FalcoContainerRulesTest, DecodingPayloadInContainer) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string file = "/tmp/" + Mark("base64");
  const std::string args = "-d " + file;
  EXPECT_TRUE(
      AlertFor({"--network", "none"},
               {"/bin/sh", "-c",
                "sleep 1; echo a2VzdHJlbAo= >" + file + " && /bin/base64 " + args + " >/dev/null"},
               "Decoding Payload in Container", "command=base64 " + args));
  RunTempDir host;
  const std::string host_file = host.File(Mark("base64-host"));
  WriteWhole(host_file, "a2VzdHJlbAo=\n");
  RunArgv({"base64", "-d", host_file});
  EXPECT_FALSE(Alerted("Decoding Payload in Container", host_file));
}

// The rule counts a connect that succeeded (or is under way): the metadata
// address is put on the loopback device of a network namespace of the
// container's own (or the host process's own), with a listener there, and
// goes with the namespace. The client retries until the listener is up; the
// listener gives up if none comes, so no process outlives the test.
// `applet` runs one of busybox's applets by exec (see
// DecodingPayloadInContainer).
std::string MetadataConnect(const std::string& applet, uint16_t port) {
  const std::string p = std::to_string(port);
  return absl::StrCat(applet, "ip addr add 169.254.169.254/32 dev lo && ", applet,
                      "ip link set lo up && { ", applet, "timeout 5 ", applet, "nc -l -p ", p,
                      " </dev/null & ", "for i in 1 2 3 4 5 6 7 8 9 10; do ", applet, "timeout 2 ",
                      applet, "nc 169.254.169.254 ", p,
                      " </dev/null && break; sleep 0.2; done; }; true");
}

TEST_F(FalcoContainerRulesTest, ContactCloudMetadataServiceFromContainer) {
  if (FalcoRulesDir() == nullptr) return;
  // NET_ADMIN to add the address. Each run's namespaces are its own: the
  // port, from the pid, only tells runs' alerts apart.
  const uint16_t port = 20000 + getpid() % 20000;
  EXPECT_TRUE(AlertFor({"--network", "none", "--cap-add", "NET_ADMIN"},
                       {"/bin/sh", "-c", "sleep 1; " + MetadataConnect("/bin/", port)},
                       "Outbound connection to cloud instance metadata service",
                       absl::StrCat("->169.254.169.254:", port)));
  const uint16_t host_port = port + 1;
  RunArgv(
      {"unshare", "-n", "/bin/busybox", "sh", "-c", MetadataConnect("/bin/busybox ", host_port)});
  EXPECT_FALSE(Alerted("Outbound connection to cloud instance metadata service",
                       absl::StrCat("->169.254.169.254:", host_port)));
}

// cp creates its copy with the source's mode, 0755; touch creates 0666.
TEST_F(FalcoContainerRulesTest, ContainerDriftOpenCreate) {
  if (FalcoRulesDir() == nullptr) return;
  const std::string mark = Mark("drift-create");
  EXPECT_TRUE(
      AlertFor({"--network", "none"}, {"/bin/sh", "-c", "sleep 1; cp /bin/busybox /" + mark},
               "Drift detected (open+create), new executable created in a container", mark));
  const std::string plain = Mark("drift-create-noexec");
  RunContainer({"--network", "none"}, {"/bin/sh", "-c", "sleep 1; touch /" + plain});
  EXPECT_FALSE(Alerted("Drift detected (open+create)", plain));
}

// The containers' actions, done on the host: none of these rules alerts.
TEST_F(FalcoContainerRulesTest, TheSameActionsOnTheHostRaiseNone) {
  if (FalcoRulesDir() == nullptr) return;
  const auto count = [&](const std::string& prefix) {
    return CountLinesWith(run_->lines(), prefix);
  };
  const size_t packets_before = count("Packet socket was created in a container");
  RunTempDir host;
  const std::string busybox_copy = host.File("true");
  const std::string debugfs = host.File("debugfs");
  const std::string drifted = host.File(Mark("drift-host"));
  const std::string mount_mark = Mark("mount-host");
  const std::string drop_mark = Mark("drop-host");
  const std::string debugfs_mark = Mark("debugfs-host");
  // The first process of a pid namespace of its own, with every capability.
  const std::string caps_mark = Mark("caps-host");
  RunArgv({"/bin/sh", "-c",
           absl::StrCat("cp /bin/busybox ", busybox_copy, " && ", busybox_copy, " ", drop_mark,
                        "; cp /bin/busybox ", debugfs, "; ", debugfs, " ", debugfs_mark,
                        " 2>/dev/null; touch ", drifted, " && chmod 755 ", drifted,
                        "; unshare -m /bin/busybox mount -t tmpfs ", mount_mark,
                        " /mnt; unshare -p -f /bin/busybox true ", caps_mark,
                        "; /bin/busybox arping -c 1 -w 1 -I lo 127.0.0.1 >/dev/null 2>&1; "
                        "true")});
  EXPECT_FALSE(Alerted("Executing binary not part of base image", drop_mark));
  EXPECT_FALSE(Alerted("Debugfs launched started in a privileged container", debugfs_mark));
  EXPECT_FALSE(Alerted("Drift detected (chmod)", drifted));
  EXPECT_FALSE(Alerted("Drift detected (open+create)", busybox_copy));
  EXPECT_FALSE(Alerted("Excessively capable container started", caps_mark));
  EXPECT_FALSE(Alerted("Mount was executed inside a privileged container", mount_mark));
  EXPECT_EQ(count("Packet socket was created in a container"), packets_before);
  unlink(busybox_copy.c_str());
  unlink(debugfs.c_str());
  unlink(drifted.c_str());
}

}  // namespace
}  // namespace kestrel::e2e
