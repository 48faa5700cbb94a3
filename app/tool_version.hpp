#pragma once
namespace gpudoctor {
inline constexpr const char* kToolVersion = "0.1.0";
}  // namespace gpudoctor
