#include "agent/containers/runtime_client.h"

#include <curl/curl.h>

#include <memory>

#include "absl/strings/str_cat.h"

namespace kestrel::agent::containers {

// The runtimes' answers become the engine's container metadata.
using namespace ::kestrel::engine::containers;  // NOLINT(google-build-using-namespace)

namespace {

struct Body {
  std::string text;
  bool too_large = false;
};

size_t Append(char* data, size_t size, size_t n, void* user) {
  auto* body = static_cast<Body*>(user);
  if (body->text.size() + size * n > kMaxRuntimeAnswerBytes) {
    body->too_large = true;
    return 0;  // curl stops with CURLE_WRITE_ERROR
  }
  body->text.append(data, size * n);
  return size * n;
}

// A stream's state across curl's callbacks.
struct Stream {
  const std::function<void(std::string_view)>* on_line;
  const std::function<bool()>* stop;
  std::string partial;
  bool skipping = false;  // inside a line too long to keep
};

size_t TakeLines(char* data, size_t size, size_t n, void* user) {
  auto* stream = static_cast<Stream*>(user);
  std::string_view chunk(data, size * n);
  while (!chunk.empty()) {
    const size_t nl = chunk.find('\n');
    const std::string_view piece = chunk.substr(0, nl);
    if (!stream->skipping) stream->partial.append(piece);
    if (stream->partial.size() > kMaxRuntimeAnswerBytes) {
      stream->partial.clear();
      stream->skipping = true;
    }
    if (nl == std::string_view::npos) break;
    if (!stream->skipping && !stream->partial.empty()) (*stream->on_line)(stream->partial);
    stream->partial.clear();
    stream->skipping = false;
    chunk.remove_prefix(nl + 1);
  }
  return size * n;
}

int StopWhenAsked(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return (*static_cast<Stream*>(user)->stop)() ? 1 : 0;
}

}  // namespace

absl::Status RuntimeFollow(const std::string& socket_path, const std::string& path,
                           const std::function<void(std::string_view)>& on_line,
                           const std::function<bool()>& stop) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return absl::InternalError("curl_easy_init failed");
  Stream stream{&on_line, &stop, {}, false};
  const std::string url = absl::StrCat("http://localhost", path);
  curl_easy_setopt(curl.get(), CURLOPT_UNIX_SOCKET_PATH, socket_path.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_PROTOCOLS_STR, "http");
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT_MS, 2000L);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, "kestrel");
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &TakeLines);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &stream);
  // The progress callback runs about once a second even with no data: the
  // stop flag is seen within a second.
  curl_easy_setopt(curl.get(), CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl.get(), CURLOPT_XFERINFOFUNCTION, &StopWhenAsked);
  curl_easy_setopt(curl.get(), CURLOPT_XFERINFODATA, &stream);
  const CURLcode rc = curl_easy_perform(curl.get());
  if (rc == CURLE_OK || rc == CURLE_ABORTED_BY_CALLBACK) return absl::OkStatus();
  return absl::UnavailableError(absl::StrCat(socket_path, ": ", curl_easy_strerror(rc)));
}

absl::StatusOr<std::string> RuntimeGet(const std::string& socket_path, const std::string& path,
                                       std::chrono::milliseconds timeout) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return absl::InternalError("curl_easy_init failed");
  Body body;
  // The host part is ignored on a unix socket; Docker's API wants one.
  const std::string url = absl::StrCat("http://localhost", path);
  curl_easy_setopt(curl.get(), CURLOPT_UNIX_SOCKET_PATH, socket_path.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_PROTOCOLS_STR, "http");
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, "kestrel");
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
  const CURLcode rc = curl_easy_perform(curl.get());
  if (body.too_large) {
    return absl::ResourceExhaustedError(absl::StrCat(socket_path, ": the answer is larger than ",
                                                     kMaxRuntimeAnswerBytes, " bytes"));
  }
  if (rc == CURLE_COULDNT_CONNECT) {
    return absl::UnavailableError(absl::StrCat(socket_path, ": nothing answers"));
  }
  if (rc != CURLE_OK) {
    return absl::UnavailableError(absl::StrCat(socket_path, ": ", curl_easy_strerror(rc)));
  }
  long status = 0;
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status == 404) return absl::NotFoundError(absl::StrCat(socket_path, ": no ", path));
  if (status != 200) {
    return absl::InternalError(absl::StrCat(socket_path, ": ", path, " answered ", status));
  }
  return std::move(body.text);
}

bool RuntimeAnswers(const std::string& socket_path, std::chrono::milliseconds timeout) {
  return RuntimeGet(socket_path, "/_ping", timeout).ok();
}

}  // namespace kestrel::agent::containers
