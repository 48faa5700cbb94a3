// The Sysman structures probes/level_zero/level_zero_api.hpp declares by hand, against the real
// zes_api.h where libze-dev installs it: the same size and each field at the same offset. Without
// the header the test is skipped (the probe itself never needs it).
#include <gtest/gtest.h>

#include <cstddef>

#include "level_zero/level_zero_api.hpp"

#if __has_include(<level_zero/zes_api.h>)
#include <level_zero/zes_api.h>
#define GPUDOCTOR_HAVE_ZES_API 1
#endif

namespace gpudoctor {
namespace level_zero_sysman_abi_test {

using namespace gpudoctor::level_zero;

#if defined(GPUDOCTOR_HAVE_ZES_API)
#define SAME_FIELD(ours, theirs, a, b) \
  EXPECT_EQ(offsetof(ours, a), offsetof(theirs, b)) << #ours "." #a
TEST(LevelZeroSysmanAbi, LayoutsMatchZesApiH) {
  EXPECT_EQ(sizeof(ZesMemState), sizeof(zes_mem_state_t));
  SAME_FIELD(ZesMemState, zes_mem_state_t, health, health);
  SAME_FIELD(ZesMemState, zes_mem_state_t, free, free);
  SAME_FIELD(ZesMemState, zes_mem_state_t, size, size);
  EXPECT_EQ(sizeof(ZesTempProperties), sizeof(zes_temp_properties_t));
  SAME_FIELD(ZesTempProperties, zes_temp_properties_t, type, type);
  SAME_FIELD(ZesTempProperties, zes_temp_properties_t, max_temperature, maxTemperature);
  SAME_FIELD(ZesTempProperties, zes_temp_properties_t, is_threshold2_supported,
             isThreshold2Supported);
  EXPECT_EQ(sizeof(ZesFreqProperties), sizeof(zes_freq_properties_t));
  SAME_FIELD(ZesFreqProperties, zes_freq_properties_t, type, type);
  SAME_FIELD(ZesFreqProperties, zes_freq_properties_t, min, min);
  SAME_FIELD(ZesFreqProperties, zes_freq_properties_t, max, max);
  EXPECT_EQ(sizeof(ZesFreqState), sizeof(zes_freq_state_t));
  SAME_FIELD(ZesFreqState, zes_freq_state_t, actual, actual);
  SAME_FIELD(ZesFreqState, zes_freq_state_t, throttle_reasons, throttleReasons);
  EXPECT_EQ(sizeof(ZesEngineProperties), sizeof(zes_engine_properties_t));
  SAME_FIELD(ZesEngineProperties, zes_engine_properties_t, type, type);
  EXPECT_EQ(sizeof(ZesEngineStats), sizeof(zes_engine_stats_t));
  SAME_FIELD(ZesEngineStats, zes_engine_stats_t, timestamp, timestamp);
  EXPECT_EQ(kStypeZesMemState, static_cast<std::uint32_t>(ZES_STRUCTURE_TYPE_MEM_STATE));
  EXPECT_EQ(kStypeZesFreqState, static_cast<std::uint32_t>(ZES_STRUCTURE_TYPE_FREQ_STATE));
  EXPECT_EQ(kStypeZesFreqProperties, static_cast<std::uint32_t>(ZES_STRUCTURE_TYPE_FREQ_PROPERTIES));
  EXPECT_EQ(kStypeZesTempProperties, static_cast<std::uint32_t>(ZES_STRUCTURE_TYPE_TEMP_PROPERTIES));
  EXPECT_EQ(kStypeZesEngineProperties,
            static_cast<std::uint32_t>(ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES));
  EXPECT_EQ(kZesTempSensorsGpu, static_cast<std::uint32_t>(ZES_TEMP_SENSORS_GPU));
  EXPECT_EQ(kZesFreqDomainGpu, static_cast<std::uint32_t>(ZES_FREQ_DOMAIN_GPU));
  EXPECT_EQ(kZesEngineGroupAll, static_cast<std::uint32_t>(ZES_ENGINE_GROUP_ALL));
  EXPECT_EQ(kZesEngineGroupComputeAll, static_cast<std::uint32_t>(ZES_ENGINE_GROUP_COMPUTE_ALL));
}
#undef SAME_FIELD
#else
TEST(LevelZeroSysmanAbi, LayoutsMatchZesApiH) { GTEST_SKIP() << "no level_zero/zes_api.h (libze-dev)"; }
#endif

}  // namespace level_zero_sysman_abi_test
}  // namespace gpudoctor
