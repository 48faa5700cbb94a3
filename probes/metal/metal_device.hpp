#pragma once
#include <vector>

#include "metal/metal_calls.hpp"
#include "model/metal.hpp"

namespace gpudoctor::metal {

/// Reads one device's properties, each only where the device answers its selector.
MetalDevice read_device(MetalCalls& calls, Object device, int index);

}  // namespace gpudoctor::metal
