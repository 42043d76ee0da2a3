// The channels for real: a file appended to and reopened after a rename, a
// program reading alerts on its stdin (kept alive, per alert, restarted), a
// stuck program whose queue drops without ever blocking Emit, HTTP POSTs to
// a listener in this test, syslog, stdout, the rate limiter and the
// counters, failures and drops by cause.
#include "agent/outputs/alert_outputs.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../../support/json_value.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace kestrel::agent::outputs {
using engine::alerts::Alert;
using engine::alerts::FieldJsonKind;
namespace rules = engine::rules;
namespace {

using namespace std::chrono_literals;
using ::kestrel::testing::JsonValue;

bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> lines;
  for (absl::string_view l : absl::StrSplit(ReadFile(path), '\n', absl::SkipEmpty())) {
    lines.emplace_back(l);
  }
  return lines;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Alert MakeAlert(std::string output, std::string rule = "Test rule") {
  Alert a;
  a.time_ns = 1700000000000000000ull;
  a.rule = std::move(rule);
  a.priority = rules::Priority::kCritical;
  a.output = std::move(output);
  a.output_fields = {{"proc.name", "cat", FieldJsonKind::kString}};
  a.tags = {"test"};
  a.hostname = "h";
  return a;
}

// Channels off but the one a test turns on.
OutputsConfig Quiet() {
  OutputsConfig c;
  c.stdout_enabled = false;
  return c;
}

// "cause count, ..." for a channel's failures or drops, to compare whole.
std::string CausesOf(const std::vector<AlertOutputs::CauseCount>& causes) {
  std::string text;
  for (const AlertOutputs::CauseCount& c : causes) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", c.cause, " ", c.count);
  }
  return text;
}

AlertOutputs::ChannelStats StatsOf(const AlertOutputs& outputs, std::string_view name) {
  for (const AlertOutputs::ChannelStats& s : outputs.Stats()) {
    if (s.name == name) return s;
  }
  ADD_FAILURE() << "no channel " << name;
  return {};
}

class AlertOutputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kestrel-alerts-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Path(const std::string& name) const { return absl::StrCat(dir_, "/", name); }

  std::string dir_;
};

TEST_F(AlertOutputsTest, FileAppendsAndReopensAfterRename) {
  { std::ofstream(Path("alerts.log")) << "already here\n"; }
  OutputsConfig c = Quiet();
  c.file.enabled = true;
  c.file.filename = Path("alerts.log");
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  AlertOutputs& o = **out;

  o.Emit(MakeAlert("one"));
  o.Emit(MakeAlert("two"));
  ASSERT_TRUE(WaitFor([&] { return StatsOf(o, "file").sent == 2; }));
  // logrotate: rename, then SIGUSR1. Until the reopen, lines follow the file.
  std::filesystem::rename(Path("alerts.log"), Path("alerts.log.1"));
  o.Emit(MakeAlert("three"));
  ASSERT_TRUE(WaitFor([&] { return StatsOf(o, "file").sent == 3; }));
  o.Reopen();
  o.Emit(MakeAlert("four"));
  o.Close(5s);

  const std::vector<std::string> old_lines = Lines(Path("alerts.log.1"));
  ASSERT_EQ(old_lines.size(), 4u) << ReadFile(Path("alerts.log.1"));
  EXPECT_EQ(old_lines[0], "already here");
  EXPECT_TRUE(EndsWith(old_lines[1], ": Critical one")) << old_lines[1];
  EXPECT_TRUE(EndsWith(old_lines[2], ": Critical two")) << old_lines[2];
  EXPECT_TRUE(EndsWith(old_lines[3], ": Critical three")) << old_lines[3];
  const std::vector<std::string> new_lines = Lines(Path("alerts.log"));
  ASSERT_EQ(new_lines.size(), 1u);
  EXPECT_TRUE(EndsWith(new_lines[0], ": Critical four")) << new_lines[0];

  const AlertOutputs::ChannelStats s = StatsOf(o, "file");
  EXPECT_EQ(s.sent, 4u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_EQ(s.dropped, 0u);
}

TEST_F(AlertOutputsTest, FileWithoutKeepAliveAndJsonLines) {
  OutputsConfig c = Quiet();
  c.json_output = true;
  c.file.enabled = true;
  c.file.keep_alive = false;
  c.file.filename = Path("alerts.json");
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  (*out)->Emit(MakeAlert("first", "Rule A"));
  (*out)->Emit(MakeAlert("second", "Rule B"));
  (*out)->Close(5s);
  const std::vector<std::string> lines = Lines(Path("alerts.json"));
  ASSERT_EQ(lines.size(), 2u);
  std::optional<JsonValue> first = JsonValue::Parse(lines[0]);
  ASSERT_TRUE(first.has_value()) << lines[0];
  EXPECT_EQ(first->Find("rule")->text, "Rule A");
  EXPECT_EQ(first->Find("priority")->text, "Critical");
  EXPECT_EQ(first->Find("output_fields")->Find("proc.name")->text, "cat");
  std::optional<JsonValue> second = JsonValue::Parse(lines[1]);
  ASSERT_TRUE(second.has_value()) << lines[1];
  EXPECT_EQ(second->Find("rule")->text, "Rule B");
}

TEST_F(AlertOutputsTest, ProgramKeptAliveReadsEveryLine) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.keep_alive = true;
  c.program.program = absl::StrCat("echo $$ >> ", Path("pids"), "; cat >> ", Path("got"));
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 3; ++i) (*out)->Emit(MakeAlert(absl::StrCat("alert ", i)));
  (*out)->Close(5s);  // closes the program's stdin and waits for it
  const std::vector<std::string> lines = Lines(Path("got"));
  ASSERT_EQ(lines.size(), 3u) << ReadFile(Path("got"));
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(EndsWith(lines[i], absl::StrCat(": Critical alert ", i))) << lines[i];
  }
  EXPECT_EQ(Lines(Path("pids")).size(), 1u);  // one process for all
  EXPECT_EQ(StatsOf(**out, "program").sent, 3u);
}

