#include "engine/containers/image_reference.h"

namespace kestrel::engine::containers {

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

std::string ImageId(std::string image) {
  if (image.starts_with("sha256:")) image.erase(0, 7);
  return image;
}

}  // namespace kestrel::engine::containers
