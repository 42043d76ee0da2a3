#include "agent/containers/runtime_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

// HTTP/1.1 over the runtime's unix socket, by hand: the runtimes answer a
// GET with a length or in chunks, and nothing more is needed. libcurl did
// this before, but its first use initialises OpenSSL (config, providers:
// ~2 MB of RSS) in a process that never speaks TLS to a runtime.
namespace kestrel::agent::containers {
namespace {

using Clock = std::chrono::steady_clock;

// The status line and headers of an answer are small; more is not HTTP.
constexpr size_t kMaxHeadBytes = 64 * 1024;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// absl's string functions take absl::string_view, which this abseil keeps
// apart from std::string_view.
absl::string_view Absl(std::string_view text) { return {text.data(), text.size()}; }

absl::Status Unavailable(const std::string& socket_path, std::string_view why) {
  return absl::UnavailableError(absl::StrCat(socket_path, ": ", Absl(why)));
}

// A stream socket connected to `socket_path`, non-blocking.
absl::StatusOr<int> ConnectUnix(const std::string& socket_path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.empty() || socket_path.size() >= sizeof(addr.sun_path)) {
    return absl::InvalidArgumentError(absl::StrCat(socket_path, ": not a socket path"));
  }
  std::memcpy(addr.sun_path, socket_path.data(), socket_path.size());
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return Unavailable(socket_path, std::strerror(errno));
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    close(fd);
    // A unix socket connects at once or not at all (EAGAIN: its backlog
    // is full, which is as good as no answer).
    return Unavailable(socket_path, err == ENOENT || err == ECONNREFUSED
                                        ? "nothing answers"
                                        : std::string_view(std::strerror(err)));
  }
  return fd;
}

// Waits up to `wait` for `events` on `fd`: true when they came.
absl::StatusOr<bool> WaitFor(int fd, short events, std::chrono::milliseconds wait) {
  pollfd p{.fd = fd, .events = events, .revents = 0};
  const int n = poll(&p, 1, static_cast<int>(std::max<int64_t>(0, wait.count())));
  if (n < 0 && errno != EINTR) return absl::InternalError(std::strerror(errno));
  return n > 0;
}

std::chrono::milliseconds Left(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
}

absl::Status SendGet(int fd, const std::string& socket_path, const std::string& path,
                     Clock::time_point deadline) {
  // The host is ignored on a unix socket; Docker's API wants one.
  const std::string request = absl::StrCat("GET ", path,
                                           " HTTP/1.1\r\nHost: localhost\r\nUser-Agent: kestrel\r\n"
                                           "Connection: close\r\n\r\n");
  std::string_view left = request;
  while (!left.empty()) {
    const ssize_t n = send(fd, left.data(), left.size(), MSG_NOSIGNAL);
    if (n > 0) {
      left.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return Unavailable(socket_path, std::strerror(errno));
    }
    absl::StatusOr<bool> ready = WaitFor(fd, POLLOUT, Left(deadline));
    if (!ready.ok()) return ready.status();
    if (!*ready) return Unavailable(socket_path, "timed out sending the request");
  }
  return absl::OkStatus();
}

// An answer read as it arrives: the head, then the body handed on as it is
// decoded (by length, in chunks, or up to the close).
class AnswerReader {
 public:
  explicit AnswerReader(std::function<void(std::string_view)> on_body)
      : on_body_(std::move(on_body)) {}

  // Takes the next bytes off the socket. An error: not an HTTP answer.
  absl::Status Feed(std::string_view bytes) {
    if (!head_done_) {
      head_.append(bytes);
      const size_t end = head_.find("\r\n\r\n");
      if (end == std::string::npos) {
        if (head_.size() > kMaxHeadBytes)
          return absl::InternalError("the answer's head is too long");
        return absl::OkStatus();
      }
      if (absl::Status s = ParseHead(std::string_view(head_).substr(0, end)); !s.ok()) return s;
      head_done_ = true;
      const std::string rest = head_.substr(end + 4);
      head_.clear();
      return Body(rest);
    }
    return Body(bytes);
  }