TEST_F(AlertOutputsTest, ProgramWithoutKeepAliveRunsOncePerAlert) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.keep_alive = false;
  c.program.program = absl::StrCat("echo $$ >> ", Path("pids"), "; cat >> ", Path("got"));
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 3; ++i) (*out)->Emit(MakeAlert(absl::StrCat("alert ", i)));
  (*out)->Close(10s);
  EXPECT_EQ(Lines(Path("got")).size(), 3u) << ReadFile(Path("got"));
  const std::vector<std::string> pids = Lines(Path("pids"));
  ASSERT_EQ(pids.size(), 3u);
  EXPECT_NE(pids[0], pids[1]);
  EXPECT_NE(pids[1], pids[2]);
  EXPECT_EQ(StatsOf(**out, "program").sent, 3u);
}

TEST_F(AlertOutputsTest, AMissingOrFailingProgramRunPerAlertCountsAsFailed) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.program = "kestrel-no-such-program-anywhere";  // sh exits 127
  std::mutex mu;
  std::vector<std::string> told;
  c.on_failure = [&](const std::string& line) {
    std::lock_guard lock(mu);
    told.push_back(line);
  };
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  (*out)->Emit(MakeAlert("one"));
  (*out)->Emit(MakeAlert("two"));
  (*out)->Close(10s);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "program");
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(CausesOf(s.failed_by_cause), "program not found 2");
  // The first failure is told at once, with its cause; the second held
  // back (10 s apart).
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0],
            "program output failed (program not found): program output: sh -c "
            "kestrel-no-such-program-anywhere exited with 127");
}

TEST_F(AlertOutputsTest, AProgramThatExitsNonzeroIsAFailureByExitStatus) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.program = "cat > /dev/null; exit 3";
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 3; ++i) (*out)->Emit(MakeAlert("x"));
  (*out)->Close(10s);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "program");
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.failed, 3u);
  EXPECT_EQ(CausesOf(s.failed_by_cause), "nonzero exit 3");
  EXPECT_TRUE(s.dropped_by_cause.empty());
}

TEST_F(AlertOutputsTest, AFullDiskIsAWriteErrorNamedByErrno) {
  OutputsConfig c = Quiet();
  c.file.enabled = true;
  c.file.filename = "/dev/full";
  std::mutex mu;
  std::vector<std::string> told;
  c.on_failure = [&](const std::string& line) {
    std::lock_guard lock(mu);
    told.push_back(line);
  };
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 4; ++i) (*out)->Emit(MakeAlert("x"));
  (*out)->Close(5s);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "file");
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.failed, 4u);
  EXPECT_EQ(CausesOf(s.failed_by_cause), "write error: No space left on device 4");
  ASSERT_GE(told.size(), 1u);
  EXPECT_EQ(told[0], "file output failed (write error): write: No space left on device");
}

