#pragma once
#include <string>
#include <vector>

#include "model/python.hpp"
#include "probe_context.hpp"

namespace gpudoctor::python {

/// The GPU-relevant distributions installed in one site-packages directory, from their
/// *.dist-info / *.egg-info metadata and the frameworks' own build files. The directory is
/// listed once; only the relevant entries are opened. Problems go to `errors`, naming the file.
std::vector<PythonPackage> scan_site_packages(const Root& root, const std::string& dir,
                                              std::vector<std::string>& errors);

/// The Keras backend this user would get (KERAS_BACKEND, $KERAS_HOME or ~/.keras/keras.json).
KerasConfig read_keras_config(const ProbeContext& ctx, std::vector<std::string>& errors);

}  // namespace gpudoctor::python
