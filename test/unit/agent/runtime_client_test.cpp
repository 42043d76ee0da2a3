// The runtime client against a real unix socket served by a scripted
// runtime: answers by length, in chunks split across writes, up to the
// close; a 404; nothing listening; a flood, a silence and a trickle that
// must not hold the caller past its timeout; and a followed stream.
#include "agent/containers/runtime_client.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace kestrel::agent::containers {
namespace {

using std::chrono::milliseconds;

// One write of the script, after a pause.
struct Piece {
  std::string bytes;
  milliseconds pause{0};
};

// Serves one connection on a socket of its own: reads the request, writes
// the pieces, then closes (or, with `hold`, keeps the connection open until
// destroyed).
class ScriptedRuntime {
 public:
  explicit ScriptedRuntime(std::vector<Piece> pieces, bool hold = false) {
    char dir[] = "/tmp/kestrel-runtime-XXXXXX";
    EXPECT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = dir_ + "/api.sock";
    listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof(addr.sun_path) - 1);
    EXPECT_EQ(bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(listen(listen_fd_, 1), 0);
    thread_ = std::thread([this, pieces = std::move(pieces), hold] {
      const int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      std::string request;
      char buf[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) break;
        request.append(buf, static_cast<size_t>(n));
      }
      request_ = request;
      for (const Piece& p : pieces) {
        if (done_) break;
        std::this_thread::sleep_for(p.pause);
        if (send(fd, p.bytes.data(), p.bytes.size(), MSG_NOSIGNAL) < 0) break;
      }
      while (hold && !done_) std::this_thread::sleep_for(milliseconds(10));
      close(fd);
    });
  }
  ~ScriptedRuntime() {
    done_ = true;
    shutdown(listen_fd_, SHUT_RDWR);
    thread_.join();
    close(listen_fd_);
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }
  std::string request() {
    thread_.join();
    thread_ = std::thread([] {});
    return request_;
  }

 private:
  std::string dir_, path_;
  int listen_fd_ = -1;
  std::atomic<bool> done_{false};
  std::string request_;
  std::thread thread_;
};

constexpr milliseconds kTimeout(1000);

TEST(RuntimeClientTest, ReadsAnAnswerByItsLength) {
  ScriptedRuntime runtime({{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"}}, /*hold=*/true);
  absl::StatusOr<std::string> body = RuntimeGet(runtime.path(), "/containers/x/json", kTimeout);
  ASSERT_TRUE(body.ok()) << body.status();
  EXPECT_EQ(*body, "hello");
}

TEST(RuntimeClientTest, SendsAGetWithAHost) {
  ScriptedRuntime runtime({{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK"}});
  ASSERT_TRUE(RuntimeGet(runtime.path(), "/_ping", kTimeout).ok());
  const std::string request = runtime.request();
  EXPECT_TRUE(request.starts_with("GET /_ping HTTP/1.1\r\n")) << request;
  EXPECT_NE(request.find("\r\nHost: "), std::string::npos) << request;
}

TEST(RuntimeClientTest, JoinsChunksSplitAcrossWrites) {
  ScriptedRuntime runtime({{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab"},
                           {"cd\r\n", milliseconds(20)},
                           {"3;ext=1\r\nefg\r\n0\r", milliseconds(20)},
                           {"\n\r\n", milliseconds(20)}},
                          /*hold=*/true);
  absl::StatusOr<std::string> body = RuntimeGet(runtime.path(), "/x", kTimeout);
  ASSERT_TRUE(body.ok()) << body.status();
  EXPECT_EQ(*body, "abcdefg");
}

TEST(RuntimeClientTest, ReadsUpToTheCloseWithoutALength) {
  ScriptedRuntime runtime({{"HTTP/1.0 200 OK\r\n\r\nall of"}, {" it", milliseconds(20)}});
  absl::StatusOr<std::string> body = RuntimeGet(runtime.path(), "/x", kTimeout);
  ASSERT_TRUE(body.ok()) << body.status();
  EXPECT_EQ(*body, "all of it");
}

TEST(RuntimeClientTest, StatusesBecomeErrors) {
  {
    ScriptedRuntime runtime({{"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"}});
    EXPECT_TRUE(absl::IsNotFound(RuntimeGet(runtime.path(), "/x", kTimeout).status()));
  }
  {
    ScriptedRuntime runtime({{"HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"}});
    EXPECT_TRUE(absl::IsInternal(RuntimeGet(runtime.path(), "/x", kTimeout).status()));
  }
  {
    ScriptedRuntime runtime({{"SSH-2.0-OpenSSH\r\n\r\n"}});
    EXPECT_TRUE(absl::IsUnavailable(RuntimeGet(runtime.path(), "/x", kTimeout).status()));
  }
  {
    ScriptedRuntime runtime({{"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"}});
    EXPECT_TRUE(absl::IsUnavailable(RuntimeGet(runtime.path(), "/x", kTimeout).status()));
  }
}

TEST(RuntimeClientTest, NothingListeningIsUnavailable) {
  const absl::Status s = RuntimeGet("/nonexistent/kestrel/api.sock", "/_ping", kTimeout).status();
  EXPECT_TRUE(absl::IsUnavailable(s)) << s;
  EXPECT_NE(s.message().find("nothing answers"), std::string::npos) << s;
  EXPECT_FALSE(RuntimeAnswers("/nonexistent/kestrel/api.sock", kTimeout));
}

TEST(RuntimeClientTest, AFloodStopsAtTheLimit) {
  const std::string big(kMaxRuntimeAnswerBytes + 1, 'x');
  ScriptedRuntime runtime(
      {{"HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(big.size()) + "\r\n\r\n" + big}},
      /*hold=*/true);
  EXPECT_TRUE(absl::IsResourceExhausted(RuntimeGet(runtime.path(), "/x", kTimeout).status()));
}

TEST(RuntimeClientTest, SilenceAndATrickleEndAtTheTimeout) {
  for (bool trickle : {false, true}) {
    std::vector<Piece> pieces = {{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"}};
    if (trickle) {
      for (int i = 0; i < 100; ++i) pieces.push_back({"1\r\nx\r\n", milliseconds(50)});
    }
    ScriptedRuntime runtime(pieces, /*hold=*/true);
    const auto start = std::chrono::steady_clock::now();
    const absl::Status s = RuntimeGet(runtime.path(), "/x", milliseconds(300)).status();
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(absl::IsUnavailable(s)) << s;
    EXPECT_LT(took, milliseconds(1500)) << (trickle ? "trickle" : "silence");
  }
}

TEST(RuntimeClientTest, FollowHandsOnLinesUntilTheEnd) {
  ScriptedRuntime runtime({{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"},
                           {"6\r\n{\"a\":1\r\n", milliseconds(10)},
                           {"a\r\n}\n{\"b\":2}\n\r\n", milliseconds(10)},
                           {"0\r\n\r\n", milliseconds(10)}});
  std::vector<std::string> lines;
  const absl::Status s = RuntimeFollow(
      runtime.path(), "/events", [&](std::string_view line) { lines.emplace_back(line); },
      [] { return false; });
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
}

TEST(RuntimeClientTest, FollowStopsWhenAsked) {
  ScriptedRuntime runtime({{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"}},
                          /*hold=*/true);
  std::atomic<bool> stop{false};
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(milliseconds(200));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const absl::Status s = RuntimeFollow(
      runtime.path(), "/events", [](std::string_view) {}, [&stop] { return stop.load(); });
  stopper.join();
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(2500));
}

}  // namespace
}  // namespace kestrel::agent::containers