TEST_F(AlertOutputsTest, ProgramThatExitsIsStartedAgain) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.keep_alive = true;
  // Takes one line and exits: the next alert finds the pipe broken.
  c.program.program = absl::StrCat("head -n 1 >> ", Path("got"));
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  (*out)->Emit(MakeAlert("first"));
  ASSERT_TRUE(WaitFor([&] { return Lines(Path("got")).size() == 1; }));
  std::this_thread::sleep_for(200ms);  // head has exited by now
  (*out)->Emit(MakeAlert("second"));
  ASSERT_TRUE(WaitFor([&] { return Lines(Path("got")).size() == 2; }));
  (*out)->Close(5s);
  const std::vector<std::string> lines = Lines(Path("got"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(EndsWith(lines[1], ": Critical second")) << lines[1];
  const AlertOutputs::ChannelStats s = StatsOf(**out, "program");
  EXPECT_EQ(s.sent, 2u);
  EXPECT_EQ(s.failed, 0u);
}

TEST_F(AlertOutputsTest, StuckProgramDropsAndCountsWithoutBlockingEmit) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.keep_alive = true;
  c.program.program = "exec sleep 60";  // never reads its stdin
  c.queue_capacity = 4;
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  const Alert big = MakeAlert(std::string(8192, 'x'));
  constexpr int kAlerts = 100;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kAlerts; ++i) (*out)->Emit(big);
  const auto emit_time = std::chrono::steady_clock::now() - start;
  // 800 KB against a 64 KB pipe and a queue of 4: most are dropped, at once.
  EXPECT_LT(emit_time, 500ms);
  ASSERT_TRUE(WaitFor([&] { return StatsOf(**out, "program").dropped >= kAlerts - 4 - 10; }));

  const auto close_start = std::chrono::steady_clock::now();
  (*out)->Close(200ms);  // the program is killed: it never drains
  EXPECT_LT(std::chrono::steady_clock::now() - close_start, 3s);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "program");
  EXPECT_EQ(s.sent + s.failed + s.dropped, static_cast<uint64_t>(kAlerts))
      << s.sent << " " << s.failed << " " << s.dropped;
  EXPECT_LE(s.sent, 8u);  // what fit in the pipe
  // The queue overflowed while the program slept.
  ASSERT_FALSE(s.dropped_by_cause.empty());
  EXPECT_EQ(s.dropped_by_cause[0].cause, "queue full");
  EXPECT_GT(s.dropped_by_cause[0].count, 0u);
}

TEST_F(AlertOutputsTest, AtAStuckStopTheQueueIsDroppedAndTheWriteCutOff) {
  OutputsConfig c = Quiet();
  c.program.enabled = true;
  c.program.keep_alive = true;
  c.program.program = "exec sleep 60";  // never reads its stdin
  c.queue_capacity = 4;
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  // One at a time, so the channel takes each: 7 fit in the 64 KiB pipe,
  // the 8th blocks half written, the last 3 wait in the queue.
  const Alert big = MakeAlert(std::string(8192, 'x'));
  constexpr int kAlerts = 11;
  for (int i = 0; i < kAlerts; ++i) {
    (*out)->Emit(big);
    std::this_thread::sleep_for(50ms);
  }
  (*out)->Close(200ms);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "program");
  EXPECT_EQ(s.sent + s.failed + s.dropped, static_cast<uint64_t>(kAlerts));
  EXPECT_EQ(CausesOf(s.failed_by_cause), "cut off at shutdown 1") << s.sent;
  EXPECT_EQ(CausesOf(s.dropped_by_cause), absl::StrCat("closed at shutdown ", s.dropped));
  EXPECT_GT(s.dropped, 0u);
}

