// The container inspect document read into ContainerMetadata: a real
// Podman answer, a Docker-shaped one, image references, and documents that
// are broken, mistyped or hostile.
#include "engine/containers/docker_inspect.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace kestrel::engine::containers {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// Podman 4.3's compatible API (GET /containers/kmeta/json) for
// `podman run --privileged -v /etc:/host-etc:ro --network none --label
// app=web localhost/kestrel-busybox:test sleep 60`, trimmed to what is read
// and what sits next to it.
constexpr char kPodman[] =
    R"json({"Id":"951346f8aaee4c638537ae45534a7cbf37fcfa3e27fdb109758d5abd77cd5644","Created":"2026-12-06T04:23:06.446933973Z","Path":"sleep","Args":["60"],"State":{"Status":"running","Running":true,"Pid":26597,"ExitCode":0,"Error":"","StartedAt":"2026-12-06T04:23:06.605162661Z","FinishedAt":"0001-01-01T00:00:00Z","Health":{"Status":"","FailingStreak":0,"Log":null}},"Image":"sha256:ff329beb82bc53abe5a970e07d26d5e508912dc444bdc6bb0473f37fb6442153","Name":"/kmeta","RestartCount":0,"Driver":"overlay","ExecIDs":[],"HostConfig":{"Binds":["/etc:/host-etc:ro,rprivate,rbind"],"LogConfig":{"Type":"json-file","Config":null},"NetworkMode":"none","PortBindings":{},"CapAdd":[],"CapDrop":["SYS_RESOURCE"],"IpcMode":"shareable","Links":null,"PidMode":"private","Privileged":true,"UTSMode":"private","ShmSize":65536000,"ConsoleSize":[0,0],"PidsLimit":2048,"Ulimits":[{"Name":"RLIMIT_NOFILE","Hard":1024,"Soft":1024}],"MaskedPaths":null},"Mounts":[{"Type":"bind","Source":"/etc","Destination":"/host-etc","Mode":"","RW":false,"Propagation":"rprivate"}],"Config":{"Hostname":"951346f8aaee","Domainname":"","User":"","Tty":false,"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","container=podman"],"Cmd":["sleep","60"],"Image":"localhost/kestrel-busybox:test","Volumes":null,"WorkingDir":"/","Entrypoint":[],"OnBuild":null,"Labels":{"app":"web"},"StopSignal":"15","StopTimeout":10},"NetworkSettings":{"Bridge":"","SandboxID":"","Ports":{},"SecondaryIPAddresses":null,"Gateway":"","IPAddress":"","IPPrefixLen":0,"MacAddress":"","Networks":{}}})json";

// Docker 24's shape for `docker run -d --name /web --network host --pid host
// --ipc host -u 1000:1000 --health-cmd 'curl -f http://localhost/'
// nginx@sha256:...` attached afterwards to a user network.
constexpr char kDocker[] = R"json({
  "Id": "3f4a9c0e1b2d3c4e5f60718293a4b5c6d7e8f90112233445566778899aabbccd",
  "Created": "2024-05-01T11:59:59.1Z",
  "Path": "/docker-entrypoint.sh",
  "Args": ["nginx", "-g", "daemon off;"],
  "State": {
    "Status": "running",
    "Running": true,
    "StartedAt": "2024-05-01T12:00:00.123456789Z",
    "FinishedAt": "0001-01-01T00:00:00Z",
    "Health": {"Status": "starting", "FailingStreak": 0, "Log": []}
  },
  "Image": "sha256:0ca0fed353fb77c247abada85aebc667fd1f5fa0b5f6ab1efb26867ba18f2f0a",
  "Name": "/web",
  "HostConfig": {
    "NetworkMode": "host",
    "IpcMode": "host",
    "PidMode": "host",
    "Privileged": false
  },
  "Mounts": [
    {"Type": "volume", "Name": "data", "Source": "/var/lib/docker/volumes/data/_data",
     "Destination": "/data", "Driver": "local", "Mode": "z", "RW": true, "Propagation": ""},
    {"Type": "bind", "Source": "/var/run/docker.sock", "Destination": "/var/run/docker.sock",
     "Mode": "ro", "RW": false, "Propagation": "rprivate"}
  ],
  "Config": {
    "Hostname": "web",
    "User": "1000:1000",
    "Env": ["NGINX_VERSION=1.25.3"],
    "Cmd": ["nginx", "-g", "daemon off;"],
    "Healthcheck": {"Test": ["CMD-SHELL", "curl -f http://localhost/"]},
    "Image": "docker.io/library/nginx@sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac",
    "Entrypoint": ["/docker-entrypoint.sh"],
    "Labels": {
      "maintainer": "NGINX Docker Maintainers <docker-maint@nginx.com>",
      "com.example.tier": "frontend"
    }
  },
  "NetworkSettings": {
    "Bridge": "",
    "IPAddress": "",
    "Networks": {
      "none_yet": {"IPAddress": ""},
      "backend": {"IPAMConfig": null, "Gateway": "172.18.0.1", "IPAddress": "172.18.0.5"},
      "frontend": {"Gateway": "172.19.0.1", "IPAddress": "172.19.0.7"}
    }
  }
})json";

