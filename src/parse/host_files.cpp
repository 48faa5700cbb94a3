#include "parse/host_files.hpp"
