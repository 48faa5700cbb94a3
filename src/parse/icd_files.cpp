#include "parse/icd_files.hpp"
