// The HTTP output against a real HTTPS receiver on loopback (python3's ssl)
// with a CA, a server and a client certificate made by openssl for the
// test: the CA file verifies the server, mTLS presents the client, the user
// agent, a text body when json_output is off, gzip, and a refused
// certificate counted as a failure with its reason.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../../support/json_value.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "agent/outputs/alert_outputs.h"
#include "gtest/gtest.h"

namespace kestrel::agent::outputs {
namespace {

using namespace std::chrono_literals;
using ::kestrel::testing::JsonValue;

// Writes every request it gets as one JSON line: user agent, content type
// and encoding, the client certificate's CN, the body (gunzipped).
constexpr char kReceiver[] = R"py(
import gzip, http.server, json, ssl, sys
out, cert, key, ca, need_client = sys.argv[1:6]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        peer = self.connection.getpeercert()
        cn = dict(x[0] for x in peer["subject"]).get("commonName", "") if peer else ""
        with open(out, "a") as f:
            f.write(json.dumps({"ua": self.headers.get("User-Agent", ""),
                                "type": self.headers.get("Content-Type", ""),
                                "encoding": self.headers.get("Content-Encoding", ""),
                                "client": cn, "body": body.decode("utf-8", "replace")}) + "\n")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
context.load_verify_locations(ca)
context.verify_mode = ssl.CERT_REQUIRED if need_client == "1" else ssl.CERT_OPTIONAL
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
)py";

int Shell(const std::string& command) { return std::system(command.c_str()); }

class HttpsOutputTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(std::filesystem::temp_directory_path() /
                           absl::StrCat("kestrel-https-", getpid()));
    std::filesystem::create_directories(*dir_);
    const std::string d = *dir_;
    // A CA, and a server (127.0.0.1) and a client certificate it signs.
    const std::string make = absl::StrCat(
        "cd ", d, " && ",
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
        "-keyout ca.key -out ca.crt -subj /CN=kestrel-test-ca -days 2 && ",
        "for who in server client; do "
        "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout $who.key "
        "-out $who.csr -subj /CN=kestrel-$who && "
        "printf 'subjectAltName=IP:127.0.0.1\\n' > $who.ext && "
        "openssl x509 -req -in $who.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 "
        "-extfile $who.ext -out $who.crt; done",
        " >/dev/null 2>&1");
    ASSERT_EQ(Shell(make), 0) << make;
    std::ofstream(d + "/receiver.py") << kReceiver;
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void TearDown() override {
    if (receiver_ > 0) {
      kill(receiver_, SIGTERM);
      waitpid(receiver_, nullptr, 0);
    }
  }

  static std::string File(const std::string& name) { return *dir_ + "/" + name; }

  // Starts the receiver; its port.
  uint16_t StartReceiver(bool need_client_cert) {
    std::filesystem::remove(File("requests.jsonl"));
    int out[2];
    EXPECT_EQ(pipe(out), 0);
    receiver_ = fork();
    if (receiver_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      execlp("python3", "python3", File("receiver.py").c_str(), File("requests.jsonl").c_str(),
             File("server.crt").c_str(), File("server.key").c_str(), File("ca.crt").c_str(),
             need_client_cert ? "1" : "0", nullptr);
      _exit(127);
    }
    close(out[1]);
    std::string port;
    char c = 0;
    while (read(out[0], &c, 1) == 1 && c != '\n') port += c;
    close(out[0]);
    return static_cast<uint16_t>(std::atoi(port.c_str()));
  }

  // The requests the receiver wrote, parsed.
  std::vector<JsonValue> Requests() {
    std::ifstream in(File("requests.jsonl"));
    std::vector<JsonValue> out;
    for (std::string line; std::getline(in, line);) {
      if (std::optional<JsonValue> v = JsonValue::Parse(line)) out.push_back(*v);
    }
    return out;
  }

  OutputsConfig Https(uint16_t port) {
    OutputsConfig c;
    c.stdout_enabled = false;
    c.http.enabled = true;
    c.http.url = absl::StrCat("https://127.0.0.1:", port, "/alerts");
    c.http.ca_cert = File("ca.crt");
    c.http.timeout = 5s;
    return c;
  }

