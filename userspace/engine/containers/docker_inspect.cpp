#include "engine/containers/docker_inspect.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"

namespace kestrel::engine::containers {
namespace {
// The library is a unity build: these helpers get a namespace of their own
// so that they cannot meet a sibling file's file-local names.
namespace docker_inspect_json {

// yaml-cpp reads JSON as YAML's flow style, except one thing: it refuses a
// UTF-16 surrogate escape ("\ud83d\ude00"), which JSON spells characters
// beyond the BMP with. Rewritten here into the UTF-8 bytes they stand for,
// which a quoted YAML scalar takes as they are; a lone surrogate becomes
// U+FFFD, as Go's decoder (Docker's, Podman's) makes it. Outside strings
// valid JSON has no backslash, so no tracking of where strings are is needed.
bool HexQuad(std::string_view s, size_t at, uint32_t& out) {
  if (at + 4 > s.size()) return false;
  out = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char c = s[i];
    uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
    out = out * 16 + digit;
  }
  return true;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool IsHighSurrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLowSurrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

std::string WithoutSurrogateEscapes(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  size_t i = 0;
  while (i < json.size()) {
    const char c = json[i];
    if (c != '\\' || i + 1 >= json.size()) {
      out += c;
      ++i;
      continue;
    }
    uint32_t unit = 0;
    if (json[i + 1] != 'u' || !HexQuad(json, i + 2, unit) ||
        !(IsHighSurrogate(unit) || IsLowSurrogate(unit))) {
      // Any other escape goes through whole, so that the escaped character
      // ("\\" before a "u") is never read as the start of another escape.
      out.append(json.substr(i, 2));
      i += 2;
      continue;
    }
    uint32_t low = 0;
    if (IsHighSurrogate(unit) && i + 7 < json.size() && json[i + 6] == '\\' && json[i + 7] == 'u' &&
        HexQuad(json, i + 8, low) && IsLowSurrogate(low)) {
      AppendUtf8(out, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
      i += 12;
    } else {
      AppendUtf8(out, 0xFFFD);
      i += 6;
    }
  }
  return out;
}

// `node`'s member `key`, or an undefined node: on a node that is not a map
// yaml-cpp's operator[] throws, and the node it returns for a missing key
// throws on every question but "are you defined".
YAML::Node Member(const YAML::Node& node, const char* key) {
  if (!node.IsDefined() || !node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  YAML::Node child = node[key];
  if (!child.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
  return child;
}

// Rebinds with reset(): yaml-cpp's Node::operator= would write the member
// into the node `at` refers to, that is, into the document.
YAML::Node Path(const YAML::Node& node, std::initializer_list<const char*> keys) {
  YAML::Node at = node;
  for (const char* key : keys) at.reset(Member(at, key));
  return at;
}

// A JSON string is a quoted scalar, which yaml-cpp tags "!"; a number, a
// boolean or null is a plain one ("?"). So 1000 is not the string "1000".
bool IsString(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() && node.Tag() == "!";
}

// The string's bytes as the runtime sent them (escapes decoded, nothing
// else); `fallback` when the node is not a string.
std::string StringOr(const YAML::Node& node, std::string fallback = {}) {
  return IsString(node) ? node.Scalar() : fallback;
}

bool BoolOr(const YAML::Node& node, bool fallback) {
  if (!node.IsDefined() || !node.IsScalar() || node.Tag() != "?") return fallback;
  if (node.Scalar() == "true") return true;
  if (node.Scalar() == "false") return false;
  return fallback;
}

// The strings of a JSON array; its other members are skipped.
std::vector<std::string> Strings(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node.IsDefined() || !node.IsSequence()) return out;
  for (const YAML::Node& item : node) {
    if (IsString(item)) out.push_back(item.Scalar());
  }
  return out;
}

struct ImageReference {
  std::string repository;
  std::string tag;
  std::string digest;
};

// "[host[:port]/]path[:tag][@digest]". The digest is what follows the '@';
// the tag, what follows a ':' after the last '/' (a ':' before it is a
// registry's port). A reference with neither gets the tag "latest": Docker
// and Podman run such a reference as ":latest", and Falco's container
// plugin reports the tag of that normalized name (Docker's RepoTags,
// Podman's ImageName), though its own splitting of a bare reference leaves
// the tag empty. A pinned digest with no tag names no tag. An image id
// ("sha256:<hex>", which `docker run` accepts) names no repository at all.
ImageReference SplitImageReference(std::string_view ref) {
  ImageReference out;
  if (ref.empty() || ref.starts_with("sha256:")) return out;
  std::string_view name = ref;
  if (const size_t at = ref.find('@'); at != std::string_view::npos) {
    name = ref.substr(0, at);
    out.digest = std::string(ref.substr(at + 1));
  }
  const size_t slash = name.rfind('/');
  const size_t colon = name.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    out.repository = std::string(name.substr(0, colon));
    out.tag = std::string(name.substr(colon + 1));
  } else {
    out.repository = std::string(name);
    if (out.digest.empty()) out.tag = "latest";
  }
  return out;
}

// Falco's container.image.id is the image's id as the runtime gives it,
// less the algorithm: all 64 hex digits, not the 12 `docker ps` shows.
std::string ImageId(std::string image) {
  if (image.starts_with("sha256:")) image.erase(0, 7);
  return image;
}

// Docker's zero time ("0001-01-01T00:00:00Z", never started) and anything
// before the epoch or past what 64 bits of ns hold are not known: 0.
uint64_t StartNs(const std::string& started_at) {
  absl::Time t;
  std::string err;
  if (started_at.empty() || !absl::ParseTime(absl::RFC3339_full, started_at, &t, &err)) return 0;
  if (t <= absl::UnixEpoch() || t > absl::FromUnixNanos(std::numeric_limits<int64_t>::max())) {
    return 0;
  }
  return static_cast<uint64_t>(absl::ToUnixNanos(t));
}

// The process the container runs: Docker's Path and Args are its argv,
// the image's entrypoint and command already resolved into it. Falco's
// container plugin fills no command line from the runtime, so this follows
// the runtime. Config.Entrypoint then Config.Cmd stand in when Path is
// missing.
std::string Cmdline(const YAML::Node& root) {
  std::vector<std::string> argv;
  if (std::string path = StringOr(Member(root, "Path")); !path.empty()) {
    argv.push_back(std::move(path));
    for (std::string& arg : Strings(Member(root, "Args"))) argv.push_back(std::move(arg));
  } else {
    argv = Strings(Path(root, {"Config", "Entrypoint"}));
    for (std::string& arg : Strings(Path(root, {"Config", "Cmd"}))) argv.push_back(std::move(arg));
  }
  return absl::StrJoin(argv, " ");
}

// Docker's Healthcheck.Test: ["CMD", argv...], ["CMD-SHELL", "command"]
// (run by /bin/sh -c), ["NONE"] (disabled), or [] (the image's). The
// command line of the process the runtime starts ("sh -c command" for
// CMD-SHELL), so it compares with proc.cmdline; empty when there is none.
std::string Healthcheck(const YAML::Node& test) {
  std::vector<std::string> parts = Strings(test);
  if (parts.size() < 2 || (parts[0] != "CMD" && parts[0] != "CMD-SHELL")) return "";
  const bool shell = parts[0] == "CMD-SHELL";
  parts.erase(parts.begin());
  const std::string command = absl::StrJoin(parts, " ");
  return shell ? "sh -c " + command : command;
}

// NetworkSettings.IPAddress is the default bridge's address (and is gone
// from recent Docker APIs); otherwise the first network, in the runtime's
// order, that gave the container one.
std::string Ip(const YAML::Node& settings) {
  if (std::string ip = StringOr(Member(settings, "IPAddress")); !ip.empty()) return ip;
  const YAML::Node networks = Member(settings, "Networks");
  if (!networks.IsDefined() || !networks.IsMap()) return "";
  for (const auto& entry : networks) {
    if (std::string ip = StringOr(Member(entry.second, "IPAddress")); !ip.empty()) return ip;
  }
  return "";
}

std::vector<ContainerMount> Mounts(const YAML::Node& mounts) {
  std::vector<ContainerMount> out;
  if (!mounts.IsDefined() || !mounts.IsSequence()) return out;
  for (const YAML::Node& m : mounts) {
    if (!m.IsMap()) continue;
    ContainerMount mount;
    mount.source = StringOr(Member(m, "Source"));
    mount.dest = StringOr(Member(m, "Destination"));
    mount.mode = StringOr(Member(m, "Mode"));
    mount.rw = BoolOr(Member(m, "RW"), mount.rw);
    mount.propagation = StringOr(Member(m, "Propagation"));
    out.push_back(std::move(mount));
  }
  return out;
}

// A label whose value is not a string is skipped; the rest are kept whole,
// whatever bytes they hold (the container's author chose them).
std::vector<std::pair<std::string, std::string>> Labels(const YAML::Node& labels) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!labels.IsDefined() || !labels.IsMap()) return out;
  for (const auto& entry : labels) {
    if (IsString(entry.first) && IsString(entry.second)) {
      out.emplace_back(entry.first.Scalar(), entry.second.Scalar());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<ContainerMetadata> FromDocument(const YAML::Node& root) {
  if (!root.IsMap()) return absl::InvalidArgumentError("container inspect: not a JSON object");
  ContainerMetadata m;
  m.id = StringOr(Member(root, "Id"));
  if (m.id.empty()) return absl::InvalidArgumentError("container inspect: no \"Id\"");

  m.name = StringOr(Member(root, "Name"));
  if (m.name.starts_with('/')) m.name.erase(0, 1);

  const YAML::Node config = Member(root, "Config");
  m.image = StringOr(Member(config, "Image"));
  ImageReference ref = SplitImageReference(m.image);
  m.image_repository = std::move(ref.repository);
  m.image_tag = std::move(ref.tag);
  m.image_digest = std::move(ref.digest);
  m.image_id = ImageId(StringOr(Member(root, "Image")));
  m.labels = Labels(Member(config, "Labels"));
  m.user = StringOr(Member(config, "User"));
  m.healthcheck = Healthcheck(Path(config, {"Healthcheck", "Test"}));
  m.cmdline = Cmdline(root);

  // Docker's modes: "host" shares the host's namespace; "container:<id>",
  // "private", "shareable" and the rest do not.
  const YAML::Node host = Member(root, "HostConfig");
  m.privileged = BoolOr(Member(host, "Privileged"), false);
  m.host_network = StringOr(Member(host, "NetworkMode")) == "host";
  m.host_pid = StringOr(Member(host, "PidMode")) == "host";
  m.host_ipc = StringOr(Member(host, "IpcMode")) == "host";

  m.mounts = Mounts(Member(root, "Mounts"));
  m.ip = Ip(Member(root, "NetworkSettings"));
  m.start_ns = StartNs(StringOr(Path(root, {"State", "StartedAt"})));
  return m;
}

}  // namespace docker_inspect_json
}  // namespace

absl::StatusOr<ContainerMetadata> ParseDockerInspect(std::string_view json) {
  // yaml-cpp reports everything by exception: none leaves this function.
  try {
    const YAML::Node root = YAML::Load(docker_inspect_json::WithoutSurrogateEscapes(json));
    return docker_inspect_json::FromDocument(root);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("container inspect: not JSON: ", e.what()));
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("container inspect: ", e.what()));
  }
}

}  // namespace kestrel::engine::containers
