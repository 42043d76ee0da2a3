// SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: the digest
// `sha256sum` prints, for --support's rules files.
#ifndef KESTREL_AGENT_CONFIG_SHA256_H_
#define KESTREL_AGENT_CONFIG_SHA256_H_

#include <string>
#include <string_view>

namespace kestrel::agent {

std::string Sha256Hex(std::string_view data);

}  // namespace kestrel::agent

#endif  // KESTREL_AGENT_CONFIG_SHA256_H_