// An inspect document with Config.Image `image` and nothing else of note.
std::string WithImage(const std::string& image) {
  return R"({"Id": "abc", "Config": {"Image": ")" + image + R"("}})";
}

TEST(DockerInspectTest, ReadsPodmansAnswer) {
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(kPodman);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, "951346f8aaee4c638537ae45534a7cbf37fcfa3e27fdb109758d5abd77cd5644");
  EXPECT_EQ(m->name, "kmeta");
  EXPECT_EQ(m->image, "localhost/kestrel-busybox:test");
  EXPECT_EQ(m->image_repository, "localhost/kestrel-busybox");
  EXPECT_EQ(m->image_tag, "test");
  EXPECT_EQ(m->image_digest, "");
  EXPECT_EQ(m->image_id, "ff329beb82bc53abe5a970e07d26d5e508912dc444bdc6bb0473f37fb6442153");
  EXPECT_EQ(m->labels, (Labels{{"app", "web"}}));
  EXPECT_TRUE(m->privileged);
  ASSERT_EQ(m->mounts.size(), 1u);
  EXPECT_EQ(m->mounts[0].source, "/etc");
  EXPECT_EQ(m->mounts[0].dest, "/host-etc");
  EXPECT_EQ(m->mounts[0].mode, "");
  EXPECT_FALSE(m->mounts[0].rw);
  EXPECT_EQ(m->mounts[0].propagation, "rprivate");
  // "none", "private" and "shareable" share nothing with the host.
  EXPECT_FALSE(m->host_network);
  EXPECT_FALSE(m->host_pid);
  EXPECT_FALSE(m->host_ipc);
  EXPECT_EQ(m->user, "");
  EXPECT_EQ(m->ip, "");
  EXPECT_EQ(m->cmdline, "sleep 60");
  EXPECT_EQ(m->start_ns, 1796530986'605162661u);
  EXPECT_EQ(m->healthcheck, "");
}

TEST(DockerInspectTest, ReadsDockersAnswer) {
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(kDocker);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->name, "web");
  EXPECT_EQ(m->image_repository, "docker.io/library/nginx");
  EXPECT_EQ(m->image_tag, "");
  EXPECT_EQ(m->image_digest,
            "sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac");
  EXPECT_EQ(m->image_id, "0ca0fed353fb77c247abada85aebc667fd1f5fa0b5f6ab1efb26867ba18f2f0a");
  EXPECT_EQ(m->labels,
            (Labels{{"com.example.tier", "frontend"},
                    {"maintainer", "NGINX Docker Maintainers <docker-maint@nginx.com>"}}));
  EXPECT_FALSE(m->privileged);
  ASSERT_EQ(m->mounts.size(), 2u);
  EXPECT_EQ(m->mounts[0].source, "/var/lib/docker/volumes/data/_data");
  EXPECT_EQ(m->mounts[0].mode, "z");
  EXPECT_TRUE(m->mounts[0].rw);
  EXPECT_EQ(m->mounts[1].dest, "/var/run/docker.sock");
  EXPECT_EQ(m->mounts[1].mode, "ro");
  EXPECT_FALSE(m->mounts[1].rw);
  EXPECT_TRUE(m->host_network);
  EXPECT_TRUE(m->host_pid);
  EXPECT_TRUE(m->host_ipc);
  EXPECT_EQ(m->user, "1000:1000");
  // The first network, in the document's order, that has an address.
  EXPECT_EQ(m->ip, "172.18.0.5");
  EXPECT_EQ(m->cmdline, "/docker-entrypoint.sh nginx -g daemon off;");
  EXPECT_EQ(m->start_ns, 1714564800'123456789u);
  EXPECT_EQ(m->healthcheck, "sh -c curl -f http://localhost/");
}