  bool head_done() const { return head_done_; }
  int status() const { return status_; }
  // The body is complete (its length read, or its last chunk).
  bool done() const { return done_; }
  // The close ended the answer where it may end: a body with no length.
  bool EndsAtClose() const { return head_done_ && !chunked_ && !length_; }

 private:
  absl::Status ParseHead(std::string_view head) {
    // "HTTP/1.1 200 OK", then one "Name: value" per line.
    const std::vector<absl::string_view> lines = absl::StrSplit(Absl(head), "\r\n");
    const std::vector<absl::string_view> status = absl::StrSplit(lines.front(), ' ');
    if (status.size() < 2 || !absl::StartsWith(status[0], "HTTP/1.") ||
        !absl::SimpleAtoi(status[1], &status_)) {
      return absl::InternalError("not an HTTP answer");
    }
    for (size_t i = 1; i < lines.size(); ++i) {
      const size_t colon = lines[i].find(':');
      if (colon == absl::string_view::npos) continue;
      const std::string name =
          absl::AsciiStrToLower(absl::StripAsciiWhitespace(lines[i].substr(0, colon)));
      const absl::string_view value = absl::StripAsciiWhitespace(lines[i].substr(colon + 1));
      if (name == "transfer-encoding" &&
          absl::StrContains(absl::AsciiStrToLower(value), "chunked")) {
        chunked_ = true;
      } else if (name == "content-length") {
        if (uint64_t n = 0; absl::SimpleAtoi(value, &n)) length_ = n;
      }
    }
    if (!chunked_ && length_ && *length_ == 0) done_ = true;
    return absl::OkStatus();
  }

  absl::Status Body(std::string_view bytes) {
    if (done_) return absl::OkStatus();
    if (!chunked_) {
      if (length_) {
        bytes = bytes.substr(0, *length_ - body_read_);
        body_read_ += bytes.size();
        done_ = body_read_ == *length_;
      }
      if (!bytes.empty()) on_body_(bytes);
      return absl::OkStatus();
    }
    while (!bytes.empty() && !done_) {
      if (chunk_left_ == 0) {
        // A chunk's size line (after the previous chunk's CRLF).
        const size_t nl = bytes.find('\n');
        const size_t took = nl == std::string_view::npos ? bytes.size() : nl + 1;
        size_line_.append(bytes.substr(0, took));
        bytes.remove_prefix(took);
        if (size_line_.back() != '\n') {
          if (size_line_.size() > 1024) return absl::InternalError("a chunk size line is too long");
          continue;
        }
        const std::string line = std::move(size_line_);
        size_line_.clear();
        const absl::string_view text = absl::StripAsciiWhitespace(line);
        if (text.empty()) continue;  // the CRLF that ends a chunk's data
        uint64_t size = 0;
        if (!absl::SimpleHexAtoi(absl::StripAsciiWhitespace(text.substr(0, text.find(';'))),
                                 &size)) {
          return absl::InternalError("a bad chunk size");
        }
        if (size == 0) {
          done_ = true;
          break;
        }
        chunk_left_ = size;
        continue;
      }
      const std::string_view data = bytes.substr(0, chunk_left_);
      chunk_left_ -= data.size();
      bytes.remove_prefix(data.size());
      on_body_(data);
    }
    return absl::OkStatus();
  }

  std::function<void(std::string_view)> on_body_;
  std::string head_;
  bool head_done_ = false;
  int status_ = 0;
  bool chunked_ = false;
  std::optional<uint64_t> length_;
  uint64_t body_read_ = 0;
  uint64_t chunk_left_ = 0;
  std::string size_line_;
  bool done_ = false;
};

