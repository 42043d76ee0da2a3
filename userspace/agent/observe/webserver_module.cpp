// kestrel_webserver.so: Falco's webserver over cpp-httplib, loaded by
// webserver.cpp when the webserver is enabled (webserver_module.h says why).
#include "agent/observe/webserver_module.h"

#include <httplib.h>

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent/quote.h"

namespace kestrel::agent::observe {

// Prometheus' text exposition format, version 0.0.4.
constexpr char kPrometheusContentType[] = "text/plain; version=0.0.4; charset=utf-8";

struct WebserverInstance {
  std::unique_ptr<httplib::Server> http;
  std::thread thread;
};

namespace {

absl::StatusOr<std::unique_ptr<WebserverInstance>> Start(const WebserverOptions& options) {
  auto server = std::make_unique<WebserverInstance>();
  if (options.ssl) {
#ifdef CPPHTTPLIB_OPENSSL_SUPPORT
    // As Falco: one PEM holds the certificate and its private key.
    auto ssl = std::make_unique<httplib::SSLServer>(options.ssl_certificate.c_str(),
                                                    options.ssl_certificate.c_str());
    if (!ssl->is_valid()) {
      return absl::InvalidArgumentError(
          absl::StrCat("webserver.ssl_certificate ", Quote(options.ssl_certificate),
                       ": not a readable PEM holding a certificate and its private key"));
    }
    server->http = std::move(ssl);
#else
    return absl::InvalidArgumentError(
        "webserver.ssl_enabled: this Kestrel's cpp-httplib was built without OpenSSL");
#endif
  } else {
    server->http = std::make_unique<httplib::Server>();
  }
  httplib::Server& http = *server->http;
  const size_t threads =
      options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // httplib's default adds SO_REUSEPORT, with which a second process binds
  // the same port and shares its connections: a port in use must fail.
  http.set_socket_options([](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // A slow client holds a thread for a few seconds at most.
  http.set_read_timeout(5, 0);
  http.set_write_timeout(5, 0);
  auto healthy = options.healthy;
  http.Get(options.healthz, [healthy](const httplib::Request&, httplib::Response& res) {
    if (healthy && healthy()) {
      res.set_content("{\"status\": \"ok\"}", "application/json");
    } else {
      res.status = 503;
      res.set_content("{\"status\": \"unavailable\"}", "application/json");
    }
  });
  auto versions = options.versions;
  http.Get("/versions", [versions](const httplib::Request&, httplib::Response& res) {
    res.set_content(versions ? versions() : "{}", "application/json");
  });
  if (options.metrics) {
    auto text = options.metrics_text;
    http.Get("/metrics", [text](const httplib::Request&, httplib::Response& res) {
      res.set_content(text ? text() : "", kPrometheusContentType);
    });
  }
  errno = 0;
  if (!http.bind_to_port(options.address, static_cast<int>(options.port))) {
    const int err = errno;
    return absl::InvalidArgumentError(
        absl::StrCat("webserver: cannot listen on ", options.address, ":", options.port,
                     err != 0 ? absl::StrCat(": ", std::strerror(err)) : "",
                     " (webserver.listen_address, webserver.listen_port)"));
  }
  server->thread = std::thread([&http] { http.listen_after_bind(); });
  return server;
}

}  // namespace

}  // namespace kestrel::agent::observe

// The module's two entry points (webserver_module.h), looked up by name.
extern "C" __attribute__((visibility("default"))) kestrel::agent::observe::WebserverInstance*
kestrel_webserver_start(const kestrel::agent::observe::WebserverOptions& options,
                        std::string* error) {
  absl::StatusOr<std::unique_ptr<kestrel::agent::observe::WebserverInstance>> started =
      kestrel::agent::observe::Start(options);
  if (!started.ok()) {
    *error = std::string(started.status().message());
    return nullptr;
  }
  return started->release();
}

extern "C" __attribute__((visibility("default"))) void kestrel_webserver_stop(
    kestrel::agent::observe::WebserverInstance* instance) {
  instance->http->stop();
  if (instance->thread.joinable()) instance->thread.join();
  delete instance;
}