TEST(DockerInspectTest, SplitsImageReferences) {
  struct Case {
    std::string image, repository, tag, digest;
  };
  const std::string kDigest =
      "sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac";
  const Case cases[] = {
      {"nginx", "nginx", "latest", ""},
      {"nginx:1.25", "nginx", "1.25", ""},
      {"docker.io/library/nginx:1.25", "docker.io/library/nginx", "1.25", ""},
      {"localhost/kestrel-busybox:test", "localhost/kestrel-busybox", "test", ""},
      {"registry:5000/ns/app:v1", "registry:5000/ns/app", "v1", ""},
      // The port's ':' comes before the last '/': no tag.
      {"registry:5000/ns/app", "registry:5000/ns/app", "latest", ""},
      {"repo@" + kDigest, "repo", "", kDigest},
      {"registry:5000/ns/app@" + kDigest, "registry:5000/ns/app", "", kDigest},
      {"ghcr.io/org/app:v2@" + kDigest, "ghcr.io/org/app", "v2", kDigest},
      // An image id names no repository.
      {"sha256:0ca0fed353fb77c247abada85aebc667fd1f5fa0b5f6ab1efb26867ba18f2f0a", "", "", ""},
      {"", "", "", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.image);
    absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(WithImage(c.image));
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->image, c.image);
    EXPECT_EQ(m->image_repository, c.repository);
    EXPECT_EQ(m->image_tag, c.tag);
    EXPECT_EQ(m->image_digest, c.digest);
  }
}

