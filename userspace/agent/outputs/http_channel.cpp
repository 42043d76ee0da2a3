#include <curl/curl.h>

#include <atomic>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "agent/outputs/channels.h"
#include "agent/outputs/delivery_failure.h"

namespace kestrel::agent::outputs {
namespace {

class HttpChannel : public AlertChannel {
 public:
  HttpChannel(CURL* curl, curl_slist* headers) : curl_(curl), headers_(headers) {}
  ~HttpChannel() override {
    curl_easy_cleanup(curl_);
    curl_slist_free_all(headers_);
  }

  std::string_view name() const override { return "http"; }

  absl::Status Send(const FormattedAlert& alert) override {
    if (aborted_.load()) return DeliveryError(FailureCause::kCutAtStop, "http output: closed");
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, alert.json.c_str());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(alert.json.size()));
    const CURLcode rc = curl_easy_perform(curl_);
    if (rc != CURLE_OK) return TransferError(rc);
    long status = 0;
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 400) {
      return DeliveryError(FailureCause::kHttpStatus, absl::StrCat("http output: HTTP ", status));
    }
    return absl::OkStatus();
  }

  void Abort() override { aborted_.store(true); }

  static int Progress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<HttpChannel*>(self)->aborted_.load() ? 1 : 0;
  }
  static size_t Discard(char*, size_t size, size_t n, void*) { return size * n; }

 private:
  // curl's error as a cause: the few an operator acts on apart (a server
  // down, a server too slow), the rest together with curl's words.
  absl::Status TransferError(CURLcode rc) {
    const std::string message = absl::StrCat("http output: ", curl_easy_strerror(rc));
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
      default:
        return DeliveryError(FailureCause::kHttpError, message);
    }
  }

  CURL* curl_;
  curl_slist* headers_;
  std::atomic<bool> aborted_{false};
};

}  // namespace

absl::Status CheckHttpUrl(const std::string& url) {
  const std::string lower = absl::AsciiStrToLower(url.substr(0, 8));
  if (lower.starts_with("http://") || lower.starts_with("https://")) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("http output: \"", absl::CHexEscape(url),
                                                 "\" is not an http:// or https:// URL"));
}

absl::StatusOr<std::unique_ptr<AlertChannel>> MakeHttpChannel(const std::string& url,
                                                              std::chrono::milliseconds timeout) {
  if (url.empty()) return absl::InvalidArgumentError("http output: no url");
  static std::once_flag global_init;
  if (absl::Status s = CheckHttpUrl(url); !s.ok()) return s;
  std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = curl_easy_init();
  if (!curl) return absl::InternalError("http output: cannot create a curl handle");
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  // No "Expect: 100-continue" round trip before larger bodies.
  headers = curl_slist_append(headers, "Expect:");
  auto channel = std::make_unique<HttpChannel>(curl, headers);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  // Redirects too: a server must not send the post to file:// or gopher://.
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "kestrel");
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &HttpChannel::Discard);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &HttpChannel::Progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, channel.get());
  return channel;
}

}  // namespace kestrel::agent::outputs
