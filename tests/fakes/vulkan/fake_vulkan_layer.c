/* A Vulkan layer that misbehaves when an instance is created through it, for the blame tests:
 * the real loader loads it through a layer manifest like any layer (explicit, enabled by
 * VK_LOADER_LAYERS_ENABLE or VK_INSTANCE_LAYERS, or implicit), asks its exported
 * vkGetInstanceProcAddr for vkCreateInstance and calls that, which
 *
 *   FAKE_LAYER_CRASH  segfaults
 *   FAKE_LAYER_HANG   never returns
 *
 * (see Vulkan-Loader docs/LoaderLayerInterface.md, "Layer Dispatch Initialization"). */
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#define EXPORT __attribute__((visibility("default")))

static VKAPI_ATTR VkResult VKAPI_CALL layer_create_instance(const VkInstanceCreateInfo* info,
                                                            const VkAllocationCallbacks* alloc,
                                                            VkInstance* instance) {
  (void)info;
  (void)alloc;
  (void)instance;
#ifdef FAKE_LAYER_CRASH
  volatile int* volatile nowhere = NULL;
  *nowhere = 7;
#else
  for (;;) pause();
#endif
  return VK_ERROR_INITIALIZATION_FAILED;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                     const char* name) {
  (void)instance;
  PFN_vkVoidFunction fn = NULL;
  PFN_vkCreateInstance create = layer_create_instance;
  /* ISO C has no cast between function pointer types through void*; copy the bits. */
  if (strcmp(name, "vkCreateInstance") == 0) memcpy(&fn, &create, sizeof fn);
  return fn;
}
