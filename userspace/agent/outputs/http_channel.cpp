#include <curl/curl.h>

#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"
#include "agent/outputs/network_channels_module.h"

namespace kestrel::agent::outputs {
namespace {

// `in` as a gzip member into `out` (Content-Encoding: gzip).
bool Gzip(const std::string& in, std::string& out) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return false;
  }
  out.resize(deflateBound(&z, in.size()) + 32);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END;
}

class HttpChannel : public AlertChannel {
 public:
  HttpChannel(CURL* curl, curl_slist* headers, const HttpOptions& options)
      : curl_(curl), headers_(headers), options_(options) {}
  ~HttpChannel() override {
    curl_easy_cleanup(curl_);
    curl_slist_free_all(headers_);
  }

  std::string_view name() const override { return "http"; }

  absl::Status Send(const FormattedAlert& alert) override {
    const std::string* body = options_.json ? &alert.json : &alert.line;
    if (options_.compress_uploads) {
      if (!Gzip(*body, gzipped_)) {
        return DeliveryError(FailureCause::kHttpError, "http output: gzip failed");
      }
      body = &gzipped_;
    }
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, body->data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
    uint32_t timeouts = 0, refusals = 0;
    for (;;) {
      if (aborted_.load()) return DeliveryError(FailureCause::kCutAtStop, "http output: closed");
      error_[0] = '\0';
      const CURLcode rc = curl_easy_perform(curl_);
      long status = 0;
      if (rc == CURLE_OK) curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
      // Falco's retry: a timed-out post, again at once, a few times.
      if (rc == CURLE_OPERATION_TIMEDOUT && timeouts++ < options_.max_consecutive_timeouts) {
        continue;
      }
      // A server restarting refuses connections for a moment: a short
      // backoff, bounded so a dead one costs the queue little.
      if (rc == CURLE_COULDNT_CONNECT && refusals < kTransientRetries) {
        if (!Backoff(std::chrono::milliseconds(100 << refusals++))) continue;
      }
      if (rc != CURLE_OK) return TransferError(rc);
      if (status >= 400) {
        return DeliveryError(FailureCause::kHttpStatus, absl::StrCat("http output: HTTP ", status));
      }
      return absl::OkStatus();
    }
  }

  void Abort() override { aborted_.store(true); }

  static int Progress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<HttpChannel*>(self)->aborted_.load() ? 1 : 0;
  }
  static size_t Discard(char*, size_t size, size_t n, void*) { return size * n; }
  // echo: the server's answer on stdout, whole writes so lines do not mix.
  static size_t Echo(char* data, size_t size, size_t n, void*) {
    const size_t bytes = size * n;
    size_t done = 0;
    while (done < bytes) {
      const ssize_t w = write(STDOUT_FILENO, data + done, bytes - done);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    return bytes;
  }

 private:
  static constexpr uint32_t kTransientRetries = 3;

  // Sleeps `d` in short steps; true when Abort came first.
  bool Backoff(std::chrono::milliseconds d) {
    const auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
      if (aborted_.load()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return aborted_.load();
  }

  // curl's error as a cause: the few an operator acts on apart (a server
  // down, a server too slow, a certificate refused), the rest together
  // with curl's words.
  absl::Status TransferError(CURLcode rc) {
    // curl's own account (the certificate it refused, the address it
    // could not reach), or its code's words when it wrote none.
    const std::string message =
        absl::StrCat("http output: ", error_[0] != '\0' ? error_ : curl_easy_strerror(rc));
    const bool tls_said = absl::StrContains(absl::AsciiStrToLower(message), "certificate") ||
                          absl::StrContains(message, "SSL") || absl::StrContains(message, "TLS");
    switch (rc) {
      case CURLE_OPERATION_TIMEDOUT:
        return DeliveryError(FailureCause::kTimeout, message);
      case CURLE_COULDNT_CONNECT: {
        long err = 0;
        curl_easy_getinfo(curl_, CURLINFO_OS_ERRNO, &err);
        return DeliveryError(FailureCause::kConnectError, message, static_cast<int>(err));
      }
      case CURLE_ABORTED_BY_CALLBACK:  // Abort, at stop
        return DeliveryError(FailureCause::kCutAtStop, message);
      case CURLE_PEER_FAILED_VERIFICATION:
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_SSL_CERTPROBLEM:
      case CURLE_SSL_CACERT_BADFILE:
      case CURLE_SSL_CIPHER:
      case CURLE_SSL_ISSUER_ERROR:
      case CURLE_SSL_CLIENTCERT:
        return DeliveryError(FailureCause::kTlsError, message);
      default:
        // A server refusing the client's certificate (TLS 1.3) does so
        // after the handshake, as a failed read.
        return DeliveryError(tls_said ? FailureCause::kTlsError : FailureCause::kHttpError,
                             message);
    }
  }

  CURL* curl_;
  curl_slist* headers_;
  const HttpOptions options_;
  std::string gzipped_;  // compress_uploads: the body, kept for its capacity

 public:
  char error_[CURL_ERROR_SIZE] = {};  // CURLOPT_ERRORBUFFER
  std::atomic<bool> aborted_{false};
};

}  // namespace

ChannelOrError NewHttpChannel(const HttpOptions& options) {
  static std::once_flag global_init;
  std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = curl_easy_init();
  if (!curl) return absl::InternalError("http output: cannot create a curl handle");
  curl_slist* headers = curl_slist_append(
      nullptr, options.json ? "Content-Type: application/json" : "Content-Type: text/plain");
  // No "Expect: 100-continue" round trip before larger bodies.
  headers = curl_slist_append(headers, "Expect:");
  // compress_uploads: each body gzipped (Falco asks curl for a compressed
  // transfer encoding, which compresses the answer, not the upload).
  if (options.compress_uploads) headers = curl_slist_append(headers, "Content-Encoding: gzip");
  auto channel = std::make_unique<HttpChannel>(curl, headers, options);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, channel->error_);
  curl_easy_setopt(curl, CURLOPT_URL, options.url.c_str());
  // Redirects too: a server must not send the post to file:// or gopher://.
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, options.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION,
                   options.echo ? &HttpChannel::Echo : &HttpChannel::Discard);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &HttpChannel::Progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, channel.get());
  if (options.insecure) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!options.ca_cert.empty()) {
    curl_easy_setopt(curl, CURLOPT_CAINFO, options.ca_cert.c_str());
  } else if (!options.ca_bundle.empty()) {
    curl_easy_setopt(curl, CURLOPT_CAINFO, options.ca_bundle.c_str());
  } else if (!options.ca_path.empty()) {
    curl_easy_setopt(curl, CURLOPT_CAPATH, options.ca_path.c_str());
  }
  if (options.mtls) {
    curl_easy_setopt(curl, CURLOPT_SSLCERT, options.client_cert.c_str());
    curl_easy_setopt(curl, CURLOPT_SSLKEY, options.client_key.c_str());
  }
  if (options.keep_alive) curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  return channel;
}

}  // namespace kestrel::agent::outputs