// A one-shot HTTP server on 127.0.0.1: reads one request, answers `status`.
class OneRequestServer {
 public:
  explicit OneRequestServer(int status) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(listen(fd_, 4), 0);
    socklen_t len = sizeof(addr);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, status] { Serve(status); });
  }
  ~OneRequestServer() {
    Join();
    close(fd_);
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  std::string url() const { return absl::StrCat("http://127.0.0.1:", port_, "/alerts"); }
  // The request, once Join returned.
  std::string head;
  std::string body;

 private:
  void Serve(int status) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 10000) != 1) return;
    const int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) return;
    std::string data;
    char buf[4096];
    size_t header_end = std::string::npos;
    size_t length = 0;
    for (;;) {
      if (header_end == std::string::npos) {
        header_end = data.find("\r\n\r\n");
        if (header_end != std::string::npos) {
          head = data.substr(0, header_end);
          const size_t cl = head.find("Content-Length: ");
          if (cl != std::string::npos) length = std::stoul(head.substr(cl + 16));
        }
      }
      if (header_end != std::string::npos && data.size() >= header_end + 4 + length) break;
      const ssize_t n = read(c, buf, sizeof(buf));
      if (n <= 0) break;
      data.append(buf, static_cast<size_t>(n));
    }
    if (header_end != std::string::npos) body = data.substr(header_end + 4, length);
    const std::string response =
        absl::StrCat("HTTP/1.1 ", status, " X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    (void)!write(c, response.data(), response.size());
    close(c);
  }

  int fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
};

TEST_F(AlertOutputsTest, HttpPostsTheJson) {
  OutputsConfig c = Quiet();
  c.http.enabled = true;
  c.json.include_tags = false;  // the body follows the JSON options
  const Alert alert = MakeAlert("posted \x1b[31m");
  OneRequestServer server(200);
  c.http.url = server.url();
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  (*out)->Emit(alert);
  (*out)->Close(10s);
  server.Join();

  EXPECT_EQ(server.head.substr(0, server.head.find("\r\n")), "POST /alerts HTTP/1.1");
  EXPECT_NE(server.head.find("\r\nContent-Type: application/json\r\n"), std::string::npos)
      << server.head;
  EXPECT_EQ(server.body, AlertToJson(alert, c.json));
  std::optional<JsonValue> v = JsonValue::Parse(server.body);
  ASSERT_TRUE(v.has_value()) << server.body;
  EXPECT_EQ(v->Find("rule")->text, "Test rule");
  EXPECT_EQ(v->Find("tags"), nullptr);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "http");
  EXPECT_EQ(s.sent, 1u);
  EXPECT_EQ(s.failed, 0u);
}

TEST_F(AlertOutputsTest, HttpErrorStatusCountsAsFailed) {
  OutputsConfig c = Quiet();
  c.http.enabled = true;
  {
    OneRequestServer server(500);
    c.http.url = server.url();
    absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
    ASSERT_TRUE(out.ok()) << out.status();
    (*out)->Emit(MakeAlert("x"));
    (*out)->Close(10s);
    const AlertOutputs::ChannelStats s = StatsOf(**out, "http");
    EXPECT_EQ(s.sent, 0u);
    EXPECT_EQ(s.failed, 1u);
    EXPECT_EQ(CausesOf(s.failed_by_cause), "http error status 1");
  }
}

TEST_F(AlertOutputsTest, HttpRefusedAndTimedOutAreTheirOwnCauses) {
  // A port bound and not listening refuses; one listening and never
  // accepting lets curl connect and then wait out its timeout.
  const int closed = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int silent = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  uint16_t ports[2] = {};
  int fds[2] = {closed, silent};
  for (int i = 0; i < 2; ++i) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(fds[i], reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    socklen_t len = sizeof(addr);
    getsockname(fds[i], reinterpret_cast<sockaddr*>(&addr), &len);
    ports[i] = ntohs(addr.sin_port);
  }
  ASSERT_EQ(listen(silent, 4), 0);

  OutputsConfig c = Quiet();
  c.http.enabled = true;
  c.http.timeout = 200ms;
  c.http.url = absl::StrCat("http://127.0.0.1:", ports[0], "/alerts");
  absl::StatusOr<std::unique_ptr<AlertOutputs>> refused = AlertOutputs::Start(c);
  ASSERT_TRUE(refused.ok()) << refused.status();
  (*refused)->Emit(MakeAlert("x"));
  (*refused)->Emit(MakeAlert("y"));
  (*refused)->Close(10s);
  EXPECT_EQ(CausesOf(StatsOf(**refused, "http").failed_by_cause),
            "connect error: Connection refused 2");

  c.http.url = absl::StrCat("http://127.0.0.1:", ports[1], "/alerts");
  absl::StatusOr<std::unique_ptr<AlertOutputs>> slow = AlertOutputs::Start(c);
  ASSERT_TRUE(slow.ok()) << slow.status();
  (*slow)->Emit(MakeAlert("x"));
  (*slow)->Close(10s);
  EXPECT_EQ(CausesOf(StatsOf(**slow, "http").failed_by_cause), "timeout 1");
  close(closed);
  close(silent);
}

