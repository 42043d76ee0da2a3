// kernel events: each syscall made with known arguments, success and
// failure, every decoded parameter checked.
#include <gtest/gtest.h>

#include "probe_session.h"