TEST(DockerInspectTest, MalformedJsonIsAnError) {
  for (const char* doc : {R"({"Id": "abc")", R"({"Id": "abc", "Config": [1, 2})", "{\"Id\": \"", "",
                          "\"just a string\"", "[]", "null", "42"}) {
    SCOPED_TRACE(doc);
    absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(doc);
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(DockerInspectTest, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(ParseDockerInspect(R"({"Id": "abc", "Labels": )" + deep + "}").ok());
}

TEST(DockerInspectTest, NoIdIsAnError) {
  for (const char* doc : {R"({"Name": "/web"})", R"({"Id": ""})", R"({"Id": null})",
                          R"({"Id": 12345})", R"({"Id": ["abc"]})", "{}"}) {
    SCOPED_TRACE(doc);
    absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(doc);
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(DockerInspectTest, WrongTypesLeaveDefaults) {
  const char* docs[] = {
      // Every field of another JSON type than the API's.
      R"({"Id": "abc", "Name": 7, "Image": true, "Path": ["sh"], "Args": "x",
          "State": {"StartedAt": 1714564800},
          "HostConfig": {"Privileged": "true", "NetworkMode": ["host"], "PidMode": 1,
                         "IpcMode": {"host": true}},
          "Mounts": {"Source": "/etc"},
          "Config": {"Image": 5, "User": 1000, "Labels": ["a=b"], "Cmd": "sleep 1",
                     "Entrypoint": {}, "Healthcheck": {"Test": "CMD-SHELL true"}},
          "NetworkSettings": {"IPAddress": 167772161, "Networks": ["10.0.0.1"]}})",
      // Every object a scalar, so that no lookup goes below it.
      R"({"Id": "abc", "State": "running", "HostConfig": "x", "Config": 3,
          "NetworkSettings": false, "Mounts": "none"})",
      // Nulls, as Go writes a nil slice or map.
      R"({"Id": "abc", "Name": null, "Image": null, "Path": null, "Args": null,
          "State": null, "HostConfig": null, "Mounts": null, "Config": null,
          "NetworkSettings": null})",
      R"({"Id": "abc", "Config": {"Labels": null, "Healthcheck": null, "Cmd": null,
          "Entrypoint": null}, "NetworkSettings": {"Networks": null}})",
      // Empty objects and arrays.
      R"({"Id": "abc", "State": {}, "HostConfig": {}, "Mounts": [], "Config": {"Labels": {},
          "Healthcheck": {"Test": []}}, "NetworkSettings": {"Networks": {}}})",
  };
  for (const char* doc : docs) {
    SCOPED_TRACE(doc);
    absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(doc);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->id, "abc");
    EXPECT_EQ(m->name, "");
    EXPECT_EQ(m->image, "");
    EXPECT_EQ(m->image_repository, "");
    EXPECT_EQ(m->image_tag, "");
    EXPECT_EQ(m->image_id, "");
    EXPECT_TRUE(m->labels.empty());
    EXPECT_FALSE(m->privileged);
    EXPECT_TRUE(m->mounts.empty());
    EXPECT_FALSE(m->host_network);
    EXPECT_FALSE(m->host_pid);
    EXPECT_FALSE(m->host_ipc);
    EXPECT_EQ(m->user, "");
    EXPECT_EQ(m->ip, "");
    EXPECT_EQ(m->cmdline, "");
    EXPECT_EQ(m->start_ns, 0u);
    EXPECT_EQ(m->healthcheck, "");
  }
}

TEST(DockerInspectTest, SkipsMistypedMembersOfArraysAndObjects) {
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(R"({"Id": "abc",
      "Path": "sh", "Args": ["-c", 5, null, "true"],
      "Mounts": ["/etc", {"Source": "/a", "Destination": "/b", "RW": "no"}],
      "Config": {"Labels": {"n": 1, "b": true, "z": null, "o": {}, "ok": "1"}},
      "NetworkSettings": {"Networks": {"a": null, "b": "10.0.0.1", "c": {"IPAddress": 1},
                                       "d": {"IPAddress": "10.0.0.4"}}}})");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->cmdline, "sh -c true");
  ASSERT_EQ(m->mounts.size(), 1u);
  EXPECT_EQ(m->mounts[0].source, "/a");
  EXPECT_EQ(m->mounts[0].dest, "/b");
  // RW not known: assumed writable, the default that hides nothing.
  EXPECT_TRUE(m->mounts[0].rw);
  EXPECT_EQ(m->labels, (Labels{{"ok", "1"}}));
  EXPECT_EQ(m->ip, "10.0.0.4");
}

TEST(DockerInspectTest, FallsBackToEntrypointAndCmdWithoutPath) {
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(
      R"({"Id": "abc", "Config": {"Entrypoint": ["/init", "--"], "Cmd": ["app", "-v"]}})");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->cmdline, "/init -- app -v");
}

TEST(DockerInspectTest, TopLevelIpComesFirst) {
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(R"({"Id": "abc",
      "NetworkSettings": {"IPAddress": "172.17.0.2",
                          "Networks": {"bridge": {"IPAddress": "172.17.0.3"}}}})");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->ip, "172.17.0.2");
}

TEST(DockerInspectTest, HealthcheckForms) {
  const std::pair<const char*, const char*> cases[] = {
      {R"(["CMD-SHELL", "curl -f http://localhost/ || exit 1"])",
       "sh -c curl -f http://localhost/ || exit 1"},
      {R"(["CMD", "/bin/check", "--quick"])", "/bin/check --quick"},
      {R"(["NONE"])", ""},
      {R"([])", ""},
      {R"(["CMD"])", ""},
      {R"(["BOGUS", "x"])", ""},
  };
  for (const auto& [test, want] : cases) {
    SCOPED_TRACE(test);
    absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(
        std::string(R"({"Id": "abc", "Config": {"Healthcheck": {"Test": )") + test + "}}}");
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->healthcheck, want);
  }
}