  static Alert MakeAlert() {
    Alert a;
    a.time_ns = 1700000000000000000ull;
    a.rule = "Https rule";
    a.priority = engine::rules::Priority::kWarning;
    a.output = "opened /etc/shadow";
    a.hostname = "h";
    return a;
  }

  // Posts one alert through outputs made of `c` and closes them; the
  // outputs, for their stats.
  std::unique_ptr<AlertOutputs> PostOne(const OutputsConfig& c) {
    absl::StatusOr<std::unique_ptr<AlertOutputs>> out = AlertOutputs::Start(c);
    EXPECT_TRUE(out.ok()) << out.status();
    if (!out.ok()) return nullptr;
    (*out)->Emit(MakeAlert());
    (*out)->Close(10s);
    return *std::move(out);
  }

  static std::string* dir_;
  pid_t receiver_ = -1;
};

std::string* HttpsOutputTest::dir_ = nullptr;

TEST_F(HttpsOutputTest, PostsTextOverMutualTlsWithItsAgentAndGzip) {
  OutputsConfig c = Https(StartReceiver(/*need_client_cert=*/true));
  c.http.json = false;
  c.http.mtls = true;
  c.http.client_cert = File("client.crt");
  c.http.client_key = File("client.key");
  c.http.user_agent = "falcosecurity/falco";
  c.http.compress_uploads = true;
  const std::unique_ptr<AlertOutputs> out = PostOne(c);
  ASSERT_NE(out, nullptr);
  const std::vector<JsonValue> got = Requests();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Find("ua")->text, "falcosecurity/falco");
  EXPECT_EQ(got[0].Find("type")->text, "text/plain");
  EXPECT_EQ(got[0].Find("encoding")->text, "gzip");
  EXPECT_EQ(got[0].Find("client")->text, "kestrel-client");
  EXPECT_EQ(got[0].Find("body")->text, engine::alerts::AlertToText(MakeAlert()));
}

TEST_F(HttpsOutputTest, JsonIsVerifiedAgainstTheCaFile) {
  OutputsConfig c = Https(StartReceiver(/*need_client_cert=*/false));
  const std::unique_ptr<AlertOutputs> out = PostOne(c);
  ASSERT_NE(out, nullptr);
  const std::vector<JsonValue> got = Requests();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].Find("type")->text, "application/json");
  EXPECT_EQ(got[0].Find("client")->text, "");
  EXPECT_EQ(got[0].Find("body")->text, engine::alerts::AlertToJson(MakeAlert(), c.json));
}

TEST_F(HttpsOutputTest, AnUnknownCaIsRefusedUnlessInsecure) {
  const uint16_t port = StartReceiver(/*need_client_cert=*/false);
  OutputsConfig c = Https(port);
  c.http.ca_cert = "";
  c.http.ca_path = "/nonexistent-ca-dir";
  const std::unique_ptr<AlertOutputs> refused = PostOne(c);
  ASSERT_NE(refused, nullptr);
  const AlertOutputs::ChannelStats* s = nullptr;
  const std::vector<AlertOutputs::ChannelStats> stats = refused->Stats();
  for (const AlertOutputs::ChannelStats& one : stats) {
    if (one.name == "http") s = &one;
  }
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->failed, 1u);
  ASSERT_EQ(s->failed_by_cause.size(), 1u);
  EXPECT_EQ(s->failed_by_cause[0].cause, "tls error");
  EXPECT_TRUE(Requests().empty());

  c.http.insecure = true;
  const std::unique_ptr<AlertOutputs> insecure = PostOne(c);
  ASSERT_NE(insecure, nullptr);
  EXPECT_EQ(Requests().size(), 1u);
}

TEST_F(HttpsOutputTest, AServerWantingAClientCertificateRefusesNone) {
  OutputsConfig c = Https(StartReceiver(/*need_client_cert=*/true));
  const std::unique_ptr<AlertOutputs> out = PostOne(c);
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(Requests().empty());
  for (const AlertOutputs::ChannelStats& s : out->Stats()) {
    if (s.name == "http") {
      // TLS 1.3 refuses after the handshake: a failed read or a TLS
      // alert, whichever curl sees first.
      EXPECT_EQ(s.failed, 1u);
    }
  }
}

}  // namespace
}  // namespace kestrel::agent::outputs
