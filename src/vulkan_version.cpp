#include "vulkan_version.hpp"