TEST(DockerInspectTest, StartTimes) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"2024-05-01T12:00:00Z", 1714564800'000000000u},
      {"2024-05-01T12:00:00.5Z", 1714564800'500000000u},
      {"2024-05-01T14:00:00.123456789+02:00", 1714564800'123456789u},
      {"2024-05-01T08:00:00-04:00", 1714564800'000000000u},
      // Docker's zero time: never started.
      {"0001-01-01T00:00:00Z", 0},
      {"1969-12-31T23:59:59Z", 0},
      {"9999-12-31T23:59:59Z", 0},
      {"yesterday", 0},
      {"2024-05-01 12:00:00", 0},
      {"", 0},
  };
  for (const auto& [started_at, want] : cases) {
    SCOPED_TRACE(started_at);
    absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(
        std::string(R"({"Id": "abc", "State": {"StartedAt": ")") + started_at + "\"}}");
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->start_ns, want);
  }
}

// What a container's author wrote reaches the fields as bytes, whatever
// they look like to YAML, a shell or a terminal.
TEST(DockerInspectTest, KeepsHostileStringsAsGiven) {
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(R"({"Id": "abc",
      "Name": "//x\" y",
      "Config": {"User": "root\u0000:0", "Labels": {
        "yaml": "*alias &anchor !!binary %TAG {a: b} [c] # not a comment",
        "json": "{\"Id\": \"other\"}",
        "escapes": "\\u0041 \/ \b\f\n\r\t",
        "go": "\u003cscript\u003e \u0026amp; \u2028",
        "utf8": "caf\u00e9 café 😀 \ud83d\ude00",
        "lone": "a\ud800b\udc00c",
        "ansi": "\u001b[31mred\u001b[0m",
        "  spaced key  ": "  spaced value  ",
        "null": "null",
        "true": "true",
        "": ""
      }}})");
  ASSERT_TRUE(m.ok()) << m.status();
  // Only one '/' is Docker's.
  EXPECT_EQ(m->name, "/x\" y");
  EXPECT_EQ(m->user, std::string("root\0:0", 7));
  const std::string kEmoji = "\xF0\x9F\x98\x80";
  const std::string kReplacement = "\xEF\xBF\xBD";
  EXPECT_EQ(m->labels,
            (Labels{{"", ""},
                    {"  spaced key  ", "  spaced value  "},
                    {"ansi", "\x1b[31mred\x1b[0m"},
                    {"escapes", "\\u0041 / \b\f\n\r\t"},
                    {"go", "<script> &amp; \xE2\x80\xA8"},
                    {"json", R"({"Id": "other"})"},
                    {"lone", "a" + kReplacement + "b" + kReplacement + "c"},
                    {"null", "null"},
                    {"true", "true"},
                    {"utf8", "caf\xC3\xA9 caf\xC3\xA9 " + kEmoji + " " + kEmoji},
                    {"yaml", "*alias &anchor !!binary %TAG {a: b} [c] # not a comment"}}));
  EXPECT_EQ(m->id, "abc");
}

TEST(DockerInspectTest, LongStringsAndManyLabels) {
  std::string labels;
  for (int i = 0; i < 1000; ++i) {
    labels += (i ? "," : "") + std::string("\"k") + std::to_string(i) + "\": \"v\"";
  }
  const std::string big(1 << 20, 'x');
  absl::StatusOr<ContainerMetadata> m = ParseDockerInspect(
      R"({"Id": "abc", "Name": ")" + big + R"(", "Config": {"Labels": {)" + labels + "}}}");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->name, big);
  ASSERT_EQ(m->labels.size(), 1000u);
  EXPECT_EQ(m->labels.front().first, "k0");
  EXPECT_EQ(m->labels.back().first, "k999");
}

}  // namespace
}  // namespace kestrel::engine::containers