// Reads the answer until it is complete. `keep_going` is asked before
// every read and after every wait of at most `wait_once`: false ends the
// read with DeadlineExceeded, so a runtime that trickles data forever
// holds the thread no longer than one that sends nothing.
absl::Status ReadAnswer(int fd, const std::string& socket_path, AnswerReader& answer,
                        const std::function<std::chrono::milliseconds()>& wait_once,
                        const std::function<bool()>& keep_going) {
  char buf[16384];
  while (!answer.done()) {
    if (!keep_going()) return absl::DeadlineExceededError("");
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      if (absl::Status s = answer.Feed(std::string_view(buf, static_cast<size_t>(n))); !s.ok()) {
        return Unavailable(socket_path, std::string(s.message()));
      }
      continue;
    }
    if (n == 0) {
      if (answer.EndsAtClose()) return absl::OkStatus();
      return Unavailable(socket_path, "the runtime closed the connection mid-answer");
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return Unavailable(socket_path, std::strerror(errno));
    if (absl::StatusOr<bool> ready = WaitFor(fd, POLLIN, wait_once()); !ready.ok()) {
      return ready.status();
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RuntimeFollow(const std::string& socket_path, const std::string& path,
                           const std::function<void(std::string_view)>& on_line,
                           const std::function<bool()>& stop) {
  absl::StatusOr<int> connected = ConnectUnix(socket_path);
  if (!connected.ok()) return connected.status();
  const Fd fd(*connected);
  if (absl::Status s =
          SendGet(fd.get(), socket_path, path, Clock::now() + std::chrono::milliseconds(2000));
      !s.ok()) {
    return s;
  }
  std::string partial;
  bool skipping = false;  // inside a line too long to keep
  AnswerReader answer([&](std::string_view chunk) {
    while (!chunk.empty()) {
      const size_t nl = chunk.find('\n');
      if (!skipping) partial.append(chunk.substr(0, nl));
      if (partial.size() > kMaxRuntimeAnswerBytes) {
        partial.clear();
        skipping = true;
      }
      if (nl == std::string_view::npos) break;
      if (!skipping && !partial.empty()) on_line(partial);
      partial.clear();
      skipping = false;
      chunk.remove_prefix(nl + 1);
    }
  });
  // The stop flag is asked at least once a second, data or not.
  absl::Status read = ReadAnswer(
      fd.get(), socket_path, answer, [] { return std::chrono::milliseconds(1000); },
      [&stop] { return !stop(); });
  if (absl::IsDeadlineExceeded(read)) return absl::OkStatus();  // asked to stop
  if (!read.ok()) return stop() ? absl::OkStatus() : read;
  if (answer.status() != 200) {
    return absl::InternalError(
        absl::StrCat(socket_path, ": ", path, " answered ", answer.status()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> RuntimeGet(const std::string& socket_path, const std::string& path,
                                       std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  absl::StatusOr<int> connected = ConnectUnix(socket_path);
  if (!connected.ok()) return connected.status();
  const Fd fd(*connected);
  if (absl::Status s = SendGet(fd.get(), socket_path, path, deadline); !s.ok()) return s;
  std::string body;
  bool too_large = false;
  AnswerReader answer([&](std::string_view chunk) {
    if (too_large || body.size() + chunk.size() > kMaxRuntimeAnswerBytes) {
      too_large = true;
      return;
    }
    body.append(chunk);
  });
  absl::Status read = ReadAnswer(
      fd.get(), socket_path, answer, [deadline] { return Left(deadline); },
      [&too_large, deadline] { return !too_large && Clock::now() < deadline; });
  if (too_large) {
    return absl::ResourceExhaustedError(absl::StrCat(socket_path, ": the answer is larger than ",
                                                     kMaxRuntimeAnswerBytes, " bytes"));
  }
  if (absl::IsDeadlineExceeded(read)) {
    return Unavailable(socket_path, absl::StrCat("no answer within ", timeout.count(), " ms"));
  }
  if (!read.ok()) return read;
  if (answer.status() == 404) return absl::NotFoundError(absl::StrCat(socket_path, ": no ", path));
  if (answer.status() != 200) {
    return absl::InternalError(
        absl::StrCat(socket_path, ": ", path, " answered ", answer.status()));
  }
  return body;
}

bool RuntimeAnswers(const std::string& socket_path, std::chrono::milliseconds timeout) {
  return RuntimeGet(socket_path, "/_ping", timeout).ok();
}

}  // namespace kestrel::agent::containers
