// Splitting the image reference a container was created from into
// Falco's container.image.repository, .tag and .digest, and the image id
// into container.image.id, the same for every runtime.
#ifndef KESTREL_ENGINE_CONTAINERS_IMAGE_REFERENCE_H_
#define KESTREL_ENGINE_CONTAINERS_IMAGE_REFERENCE_H_

#include <string>
#include <string_view>

namespace kestrel::engine::containers {

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
ImageReference SplitImageReference(std::string_view ref);

// Falco's container.image.id is the image's id as the runtime gives it,
// less the algorithm: all 64 hex digits, not the 12 `docker ps` shows.
std::string ImageId(std::string image);

}  // namespace kestrel::engine::containers

#endif  // KESTREL_ENGINE_CONTAINERS_IMAGE_REFERENCE_H_
