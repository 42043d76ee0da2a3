// Falco's webserver: GET <healthz> ({"status": "ok"} while the reader
// runs, 503 otherwise), GET /versions and, when asked, GET /metrics in
// Prometheus text. Its threads only read what the reader published: a
// request never waits on the reader, nor the reader on a request. The
// server itself is in a module loaded on the first Start
// (webserver_module.h).
#ifndef KESTREL_AGENT_OBSERVE_WEBSERVER_H_
#define KESTREL_AGENT_OBSERVE_WEBSERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace kestrel::agent::observe {

struct WebserverOptions {
  std::string address = "0.0.0.0";
  uint32_t port = 8765;
  uint32_t threads = 0;  // 0: one per CPU
  std::string healthz = "/healthz";
  bool metrics = false;
  bool ssl = false;
  std::string ssl_certificate;  // a PEM with the certificate and its key
  std::function<bool()> healthy;
  std::function<std::string()> versions;      // a JSON document
  std::function<std::string()> metrics_text;  // Prometheus text
};

struct WebserverInstance;

class Webserver {
 public:
  // Bound and listening when it returns. InvalidArgumentError: the
  // address cannot be bound (a port in use), the certificate is unusable.
  // FailedPreconditionError: kestrel_webserver.so cannot be found or
  // loaded.
  static absl::StatusOr<std::unique_ptr<Webserver>> Start(WebserverOptions options);
  ~Webserver();  // Stop()
  Webserver(const Webserver&) = delete;
  Webserver& operator=(const Webserver&) = delete;
  void Stop();
  uint32_t port() const { return port_; }

 private:
  Webserver() = default;
  WebserverInstance* instance_ = nullptr;
  void (*stop_)(WebserverInstance*) = nullptr;
  uint32_t port_ = 0;
};

}  // namespace kestrel::agent::observe

#endif  // KESTREL_AGENT_OBSERVE_WEBSERVER_H_
