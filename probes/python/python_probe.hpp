#pragma once
#include <string>
#include <vector>

#include "model/python.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// The Python environments a user would run and the GPU-relevant packages in each, read from
/// files only (no interpreter is started): VIRTUAL_ENV, CONDA_PREFIX, the --python-env
/// directories (prefixes or site-packages directories), python3 on PATH (pyenv shims
/// followed), ~/.conda/environments.txt, the user site (~/.local, ~/Library/Python) and the
/// usual system prefixes. HOME, PATH and the rest come from ctx.env.
PythonInfo probe_python(const ProbeContext& ctx, const std::vector<std::string>& extra_env_dirs);

}  // namespace gpudoctor