TEST_F(AlertOutputsTest, SyslogSendsDatagramsAndCountsAMissingSocketAsFailed) {
  const std::string socket_path = Path("log");
  const int server = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(server, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.size(), sizeof addr.sun_path);
  memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  ASSERT_EQ(bind(server, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);

  OutputsConfig c = Quiet();
  c.syslog_enabled = true;
  c.syslog_socket = socket_path;
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  (*out)->Emit(MakeAlert("kestrel unit test syslog alert"));
  char buf[4096];
  const ssize_t n = recv(server, buf, sizeof buf, 0);
  ASSERT_GT(n, 0);
  const std::string got(buf, static_cast<size_t>(n));
  // <facility user (8) + level>, then syslog(3)'s "Mmm dd hh:mm:ss tag[pid]: ".
  EXPECT_TRUE(
      got.starts_with(absl::StrCat("<", 8 + static_cast<int>(rules::Priority::kCritical), ">")))
      << got;
  EXPECT_TRUE(absl::StrContains(got, absl::StrCat(" kestrel[", getpid(), "]: "))) << got;
  EXPECT_TRUE(got.ends_with("kestrel unit test syslog alert")) << got;

  // No daemon any more: failed, not sent.
  close(server);
  unlink(socket_path.c_str());
  (*out)->Emit(MakeAlert("lost"));
  (*out)->Close(5s);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "syslog");
  EXPECT_EQ(s.sent, 1u);
  EXPECT_EQ(s.failed, 1u);
  // The send to the dead socket fails, and so does the connect again.
  EXPECT_EQ(CausesOf(s.failed_by_cause), "connect error: No such file or directory 1");
}

TEST_F(AlertOutputsTest, StdoutWritesLines) {
  fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  const int file = open(Path("stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(file, 0);
  dup2(file, STDOUT_FILENO);
  OutputsConfig c;  // stdout is on by default
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  if (out.ok()) {
    (*out)->Emit(MakeAlert("to stdout"));
    (*out)->Close(5s);
  }
  dup2(saved, STDOUT_FILENO);
  close(saved);
  close(file);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<std::string> lines = Lines(Path("stdout"));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(EndsWith(lines[0], ": Critical to stdout")) << lines[0];
}

TEST_F(AlertOutputsTest, RateLimitIsPerRule) {
  OutputsConfig c = Quiet();
  c.file.enabled = true;
  c.file.filename = Path("alerts.log");
  c.rate_limit = RateLimit{0.001, 2};  // a burst of 2, then next to nothing
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 5; ++i) (*out)->Emit(MakeAlert("noisy", "Noisy"));
  (*out)->Emit(MakeAlert("quiet", "Quiet"));
  (*out)->Close(5s);
  EXPECT_EQ((*out)->rate_limited(), 3u);
  EXPECT_EQ(StatsOf(**out, "file").sent, 3u);
  EXPECT_EQ(Lines(Path("alerts.log")).size(), 3u);
}

TEST_F(AlertOutputsTest, StartErrorsNameTheChannel) {
  OutputsConfig file = Quiet();
  file.file.enabled = true;
  file.file.filename = Path("no/such/dir/alerts.log");
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(file);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("file output: cannot open"), std::string_view::npos)
      << out.status();

  OutputsConfig program = Quiet();
  program.program.enabled = true;
  out = AlertOutputs::Start(program);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "program output: no program");

  OutputsConfig http = Quiet();
  http.http.enabled = true;
  out = AlertOutputs::Start(http);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "http output: no url");
}

TEST_F(AlertOutputsTest, EmitAfterCloseIsIgnored) {
  OutputsConfig c = Quiet();
  c.file.enabled = true;
  c.file.filename = Path("alerts.log");
  absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
  ASSERT_TRUE(out.ok()) << out.status();
  (*out)->Close(1s);
  (*out)->Emit(MakeAlert("late"));
  (*out)->Close(1s);
  const AlertOutputs::ChannelStats s = StatsOf(**out, "file");
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(ReadFile(Path("alerts.log")), "");
  // Never tried, and counted: every alert is sent, failed or dropped.
  EXPECT_EQ(s.dropped, 1u);
  EXPECT_EQ(CausesOf(s.dropped_by_cause), "closed at shutdown 1");
}

}  // namespace
}  // namespace kestrel::agent::outputs
