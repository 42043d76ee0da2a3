// The user-space half of the settings seqlock described in
// shared/capture_settings.h.
#ifndef KESTREL_LIBPMAN_SETTINGS_STORE_H_
#define KESTREL_LIBPMAN_SETTINGS_STORE_H_

#include "shared/capture_settings.h"

namespace kestrel::pman {

// Publishes `settings` into the slot the probe is not reading and then makes
// it the active one. Callers serialize writers to one store.
void PublishSettings(kestrel_settings_store* store, const kestrel_capture_settings& settings);

// Returns a consistent copy of the active settings.
kestrel_capture_settings ReadSettings(const kestrel_settings_store* store);

}  // namespace kestrel::pman

#endif  // KESTREL_LIBPMAN_SETTINGS_STORE_H_
